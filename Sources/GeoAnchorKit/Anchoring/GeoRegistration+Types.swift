import Foundation

/// One AR tracking sample: where the device is in the AR session frame and where it looks.
public struct ARTrackingSample: Sendable, Hashable {
    /// UTC seconds since 1970-01-01 (the same clock as ``Fix/time``).
    public var time: Double
    /// The device position in the session frame, meters, in the axes of the estimator's
    /// ``ARFrameConvention`` (for ARKit `.gravity`: x right of the start view, y up, z backwards).
    public var position: SIMD3<Double>
    /// The device's heading in the session frame, degrees clockwise seen from above, 0 = the
    /// frame's nominal north axis (−z for ARKit and ARCore frames, +y for ``ARFrameConvention/enu``).
    /// Any finite value (wrapped internally).
    public var yaw: Double

    public init(time: Double, position: SIMD3<Double>, yaw: Double) {
        self.time = time; self.position = position; self.yaw = yaw
    }
}

/// One compass reading (CoreLocation `CLHeading` semantics).
public struct CompassReading: Sendable, Hashable {
    /// UTC seconds since 1970.
    public var time: Double
    /// True heading of the device, degrees clockwise from true north.
    public var heading: Double
    /// Heading accuracy, degrees (> 0; treated as a 68 % half-width, σ = accuracy / 0.9945).
    public var headingAccuracy: Double
    /// The largest heading accuracy (degrees) the estimators use: 180°. CoreLocation never
    /// reports more and a wider one says nothing; its variance would overflow the filters'
    /// (1e200° once left ``HeadingFilter`` refusing every later input). ``GeoRegistration``
    /// counts such readings gated, ``HeadingFilter`` refuses them as invalid.
    public static let maximumUsableAccuracy = 180.0

    public init(time: Double, heading: Double, headingAccuracy: Double) {
        self.time = time; self.heading = heading; self.headingAccuracy = headingAccuracy
    }
}

/// An externally supplied geo pose of the device: ARKit `ARGeoAnchor`/geotracking or ARCore
/// `GeospatialPose` (Earth pose), with their own 68 % accuracies.
public struct ExternalGeoPose: Sendable, Hashable {
    /// UTC seconds since 1970.
    public var time: Double
    /// The device position (ellipsoidal or MSL height; MSL needs a geoid separation, so give
    /// ellipsoidal heights — ARCore's `altitude` is ellipsoidal).
    public var position: GeodeticCoordinate
    /// 68 % horizontal radius, meters (> 0).
    public var horizontalAccuracy: Double
    /// 68 % vertical half-width, meters (> 0), `nil` to leave the height alone.
    public var verticalAccuracy: Double?
    /// The device's true heading, degrees, `nil` if the source gives none.
    public var heading: Double?
    /// 68 % heading half-width, degrees (ARCore `headingAccuracy`/`yawAccuracy`); beyond
    /// ``CompassReading/maximumUsableAccuracy`` (180°) the pose is used without its heading.
    public var headingAccuracy: Double?

    public init(time: Double, position: GeodeticCoordinate, horizontalAccuracy: Double,
                verticalAccuracy: Double? = nil, heading: Double? = nil, headingAccuracy: Double? = nil) {
        self.time = time; self.position = position; self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy; self.heading = heading; self.headingAccuracy = headingAccuracy
    }
}

/// Something an app can show the user: a discontinuity of the registration.
public enum GeoRegistrationEvent: Sendable, Hashable {
    /// The heading became known (first compass reading, a frame prior or the walked track).
    case headingInitialized(time: Double, heading: Double, sigma: Double)
    /// The walked track contradicted the compass-initialized heading by `degrees`; re-aligned.
    case headingReinitialized(time: Double, degrees: Double)
    /// AR tracking jumped (relocalisation): `meters` the size of the discontinuity when seen in
    /// the tracking itself, or the GNSS disagreement when detected from consecutive rejected fixes.
    case trackingJump(time: Double, meters: Double, detectedByGNSS: Bool)
    /// The output was moved at once by a correction larger than the smoothing's snap limits.
    case largeCorrection(time: Double, meters: Double, degrees: Double)
    /// AR tracking was interrupted for `seconds` (or announced reset): the step across it was not
    /// used as motion. `headingLost`: the frame may have turned by an unknown amount, so the
    /// heading is re-learnt — ``GeoRegistration/estimate`` is `nil` until the next compass reading,
    /// five agreeing fix courses, or until the walked track spans ``GeoRegistrationConfiguration/alignmentSpan``.
    case trackingInterrupted(time: Double, seconds: Double, headingLost: Bool)
    /// The tracking drifts more than the configuration models
    /// (``GeoRegistrationConfiguration/trackingQualityGate``): its estimated `scaleError`
    /// (fraction) and `yawDriftRate` (degrees per minute) lie beyond the model's priors. From now
    /// on the tracking is trusted less (as ``GeoRegistrationConfiguration/olderARTracking``), so
    /// the heading and position σ grow faster between fixes. Once per session.
    case trackingNoiseRaised(time: Double, scaleError: Double, yawDriftRate: Double)
    /// The AR tracking diverged (``GeoRegistrationConfiguration/divergenceSpeed``): at this fix
    /// and the ones before it the tracked speed (`trackedSpeed`, m/s, scale-corrected) disagreed
    /// with the fix's own speed (`fixSpeed`, m/s; the velocities are compared when the fix has a
    /// course: ``GeoRegistrationConfiguration/divergenceSpeed``) — visual-inertial odometry running away, as
    /// it does when the camera loses its features. The tracked motion since the last fix whose
    /// speed agreed is taken back, and the tracking is not used until its speed agrees with
    /// the fixes' again: meanwhile the position follows the fixes, the compass waits, and
    /// ``GeoRegistration/estimate`` keeps the last good sample's time and yaw (like an
    /// interruption). It ends in ``trackingInterrupted(time:seconds:headingLost:)`` when the
    /// tracking is used again (the heading kept, widened by
    /// ``GeoRegistrationConfiguration/divergenceYawRateSigma`` over the divergence, or re-learnt
    /// when that exceeds 60°).
    case trackingDiverged(time: Double, trackedSpeed: Double, fixSpeed: Double)
}

