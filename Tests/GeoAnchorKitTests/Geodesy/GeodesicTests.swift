import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport

/// Area tolerance in m²: S₁₂ = c²·(α₂ − α₁) + A₄(I₄(σ₂) − I₄(σ₁)) (Karney 2013, eq. 58), so the
/// azimuth tolerances (degrees) at both ends, times the authalic radius squared c² ≈ 4.059e13 m²,
/// bound its error (1e-12° at both ends → 1.4 m²), plus 0.1 m² for the series.
func areaTolerance(azimuthTolerance1 t1: Double, azimuthTolerance2 t2: Double) -> Double {
    0.1 + 4.059e13 * (t1 + t2) * .pi / 180
}

/// Azimuth tolerance in degrees: 1e-12°, widened only where the azimuth is ill-conditioned by
/// geometry, so that it corresponds to the 15 nm position bound (Karney 2013, §9):
/// - an azimuth error δα at one end moves the other end by |m₁₂|·δα (definition of the reduced
///   length), so 15 nm allows δα = 15 nm/|m₁₂| (short lines: the Newton iteration on λ₁₂ stops
///   at |Δλ| ≤ 2ε, which leaves δα ~ 1e-11° at 10 km, identical in PROJ);
/// - near a pole the meridian direction itself turns by 15 nm/(a cos φ) for a 15 nm shift of the
///   point.
func azimuthTolerance(latitude: Double, reducedLength m12: Double) -> Double {
    let a = 6_378_137.0
    let bound = 15e-9 * (1 / Swift.abs(m12) + 1 / (a * Swift.abs(Angle.sincos(degrees: latitude).cos)))
    return 1e-12 + bound * 180 / .pi
}

@Suite("Geodesic (Karney 2013) vs GeographicLib GeodTest-short", .enabled(if: SharedData.shouldRun))
struct GeodesicGeodTests {
    let g = Geodesic.wgs84

    /// Reference: all 10,000 lines of GeographicLib's GeodTest-short.dat (exact solutions,
    /// computed by Karney with high-precision arithmetic). Tolerances: distance 15 nm (Karney
    /// 2013, §9, the stated error bound of the 6th-order method); azimuths 1e-12°, or
    /// ``azimuthTolerance`` where the azimuth is ill-conditioned (short lines, an end near a pole,
    /// nearly conjugate points with m12 → 0; such lines are counted and printed); on the
    /// well-conditioned lines also m12 15 nm, σ12 1e-12°, S12 ``areaTolerance`` (1.5 m² for
    /// 1e-12° azimuths; S12 reaches 1.3e14 m², whose ulp is 0.016 m²).
    ///
    /// Non-unique azimuths: for antipodal points on an oblate ellipsoid several geodesics have
    /// the same length, so the inverse may legitimately return another azimuth than the one the
    /// line was generated with. Such lines are accepted only if the direct problem with *our*
    /// azimuth and distance reaches point 2 within 15 nm; their number is checked to be small.
    @Test func inverseMatchesGeodTest() throws {
        let cases = try GeodTestCase.load()
        #expect(cases.count == 10_000)
        var maxDs = 0.0, maxAz = 0.0, maxM12 = 0.0, maxS12 = 0.0, maxA12 = 0.0, maxAzIll = 0.0
        var nonUnique = 0, illConditioned = 0
        for c in cases {
            let r = g.inverse(latitude1: c.lat1, longitude1: c.lon1, latitude2: c.lat2, longitude2: c.lon2)
            let ds = Swift.abs(r.distance - c.s12)
            maxDs = Swift.max(maxDs, ds)
            #expect(ds <= 15e-9, "s12 \(c)")
            let e1 = azimuthError(r.azimuth1, c.azi1), e2 = azimuthError(r.azimuth2, c.azi2)
            let sameGeodesic: Bool
            if Swift.max(e1, e2) <= 1e-12 {
                maxAz = Swift.max(maxAz, Swift.max(e1, e2))
                sameGeodesic = true
            } else if e1 <= azimuthTolerance(latitude: c.lat1, reducedLength: c.m12)
                        && e2 <= azimuthTolerance(latitude: c.lat2, reducedLength: c.m12) {
                illConditioned += 1
                maxAzIll = Swift.max(maxAzIll, Swift.max(e1, e2))
                // Nearly conjugate points (m12 → 0) or a pole: azimuth, m12 and S12 are only
                // determined to the conditioning above, so they are not compared.
                sameGeodesic = false
            } else {
                sameGeodesic = false
                // Another geodesic of the same length: it must reach point 2.
                nonUnique += 1
                let d = g.direct(latitude: c.lat1, longitude: c.lon1, azimuth: r.azimuth1, distance: r.distance)
                let miss = g.distance(latitude1: d.latitude, longitude1: d.longitude, latitude2: c.lat2, longitude2: c.lon2)
                #expect(miss <= 15e-9, "azimuth \(r.azimuth1) vs \(c.azi1) and the direct solution misses by \(miss) m: \(c)")
            }
            // m12, S12 and σ12 belong to one particular geodesic: compare them where it is the same.
            if sameGeodesic {
                let dm = Swift.abs(r.reducedLength - c.m12), dS = Swift.abs(r.area - c.S12)
                maxM12 = Swift.max(maxM12, dm)
                maxS12 = Swift.max(maxS12, dS)
                maxA12 = Swift.max(maxA12, Swift.abs(r.arcLength - c.a12))
            }
        }
        #expect(maxM12 <= 15e-9, "max m12 error \(maxM12)")
        #expect(maxS12 <= areaTolerance(azimuthTolerance1: 1e-12, azimuthTolerance2: 1e-12), "max S12 error \(maxS12)")
        #expect(maxA12 <= 1e-12, "max a12 error \(maxA12)")
        #expect(nonUnique <= 50, "\(nonUnique) lines with a different (equal-length) geodesic")
        print("GeodTest-short inverse: max |Δs12| = \(maxDs) m, max |Δazi| = \(maxAz)°, max |Δm12| = \(maxM12) m, max |ΔS12| = \(maxS12) m², max |Δa12| = \(maxA12)°, non-unique azimuths: \(nonUnique), ill-conditioned azimuths: \(illConditioned) (max \(maxAzIll)°)")
    }

