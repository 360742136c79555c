import Foundation

/// Walking speed as a function of slope: Tobler's hiking function.
///
/// *v = v₀ · exp(−3.5 · |S + 0.05|)*, with *S = Δh / Δx* the slope (rise over horizontal run) and
/// *v₀ = 6 km/h* (Tobler 1993, "Three presentations on geographical analysis and modeling",
/// NCGIA Technical Report 93-1). The fastest walk, *v₀*, is on a gentle downhill of 5 %
/// (*S = −0.05*); on the flat it gives 5.04 km/h. The function is asymmetric: going up 10 %
/// takes longer than coming down 10 %, so walking-time matrices are not symmetric.
///
/// *Accuracy*: an empirical fit to hikers' speeds; real speeds vary by ±30 % between people.
/// The formula itself is evaluated to double precision.
///
/// The planners check the parameters (``validate()``): ``peakSpeed`` in ``peakSpeedRange``,
/// ``optimalSlope`` in ``optimalSlopeRange``, ``decay`` in ``decayRange``.
public struct WalkingModel: Sendable, Hashable {
    /// Speed on the most favourable slope (*S = −0.05*), m/s. Tobler: 6 km/h = 1.6667 m/s.
    /// Allowed: ``peakSpeedRange``.
    public var peakSpeed: Double
    /// Slope at which walking is fastest (Tobler: −0.05, a gentle downhill). Allowed:
    /// ``optimalSlopeRange``.
    public var optimalSlope: Double
    /// Decay rate per unit slope (Tobler: 3.5). Allowed: ``decayRange``.
    public var decay: Double

    /// Allowed ``peakSpeed``: [0.01, 20] m/s — from a shuffle of 36 m/h to 72 km/h (above any
    /// runner's sprint, ≈ 12 m/s); outside it walking times are meaningless (a negative speed
    /// gives negative times, 1e-300 m/s times of 1e303 s).
    public static let peakSpeedRange = ValueRange.closed(0.01, 20, unit: "m/s")
    /// Allowed ``optimalSlope``: [−1, 1] (±45°; the fastest slope of any walking-speed fit is
    /// a few percent downhill).
    public static let optimalSlopeRange = ValueRange.closed(-1, 1)
    /// Allowed ``decay``: [0, 100] per unit slope (Tobler 3.5; 0 is a slope-independent speed).
    /// Larger values make every leg off the optimal slope unwalkable (speed e^(−decay·ΔS) → 0).
    public static let decayRange = ValueRange.closed(0, 100)

    /// Tobler's original parameters: 6 km/h peak, −5 % optimal slope, decay 3.5.
    public static let tobler = WalkingModel(peakSpeed: 6 / 3.6, optimalSlope: -0.05, decay: 3.5)

    public init(peakSpeed: Double, optimalSlope: Double, decay: Double) {
        self.peakSpeed = peakSpeed
        self.optimalSlope = optimalSlope
        self.decay = decay
    }

    /// Checks the parameters against ``peakSpeedRange``, ``optimalSlopeRange`` and ``decayRange``.
    /// - Throws: ``GeoAnchorError/nonFinite(name:value:)`` or
    ///   ``GeoAnchorError/outOfRange(name:value:allowed:)`` naming the parameter.
    public func validate() throws(GeoAnchorError) {
        try Self.peakSpeedRange.check(peakSpeed, name: "peakSpeed")
        try Self.optimalSlopeRange.check(optimalSlope, name: "optimalSlope")
        try Self.decayRange.check(decay, name: "decay")
    }

    /// ``validate()`` as a routing error.
    func check() throws(RoutingError) {
        do { try validate() } catch { throw .invalidWalkingModel(error) }
    }

    /// Walking speed in m/s (horizontal) on a slope `rise / run` (positive uphill).
    @inlinable
    public func speed(slope: Double) -> Double {
        peakSpeed * exp(-decay * Swift.abs(slope - optimalSlope))
    }

    /// Seconds to walk `horizontalDistance` meters while gaining `heightChange` meters
    /// (negative when descending), at the constant slope `heightChange / horizontalDistance`.
    /// A zero-length leg takes 0 s. A leg so steep that the speed underflows to 0 takes `+∞`
    /// (the planners report its end as unreachable).
    @inlinable
    public func duration(horizontalDistance: Double, heightChange: Double) -> Double {
        guard horizontalDistance > 0 else { return 0 }
        return horizontalDistance / speed(slope: heightChange / horizontalDistance)
    }
}