/// Counters of what the estimator did with its input (nothing is dropped silently).
public struct GeoRegistrationSummary: Sendable, Hashable, Codable {
    /// Tracking samples fed.
    public var trackingSamples = 0
    /// Tracking steps not used as motion because they were discontinuities (jumps).
    public var trackingStepsRejected = 0
    /// Restarts after a reset clock: five inputs in a row, in time order, more than a minute
    /// older than the estimator's latest time mean that time was wrong (a sample from the
    /// future, a clock set back); the estimator then starts over from them (its state, not this
    /// summary, its events, configuration, path or ground constraint) instead of refusing or
    /// misusing the rest of the stream. The inputs before the fifth are used (measurements) or
    /// refused as going backwards (tracking samples), as without a reset.
    public var clockResets = 0
    /// Fixes used as position observations.
    public var fixesUsed = 0
    /// Fixes rejected by the innovation gate (outliers), or with no σ at all (no accuracy, no HDOP
    /// and ``GeoRegistrationConfiguration/unreportedFixSigma`` nil).
    public var fixesGated = 0
    /// Fixes before the first tracking sample (nothing to register yet).
    public var fixesBeforeTracking = 0
    /// Fixes used without a reported horizontal accuracy: σ from their HDOP or
    /// ``GeoRegistrationConfiguration/unreportedFixSigma``.
    public var fixesWithoutAccuracy = 0
    /// Fix courses (course over ground) used as heading observations, and gated.
    public var coursesUsed = 0
    public var coursesGated = 0
    /// Compass readings used, and gated (outliers, disturbance episodes, before the first fix).
    public var compassUsed = 0
    public var compassGated = 0
    /// External geo poses used and gated.
    public var externalPosesUsed = 0
    public var externalPosesGated = 0
    /// Landmark sightings and landmark compass corrections used.
    public var landmarksUsed = 0
    /// Path (``GeoRegistration/path``) cross-track constraints applied, and skipped (outside the
    /// corridor, beyond a free end, gated, or while the map check holds the path released).
    public var pathUpdates = 0
    public var pathSkipped = 0
    /// Times the map check released the path: the fixes stood off it on average (a wrongly drawn
    /// or shifted path, or a walk beside it). Nonzero: check the path.
    public var pathReleases = 0
    /// Ground constraints (``GeoRegistration/ground``) applied, and skipped (no terrain at the
    /// estimated position, gated).
    public var groundUpdates = 0
    public var groundSkipped = 0
    /// Tracking jumps detected (in the tracking or from a run of rejected fixes).
    public var trackingJumps = 0
    /// Tracking interruptions: samples more than ``GeoRegistrationConfiguration/trackingGapTime``
    /// apart, or a reset announced with ``GeoRegistration/trackingDidReset()``.
    public var trackingInterruptions = 0
    /// Unannounced interruptions after which the session was recognized as relocalised in its
    /// old frame (the heading kept; ``GeoRegistrationConfiguration/relocalisationGate``).
    public var relocalisationsRecognized = 0
    /// Output corrections beyond the snap limits.
    public var largeCorrections = 0
    /// Compass-initialized headings the walked path overruled.
    public var headingReinitializations = 0
    /// The factor by which the fixes' reported σ is currently widened (1: the reported accuracies
    /// hold) and its largest value so far; see ``GeoRegistrationConfiguration/fixAccuracyAdaptationTime``.
    /// A maximum well above 1 (say 1.5) means the reported accuracies were optimistic.
    public var fixAccuracyScale = 1.0
    public var maximumFixAccuracyScale = 1.0
    /// The smallest factor so far (< 1: the reported accuracies were pessimistic and were narrowed;
    /// ``GeoRegistrationConfiguration/fixAccuracyNarrowingTolerance``).
    public var minimumFixAccuracyScale = 1.0
    /// When the tracking quality check found the tracking drifting more than the configuration
    /// models (``GeoRegistrationConfiguration/trackingQualityGate``; UTC seconds), nil if it did not.
    public var trackingNoiseRaisedAt: Double?
    /// Tracking divergences detected (``GeoRegistrationEvent/trackingDiverged(time:trackedSpeed:fixSpeed:)``).
    public var trackingDivergences = 0
    public init() {}

    /// Decodes a summary; `clockResets`, `trackingInterruptions`, `relocalisationsRecognized`,
    /// `trackingDivergences`, `minimumFixAccuracyScale` and `trackingNoiseRaisedAt` may be missing
    /// (summaries saved before they existed), then 0 (the scale 1; the time nil).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        trackingSamples = try c.decode(Int.self, forKey: .trackingSamples)
        trackingStepsRejected = try c.decode(Int.self, forKey: .trackingStepsRejected)
        clockResets = try c.decodeIfPresent(Int.self, forKey: .clockResets) ?? 0
        fixesUsed = try c.decode(Int.self, forKey: .fixesUsed)
        fixesGated = try c.decode(Int.self, forKey: .fixesGated)
        fixesBeforeTracking = try c.decode(Int.self, forKey: .fixesBeforeTracking)
        fixesWithoutAccuracy = try c.decode(Int.self, forKey: .fixesWithoutAccuracy)
        coursesUsed = try c.decode(Int.self, forKey: .coursesUsed)
        coursesGated = try c.decode(Int.self, forKey: .coursesGated)
        compassUsed = try c.decode(Int.self, forKey: .compassUsed)
        compassGated = try c.decode(Int.self, forKey: .compassGated)
        externalPosesUsed = try c.decode(Int.self, forKey: .externalPosesUsed)
        externalPosesGated = try c.decode(Int.self, forKey: .externalPosesGated)
        landmarksUsed = try c.decode(Int.self, forKey: .landmarksUsed)
        pathUpdates = try c.decode(Int.self, forKey: .pathUpdates)
        pathSkipped = try c.decode(Int.self, forKey: .pathSkipped)
        pathReleases = try c.decode(Int.self, forKey: .pathReleases)
        groundUpdates = try c.decode(Int.self, forKey: .groundUpdates)
        groundSkipped = try c.decode(Int.self, forKey: .groundSkipped)
        trackingJumps = try c.decode(Int.self, forKey: .trackingJumps)
        trackingInterruptions = try c.decodeIfPresent(Int.self, forKey: .trackingInterruptions) ?? 0
        relocalisationsRecognized = try c.decodeIfPresent(Int.self, forKey: .relocalisationsRecognized) ?? 0
        largeCorrections = try c.decode(Int.self, forKey: .largeCorrections)
        headingReinitializations = try c.decode(Int.self, forKey: .headingReinitializations)
        fixAccuracyScale = try c.decode(Double.self, forKey: .fixAccuracyScale)
        maximumFixAccuracyScale = try c.decode(Double.self, forKey: .maximumFixAccuracyScale)
        minimumFixAccuracyScale = try c.decodeIfPresent(Double.self, forKey: .minimumFixAccuracyScale) ?? 1
        trackingNoiseRaisedAt = try c.decodeIfPresent(Double.self, forKey: .trackingNoiseRaisedAt)
        trackingDivergences = try c.decodeIfPresent(Int.self, forKey: .trackingDivergences) ?? 0
    }
}

