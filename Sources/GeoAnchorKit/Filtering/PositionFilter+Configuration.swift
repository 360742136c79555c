import Foundation

/// How a target moves: sets the process noise and the limits of ``PositionFilter``.
public enum MotionProfile: String, Sendable, Hashable, Codable, CaseIterable {
    case walking
    case cycling
    case driving
}

extension PositionFilter {
    /// Tuning of ``PositionFilter``. Start from ``walking``, ``cycling`` or ``driving`` and adjust.
    ///
    /// Every setting has a documented range (``validate()``); decoding checks it, and a filter
    /// refuses a configuration outside it as a programmer error.
    public struct Configuration: Sendable, Hashable, Codable {
        /// Horizontal acceleration power spectral density `q`, m²/s³, per axis (see
        /// ``ConstantVelocityModel``).
        public var accelerationSpectralDensity: Double
        /// Vertical acceleration power spectral density, m²/s³ (height channel).
        public var verticalAccelerationSpectralDensity: Double

        /// Per-axis σ (m) per meter of reported `horizontalAccuracy`.
        ///
        /// CoreLocation documents `horizontalAccuracy` only loosely ("the radius of uncertainty");
        /// Android documents a 68 % radius. We read it as the **radius of 68 % probability of a
        /// circular 2-D Gaussian**: `P(r ≤ R) = 1 − exp(−R²/2σ²)` gives
        /// `R₆₈ = σ·√(−2 ln 0.32) ≈ 1.5096 σ`, hence the default `1 / 1.5096 ≈ 0.662`.
        /// Set 1 to read the accuracy as a 1σ per-axis value instead.
        public var horizontalSigmaPerAccuracy: Double
        /// Factor applied to the σ derived from a reported `horizontalAccuracy` (not to the
        /// filter's output accuracy). Phones' accuracy figures are optimistic, most of all in
        /// streets (multipath); the cycling preset uses 2, measured on the repository's simulated
        /// traces (which model that optimism); the walking preset uses 1 because its bias state
        /// (``biasTimeConstant``) models the slowly varying part of the error. 1 trusts the reports.
        public var accuracyInflation: Double
        /// σ (m) per meter of reported `verticalAccuracy` (a 68 % two-sided half-interval of a
        /// 1-D Gaussian: `h₆₈ ≈ 0.9945 σ`, default `1 / 0.9945`).
        public var verticalSigmaPerAccuracy: Double
        /// User-equivalent range error σ (m) used with HDOP/VDOP when a fix has no accuracy:
        /// per-axis σ = `HDOP × UERE / √2` (HDOP scales the horizontal RMS, √(σₑ² + σₙ²)).
        public var userEquivalentRangeError: Double
        /// Per-axis σ (m) for fixes with neither accuracy nor HDOP.
        public var defaultHorizontalSigma: Double
        /// Lower bound on the per-axis measurement σ (m): receivers overstate their precision.
        public var minimumHorizontalSigma: Double

        /// Whether reported speed/course are used as velocity measurements.
        public var usesSpeedAndCourse: Bool
        /// σ of a reported speed (m/s).
        public var speedSigma: Double
        /// σ of a reported course (degrees).
        public var courseSigma: Double
        /// Below this reported speed (m/s) the course is ignored and the speed bounds a
        /// zero-velocity measurement.
        public var courseMinimumSpeed: Double

        /// Probability of the χ² gate on position (2 degrees of freedom), velocity (2) and
        /// height (1) innovations; 0.999 rejects one good fix in a thousand.
        public var gateProbability: Double
        /// After this many consecutive gated fixes, the next fix that also fails the gate
        /// re-initializes the filter on itself (it must never freeze on a stale position).
        public var maximumConsecutiveRejections: Int
        /// …as does a gated fix when none has been accepted for this many seconds.
        public var maximumRejectionInterval: Double
        /// A gap longer than this (s) between fixes re-initializes the filter.
        public var maximumGap: Double
        /// After this many consecutive fixes refused as going backwards, each at or after the one
        /// before it (so they agree on a clock), the filter concludes that its own time was wrong
        /// — a fix from the future (a corrupted NMEA date, a GPS week-rollover bug) or a receiver
        /// clock reset — and re-initializes on the last of them
        /// (``LocalPositionEstimate/Status/clockReset``, counted in
        /// ``PositionFilterStatistics/clockResets``); the ones before it stay refused (counted
        /// out of order). In [0, ``maximumCount``]; 0 disables this (a negative count, which did
        /// too, is refused by ``validate()``): one fix 1e6 s in the future then made the
        /// filter refuse the remaining 1052 fixes of a city walk. Default 5 (5 s at 1 Hz: a fix
        /// a few seconds early only costs the fixes before its time, as without the reset).
        public var clockResetFixCount = 5
        /// Initial per-axis velocity σ (m/s) at (re-)initialization.
        public var initialVelocitySigma: Double

