import Foundation
import Testing
@testable import GeoAnchorKit

/// Expected placement error (issue: a floor-relative anchor inherited the device's vertical
/// accuracy, 6.9 → 12.8 m as that went 0 → 10 m with the anchor unchanged).
@Suite("Anchoring: expected error")
struct AnchorExpectedErrorTests {
    static let device = GeodeticCoordinate(latitude: 50.0875, longitude: 14.4214, ellipsoidalHeight: 250)

    /// Reference: the error model itself (AnchorUncertainty with the anchor's own vertical σ
    /// only): the floor-relative anchor's expected error does not change with the device's
    /// vertical accuracy, while an ellipsoidal anchor's grows.
    @Test func floorRelativeAnchorsIgnoreTheDevicesVerticalAccuracy() throws {
        let g = try LocalTangentFrame(origin: Self.device).geodetic(east: 30, north: 40, up: 0)
        let floor = GeoAnchor(id: "floor", latitude: g.latitude, longitude: g.longitude, altitude: .aboveFloor(2))
        let ellipsoidal = GeoAnchor(id: "h", latitude: g.latitude, longitude: g.longitude, altitude: .ellipsoidal(252))
        func errors(verticalAccuracy: Double) throws -> (floor: Double, ellipsoidal: Double) {
            let pose = DevicePose(position: Self.device, horizontalAccuracy: 5, verticalAccuracy: verticalAccuracy,
                                  heading: 0, headingAccuracy: 10)
            let r = try AnchorPlacer().place([floor, ellipsoidal], from: pose)
            return (try r[0].get().uncertainty.meters, try r[1].get().uncertainty.meters)
        }
        let a = try errors(verticalAccuracy: 0), b = try errors(verticalAccuracy: 10)
        #expect(a.floor == b.floor, "\(a.floor) vs \(b.floor)")
        #expect(b.ellipsoidal > a.ellipsoidal + 3, "\(a.ellipsoidal) → \(b.ellipsoidal)")
    }
}

/// `Float4x4.columns` has the shape `simd_float4x4(columns:)` takes, and round-trips
/// (reference: the columns given; exact).
@Suite("Anchoring: Float4x4 columns")
struct Float4x4ColumnsTests {
    @Test func columnsRoundTrip() {
        let m = Float4x4(SIMD4(1, 2, 3, 0), SIMD4(4, 5, 6, 0), SIMD4(7, 8, 9, 0), SIMD4(10, 11, 12, 1))
        let c = m.columns
        #expect(c.0 == m.c0 && c.1 == m.c1 && c.2 == m.c2 && c.3 == m.c3)
        #expect(Float4x4(columns: c) == m && m.translation == SIMD3(10, 11, 12))
    }
}