/// The estimator's output at one time: the device's geodetic pose with its uncertainty, and the
/// session frame's true heading. Everything here uses data up to ``time`` only.
public struct GeoRegistrationEstimate: Sendable, Hashable {
    /// UTC seconds since 1970 (of the latest tracking sample).
    public var time: Double
    /// The device position, WGS84, ellipsoidal height.
    public var position: GeodeticCoordinate
    /// 68 % horizontal radius of the device position, meters (from the 2×2 covariance with
    /// ``CircularError/radius68(variances:_:_:)``; includes the output smoothing's lag; each
    /// axis's variance at least ``GeoRegistrationConfiguration/gnssPersistentShare`` of the last
    /// fix's as reported).
    public var horizontalAccuracy: Double
    /// 68 % vertical half-width, meters.
    public var verticalAccuracy: Double
    /// The device's true heading, degrees clockwise from true north, [0, 360).
    public var heading: Double
    /// 1σ of ``heading`` (and of ``frameHeading``), degrees — a standard deviation, not a 68 %
    /// half-width (multiply by ``CircularError/halfWidth68PerSigma`` for CoreLocation's convention).
    public var headingSigma: Double
    /// True heading of the session frame's nominal north axis (−z for ARKit/ARCore, +y for ENU),
    /// degrees, [0, 360).
    public var frameHeading: Double
    /// The device position in the session frame at ``time`` (the tracking sample), meters.
    public var devicePositionInSession: SIMD3<Double>
    /// The tracked yaw in the session frame at ``time``, degrees.
    public var yaw: Double
    /// Estimated AR tracking scale error: true distance = (1 + scaleError) × tracked distance.
    public var scaleError: Double
    /// True once the walked track (not only the compass or a prior) has constrained the heading.
    public var isHeadingFromTrack: Bool
    /// The compass's slowly varying error as estimated now, degrees: compass reading − true
    /// heading, positive when the compass reads clockwise of the truth (its per-session bias and
    /// slow drift; a Gauss–Markov state with ``GeoRegistrationConfiguration/compassBiasTime``,
    /// white reading noise excluded). `−compassBias` corrects a reading, as a
    /// ``LandmarkHeadingOffset/offset`` does. Nil until a compass reading or a landmark
    /// correction has been used (``GeoRegistrationSummary/compassUsed``,
    /// ``GeoRegistrationSummary/landmarksUsed``). Separable from the heading only once the
    /// track determines the heading (``isHeadingFromTrack``); before that it is the prior's
    /// 0 ± ``GeoRegistrationConfiguration/compassBiasSigma`` pulled by the readings.
    public var compassBias: Double?
    /// 1σ of ``compassBias``, degrees (nil with it).
    public var compassBiasSigma: Double?

    /// The estimate as a ``DevicePose`` for ``AnchorPlacer`` and ``AnchorField``: the heading σ
    /// is converted to the pose's 68 % half-width (σ × 0.9945).
    public var devicePose: DevicePose {
        DevicePose(position: position, horizontalAccuracy: horizontalAccuracy, verticalAccuracy: verticalAccuracy,
                   heading: heading, headingAccuracy: headingSigma * CircularError.halfWidth68PerSigma)
    }
}

/// Ground aiding for ``GeoRegistration/ground``: the device is carried ``deviceHeight`` above
/// the terrain of ``environment`` (a DEM as a ``TerrainModel``, MSL ones through its geoid) —
/// the vertical the fixes give worst (phones' vertical errors are 1.5–2 × their horizontal ones).
public struct GroundConstraint: Sendable {
    /// The terrain (required for the constraint to apply) and the geoid for an MSL terrain.
    public var environment: AnchorEnvironment
    /// Height of the device above the ground, meters (a hand-held phone: ≈ 1.5, as
    /// ``DevicePose/heightAboveFloor``).
    public var deviceHeight: Double
    /// 1σ (m) of the device's height above the ground as the DEM gives it: how the phone is held
    /// and the DEM's own error.
    public var sigma: Double

    /// - Throws: ``GeoAnchorError/nonFinite(name:value:)`` for a non-finite height;
    ///   ``GeoAnchorError/outOfRange(name:value:allowed:)`` for a σ that is not > 0.
    public init(environment: AnchorEnvironment, deviceHeight: Double = 1.5, sigma: Double = 0.5) throws(GeoAnchorError) {
        guard deviceHeight.isFinite else { throw .nonFinite(name: "deviceHeight", value: deviceHeight) }
        try ValueRange.greaterThan(0, unit: "m").check(sigma, name: "ground sigma")
        self.environment = environment; self.deviceHeight = deviceHeight; self.sigma = sigma
    }
}

/// Tuning of ``GeoRegistration``. The defaults model a phone: GNSS with a slowly varying error
/// (ADVIO: 2.4–3.7 m per axis, decorrelating in 14–17 s, plus ≈ 1 m white), AR tracking whose
/// yaw drifts ≈ 0.2–0.6 °/min with scale error of a few percent, and a compass with a bias.
public struct GeoRegistrationConfiguration: Sendable, Hashable {
    /// Correlation time of the GNSS error's slow part, seconds (Gauss–Markov).
    public var gnssCorrelationTime = 20.0
    /// Fraction of the reported fix σ (68 % radius / 1.5096) that is slow (correlated); the
    /// white part is `√(1 − f²)` of it.
    public var gnssCorrelatedFraction = 0.7
    /// Correlation time (s) of the GNSS error's long-lived part: multipath along a street,
    /// atmosphere and orbit errors outlast ``gnssCorrelationTime`` (phones differ; the estimator
    /// cannot know which one it has, so it carries both timescales).
    public var gnssLongCorrelationTime = 120.0
    /// Share of the correlated horizontal variance `(f σ)²` that is long-lived
    /// (``gnssLongCorrelationTime``); the rest decorrelates in ``gnssCorrelationTime``. 0: one
    /// timescale.
    public var gnssLongShare = 0.2
    /// Share of a fix's variance (its σ as reported — widened by the accuracy check, not
    /// narrowed) that the estimate's ``GeoRegistrationEstimate/horizontalAccuracy`` never claims
    /// to have averaged out: GNSS error that outlasts minutes (multipath along a street, the
    /// atmosphere, a solver's bias) is common to every fix, and neither the tracking nor time
    /// averages it, while the filter's own covariance, with the error timescales above, would
    /// shrink below it. Only the reported accuracy: the estimate itself is unchanged.
    ///
    /// 0.4 is within what real phones measure: against NovAtel SPAN references 18–66 % of the
    /// error variance of the four GSDC 2020 chipset drives, and 58 % of the library's own WLS
    /// positions', outlasts five minutes.
    ///
    /// Measured — the share of times the position error was within the reported 68 % radius (0.68
    /// is honest; without the floor / 0.25 / 0.4): the library's own WLS positions on a GSDC drive
    /// 0.36 / 0.53 / 0.82; the GSDC 2020 chipset drives 0.00–0.75 / 0.01–0.85 / 0.01–0.95; the
    /// report's simulated walks with GNSS whose error lasts minutes
    /// (`GeoRegistrationSimulator.persistentGNSS` in GeoAnchorKitSimulation, 12 walks, mean)
    /// — / 0.51 / 0.56, with the scenarios' own GNSS (τ 90 s) — / 0.63 / 0.67, with ADVIO-like phone
    /// GNSS (τ 15 s, whose error does not last) — / 0.81 / 0.85 (pessimistic: the price). Two
    /// chipset drives stay far below (0.01 and 0.24–0.40; filter-mode positions 0.10): their
    /// stated accuracies are optimistic and their error too smooth for any check to see (README:
    /// Limits). Only the reported accuracy changes with it, not the estimate.
    public var gnssPersistentShare = 0.4

