import Foundation
import Testing
@testable import GeoAnchorKit

@Suite("Anchoring: batch re-pose, drift, re-centring")
struct AnchorFieldTests {
    static let device = GeodeticCoordinate(latitude: 49.9617, longitude: 14.3950, ellipsoidalHeight: 392)

    static func anchors(_ n: Int, seed: UInt64) -> [GeoAnchor] {
        var rng = SplitMix64(seed: seed)
        return (0..<n).map { i in
            GeoAnchor(id: "a\(i)", latitude: device.latitude + .random(in: -0.05...0.05, using: &rng),
                      longitude: device.longitude + .random(in: -0.07...0.07, using: &rng),
                      altitude: .ellipsoidal(.random(in: 300...500, using: &rng)),
                      orientation: AnchorOrientation(yaw: .random(in: 0..<360, using: &rng), pitch: .random(in: -10...10, using: &rng)),
                      scale: .random(in: 0.5...2, using: &rng))
        }
    }

    /// Reference: the one-shot Double placer (itself checked against PROJ). At the session start
    /// the batch Float transforms must equal it to Float rounding: ≤ 1 mm in position for anchors
    /// within 7 km, ≤ 1e-6 in the rotation·scale entries.
    @Test(arguments: [ARFrameConvention.enu, .arkitGravityAndHeading, .arkitGravity(sessionHeading: 77), .arcoreEarth])
    func batchMatchesOneShot(_ convention: ARFrameConvention) throws {
        let anchors = Self.anchors(500, seed: 11)
        let pose = DevicePose.exact(position: Self.device)
        let field = try AnchorField(anchors: anchors, convention: convention, session: pose)
        let out = field.reposed()
        let ref = try AnchorPlacer(convention: convention).place(anchors, from: pose)
        for (t, r) in zip(out, ref) {
            let p = try r.get()
            let dp = SIMD3<Double>(Double(t.c3.x), Double(t.c3.y), Double(t.c3.z)) - p.position
            #expect((dp * dp).sum().squareRoot() <= 1e-3)
            for (a, b) in [(t.c0, p.transform.c0), (t.c1, p.transform.c1), (t.c2, p.transform.c2)] {
                #expect(maxAbsDiff(a, b) <= 1e-6)
            }
        }
        // Quaternion accessor agrees with the one-shot one (same sign convention w ≥ 0).
        #expect(maxAbsDiff(field.orientation(at: 3).vector, (try ref[3].get()).orientation.vector) <= 1e-6)
    }

    /// Reference: Float's own spacing. 16 384 m is the first power of two whose ulp exceeds 1 mm.
    @Test func recentreDistanceFromUlp() {
        #expect(AnchorField.recentreDistance == 16_384)
        #expect(Float(16_384).ulp > 0.001 && Float(16_384).nextDown.ulp <= 0.001)
    }

