import Foundation

/// Walking time on steep ground and stairs: a vertical-rate model in the form of Naismith's rule.
///
/// *t = Δx / v_h + Δh⁺ / r_up + Δh⁻ / r_down*: the horizontal run `Δx` at ``horizontalSpeed``
/// plus the height gained at ``ascentRate`` or lost at ``descentRate`` (all in m/s). Unlike
/// Tobler's exponential, the time grows linearly with the height, so a staircase, a tower or a
/// near-vertical leg takes minutes, not hours or 10³⁰ s. ``WalkingModel`` takes the smaller of
/// this time and Tobler's; with the defaults (``naismith``) this model is the faster one only on
/// legs steeper than about +0.44 uphill or −0.37 downhill, see ``WalkingModel``.
///
/// Defaults (``naismith``):
/// - ``horizontalSpeed`` 5 km/h and ``ascentRate`` 600 m/h (0.1667 m/s): Naismith's rule — one
///   hour per 5 km forward plus one hour per 600 m (2000 ft) of ascent (W. W. Naismith 1892,
///   Scottish Mountaineering Club Journal 2, 135; metric form as in Aitken 1977 and Langmuir 1984,
///   "Mountaincraft and Leadership").
/// - ``descentRate`` 1200 m/h (0.3333 m/s): Naismith's rule has no descent term (Langmuir adds
///   10 min per 300 m of descent on slopes over 12°). Alpine clubs' hiking-time rules put the
///   descent rate at 5/3 (DIN 33466, German Alpine Club: 300 m/h up, 500 m/h down) to 2 times
///   (Swiss Alpine Club: 400 m/h up, 800 m/h down) the ascent rate; we take twice Naismith's.
///
/// *Accuracy*: a planning rule for sustained climbs, not a measurement. Short stair flights are
/// climbed faster: Fruin (1971, "Pedestrian Planning and Design", as quoted in PD 7974-6) observed
/// 0.49–0.67 m/s up and 0.60–1.01 m/s down along 7 in / 11.25 in (32°) and 6 in / 12 in stairs,
/// by age and sex. On a 32° stair (slope 0.62) the defaults give 0.27 m/s up and 0.46 m/s down
/// along the stair — slower than the slowest of Fruin's groups, as a long climb is: on a long
/// stairway people walk about half as fast as on a short one (Kretz et al. 2008, "Upstairs
/// walking speed distributions on a long stairway", Safety Science 46, 72–78: horizontal speeds
/// peaking at 0.4–0.5 m/s). The formula itself is evaluated to double precision.
///
/// The planners check the parameters (``validate()``): ``horizontalSpeed`` in
/// ``horizontalSpeedRange``, ``ascentRate`` in ``ascentRateRange``, ``descentRate`` in
/// ``descentRateRange``.
public struct SteepTerrainModel: Sendable, Hashable {
    /// Speed over the horizontal run, m/s (Naismith: 5 km/h = 1.3889 m/s). Allowed:
    /// ``horizontalSpeedRange``.
    public var horizontalSpeed: Double
    /// Height gained per second when climbing, m/s (Naismith: 600 m/h = 0.16667 m/s). Allowed:
    /// ``ascentRateRange``.
    public var ascentRate: Double
    /// Height lost per second when descending, m/s (default 1200 m/h = 0.33333 m/s). Allowed:
    /// ``descentRateRange``.
    public var descentRate: Double

    /// Allowed ``horizontalSpeed``: [0.01, 20] m/s, as ``WalkingModel/peakSpeedRange``.
    public static let horizontalSpeedRange = ValueRange.closed(0.01, 20, unit: "m/s")
    /// Allowed ``ascentRate``: [0.01, 5] m/s — from 36 m of height an hour to 18 km/h straight up
    /// (several times any stair runner's pace); outside it walking times are meaningless (a rate
    /// of 1e-300 m/s gives times of 1e303 s, a negative one negative times).
    public static let ascentRateRange = ValueRange.closed(0.01, 5, unit: "m/s")
    /// Allowed ``descentRate``: [0.01, 5] m/s, as ``ascentRateRange``.
    public static let descentRateRange = ValueRange.closed(0.01, 5, unit: "m/s")

    /// Naismith's rule (5 km/h, 600 m/h up) with descent at twice the ascent rate (1200 m/h).
    public static let naismith = SteepTerrainModel(horizontalSpeed: 5 / 3.6, ascentRate: 600 / 3600.0,
                                                   descentRate: 1200 / 3600.0)

    public init(horizontalSpeed: Double, ascentRate: Double, descentRate: Double) {
        self.horizontalSpeed = horizontalSpeed
        self.ascentRate = ascentRate
        self.descentRate = descentRate
    }

    /// Checks the parameters against ``horizontalSpeedRange``, ``ascentRateRange`` and
    /// ``descentRateRange``.
    /// - Throws: ``GeoAnchorError/nonFinite(name:value:)`` or
    ///   ``GeoAnchorError/outOfRange(name:value:allowed:)`` naming the parameter.
    public func validate() throws(GeoAnchorError) {
        try validate(prefix: "")
    }

    /// ``validate()`` with `prefix` before each parameter's name (``WalkingModel`` passes
    /// `"steepTerrain."`).
    func validate(prefix: String) throws(GeoAnchorError) {
        try Self.horizontalSpeedRange.check(horizontalSpeed, name: prefix + "horizontalSpeed")
        try Self.ascentRateRange.check(ascentRate, name: prefix + "ascentRate")
        try Self.descentRateRange.check(descentRate, name: prefix + "descentRate")
    }

    /// Seconds to walk `horizontalDistance` meters (≥ 0) while gaining `heightChange` meters
    /// (negative when descending). Finite for finite input: a vertical leg (no horizontal run)
    /// takes `|heightChange|` over the ascent or descent rate.
    @inlinable
    public func duration(horizontalDistance: Double, heightChange: Double) -> Double {
        let vertical = heightChange > 0 ? heightChange / ascentRate : -heightChange / descentRate
        return horizontalDistance / horizontalSpeed + vertical
    }

    /// Horizontal walking speed in m/s on a slope `rise / run` (positive uphill): the run over
    /// ``duration(horizontalDistance:heightChange:)``. 0 on a vertical slope (±∞).
    @inlinable
    public func speed(slope: Double) -> Double {
        let perMeter = 1 / horizontalSpeed + (slope > 0 ? slope / ascentRate : -slope / descentRate)
        return 1 / perMeter
    }
}