    /// The horizontal GNSS error's correlated σ per axis (m) for a fix of σ `sigma`: its short
    /// part (``gnssCorrelationTime``) and its long part (``gnssLongCorrelationTime``).
    func gnssCorrelatedSigmas(_ sigma: Double) -> (short: Double, long: Double) {
        let c = gnssCorrelatedFraction * sigma
        return (c * (1 - gnssLongShare).squareRoot(), c * gnssLongShare.squareRoot())
    }
    /// The vertical GNSS error's correlated variance (m²) for a fix of horizontal σ `sigma`: one
    /// part (``gnssCorrelationTime``) of 2.5 × one horizontal axis's correlated variance — the
    /// prior at the start and the level its process noise keeps.
    func gnssVerticalCorrelatedVariance(_ sigma: Double) -> Double {
        let b = gnssCorrelatedFraction * sigma
        return 2.5 * b * b
    }
    /// Fix σ floor, meters per axis (a reported accuracy of 0 is not trusted).
    public var minimumFixSigma = 0.8
    /// A fix without a horizontal accuracy but with an HDOP gets σ = HDOP × this / √2 per axis
    /// (m; the user-equivalent range error, as ``PositionFilter`` uses it; NMEA and GPX files
    /// often carry only HDOP).
    public var userEquivalentRangeError = 6.0
    /// Per-axis σ (m) of a fix reporting neither accuracy nor HDOP (most GPX tracks); the
    /// reported-accuracy check (``fixAccuracyAdaptationTime``) widens it if the fixes disagree
    /// more. `nil`: such fixes are counted (``GeoRegistrationSummary/fixesGated``) but not used.
    public var unreportedFixSigma: Double? = 5
    /// χ² (2 degrees of freedom) above which a fix is rejected as an outlier (0.999: 13.8).
    public var fixGate = 13.8
    /// This many consecutive rejected fixes mean the track, not the fixes, is wrong: re-anchor.
    public var consecutiveRejectionsForJump = 10
    /// Time constant (s) of the check that the fixes' reported accuracies hold. Each fix inside
    /// the gate tells by how much its variance would have had to be scaled to be consistent
    /// (its normalized innovation, χ² with 2 degrees of freedom, halved: 1 on average when the
    /// accuracies are right); the running mean of that over this time becomes the factor on
    /// every fix's variance once it exceeds ``fixAccuracyTolerance`` or falls below
    /// ``fixAccuracyNarrowingTolerance``, else the factor is 1. Phones' accuracies are often
    /// optimistic under multipath (taken at face value they make the estimate overconfident), and
    /// pessimistic in the open or when only an HDOP is given. ``GeoRegistrationSummary/fixAccuracyScale``
    /// shows the factor (on σ). `nil` (or a value ≤ 0 or not finite) takes the reported
    /// accuracies as they are.
    ///
    /// Measured on the 48 simulated walks with every reported accuracy 0.37 × what it should be
    /// (the simulator's log-mean −1 instead of −0.15): |heading error| ≤ 2σ at ≥ 90 % of times on 46
    /// walks (18 without the check), the heading target on 19 (8), position on 37 (25). With
    /// honest accuracies it never widens.
    public var fixAccuracyAdaptationTime: Double? = 60
    /// The running mean of the variance factors the fixes ask for above which it is applied (≥ 1;
    /// below it the mean's scatter and canyons' passing excess over the model are no evidence
    /// that the reported accuracies are wrong).
    public var fixAccuracyTolerance = 1.5
    /// The running mean of the variance factors (``fixAccuracyAdaptationTime``) below which the
    /// fixes' reported accuracies are taken as pessimistic and narrowed to it (in (0, 1]; the
    /// factor on σ never below ``minimumFixAccuracyScale``, nor σ below ``minimumFixSigma``).
    /// `nil`: accuracies are only widened, never narrowed.
    ///
    /// Pessimistic accuracies hurt: fixes taken as worse than they are, and their slow error as
    /// larger, pull the position less than they should and let the estimate wander — the
    /// library's own WLS positions (stated 68 % radius median 5.4 m, true 3.1 m) came out 1.05–1.06 ×
    /// the raw fixes' p95 without narrowing, 0.91–0.93 × with it; the GSDC 2020 chipset drives
    /// (σ from HDOP × 6 m / √2, two to three times their true error) gain heading (p95 0.66–0.87° →
    /// 0.57–0.77°). On the 48 simulated walks (honest accuracies) it never engages: their tables
    /// are the same bit for bit. A tolerance of 0.5 narrowed some of them (position target on 6
    /// fewer walks over the 13 tables); a floor of 0.3 made the noisiest drive's fixes look like
    /// a tracking jump twice (geobench report: "reporting 2.6 × its accuracy", README). A fix
    /// rejected by the gate while narrowed ends the narrowing (the check starts again from 1): a
    /// correlated error's excursion, which the check cannot tell from a pessimistic σ, is then
    /// judged at the reported σ instead of being cut off into a false tracking jump (a sweep of
    /// 288 paused drives: 26 such jumps in 24 runs without this rule, 1 with it, as when only
    /// widening).
    public var fixAccuracyNarrowingTolerance: Double? = 0.4
    /// The smallest factor on the reported σ the narrowing may reach (in (0, 1]).
    public var minimumFixAccuracyScale = 0.5

    /// Map aiding (``GeoRegistration/path``): the walker's offset from the drawn line persists
    /// about this long (s; keeping to one side of a street, crossing a square), so cross-track
    /// constraints closer together count as one. The simulator's stray has 30 s.
    public var pathCorrelationTime = 30.0
    /// χ² (1 degree of freedom) above which a cross-track constraint is skipped (0.997: 9).
    public var pathGate = 9.0
    /// The map check: time constant (s) of the running mean m of the fixes' cross-track
    /// residuals (m², less the fix's slow-error variance, is added to the constraint's variance),
    /// and the limit on |m| in `√(σ_fix² + crossTrackSigma²)` units above which the path is
    /// released (taken back below half the limit).
    public var pathCheckTime = 60.0
    public var pathCheckSigmas = 2.0

    /// Course over ground of the fixes (``Fix/course``, with ``Fix/speed``): 1σ in degrees at
    /// ``courseReferenceSpeed`` m/s (growing as 1/speed below it), used above
    /// ``courseMinimumSpeed`` m/s against the tracked direction over ``courseWindow`` s, scaled
    /// up by the fix's horizontal accuracy over ``courseReferenceAccuracy`` m when larger. Set
    /// `courseSigma` to 0 to ignore courses.
    public var courseSigma = 8.0
    public var courseReferenceSpeed = 1.3
    public var courseMinimumSpeed = 0.8
    public var courseWindow = 1.0
    public var courseReferenceAccuracy = 4.0