    /// Reference: GeodTest-short, direct problem (lat1, lon1, azi1, s12 → lat2, lon2, azi2).
    /// Tolerances: position 15 nm measured as the geodesic distance between our point and the
    /// reference point (Karney 2013's error bound), azimuth 1e-12° (``azimuthTolerance`` where
    /// point 2 is so close to a pole that 15 nm turn the meridian by more), m12 15 nm, S12
    /// ``areaTolerance`` for the azimuth tolerance at point 2.
    @Test func directMatchesGeodTest() throws {
        let cases = try GeodTestCase.load()
        var maxPos = 0.0, maxAz = 0.0, maxM12 = 0.0, maxS12 = 0.0, maxAzIll = 0.0, illConditioned = 0
        for c in cases {
            let d = g.direct(latitude: c.lat1, longitude: c.lon1, azimuth: c.azi1, distance: c.s12)
            let miss = g.distance(latitude1: d.latitude, longitude1: d.longitude, latitude2: c.lat2, longitude2: c.lon2)
            maxPos = Swift.max(maxPos, miss)
            #expect(miss <= 15e-9, "direct misses by \(miss) m: \(c) → \(d.latitude), \(d.longitude)")
            // At a pole the forward azimuth depends on the longitude convention only.
            let az = azimuthError(d.azimuth2, c.azi2)
            if az <= 1e-12 {
                maxAz = Swift.max(maxAz, az)
            } else {
                illConditioned += 1
                maxAzIll = Swift.max(maxAzIll, az)
                #expect(az <= azimuthTolerance(latitude: c.lat2, reducedLength: c.m12), "azi2 \(d.azimuth2) vs \(c.azi2): \(c)")
            }
            maxM12 = Swift.max(maxM12, Swift.abs(d.reducedLength - c.m12))
            let dS = Swift.abs(d.area - c.S12)
            #expect(dS <= areaTolerance(azimuthTolerance1: 0, azimuthTolerance2: azimuthTolerance(latitude: c.lat2, reducedLength: c.m12)),
                    "S12 \(d.area) vs \(c.S12): \(c)")
            if az <= 1e-12 { maxS12 = Swift.max(maxS12, dS) }
        }
        #expect(maxM12 <= 15e-9, "max m12 error \(maxM12)")
        print("GeodTest-short direct: max position error = \(maxPos) m, max |Δazi2| = \(maxAz)° (ill-conditioned: \(illConditioned), max \(maxAzIll)°), max |Δm12| = \(maxM12) m, max |ΔS12| = \(maxS12) m² (well-conditioned lines)")
    }
}

