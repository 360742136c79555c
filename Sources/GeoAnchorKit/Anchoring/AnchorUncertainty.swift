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
    /// bounding radius) stays above the smooth Earth through the lower of the device's floor and
    /// the anchor's base (see
    /// ``AnchorVisibility/isAboveHorizon(enu:heightAboveFloor:anchorHeightAboveDevice:topOffset:earthRadius:)``).
    public var aboveHorizon: Bool
    /// Within the horizontal field of view about the device heading (widened by the anchor's
    /// angular radius).
    public var inFieldOfView: Bool
    /// All three.
    public var isVisible: Bool { inRange && aboveHorizon && inFieldOfView }

    public init(inRange: Bool, aboveHorizon: Bool, inFieldOfView: Bool) {
        self.inRange = inRange; self.aboveHorizon = aboveHorizon; self.inFieldOfView = inFieldOfView
    }

    /// Horizon test with Earth curvature: the anchor is hidden when the straight segment from
    /// the device to the anchor's top passes below a smooth Earth (a sphere of radius
    /// `earthRadius`) through the *lower* of the device's floor and the anchor's base. So an anchor
    /// on level ground disappears beyond the geometric horizon (≈ √(2R·h_eye) + √(2R·h_top)), and
    /// one downhill from a hill-top visitor stays visible; terrain relief in between and
    /// refraction are not modelled. Within 1 mm of grazing counts as visible.
    ///
    /// - Parameters:
    ///   - enu: the anchor's point relative to the device, meters (exact 3-D ENU, curvature included).
    ///   - heightAboveFloor: the device's height above its floor/ground, meters.
    ///   - anchorHeightAboveDevice: anchor ellipsoidal height − device ellipsoidal height, meters.
    ///   - topOffset: meters added along the up axis to test the anchor's top (bounding radius).
    ///   - earthRadius: Gaussian mean radius √(MN) at the device, meters.
    /// - Accuracy: exact for the sphere; the ellipsoid's normal-section radius differs from √(MN)
    ///   by < 0.4 %, which moves the horizon distance (≈ √(2Rh)) by < 0.2 %.
    @inlinable
    public static func isAboveHorizon(enu: ENUVector, heightAboveFloor: Double, anchorHeightAboveDevice: Double,
                                      topOffset: Double, earthRadius: Double) -> Bool {
        let r = earthRadius
        // Reference level relative to the device (≤ −heightAboveFloor): the lower ground.
        let level = Swift.min(-heightAboveFloor, anchorHeightAboveDevice)
        // The anchor's local up differs from the device's by the central angle; for the top
        // offset the device's up is adequate (the offset is meters, the tilt ≤ 1° within 100 km).
        let t = SIMD3(enu.east, enu.north, enu.up + topOffset)
        let c = SIMD3(0, 0, level - r)      // Earth centre, device at the origin
        let tt = (t * t).sum()
        guard tt > 0 else { return true }
        let s = Swift.min(Swift.max((t * c).sum() / tt, 0), 1)
        let p = t * s - c
        return (p * p).sum().squareRoot() >= r - 1e-3
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