        /// Automatic stationary (zero-velocity) mode: a reported speed below this (m/s)…
        public var stationarySpeedThreshold: Double
        /// …on this many consecutive fixes switches to zero-velocity updates (0 disables).
        public var stationaryFixCount: Int
        /// σ (m/s) of the zero-velocity pseudo-measurement while stationary.
        public var stationaryVelocitySigma: Double

        /// ``accuracyInflation`` for the forward pass under the RTS smoother (nil: the same).
        ///
        /// GNSS errors are correlated in time (a bias that wanders over a minute or more), which
        /// a white-noise measurement model cannot represent. A causal filter has to follow that
        /// bias to avoid lag; a smoother, which sees both sides of every fix, gains by averaging
        /// over a longer window — a larger measurement σ relative to the process noise, so the
        /// track's shape comes mostly from the Doppler speed/course and its position from the
        /// average of many fixes. The walking preset uses 6 (against 2 for the filter) with
        /// q = 0.05 m²/s³, measured on 12 simulated walks (`TraceSimulator` zavist-tour and
        /// city-walk, seeds 1–6): mean smoothed RMSE 0.59 → 0.51 and p95 0.65 → 0.58 of raw.
        public var smootherAccuracyInflation: Double?
        /// ``accelerationSpectralDensity`` for the forward pass under the RTS smoother (nil: the same).
        public var smootherAccelerationSpectralDensity: Double?
        /// Correlation time τ (s) of a first-order Gauss–Markov horizontal position bias, or nil
        /// (default) for none. Phone GNSS position error is dominated by slowly varying terms
        /// (multipath, residual ionosphere/troposphere, orbit and clock errors) that decorrelate
        /// over tens of seconds to minutes, whereas Doppler speed/course is not biased by them.
        /// With a τ each horizontal axis carries a bias state b (position fix = p + b, velocity =
        /// v, `b ← exp(−dt/τ) b` plus noise with stationary σ ``biasSigma``), so the filter can
        /// follow the Doppler velocity instead of the biased position. The smoother's own pass
        /// (``smootherConfiguration``) does not use it.
        public var biasTimeConstant: Double?
        /// Stationary per-axis σ (m) of the Gauss–Markov bias (used with ``biasTimeConstant``); the
        /// same share of a fix's σ is removed from its white-noise part (at least
        /// ``minimumHorizontalSigma`` remains).
        ///
        /// *Accuracy* (walking preset, 12 simulated walks, `TraceSimulator` seeds 1–6 of both
        /// scenarios): mean filtered/raw RMSE 0.686 → 0.647, p95 0.798 → 0.748 against no bias state
        /// (with accuracy inflation ×2).
        public var biasSigma: Double
        /// The motion modes of an adaptive (interacting multiple model) filter, or nil (default)
        /// for one mode built from ``accelerationSpectralDensity`` and ``biasTimeConstant``
        /// (``motionModes``). See ``adaptive``.
        public var modes: [MotionMode]?
        /// How a bias-observing mode splits a fix's variance σ² (nil: the walking preset's split).
        ///
        /// With a share κ the bias variance is `min(σ_b², κ σ²)` of the latest fix and the white
        /// part the rest, so the model's total error is exactly what the fix states. Without one
        /// (nil), σ_b² is taken out of σ² and the white part floored at
        /// ``minimumHorizontalSigma``² — which, for fixes whose stated accuracy is honest and
        /// smaller than the bias σ, makes the model far more confident than the fix and gates a
        /// quarter to a half of them. ``adaptive`` uses 0.8.
        public var biasShare: Double?
        /// The share of a path-constrained filter (``PositionFilter/init(configuration:path:)``),
        /// which runs the one mode ``pathMode`` instead of the mixture; nil: ``biasShare``.
        ///
        /// Alone, a mode that reads 80 % of each fix's variance as slowly varying bias cannot follow
        /// fixes whose error is white: on honest 2–3 m fixes with the true path it gated 13–15 %
        /// (measured, 2 seeds × 1,200 fixes). ``adaptive`` uses 0.3 there: ≤ 0.6 % gated on white
        /// and none on correlated (τ 60 s) honest fixes of 2–5 m, filtered RMSE 0.52–0.61 × raw.
        public var pathBiasShare: Double? = nil
        /// How a multi-mode (``modes``) smoother tunes its second forward pass from the motion the
        /// causal filter found (see ``PositionFilter/SmootherSchedule``); nil: the smoother runs
        /// over the causal filter's own pass (RTS over the moment-matched mixture). ``adaptive``
        /// sets one.
        public var smootherSchedule: SmootherSchedule? = nil
        /// The share κ_c of each fix's error variance σ² that lasts longer than the filter
        /// averages over, in [0, 1] (default 0.6; 0: the model's covariance as it is).
        ///
        /// The reported σ (``LocalPositionEstimate/horizontalSigma``, and so
        /// ``FilteredFix/horizontalAccuracy``, filtered and smoothed) is never below `√(κ_c σ²)` of
        /// the latest accepted fix (``LocalPositionEstimate/correlatedSigma``): phone GNSS error is
        /// correlated over minutes, so averaging fixes cannot remove that part, while the model's
        /// covariance shrinks as if it could. Only the reported accuracy: the estimate itself does
        /// not change.
        ///
        /// Against NovAtel SPAN references, 18–66 % of the error variance of the four GSDC 2020
        /// chipset drives and 58 % of the library's own WLS positions' outlasts five minutes
        /// (``GeoRegistrationConfiguration/gnssPersistentShare``, which uses 0.4 because that
        /// estimator's own error model already keeps minutes-long GNSS error).
        ///
        /// *Measured* (`geobench report`, Filtering; 12 simulated walks per GNSS error model,
        /// adaptive preset, fixes stating 0.86 × their true error as phones do; mean share of
        /// times within the 68 % radius, 0.68 honest): raw fixes 54 / 56 / 53 % (the scenarios'
        /// GNSS τ 90 s / phone-like τ 15 s / 65 % lasting τ 600 s); filtered with κ_c 0, 0.4,
        /// 0.6, 0.8, 1: 31/29/29, 46/57/43, 55/69/52, 62/77/59, 69/83/65 %; smoothed 32/60/28,
        /// 56/88/53, 67/94/62, 75/97/69, 81/98/73 %. 0.6 is the smallest share at which the
        /// filtered radius is as honest as the fixes' own on all three (the price: a pessimistic
        /// smoothed radius on GNSS whose error does not last).
        public var correlatedErrorShare: Double = 0.6

