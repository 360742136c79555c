import Foundation

/// Causal estimator of the alignment between an AR session frame and the Earth, from AR tracking
/// (visual-inertial odometry), GNSS fixes and, optionally, a compass, landmark sightings and
/// external geo poses. Feed it in time order; read ``estimate`` after any sample.
///
/// **Model** (an extended Kalman filter, 12 states): the device's East-North-Up position about
/// the first fix, the true heading ψ of the session frame's nominal north, the tracking's scale
/// error s and yaw drift rate ω, the GNSS error's slow part per axis (first-order Gauss–Markov,
/// ``GeoRegistrationConfiguration/gnssCorrelationTime``) and, horizontally, its long-lived part
/// (``GeoRegistrationConfiguration/gnssLongCorrelationTime``, ``GeoRegistrationConfiguration/gnssLongShare``:
/// phones differ in how long their errors persist, and a model with one timescale is
/// overconfident on the ones slower than it), and the compass bias. Each tracking
/// step Δ (session frame) moves the device by `(1 + s) R(ψ) Δ` — odometry, so yaw and scale may
/// drift along the walk instead of assuming one rigid offset — while ψ advances by `ω dt` plus a
/// random walk. A fix observes position + both GNSS error parts; a compass reading observes
/// `yaw + ψ + bias`. The heading becomes observable from the walk itself: the tracked path must
/// be turned by ψ to match the fixes.
///
/// **Robustness.** Fixes and compass readings pass a χ² innovation gate, so an outlier or a
/// magnetic disturbance cannot drag a well-determined heading (the bias state takes slow compass
/// errors). A tracking step that departs from the tracked motion (the previous step's velocity
/// continued) by more than ``GeoRegistrationConfiguration/jumpAcceleration`` could explain is a
/// relocalisation jump (so a vehicle ride is motion): it is not used as motion and the position
/// uncertainty grows; the frame may have turned with it while the device did not, so the tracked yaw's jump (beyond the
/// device's recent turn rate) is taken as the frame's rotation
/// (``GeoRegistrationConfiguration/jumpYawContinuitySigma``). A run of rejected fixes means a
/// jump from the GNSS side and re-anchors the position. A pause in the tracking longer than
/// ``GeoRegistrationConfiguration/trackingGapTime`` (an app in the background) may end in a new
/// or turned frame: its step is not motion and the heading is re-learnt, unless the app says the
/// session relocalised (``trackingDidRelocalize()``); ``trackingDidReset()`` announces a new
/// frame however short the pause. A tracking that drifts more than the configuration models
/// (its estimated scale error and yaw drift rate beyond the priors:
/// ``GeoRegistrationConfiguration/trackingQualityGate``) has its noise raised to older devices'
/// (``isTrackingNoiseRaised``). The fixes' reported accuracies are
/// checked against their innovations, widened when optimistic and narrowed when pessimistic
/// (``GeoRegistrationConfiguration/fixAccuracyAdaptationTime``); fixes that report none get σ
/// from their HDOP or ``GeoRegistrationConfiguration/unreportedFixSigma``. Without a
/// compass or frame prior, the heading is initialized from five agreeing fix courses against the
/// tracked direction (a few seconds of walking) or, for fixes without course, by a least-squares
/// rotation (2-D Procrustes) of the tracked path onto the fixes once it spans
/// ``GeoRegistrationConfiguration/alignmentSpan`` — a fit that also checks a course- or
/// compass-initialized heading.
///
/// **Map aiding** (``path``, optional): the walking path the device follows — a tour's path —
/// constrains the position across the segment walked after each fix, so a turned path
/// observes ψ where the fixes are poor (urban canyons); a map check widens or releases a path
/// the fixes stand off (``GeoRegistrationConfiguration/pathCheckSigmas``).
///
/// **Output smoothing.** Corrections reach ``estimate`` at bounded rates (slower while standing
/// still), so placed anchors do not jitter with fix noise; larger corrections are applied at once
/// and reported in ``events``. The reported σ includes the not-yet-applied correction.
///
/// A fix's course over ground (Doppler, when walking) against the tracked direction of motion
/// observes ψ directly, free of the fixes' slow position error.
///
/// *Accuracy* (simulated walks with ground truth, `GeoRegistrationTests`, README): heading error
/// p95 after 100 m walked 1.0–1.9° in open country, 1.3–3.8° in urban canyons (48 walks); position
/// p95 0.25–0.73 × the raw fixes'; see the README table for figures per scenario. With the
/// exact tour path and a walker straying 1.5 m from it, the heading target (≤ 1.5° with
/// compass, ≤ 2.0° without) is met on 45 of the 48 walks (35 without the path).
/// *Speed*: a tracking sample costs a few rotations; the covariance is propagated once per
/// measurement, and at least every 1.5 s while none arrives (so the reported σ grows during a
/// GNSS dropout) (Benchmarks/Anchoring, `geo-registration`).
public struct GeoRegistration: Sendable {
    /// Axes of the tracking samples' session frame.
    public let convention: ARFrameConvention
    /// Noise model, gates and output smoothing (may be changed between samples). While it fails
    /// ``GeoRegistrationConfiguration/validate()``, every `update` throws that error (and changes
    /// nothing).
    public var configuration: GeoRegistrationConfiguration {
        didSet { configurationError = Self.error(of: configuration) }
    }
    /// ``GeoRegistrationConfiguration/validate()``'s error for ``configuration``, if any.
    var configurationError: GeoAnchorError?
    /// The walking path the device is known to follow (a tour's path), used as a soft
    /// cross-track constraint on the device position after each fix (map aiding); nil: none.
    /// A turned path makes the heading observable where the fixes cannot (urban canyons): see
    /// ``GeoRegistrationConfiguration/pathCorrelationTime`` and the map check
    /// (``GeoRegistrationConfiguration/pathCheckSigmas``). Its ``PathConstraint/crossTrackSigma``
    /// is how far the walker strays from the drawn line, its ``PathConstraint/mapSigma`` how far
    /// the drawn vertices are off (digitizing): with it the walked segment's offset and turn are
    /// estimated (four more states while such a path is set, 16 in all), so a misdrawn segment cannot make
    /// the heading more certain than its drawn direction is. A path stated tighter than it is
    /// turns the heading with its own errors.
    /// May be set at any time (a tour chosen after the AR session started; nil ends map aiding);
    /// the map check starts afresh.
    public var path: PathConstraint? {
        didSet {
            localPath = path.flatMap { p in reference.map { p.local(in: $0) } }
            pathResidualMean = .zero; pathReleased = false; lastPathFixTime = -.infinity; lastPathTime = -.infinity
            // The slots' segment indices belong to the old path.
            setDimension(Self.dimension(for: path))
            for k in 0..<2 where dimension > Self.iM { clearMapSlot(k) }
        }
    }
    /// Ground aiding (optional): the device is carried ``GroundConstraint/deviceHeight`` above the
    /// terrain of a DEM. After each fix the height is observed as terrain + that height (±
    /// ``GroundConstraint/sigma``, counted once per ``GeoRegistrationConfiguration/pathCorrelationTime``
    /// — how the phone is held persists — and χ²-gated at 16). Where the terrain has no data
    /// (or an MSL terrain has no geoid) the constraint is skipped
    /// (``GeoRegistrationSummary/groundSkipped``). Every placed model inherits the device's
    /// vertical error; the fixes' vertical is the worst they give.
    public var ground: GroundConstraint?
    var lastGroundTime = -Double.infinity
    /// ``path`` in the reference frame (set at the first fix).
    var localPath: LocalPath?
    /// Time of the latest applied cross-track constraint and of the latest fix the map check saw.
    var lastPathTime = -Double.infinity
    var lastPathFixTime = -Double.infinity
    /// The map check's running mean of the fixes' cross-track residual vectors (ENU, m), and
    /// whether it holds the path released.
    var pathResidualMean = SIMD2<Double>(0, 0)
    var pathReleased = false
    /// What happened so far.
    public internal(set) var summary = GeoRegistrationSummary()
    /// Discontinuities an app may show; clear with ``removeEvents()``.
    public internal(set) var events: [GeoRegistrationEvent] = []