    /// AR tracking position random walk, meters per √meter walked.
    public var trackingPositionNoise = 0.02
    /// AR tracking yaw random walk, degrees per √meter walked and per √second.
    public var trackingYawNoisePerRootMeter = 0.03
    public var trackingYawNoisePerRootSecond = 0.01
    /// Prior 1σ of the AR tracking yaw drift rate, degrees per minute, and its random walk
    /// (degrees per minute per √minute).
    public var yawDriftRateSigma = 1.0
    public var yawDriftRateNoise = 0.05
    /// Prior 1σ of the AR tracking scale error and its random walk per √meter.
    public var scaleSigma = 0.03
    public var scaleNoisePerRootMeter = 0.0005
    /// Tracking quality check: once the walked track determines the heading, after each fix the
    /// estimated scale error and yaw drift rate are compared with what this configuration's
    /// priors (``scaleSigma``, ``yawDriftRateSigma``) and random walks let them be; when their
    /// normalized square (χ², two degrees of freedom) exceeds this gate, the tracking is worse
    /// than modelled and its noise is raised to ``olderARTracking``'s wherever that is larger
    /// (``GeoRegistration/isTrackingNoiseRaised``, ``GeoRegistrationEvent/trackingNoiseRaised(time:scaleError:yawDriftRate:)``).
    /// Each difference between the model's variance and the estimate's is taken as at least a
    /// quarter of the model's. Default 9.21 (the χ² 99 % point): on the report's 48 simulated runs
    /// it tripped on none with modern tracking (a gate of 6 on 2, of 4.6 on 6) and on 46 with
    /// ADVIO's iPhone 6s tracking (scale 4–14 %, drift 0.65–1.9 °/min), at a median of 95 m walked.
    /// It sees the scale and the drift, not the yaw noise itself: a device with a modern scale
    /// but an old yaw noise passes it. nil: never.
    public var trackingQualityGate: Double? = 9.21
    /// A tracking step that departs from the previous step's velocity (continued over this
    /// step's duration dt) by more than `max(jumpMinimumStep, ½ jumpAcceleration dt²)` meters —
    /// more than any acceleration of the device could explain — is a relocalisation jump
    /// (m/s²). The test is against the tracked motion, not an absolute speed, so a tram or bus
    /// ride (8–14 m/s, braking ≈ 1.2 m/s², ≈ 5 m/s² in turns) tracks as motion, while a 2–4 m
    /// relocalisation stands out at 10 Hz (0.5 m) and still at 1 Hz (2.5 m).
    public var jumpAcceleration = 5.0
    public var jumpMinimumStep = 0.5
    /// Tracking divergence check (m/s; nil: off): at ``divergenceFixes`` fixes in a row the
    /// tracked velocity (over about a second, scale-corrected, turned to the Earth by the frame
    /// heading) and the fix's own (``Fix/speed`` along ``Fix/course``: Doppler, CoreLocation's
    /// `speed` and `course`; speeds alone when the fix has no course, moves slower than
    /// ``courseMinimumSpeed`` or the heading is not known yet) differ by more than this and by
    /// more than half the fix's speed, and at the last of them the tracked speed is above the fix's, has
    /// risen since they last agreed by more than the fix's has, and the fix's position stands off
    /// (χ² 4) — the visual-inertial odometry is running away, smoothly, where no single step is
    /// a jump (ADVIO: one of four outdoor iPhone sequences diverged completely within 10 s); a
    /// receiver that stalls (speed and position falling behind) is not taken for one.
    /// Then ``GeoRegistrationEvent/trackingDiverged(time:trackedSpeed:fixSpeed:)``:
    /// the tracked motion since the last fix whose speed agreed is taken back and the tracking is
    /// not used until ``divergenceFixes`` fixes in a row agree with its speed again. Without it a
    /// runaway dragged the position along until ten rejected fixes in a row declared a jump, and
    /// again after it: on the report's 48 simulated walks (1 m/s² for 15 s) the position was
    /// 40.6 m off (p95 from the divergence to a minute after, mean; 59.6 m when the session
    /// continued from the diverged pose), with it 8.4 m (the fixes' own 14.0 m), detected on all
    /// 48 a median 6 s after it began and on none of the undisturbed walks; a slow runaway
    /// (0.3 m/s² for 20 s) 28.4 → 11.4 m, detected on 44 of 48. Comparing speeds only (before
    /// 2026-11-29) gave 11.2 m and, for the slow runaway, 14.8 m (worst 44 m; a runaway across the
    /// walk hardly changes the speed). Fixes without a speed neither trip nor end it. A tram ride
    /// (8–14 m/s, braking ≈ 1.2 m/s²) tracks its fixes' velocity within a second's lag.
    public var divergenceSpeed: Double? = 2.0
    /// Fixes in a row whose speed disagrees (agrees) with the tracked speed before the tracking
    /// is taken as diverged (used again); see ``divergenceSpeed``. ≥ 1.
    public var divergenceFixes = 3
    /// Degrees per second: how fast the session frame's heading may have wandered while the
    /// tracking was taken as diverged (``divergenceSpeed``). When it is used again the heading is
    /// kept, its σ widened by this rate over the divergence (with ``jumpYawContinuitySigma``),
    /// unless that comes to more than 60° (30 s at 2 °/s): then it is re-learnt as after a pause.
    /// Its samples were followed throughout, and their yaw turns with the device's turns, so the
    /// frame's own turn is only the odometry's yaw error. Measured on 48 simulated walks each
    /// (continued from the diverged pose, heading p95 60–300 s after it, mean / worst; least
    /// |err| ≤ 2σ) against re-learning the heading: 1 m/s² runaway with its yaw turning 2 °/s
    /// (30°) 1.63 / 3.57° → 1.51 / 3.24°; turning 5 °/s (75°) 1.63 / 3.57° → 1.51 / 2.92°
    /// (93.1 % both; 1 °/s: 1.90 / 11.72°, 82.3 % — too sure); slow runaway (0.3 m/s², 20 s)
    /// 1.95 / 10.0° → 1.86 / 8.8°. ≥ 0.
    public var divergenceYawRateSigma = 2.0
    /// Replaced by ``jumpAcceleration``: the old absolute speed limit took every frame of a
    /// vehicle ride for a jump. Not kept as an alias (its meaning is gone; a silently ignored
    /// setting would be worse than this compile error).
    @available(*, unavailable, renamed: "jumpAcceleration", message: "jumps are now steps departing from the tracked motion by more than ½ jumpAcceleration dt² (or jumpMinimumStep)")
    public var maximumTrackingSpeed: Double {
        get { jumpAcceleration }
        set { jumpAcceleration = newValue }
    }
    /// At a jump the session frame may turn too. The device does not turn with it, so the tracked
    /// yaw's change over that step, less the device's recent turn rate × the step's duration, is
    /// taken as the frame's rotation, with 1σ `hypot(jumpYawContinuitySigma,
    /// jumpYawRateSigma × dt)` degrees (how far the device's own turn over the step can stray
    /// from its recent rate: hand sway, a sudden turn). `nil` (or either value negative or not
    /// finite): the heading only becomes 3° less certain at a jump (it must be re-learned from
    /// the walk).
    public var jumpYawContinuitySigma: Double? = 1.0
    /// Degrees per second: the device's turn-rate uncertainty over a jump's step (see ``jumpYawContinuitySigma``).
    public var jumpYawRateSigma = 10.0
    /// Tracking samples more than this many seconds apart are an interruption (an app sent to
    /// the background, a phone call, the camera lost): what the device did meanwhile is unknown,
    /// and the session may come back in the same frame (ARKit relocalised), continue from the
    /// pose it had (the frame turned and moved with the device's unseen motion) or start a new one
    /// (`run(_:options: .resetTracking)`). The step across it is not used as motion, the
    /// position widens by ``trackingGapSpeed`` × the gap, and the heading is re-learnt (as at
    /// the start: from the next compass reading, five agreeing fix courses or the walked track),
    /// unless the session is recognized as relocalised in its old frame (``relocalisationGate``)
    /// — before this rule the step counted as motion, and a 30 s interruption ending in a new
    /// frame left the heading 119° off for the rest of the walk (p95 60–300 s after it, mean of
    /// twelve simulated walks; 2.4° with the rule). Announce a reset with
    /// ``GeoRegistration/trackingDidReset()``, a relocalisation (the heading kept) with
    /// ``GeoRegistration/trackingDidRelocalize()``; `.infinity` turns the rule off.
    public var trackingGapTime = 5.0
    /// 1σ per axis (m/s) of how far the device may have gone unseen during an interruption
    /// (``trackingGapTime``): walking pace, with room for a short ride; the device's tracked
    /// speed before the pause when that is faster (a vehicle).
    public var trackingGapSpeed = 2.0
    /// Recognizing an unannounced relocalisation (χ², 2 degrees of freedom; `nil`: off). After an
    /// interruption the session's first sample may be in its old frame (ARKit relocalised); if
    /// so, the tracked step across the pause, turned by the heading kept from before it, is the
    /// device's unseen displacement, which the fixes during the pause measured. When that step
    /// agrees with the fixes' displacement within this gate (its normalized square ≤ the gate;
    /// 9.21: 99 %) while the fixes moved clearly (normalized square of their displacement ≥
    /// ``relocalisationMotionEvidence``: a frame continued from the old pose, whose step is about
    /// zero, or a new one, whose step is the old position's negative, cannot match), the heading
    /// carries over as after ``GeoRegistration/trackingDidRelocalize()``; else it is re-learnt.
    /// Counted in ``GeoRegistrationSummary/relocalisationsRecognized``. A first sample within
    /// 0.5 m of the session origin is never taken for the old frame (a new frame starts there).
    public var relocalisationGate: Double? = 9.21
    /// A short gap in the tracking (over 1 s and 4 × the usual sample interval, but within
    /// ``trackingGapTime``) across which the tracked step stays under a quarter of what the pace
    /// before it covers, the pace being at least this (m/s), is taken for a session continued from
    /// its old pose (an app paused and resumed its session; the frame moved and turned with the
    /// device's unseen motion): the step is not motion, the position widens by the pace × the gap,
    /// and the heading's σ grows by the device's possible turn (as at a jump:
    /// ``jumpYawContinuitySigma``, ``jumpYawRateSigma``). Before, such a gap counted as standing
    /// still and the frame's turn went unseen (|err| ≤ 2σ down to 48 % on a walk after a 4 s gap).
    /// Counted in ``GeoRegistrationSummary/trackingInterruptions``. `nil`: off. The cost: a walker
    /// who stops during a real tracking hiccup looks the same.
    public var frozenGapPace: Double? = 0.5
    /// How clearly (normalized square, 2 degrees of freedom) the fixes during a pause must show
    /// the device moved before a tracked step that matches them may prove the frame unchanged
    /// (``relocalisationGate``). Standing still, every resumption has a step of about zero and
    /// the fixes cannot tell which frame the session is in.
    public var relocalisationMotionEvidence = 25.0