@Suite("Geodesic edge cases, API and errors")
struct GeodesicEdgeTests {
    let g = Geodesic.wgs84

    /// Coincident points: distance exactly 0 (Karney's meridional branch zeroes it), also at
    /// the poles and across ±180°.
    @Test(arguments: [(0.0, 0.0), (45, 10), (-89.9, 179), (90, 0), (-90, 33), (12, 180)])
    func coincidentPoints(lat: Double, lon: Double) {
        let r = g.inverse(latitude1: lat, longitude1: lon, latitude2: lat, longitude2: lon)
        #expect(r.distance == 0)
        #expect(r.arcLength == 0)
        // The same point written with longitude ±360°/−180° ↔ 180°.
        let r2 = g.inverse(latitude1: lat, longitude1: lon, latitude2: lat, longitude2: lon - 360)
        #expect(r2.distance == 0)
    }

    /// Reference: closed forms on the ellipsoid. Pole to pole along a meridian is twice the
    /// quarter meridian of WGS84, 10,001,965.729 m (NIMA TR8350.2 / Karney: 10 001 965.7293 m);
    /// along the equator 1° of longitude is a·π/180 exactly (the equator is a circle of radius a).
    /// Tolerance 1e-6 m for the quarter meridian (value given to 0.1 mm), 1e-9 m on the equator.
    @Test func closedForms() {
        let pole = g.inverse(latitude1: -90, longitude1: 0, latitude2: 90, longitude2: 0)
        #expect(Swift.abs(pole.distance - 2 * 10_001_965.729_312_8) < 1e-6)
        let eq = g.inverse(latitude1: 0, longitude1: 10, latitude2: 0, longitude2: 11)
        #expect(Swift.abs(eq.distance - 6_378_137 * .pi / 180) < 1e-9)
        #expect(eq.azimuth1 == 90 && eq.azimuth2 == 90)
        // Westwards across the antimeridian: 179.5°E → 179.5°W is 1° east.
        let am = g.inverse(latitude1: 0, longitude1: 179.5, latitude2: 0, longitude2: -179.5)
        #expect(Swift.abs(am.distance - 6_378_137 * .pi / 180) < 1e-9)
        #expect(am.azimuth1 == 90)
        // A meridian arc heads due north.
        let m = g.inverse(latitude1: 10, longitude1: 20, latitude2: 50, longitude2: 20)
        #expect(m.azimuth1 == 0 && m.azimuth2 == 0)
        #expect(m.initialBearing == 0 && m.finalBearing == 0)
    }

    /// Reference: symmetry of the exact solution. Swapping the points swaps and reverses the
    /// azimuths and keeps the distance; mirroring in the equator or in a meridian mirrors the
    /// azimuths. Tolerance: distance bit-identical or 1e-9 m, azimuths 1e-12°.
    @Test func symmetries() {
        var rng = SplitMix64(seed: 7)
        for _ in 0..<500 {
            let lat1 = rng.uniform(-90, 90), lat2 = rng.uniform(-90, 90)
            let lon1 = rng.uniform(-180, 180), lon2 = rng.uniform(-180, 180)
            let r = g.inverse(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2)
            let s = g.inverse(latitude1: lat2, longitude1: lon2, latitude2: lat1, longitude2: lon1)
            #expect(Swift.abs(r.distance - s.distance) <= 1e-9)
            #expect(azimuthError(s.azimuth1, r.azimuth2 + 180) <= 1e-12)
            #expect(azimuthError(s.azimuth2, r.azimuth1 + 180) <= 1e-12)
            let mirror = g.inverse(latitude1: -lat1, longitude1: lon1, latitude2: -lat2, longitude2: lon2)
            #expect(Swift.abs(r.distance - mirror.distance) <= 1e-9)
            #expect(azimuthError(mirror.azimuth1, 180 - r.azimuth1) <= 1e-12)
        }
    }