    // State indices. iM is the first of the map-error slots — two (offset, turn) pairs, see
    // ``mapSlots`` — present only while the path states a drawing error (``PathConstraint/mapSigma``).
    // iLE, iLN: the GNSS error's long-lived part (``GeoRegistrationConfiguration/gnssLongCorrelationTime``).
    @usableFromInline static let iE = 0, iN = 1, iU = 2, iPsi = 3, iS = 4, iW = 5, iBE = 6, iBN = 7, iBU = 8, iBC = 9,
                                  iLE = 10, iLN = 11, iM = 12
    /// The number of states without and with the map slots.
    static let baseDimension = 12, mapDimension = 16
    /// The number of states `path` needs: the map slots only when it states a drawing error.
    static func dimension(for path: PathConstraint?) -> Int { (path?.mapSigma ?? 0) > 0 ? mapDimension : baseDimension }
    /// State mean (ψ, ω and the compass bias in radians, ω in rad/s; map offsets in m, map turns
    /// in radians).
    var x = [Double](repeating: 0, count: baseDimension)
    /// Covariance, row-major `dimension`².
    var p = [Double](repeating: 0, count: baseDimension * baseDimension)
    /// The number of states: 12, or 16 with the map slots (the covariance work grows with its
    /// square, so the slots exist only when a path needs them).
    var dimension: Int { x.count }
    /// The path segments whose drawing error (``PathConstraint/mapSigma``) the two map slots hold
    /// (-1: free), and when each was last used. Slot k's states are `iM + 2k` — the drawn line's
    /// cross-track offset from the real path at the segment's middle (m) — and `iM + 2k + 1` —
    /// its turn (rad). Two slots, so a walker whose leg choice goes back and forth at a corner
    /// keeps each segment's error rather than drawing it afresh (which would count the same map
    /// error twice).
    var mapSlots = SIMD2<Int>(-1, -1)
    var mapSlotTimes = SIMD2<Double>(-.infinity, -.infinity)

    /// Reference tangent frame (origin at the first fix), nil before it.
    var reference: LocalTangentFrame?
    var headingKnown = false
    var headingFromTrack = false
    /// Whether the tracking quality check (``GeoRegistrationConfiguration/trackingQualityGate``)
    /// found the tracking drifting more than ``configuration`` models: from then on its noise is
    /// modelled as ``GeoRegistrationConfiguration/olderARTracking``'s wherever that is larger — also
    /// across interruptions, announced resets and clock resets (the device's tracking is the same).
    public internal(set) var isTrackingNoiseRaised = false
    /// The variances the configured tracking model gives the true scale error and yaw drift rate
    /// (rad/s) by now: the priors plus the random walks so far (the check's reference).
    var trackingModelVariance = SIMD2<Double>(0, 0)
    /// The heading was set from a compass reading and nothing else has observed it since (no
    /// course, track, sighting or geo pose): a lasting compass change may then mean that first
    /// reading was the disturbed one (``update(compass:)``).
    var headingFromCompassOnly = false { didSet { compassOnlyHeadings.removeAll() } }
    /// The frame headings the compass readings implied while ``headingFromCompassOnly`` (degrees).
    var compassOnlyHeadings: [(time: Double, psi: Double)] = []
    /// Nominal-north session coordinates and yaw of the latest tracking sample.
    var lastSample: ARTrackingSample?
    var lastHorizontal = SIMD2<Double>(0, 0)
    var lastUp = 0.0
    /// The position estimate (east, north, m) and its covariance (EE, NN, EN) at the latest
    /// tracking sample: where an interruption started (``GeoRegistrationConfiguration/relocalisationGate``).
    var sampledPosition = SIMD2<Double>(0, 0)
    var sampledCovariance = SIMD3<Double>(0, 0, 0)
    /// The tracked yaw's rate of change (rad/s), smoothed over about a second.
    var yawRate = 0.0
    /// Longest time (s) the covariance goes unpropagated while tracking samples arrive.
    static let coastingPropagationInterval = 1.5
    /// The latest (non-jump) tracking step's velocity, nominal horizontal axes, m/s; nil before
    /// the first step with a duration (the first step cannot be judged: the session may start
    /// in a moving vehicle).
    var stepVelocity: SIMD2<Double>?
    /// The tracking's usual sample interval (s): a running mean of the steps up to 1 s apart
    /// (NaN before the first), against which a short gap stands out (``frozenAcrossGap(dt:step:)``).
    var typicalSampleInterval = Double.nan
    /// The tracked speed (m/s) and velocity (nominal horizontal axes, m/s), each averaged over
    /// about a second (``averagingWeight(dt:)``); not scale-corrected.
    var speed = 0.0
    var velocity = SIMD2<Double>(0, 0)
    // Accumulators since the last covariance propagation.
    var propagatedAt = Double.nan
    var accA = SIMD2<Double>(0, 0), accPsi = SIMD2<Double>(0, 0), accOmega = SIMD2<Double>(0, 0)
    var accUp = 0.0, accDistance = 0.0
    var lastGnssSigma = 2.0
    /// The last used fix's σ per axis as reported (widened by the accuracy check, not
    /// narrowed), m: ``GeoRegistrationConfiguration/gnssPersistentShare``'s reference.
    var lastStatedSigma = 0.0
    /// Fix variance multiplier from the accuracy check (≥ 1), the running mean of the factors
    /// the fixes' innovations ask for, and the time of the latest fix the check saw (one inside
    /// the gate).
    var fixVarianceScale = 1.0
    var fixVarianceEstimate = 1.0
    var lastFixTime = Double.nan
    var lastCompassTime = -Double.infinity
    var consecutiveRejections = 0
    var compassInnovationMean = 0.0
    /// Recent tracked horizontal positions (nominal axes) for the direction of motion.
    var recent: [(time: Double, xy: SIMD2<Double>)] = []
    var compassDisturbedSince = Double.nan
    // Procrustes alignment buffer: session horizontal position, fix ENU, per fix.
    var alignment: [(session: SIMD2<Double>, fix: SIMD2<Double>, time: Double)] = []
    // Output lag (estimate − output: the correction not yet shown): east, north, up meters; heading radians.
    var lag = SIMD3<Double>(0, 0, 0)
    var lagPsi = 0.0
    var clock = ClockResetDetector()
    /// What the app said about the next tracking sample's frame: a new one
    /// (``trackingDidReset()``) or the same after a pause (``trackingDidRelocalize()``).
    enum TrackingResumption { case newFrame, sameFrame }
    var trackingResumption: TrackingResumption?
    /// The fixes' course offsets (course − tracked direction, degrees) collected to initialize
    /// the heading while it is unknown (``acquireFromCourses(_:)``), and while it is known those
    /// gated against it in a row (``reinitializeFromCourses(offset:time:)``).
    var courseSeeds: [(time: Double, offset: Double)] = []
    /// The latest fix whose speed agreed with the tracked one (``checkTrackingDivergence(_:innovation:)``):
    /// its time (UTC s), the tracking sample then (with its nominal horizontal position and
    /// height), and both speeds (the tracked one scale-corrected), m/s.
    struct SpeedAgreement {
        var time: Double
        var sample: ARTrackingSample
        var horizontal: SIMD2<Double>
        var up: Double
        var trackedSpeed: Double
        var fixSpeed: Double
    }
    /// Tracking divergence (``GeoRegistrationConfiguration/divergenceSpeed``): fixes in a row
    /// whose speed disagreed with the tracked one; the latest agreement (nil before the first
    /// and after a divergence) and the tracked motion (east, north, up, m) the position took since.
    var speedDisagreements = 0
    var agreement: SpeedAgreement?
    var motionSinceAgreement = SIMD3<Double>(0, 0, 0)
    /// While the tracking is taken as diverged: since when (UTC s), its latest sample (nominal
    /// horizontal position and time), step velocity and speed (m/s; NaN after a jump in it), and
    /// fixes in a row whose speed agreed with it. `resumeAfterDivergence`: it agreed; the next
    /// sample is used again, as after an interruption.
    var divergedAt: Double?
    var divergedLast: (time: Double, xy: SIMD2<Double>)?
    var divergedVelocity: SIMD2<Double>?
    var divergedSpeed = Double.nan
    var speedAgreements = 0
    var resumeAfterDivergence = false