    /// Compass bias: 1σ (degrees) and correlation time (s) of its slow error.
    public var compassBiasSigma = 6.0
    public var compassBiasTime = 60.0
    /// Fraction of the reported compass σ that is white (reading to reading); the rest is the
    /// slow error the bias state tracks.
    public var compassWhiteFraction = 0.6
    /// Compass readings closer than this (s) share one reading's weight (their errors are
    /// correlated): the variance of each is scaled by `interval / gap`.
    public var compassDecorrelationInterval = 1.0
    /// Normalized-innovation gate for compass readings (σ units of one reading's innovation).
    public var compassGate = 3.0
    /// Readings whose normalized innovation exceeds this (σ units, below ``compassGate``) are
    /// down-weighted: variance × (|n| / threshold)², so a reading's pull stops growing with its
    /// distance. `nil` (or a value ≤ 0 or not finite): every reading inside the gate counts fully.
    public var compassRobustThreshold: Double? = 1.5
    /// Disturbance-episode detector: time constant (s) of the running mean of normalized compass
    /// innovations, the threshold on it, and after how many seconds of continuous disturbance
    /// the change is taken as a new bias instead.
    public var compassEpisodeTime = 5.0
    public var compassEpisodeThreshold = 1.2
    public var compassBiasResetTime = 120.0

    /// Heading known from the frame itself (degrees 1σ), e.g. 15 for ARKit `.gravityAndHeading`
    /// (the frame's north is the compass's); `nil` = unknown (ARKit `.gravity`: the heading comes
    /// from the compass or the walk).
    public var frameHeadingSigma: Double? = nil
    /// Without compass or prior, and for fixes without course (whose five agreeing courses would
    /// start the heading first): the tracked track must span this many meters before its heading
    /// is aligned to the fixes (Procrustes fit; it also checks a heading started otherwise).
    public var alignmentSpan = 30.0

    /// The reported heading 1σ (``GeoRegistrationEstimate/headingSigma``, and so the device
    /// pose's heading accuracy) is the filter's σ times this factor. The filter's σ holds only if
    /// its error models do; real GNSS error decorrelates anywhere between 15 and 90 s (the filter
    /// assumes ``gnssCorrelationTime`` 20 s) and relocalisation jumps are sudden. Measured on the
    /// simulated walks (`GeoRegistrationSimulator` in GeoAnchorKitSimulation, seeds 1–6, Závist and city, shipped and
    /// phone GNSS, with and without compass: 48 walks), |heading error| ≤ 2σ held at ≥ 90 % of
    /// times on 40 walks with factor 1, 46 with 1.15 and all 48 with 1.3 (37, 45, 48 before the yaw
    /// continuity at jumps, ``jumpYawContinuitySigma``). 1 reports the filter's
    /// own σ. Only the reported σ changes, never the estimate.
    public var headingSigmaInflation = 1.3