    /// Drift correction at bounded rates. The device estimate jumps 3 m east while AR tracking says
    /// it has not moved: the anchors must shift 3 m west in total, at ≤ 0.5 m/s, and a 10° heading
    /// correction at ≤ 5°/s. Reference: arithmetic of the configured rates; tolerance 1e-6 m.
    @Test func boundedDriftCorrection() throws {
        let a = [GeoAnchor(id: "x", latitude: Self.device.latitude + 0.001, longitude: Self.device.longitude,
                           altitude: .ellipsoidal(Self.device.height))]
        let start = DevicePose.exact(position: Self.device, heading: 0)
        var field = try AnchorField(anchors: a, convention: .enu, session: start,
                                    drift: DriftCorrectionConfiguration(maxTranslationRate: 0.5, maxRotationRate: 5, snapDistance: 50))
        let p0 = field.reposed()[0].c3
        let frame = try LocalTangentFrame(origin: Self.device)
        let g = frame.geodetic(east: 3, north: 0, up: 0)
        let moved = DevicePose.exact(position: GeodeticCoordinate(latitude: g.latitude, longitude: g.longitude, ellipsoidalHeight: g.ellipsoidalHeight))
        try field.update(pose: moved, devicePositionInSession: .zero)
        field.advance(by: 1)
        let p1 = field.reposed()[0].c3
        #expect(abs(Double(p1.x - p0.x) + 0.5) < 1e-3)       // 0.5 m of the 3 m after 1 s
        field.advance(by: 10)
        let p2 = field.reposed()[0].c3
        #expect(abs(Double(p2.x - p0.x) + 3) < 1e-3)         // fully applied
        // Heading: the frame believed the device faced 0°, the estimate says 10°.
        try field.update(pose: DevicePose.exact(position: moved.position, heading: 10), devicePositionInSession: .zero, nominalHeading: 0)
        field.advance(by: 1)
        #expect(abs(field.appliedNorthOffset - 5) < 1e-9)
        field.advance(by: 1)
        #expect(abs(field.appliedNorthOffset - 10) < 1e-9)
        // A jump beyond snapDistance is applied at once.
        let far = frame.geodetic(east: 200, north: 0, up: 0)
        try field.update(pose: DevicePose.exact(position: GeodeticCoordinate(latitude: far.latitude, longitude: far.longitude, ellipsoidalHeight: far.ellipsoidalHeight), heading: 10),
                         devicePositionInSession: .zero, nominalHeading: 0)
        field.advance(by: 0.01)
        let p3 = field.reposed()[0].c3
        // Reference: the session frame's axes are the tangent plane at the session origin, so the
        // anchor's offset from the device is taken in those axes (LocalTangentFrame), then turned.
        let ea = frame.enu(latitude: a[0].latitude, longitude: a[0].longitude, ellipsoidalHeight: Self.device.height)
        let p3ref = SIMD3(ea.east - 200, ea.north - 0, ea.up - 0)
        let c = cos(10 * Double.pi / 180), s = sin(10 * Double.pi / 180)
        #expect(abs(Double(p3.x) - (c * p3ref.x - s * p3ref.y)) < 1e-3 && abs(Double(p3.y) - (s * p3ref.x + c * p3ref.y)) < 1e-3)
    }

    /// Consistent motion is not drift: the device walks 100 m north, GNSS and AR tracking agree,
    /// so the anchors stay put in the session frame (to 1 mm), and after 20 km the output origin
    /// re-centres on the device.
    @Test func consistentMotionAndRecentre() throws {
        let a = Self.anchors(10, seed: 5)
        let start = DevicePose.exact(position: Self.device)
        var field = try AnchorField(anchors: a, convention: .arkitGravityAndHeading, session: start)
        let before = field.reposed()
        let frame = try LocalTangentFrame(origin: Self.device)
        func walk(north: Double) throws {
            let g = frame.geodetic(east: 0, north: north, up: 0)
            try field.update(pose: DevicePose.exact(position: GeodeticCoordinate(latitude: g.latitude, longitude: g.longitude, ellipsoidalHeight: g.ellipsoidalHeight)),
                             devicePositionInSession: SIMD3(0, 0, -north))
        }
        try walk(north: 100)
        #expect(field.advance(by: 0.016) == false)
        let after = field.reposed()
        for (x, y) in zip(before, after) { #expect(maxAbsDiff(x.c3, y.c3) <= 1e-3) }
        try walk(north: 20_000)
        #expect(field.advance(by: 0.016) == true)
        #expect(field.renderOrigin == SIMD3(0, 0, -20_000))
        let moved = field.reposed()
        for (x, y) in zip(before, moved) { #expect(abs(Double(y.c3.z) - Double(x.c3.z) - 20_000) <= 2e-3) }
    }
}

/// Largest |a − b| over the lanes.
func maxAbsDiff(_ a: SIMD4<Float>, _ b: SIMD4<Float>) -> Float {
    let d = a - b
    return max(max(Swift.abs(d.x), Swift.abs(d.y)), max(Swift.abs(d.z), Swift.abs(d.w)))
}
