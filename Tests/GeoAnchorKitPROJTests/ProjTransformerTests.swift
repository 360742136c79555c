import Foundation
import Testing
import GeoAnchorKit
import GeoAnchorKitTestSupport
@testable import GeoAnchorKitPROJ

/// The PROJ owners: CRS transforms checked against EPSG Guidance Note 7-2 and PROJ test values
/// carried in builtins.gie, closed formulas, round trips; typed errors; batch failure indices.
@Suite("PROJ transformer")
struct ProjTransformerTests {
    /// Reference: EPSG GN7-2 Krovak example (S-JTSK, 50°12′32.442″N 16°50′59.179″E →
    /// E/N of EPSG:5514 "Krovak East North" = the `+czech`-less values) as carried in
    /// builtins.gie; tolerance: the gie file's (1.1 cm). The CRS path goes through PROJ's EPSG
    /// database (EPSG:4156 → EPSG:5514), the gie section through the raw PROJ string, so this
    /// also checks our degree/radian handling of pipelines.
    @Test(.enabled(if: SharedData.shouldRun)) func krovakGuidanceNoteExample() throws {
        let text = try SharedData.text("geodesy/proj_gie/builtins.gie")
        let op = "+proj=krovak +lat_0=49.5 +lon_0=42.5 +k=0.9999 +x_0=0 +y_0=0 +ellps=bessel +pm=ferro"
        let section = try #require(GieSection.find(op, in: text))
        let c = try #require(section.cases.first)
        let e = try #require(c.expect)
        let crs = try ProjTransformer(from: "EPSG:4156", to: "EPSG:5514")
        #expect(crs.sourceUnits == .degrees && crs.targetUnits == .linear)
        let p = try crs.transform(x: c.accept[0], y: c.accept[1])
        #expect(abs(p.x - e[0]) <= c.tolerance && abs(p.y - e[1]) <= c.tolerance, "EPSG:5514: \(p)")
        let pipe = try ProjTransformer(pipeline: op)
        #expect(pipe.sourceUnits == .radians)
        let q = try pipe.transform(x: c.accept[0] * .pi / 180, y: c.accept[1] * .pi / 180)
        #expect(abs(q.x - e[0]) <= c.tolerance && abs(q.y - e[1]) <= c.tolerance, "pipeline: \(q)")
        // Round trip back to geographic: 1 mm on the ground.
        let back = try crs.transform(x: p.x, y: p.y, direction: .inverse)
        #expect(abs(back.x - c.accept[0]) * 111_000 < 1e-3 && abs(back.y - c.accept[1]) * 111_000 < 1e-3)
    }

    /// Reference: PROJ's UTM test values in builtins.gie (GRS80, zone 30 at 0.1 mm and zone 32 at
    /// 0.001 mm), run through the EPSG CRSs ETRS89 (EPSG:4258, GRS80) → ETRS89 / UTM 30N
    /// (EPSG:25830) and 32N (EPSG:25832). Forward and inverse cases; angular results compared
    /// as ground distance.
    @Test(.enabled(if: SharedData.shouldRun), arguments: [("+proj=utm +ellps=GRS80 +zone=30", "EPSG:25830"),
                                                           ("+proj=utm +zone=32", "EPSG:25832")])
    func utmGieValues(operation: String, epsg: String) throws {
        let text = try SharedData.text("geodesy/proj_gie/builtins.gie")
        let section = try #require(GieSection.find(operation, in: text))
        let crs = try ProjTransformer(from: "EPSG:4258", to: epsg)
        #expect(section.cases.count >= 1)
        for c in section.cases {
            let e = try #require(c.expect)
            let p = try crs.transform(x: c.accept[0], y: c.accept[1], direction: c.inverse ? .inverse : .forward)
            if c.inverse {
                let d = hypot((p.x - e[0]) * cos(e[1] * .pi / 180), p.y - e[1]) * .pi / 180 * 6_378_137
                #expect(d <= c.tolerance, "line \(c.line): \(p)")
            } else {
                #expect(abs(p.x - e[0]) <= c.tolerance && abs(p.y - e[1]) <= c.tolerance, "line \(c.line): \(p)")
            }
        }
    }