    /// - Parameters:
    ///   - convention: the axes of the tracking samples. For ``ARFrameConvention/arkitGravity(sessionHeading:)``
    ///     the heading is ignored (it is what this estimates); use ``GeoRegistrationConfiguration/frameHeadingSigma``
    ///     to state a frame that is already north-aligned.
    ///   - configuration: the filter's noise model, gates and output rates.
    ///   - path: the walking path the device follows (map aiding), if known.
    public init(convention: ARFrameConvention = .arkitGravity(sessionHeading: 0),
                configuration: GeoRegistrationConfiguration = GeoRegistrationConfiguration(), path: PathConstraint? = nil) {
        self.convention = convention
        self.path = path
        self.configuration = configuration
        configurationError = Self.error(of: configuration)
        setDimension(Self.dimension(for: path))   // didSet does not run in an initializer
    }

    static func error(of c: GeoRegistrationConfiguration) -> GeoAnchorError? {
        validationError { () throws(GeoAnchorError) in try c.validate() }
    }

    /// Throws the configuration's error (the first thing every public `update` does).
    @inline(__always)
    func checkConfiguration() throws(GeoAnchorError) {
        if let configurationError { throw configurationError }
    }

    /// Clears ``events``.
    public mutating func removeEvents() { events.removeAll(keepingCapacity: true) }

    /// Checks a sample's or measurement's time (years 0001–9999, like every trace time).
    func checkTime(_ time: Double, name: String) throws(GeoAnchorError) {
        guard Fix.isUsableTime(time) else { throw Fix.timeOutOfRange(time, name: name) }
    }

    /// The clock check every update makes after validating its input: a time more than a
    /// minute behind the estimator's latest one counts towards a clock reset
    /// (``ClockResetDetector``: five in a row, in order); on the fifth the estimator restarts
    /// (``GeoRegistrationSummary/clockResets``) and the input is processed by the fresh one.
    /// A sample from the future (a corrupted clock) otherwise stopped the covariance's growth for
    /// good (every later estimate NaN after a landmark sighting at time 1e300; position p95
    /// 15–33 m against 2.85 m after one 1 h–12 d ahead) or made every later tracking sample throw.
    mutating func checkClock(_ time: Double) {
        let latest = Swift.max(propagatedAt.isNaN ? -Double.infinity : propagatedAt, lastSample?.time ?? -Double.infinity)
        guard time < latest else { clock.accepted(); return }
        guard clock.refused(time, latest: latest) else { return }
        var fresh = GeoRegistration(convention: convention, configuration: configuration, path: path)
        fresh.ground = ground
        fresh.summary = summary
        fresh.summary.clockResets += 1
        fresh.events = events
        // The device's tracking is the same one: what the quality check found about it holds
        // (its event and ``GeoRegistrationSummary/trackingNoiseRaisedAt`` stay true, once a session).
        fresh.isTrackingNoiseRaised = isTrackingNoiseRaised
        self = fresh
    }

    /// Session-frame position (meters, in convention `c`) → (east-like, north-like, up) about the
    /// frame's nominal north: the axes before the estimated heading offset is applied.
    @inlinable
    public static func nominal(_ v: SIMD3<Double>, _ c: ARFrameConvention) -> SIMD3<Double> {
        switch c {
        case .enu: return v
        // x right/east, y up, z back/south.
        case .arkitGravity, .arkitGravityAndHeading, .arcoreEarth: return SIMD3(v.x, -v.z, v.y)
        }
    }

    // MARK: - Tracking

    /// The largest coordinate magnitude a tracking sample may have: 10,000 km (m). AR session
    /// coordinates are meters from where the session started; beyond this they are not a walk,
    /// and their squares would lose the precision (or overflow) the estimator needs.
    public static let maximumTrackingCoordinate = 1e7

    /// Feeds one AR tracking sample (time order).
    /// - Throws: ``GeoAnchorError/nonFinite(name:value:)`` for a NaN/∞ field,
    ///   ``GeoAnchorError/outOfRange(name:value:allowed:)`` for a time outside the years
    ///   0001–9999 or going backwards (unless it completes a clock reset: see
    ///   ``GeoRegistrationSummary/clockResets``) or a coordinate beyond ±``maximumTrackingCoordinate``.
    public mutating func update(tracking t: ARTrackingSample) throws(GeoAnchorError) {
        try checkConfiguration()
        // One check per value (a list of them would be an allocation on every sample).
        let finite = ValueRange.unbounded()
        let extent = ValueRange.closed(-Self.maximumTrackingCoordinate, Self.maximumTrackingCoordinate, unit: "m")
        try checkTime(t.time, name: "tracking time")
        try extent.check(t.position.x, name: "tracking x")
        try extent.check(t.position.y, name: "tracking y")
        try extent.check(t.position.z, name: "tracking z")
        try finite.check(t.yaw, name: "tracking yaw")
        checkClock(t.time)
        let q = Self.nominal(t.position, convention)
        summary.trackingSamples += 1
        guard let last = lastSample else {
            lastSample = t; lastHorizontal = SIMD2(q.x, q.y); lastUp = q.z
            if propagatedAt.isNaN { propagatedAt = t.time }
            // A reset or relocalisation announced before the first sample concerns this one
            // (nothing before it to be discontinuous with), not the next.
            trackingResumption = nil
            return
        }
        let latest = Swift.max(last.time, divergedLast?.time ?? -.infinity)
        guard t.time >= latest else {
            throw .outOfRange(name: "tracking time (must not go backwards)", value: t.time, allowed: .atLeast(latest, unit: "s"))
        }
        // An announced reset or relocalisation ends a divergence: the app knows the session restarted.
        if divergedAt != nil && trackingResumption != nil { divergedAt = nil; resumeAfterDivergence = true }
        if divergedAt != nil { followDivergedTracking(time: t.time, at: SIMD2(q.x, q.y)); return }
        let dt = t.time - last.time
        var d = SIMD2(q.x, q.y) - lastHorizontal
        var du = q.z - lastUp
        let step = (d * d).sum().squareRoot()
        // The tracked yaw's change over this step (wrap-safe), rad.
        let yawStep = Angle.difference(from: last.yaw, to: t.yaw) * Angle.radiansPerDegree
        // An interruption (a gap in the samples, or an announced reset): the step is not motion.
        let interrupted = trackingResumption == .newFrame || isTrackingStale(at: t.time)
        let afterDivergence = resumeAfterDivergence && trackingResumption == nil
        resumeAfterDivergence = false
        divergedLast = nil
        let sameFrame = trackingResumption == .sameFrame
        let trackingWasReset = trackingResumption == .newFrame
        trackingResumption = nil
        // A jump departs from the tracked motion: the previous step's velocity continued over
        // this step (not an absolute speed limit, which a vehicle ride would trip every frame).
        var jumped = false, frozen = false
        if interrupted {
            interruption(time: t.time, dt: dt, step: d, du: du, yawStep: yawStep, resumedAt: SIMD2(q.x, q.y),
                         sameFrame: sameFrame, announcedReset: trackingWasReset, afterDivergence: afterDivergence)
            d = .zero; du = 0
        } else if let v = stepVelocity {
            jumped = isJump(step: d, velocity: v, dt: dt)
            if !jumped, headingKnown, let speed = frozenAcrossGap(dt: dt, step: step) {
                // A short gap the device walked through but the tracking did not: a session
                // continued from its old pose (the frame turned with the device's unseen turn).
                summary.trackingStepsRejected += 1
                summary.trackingInterruptions += 1
                events.append(.trackingInterrupted(time: t.time, seconds: dt, headingLost: false))
                let unseen = speed * dt
                stepIsNotMotion(time: t.time, dt: dt, yawStep: yawStep, horizontalVariance: unseen * unseen, verticalVariance: 0)
                d = .zero; du = 0
                frozen = true
            }
        }
        if dt > 0 && dt <= 1 {
            typicalSampleInterval = typicalSampleInterval.isNaN ? dt : typicalSampleInterval + 0.05 * (dt - typicalSampleInterval)
        }
        if jumped {
            // A relocalisation: not motion. The position is as uncertain as the jump is large,
            // the heading may have jumped too.
            summary.trackingStepsRejected += 1
            summary.trackingJumps += 1
            events.append(.trackingJump(time: t.time, meters: step, detectedByGNSS: false))
            stepIsNotMotion(time: t.time, dt: dt, yawStep: yawStep, horizontalVariance: step * step, verticalVariance: du * du)
            d = .zero; du = 0
        }
        if dt > 0 {
            let a = Self.averagingWeight(dt: dt)
            speed += a * ((d * d).sum().squareRoot() / dt - speed)
            velocity += a * (d / dt - velocity)
            // The device's turn rate over about a second (not across a jump: its yaw change is the frame's).
            // After a jump the next step is not judged (its velocity is unknown: the device may
            // really have changed pace, and judging every later step by the pre-jump velocity
            // would make each of them a jump).
            if !jumped && !interrupted && !frozen { yawRate += a * (yawStep / dt - yawRate); stepVelocity = d / dt } else { stepVelocity = nil }
        }
        lastSample = t; lastHorizontal = SIMD2(q.x, q.y); lastUp = q.z
        if propagatedAt.isNaN { propagatedAt = t.time }
        recent.append((t.time, lastHorizontal))
        if recent.count > 256 { recent.removeFirst(128) }
        // Mean propagation (odometry).
        let w = x[Self.iW]
        if headingKnown {
            x[Self.iPsi] += w * dt
            let scale = 1 + x[Self.iS]
            let (r, rp) = Self.turned(d, by: x[Self.iPsi])
            x[Self.iE] += scale * r.x; x[Self.iN] += scale * r.y
            accA += r; accPsi += rp; accOmega += rp * (t.time - propagatedAt)
            motionSinceAgreement.x += scale * r.x; motionSinceAgreement.y += scale * r.y
        }
        x[Self.iU] += (1 + x[Self.iS]) * du
        motionSinceAgreement.z += (1 + x[Self.iS]) * du
        accUp += du
        accDistance += step == 0 || d == .zero ? 0 : step
        // Coasting (no fix or compass reading for a while): propagate anyway, so the covariance —
        // and the σ the estimate reports — grows with the tracking's drift during a GNSS dropout
        // instead of keeping the value of the last measurement.
        if t.time - propagatedAt > Self.coastingPropagationInterval { propagate(to: t.time) }
        advanceOutput(dt: dt)
        let n = dimension
        sampledPosition = SIMD2(x[Self.iE], x[Self.iN])
        sampledCovariance = SIMD3(p[Self.iE * n + Self.iE], p[Self.iN * n + Self.iN], p[Self.iE * n + Self.iN])
    }

