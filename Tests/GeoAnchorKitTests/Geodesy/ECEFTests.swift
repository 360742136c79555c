import Foundation
import Testing
@testable import GeoAnchorKit

@Suite("Geodetic ↔ ECEF")
struct ECEFTests {
    let wgs = Ellipsoid.wgs84

    /// Reference: self-consistency of forward (closed formula) and inverse (Vermeille) over a
    /// global grid, poles and ±180° included, h from −11 km to 36,000 km. Tolerances, as the
    /// documentation states them: 1.5e-14° in latitude (1 ulp of 90°, ≈ 1.6 nm on the ground),
    /// 1e-14° in longitude, and in height 5e-9 m or 1e-15 × h, whichever is larger. Measured:
    /// latitude 1.42e-14°, longitude 7.1e-15°, height ≤ 3.3e-9 m up to 400 km, 7.5e-9 m at
    /// 20,200 km and 2.2e-8 m at 36,000 km (6e-16 × h).
    @Test(arguments: [-11_000.0, -100, 0, 200, 8_848, 400_000, 20_200_000, 36_000_000])
    func roundTrip(height: Double) {
        for lat in stride(from: -90.0, through: 90.0, by: 2.5) {
            for lon in stride(from: -180.0, through: 180.0, by: 10) {
                let p = wgs.ecef(latitude: lat, longitude: lon, ellipsoidalHeight: height)
                let g = wgs.geodetic(x: p.x, y: p.y, z: p.z)
                #expect(abs(g.latitude - lat) <= 1.5e-14, "lat \(lat) lon \(lon) h \(height): \(g.latitude)")
                if abs(lat) < 90 {
                    #expect(abs(Angle.difference(from: lon, to: g.longitude)) <= 1e-14, "lon \(lon) → \(g.longitude)")
                }
                #expect(abs(g.ellipsoidalHeight - height) <= max(5e-9, 1e-15 * abs(height)), "h \(height) → \(g.ellipsoidalHeight)")
            }
        }
    }

    /// Exact values: at the poles the formula gives x = y = 0 exactly (degree-exact sincos)
    /// and z = b + h; on the equator x = a + h.
    @Test func exactAxes() {
        let n = wgs.ecef(latitude: 90, longitude: 123, ellipsoidalHeight: 10)
        #expect(n.x == 0 && n.y == 0)
        #expect(abs(n.z - (wgs.semiMinorAxis + 10)) < 1e-9)
        let e = wgs.ecef(latitude: 0, longitude: 90, ellipsoidalHeight: 0)
        #expect(e.x == 0 && e.y == wgs.semiMajorAxis && e.z == 0)
        let pole = wgs.geodetic(x: 0, y: 0, z: wgs.semiMinorAxis + 5)
        #expect(pole.latitude == 90 && abs(pole.ellipsoidalHeight - 5) < 1e-9)
    }

    /// The centre of the Earth maps to a pole at h = −b (as PROJ's `cart` and GeographicLib do).
    @Test func centreOfEarth() {
        let g = wgs.geodetic(x: 0, y: 0, z: 0)
        #expect(abs(g.latitude) == 90)
        #expect(abs(g.ellipsoidalHeight + wgs.semiMinorAxis) < 1e-6)
    }

    @Test func invalidInputIsTyped() {
        #expect(throws: GeoAnchorError.invalidLatitude(91)) {
            try wgs.ecef(from: GeodeticCoordinate(latitude: 91, longitude: 0))
        }
        #expect(throws: GeoAnchorError.nonFinite(name: "height", value: .infinity)) {
            try wgs.ecef(from: GeodeticCoordinate(latitude: 0, longitude: 0, ellipsoidalHeight: .infinity))
        }
        #expect(throws: GeoAnchorError.verticalReferenceMismatch(expected: .ellipsoid, got: .meanSeaLevel)) {
            try wgs.ecef(from: GeodeticCoordinate(latitude: 0, longitude: 0, altitude: 5))
        }
    }
}