        /// Builds a configuration. The defaults are a plain constant-velocity filter (q 0.3 m²/s³,
        /// no bias state, one mode), not one of the tuned presets: use ``adaptive`` (the
        /// library's default), ``walking``, ``cycling`` or ``driving`` for those.
        public init(accelerationSpectralDensity: Double = 0.3,
                    verticalAccelerationSpectralDensity: Double = 0.05,
                    horizontalSigmaPerAccuracy: Double = 1 / CircularError.radius68PerSigma,
                    accuracyInflation: Double = 1,
                    verticalSigmaPerAccuracy: Double = 1 / CircularError.halfWidth68PerSigma,
                    userEquivalentRangeError: Double = 6,
                    defaultHorizontalSigma: Double = 5,
                    minimumHorizontalSigma: Double = 0.5,
                    usesSpeedAndCourse: Bool = true,
                    speedSigma: Double = 0.3,
                    courseSigma: Double = 10,
                    courseMinimumSpeed: Double = 0.8,
                    gateProbability: Double = 0.999,
                    maximumConsecutiveRejections: Int = 6,
                    maximumRejectionInterval: Double = 15,
                    maximumGap: Double = 30,
                    initialVelocitySigma: Double = 1.5,
                    stationarySpeedThreshold: Double = 0.15,
                    stationaryFixCount: Int = 3,
                    stationaryVelocitySigma: Double = 0.02,
                    smootherAccuracyInflation: Double? = nil,
                    smootherAccelerationSpectralDensity: Double? = nil,
                    biasTimeConstant: Double? = nil,
                    biasSigma: Double = 2,
                    modes: [MotionMode]? = nil,
                    biasShare: Double? = nil) {
            self.accelerationSpectralDensity = accelerationSpectralDensity
            self.verticalAccelerationSpectralDensity = verticalAccelerationSpectralDensity
            self.horizontalSigmaPerAccuracy = horizontalSigmaPerAccuracy
            self.accuracyInflation = accuracyInflation
            self.verticalSigmaPerAccuracy = verticalSigmaPerAccuracy
            self.userEquivalentRangeError = userEquivalentRangeError
            self.defaultHorizontalSigma = defaultHorizontalSigma
            self.minimumHorizontalSigma = minimumHorizontalSigma
            self.usesSpeedAndCourse = usesSpeedAndCourse
            self.speedSigma = speedSigma
            self.courseSigma = courseSigma
            self.courseMinimumSpeed = courseMinimumSpeed
            self.gateProbability = gateProbability
            self.maximumConsecutiveRejections = maximumConsecutiveRejections
            self.maximumRejectionInterval = maximumRejectionInterval
            self.maximumGap = maximumGap
            self.initialVelocitySigma = initialVelocitySigma
            self.stationarySpeedThreshold = stationarySpeedThreshold
            self.stationaryFixCount = stationaryFixCount
            self.stationaryVelocitySigma = stationaryVelocitySigma
            self.smootherAccuracyInflation = smootherAccuracyInflation
            self.smootherAccelerationSpectralDensity = smootherAccelerationSpectralDensity
            self.biasTimeConstant = biasTimeConstant
            self.biasSigma = biasSigma
            self.modes = modes.flatMap { $0.isEmpty ? nil : $0 }
            self.biasShare = biasShare
        }