    /// The AR session's frame was replaced — ARKit `run(_:options: [.resetTracking])` or a new
    /// `ARSession`, an ARCore session recreated — and the next tracking sample is the new
    /// frame's first. Its step from the previous sample is then not used as motion, whatever its
    /// size (a reset near the old origin looks like a small step and its yaw jump like a turn).
    /// If the new frame starts within a few seconds (the device's unseen turn then within 60° at
    /// 1σ: ≈ 6 s at ``GeoRegistrationConfiguration/jumpYawRateSigma`` 10 °/s), the heading carries
    /// over by the device's turn continuity (its true heading does not jump; the frame's does), as at a detected jump;
    /// after a longer pause it is re-learnt (``GeoRegistrationEvent/trackingInterrupted(time:seconds:headingLost:)``).
    /// Pauses longer than ``GeoRegistrationConfiguration/trackingGapTime`` are treated this way
    /// without being announced. Position, GNSS and compass-bias states, the path and the ground
    /// constraint are kept.
    public mutating func trackingDidReset() { trackingResumption = .newFrame }

    /// The AR session relocalised after an interruption (ARKit's tracking state back to normal
    /// from `.limited(.relocalizing)`, with `sessionShouldAttemptRelocalization` true): its frame
    /// is the one before, so the heading carries over however long the pause (only the
    /// tracking's drift over it is added) instead of being re-learnt under the
    /// ``GeoRegistrationConfiguration/trackingGapTime`` rule (unannounced, it is kept only when
    /// the fixes show the device moved as the step across the pause says:
    /// ``GeoRegistrationConfiguration/relocalisationGate``). The step across the pause is still
    /// not used as motion (fixes during the pause may already have moved the position; the next
    /// ones place it). Call it before the first sample after the pause.
    public mutating func trackingDidRelocalize() { trackingResumption = .sameFrame }

    /// How fast (1σ per axis, m/s) the device may move unseen while the tracking is interrupted:
    /// ``GeoRegistrationConfiguration/trackingGapSpeed``, or its tracked speed before the pause
    /// when that is faster (a vehicle: at walking pace its fixes during a pause were rejected,
    /// ten in a row reported as a tracking jump, again and again — 13 in one 30 s pause of a
    /// recorded drive, the heading 40° off after it).
    var unseenSpeed: Double { Swift.max(configuration.trackingGapSpeed, speed * (1 + x[Self.iS])) }

    /// The most a frame's turn carried across an interruption by the device's turn continuity
    /// may be uncertain (1σ, degrees); beyond it the heading is re-learnt. With the default
    /// ``GeoRegistrationConfiguration/jumpYawRateSigma`` (10 °/s) that is a pause of ≈ 6 s.
    static let maximumInterruptionTurnSigma = 60.0

    /// An interruption of the tracking (a gap of `dt` seconds, or an announced reset) at `time`:
    /// the step (`step` m horizontally, `du` vertically, the yaw changing by `yawStep` rad) is
    /// not motion. The device may have moved unseen (``GeoRegistrationConfiguration/trackingGapSpeed``)
    /// and the frame may have turned: by the yaw's jump less the device's recent turn (a
    /// reset, continuity σ as at a jump) when that is known well enough, else by an unknown
    /// amount — the heading is then dropped and re-learnt as at the start. `sameFrame`: the app
    /// said the session relocalised; the heading stays, as it does when an unannounced pause is
    /// recognized as one (``looksRelocalised(step:resumedAt:)``; never after an announced reset,
    /// `announcedReset`). `step`: the tracked horizontal step across the pause (nominal axes),
    /// `q` the first sample's position. `afterDivergence`: the tracking is used again after a
    /// divergence (``checkTrackingDivergence(_:innovation:)``), its samples followed meanwhile:
    /// the heading is kept, widened by ``GeoRegistrationConfiguration/divergenceYawRateSigma``
    /// over the time since the last sample used, unless that exceeds 60°.
    mutating func interruption(time: Double, dt: Double, step d: SIMD2<Double>, du: Double, yawStep: Double, resumedAt q: SIMD2<Double>,
                               sameFrame: Bool, announcedReset: Bool, afterDivergence: Bool = false) {
        summary.trackingInterruptions += 1
        summary.trackingStepsRejected += 1
        propagate(to: time)
        // Before the step's variance is added: the test compares the position the fixes moved
        // to with the one the step predicts.
        let recognized = !sameFrame && !announcedReset && headingKnown && looksRelocalised(step: d, resumedAt: q)
        if recognized { summary.relocalisationsRecognized += 1 }
        let step2 = (d * d).sum()
        let unseen = unseenSpeed * dt
        addVariance(Self.iE, step2 + unseen * unseen); addVariance(Self.iN, step2 + unseen * unseen)
        addVariance(Self.iU, du * du + unseen * unseen)
        forgetFrameHistory()
        guard headingKnown, !sameFrame, !recognized else {
            events.append(.trackingInterrupted(time: time, seconds: dt, headingLost: false))
            return
        }
        if afterDivergence {
            // The stream was followed throughout, its yaw with the device's turns: the frame kept
            // its heading to within how far a diverged tracking's yaw may have wandered.
            let base = configuration.jumpYawContinuitySigma.flatMap { $0.isFinite && $0 >= 0 ? $0 : nil } ?? 0
            let sigma = Foundation.hypot(base, configuration.divergenceYawRateSigma * dt)
            if sigma <= Self.maximumInterruptionTurnSigma {
                let s = sigma * Angle.radiansPerDegree
                addVariance(Self.iPsi, s * s)
                events.append(.trackingInterrupted(time: time, seconds: dt, headingLost: false))
                return
            }
        }
        if let turnSigma = continuityTurnSigma(dt: dt), turnSigma <= Self.maximumInterruptionTurnSigma {
            turnFrame(yawStep: yawStep, dt: dt, sigma: turnSigma)
            events.append(.trackingInterrupted(time: time, seconds: dt, headingLost: false))
            return
        }
        dropHeading()
        events.append(.trackingInterrupted(time: time, seconds: dt, headingLost: true))
    }

