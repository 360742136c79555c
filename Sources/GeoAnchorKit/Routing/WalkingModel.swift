import Foundation

/// Walking speed as a function of slope: Tobler's hiking function, with a steep-terrain model
/// for stairs and slopes too steep for it.
///
/// *v = v₀ · exp(−3.5 · |S + 0.05|)*, with *S = Δh / Δx* the slope (rise over horizontal run) and
/// *v₀ = 6 km/h* (Tobler 1993, "Three presentations on geographical analysis and modeling",
/// NCGIA Technical Report 93-1). The fastest walk, *v₀*, is on a gentle downhill of 5 %
/// (*S = −0.05*); on the flat it gives 5.04 km/h. The function is asymmetric: going up 10 %
/// takes longer than coming down 10 %, so walking-time matrices are not symmetric.
///
/// **Steep legs.** Tobler's exponential was fitted to hill paths; on stairs and very steep legs
/// it gives absurd times (a tower's stairs, 50 m up over 30 m: 2 h; 9 km up over 500 m: 8e29 s).
/// A leg's time is therefore the smaller of Tobler's and the ``steepTerrain`` model's, a
/// vertical-rate model in the form of Naismith's rule (``SteepTerrainModel``: by default 5 km/h
/// plus 600 m/h up or 1200 m/h down; the tower takes 5.4 min up, 2.9 min down). With the
/// defaults the crossover is at *S ≈ +0.445* uphill and *S ≈ −0.367* downhill: on every gentler
/// leg (at least all |S| ≤ 0.3) the steep model is slower — by ≥ 0.7 %, at *S = 0* — so the time
/// is Tobler's, bit for bit, and route figures on ordinary paths are those of Tobler alone. The
/// time is continuous in the leg's run and rise (the minimum of two continuous functions; at the
/// crossover both give the same time), only its slope has a kink there; as the run goes to 0 it
/// tends to the vertical time, which a vertical leg (run 0, rise ≠ 0) takes. Set ``steepTerrain``
/// to `nil` for Tobler's function alone (then a leg so steep that the speed underflows to 0 takes
/// `+∞` and the planners report its end as unreachable, and a vertical leg takes 0 s).
///
/// ``tobler`` — the default of every planner — is Tobler's parameters with the default steep
/// model: what a tour app wants (no route through a tower priced at hours), and on moderate slopes
/// exactly Tobler. For Tobler's function alone, as in his paper: `WalkingModel(peakSpeed:
/// optimalSlope: decay: steepTerrain: nil)` or `var w = WalkingModel.tobler; w.steepTerrain = nil`.
///
/// *Accuracy*: an empirical fit to hikers' speeds; real speeds vary by ±30 % between people (and
/// on stairs, see ``SteepTerrainModel``). The formulas themselves are evaluated to double
/// precision.
///
/// The planners check the parameters (``validate()``): ``peakSpeed`` in ``peakSpeedRange``,
/// ``optimalSlope`` in ``optimalSlopeRange``, ``decay`` in ``decayRange``, and the steep model's
/// (``SteepTerrainModel/validate()``).
public struct WalkingModel: Sendable, Hashable {
    /// Speed on the most favourable slope (*S = −0.05*), m/s. Tobler: 6 km/h = 1.6667 m/s.
    /// Allowed: ``peakSpeedRange``.
    public var peakSpeed: Double
    /// Slope at which walking is fastest (Tobler: −0.05, a gentle downhill). Allowed:
    /// ``optimalSlopeRange``.
    public var optimalSlope: Double
    /// Decay rate per unit slope (Tobler: 3.5). Allowed: ``decayRange``.
    public var decay: Double
    /// The model for stairs and steep legs; a leg takes the smaller of its time and Tobler's.
    /// `nil`: Tobler's function alone. Default ``SteepTerrainModel/naismith``.
    public var steepTerrain: SteepTerrainModel?

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

