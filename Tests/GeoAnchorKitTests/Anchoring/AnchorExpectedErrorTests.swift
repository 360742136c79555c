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

    /// Accuracies no pose can have are typed errors (at 1e200 m every anchor's uncertainty was
    /// NaN and the loading order meaningless; a pose 1e20 m high put anchors 1e14 m away); an
    /// unknown heading (accuracy beyond 180°, e.g. a long coast without compass) is not an
    /// error: its σ counts as 180°, so the uncertainty is finite and equals that at 180°
    /// (reference: the model at 180°; exact).
    @Test func absurdPoseValues() throws {
        let g = try LocalTangentFrame(origin: Self.device).geodetic(east: 30, north: 40, up: 0)
        let anchor = GeoAnchor(id: "h", latitude: g.latitude, longitude: g.longitude, altitude: .ellipsoidal(252))
        func pose(h: Double = 5, v: Double = 3, heading: Double = 10, height: Double = 250) -> DevicePose {
            DevicePose(position: GeodeticCoordinate(latitude: Self.device.latitude, longitude: Self.device.longitude, ellipsoidalHeight: height),
                       horizontalAccuracy: h, verticalAccuracy: v, heading: 0, headingAccuracy: heading)
        }
        for bad in [pose(h: 1e200), pose(v: 1e200), pose(height: 1e20)] {
            #expect(throws: GeoAnchorError.self) { try AnchorPlacer().place([anchor], from: bad) }
        }
        let unknown = try AnchorPlacer().place([anchor], from: pose(heading: 1e300))[0].get().uncertainty
        let half = try AnchorPlacer().place([anchor], from: pose(heading: 180 * CircularError.halfWidth68PerSigma))[0].get().uncertainty
        #expect(unknown.meters.isFinite && unknown == half)
    }

    /// Absurd but finite inputs give the model's value, not NaN (before: squares overflowed,
    /// 1e300 m gave NaN; σ's of 1e-150 m too). References: (1) the model is homogeneous —
    /// every length × k scales `meters` by k and leaves `degrees` unchanged — so each case is
    /// the ordinary-scale case (the unchanged path, checked against Monte Carlo elsewhere) × k,
    /// relative tolerance 1e-14; (2) the issue's case, where the position and vertical σ's are
    /// 1e-300 of the heading swing: `meters` = 1-D radius of the swing d·σ_ψ and `degrees` = that
    /// of σ_ψ, i.e. radius68(variances: 1, 0) × (d σ_ψ) resp. × σ_ψ in degrees, tolerance 1e-14;
    /// (3) a swing beyond `greatestFiniteMagnitude` m gives +∞ meters (the limit), finite degrees.
    @Test func absurdFiniteValuesGiveTheModelsValue() {
        let base = AnchorUncertainty(horizontalDistance: 30, slantDistance: 40, positionSigma: 3, verticalSigma: 4, headingSigma: 5)
        for k in [1e300, 1e160, 1e-150, 1e-300] {
            let u = AnchorUncertainty(horizontalDistance: 30 * k, slantDistance: 40 * k, positionSigma: 3 * k,
                                      verticalSigma: 4 * k, headingSigma: 5)
            #expect(abs(u.meters / (base.meters * k) - 1) <= 1e-14, "k \(k): \(u)")
            #expect(abs(u.degrees / base.degrees - 1) <= 1e-14, "k \(k): \(u)")
        }
        let issue = AnchorUncertainty(horizontalDistance: 1e300, slantDistance: 1e300, positionSigma: 1, verticalSigma: 1, headingSigma: 5)
        let psi = 5 / CircularError.halfWidth68PerSigma          // degrees
        let oneD = CircularError.radius68(variances: 1, 0)
        #expect(abs(issue.meters / (oneD * 1e300 * psi * Angle.radiansPerDegree) - 1) <= 1e-14, "\(issue)")
        #expect(abs(issue.degrees / (oneD * psi) - 1) <= 1e-14, "\(issue)")
        let huge = AnchorUncertainty(horizontalDistance: .greatestFiniteMagnitude, slantDistance: .greatestFiniteMagnitude,
                                     positionSigma: .greatestFiniteMagnitude, verticalSigma: .greatestFiniteMagnitude, headingSigma: 90)
        #expect(huge.meters == .infinity && huge.degrees.isFinite, "\(huge)")
        // Nothing in a grid of extreme values gives NaN.
        let values: [Double] = [0, .leastNonzeroMagnitude, 1e-300, 1e-150, 1, 1e80, 1e160, 1e300, .greatestFiniteMagnitude]
        for h in values { for s in values { for p in values { for v in values { for hd in [0, 5, .greatestFiniteMagnitude] {
            let u = AnchorUncertainty(horizontalDistance: h, slantDistance: s, positionSigma: p, verticalSigma: v, headingSigma: hd)
            #expect(!u.meters.isNaN && !u.degrees.isNaN, "\([h, s, p, v, hd]): \(u)")
        } } } } }
    }

    /// ``CircularError/radius68(variances:_:_:)`` for variances whose squares overflow or
    /// underflow. Reference: the radius scales with √(variance), so each case equals
    /// √k × the ordinary case (relative tolerance 1e-14); an infinite variance gives +∞.
    @Test func radius68OfExtremeVariances() {
        for (a, b, c) in [(1.0, 1.0, 0.0), (1, 0, 0), (4, 1, 0.25), (1, 1, 1)] {
            let r = CircularError.radius68(variances: a, b, c)
            for k in [1e300, 1e200, 1e-200, 1e-300] {
                let big = CircularError.radius68(variances: a * k, b * k, c * k)
                #expect(abs(big / (r * k.squareRoot()) - 1) <= 1e-14, "\((a, b, c)) × \(k): \(big)")
            }
        }
        let g = Double.greatestFiniteMagnitude
        #expect(abs(CircularError.radius68(variances: g, g, g) / (g.squareRoot() * CircularError.radius68(variances: 1, 1, 1)) - 1) <= 1e-14)
        #expect(CircularError.radius68(variances: .infinity, 1) == .infinity)
        #expect(CircularError.radius68(variances: 0, 0) == 0)
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