    /// A short gap in the tracking (not an interruption: at most
    /// ``GeoRegistrationConfiguration/trackingGapTime``) that the device walked through while the
    /// tracking shows it stood still (``GeoRegistrationConfiguration/frozenGapPace``): longer than
    /// 1 s and than 4 × the usual sample interval, the device moving at least that pace before
    /// it, and the step across it under a quarter of what the pace covers. Returns the pace before
    /// the gap (m/s), nil when the step is not frozen (or the check is off).
    func frozenAcrossGap(dt: Double, step: Double) -> Double? {
        guard let minimumPace = configuration.frozenGapPace, dt > 1, !typicalSampleInterval.isNaN,
              dt > 4 * typicalSampleInterval, let v = stepVelocity else { return nil }
        let pace = (v * v).sum().squareRoot() * (1 + x[Self.iS])
        guard pace >= minimumPace, pace > 0, step < 0.25 * pace * dt else { return nil }
        return pace
    }

    /// Whether the first sample after an unannounced interruption is in the old frame
    /// (``GeoRegistrationConfiguration/relocalisationGate``): the tracked step `d` (nominal
    /// axes), turned and scaled by the current heading and scale, against the displacement of
    /// the position estimate since the last sample before the pause (moved by the fixes during
    /// it), with the covariance of both positions plus the heading's and scale's share of the
    /// step's; and the fixes' displacement itself clearly nonzero
    /// (``GeoRegistrationConfiguration/relocalisationMotionEvidence``). `q`: the sample's
    /// position (nominal), never within 0.5 m of the origin (a new frame's start).
    func looksRelocalised(step d: SIMD2<Double>, resumedAt q: SIMD2<Double>) -> Bool {
        let c = configuration
        guard let gate = c.relocalisationGate, (q * q).sum() > 0.25 else { return false }
        let n = dimension
        let scale = 1 + x[Self.iS]
        let (r, rp) = Self.turned(d, by: x[Self.iPsi])
        let moved = SIMD2(x[Self.iE], x[Self.iN]) - sampledPosition
        let nu = moved - scale * r
        let vPsi = p[Self.iPsi * n + Self.iPsi] * scale * scale, vS = p[Self.iS * n + Self.iS]
        let s11 = p[Self.iE * n + Self.iE] + sampledCovariance.x + vPsi * rp.x * rp.x + vS * r.x * r.x
        let s22 = p[Self.iN * n + Self.iN] + sampledCovariance.y + vPsi * rp.y * rp.y + vS * r.y * r.y
        let s12 = p[Self.iE * n + Self.iN] + sampledCovariance.z + vPsi * rp.x * rp.y + vS * r.x * r.y
        let matches = Self.normalizedSquare(nu.x, nu.y, s11, s22, s12)
        let evidence = Self.normalizedSquare(moved.x, moved.y, s11, s22, s12)
        return matches.isFinite && evidence.isFinite && matches <= gate && evidence >= c.relocalisationMotionEvidence
    }

    /// How well the device's turn continuity carries the frame heading across a tracking
    /// discontinuity (a jump or an interruption) of `dt` seconds: 1σ in degrees,
    /// `hypot(jumpYawContinuitySigma, jumpYawRateSigma × dt)`; nil when switched off (either
    /// setting negative or not finite).
    func continuityTurnSigma(dt: Double) -> Double? {
        let c = configuration
        guard let sigma = c.jumpYawContinuitySigma, sigma >= 0, sigma.isFinite,
              c.jumpYawRateSigma >= 0, c.jumpYawRateSigma.isFinite else { return nil }
        return Foundation.hypot(sigma, c.jumpYawRateSigma * dt)
    }

    /// A step `d` in the session's nominal axes turned into east/north by the frame heading `psi`
    /// (rad, clockwise from north), and the turned step's derivative with respect to `psi`: the
    /// odometry's mean step and its Jacobian column, shared by everything that turns a tracked step.
    @inline(__always)
    static func turned(_ d: SIMD2<Double>, by psi: Double) -> (step: SIMD2<Double>, derivative: SIMD2<Double>) {
        let sn = Foundation.sin(psi), cs = Foundation.cos(psi)
        return (SIMD2(cs * d.x + sn * d.y, -sn * d.x + cs * d.y), SIMD2(-sn * d.x + cs * d.y, -cs * d.x - sn * d.y))
    }

    /// A tracked step that is not motion (a relocalisation jump, or a short gap across which a
    /// continued session stood still): the position widens by `horizontalVariance` per axis and
    /// the height by `verticalVariance` (m²); the frame's turn is the yaw step less the device's
    /// recent turn, known to the continuity σ (``turnFrame(yawStep:dt:sigma:)``) when the heading is
    /// known, else the heading widens by 3°; what was measured in the frame before is forgotten.
    mutating func stepIsNotMotion(time: Double, dt: Double, yawStep: Double, horizontalVariance: Double, verticalVariance: Double) {
        propagate(to: time)
        addVariance(Self.iE, horizontalVariance); addVariance(Self.iN, horizontalVariance); addVariance(Self.iU, verticalVariance)
        if let turnSigma = continuityTurnSigma(dt: dt), headingKnown, dt > 0 {
            turnFrame(yawStep: yawStep, dt: dt, sigma: turnSigma)
        } else {
            addVariance(Self.iPsi, (3 * Angle.radiansPerDegree) * (3 * Angle.radiansPerDegree))
        }
        forgetFrameHistory()
    }

    /// The session frame turned across a discontinuity, the device did not: its true heading
    /// yaw + ψ is continuous, so the tracked yaw's change (`yawStep`, rad, over `dt` s) beyond the
    /// device's recent turn rate is the frame's rotation, −Δψ, known to `sigma` degrees (1σ).
    /// The output follows at once: a frame change, not a correction.
    mutating func turnFrame(yawStep: Double, dt: Double, sigma: Double) {
        x[Self.iPsi] -= yawStep - yawRate * dt
        let s = sigma * Angle.radiansPerDegree
        addVariance(Self.iPsi, s * s)
    }

    /// Whether the tracking is interrupted at `time`: no sample, or the latest more than
    /// ``GeoRegistrationConfiguration/trackingGapTime`` before it — its yaw and direction of
    /// motion are no longer the device's.
    func isTrackingStale(at time: Double) -> Bool {
        guard let s = lastSample else { return true }
        if let d = divergedAt, time >= d { return true }
        if resumeAfterDivergence { return true }
        return time - s.time > configuration.trackingGapTime
    }

    /// Whether the tracked speed `tracked` and a fix's speed `fix` (m/s) agree within
    /// ``GeoRegistrationConfiguration/divergenceSpeed`` (and half the fix's speed).
    func speedsAgree(_ tracked: Double, _ fix: Double, limit: Double) -> Bool {
        withinDivergenceLimit(Swift.abs(tracked - fix), fixSpeed: fix, limit: limit)
    }

    /// The divergence check's one tolerance: a difference of speeds or velocities (m/s) within
    /// `limit` (``GeoRegistrationConfiguration/divergenceSpeed``) or half the fix's speed.
    func withinDivergenceLimit(_ difference: Double, fixSpeed: Double, limit: Double) -> Bool {
        difference <= Swift.max(limit, 0.5 * fixSpeed)
    }

    /// Whether the tracked motion agrees with a fix's (``speedsAgree(_:_:limit:)``): as velocities
    /// when the fix has a course and the heading is known (the tracked velocity turned to the
    /// Earth by the frame heading, scale-corrected) — a runaway across the direction of walking
    /// hardly changes the speed (3 m/s across a 1.4 m/s walk: 1.9 m/s faster) — else as speeds.
    func trackingAgrees(with fix: Fix, speed v: Double, limit: Double) -> Bool {
        let scale = 1 + x[Self.iS]
        guard let u = fixVelocity(fix, speed: v) else { return speedsAgree(speed * scale, v, limit: limit) }
        let difference = Self.turned(velocity, by: x[Self.iPsi]).step * scale - u
        return withinDivergenceLimit((difference * difference).sum().squareRoot(), fixSpeed: v, limit: limit)
    }