    /// Tobler's original parameters (6 km/h peak, −5 % optimal slope, decay 3.5) with the default
    /// steep model, ``SteepTerrainModel/naismith``: exactly Tobler on every slope within ±0.3.
    public static let tobler = WalkingModel(peakSpeed: 6 / 3.6, optimalSlope: -0.05, decay: 3.5)

    /// A model from Tobler-function parameters and a steep model (default
    /// ``SteepTerrainModel/naismith``; `nil` for Tobler's function alone).
    public init(peakSpeed: Double, optimalSlope: Double, decay: Double,
                steepTerrain: SteepTerrainModel? = .naismith) {
        self.peakSpeed = peakSpeed
        self.optimalSlope = optimalSlope
        self.decay = decay
        self.steepTerrain = steepTerrain
    }

    /// Checks the parameters against ``peakSpeedRange``, ``optimalSlopeRange`` and ``decayRange``,
    /// and the steep model's (``SteepTerrainModel/validate()``; named `steepTerrain.ascentRate`
    /// and so on).
    /// - Throws: ``GeoAnchorError/nonFinite(name:value:)`` or
    ///   ``GeoAnchorError/outOfRange(name:value:allowed:)`` naming the parameter.
    public func validate() throws(GeoAnchorError) {
        try Self.peakSpeedRange.check(peakSpeed, name: "peakSpeed")
        try Self.optimalSlopeRange.check(optimalSlope, name: "optimalSlope")
        try Self.decayRange.check(decay, name: "decay")
        try steepTerrain?.validate(prefix: "steepTerrain.")
    }

    /// ``validate()`` as a routing error.
    func check() throws(RoutingError) {
        do { try validate() } catch { throw .invalidWalkingModel(error) }
    }

    /// Walking speed in m/s (horizontal) on a slope `rise / run` (positive uphill): the larger of
    /// ``toblerSpeed(slope:)`` and the steep model's (``SteepTerrainModel/speed(slope:)``) —
    /// Tobler's, bit for bit, wherever it is the faster (with the defaults, −0.367 < S < 0.445).
    @inlinable
    public func speed(slope: Double) -> Double {
        let tobler = toblerSpeed(slope: slope)
        guard let steepTerrain else { return tobler }
        return Swift.max(tobler, steepTerrain.speed(slope: slope))
    }

    /// Tobler's hiking function alone: *peakSpeed · exp(−decay · |slope − optimalSlope|)*, m/s
    /// (horizontal), on a slope `rise / run` (positive uphill).
    @inlinable
    public func toblerSpeed(slope: Double) -> Double {
        peakSpeed * exp(-decay * Swift.abs(slope - optimalSlope))
    }

    /// Seconds to walk `horizontalDistance` meters while gaining `heightChange` meters
    /// (negative when descending), at the constant slope `heightChange / horizontalDistance`:
    /// the smaller of Tobler's time (`horizontalDistance / toblerSpeed(slope:)`) and the steep
    /// model's. A zero-length leg takes 0 s; a vertical leg (run 0, rise ≠ 0) the steep model's
    /// vertical time. Without a steep model, a vertical leg takes 0 s and a leg so steep that
    /// Tobler's speed underflows to 0 takes `+∞` (the planners report its end as unreachable).
    @inlinable
    public func duration(horizontalDistance: Double, heightChange: Double) -> Double {
        guard horizontalDistance > 0 else {
            // Run 0 (or not a number): only the steep model can climb straight up; Tobler alone
            // keeps its old answer, 0 s.
            guard horizontalDistance == 0, heightChange != 0, let steepTerrain else { return 0 }
            return steepTerrain.duration(horizontalDistance: 0, heightChange: heightChange)
        }
        let tobler = horizontalDistance / toblerSpeed(slope: heightChange / horizontalDistance)
        guard let steepTerrain else { return tobler }
        // Tobler's time, unchanged, wherever it is the shorter (every moderate slope).
        return Swift.min(tobler, steepTerrain.duration(horizontalDistance: horizontalDistance, heightChange: heightChange))
    }
}