    /// Reference: the direct problem is the inverse of the inverse problem (GeodTest checks each
    /// against exact values; this checks they agree with each other over the globe, including
    /// nearly antipodal pairs). Tolerance 15 nm in position, ``azimuthTolerance`` in azimuth.
    @Test func directInverseRoundTrip() {
        var rng = SplitMix64(seed: 11)
        for i in 0..<2_000 {
            let lat1 = rng.uniform(-90, 90), lon1 = rng.uniform(-180, 180)
            var lat2 = rng.uniform(-90, 90), lon2 = rng.uniform(-180, 180)
            if i % 4 == 0 { lat2 = Swift.max(-90, Swift.min(90, -lat1 + rng.uniform(-0.5, 0.5))); lon2 = lon1 + 180 + rng.uniform(-0.5, 0.5) }
            let r = g.inverse(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2)
            let d = g.direct(latitude: lat1, longitude: lon1, azimuth: r.azimuth1, distance: r.distance)
            let miss = g.distance(latitude1: d.latitude, longitude1: d.longitude, latitude2: lat2, longitude2: lon2)
            #expect(miss <= 15e-9, "\(lat1),\(lon1) → \(lat2),\(lon2): misses by \(miss) m")
            #expect(azimuthError(d.azimuth2, r.azimuth2) <= azimuthTolerance(latitude: lat2, reducedLength: r.reducedLength))
        }
    }

    /// Reference: the scalar inverse (the batch path must be the same computation, bit for bit).
    @Test func batchEqualsScalar() {
        var rng = SplitMix64(seed: 3)
        let n = 500
        var la1 = (0..<n).map { _ in rng.uniform(-90, 90) }, lo1 = (0..<n).map { _ in rng.uniform(-540, 540) }
        let la2 = (0..<n).map { _ in rng.uniform(-90, 90) }, lo2 = (0..<n).map { _ in rng.uniform(-180, 180) }
        la1[17] = 91
        lo1[42] = .nan
        var s = [Double](repeating: 0, count: n), a1 = s, a2 = s
        let failures = la1.withUnsafeBufferPointer { p1 in lo1.withUnsafeBufferPointer { q1 in
            la2.withUnsafeBufferPointer { p2 in lo2.withUnsafeBufferPointer { q2 in
                s.withUnsafeMutableBufferPointer { sp in a1.withUnsafeMutableBufferPointer { ap in
                    a2.withUnsafeMutableBufferPointer { bp in
                        g.inverse(latitude1: p1, longitude1: q1, latitude2: p2, longitude2: q2,
                                  distance: sp, azimuth1: ap, azimuth2: bp)
                    } } } } } } }
        #expect(failures.map(\.index) == [17, 42])
        #expect(failures.first?.error == .invalidLatitude(91))
        for i in 0..<n where i != 17 && i != 42 {
            let r = g.inverse(latitude1: la1[i], longitude1: lo1[i], latitude2: la2[i], longitude2: lo2[i])
            #expect(s[i] == r.distance && a1[i] == r.azimuth1 && a2[i] == r.azimuth2)
        }
        #expect(s[17].isNaN && a1[42].isNaN)
    }