    /// A fix's velocity (east, north, m/s) from its `speed` and course, when the heading is known
    /// and the fix moves fast enough for its course to mean something
    /// (``GeoRegistrationConfiguration/courseMinimumSpeed``); else nil.
    func fixVelocity(_ fix: Fix, speed v: Double) -> SIMD2<Double>? {
        guard headingKnown, let course = fix.course, course.isFinite, v >= configuration.courseMinimumSpeed else { return nil }
        let (east, north) = Angle.sincos(degrees: course)
        return SIMD2(v * east, v * north)
    }

    /// The tracking divergence check (``GeoRegistrationConfiguration/divergenceSpeed``), at a fix
    /// with its position innovation's normalized square `d2`: counts the fixes in a row whose
    /// speed disagrees with the tracked one and, from ``GeoRegistrationConfiguration/divergenceFixes``
    /// on, at the first whose position disagrees too (`d2` beyond ``divergencePositionGate``: a
    /// runaway drags the position along) and where the tracked speed is above the fix's and rose
    /// since they last agreed, more than the fix's did (a runaway adds speed; a receiver that
    /// stalls is not a divergence: on a GSDC 2020 drive the chipset's speed fell from 23 to
    /// 0.5 m/s and its position 75 m behind in 8 s while SPAN went on at 15–19 m/s, slowing,
    /// then snapped back), takes the tracking as diverged: the position moved back by the
    /// tracked motion since the last fix whose speed agreed and widened by what the device may
    /// have walked since, the tracking sample then kept as the last one used. While diverged it
    /// counts the fixes in a row that agree with the diverged stream's speed, and at as many lets
    /// the next sample be used again (as after an interruption of the tracking). Returns whether it took the tracking as
    /// diverged at this fix (the position changed).
    mutating func checkTrackingDivergence(_ fix: Fix, innovation d2: Double) -> Bool {
        let c = configuration
        guard let limit = c.divergenceSpeed, let v = fix.speed, v.isFinite, v >= 0 else { return false }
        let scale = 1 + x[Self.iS]
        if divergedAt != nil {
            let agrees = divergedSpeed.isFinite && speedsAgree(divergedSpeed * scale, v, limit: limit)
            speedAgreements = agrees ? speedAgreements + 1 : 0
            if speedAgreements >= c.divergenceFixes {
                divergedAt = nil; speedAgreements = 0; resumeAfterDivergence = true
            }
            return false
        }
        guard let last = lastSample, !isTrackingStale(at: fix.time) else { speedDisagreements = 0; return false }
        if stepVelocity == nil || trackingAgrees(with: fix, speed: v, limit: limit) {
            speedDisagreements = 0
            agreement = SpeedAgreement(time: fix.time, sample: last, horizontal: lastHorizontal, up: lastUp,
                                       trackedSpeed: speed * scale, fixSpeed: v)
            motionSinceAgreement = .zero
            return false
        }
        speedDisagreements += 1
        guard speedDisagreements >= c.divergenceFixes, d2 > Self.divergencePositionGate else { return false }
        // A runaway adds speed: the tracked speed is above the fix's and rose since they last
        // agreed, more than the fix's did. A receiver that stalls (its speed and position falling
        // behind) while the tracking goes on or slows as the vehicle does is not a divergence.
        let tracked = speed * scale
        guard tracked > v, tracked - (agreement?.trackedSpeed ?? 0) > Swift.max(0, v - (agreement?.fixSpeed ?? 0)) else { return false }
        summary.trackingDivergences += 1
        summary.trackingStepsRejected += 1
        events.append(.trackingDiverged(time: fix.time, trackedSpeed: tracked, fixSpeed: v))
        divergedLast = (last.time, lastHorizontal)
        divergedVelocity = stepVelocity
        divergedSpeed = speed
        // Back to the latest fix whose speed agreed (without one, the runaway's whole motion
        // stays in the position, widened as much as it ran; a second per disagreeing fix).
        let since = agreement?.time ?? fix.time - Double(speedDisagreements)
        var runaway = 0.0
        if let a = agreement {
            x[Self.iE] -= motionSinceAgreement.x; x[Self.iN] -= motionSinceAgreement.y; x[Self.iU] -= motionSinceAgreement.z
            lastSample = a.sample; lastHorizontal = a.horizontal; lastUp = a.up
        } else {
            runaway = (motionSinceAgreement * motionSinceAgreement).sum().squareRoot()
        }
        // Where the device was at that sample, as known then: what the relocalisation check
        // compares the step across the divergence with (``looksRelocalised(step:resumedAt:)``).
        let n = dimension
        sampledPosition = SIMD2(x[Self.iE], x[Self.iN])
        sampledCovariance = SIMD3(p[Self.iE * n + Self.iE], p[Self.iN * n + Self.iN], p[Self.iE * n + Self.iN])
        // What the device may have walked since (its direction unknown), and before it while
        // the runaway still stayed within the limit (a second of it).
        let walked = Swift.max(c.trackingGapSpeed, v) * (fix.time - since) + limit + runaway
        addVariance(Self.iE, walked * walked); addVariance(Self.iN, walked * walked); addVariance(Self.iU, walked * walked)
        speed = v
        velocity = fixVelocity(fix, speed: v).map { Self.turned($0, by: -x[Self.iPsi]).step / scale } ?? .zero
        stepVelocity = nil
        divergedAt = fix.time
        speedDisagreements = 0; speedAgreements = 0
        agreement = nil; motionSinceAgreement = .zero
        consecutiveRejections = 0
        yawRate = 0
        forgetFrameHistory()
        return true
    }

    /// Whether a tracked step `d` (nominal horizontal axes, m) over `dt` seconds departs from the
    /// previous step's velocity `v` (m/s) continued by more than any acceleration of the device
    /// could explain (``GeoRegistrationConfiguration/jumpAcceleration``, at least
    /// ``GeoRegistrationConfiguration/jumpMinimumStep``): a relocalisation jump.
    func isJump(step d: SIMD2<Double>, velocity v: SIMD2<Double>, dt: Double) -> Bool {
        let c = configuration, departure = d - v * dt
        return (departure * departure).sum().squareRoot() > Swift.max(c.jumpMinimumStep, 0.5 * c.jumpAcceleration * dt * dt)
    }

    /// How far (normalized square of the position innovation, 2 degrees of freedom) a fix must
    /// stand off for a speed disagreement to be a divergence: χ² 86 %, so a runaway of a few
    /// meters beyond the fixes' σ qualifies, while a receiver's wrong speed with its positions
    /// along the track does not.
    static let divergencePositionGate = 4.0

    /// A tracking sample while the tracking is taken as diverged: not used, only its speed
    /// followed (not across a jump in it) for ``checkTrackingDivergence(_:innovation:)`` to see it agree again.
    mutating func followDivergedTracking(time: Double, at xy: SIMD2<Double>) {
        summary.trackingStepsRejected += 1
        defer { divergedLast = (time, xy) }
        guard let last = divergedLast else { return }
        let dt = time - last.time
        guard dt > 0 else { return }
        // The output follows the position the fixes move (the device walks on unseen by the
        // tracking), at the usual rate plus the pace it may walk at.
        advanceOutput(dt: dt, unseenSpeed: unseenSpeed)
        let d = xy - last.xy
        if let v = divergedVelocity, isJump(step: d, velocity: v, dt: dt) {
            divergedVelocity = nil; divergedSpeed = .nan
            return
        }
        divergedVelocity = d / dt
        let stepSpeed = (d * d).sum().squareRoot() / dt
        divergedSpeed = divergedSpeed.isNaN ? stepSpeed : divergedSpeed + Self.averagingWeight(dt: dt) * (stepSpeed - divergedSpeed)
    }

    /// The weight of a step of `dt` seconds in the tracked speed's and turn rate's running
    /// averages (about a second long; a step of a second or more replaces them).
    static func averagingWeight(dt: Double) -> Double { Swift.min(1, dt / 1.0) }

    /// Forgets what was measured in the tracking frame before a discontinuity (a jump or an
    /// interruption: the frame may have turned): the Procrustes buffer, the recent tracked path
    /// the course uses, and the course offsets collected to start the heading (mixed with
    /// offsets of a turned frame they once started it between the two).
    mutating func forgetFrameHistory() {
        alignment.removeAll()
        recent.removeAll()
        courseSeeds.removeAll()
    }

