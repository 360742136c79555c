import Foundation

/// Expected placement error of one anchor, from the device's position and heading uncertainty
/// and the anchor's distance.
///
/// The model (all σ are 68 % figures, combined root-sum-square as independent errors):
/// - σ_pos = √(device horizontal accuracy² + anchor horizontal accuracy²) — the whole scene
///   shifts with the device's position error, whatever the distance;
/// - σ_v = √(device vertical accuracy² + anchor vertical accuracy²);
/// - a heading error σ_ψ (radians) swings an anchor at horizontal distance d sideways by d·σ_ψ;
/// - **meters**: error² = σ_pos² + (d·σ_ψ)² + σ_v²;
/// - **degrees of view** (how far the anchor appears from its true direction as seen from the
///   device, slant distance s): angle² = atan(√(σ_pos² + σ_v²)/s)² + σ_ψ².
///
/// A near anchor therefore suffers the position error (at 5 m, 5 m of GPS error is 45°), a far one
/// the heading error (at 2 km, 5° of heading error is 175 m). Small-angle d·σ_ψ is exact to
/// 0.1 % for σ_ψ ≤ 5°.
public struct AnchorUncertainty: Sendable, Hashable {
    /// Expected 68 % placement error in meters.
    public var meters: Double
    /// Expected 68 % angular error in degrees, as seen from the device.
    public var degrees: Double

    public init(meters: Double, degrees: Double) { self.meters = meters; self.degrees = degrees }

    /// Computes the model above.
    /// - Parameters:
    ///   - horizontalDistance, slantDistance: meters from the device.
    ///   - positionSigma, verticalSigma: meters (68 %); headingSigma: degrees (68 %).
    @inlinable
    public init(horizontalDistance: Double, slantDistance: Double, positionSigma: Double,
                verticalSigma: Double, headingSigma: Double) {
        let psi = headingSigma * Angle.radiansPerDegree
        let lateral = horizontalDistance * psi
        meters = (positionSigma * positionSigma + lateral * lateral + verticalSigma * verticalSigma).squareRoot()
        let shift = (positionSigma * positionSigma + verticalSigma * verticalSigma).squareRoot()
        // atan2 handles s = 0 (the anchor at the device: any shift is 90°).
        let a = Foundation.atan2(shift, slantDistance)
        degrees = (a * a + psi * psi).squareRoot() * Angle.degreesPerRadian
    }
}

/// Why an anchor is or is not shown.
public struct AnchorVisibility: Sendable, Hashable {
    /// Within ``PlacementOptions/maxRange``.
    public var inRange: Bool
    /// The straight line from the device to the top of the anchor (its point raised by the
    /// bounding radius) stays above the smooth Earth through the device's floor (see
    /// ``AnchorVisibility/isAboveHorizon(enu:heightAboveFloor:topOffset:earthRadius:)``).
    public var aboveHorizon: Bool
    /// Within the horizontal field of view about the device heading (widened by the anchor's
    /// angular radius).
    public var inFieldOfView: Bool
    /// All three.
    public var isVisible: Bool { inRange && aboveHorizon && inFieldOfView }

    public init(inRange: Bool, aboveHorizon: Bool, inFieldOfView: Bool) {
        self.inRange = inRange; self.aboveHorizon = aboveHorizon; self.inFieldOfView = inFieldOfView
    }

    /// Horizon test on a sphere of radius `earthRadius` tangent to the level surface through the
    /// device's floor: the anchor is hidden when the segment from the device to the anchor's top
    /// passes below that surface (terrain relief and refraction are not modelled).
    ///
    /// - Parameters:
    ///   - enu: the anchor's point relative to the device, meters (exact 3-D ENU, curvature included).
    ///   - heightAboveFloor: the device's height above the floor/ground, meters.
    ///   - topOffset: meters added along the anchor's up to test its top (bounding radius).
    ///   - earthRadius: Gaussian mean radius √(MN) at the device, meters.
    /// - Accuracy: exact for the sphere; the ellipsoid's radius varies by < 0.1 % within 100 km,
    ///   which moves the horizon distance (≈ √(2Rh)) by < 0.05 %.
    @inlinable
    public static func isAboveHorizon(enu: ENUVector, heightAboveFloor: Double, topOffset: Double,
                                      earthRadius: Double) -> Bool {
        let r = earthRadius
        // The anchor's local up differs from the device's by the central angle; for the top
        // offset the device's up is adequate (the offset is meters, the tilt ≤ 1° within 100 km).
        let t = SIMD3(enu.east, enu.north, enu.up + topOffset)
        let c = SIMD3(0, 0, -(r + heightAboveFloor))      // Earth centre, device at the origin
        let tt = (t * t).sum()
        guard tt > 0 else { return true }
        let s = Swift.min(Swift.max((t * c).sum() / tt, 0), 1)
        let p = t * s - c
        return (p * p).sum() >= r * r
    }
}

/// Options of placement: culling, field of view and loading priority.
public struct PlacementOptions: Sendable, Hashable {
    /// Anchors farther than this slant distance (meters) are culled. Default 10 km.
    public var maxRange: Double
    /// Full horizontal field of view in degrees about the device heading (default 60°, a phone
    /// camera in portrait ≈ 50–65°); 360 disables the test.
    public var horizontalFieldOfView: Double
    /// Loading priority: score = slant distance + `errorWeight` × expected error (meters);
    /// default 10 (one meter more error counts as 10 m farther).
    public var errorWeight: Double

    public init(maxRange: Double = 10_000, horizontalFieldOfView: Double = 60, errorWeight: Double = 10) {
        self.maxRange = maxRange; self.horizontalFieldOfView = horizontalFieldOfView; self.errorWeight = errorWeight
    }
}
