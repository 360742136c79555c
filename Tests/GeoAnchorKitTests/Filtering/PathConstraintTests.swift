import Foundation
import Testing
@testable import GeoAnchorKit

@Suite("Path-constrained position filter")
struct PathConstraintTests {
    /// The synthetic walker's own truth as a path (every truth point a vertex).
    static func truthPath(_ trace: SyntheticTrace, range: Range<Int>? = nil, offsetNorth: Double = 0) -> [GeodeticCoordinate] {
        let r = range ?? 0..<trace.truth.count
        return trace.truth[r].map { p in
            let g = trace.frame.geodetic(east: p.east, north: p.north + offsetNorth, up: 0)
            return GeodeticCoordinate(latitude: g.latitude, longitude: g.longitude)
        }
    }

    static func rms(_ e: [Double]) -> Double { (e.reduce(0) { $0 + $1 * $1 } / Double(e.count)).squareRoot() }

    static func errors(_ trace: SyntheticTrace, _ fixes: [FilteredFix], _ indices: [Int], from: Int = 0) -> [Double] {
        zip(fixes, indices).filter { $0.1 >= from }.map { trace.error(latitude: $0.0.latitude, longitude: $0.0.longitude, at: $0.1) }
    }

    @Test("invalid paths are typed errors naming the value")
    func invalid() throws {
        let a = GeodeticCoordinate(latitude: 50, longitude: 14), b = GeodeticCoordinate(latitude: 50.001, longitude: 14)
        #expect(throws: GeoAnchorError.outOfRange(name: "path lines", value: 0, allowed: .atLeast(1))) { try PathConstraint(lines: []) }
        #expect(throws: GeoAnchorError.outOfRange(name: "vertices of path line 1", value: 1, allowed: .atLeast(2))) {
            try PathConstraint(lines: [[a, b], [a]])
        }
        #expect(throws: GeoAnchorError.invalidLatitude(.infinity)) {
            try PathConstraint(lines: [[a, GeodeticCoordinate(latitude: .infinity, longitude: 14)]])
        }
        #expect(throws: GeoAnchorError.invalidLatitude(95)) {
            try PathConstraint(lines: [[a, GeodeticCoordinate(latitude: 95, longitude: 14)]])
        }
        #expect(throws: GeoAnchorError.self) {
            try PathConstraint(lines: [[a, GeodeticCoordinate(latitude: 50, longitude: .nan)]])
        }
        #expect(throws: GeoAnchorError.outOfRange(name: "crossTrackSigma", value: 0, allowed: .greaterThan(0, unit: "m"))) {
            try PathConstraint(lines: [[a, b]], crossTrackSigma: 0)
        }
        #expect(throws: GeoAnchorError.outOfRange(name: "mapSigma", value: -1, allowed: .atLeast(0, unit: "m"))) {
            try PathConstraint(lines: [[a, b]], mapSigma: -1)
        }
        #expect(throws: GeoAnchorError.self) { try PathConstraint(lines: [[a, b]], mapSigma: .nan) }
        #expect(throws: GeoAnchorError.self) { try PathConstraint(lines: [[a, b]], mapSigma: .infinity) }
        #expect(try PathConstraint(lines: [[a, b]]).mapSigma == 0)
        let empty = GeoJSONFeatureCollection(features: [GeoJSONFeature(geometry: .point(GeoJSONPosition(longitude: 14, latitude: 50)))])
        #expect(throws: GeoAnchorError.outOfRange(name: "LineString features", value: 0, allowed: .atLeast(1))) {
            try PathConstraint(geoJSON: empty)
        }
    }

    @Test("GeoJSON: lines marked \"kind\": \"path\" win, else every line")
    func geoJSON() throws {
        func p(_ lon: Double, _ lat: Double) -> GeoJSONPosition { GeoJSONPosition(longitude: lon, latitude: lat) }
        let other = GeoJSONFeature(geometry: .lineString([p(14, 50), p(14.1, 50)]))
        let marked = GeoJSONFeature(geometry: .multiLineString([[p(15, 49), p(15.1, 49)], [p(15, 49.1), p(15.1, 49.1)]]),
                                    properties: ["kind": "path"])
        let c1 = try PathConstraint(geoJSON: GeoJSONFeatureCollection(features: [other, marked]))
        #expect(c1.lines.count == 2 && c1.lines[0][0].longitude == 15 && c1.lines[1][1].latitude == 49.1)
        let c2 = try PathConstraint(geoJSON: GeoJSONFeatureCollection(features: [other]))
        #expect(c2.lines.count == 1 && c2.lines[0][1].longitude == 14.1)
    }

    // Reference: the generator's truth (brute force). A path nowhere near the fixes is never
    // applied, and the joint 8-state horizontal filter must then reproduce the per-axis filter
    // (two implementations of the same model) to 1e-9 m.
    @Test("joint state without an applicable path equals the per-axis filter")
    func farPathIsIdentity() throws {
        let trace = SyntheticTrace.pedestrian(seed: 4, duration: 600, withSpeed: true)
        let far = try PathConstraint(lines: [[GeodeticCoordinate(latitude: 10, longitude: 10),
                                              GeodeticCoordinate(latitude: 10.1, longitude: 10.1)]])
        let a = PositionFilter.track(trace.fixes, configuration: .walking, smooth: true)
        let b = PositionFilter.track(trace.fixes, configuration: .walking, smooth: false, path: far)
        #expect(b.statistics.pathUpdates == 0 && b.statistics.pathSkipped > 500)
        #expect(a.filteredLocal.count == b.filteredLocal.count)
        var worst = 0.0
        for (x, y) in zip(a.filteredLocal, b.filteredLocal) {
            worst = max(worst, abs(x.east - y.east), abs(x.north - y.north), abs(x.horizontalSigma - y.horizontalSigma))
        }
        #expect(worst < 1e-9, "max difference \(worst) m")
    }

    // Reference: the generator's truth. The walker follows its path exactly and its fix errors
    // are white (3–8 m accuracy), so only the cross-track half of the error can go: with the
    // path the causal filter's RMSE must drop by ≥ 10 % against the same filter without it
    // (measured 17–32 % over seeds 1–3) and the path-aided smoother must be ≥ 20 % below
    // the path-aided filter (measured 29–38 %).
    @Test("a known path removes cross-track error", arguments: [1, 2, 3] as [UInt64])
    func knownPath(seed: UInt64) throws {
        let trace = SyntheticTrace.pedestrian(seed: seed, duration: 900, outlierRate: 0.02, withSpeed: true)
        let path = try PathConstraint(lines: [Self.truthPath(trace)])
        let plain = PositionFilter.track(trace.fixes, configuration: .walking)
        let aided = PositionFilter.track(trace.fixes, configuration: .walking, smooth: true, path: path)
        let e0 = Self.rms(Self.errors(trace, plain.filtered, plain.inputIndices, from: 30))
        let e1 = Self.rms(Self.errors(trace, aided.filtered, aided.inputIndices, from: 30))
        let e2 = Self.rms(Self.errors(trace, aided.smoothed!, aided.inputIndices, from: 30))
        #expect(aided.statistics.pathUpdates > 800)
        #expect(e1 <= 0.9 * e0, "RMSE path-aided \(e1) vs plain \(e0)")
        #expect(e2 <= 0.8 * e1, "smoothed \(e2) vs filtered \(e1)")
    }

    // A walker who leaves the drawn path: the path covers the first half of the walk and then
    // continues 80 m away (a wrong branch). The constraint must be released there: the second
    // half's RMSE within 15 % of the unconstrained filter's (measured +7.7 %: the transition;
    // reference: generator truth).
    @Test("the constraint lets go when the walker leaves the path")
    func release() throws {
        let trace = SyntheticTrace.pedestrian(seed: 6, duration: 900, outlierRate: 0, withSpeed: true)
        let half = trace.truth.count / 2
        let lines = [Self.truthPath(trace, range: 0..<half), Self.truthPath(trace, range: half..<trace.truth.count, offsetNorth: 80)]
        let path = try PathConstraint(lines: lines)
        let plain = PositionFilter.track(trace.fixes, configuration: .walking)
        let aided = PositionFilter.track(trace.fixes, configuration: .walking, path: path)
        let e0 = Self.rms(Self.errors(trace, plain.filtered, plain.inputIndices, from: half + 30))
        let e1 = Self.rms(Self.errors(trace, aided.filtered, aided.inputIndices, from: half + 30))
        #expect(aided.statistics.pathSkipped > half - 60, "skipped \(aided.statistics.pathSkipped)")
        #expect(e1 <= 1.15 * e0, "second half RMSE path-aided \(e1) vs plain \(e0)")
    }

    // Bad input with a path: refused fixes leave the joint state bit-identical.
    @Test("bad input never corrupts the joint state")
    func badInput() throws {
        let trace = SyntheticTrace.pedestrian(seed: 5, duration: 60, outlierRate: 0, withSpeed: true)
        var f = PositionFilter(path: try PathConstraint(lines: [Self.truthPath(trace)]))
        for fix in trace.fixes.prefix(30) { _ = f.process(fix) }
        let before = f.localEstimate!, joint = f.joint
        let last = trace.fixes[29]
        var nanFix = last; nanFix.time += 1; nanFix.longitude = .nan
        var negAcc = last; negAcc.time += 1; negAcc.horizontalAccuracy = -1
        var back = last; back.time -= 5
        for b in [nanFix, negAcc, back, last] { #expect(f.process(b) == nil) }
        let after = f.localEstimate!
        #expect(after.east == before.east && after.north == before.north && after.velocityEast == before.velocityEast
                && after.velocityNorth == before.velocityNorth && after.horizontalSigma == before.horizontalSigma
                && after.time == before.time)
        #expect(f.joint?.state == joint?.state)
        #expect(f.statistics.pathUpdates > 20)
    }

    // The segment grid against brute force (every segment of every line through
    // PlanarPolyline.project): random multi-line paths with short and very long segments,
    // query points on, near and far (up to 50 km) from them, with and without a search radius;
    // distances equal to 1e-9 m, and nothing found beyond the radius.
    @Test("segment grid queries equal brute force")
    func gridMatchesBruteForce() {
        var rng = FilterTestRNG(seed: 77)
        for trial in 0..<40 {
            var lines: [PlanarPolyline] = []
            for _ in 0..<(1 + trial % 3) {
                var pts = [PlanarPoint(x: rng.uniform(-500, 500), y: rng.uniform(-500, 500))]
                for _ in 0..<Int(rng.uniform(1, 60)) {
                    let step = rng.uniform() < 0.1 ? rng.uniform(200, 3000) : rng.uniform(0, 40)
                    let a = rng.uniform(0, 2 * .pi)
                    pts.append(PlanarPoint(x: pts.last!.x + step * sin(a), y: pts.last!.y + step * cos(a)))
                }
                if pts.count < 2 { pts.append(PlanarPoint(x: pts[0].x + 1, y: pts[0].y)) }
                lines.append(PlanarPolyline(pts))
            }
            let grid = LocalPath(lines: lines)
            for _ in 0..<200 {
                let scale = [10.0, 300, 5000, 50_000][Int(rng.uniform(0, 4))]
                // Unbounded queries only near the path (far away they scan the whole grid); bounded
                // ones everywhere.
                let radius = scale > 300 ? rng.uniform(1, 400) : .infinity
                let base = lines[0].points[Int(rng.uniform(0, Double(lines[0].points.count)))]
                let p = PlanarPoint(x: base.x + rng.gaussian() * scale, y: base.y + rng.gaussian() * scale)
                var brute = Double.infinity
                for l in lines { for i in 0..<(l.points.count - 1) { brute = min(brute, l.project(p, segment: i).distance) } }
                let d = grid.distance(to: p, within: radius)
                if brute <= radius {
                    #expect(abs(d - brute) <= 1e-9 * max(1, brute), "grid \(d) brute \(brute)")
                } else {
                    #expect(d == .infinity, "grid \(d) brute \(brute) radius \(radius)")
                }
                if let c = grid.constraint(at: p, velocity: PlanarPoint(x: rng.gaussian(), y: rng.gaussian()), within: radius) {
                    // The chosen segment's line passes within the nearest distance + 5 m.
                    let off = abs((p - c.point).dot(c.normal))
                    #expect(off <= brute + LocalPath.legTolerance + 1e-9)
                }
            }
        }
    }
}