    /// Reference: the UTM definition (false easting 500 km on the central meridian, northing 0 on
    /// the equator, scale 0.9996 there: northing of 1° of latitude ≈ 0.9996 × meridian arc) and
    /// round trips on WGS 84 / UTM 33N (EPSG:32633) to 1 mm.
    @Test func utm33NorthDefinitionAndRoundTrips() throws {
        let t = try ProjTransformer(from: "EPSG:4326", to: "EPSG:32633")
        let origin = try t.transform(x: 15, y: 0)
        #expect(abs(origin.x - 500_000) < 1e-6 && abs(origin.y) < 1e-6)
        var rng = SplitMix64(seed: 3)
        for _ in 0..<200 {
            let lon = rng.uniform(9, 21), lat = rng.uniform(0, 84)
            let p = try t.transform(x: lon, y: lat)
            let g = try t.transform(x: p.x, y: p.y, direction: .inverse)
            #expect(abs(g.x - lon) * 111_000 < 1e-3 && abs(g.y - lat) * 111_000 < 1e-3, "\(lon),\(lat)")
        }
    }

    /// Reference: EPSG GN7-2 §1.3.3.2 Popular Visualisation Pseudo-Mercator, its closed formula
    /// x = aλ, y = a ln tan(π/4 + φ/2) (a = 6 378 137 m) on random points (1 µm) and the worked
    /// example (24°22′54.433″N, 100°20′W → E −11 169 055.58, N 2 800 000.00; 1 cm). Input is
    /// EPSG:4326, whose EPSG axis order is lat/lon: after normalization x is the longitude.
    @Test func webMercatorFormulaAndExample() throws {
        let t = try ProjTransformer(from: "EPSG:4326", to: "EPSG:3857")
        let ex = try t.transform(x: -(100 + 20.0 / 60), y: 24 + 22.0 / 60 + 54.433 / 3600)
        #expect(abs(ex.x - -11_169_055.58) < 0.01 && abs(ex.y - 2_800_000.00) < 0.01, "\(ex)")
        var rng = SplitMix64(seed: 5)
        let a = 6_378_137.0
        for _ in 0..<500 {
            let lon = rng.uniform(-180, 180), lat = rng.uniform(-85, 85)
            let p = try t.transform(x: lon, y: lat)
            let x = a * lon * .pi / 180, y = a * log(tan(.pi / 4 + lat * .pi / 360))
            #expect(abs(p.x - x) < 1e-6 && abs(p.y - y) < 1e-6, "\(lon),\(lat): \(p) vs \(x),\(y)")
        }
    }

    /// Reference: round trips WGS 84 3-D (EPSG:4979) ↔ S-JTSK / Krovak East North (EPSG:5514) over
    /// Czechia to 5 mm (the target is 2-D: PROJ's inverse Helmert sees the height it is given
    /// back, so PROJ's own round trip is not exact; measured ≤ 1.5 mm); and the datum shift to S-JTSK (Bessel) must move points by a plausible
    /// amount (the EPSG:4156 path on the same numbers differs by 50–250 m, not 0 and not km).
    @Test func wgs84ToKrovakRoundTrips() throws {
        let t = try ProjTransformer(from: "EPSG:4979", to: "EPSG:5514")
        let local = try ProjTransformer(from: "EPSG:4156", to: "EPSG:5514")
        #expect(t.sourceUnits == .degrees && t.targetUnits == .linear)
        var rng = SplitMix64(seed: 8)
        for _ in 0..<100 {
            let lon = rng.uniform(12.2, 18.8), lat = rng.uniform(48.6, 51.0), h = rng.uniform(100, 1500)
            let p = try t.transform(x: lon, y: lat, z: h)
            #expect(p.x < -400_000 && p.x > -950_000 && p.y < -930_000 && p.y > -1_250_000, "\(p)")
            let g = try t.transform(x: p.x, y: p.y, z: p.z, direction: .inverse)
            #expect(abs(g.x - lon) * 111_000 < 5e-3 && abs(g.y - lat) * 111_000 < 5e-3, "\(lon),\(lat) → \(g)")
            let q = try local.transform(x: lon, y: lat)
            let shift = hypot(p.x - q.x, p.y - q.y)
            #expect(shift > 50 && shift < 250, "datum shift \(shift) m")
        }
    }

