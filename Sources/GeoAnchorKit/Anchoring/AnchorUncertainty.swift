import Foundation

/// Expected placement error of one anchor, from the device's position and heading uncertainty
/// and the anchor's distance.
///
/// The inputs are 68 % figures in CoreLocation's sense: a horizontal accuracy is the radius of a
/// circular 2-D Gaussian (σ per axis = accuracy / 1.5096, ``CircularError``), vertical and heading
/// accuracies are 1-D half-widths (σ = accuracy / 0.9945). Errors are independent Gaussians:
/// - the horizontal position error (device and anchor combined, σ_h per axis) — the whole scene
///   shifts with the device's position error, whatever the distance;
/// - the vertical error σ_v;
/// - a heading error σ_ψ (radians) swings an anchor at horizontal distance d sideways by d·σ_ψ.
///
/// **meters** is the radius containing 68 % of the resulting 3-D displacement, whose components
/// (across the line of sight, along it, vertical) have variances (σ_h² + (d σ_ψ)², σ_h², σ_v²)
/// (``CircularError/radius68(variances:_:_:)``). **degrees** is the radius containing 68 % of the
/// apparent angular error as seen from the device at slant distance s and elevation ε: across,
/// `atan(σ_h/s)` combined with σ_ψ; in the vertical plane, `atan(√(σ_h² sin²ε + σ_v² cos²ε)/s)`.
///
/// A near anchor therefore suffers the position error (at 5 m, 5 m of GPS error is 45°), a far one
/// the heading error (at 2 km, 5° of heading error is 175 m).
///
/// - Accuracy: the 68 % radii are within −1 % … +5 % (conservative) of Monte Carlo quantiles of the
///   same model, including the exact chord `2d sin(δψ/2)` of the heading swing (test suite).
public struct AnchorUncertainty: Sendable, Hashable {
    /// Expected 68 % placement error in meters (radius of the 3-D error).
    public var meters: Double
    /// Expected 68 % angular error in degrees, as seen from the device.
    public var degrees: Double

    public init(meters: Double, degrees: Double) { self.meters = meters; self.degrees = degrees }

    /// Computes the model above.
    /// - Parameters:
    ///   - horizontalDistance: horizontal distance from the device, meters.
    ///   - slantDistance: straight-line distance from the device, meters.
    ///   - positionSigma: combined horizontal accuracy, meters (68 % radius, e.g. the root-sum-square
    ///     of the device's and the anchor's horizontal accuracies).
    ///   - verticalSigma: combined vertical accuracy, meters (68 % half-width).
    ///   - headingSigma: heading accuracy, degrees (68 % half-width); its σ is capped at 180°.
    ///
    /// Any finite inputs give a finite or infinite result, never NaN: accuracies and distances
    /// beyond ≈ 1e150 m or below ≈ 1e-150 m are squared after scaling (before, 1e300 m gave NaN),
    /// and a 68 % radius beyond `Double.greatestFiniteMagnitude` (a heading swing over 1e308 m)
    /// is +∞. Ordinary inputs give the same values as before, bit for bit.
    @inlinable
    public init(horizontalDistance: Double, slantDistance: Double, positionSigma: Double,
                verticalSigma: Double, headingSigma: Double) {
        let sh = positionSigma / CircularError.radius68PerSigma
        let sv = verticalSigma / CircularError.halfWidth68PerSigma
        // Beyond 180° the heading is simply unknown (and a huge σ would overflow to NaN).
        let psi = Swift.min(headingSigma / CircularError.halfWidth68PerSigma, 180) * Angle.radiansPerDegree
        let lateral = horizontalDistance * psi
        // σ's whose squares would overflow or underflow (beyond 2^±500 m, ≈ 3e±150) are squared
        // after dividing by the largest (the radius scales with them); ordinary ones as they are
        // (the scale is then 1: dividing and multiplying by it is exact).
        let k = CircularError.squaringScale(sh, lateral, sv)
        let h = sh / k, l = lateral / k, v = sv / k
        meters = k * CircularError.radius68(variances: h * h + l * l, h * h, v * v)
        // Angular error: across the line of sight and in its vertical plane. atan2 handles s = 0
        // (the anchor at the device: any shift is 90°).
        let s = slantDistance
        let cosE = s > 0 ? Swift.max(-1, Swift.min(1, horizontalDistance / s)) : 1
        let sinE2 = Swift.max(0, 1 - cosE * cosE)
        let across = Foundation.atan2(sh, s)
        let kv = CircularError.squaringScale(sh, sv, 0)
        let hv = sh / kv, vv = sv / kv
        // Unscaled, a term whose weight is 0 is 0, also when its σ overflowed (∞ · 0 would be NaN);
        // scaled (finite σ's), the terms as they are.
        let scaled = kv != 1
        let up = scaled || sinE2 > 0 ? hv * hv * sinE2 : 0, along = scaled || cosE != 0 ? vv * vv * cosE * cosE : 0
        let vertical = Foundation.atan2(kv * (up + along).squareRoot(), s)
        degrees = CircularError.radius68(variances: across * across + psi * psi, vertical * vertical)
            * Angle.degreesPerRadian
    }
}

/// Why an anchor is or is not shown.
public struct AnchorVisibility: Sendable, Hashable {
    /// Within ``PlacementConfiguration/maxRange``.
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
public struct PlacementConfiguration: Sendable, Hashable {
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

    /// The values ``maxRange`` accepts: (0, ∞) m, finite. Any finite range culls correctly (it
    /// is only compared with distances); a very large one (1e9 m) keeps every anchor.
    public static let maxRangeRange = ValueRange.greaterThan(0, unit: "m")

    /// The values ``horizontalFieldOfView`` accepts: (0, 360]°; 360 disables the test (larger
    /// angles were treated as 360 and are refused rather than read as something else).
    public static let fieldOfViewRange = ValueRange(lower: .exclusive(0), upper: .inclusive(360), unit: "degrees")

    /// The values ``errorWeight`` accepts: [0, 1e6]. 0 orders by distance alone; 1e6 already
    /// makes 1 mm of error outweigh 1 km of distance. Beyond it the weight only risks the
    /// score: with 1e308 every anchor with an expected error of 2 m or more scored ∞ and their
    /// order was lost.
    public static let errorWeightRange = ValueRange.closed(0, 1e6)

    /// Checks every value: finite and in its range — ``maxRange`` in ``maxRangeRange`` (0, ∞) m,
    /// ``horizontalFieldOfView`` in ``fieldOfViewRange`` (0, 360]° (360 disables the test),
    /// ``errorWeight`` in ``errorWeightRange`` [0, 1e6]. ``AnchorPlacer/place(_:from:)`` throws
    /// this error before placing anything.
    /// - Throws: ``GeoAnchorError/nonFinite(name:value:)`` or
    ///   ``GeoAnchorError/outOfRange(name:value:allowed:)`` naming the first bad value.
    public func validate() throws(GeoAnchorError) {
        try Self.maxRangeRange.check(maxRange, name: "maxRange")
        try Self.fieldOfViewRange.check(horizontalFieldOfView, name: "horizontalFieldOfView")
        try Self.errorWeightRange.check(errorWeight, name: "errorWeight")
    }
}