    /// Output smoothing: maximum rates at which a correction reaches the output while standing
    /// still (tracked speed < ``stillSpeed``) and while walking; corrections beyond the snap
    /// limits are applied at once and reported as ``GeoRegistrationEvent/largeCorrection(time:meters:degrees:)``.
    public var stillTranslationRate = 0.25
    public var stillRotationRate = 0.15
    public var movingTranslationRate = 1.0
    public var movingRotationRate = 1.5
    public var stillSpeed = 0.3
    public var snapDistance = 5.0
    public var snapAngle = 5.0

    public init() {}

    /// The defaults tuned for AR tracking as older phones deliver it. ADVIO measured an iPhone
    /// 6s's ARKit (2018) at a yaw drift of 0.65–1.9 °/min, a scale 4–14 % off that varies 4–10 %
    /// within a walk, and more yaw noise — about three times what the defaults model, which is
    /// a modern phone (`shared/notes/ar-tracking-drift.md`). Here the tracking's yaw random walk
    /// is three times the default (``trackingYawNoisePerRootMeter`` 0.09 °/√m,
    /// ``trackingYawNoisePerRootSecond`` 0.03 °/√s), its scale random walk five times
    /// (``scaleNoisePerRootMeter`` 0.0025 per √m: ≈ 2.5 % over 100 m), the scale prior
    /// (``scaleSigma``) 10 % and the drift-rate prior (``yawDriftRateSigma``) 2 °/min; everything
    /// else is the default.
    ///
    /// Use it when the device's tracking is known to drift that much (devices without LiDAR from
    /// before ARKit 3, long sessions in poor light): a modern phone's model would then state a
    /// heading σ and a horizontal accuracy that are too small. The defaults' tracking quality check
    /// (``trackingQualityGate``) raises their noise to this once the walk shows such a scale error
    /// or drift (on the report's steady older-tracking runs: 46 of 48, at a median of 95 m walked;
    /// |heading error| ≤ 2σ then at least 91.5 %); this configuration has it from the first fix.
    /// Do not use it on a modern phone: its heading is worse there, by what it no longer trusts
    /// the tracking for.
    ///
    /// Measured (the report's geo-registration section; 24 simulated walks, seeds 1–6, both
    /// scenarios, shipped and phone GNSS, with and without compass, 48 runs), with tracking
    /// simulated at ADVIO's iPhone 6s magnitudes
    /// (`GeoRegistrationSimulator.TrackingModel.olderPhone` in GeoAnchorKitSimulation), defaults →
    /// this. A steady session (one jump): least share of times with |heading error| ≤ 2σ
    /// 77.5 → 94.5 % (mean 92.7 → 99.1 %), share within the stated 68 % radius mean 56 → 71 %
    /// (least 28 → 50 %), position p95 / raw mean 0.62 → 0.57 (worst 1.04 → 0.83), heading p95
    /// after 100 m mean 2.30 → 2.28°. With ADVIO's rate of jumps (1–2.5 m every 100 s) each
    /// detected jump widens the heading σ, so the defaults' heading σ holds there (least
    /// 94.1 → 94.6 %) and the heading is worse with this (2.54 → 2.64°), but the position still
    /// gains (within the 68 % radius 66 → 70 %, least 44 → 50 %; worst 1.02 → 0.82 × raw: the
    /// defaults made one walk's position worse than the fixes'). With the scenarios' own (modern)
    /// tracking, its cost: heading p95 mean 1.58 → 1.86°, position 0.45 → 0.54 × raw (mean).
    public static var olderARTracking: GeoRegistrationConfiguration {
        var c = GeoRegistrationConfiguration()
        c.trackingYawNoisePerRootMeter = 0.09
        c.trackingYawNoisePerRootSecond = 0.03
        c.scaleNoisePerRootMeter = 0.0025
        c.scaleSigma = 0.1
        c.yawDriftRateSigma = 2
        return c
    }

    /// This configuration with its tracking noise (yaw, scale and position random walks, scale and
    /// drift-rate priors) raised to `other`'s wherever `other`'s is larger.
    func raisingTrackingNoise(to other: GeoRegistrationConfiguration) -> GeoRegistrationConfiguration {
        var c = self
        c.trackingPositionNoise = Swift.max(c.trackingPositionNoise, other.trackingPositionNoise)
        c.trackingYawNoisePerRootMeter = Swift.max(c.trackingYawNoisePerRootMeter, other.trackingYawNoisePerRootMeter)
        c.trackingYawNoisePerRootSecond = Swift.max(c.trackingYawNoisePerRootSecond, other.trackingYawNoisePerRootSecond)
        c.yawDriftRateSigma = Swift.max(c.yawDriftRateSigma, other.yawDriftRateSigma)
        c.yawDriftRateNoise = Swift.max(c.yawDriftRateNoise, other.yawDriftRateNoise)
        c.scaleSigma = Swift.max(c.scaleSigma, other.scaleSigma)
        c.scaleNoisePerRootMeter = Swift.max(c.scaleNoisePerRootMeter, other.scaleNoisePerRootMeter)
        return c
    }