    /// Bad input: unknown CRS and bad pipeline → `invalidDefinition` naming it; NaN and
    /// latitude 91 → `invalidCoordinate` naming the value; PROJ's own failure (a point on the far
    /// side of an orthographic projection) → `transformFailed` with PROJ's errno.
    @Test func typedErrors() throws {
        #expect {
            try ProjTransformer(from: "EPSG:99999", to: "EPSG:4326")
        } throws: { e in
            guard case .invalidDefinition(let d, let code, _) = e as? ProjError else { return false }
            return d == "EPSG:99999" && code != 0 && "\(e)".contains("EPSG:99999")
        }
        #expect {
            try ProjTransformer(pipeline: "+proj=nonsense +ellps=WGS84")
        } throws: { e in
            guard case .invalidDefinition(let d, _, _) = e as? ProjError else { return false }
            return d == "+proj=nonsense +ellps=WGS84"
        }
        let t = try ProjTransformer(from: "EPSG:4326", to: "EPSG:3857")
        #expect(throws: ProjError.invalidCoordinate(name: "latitude", value: 91, allowed: .closed(-90, 90, unit: "degrees"))) {
            try t.transform(x: 0, y: 91)
        }
        #expect {
            try t.transform(x: .nan, y: 10)
        } throws: { e in
            guard case .nonFiniteCoordinate(let n, let v) = e as? ProjError else { return false }
            return n == "longitude" && v.isNaN
        }
        // An MSL origin is refused before PROJ sees it, with the datum named (typed, not prose).
        #expect(throws: ProjError.invalidOrigin(.verticalReferenceMismatch(expected: .ellipsoid, got: .meanSeaLevel))) {
            try ProjTransformer.localTangentFrame(origin: GeodeticCoordinate(latitude: 50, longitude: 14, altitude: 200))
        }
        let ortho = try ProjTransformer(pipeline: Self.orthographic)
        #expect(ortho.sourceUnits == .degrees)
        #expect {
            try ortho.transform(x: 170, y: 0)
        } throws: { e in
            guard case .transformFailed(let x, _, _, let code, let message) = e as? ProjError else { return false }
            return x == 170 && code != 0 && !message.isEmpty
        }
    }

    /// Batch: one `proj_trans_generic` call; failed indices reported with typed errors, the
    /// others equal to the scalar path bit for bit.
    static let orthographic = "+proj=pipeline +step +proj=unitconvert +xy_in=deg +xy_out=rad +step +proj=ortho +ellps=WGS84"

    @Test func batchReportsFailedIndices() throws {
        let t = try ProjTransformer(pipeline: Self.orthographic)
        var x: [Double] = [14.39, .nan, 0, 170, -12.09, 5]
        var y: [Double] = [49.96, 10, 91, 0, 37.42, -45]
        let (x0, y0) = (x, y)
        let failures = x.withUnsafeMutableBufferPointer { bx in y.withUnsafeMutableBufferPointer { by in t.transform(x: bx, y: by) } }
        try #require(failures.map(\.index) == [1, 2, 3])
        if case .nonFiniteCoordinate(let n, _) = failures[0].error { #expect(n == "longitude") } else { Issue.record("\(failures[0])") }
        if case .invalidCoordinate(let n, let v, _) = failures[1].error { #expect(n == "latitude" && v == 91) } else { Issue.record("\(failures[1])") }
        if case .transformFailed = failures[2].error {} else { Issue.record("\(failures[2])") }
        for i in [0, 4, 5] {
            let p = try t.transform(x: x0[i], y: y0[i])
            #expect(p.x == x[i] && p.y == y[i])
        }
        for i in [1, 2, 3] { #expect(!x[i].isFinite && !y[i].isFinite) }
    }

    /// Batch failures name their input, and a non-finite output without a PROJ errno is a
    /// failure too. Before: an affine offset of 1e308 on x = 1e308 left x = +∞ in the buffer and
    /// returned no failure (PROJ sets no errno for the overflow); a failed element's error read
    /// `transformFailed(x: nan, y: nan, z: nan)` with the batch's last errno. Reference: the
    /// scalar path on the same input (same errno, same outputs bit for bit for the others),
    /// over 10,000 points so that failures fall in different `batchChunk`s.
    @Test func batchFailuresNameTheirInput() throws {
        let affine = try ProjTransformer(pipeline: "+proj=affine +xoff=1e308")
        var x = [1e308, 1.0], y = [0.0, 2.0]
        let f = x.withUnsafeMutableBufferPointer { bx in y.withUnsafeMutableBufferPointer { by in affine.transform(x: bx, y: by) } }
        let overflow = ProjError.transformFailed(x: 1e308, y: 0, z: 0, code: 0,
                                                 message: "the result is not finite (PROJ reports no error: an overflow)")
        #expect(f == [ProjBatchFailure(index: 0, error: overflow)])
        #expect(x[0] == .infinity && x[1] == 1e308 && y[1] == 2)
        #expect(throws: overflow) { try affine.transform(x: 1e308, y: 0) }

        let t = try ProjTransformer(pipeline: Self.orthographic)
        let n = 10_000, bad: Set = [0, 4095, 4096, 9_999]
        var xs = (0..<n).map { bad.contains($0) ? 170 + Double($0) / 1e4 : -10 + 20 * Double($0) / Double(n) }
        var ys = (0..<n).map { 40 + 10 * Double($0) / Double(n) }, zs = [Double](repeating: 100, count: n)
        let (x0, y0) = (xs, ys)
        let failures = xs.withUnsafeMutableBufferPointer { bx in ys.withUnsafeMutableBufferPointer { by in
            zs.withUnsafeMutableBufferPointer { bz in t.transform(x: bx, y: by, z: bz) } } }
        #expect(failures.map(\.index) == bad.sorted())
        for e in failures {
            let scalar: ProjError
            do { _ = try t.transform(x: x0[e.index], y: y0[e.index], z: 100); Issue.record("\(e.index) converted"); continue }
            catch { scalar = error }
            #expect(e.error == scalar, "\(e.index): \(e.error)")
            guard case .transformFailed(let ex, let ey, 100, let code, _) = e.error else { Issue.record("\(e.error)"); continue }
            #expect(ex == x0[e.index] && ey == y0[e.index] && code != 0)
            #expect(!xs[e.index].isFinite && !ys[e.index].isFinite && !zs[e.index].isFinite)
        }
        for i in stride(from: 1, to: n, by: 97) where !bad.contains(i) {
            let p = try t.transform(x: x0[i], y: y0[i], z: 100)
            #expect(p.x == xs[i] && p.y == ys[i] && p.z == zs[i])
        }
        // Empty buffers: nothing to do, no failure.
        var e: [Double] = []
        #expect(e.withUnsafeMutableBufferPointer { b in t.transform(x: b, y: b) }.isEmpty)
    }

    /// The round-trip check catches finite garbage far outside a projection's domain. Before:
    /// Krovak's (EPSG:5514) inverse of (0, 1e7) answered (19.96°, 42.30°) with no failure, and
    /// the forward of a point in Alaska answered a Krovak coordinate. Reference: PROJ itself —
    /// the forward transformation of that answer lands 1.2e7 m from (0, 1e7); inside the
    /// domain (Závist, Prague) the outputs equal the unchecked call's bit for bit. A pipeline
    /// step without an inverse (Bacon globular) skips the check (`hasInverse` false).
    @Test func roundTripCheckCatchesOutOfDomainGarbage() throws {
        let t = try ProjTransformer(from: "EPSG:5514", to: "EPSG:4326")
        #expect(t.hasInverse)
        let points = [(x: 0.0, y: 1e7, z: 0.0), (x: -742_000.0, y: -1_056_000.0, z: 0.0),
                      (x: -770_000.0, y: -1_050_000.0, z: 0.0)]
        let plain = t.transform(points)
        #expect(plain.failures.isEmpty)
        let away = try t.transform(x: plain.points[0].x, y: plain.points[0].y, direction: .inverse)
        #expect(((away.x - 0) * (away.x - 0) + (away.y - 1e7) * (away.y - 1e7)).squareRoot() > 1e7)
        let checked = t.transform(points, roundTripTolerance: 0.01)
        try #require(checked.failures.map(\.index) == [0])
        guard case .transformFailed(0, 1e7, 0, 0, let message) = checked.failures[0].error else {
            Issue.record("\(checked.failures[0].error)"); return
        }
        #expect(message.hasPrefix("outside the transformation's domain: transformed back it gives ("))
        #expect(!checked.points[0].x.isFinite)
        for i in 1...2 { #expect(checked.points[i] == plain.points[i]) }

        let krovak = try ProjTransformer(from: "EPSG:4326", to: "EPSG:5514")
        let alaska = krovak.transform([(x: -131.6, y: 62.5, z: 0), (x: 14.39, y: 49.96, z: 0)], roundTripTolerance: 0.01)
        #expect(alaska.failures.map(\.index) == [0])

        let bacon = try ProjTransformer(pipeline: "+proj=bacon +R=6400000")
        #expect(!bacon.hasInverse)
        #expect(bacon.transform([(x: 0.2, y: 0.3, z: 0)], roundTripTolerance: 0.01).failures.isEmpty)
    }

    /// Hostile definitions: empty and garbage strings are `invalidDefinition` naming them; a
    /// 1 MB definition keeps its whole value in the case but is quoted by its first 200
    /// characters in the description (before: a 1,000,100-character message); a PROJ string
    /// without `+type=crs` given as a CRS says so.
    @Test func hostileDefinitionsAreNamedBriefly() throws {
        for d in ["", "@@@###", String(repeating: "A", count: 1_000_000)] {
            do {
                _ = try ProjTransformer(from: d, to: "EPSG:4326")
                Issue.record("accepted \(d.prefix(10))")
            } catch {
                guard case .invalidDefinition(let got, let code, _) = error else { Issue.record("\(error)"); continue }
                #expect(got == d && code != 0)
                #expect("\(error)".count < 400, "\("\(error)".count) characters")
                if d.count > 200 { #expect("\(error)".contains("…' (1000000 characters)")) }
            }
        }
        #expect {
            try ProjTransformer(from: "+proj=longlat +datum=WGS84", to: "EPSG:3857")
        } throws: { e in "\(e)".contains("+type=crs") }
        _ = try ProjTransformer(from: "+proj=longlat +datum=WGS84 +type=crs", to: "EPSG:3857")
    }

    /// Pool sizes: 0 keeps no idle owner (before: a precondition trap), a negative size counts
    /// as 0, 10⁹ makes nothing up front. Reference: a single owner's result, bit for bit.
    @Test func poolSizesZeroAndHuge() throws {
        let single = try ProjTransformer(from: "EPSG:4326", to: "EPSG:3857")
        let r = try single.transform(x: 14.39, y: 49.96)
        for (size, idle) in [(0, 0), (-5, 0), (1_000_000_000, 1)] {
            let pool = try ProjTransformerPool(from: "EPSG:4326", to: "EPSG:3857", maximumIdle: size)
            #expect(pool.maximumIdle == max(0, size) && pool.idleCount == idle)
            let p = try pool.transform(x: 14.39, y: 49.96)
            #expect(p.x == r.x && p.y == r.y && pool.idleCount == idle)
        }
    }

    /// Pool: 8 concurrent tasks × 2,000 points each through one pool give exactly the results of
    /// a single owner used sequentially (reference: the sequential owner); the pool never holds
    /// more owners than concurrent borrowers.
    @Test func poolIsSafeUnderConcurrency() async throws {
        let pool = try ProjTransformerPool(from: "EPSG:4979", to: "EPSG:5514")
        let single = try ProjTransformer(from: "EPSG:4979", to: "EPSG:5514")
        var rng = SplitMix64(seed: 21)
        let points = (0..<16_000).map { _ in (rng.uniform(12.2, 18.8), rng.uniform(48.6, 51.0), rng.uniform(0, 1000)) }
        let expected = try points.map { try single.transform(x: $0.0, y: $0.1, z: $0.2) }
        let results = try await withThrowingTaskGroup(of: (Int, [(Double, Double, Double)]).self) { group in
            for task in 0..<8 {
                let chunk = Array(points[(task * 2000)..<((task + 1) * 2000)])
                group.addTask {
                    let out = try pool.withTransformer { owner in
                        try chunk.map { p in
                            let r = try owner.transform(x: p.0, y: p.1, z: p.2)
                            return (r.x, r.y, r.z)
                        }
                    }
                    return (task, out)
                }
            }
            var all = [[(Double, Double, Double)]](repeating: [], count: 8)
            for try await (task, out) in group { all[task] = out }
            return all.flatMap { $0 }
        }
        #expect(results.count == expected.count)
        var mismatches = 0
        for (r, e) in zip(results, expected) where !(r.0 == e.x && r.1 == e.y && r.2 == e.z) { mismatches += 1 }
        #expect(mismatches == 0)
        #expect(pool.idleCount >= 1 && pool.idleCount <= 8)
        // The scalar convenience borrows and returns an owner too.
        let p = try pool.transform(x: 14.39, y: 49.96, z: 300)
        let direct = try single.transform(x: 14.39, y: 49.96, z: 300)
        #expect(p.x == direct.x && p.y == direct.y && p.z == direct.z)
    }
}

/// The CRS examples in ``ProjTransformer/init(from:to:)``'s documentation must be accepted as
/// they are written. Before, it offered `"+proj=utm +zone=33 +datum=WGS84"`, which the
/// initializer refuses (a PROJ string is a CRS only with `+type=crs`). Reference: EPSG:32633
/// (WGS 84 / UTM 33N, the same projection) on the same point, 1 µm.
@Suite("PROJ transformer documentation")
struct ProjTransformerDocumentationTests {
    @Test func documentedCRSDefinitionsAreAccepted() throws {
        let epsg = try ProjTransformer(from: "EPSG:4326", to: "EPSG:32633").transform(x: 14.395, y: 49.9617)
        let string = try ProjTransformer(from: "EPSG:4326", to: "+proj=utm +zone=33 +datum=WGS84 +type=crs")
            .transform(x: 14.395, y: 49.9617)
        #expect(abs(string.x - epsg.x) < 1e-6 && abs(string.y - epsg.y) < 1e-6, "\(string) vs \(epsg)")
        #expect(throws: ProjError.self) { try ProjTransformer(from: "EPSG:4326", to: "+proj=utm +zone=33 +datum=WGS84") }
        _ = try ProjTransformer(from: "EPSG:4979", to: "EPSG:32633")
    }
}
