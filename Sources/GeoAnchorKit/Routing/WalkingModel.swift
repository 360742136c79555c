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
public struct WalkingModel: Sendable, Hashable {
    /// Speed on the most favourable slope (*S = −0.05*), m/s. Tobler: 6 km/h = 1.6667 m/s.
    public var peakSpeed: Double
    /// Slope at which walking is fastest (Tobler: −0.05, a gentle downhill).
    public var optimalSlope: Double
    /// Decay rate per unit slope (Tobler: 3.5).
    public var decay: Double

    /// Tobler's original parameters: 6 km/h peak, −5 % optimal slope, decay 3.5.
    public static let tobler = WalkingModel(peakSpeed: 6 / 3.6, optimalSlope: -0.05, decay: 3.5)

    public init(peakSpeed: Double, optimalSlope: Double, decay: Double) {
        self.peakSpeed = peakSpeed
        self.optimalSlope = optimalSlope
        self.decay = decay
    }

    /// Walking speed in m/s (horizontal) on a slope `rise / run` (positive uphill).
    @inlinable
    public func speed(slope: Double) -> Double {
        peakSpeed * exp(-decay * Swift.abs(slope - optimalSlope))
    }

    /// Seconds to walk `horizontalDistance` meters while gaining `heightChange` meters
    /// (negative when descending), at the constant slope `heightChange / horizontalDistance`.
    /// A zero-length leg takes 0 s.
    @inlinable
    public func duration(horizontalDistance: Double, heightChange: Double) -> Double {
        guard horizontalDistance > 0 else { return 0 }
        return horizontalDistance / speed(slope: heightChange / horizontalDistance)
    }
}