    /// Points along a geodesic: the ends are the end points; consecutive points are equally
    /// spaced (reference: the inverse distance between them, tolerance 1e-8 m) and lie on the
    /// line (each continues with the azimuth of the inverse solution).
    @Test func pointsAlongLine() throws {
        let line = g.line(latitude1: 48.8566, longitude1: 2.3522, latitude2: 40.7128, longitude2: -74.0060)
        let pts = try line.points(count: 11)
        #expect(pts.count == 11)
        #expect(pts[0].latitude == 48.8566 && pts[0].longitude == 2.3522)
        let endMiss = g.distance(latitude1: pts[10].latitude, longitude1: pts[10].longitude, latitude2: 40.7128, longitude2: -74.0060)
        #expect(endMiss <= 15e-9)
        for i in 1..<pts.count {
            let d = g.distance(latitude1: pts[i - 1].latitude, longitude1: pts[i - 1].longitude,
                               latitude2: pts[i].latitude, longitude2: pts[i].longitude)
            #expect(Swift.abs(d - line.distance / 10) <= 1e-8)
        }
        let w = try line.waypoints(spacing: 1_000_000)
        #expect(w.count == Int((line.distance / 1_000_000).rounded(.up)) + 1)
        // A length of a whole number of spacings up to rounding (7 + 7e-12 of them): seven
        // intervals and the end, not an eighth interval of 0.05 µm repeating the end point.
        let nearlyWhole = try line.waypoints(spacing: line.distance / 7 * (1 - 1e-12))
        #expect(nearlyWhole.count == 8)
        let lastStep = g.distance(latitude1: nearlyWhole[6].latitude, longitude1: nearlyWhole[6].longitude,
                                  latitude2: nearlyWhole[7].latitude, longitude2: nearlyWhole[7].longitude)
        #expect(Swift.abs(lastStep - line.distance / 7) <= 1e-3)
        // A zero-length line: its start and its end.
        #expect(try g.line(latitude1: 1, longitude1: 2, latitude2: 1, longitude2: 2).waypoints(spacing: 10).count == 2)
        let countRange = ValueRange.closed(2, Double(GeodesicLine.maximumPointCount))
        #expect(throws: GeoAnchorError.outOfRange(name: "count", value: 1, allowed: countRange)) { try line.points(count: 1) }
        // A count no memory can hold is refused, not attempted (Int.max trapped in reserveCapacity).
        #expect(throws: GeoAnchorError.outOfRange(name: "count", value: Double(Int.max), allowed: countRange)) {
            try line.points(count: .max)
        }
        #expect(throws: GeoAnchorError.self) { try line.waypoints(spacing: line.distance / Double(GeodesicLine.maximumPointCount)) }
        #expect(try line.waypoints(spacing: line.distance / 1000).count == 1001)
        #expect(throws: GeoAnchorError.self) { try line.waypoints(spacing: 0) }
        #expect(throws: GeoAnchorError.self) { try line.waypoints(spacing: .nan) }
        // Across the antimeridian the longitudes stay normalized and continuous.
        let pac = try g.line(latitude1: 10, longitude1: 170, latitude2: -10, longitude2: -170).points(count: 5)
        #expect(pac.allSatisfy { Swift.abs($0.longitude) >= 170 && Swift.abs($0.longitude) <= 180 })
    }

    /// Bad input: typed errors naming the value; the unvalidated API returns NaN.
    @Test func badInput() {
        #expect(throws: GeoAnchorError.invalidLatitude(91)) {
            try g.inverse(from: GeodeticCoordinate(latitude: 91, longitude: 0), to: GeodeticCoordinate(latitude: 0, longitude: 0))
        }
        #expect(throws: GeoAnchorError.invalidLongitude(.infinity)) {
            try g.inverse(from: GeodeticCoordinate(latitude: 0, longitude: 0), to: GeodeticCoordinate(latitude: 0, longitude: .infinity))
        }
        #expect(throws: GeoAnchorError.self) {
            try g.direct(from: GeodeticCoordinate(latitude: .nan, longitude: 0), azimuth: 0, distance: 1)
        }
        #expect(throws: GeoAnchorError.nonFinite(name: "distance", value: .infinity)) {
            try g.direct(from: GeodeticCoordinate(latitude: 0, longitude: 0), azimuth: 0, distance: .infinity)
        }
        #expect(throws: GeoAnchorError.nonFinite(name: "azimuth", value: -.infinity)) {
            try g.direct(from: GeodeticCoordinate(latitude: 0, longitude: 0), azimuth: -.infinity, distance: 1)
        }
        #expect(g.inverse(latitude1: 91, longitude1: 0, latitude2: 0, longitude2: 0).distance.isNaN)
        #expect(g.inverse(latitude1: .nan, longitude1: 0, latitude2: 0, longitude2: 0).distance.isNaN)
        #expect(g.direct(latitude: 0, longitude: .nan, azimuth: 0, distance: 1).longitude.isNaN)
        #expect(g.direct(latitude: 95, longitude: 0, azimuth: 0, distance: 1).latitude.isNaN)
    }

    /// Convenience API: bearings in [0, 360) and destination consistent with inverse/direct.
    @Test func convenience() throws {
        let b = g.initialBearing(latitude1: 0, longitude1: 0, latitude2: 0, longitude2: -1)
        #expect(b == 270)
        let f = g.finalBearing(latitude1: 10, longitude1: 0, latitude2: -10, longitude2: 0)
        #expect(f == 180)
        let p = try g.destination(from: GeodeticCoordinate(latitude: 50, longitude: 14, altitude: 200), azimuth: 45, distance: 10_000)
        #expect(p.height == 200 && p.verticalReference == .meanSeaLevel)
        let back = g.inverse(latitude1: 50, longitude1: 14, latitude2: p.latitude, longitude2: p.longitude)
        #expect(Swift.abs(back.distance - 10_000) <= 1e-8)
        #expect(azimuthError(back.azimuth1, 45) <= azimuthTolerance(latitude: 50, reducedLength: back.reducedLength))
    }
}