    /// Checks every value: finite and in its range — time constants, windows, rates, gates and
    /// σ floors > 0; noise densities, prior σs and speeds ≥ 0; fractions in (0, 1] (the GNSS
    /// correlated fraction in [0, 1]); ``consecutiveRejectionsForJump`` ≥ 1; ``trackingGapTime`` > 0
    /// (+∞ allowed: no interruption rule), ``trackingGapSpeed`` ≤ 1000 m/s;
    /// ``frameHeadingSigma``, ``unreportedFixSigma``, ``trackingQualityGate`` and ``divergenceSpeed`` > 0 when set;
    /// ``divergenceFixes`` ≥ 1; ``divergenceYawRateSigma`` in [0, 3600] °/s. Upper bounds where a larger
    /// value is no tracking or no fix and its square overflows the filter (1e10 for the scale σ
    /// once made every estimate NaN): fix σs ≤ 100 km (``Fix/maximumUsableHorizontalAccuracy``),
    /// angle σs ≤ 180°, scale σ and its noise ≤ 1, tracking position noise ≤ 10 m/√m, yaw drift
    /// rate σ and noise ≤ 3600 °/min. (``jumpYawContinuitySigma``, ``jumpYawRateSigma``,
    /// ``compassRobustThreshold`` and ``fixAccuracyAdaptationTime`` are not checked: a negative or
    /// non-finite value documentedly turns their feature off.) ``GeoRegistration`` refuses every measurement with this error
    /// while its configuration fails the check.
    /// - Throws: ``GeoAnchorError/nonFinite(name:value:)`` or
    ///   ``GeoAnchorError/outOfRange(name:value:allowed:)`` naming the first bad value.
    public func validate() throws(GeoAnchorError) {
        let positiveSeconds = ValueRange.greaterThan(0, unit: "s")
        let fixSigma = ValueRange(lower: .exclusive(0), upper: .inclusive(Fix.maximumUsableHorizontalAccuracy), unit: "m")
        let angleSigma = ValueRange.closed(0, 180, unit: "degrees")
        let noiseAndGates: [(String, Double, ValueRange)] = [
            ("gnssCorrelationTime", gnssCorrelationTime, positiveSeconds),
            ("gnssCorrelatedFraction", gnssCorrelatedFraction, .closed(0, 1)),
            ("gnssLongCorrelationTime", gnssLongCorrelationTime, positiveSeconds),
            ("gnssLongShare", gnssLongShare, .closed(0, 1)),
            ("gnssPersistentShare", gnssPersistentShare, .closed(0, 1)),
            ("minimumFixSigma", minimumFixSigma, fixSigma),
            ("userEquivalentRangeError", userEquivalentRangeError, fixSigma),
            ("fixGate", fixGate, .greaterThan(0)),
            ("consecutiveRejectionsForJump", Double(consecutiveRejectionsForJump), .atLeast(1)),
            ("fixAccuracyTolerance", fixAccuracyTolerance, .atLeast(1)),
            ("minimumFixAccuracyScale", minimumFixAccuracyScale, ValueRange(lower: .exclusive(0), upper: .inclusive(1))),
            ("pathCorrelationTime", pathCorrelationTime, .atLeast(0, unit: "s")),
            ("pathGate", pathGate, .greaterThan(0)),
            ("pathCheckTime", pathCheckTime, positiveSeconds),
            ("pathCheckSigmas", pathCheckSigmas, .greaterThan(0)),
            ("courseSigma", courseSigma, angleSigma),
            ("courseReferenceSpeed", courseReferenceSpeed, .greaterThan(0, unit: "m/s")),
            ("courseMinimumSpeed", courseMinimumSpeed, .atLeast(0, unit: "m/s")),
            ("courseWindow", courseWindow, positiveSeconds),
            ("courseReferenceAccuracy", courseReferenceAccuracy, .greaterThan(0, unit: "m")),
            ("trackingPositionNoise", trackingPositionNoise, .closed(0, 10, unit: "m/√m")),
            ("trackingYawNoisePerRootMeter", trackingYawNoisePerRootMeter, .closed(0, 180, unit: "degrees/√m")),
            ("trackingYawNoisePerRootSecond", trackingYawNoisePerRootSecond, .closed(0, 180, unit: "degrees/√s")),
            ("yawDriftRateSigma", yawDriftRateSigma, .closed(0, 3600, unit: "degrees/min")),
            ("yawDriftRateNoise", yawDriftRateNoise, .closed(0, 3600, unit: "degrees/min/√min")),
            ("scaleSigma", scaleSigma, .closed(0, 1)),
            ("scaleNoisePerRootMeter", scaleNoisePerRootMeter, .closed(0, 1, unit: "1/√m")),
            ("jumpAcceleration", jumpAcceleration, .greaterThan(0, unit: "m/s²")),
            ("jumpMinimumStep", jumpMinimumStep, .atLeast(0, unit: "m")),
            ("trackingGapSpeed", trackingGapSpeed, .closed(0, 1000, unit: "m/s")),
            ("relocalisationMotionEvidence", relocalisationMotionEvidence, .greaterThan(0)),
            ("compassBiasSigma", compassBiasSigma, angleSigma),
            ("compassBiasTime", compassBiasTime, positiveSeconds),
            ("compassWhiteFraction", compassWhiteFraction, ValueRange(lower: .exclusive(0), upper: .inclusive(1))),
            ("compassDecorrelationInterval", compassDecorrelationInterval, .atLeast(0, unit: "s")),
            ("compassGate", compassGate, .greaterThan(0)),
            ("compassEpisodeTime", compassEpisodeTime, positiveSeconds),
            ("compassEpisodeThreshold", compassEpisodeThreshold, .greaterThan(0)),
            ("compassBiasResetTime", compassBiasResetTime, .atLeast(0, unit: "s"))
        ]
        for (name, value, allowed) in noiseAndGates { try allowed.check(value, name: name) }
        // +∞ turns the interruption rule off.
        if trackingGapTime != .infinity { try positiveSeconds.check(trackingGapTime, name: "trackingGapTime") }
        if let g = relocalisationGate { try ValueRange.greaterThan(0).check(g, name: "relocalisationGate") }
        if let v = frozenGapPace { try ValueRange.atLeast(0, unit: "m/s").check(v, name: "frozenGapPace") }
        if let s = frameHeadingSigma { try ValueRange(lower: .exclusive(0), upper: .inclusive(180), unit: "degrees").check(s, name: "frameHeadingSigma") }
        if let s = unreportedFixSigma { try fixSigma.check(s, name: "unreportedFixSigma") }
        if let t = fixAccuracyNarrowingTolerance { try ValueRange(lower: .exclusive(0), upper: .inclusive(1)).check(t, name: "fixAccuracyNarrowingTolerance") }
        if let g = trackingQualityGate { try ValueRange.greaterThan(0).check(g, name: "trackingQualityGate") }
        if let v = divergenceSpeed { try ValueRange.greaterThan(0, unit: "m/s").check(v, name: "divergenceSpeed") }
        try ValueRange.atLeast(1).check(Double(divergenceFixes), name: "divergenceFixes")
        try ValueRange.closed(0, 3600, unit: "degrees/s").check(divergenceYawRateSigma, name: "divergenceYawRateSigma")
        let alignmentAndOutput: [(String, Double, ValueRange)] = [
            ("alignmentSpan", alignmentSpan, .atLeast(0, unit: "m")),
            ("headingSigmaInflation", headingSigmaInflation, .greaterThan(0)),
            ("stillTranslationRate", stillTranslationRate, .greaterThan(0, unit: "m/s")),
            ("stillRotationRate", stillRotationRate, .greaterThan(0, unit: "degrees/s")),
            ("movingTranslationRate", movingTranslationRate, .greaterThan(0, unit: "m/s")),
            ("movingRotationRate", movingRotationRate, .greaterThan(0, unit: "degrees/s")),
            ("stillSpeed", stillSpeed, .atLeast(0, unit: "m/s")),
            ("snapDistance", snapDistance, .greaterThan(0, unit: "m")),
            ("snapAngle", snapAngle, .greaterThan(0, unit: "degrees"))
        ]
        for (name, value, allowed) in alignmentAndOutput { try allowed.check(value, name: name) }
    }
}
