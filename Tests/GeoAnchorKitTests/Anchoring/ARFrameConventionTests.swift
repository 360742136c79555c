import Foundation
import Testing
@testable import GeoAnchorKit

/// Frame conventions on hand-derivable cases. References: the axis definitions themselves
/// (ARKit gravityAndHeading x east / y up / z south; ARCore EUS; a gravity-only session's −z along
/// the start heading) — an anchor 10 m due north must be at ARKit z = −10 etc. Tolerance 1e-8 m
/// (the anchors are built with LocalTangentFrame's exact inverse; its round trip is ~1e-9 m).
@Suite("Anchoring: AR frame conventions")
struct ARFrameConventionTests {
    static let device = GeodeticCoordinate(latitude: 49.9617, longitude: 14.3950, ellipsoidalHeight: 392)

    /// An ellipsoidal anchor at the given ENU offset from the device.
    static func anchor(east: Double, north: Double, up: Double, orientation: AnchorOrientation = .identity) -> GeoAnchor {
        let frame = try! LocalTangentFrame(origin: device)
        let g = frame.geodetic(east: east, north: north, up: up)
        return GeoAnchor(id: "a", latitude: g.latitude, longitude: g.longitude,
                         altitude: .ellipsoidal(g.ellipsoidalHeight), orientation: orientation)
    }

    static func place(_ a: GeoAnchor, _ c: ARFrameConvention) throws -> AnchorPlacement {
        let placer = AnchorPlacer(convention: c)
        return try placer.place([a], from: DevicePose.exact(position: device))[0].get()
    }

    static func near(_ p: SIMD3<Double>, _ x: Double, _ y: Double, _ z: Double, tol: Double = 1e-8) -> Bool {
        abs(p.x - x) <= tol && abs(p.y - y) <= tol && abs(p.z - z) <= tol
    }

    @Test func dueNorthTenMeters() throws {
        let a = Self.anchor(east: 0, north: 10, up: 0)
        #expect(Self.near(try Self.place(a, .enu).position, 0, 10, 0))
        #expect(Self.near(try Self.place(a, .arkitGravityAndHeading).position, 0, 0, -10))
        #expect(Self.near(try Self.place(a, .arcoreEarth).position, 0, 0, -10))
        // Session started facing north: identical to gravityAndHeading.
        #expect(Self.near(try Self.place(a, .arkitGravity(sessionHeading: 0)).position, 0, 0, -10))
        // Facing east at start: north is to the left (−x).
        #expect(Self.near(try Self.place(a, .arkitGravity(sessionHeading: 90)).position, -10, 0, 0))
        // Facing south: north is behind (+z).
        #expect(Self.near(try Self.place(a, .arkitGravity(sessionHeading: 180)).position, 0, 0, 10))
        // Facing west: north is to the right (+x).
        #expect(Self.near(try Self.place(a, .arkitGravity(sessionHeading: 270)).position, 10, 0, 0))
    }

    @Test func eastAndUp() throws {
        let e = Self.anchor(east: 10, north: 0, up: 0)
        #expect(Self.near(try Self.place(e, .arkitGravityAndHeading).position, 10, 0, 0))
        #expect(Self.near(try Self.place(e, .arkitGravity(sessionHeading: 90)).position, 0, 0, -10))
        let u = Self.anchor(east: 0, north: 0, up: 5)
        #expect(Self.near(try Self.place(u, .arkitGravityAndHeading).position, 0, 5, 0))
        #expect(Self.near(try Self.place(u, .enu).position, 0, 0, 5))
        #expect(Self.near(try Self.place(u, .arkitGravity(sessionHeading: 33)).position, 0, 5, 0))
        // 45°: a point 10 m along the start heading is straight ahead.
        let f = Self.anchor(east: 10 * 0.5.squareRoot(), north: 10 * 0.5.squareRoot(), up: 0)
        #expect(Self.near(try Self.place(f, .arkitGravity(sessionHeading: 45)).position, 0, 0, -10))
    }

    @Test func roundTripThroughConvention() {
        let v = ENUVector(east: 3, north: -4, up: 12)
        for c in [ARFrameConvention.enu, .arkitGravityAndHeading, .arcoreEarth, .arkitGravity(sessionHeading: 123.4)] {
            let back = c.enu(fromFrame: c.vector(fromENU: v))
            #expect(abs(back.east - 3) < 1e-12 && abs(back.north + 4) < 1e-12 && abs(back.up - 12) < 1e-12)
        }
    }

    /// Model orientation: columns of the rotation are the model's axes in the frame. Yaw 90° turns
    /// the model's front (−z) to the east: z column = west = (−1, 0, 0) in ARKit axes; the
    /// quaternion of a −90° turn about +y is (0, −√½, 0, √½). Tolerance 1e-6 (Float output).
    @Test func modelOrientation() throws {
        let h = 0.5.squareRoot()
        let yaw = try Self.place(Self.anchor(east: 1, north: 1, up: 0, orientation: AnchorOrientation(yaw: 90)), .arkitGravityAndHeading)
        let z = yaw.transform.c2
        #expect(abs(z.x + 1) < 1e-5 && abs(z.y) < 1e-5 && abs(z.z) < 1e-5)
        let q = yaw.orientation.vector
        #expect(abs(q.x) < 1e-5 && abs(q.y + Float(h)) < 1e-5 && abs(q.z) < 1e-5 && abs(q.w - Float(h)) < 1e-5)
        // Pitch 90: the front points up, so +z (backwards) points down.
        let pitch = try Self.place(Self.anchor(east: 1, north: 1, up: 0, orientation: AnchorOrientation(pitch: 90)), .arkitGravityAndHeading)
        #expect(abs(pitch.transform.c2.y + 1) < 1e-5)
        // Roll 90: the right side (+x) points down.
        let roll = try Self.place(Self.anchor(east: 1, north: 1, up: 0, orientation: AnchorOrientation(roll: 90)), .arkitGravityAndHeading)
        #expect(abs(roll.transform.c0.y + 1) < 1e-5)
        // Identity in ENU output: model x = east, y = up, z = south.
        let id = try Self.place(Self.anchor(east: 1, north: 1, up: 0), .enu)
        #expect(abs(id.transform.c0.x - 1) < 1e-5 && abs(id.transform.c1.z - 1) < 1e-5 && abs(id.transform.c2.y + 1) < 1e-5)
    }

    /// A model 10 km north stands on its own vertical, tilted away from the device by the
    /// central angle (10 km / R ≈ 0.0899°). Reference: the central angle on a sphere
    /// of the Gaussian radius; tolerance 0.001°.
    @Test func farModelTiltsWithCurvature() throws {
        var a = Self.anchor(east: 0, north: 10_000, up: 0)
        a.altitude = .ellipsoidal(Self.device.height)      // same height above the ellipsoid
        let far = try Self.place(a, .enu)
        let up = far.transform.c1   // model up in ENU
        let tilt = atan2(Double(up.y), Double(up.z)) * 180 / .pi
        let r = (Ellipsoid.wgs84.meridionalRadius(latitude: 49.96) * Ellipsoid.wgs84.primeVerticalRadius(latitude: 49.96)).squareRoot()
        #expect(abs(tilt - 10_000 / r * 180 / .pi) < 1e-3)
        #expect(far.enu.up < -7.5 && far.enu.up > -8.0)   // sinks ≈ d²/2R = 7.85 m
    }
}