    /// Forgets the frame heading and the tracking's yaw drift rate (a new or turned frame's):
    /// both restart as before the first heading, so the compass or the walked track
    /// initializes them again. The device position, GNSS, compass-bias and scale states stay.
    mutating func dropHeading() {
        let n = dimension
        for i in [Self.iPsi, Self.iW] {
            x[i] = 0
            for j in 0..<n { p[i * n + j] = 0; p[j * n + i] = 0 }
        }
        resetDriftRatePrior()
        headingKnown = false
        headingFromTrack = false
        headingFromCompassOnly = false
        compassInnovationMean = 0
        compassDisturbedSince = .nan
        lag = .zero; lagPsi = 0
    }

    /// Sets the yaw drift rate's prior variance (its row and column otherwise zero): the noise
    /// model's, and the configured model's as the tracking quality check's reference.
    mutating func resetDriftRatePrior() {
        let rad = Angle.radiansPerDegree
        let w = noiseModel.yawDriftRateSigma * rad / 60, m = configuration.yawDriftRateSigma * rad / 60
        p[Self.iW * dimension + Self.iW] = w * w
        trackingModelVariance.y = m * m
    }

    /// The configuration the filter's tracking noise comes from: ``configuration``, with its
    /// tracking noise raised to ``GeoRegistrationConfiguration/olderARTracking``'s where lower once
    /// the tracking quality check tripped (``isTrackingNoiseRaised``).
    var noiseModel: GeoRegistrationConfiguration {
        isTrackingNoiseRaised ? configuration.raisingTrackingNoise(to: Self.olderTracking) : configuration
    }
    static let olderTracking = GeoRegistrationConfiguration.olderARTracking

    /// The tracking quality check (``GeoRegistrationConfiguration/trackingQualityGate``), after a
    /// fix: once the walked track determines the heading, the estimated scale error and yaw drift
    /// rate are compared with what the configured model lets them be (its priors and random
    /// walks so far, less what the estimate still does not know): a normalized square above the
    /// gate means the tracking is worse than modelled, and its noise is raised.
    mutating func checkTrackingQuality(time: Double) {
        guard !isTrackingNoiseRaised, headingFromTrack, let gate = configuration.trackingQualityGate else { return }
        let n = dimension, v = trackingModelVariance
        // A state the configuration holds fixed (a zero prior and random walk) adds nothing.
        let ds = Swift.max(v.x - p[Self.iS * n + Self.iS], 0.25 * v.x)
        let dw = Swift.max(v.y - p[Self.iW * n + Self.iW], 0.25 * v.y)
        let d2 = (ds > 0 ? x[Self.iS] * x[Self.iS] / ds : 0) + (dw > 0 ? x[Self.iW] * x[Self.iW] / dw : 0)
        guard d2 > gate else { return }
        isTrackingNoiseRaised = true
        summary.trackingNoiseRaisedAt = time
        events.append(.trackingNoiseRaised(time: time, scaleError: x[Self.iS], yawDriftRate: x[Self.iW] * Angle.degreesPerRadian * 60))
    }

    /// Moves the output toward the estimate at the configured rates, the translation's raised
    /// by `unseenSpeed` (m/s) while the tracking is not used and only the fixes move the device.
    mutating func advanceOutput(dt: Double, unseenSpeed: Double = 0) {
        let c = configuration
        let still = speed < c.stillSpeed
        let maxMove = ((still ? c.stillTranslationRate : c.movingTranslationRate) + unseenSpeed) * dt
        let maxTurn = (still ? c.stillRotationRate : c.movingRotationRate) * Angle.radiansPerDegree * dt
        let l = (lag * lag).sum().squareRoot()
        lag = l <= maxMove ? .zero : lag * ((l - maxMove) / l)
        lagPsi = Swift.abs(lagPsi) <= maxTurn ? 0 : lagPsi - (lagPsi < 0 ? -maxTurn : maxTurn)
    }

    // MARK: - Covariance propagation

    /// Propagates the covariance over the odometry accumulated since the last propagation.
    mutating func propagate(to time: Double) {
        guard !propagatedAt.isNaN else { propagatedAt = time; return }
        let T = Swift.max(0, time - propagatedAt)
        let c = noiseModel, n = dimension
        let scale = 1 + x[Self.iS]
        let phiB = Foundation.exp(-T / c.gnssCorrelationTime)
        let phiL = Foundation.exp(-T / c.gnssLongCorrelationTime)
        let phiC = Foundation.exp(-T / c.compassBiasTime)
        // P = F P Fᵀ in place, F = I except: rows E, N gain the odometry's dependence on ψ, s, ω
        // (when the heading is known), row U on s, row ψ on ω (T), and the GNSS and compass bias
        // rows decay. Rows (then columns) E, N, U are formed before row (column) ψ, whose old
        // values they use; the sums run in the order of a dense product skipping F's zeros, and
        // the lower triangle is the upper one mirrored, so the result is a dense F P Fᵀ's bit for bit.
        let rowE = SIMD3(scale * accPsi.x, accA.x, scale * accOmega.x)
        let rowN = SIMD3(scale * accPsi.y, accA.y, scale * accOmega.y)
        // Decay of states iBE…iLN (GNSS short part E, N, U, compass bias, GNSS long part E, N).
        let bias = SIMD8(phiB, phiB, phiB, phiC, phiL, phiL, 1, 1)
        p.withUnsafeMutableBufferPointer { q in
            // Left: P ← F P (rows).
            for j in 0..<n {
                if headingKnown {
                    q[Self.iE * n + j] = Self.odometryRow(q[Self.iE * n + j], rowE, q[Self.iPsi * n + j], q[Self.iS * n + j], q[Self.iW * n + j])
                    q[Self.iN * n + j] = Self.odometryRow(q[Self.iN * n + j], rowN, q[Self.iPsi * n + j], q[Self.iS * n + j], q[Self.iW * n + j])
                }
                if accUp != 0 { q[Self.iU * n + j] += accUp * q[Self.iS * n + j] }
                if headingKnown && T != 0 { q[Self.iPsi * n + j] += T * q[Self.iW * n + j] }
                for k in 0..<6 { q[(Self.iBE + k) * n + j] *= bias[k] }
            }
            // Right: P ← P Fᵀ (columns), upper triangle.
            for i in 0..<n {
                if headingKnown {
                    if i <= Self.iE { q[i * n + Self.iE] = Self.odometryRow(q[i * n + Self.iE], rowE, q[i * n + Self.iPsi], q[i * n + Self.iS], q[i * n + Self.iW]) }
                    if i <= Self.iN { q[i * n + Self.iN] = Self.odometryRow(q[i * n + Self.iN], rowN, q[i * n + Self.iPsi], q[i * n + Self.iS], q[i * n + Self.iW]) }
                }
                if accUp != 0 && i <= Self.iU { q[i * n + Self.iU] += q[i * n + Self.iS] * accUp }
                if headingKnown && T != 0 && i <= Self.iPsi { q[i * n + Self.iPsi] += q[i * n + Self.iW] * T }
                for k in 0..<6 where i <= Self.iBE + k { q[i * n + Self.iBE + k] *= bias[k] }
            }
            for i in 0..<n { for j in (i + 1)..<n { q[j * n + i] = q[i * n + j] } }
        }
        for k in 0..<6 { x[Self.iBE + k] *= bias[k] }
        // Process noise.
        let dist = accDistance
        let rad = Angle.radiansPerDegree
        let qPos = c.trackingPositionNoise * c.trackingPositionNoise * dist
        if headingKnown {
            p[Self.iE * n + Self.iE] += qPos; p[Self.iN * n + Self.iN] += qPos
            let qPsi = (c.trackingYawNoisePerRootMeter * rad) * (c.trackingYawNoisePerRootMeter * rad) * dist
                + (c.trackingYawNoisePerRootSecond * rad) * (c.trackingYawNoisePerRootSecond * rad) * T
            p[Self.iPsi * n + Self.iPsi] += qPsi
            let wq = c.yawDriftRateNoise * rad / 60 / Foundation.sqrt(60)
            p[Self.iW * n + Self.iW] += wq * wq * T
            let wm = configuration.yawDriftRateNoise * rad / 60 / Foundation.sqrt(60)
            trackingModelVariance.y += wm * wm * T
        } else {
            // Before the heading is known the position is not propagated: let it walk — at a
            // walker's 1.6 m/s, or by the tracked distance when that is farther (the direction
            // unknown, the distance is not). At the walker's rate alone a car that drove off
            // before its heading was known had ten fixes in a row rejected, reported as tracking
            // jumps, each clearing the courses that were to start the heading (GSDC 2020 drive).
            let walk = Swift.max(1.6 * T, dist)
            p[Self.iE * n + Self.iE] += walk * walk; p[Self.iN * n + Self.iN] += walk * walk
        }
        p[Self.iU * n + Self.iU] += qPos
        // Tracking interrupted (no sample for longer than ``trackingGapTime``): the device moves
        // unseen, so fixes meanwhile must be able to move the position (without this they were
        // rejected, and ten in a row counted as a tracking jump).
        if let s = lastSample {
            // From the last sample on (not from when the gap became one: a vehicle has gone
            // 140 m by then, and at a random walk from there its fixes were rejected ten in a row);
            // while the tracking is taken as diverged, from then on (what was walked before is
            // added when it is).
            let since = isTrackingStale(at: propagatedAt) ? propagatedAt : s.time
            let stale = isTrackingStale(at: time) ? time - since : 0
            if stale > 0 {
                let v = unseenSpeed * stale
                p[Self.iE * n + Self.iE] += v * v; p[Self.iN * n + Self.iN] += v * v; p[Self.iU * n + Self.iU] += v * v
            }
        }
        p[Self.iS * n + Self.iS] += c.scaleNoisePerRootMeter * c.scaleNoisePerRootMeter * dist
        trackingModelVariance.x += configuration.scaleNoisePerRootMeter * configuration.scaleNoisePerRootMeter * dist
        let (short, long) = c.gnssCorrelatedSigmas(lastGnssSigma)
        let qb = short * short * (1 - phiB * phiB), ql = long * long * (1 - phiL * phiL)
        p[Self.iBE * n + Self.iBE] += qb; p[Self.iBN * n + Self.iBN] += qb
        p[Self.iLE * n + Self.iLE] += ql; p[Self.iLN * n + Self.iLN] += ql
        // The vertical has one slow part (its whole correlated error, short τ).
        p[Self.iBU * n + Self.iBU] += c.gnssVerticalCorrelatedVariance(lastGnssSigma) * (1 - phiB * phiB)
        let sc = c.compassBiasSigma * rad
        p[Self.iBC * n + Self.iBC] += sc * sc * (1 - phiC * phiC)
        accA = .zero; accPsi = .zero; accOmega = .zero; accUp = 0; accDistance = 0
        propagatedAt = Swift.max(propagatedAt, time)
    }