        /// Decodes a configuration. `clockResetFixCount` may be missing (configurations saved
        /// before it existed), then 5; every other non-optional setting is required.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            accelerationSpectralDensity = try c.decode(Double.self, forKey: .accelerationSpectralDensity)
            verticalAccelerationSpectralDensity = try c.decode(Double.self, forKey: .verticalAccelerationSpectralDensity)
            horizontalSigmaPerAccuracy = try c.decode(Double.self, forKey: .horizontalSigmaPerAccuracy)
            accuracyInflation = try c.decode(Double.self, forKey: .accuracyInflation)
            verticalSigmaPerAccuracy = try c.decode(Double.self, forKey: .verticalSigmaPerAccuracy)
            userEquivalentRangeError = try c.decode(Double.self, forKey: .userEquivalentRangeError)
            defaultHorizontalSigma = try c.decode(Double.self, forKey: .defaultHorizontalSigma)
            minimumHorizontalSigma = try c.decode(Double.self, forKey: .minimumHorizontalSigma)
            usesSpeedAndCourse = try c.decode(Bool.self, forKey: .usesSpeedAndCourse)
            speedSigma = try c.decode(Double.self, forKey: .speedSigma)
            courseSigma = try c.decode(Double.self, forKey: .courseSigma)
            courseMinimumSpeed = try c.decode(Double.self, forKey: .courseMinimumSpeed)
            gateProbability = try c.decode(Double.self, forKey: .gateProbability)
            maximumConsecutiveRejections = try c.decode(Int.self, forKey: .maximumConsecutiveRejections)
            maximumRejectionInterval = try c.decode(Double.self, forKey: .maximumRejectionInterval)
            maximumGap = try c.decode(Double.self, forKey: .maximumGap)
            clockResetFixCount = try c.decodeIfPresent(Int.self, forKey: .clockResetFixCount) ?? 5
            initialVelocitySigma = try c.decode(Double.self, forKey: .initialVelocitySigma)
            stationarySpeedThreshold = try c.decode(Double.self, forKey: .stationarySpeedThreshold)
            stationaryFixCount = try c.decode(Int.self, forKey: .stationaryFixCount)
            stationaryVelocitySigma = try c.decode(Double.self, forKey: .stationaryVelocitySigma)
            smootherAccuracyInflation = try c.decodeIfPresent(Double.self, forKey: .smootherAccuracyInflation)
            smootherAccelerationSpectralDensity = try c.decodeIfPresent(Double.self, forKey: .smootherAccelerationSpectralDensity)
            biasTimeConstant = try c.decodeIfPresent(Double.self, forKey: .biasTimeConstant)
            biasSigma = try c.decode(Double.self, forKey: .biasSigma)
            modes = try c.decodeIfPresent([MotionMode].self, forKey: .modes)
            biasShare = try c.decodeIfPresent(Double.self, forKey: .biasShare)
            pathBiasShare = try c.decodeIfPresent(Double.self, forKey: .pathBiasShare)
            smootherSchedule = try c.decodeIfPresent(SmootherSchedule.self, forKey: .smootherSchedule)
            correlatedErrorShare = try c.decodeIfPresent(Double.self, forKey: .correlatedErrorShare) ?? 0.6
            do { try validate() } catch {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description, underlyingError: error))
            }
        }

        /// The acceleration spectral densities accepted (``accelerationSpectralDensity``,
        /// ``verticalAccelerationSpectralDensity``, ``smootherAccelerationSpectralDensity``,
        /// ``MotionMode/accelerationSpectralDensity``, the ``SmootherSchedule``'s): (0, 10⁴] m²/s³.
        /// Without process noise (q = 0) the covariance shrinks until every fix is gated. At
        /// 10⁴ m²/s³ the velocity σ grows by 100 m/s within one second — no vehicle a phone rides
        /// does that (the presets use 0.01–4); a larger q only makes the filter echo its fixes, and
        /// its covariance products overflow from about 10¹⁵⁴ (q = 1e308, accepted before this
        /// bound, gave NaN estimates).
        public static let accelerationSpectralDensityRange = ValueRange(lower: .exclusive(0), upper: .inclusive(10_000), unit: "m²/s³")

        /// The factors from a stated accuracy to a σ accepted (``horizontalSigmaPerAccuracy``,
        /// ``verticalSigmaPerAccuracy``): (0, 10]. 10 reads a horizontal accuracy as the radius
        /// holding 0.5 % of a circular Gaussian's fixes (the default, 0.662, reads it as 68 %);
        /// no accuracy convention is smaller. 0 made every fix's σ the floor and every output
        /// accuracy infinite.
        public static let sigmaPerAccuracyRange = ValueRange(lower: .exclusive(0), upper: .inclusive(10))

        /// The accuracy inflations accepted (``accuracyInflation``, ``smootherAccuracyInflation``,
        /// ``SmootherSchedule/walkingAccuracyInflation``): (0, 100]. The presets use 1–6; a stated
        /// accuracy 100 times too optimistic is no accuracy at all, and a larger factor pushes
        /// the fixes' σ past the 100 km at which the filter refuses every fix as invalid.
        public static let accuracyInflationRange = ValueRange(lower: .exclusive(0), upper: .inclusive(100))

        /// The measurement σs accepted (``userEquivalentRangeError``, ``defaultHorizontalSigma``,
        /// ``minimumHorizontalSigma``): (0, 100 km] m, up to ``Fix/maximumUsableHorizontalAccuracy``,
        /// beyond which the filter refuses a fix as invalid — a larger default or floor would
        /// refuse every fix.
        public static let horizontalSigmaRange = ValueRange(lower: .exclusive(0), upper: .inclusive(Fix.maximumUsableHorizontalAccuracy), unit: "m")

        /// Fastest speed, m/s, in any speed setting or speed σ: 1 km/s, three times an airliner's
        /// cruising speed. A larger speed σ or threshold only says that speeds say nothing
        /// (``usesSpeedAndCourse`` `false` says that), and from about 10¹⁵⁴ m/s its square overflows.
        public static let maximumSpeed = 1_000.0

        /// Longest interval, s, in any time setting (``maximumRejectionInterval``, ``maximumGap``,
        /// ``biasTimeConstant``, ``MotionMode/meanDuration``): one day. A gap of a day starts a
        /// new trace; a larger value only means "never", and it bounds the filter's prediction
        /// step (q·dt³ ≤ 10⁴ × 86,400³ ≈ 6·10¹⁸ m², far from overflow).
        public static let maximumInterval = 86_400.0

        /// Largest count setting (``maximumConsecutiveRejections``, ``clockResetFixCount``,
        /// ``stationaryFixCount``, ``MotionMode/maximumConsecutiveRejections``): 86,400, a day of
        /// fixes at 1 Hz. A longer streak is never seen on a trace, so a larger count only means
        /// "never", which 0 says explicitly where it disables (before this bound, `Int.max` was
        /// accepted).
        public static let maximumCount = 86_400

        /// Checks every setting: finite and in its range.
        ///
        /// | setting | range |
        /// |---|---|
        /// | ``accelerationSpectralDensity``, ``verticalAccelerationSpectralDensity`` | ``accelerationSpectralDensityRange``, (0, 10⁴] m²/s³ |
        /// | ``horizontalSigmaPerAccuracy``, ``verticalSigmaPerAccuracy`` | ``sigmaPerAccuracyRange``, (0, 10] |
        /// | ``accuracyInflation`` | ``accuracyInflationRange``, (0, 100] |
        /// | ``userEquivalentRangeError``, ``defaultHorizontalSigma``, ``minimumHorizontalSigma`` | ``horizontalSigmaRange``, (0, 100 km] m |
        /// | ``speedSigma``, ``stationaryVelocitySigma`` | (0, 1000] m/s (``maximumSpeed``) |
        /// | ``courseSigma`` | [0, 180]° |
        /// | ``courseMinimumSpeed``, ``stationarySpeedThreshold``, ``initialVelocitySigma`` | [0, 1000] m/s |
        /// | ``gateProbability`` | (0, 1]; 1 is no gate (the χ² threshold is ∞) |
        /// | ``maximumConsecutiveRejections`` | [0, 86,400] (``maximumCount``); 0 recovers on the first gated fix |
        /// | ``clockResetFixCount``, ``stationaryFixCount`` | [0, 86,400]; 0 disables |
        /// | ``maximumRejectionInterval`` | [0, 86,400] s (``maximumInterval``) |
        /// | ``maximumGap`` | (0, 86,400] s (0 re-initialized on every fix) |
        /// | ``biasSigma`` | [0, 100 km] m |
        /// | ``correlatedErrorShare`` | [0, 1] |
        /// | ``smootherAccuracyInflation``, ``smootherAccelerationSpectralDensity`` (when set) | as ``accuracyInflation``, ``accelerationSpectralDensity`` |
        /// | ``biasTimeConstant`` (when set) | (0, 86,400] s |
        /// | ``biasShare``, ``pathBiasShare`` (when set) | (0, 1) (0 and 1 silently meant nil before) |
        /// | ``modes`` (when set) | each ``MotionMode/validate()``, named `modes[i].…` |
        /// | ``smootherSchedule`` (when set) | ``SmootherSchedule/validate()``, named `smootherSchedule.…` |
        ///
        /// The upper bounds are where a larger value means "never" or its square overflows the
        /// filter (see each range's documentation). A configuration set in code that fails this is
        /// a programmer error: ``PositionFilter/init(configuration:path:)`` and
        /// ``PositionFilter/track(_:configuration:smooth:path:)-([Fix],_,_,_)`` stop with this error's
        /// message. A decoded configuration is checked when decoded (this error wrapped in
        /// `DecodingError.dataCorrupted`); call this first on one built from other input (options,
        /// a settings screen).
        /// - Throws: ``GeoAnchorError/nonFinite(name:value:)`` or
        ///   ``GeoAnchorError/outOfRange(name:value:allowed:)`` naming the first bad value.
        public func validate() throws(GeoAnchorError) {
            let speed = ValueRange.closed(0, Self.maximumSpeed, unit: "m/s")
            let sigmaOfSpeed = ValueRange(lower: .exclusive(0), upper: .inclusive(Self.maximumSpeed), unit: "m/s")
            let count = ValueRange.closed(0, Double(Self.maximumCount))
            let values: [(String, Double, ValueRange)] = [
                ("accelerationSpectralDensity", accelerationSpectralDensity, Self.accelerationSpectralDensityRange),
                ("verticalAccelerationSpectralDensity", verticalAccelerationSpectralDensity, Self.accelerationSpectralDensityRange),
                ("horizontalSigmaPerAccuracy", horizontalSigmaPerAccuracy, Self.sigmaPerAccuracyRange),
                ("accuracyInflation", accuracyInflation, Self.accuracyInflationRange),
                ("verticalSigmaPerAccuracy", verticalSigmaPerAccuracy, Self.sigmaPerAccuracyRange),
                ("userEquivalentRangeError", userEquivalentRangeError, Self.horizontalSigmaRange),
                ("defaultHorizontalSigma", defaultHorizontalSigma, Self.horizontalSigmaRange),
                ("minimumHorizontalSigma", minimumHorizontalSigma, Self.horizontalSigmaRange),
                ("speedSigma", speedSigma, sigmaOfSpeed),
                ("courseSigma", courseSigma, .closed(0, 180, unit: "degrees")),
                ("courseMinimumSpeed", courseMinimumSpeed, speed),
                ("gateProbability", gateProbability, ValueRange(lower: .exclusive(0), upper: .inclusive(1))),
                ("maximumConsecutiveRejections", Double(maximumConsecutiveRejections), count),
                ("maximumRejectionInterval", maximumRejectionInterval, .closed(0, Self.maximumInterval, unit: "s")),
                ("maximumGap", maximumGap, ValueRange(lower: .exclusive(0), upper: .inclusive(Self.maximumInterval), unit: "s")),
                ("clockResetFixCount", Double(clockResetFixCount), count),
                ("initialVelocitySigma", initialVelocitySigma, speed),
                ("stationarySpeedThreshold", stationarySpeedThreshold, speed),
                ("stationaryFixCount", Double(stationaryFixCount), count),
                ("stationaryVelocitySigma", stationaryVelocitySigma, sigmaOfSpeed),
                ("biasSigma", biasSigma, .closed(0, Fix.maximumUsableHorizontalAccuracy, unit: "m")),
                ("correlatedErrorShare", correlatedErrorShare, .closed(0, 1))
            ]
            for (name, value, allowed) in values { try allowed.check(value, name: name) }
            if let v = smootherAccuracyInflation { try Self.accuracyInflationRange.check(v, name: "smootherAccuracyInflation") }
            if let v = smootherAccelerationSpectralDensity {
                try Self.accelerationSpectralDensityRange.check(v, name: "smootherAccelerationSpectralDensity")
            }
            if let v = biasTimeConstant {
                try ValueRange(lower: .exclusive(0), upper: .inclusive(Self.maximumInterval), unit: "s").check(v, name: "biasTimeConstant")
            }
            let share = ValueRange(lower: .exclusive(0), upper: .exclusive(1))
            if let v = biasShare { try share.check(v, name: "biasShare") }
            if let v = pathBiasShare { try share.check(v, name: "pathBiasShare") }
            for (i, mode) in (modes ?? []).enumerated() { try mode.validate(prefix: "modes[\(i)].") }
            try smootherSchedule?.validate(prefix: "smootherSchedule.")
        }

        /// The modes the filter runs: ``modes``, or one mode from ``accelerationSpectralDensity``
        /// (observing the bias when ``biasTimeConstant`` is set; kind by q: < 0.5 m²/s³ walking,
        /// else vehicle).
        public var motionModes: [MotionMode] {
            if let modes, !modes.isEmpty { return modes }
            return [MotionMode(kind: accelerationSpectralDensity < 0.5 ? .walking : .vehicle,
                               accelerationSpectralDensity: accelerationSpectralDensity,
                               observesBias: biasTimeConstant != nil)]
        }

        /// The one mode a path-constrained filter runs (a ``PathConstraint`` is a walking path):
        /// the first walking mode that observes the bias, else the first walking mode, else the
        /// first mode.
        public var pathMode: MotionMode {
            let m = motionModes
            return m.first { $0.kind == .walking && $0.observesBias } ?? m.first { $0.kind == .walking } ?? m[0]
        }

        /// The default: a motion model chosen by the data, no profile needed. An interacting
        /// multiple model (``MotionMode``, an internal `ModeMixture`) of four modes; each axis carries
        /// (p, v, b) with the Gauss–Markov bias b (τ 90 s, σ_b ≤ 2 m):
        ///
        /// | mode | q (m²/s³) | a fix is read as | mean duration | other |
        /// |---|---|---|---|---|
        /// | stationary | 0.01, velocity held at 0 (σ 0.02 m/s) | p + b + white | 60 s | |
        /// | walking | 0.2 | p + white (σ²) | 300 s | soft limit 3 m/s |
        /// | walking, correlated error | 0.2 | p + b + white | 300 s | soft limit 3 m/s |
        /// | vehicle | 3 | p + b + white | 300 s | recovers after 1 gated fix |
        ///
        /// "p + b + white" splits the fix's stated variance σ²: min(σ_b², 0.8 σ²) to the bias, the
        /// rest white (``biasShare``), so the model's error is what the fix states. The two walking
        /// modes have the same dynamics and differ only in how they read the fixes: phone errors are
        /// mostly slowly varying (then the correlated mode, which follows the Doppler velocity
        /// through them, wins), but a receiver whose errors are white keeps its fixes through the
        /// white mode. The walking modes' soft speed limit keeps a car from looking like a
        /// pedestrian (their constant-velocity model would follow it as well). Speed σ 0.1 m/s,
        /// course σ 5°, initial velocity σ 5 m/s; other values as ``init(accelerationSpectralDensity:verticalAccelerationSpectralDensity:horizontalSigmaPerAccuracy:accuracyInflation:verticalSigmaPerAccuracy:userEquivalentRangeError:defaultHorizontalSigma:minimumHorizontalSigma:usesSpeedAndCourse:speedSigma:courseSigma:courseMinimumSpeed:gateProbability:maximumConsecutiveRejections:maximumRejectionInterval:maximumGap:initialVelocitySigma:stationarySpeedThreshold:stationaryFixCount:stationaryVelocitySigma:smootherAccuracyInflation:smootherAccelerationSpectralDensity:biasTimeConstant:biasSigma:modes:biasShare:)``'s
        /// defaults. The smoother blends the RTS over the mixture with a walking-tuned second pass
        /// by how much the device rode (``smootherSchedule``, ``PositionFilter/SmootherSchedule``).
        ///
        /// - Accuracy (test suite, `geobench report`; filtered RMSE / p95 against raw): GSDC 2020
        ///   chipset traces 0.96–1.03 / 0.81–1.00 (smoothed 0.96–1.02 / 0.82–1.01); simulated walk
        ///   → tram ride (≤ 14 m/s) → walk, 4 seeds, RMSE 0.72–0.87 (mean 0.77), p95 0.81–0.84;
        ///   simulated walks (6) mean RMSE 0.672 against the walking preset's 0.680 (smoothed 0.477
        ///   against 0.489; city-walk 0.544 against 0.554); fixes as good as
        ///   they state (1–10 m, white or correlated) ≤ 0.1 % gated, RMSE 0.97–1.00 of a
        ///   constant-velocity filter's.
        public static let adaptive: Configuration = {
            var c = adaptiveModes
            c.pathBiasShare = 0.3
            c.smootherSchedule = SmootherSchedule()
            return c
        }()

        private static let adaptiveModes = Configuration(
            accelerationSpectralDensity: 0.3, speedSigma: 0.1, courseSigma: 5, initialVelocitySigma: 5,
            biasTimeConstant: 90, biasSigma: 2,
            modes: [MotionMode(kind: .stationary, accelerationSpectralDensity: 0.01, observesBias: true, holdsStill: true, meanDuration: 60),
                    MotionMode(kind: .walking, accelerationSpectralDensity: 0.2, meanDuration: 300, maximumSpeed: 3),
                    MotionMode(kind: .walking, accelerationSpectralDensity: 0.2, observesBias: true, meanDuration: 300, maximumSpeed: 3),
                    MotionMode(kind: .vehicle, accelerationSpectralDensity: 3, observesBias: true, meanDuration: 300,
                               maximumConsecutiveRejections: 1)],
            biasShare: 0.8)

        /// A pedestrian: q = 0.1 m²/s³, reported accuracy as is, speed σ 0.1 m/s, course σ 5°, gaps
        /// > 30 s re-initialize, and a horizontal Gauss–Markov bias state with τ = 90 s and
        /// σ_b = 2 m per axis — the standard first-order Gauss–Markov model of correlated GNSS
        /// position error, with values typical of single-frequency phone GNSS (correlation times
        /// of tens of seconds to a few minutes, meter-level σ); results change by < 1 point for
        /// τ 60–120 s, σ_b 1.5–2 m. Under the smoother (no bias state): q = 0.05 m²/s³ and
        /// inflation ×6 (tuned on simulated walks, `TraceSimulator` scenarios with several seeds).
        public static let walking = Configuration(accelerationSpectralDensity: 0.1, accuracyInflation: 1,
                                                  speedSigma: 0.1, courseSigma: 5,
                                                  smootherAccuracyInflation: 6, smootherAccelerationSpectralDensity: 0.05,
                                                  biasTimeConstant: 90, biasSigma: 2)

        /// A cyclist: q = 1 m²/s³.
        public static let cycling = Configuration(accelerationSpectralDensity: 1,
                                                  verticalAccelerationSpectralDensity: 0.1, accuracyInflation: 2,
                                                  courseSigma: 5, courseMinimumSpeed: 1.5,
                                                  maximumGap: 20, initialVelocitySigma: 5)

        /// A car: q = 4 m²/s³.
        public static let driving = Configuration(accelerationSpectralDensity: 4,
                                                  verticalAccelerationSpectralDensity: 0.2,
                                                  speedSigma: 0.5, courseSigma: 3, courseMinimumSpeed: 2,
                                                  maximumConsecutiveRejections: 1, maximumRejectionInterval: 5, maximumGap: 10,
                                                  initialVelocitySigma: 15)

        /// The configuration of the forward pass under the smoother: this one with
        /// ``smootherAccuracyInflation`` and ``smootherAccelerationSpectralDensity`` applied.
        public var smootherConfiguration: Configuration {
            var c = self
            if let v = smootherAccuracyInflation { c.accuracyInflation = v }
            if let v = smootherAccelerationSpectralDensity { c.accelerationSpectralDensity = v }
            c.smootherAccuracyInflation = nil
            c.smootherAccelerationSpectralDensity = nil
            if modes == nil { c.biasTimeConstant = nil }
            return c
        }

        /// The preset for a profile.
        public static func profile(_ p: MotionProfile) -> Configuration {
            switch p {
            case .walking: return .walking
            case .cycling: return .cycling
            case .driving: return .driving
            }
        }

        /// The χ² gate for 2 degrees of freedom at ``gateProbability``: `−2 ln(1 − p)` (exact).
        public var gate2: Double { -2 * Foundation.log(1 - gateProbability) }

        /// The χ² gate for 1 degree of freedom at ``gateProbability``: `(Φ⁻¹((1 + p)/2))²`,
        /// inverted from `erf` by bisection to 1e-12.
        public var gate1: Double {
            var lo = 0.0, hi = 40.0
            // P(|Z| ≤ z) = erf(z / √2); find z with erf(z/√2) = p.
            for _ in 0..<200 where hi - lo > 1e-12 {
                let mid = 0.5 * (lo + hi)
                if Foundation.erf(mid / 2.0.squareRoot()) < gateProbability { lo = mid } else { hi = mid }
            }
            let z = 0.5 * (lo + hi)
            return z * z
        }
    }
}
