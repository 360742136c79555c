import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport

/// Native ECEF/ENU against third-party reference values: EPSG/IOGP Guidance Note 7-2 (as
/// carried in PROJ's builtins.gie), PROJ's own `cart` tests (more_builtins.gie) and pyproj
/// vectors (derived_pyproj/enu_vectors_pyproj.csv).
@Suite("ENU and ECEF vs published references", .enabled(if: SharedData.shouldRun))
struct ENUReferenceTests {
    /// Reference: EPSG/IOGP Guidance Note 7-2 (Oct 2020), geographic ↔ topocentric example
    /// (origin 55°N 5°E 200 m, WGS84), values as given in PROJ's builtins.gie (lon lat h order).
    /// Tolerance: the gie file's (1 mm); the published values are rounded to 1 mm.
    @Test func guidanceNote7_2TopocentricExample() throws {
        let text = try SharedData.text("geodesy/proj_gie/builtins.gie")
        let op = "+proj=pipeline +step +proj=cart +ellps=WGS84 +step +proj=topocentric +ellps=WGS84 +lon_0=5 +lat_0=55 +h_0=200"
        let section = try #require(GieSection.find(op, in: text))
        let frame = try LocalTangentFrame(origin: GeodeticCoordinate(latitude: 55, longitude: 5, ellipsoidalHeight: 200))
        #expect(!section.cases.isEmpty)
        for c in section.cases {
            let expect = try #require(c.expect)
            // Forward: accept (lon, lat, h) → expect (e, n, u).
            let v = frame.enu(latitude: c.accept[1], longitude: c.accept[0], ellipsoidalHeight: c.accept[2])
            #expect(abs(v.east - expect[0]) <= c.tolerance, "line \(c.line): east \(v.east)")
            #expect(abs(v.north - expect[1]) <= c.tolerance, "line \(c.line): north \(v.north)")
            #expect(abs(v.up - expect[2]) <= c.tolerance, "line \(c.line): up \(v.up)")
            // Inverse (the gie `roundtrip`): expect → accept, compared on the ground.
            let g = frame.geodetic(east: expect[0], north: expect[1], up: expect[2])
            let dn = (g.latitude - c.accept[1]) * Angle.radiansPerDegree * 6_371_000
            let de = (g.longitude - c.accept[0]) * Angle.radiansPerDegree * 6_371_000 * cos(g.latitude * Angle.radiansPerDegree)
            #expect((dn * dn + de * de).squareRoot() <= c.tolerance, "line \(c.line)")
            #expect(abs(g.ellipsoidalHeight - c.accept[2]) <= c.tolerance, "line \(c.line)")
        }
    }

    /// Reference: PROJ's `cart` tests (more_builtins.gie, GRS80): axes, poles, ±180°, the centre of
    /// the Earth, forward and inverse. Tolerance: the gie file's (0.001 mm); angular results are
    /// compared as ground distance (as gie does); longitude is not compared at the poles.
    @Test func projCartSection() throws {
        let text = try SharedData.text("geodesy/proj_gie/more_builtins.gie")
        let section = try #require(GieSection.find("+proj=cart +ellps=GRS80", in: text))
        let grs = Ellipsoid.grs80
        #expect(section.cases.count >= 18)
        for c in section.cases {
            let e = try #require(c.expect)
            if !c.inverse {
                let p = grs.ecef(latitude: c.accept[1], longitude: c.accept[0], ellipsoidalHeight: c.accept[2])
                #expect(abs(p.x - e[0]) <= c.tolerance && abs(p.y - e[1]) <= c.tolerance && abs(p.z - e[2]) <= c.tolerance,
                        "line \(c.line): \(p)")
            } else {
                let g = grs.geodetic(x: c.accept[0], y: c.accept[1], z: c.accept[2])
                let dn = (g.latitude - e[1]) * Angle.radiansPerDegree * grs.semiMajorAxis
                let de = abs(e[1]) == 90 ? 0
                    : Angle.difference(from: e[0], to: g.longitude) * Angle.radiansPerDegree * grs.semiMajorAxis * cos(e[1] * Angle.radiansPerDegree)
                #expect((dn * dn + de * de).squareRoot() <= c.tolerance, "line \(c.line): \(g)")
                #expect(abs(g.ellipsoidalHeight - e[2]) <= c.tolerance, "line \(c.line): \(g)")
            }
        }
    }

    /// Reference: pyproj 3.7.1 / PROJ 9.5.1 vectors (cart + topocentric), 192 rows, 8 origins incl.
    /// a pole and the antimeridian. The file rounds every value to 4 decimals (0.1 mm) and
    /// 9 decimal degrees (≤ 0.06 mm), so the achievable tolerance is set by that rounding:
    /// ECEF inputs → ENU: ≤ 0.15 mm (√3·0.05 mm + 0.05 mm); geodetic inputs → ENU: ≤ 0.25 mm.
    /// (Agreement with PROJ to 1e-8 m on unrounded inputs is ``ENUvsPROJTests``.)
    @Test func pyprojVectors() throws {
        let text = try SharedData.text("geodesy/derived_pyproj/enu_vectors_pyproj.csv")
        var rows = 0
        var maxECEF = 0.0, maxGeodetic = 0.0
        for line in text.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",").map(String.init)
            guard f.count == 13 else { continue }
            let v = f[1...].map { Double($0)! }
            let frame = try LocalTangentFrame(origin: GeodeticCoordinate(latitude: v[0], longitude: v[1], ellipsoidalHeight: v[2]))
            let fromECEF = frame.enu(fromECEF: ECEFCoordinate(x: v[6], y: v[7], z: v[8]))
            let fromGeodetic = frame.enu(latitude: v[3], longitude: v[4], ellipsoidalHeight: v[5])
            for (a, b) in [(fromECEF.east, v[9]), (fromECEF.north, v[10]), (fromECEF.up, v[11])] {
                maxECEF = max(maxECEF, abs(a - b))
            }
            for (a, b) in [(fromGeodetic.east, v[9]), (fromGeodetic.north, v[10]), (fromGeodetic.up, v[11])] {
                maxGeodetic = max(maxGeodetic, abs(a - b))
            }
            rows += 1
        }
        #expect(rows == 192)
        #expect(maxECEF <= 1.5e-4, "max |ΔENU| from ECEF columns: \(maxECEF) m")
        #expect(maxGeodetic <= 2.5e-4, "max |ΔENU| from geodetic columns: \(maxGeodetic) m")
    }
}