    /// One odometry row of F times a column of P: `v + a.x ψ + a.y s + a.z ω`, each term only
    /// when its coefficient is nonzero (as a dense product skipping F's zeros sums them).
    @inline(__always)
    static func odometryRow(_ v: Double, _ a: SIMD3<Double>, _ psi: Double, _ s: Double, _ w: Double) -> Double {
        var r = v
        if a.x != 0 { r += a.x * psi }
        if a.y != 0 { r += a.y * s }
        if a.z != 0 { r += a.z * w }
        return r
    }

    mutating func addVariance(_ i: Int, _ v: Double) { p[i * dimension + i] += v }

    /// Changes the number of states to `d`, keeping the common states' mean and covariance
    /// (dropping the map slots marginalizes them out; added ones start free).
    mutating func setDimension(_ d: Int) {
        let old = dimension
        guard d != old else { return }
        let m = Swift.min(old, d)
        var nx = [Double](repeating: 0, count: d), np = [Double](repeating: 0, count: d * d)
        for i in 0..<m {
            nx[i] = x[i]
            for j in 0..<m { np[i * d + j] = p[i * old + j] }
        }
        x = nx; p = np
        resetMapSlots()
    }

    /// Every map slot free (their states are zero or gone: a new start or a new dimension).
    mutating func resetMapSlots() {
        mapSlots = SIMD2(-1, -1); mapSlotTimes = SIMD2(-.infinity, -.infinity)
    }

    /// Frees map slot `k`: its states 0 with no variance or correlation (inert until reused).
    mutating func clearMapSlot(_ k: Int) {
        let n = dimension
        for i in (Self.iM + 2 * k)...(Self.iM + 2 * k + 1) {
            x[i] = 0
            for j in 0..<n { p[i * n + j] = 0; p[j * n + i] = 0 }
        }
        mapSlots[k] = -1; mapSlotTimes[k] = -.infinity
    }

    // MARK: - Measurement update

    /// A measurement row H with one to four nonzero entries (state index, coefficient), held
    /// inline: a measurement update allocates nothing.
    struct Row {
        let count: Int
        let indices: SIMD4<Int>
        let coefficients: SIMD4<Double>
        init(_ i0: Int, _ a0: Double) { count = 1; indices = SIMD4(i0, 0, 0, 0); coefficients = SIMD4(a0, 0, 0, 0) }
        init(_ i0: Int, _ a0: Double, _ i1: Int, _ a1: Double) {
            count = 2; indices = SIMD4(i0, i1, 0, 0); coefficients = SIMD4(a0, a1, 0, 0)
        }
        init(_ i0: Int, _ a0: Double, _ i1: Int, _ a1: Double, _ i2: Int, _ a2: Double) {
            count = 3; indices = SIMD4(i0, i1, i2, 0); coefficients = SIMD4(a0, a1, a2, 0)
        }
        init(_ i0: Int, _ a0: Double, _ i1: Int, _ a1: Double, _ i2: Int, _ a2: Double, _ i3: Int, _ a3: Double) {
            count = 4; indices = SIMD4(i0, i1, i2, i3); coefficients = SIMD4(a0, a1, a2, a3)
        }
    }

    /// Innovation variance `H P Hᵀ + r`.
    func innovationVariance(_ h: Row, _ r: Double) -> Double { r + covariance(h, h) }

    /// Covariance of two measurement rows' predictions, `H₁ P H₂ᵀ`.
    func covariance(_ h1: Row, _ h2: Row) -> Double {
        var s = 0.0
        for k in 0..<h1.count { for l in 0..<h2.count { s += h1.coefficients[k] * h2.coefficients[l] * p[h1.indices[k] * dimension + h2.indices[l]] } }
        return s
    }

    /// Scalar Kalman update; records the change for output smoothing.
    /// - Returns: whether it was applied (false when the innovation variance is not a positive
    ///   finite number, e.g. an absurdly large observation variance overflowed).
    @discardableResult
    mutating func scalarUpdate(_ h: Row, innovation nu: Double, variance r: Double) -> Bool {
        let n = dimension
        // P Hᵀ: up to sixteen values on the stack (a measurement update allocates nothing);
        // the buffers unchecked, their size being n (x) and n² (p) by construction.
        return withUnsafeTemporaryAllocation(of: Double.self, capacity: Self.mapDimension) { ph in
            p.withUnsafeMutableBufferPointer { q in
                for i in 0..<n {
                    var s = 0.0
                    for k in 0..<h.count { s += q[i * n + h.indices[k]] * h.coefficients[k] }
                    ph[i] = s
                }
                var s = r
                for k in 0..<h.count { s += h.coefficients[k] * ph[h.indices[k]] }
                guard s > 0, s.isFinite else { return false }
                let before = SIMD4(x[Self.iE], x[Self.iN], x[Self.iU], x[Self.iPsi])
                x.withUnsafeMutableBufferPointer { v in for i in 0..<n { v[i] += ph[i] / s * nu } }
                for i in 0..<n { for j in 0..<n { q[i * n + j] -= ph[i] * ph[j] / s } }
                for i in 0..<n where q[i * n + i] < 1e-12 { q[i * n + i] = 1e-12 }
                let delta = SIMD4(x[Self.iE], x[Self.iN], x[Self.iU], x[Self.iPsi]) - before
                lag += SIMD3(delta[0], delta[1], delta[2])
                lagPsi += delta[3]
                return true
            }
        }
    }

    /// Applies the snap rule after a batch of updates.
    mutating func checkSnap(time: Double) {
        let l = (lag * lag).sum().squareRoot()
        let deg = Swift.abs(lagPsi) * Angle.degreesPerRadian
        if l > configuration.snapDistance || deg > configuration.snapAngle {
            events.append(.largeCorrection(time: time, meters: l, degrees: deg))
            summary.largeCorrections += 1
            lag = .zero; lagPsi = 0
        }
    }
}
