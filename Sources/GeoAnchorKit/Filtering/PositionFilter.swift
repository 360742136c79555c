import Foundation

/// A Kalman filter for phone GNSS fixes: position and velocity in a local East-North-Up frame,
/// height as its own channel.
///
/// **Model.** By default (``Configuration/adaptive``) the horizontal motion model adapts to the
/// data: an interacting multiple model over stationary, walking (white or Gauss–Markov correlated
/// fix errors) and vehicle modes (``MotionMode``); each estimate carries the probability of each
/// kind of motion (``LocalPositionEstimate/motion``). The profiles (``Configuration/walking``,
/// ``Configuration/cycling``, ``Configuration/driving``) are one-mode versions of the same model.
/// Each mode treats east and north as independent (position, velocity, bias) channels — *exact*,
/// not an approximation, as long as process and measurement noise are isotropic, which they are:
/// a `horizontalAccuracy` describes a circle, and speed/course enter with an isotropic σ (the
/// larger of the along- and cross-track σ, a conservative choice). A ``PathConstraint`` couples
/// the axes; the filter then runs one joint state with the configuration's
/// ``Configuration/pathMode``. Both are internal `HorizontalModel`s. The frame is a
/// ``LocalTangentFrame`` at the first fix (ellipsoid surface); its east/north are exact.
///
/// **Measurements.** Per-axis σ from `horizontalAccuracy` (68 % radius → σ, see
/// ``Configuration/horizontalSigmaPerAccuracy``), else `HDOP × UERE / √2`, else a default.
/// Speed and course become a velocity measurement; a reported speed near zero, a zero-velocity
/// one. Heights use `verticalAccuracy` (else `VDOP × UERE`, else 1.5 × horizontal σ) in the
/// fix's own vertical reference (the channel never mixes ellipsoidal and MSL heights). A height
/// beyond ±``Fix/maximumUsableHeight`` (100 km) or with a σ beyond
/// ``Fix/maximumUsableHorizontalAccuracy`` (100 km) is not used (counted in
/// ``PositionFilterStatistics/heightGated``); the fix's position still is.
///
/// **Robustness.** Horizontal, velocity and height innovations pass χ² Mahalanobis gates
/// (2, 2, 1 degrees of freedom). A gated fix leaves the position untouched and yields the
/// prediction. After ``Configuration/maximumConsecutiveRejections`` gated fixes in a row (or
/// ``Configuration/maximumRejectionInterval`` seconds without an accepted fix) the next fix that
/// also fails the gate re-initializes the filter on itself, so it never freezes on a stale
/// position; a gap longer than ``Configuration/maximumGap`` re-initializes too. Fixes with
/// NaN/out-of-range coordinates or times or a negative accuracy (CoreLocation's "invalid"),
/// timestamps going backwards and exact duplicates are refused without touching the state; every
/// case is counted in ``statistics``. When ``Configuration/clockResetFixCount`` fixes in a row go
/// backwards but forwards among themselves, the filter's own time was wrong (a fix from the
/// future, a receiver clock reset): it re-initializes on the last of them (status
/// ``LocalPositionEstimate/Status/clockReset``, counted in
/// ``PositionFilterStatistics/clockResets``), so no clock error locks it out.
///
/// **Stationary mode.** When the receiver reports a speed below
/// ``Configuration/stationarySpeedThreshold`` on ``Configuration/stationaryFixCount``
/// consecutive fixes, or when ``stationaryOverride`` is `true`, each step adds a zero-velocity
/// pseudo-measurement, which stops the random walk of a parked estimate.
///
/// - Accuracy: the per-step Kalman algebra matches FilterPy to 1e-9 (test suite). Measured with
///   `FilterAccuracyComparison` (GeoAnchorKitSimulation; test suite and `geobench report`), RMSE / p95 change against
///   the raw fixes, adaptive default: simulated `traces/zavist-tour` −44 % / −31 %, `city-walk`
///   −25 % / −22 % (walking preset −44 % / −31 %, −23 % / −25 %); a simulated walk → tram ride →
///   walk −13 … −28 % / −16 … −19 % (walking preset +160 … +380 %); GSDC 2020 chipset drives
///   −4 … +3 % / −19 … +0.4 % (the phone's output is already filtered); with the tour's path as a
///   ``PathConstraint`` (default configuration) −58 % / −42 % and −54 % / −49 % (walking preset
///   −55 % / −46 % and −52 % / −50 %).
/// - Complexity: O(1) per fix without a path (see `Benchmarks/` Filtering for steps/s; measured on
///   one core of a shared 2-core x86-64 machine: adaptive default ≈ 2 M steps/s, one-mode
///   walking preset ≈ 8 M steps/s, estimated from the ≈ 1.4× and ≈ 1.5× speed-ups over the
///   earlier 1.4 M and 5.5 M measured alternately against the previous code, see README); with a path a grid lookup of the nearby path segments plus an
///   8-state joint update (≈ 2.6 µs).
public struct PositionFilter: Sendable {
    /// The tuning in use.
    public let configuration: Configuration
    /// The local frame (origin: the first valid fix, on the ellipsoid); nil before the first fix.
    public private(set) var frame: LocalTangentFrame?
    /// What the filter has done so far.
    public var statistics: PositionFilterStatistics { core.statistics }
    /// `true` forces zero-velocity updates, `false` forbids them, `nil` (default) decides from
    /// the reported speed.
    public var stationaryOverride: Bool? {
        get { core.stationaryOverride }
        set { core.stationaryOverride = newValue }
    }
    /// The constraint (nil: none).
    public let path: PathConstraint?
    /// The last fix or measurement the filter refused, with the reason (see ``InputRefusal``);
    /// nil until one is. Each refusal is also counted in ``statistics``.
    public private(set) var lastRefusal: InputRefusal?
    /// Called with every refused fix or measurement (see ``InputRefusal``); nil by default.
    public var onRefusal: InputRefusalHandler?

    /// Everything but the horizontal state: counters, times, streaks, the height channel.
    var core: StepCore
    /// The horizontal model without a path: the configuration's motion modes.
    var modes: ModeMixture
    /// The horizontal model with a path (then `modes` is unused).
    var joint: JointPathModel?
    /// Whether `joint` is live (stored: testing the optional copies the whole joint model).
    let usesJoint: Bool
    /// The motion probabilities of the path model's one mode (stored: the hot path would copy
    /// the whole configuration to read ``Configuration/pathMode``).
    let pathMotion: MotionProbabilities

    /// Creates a filter, optionally constrained to a known walking path (``PathConstraint``).
    ///
    /// The path takes effect from the first fix given to ``process(_:)`` or
    /// ``measurement(from:)`` (which create the frame it is converted into); a filter fed only
    /// through ``step(_:)`` has no frame and runs unconstrained (its joint state is still used).
    /// With a path the filter runs one motion mode, ``Configuration/pathMode``.
    ///
    /// - Precondition: `configuration` passes ``Configuration/validate()``. A configuration
    ///   that fails it is a programmer error (the filter stops with the error's message, e.g.
    ///   `gateProbability 2.0 is outside (0, 1]`); call ``Configuration/validate()`` first when it
    ///   comes from outside (options, a settings screen). A decoded configuration is checked
    ///   when decoded.
    public init(configuration: Configuration = .adaptive, path: PathConstraint? = nil) {
        Self.requireValid(configuration)
        self.configuration = configuration
        self.path = path
        core = StepCore(configuration: configuration)
        modes = ModeMixture(modes: path == nil ? configuration.motionModes : [configuration.pathMode], configuration: configuration)
        joint = path.map { JointPathModel(mode: configuration.pathMode, path: $0, configuration: configuration) }
        usesJoint = path != nil
        pathMotion = MotionProbabilities(configuration.pathMode.kind)
    }

    /// Stops with ``Configuration/validate()``'s message when `configuration` fails it (a
    /// programmer error: a configuration from outside is validated first, a decoded one when decoded).
    static func requireValid(_ configuration: Configuration) {
        GeoAnchorKit.requireValid("PositionFilter.Configuration") { () throws(GeoAnchorError) in try configuration.validate() }
    }

    /// Creates a filter with a profile's preset configuration.
    public init(profile: MotionProfile) { self.init(configuration: .profile(profile)) }

    /// Whether the filter holds an estimate.
    public var isInitialized: Bool { core.initialized }

    /// Current estimate in the local frame (nil before the first fix).
    public var localEstimate: LocalPositionEstimate? {
        core.initialized ? estimate(time: core.lastTime, status: .predicted, d2: .nan) : nil
    }

    /// The current probability of each kind of motion (the adaptive model's mode probabilities;
    /// a one-mode configuration gives its mode's kind probability 1).
    public var motionProbabilities: MotionProbabilities {
        @inline(__always) get {
            usesJoint ? pathMotion : MotionProbabilities(modes)
        }
    }

    // MARK: geodetic entry point

    /// Processes one fix and returns the filtered fix at its time.
    ///
    /// - Returns: nil when the fix was refused without producing an estimate (invalid values,
    ///   time going backwards, an exact duplicate): the reason is counted in ``statistics``, kept
    ///   in ``lastRefusal`` and passed to ``onRefusal`` (the policy of ``InputRefusal``).
    ///   A fix rejected by the gate still yields the filter's prediction, with
    ///   ``FilteredFix/status`` `.gated`.
    public mutating func process(_ fix: Fix) -> FilteredFix? {
        guard let m = measurement(from: fix) else { return nil }
        guard let e = step(m) else { return nil }
        return filteredFix(e)
    }

    /// Converts a fix into a local measurement (creating the frame on the first valid fix);
    /// nil (counted as invalid) when its values cannot be used.
    public mutating func measurement(from fix: Fix) -> LocalMeasurement? {
        if let e = fix.unusablePositionValue {
            core.statistics.invalid += 1
            refuse(InputRefusal(reason: .invalidValue, time: fix.time, error: e))
            return nil
        }
        if frame == nil {
            frame = try? LocalTangentFrame(origin: GeodeticCoordinate(latitude: fix.latitude, longitude: fix.longitude,
                                                                      ellipsoidalHeight: 0))
        }
        guard let frame else {
            core.statistics.invalid += 1
            refuse(InputRefusal(reason: .invalidValue, time: fix.time, error: .invalidLatitude(fix.latitude)))
            return nil
        }
        if usesJoint, joint!.localPath == nil, let path { joint!.localPath = path.local(in: frame) }
        let p = frame.enu(latitude: fix.latitude, longitude: fix.longitude, ellipsoidalHeight: 0)
        let c = configuration
        let sigma = Self.horizontalSigma(of: fix, configuration: c)
        var m = LocalMeasurement(time: fix.time, east: p.east, north: p.north, horizontalSigma: sigma)
        if let h = fix.height, h.isFinite {
            // A negative vertical accuracy marks the height invalid (CoreLocation).
            if !(fix.verticalAccuracy.map { $0 < 0 } ?? false) {
                m.height = h
                m.heightSigma = Self.heightSigma(of: fix, horizontalSigma: sigma, configuration: c)
                m.verticalReference = fix.verticalReference
            }
        }
        if c.usesSpeedAndCourse, let s = fix.speed, s >= 0, s.isFinite {
            m.speed = s
            if let course = fix.course, course >= 0, course.isFinite { m.course = course }
        }
        return m
    }

    mutating func refuse(_ r: InputRefusal) {
        lastRefusal = r
        onRefusal?(r)
    }

    /// Per-axis horizontal σ (m) of a fix under `configuration`: from `horizontalAccuracy`, else
    /// HDOP × UERE / √2, else the default; at least the configured minimum. `inflation` replaces
    /// ``Configuration/accuracyInflation`` (which, like it, applies only to a stated accuracy).
    static func horizontalSigma(of fix: Fix, configuration c: Configuration, inflation: Double? = nil) -> Double {
        var sigma: Double
        if let a = fix.horizontalAccuracy, a > 0 {
            sigma = a * c.horizontalSigmaPerAccuracy * (inflation ?? c.accuracyInflation)
        } else if let h = fix.hdopHorizontalSigma(userEquivalentRangeError: c.userEquivalentRangeError) {
            sigma = h
        } else {
            sigma = c.defaultHorizontalSigma
        }
        return max(sigma, c.minimumHorizontalSigma)
    }

    /// Height σ (m) of a fix: from `verticalAccuracy`, else VDOP × UERE, else 1.5 × the
    /// horizontal σ; at least the configured minimum. (Not bounded above here: the step drops a
    /// height whose σ exceeds ``Fix/maximumUsableHorizontalAccuracy``.)
    static func heightSigma(of fix: Fix, horizontalSigma sigma: Double, configuration c: Configuration) -> Double {
        var vs: Double
        if let v = fix.verticalAccuracy, v > 0, v.isFinite {
            vs = v * c.verticalSigmaPerAccuracy
        } else if let v = fix.vdop, v > 0, v.isFinite {
            vs = v * c.userEquivalentRangeError
        } else {
            vs = 1.5 * sigma
        }
        return max(vs, c.minimumHorizontalSigma)
    }

    /// Converts a local estimate back to a geodetic filtered fix.
    /// - Precondition: the filter has a frame (it has seen a valid fix).
    public func filteredFix(_ e: LocalPositionEstimate) -> FilteredFix {
        guard let frame else { preconditionFailure("filteredFix(_:) before the first fix") }
        return Self.filteredFix(e, frame: frame, configuration: configuration)
    }

    /// Converts a local estimate in `frame` to a geodetic filtered fix.
    ///
    /// The horizontal state describes points on the ellipsoid (h = 0). The frame's up of such a
    /// point is `≈ −d²/2R` (d its distance from the origin); converting `(e, n, −d²/2R)` leaves a
    /// height residual `h` that moves the latitude/longitude by only `≈ h·d/R` (the tilt of the
    /// normal), so one Newton step on `up` is taken only when that exceeds 1e-7 m.
    public static func filteredFix(_ e: LocalPositionEstimate, frame: LocalTangentFrame, configuration: Configuration) -> FilteredFix {
        let d2 = e.east * e.east + e.north * e.north
        var up = -d2 / (2 * 6_371_000.0)
        var g = frame.geodetic(east: e.east, north: e.north, up: up)
        for _ in 0..<3 where abs(g.ellipsoidalHeight) * d2.squareRoot() > 1e-7 * 6_300_000 {
            up -= g.ellipsoidalHeight
            g = frame.geodetic(east: e.east, north: e.north, up: up)
        }
        let toAccuracy = 1 / configuration.horizontalSigmaPerAccuracy
        let speed = (e.velocityEast * e.velocityEast + e.velocityNorth * e.velocityNorth).squareRoot()
        return FilteredFix(time: e.time, latitude: g.latitude, longitude: g.longitude,
                           height: e.height, verticalReference: e.verticalReference ?? .ellipsoid,
                           horizontalAccuracy: e.horizontalSigma * toAccuracy,
                           verticalAccuracy: e.heightSigma.map { $0 / configuration.verticalSigmaPerAccuracy },
                           speed: speed,
                           course: speed > 1e-3 ? Angle.normalizeHeading(Angle.atan2Degrees(e.velocityEast, e.velocityNorth)) : nil,
                           local: e)
    }

    // MARK: local step

    /// Processes one measurement in the local frame: predicts to its time, gates and applies it.
    ///
    /// - Returns: the estimate at the measurement's time, or nil when the measurement was
    ///   refused without an estimate (non-finite values, a time outside ``Fix/earliestTime``…``Fix/latestTime``
    ///   (years 0001…9999), a σ beyond ``Fix/maximumUsableHorizontalAccuracy``, time going backwards, exact duplicate;
    ///   counted, kept in ``lastRefusal``, passed to ``onRefusal``).
    public mutating func step(_ m: LocalMeasurement) -> LocalPositionEstimate? {
        guard let info = advance(m) else { refuse(core.refusal(of: m)); return nil }
        return estimate(time: m.time, status: info.status, d2: info.mahalanobisSquared)
    }

    /// What one ``advance(_:)`` did (small, so the hot path copies little).
    struct StepInfo {
        var status: LocalPositionEstimate.Status
        var mahalanobisSquared: Double
        var dt: Double
        var startsSegment: Bool
        var heightStartsSegment: Bool
    }

    /// The step proper, on whichever horizontal model is live. (Inlined, like ``estimate(time:status:d2:)``:
    /// called out of line each copied the whole filter, several KiB, on every step.)
    @inline(__always)
    mutating func advance(_ m: LocalMeasurement) -> StepInfo? {
        if usesJoint {
            let info = core.advance(&joint!, m)
            if let info { core.statistics.addMotion(pathMotion, dt: info.dt) }
            return info
        }
        let info = core.advance(&modes, m)
        if let info { core.statistics.addMotion(MotionProbabilities(modes), dt: info.dt) }
        return info
    }

    /// The estimate of the live horizontal model. Everything it reads is inlined field access:
    /// a call that needs the address of a part of the filter (the checked unwrap of `joint`, an
    /// out-of-line getter) made the step copy that part, or the whole filter, on every step.
    @inline(__always)
    func estimate(time: Double, status: LocalPositionEstimate.Status, d2: Double) -> LocalPositionEstimate {
        if usesJoint {
            // `joint` is non-nil whenever `usesJoint` is (set together in init).
            let (east, north) = joint.unsafelyUnwrapped.marginals
            return core.estimate(east: east, north: north, time: time, status: status, d2: d2, motion: pathMotion)
        }
        let (east, north) = modes.marginals
        return core.estimate(east: east, north: north, time: time, status: status, d2: d2, motion: MotionProbabilities(modes))
    }
}

/// The model-independent part of ``PositionFilter``'s step: validation, (re-)initialization,
/// gating and recovery, the velocity and zero-velocity measurements, the height channel and the
/// statistics. The horizontal model is a parameter (``HorizontalModel``), so this is written once.
struct StepCore: Sendable {
    let configuration: PositionFilter.Configuration
    let gate1: Double, gate2: Double
    var statistics = PositionFilterStatistics()
    var stationaryOverride: Bool?
    var height = KalmanFilter2(x: .zero, P: .zero)
    /// The height channel's prediction of the latest step (before its update), for the smoother.
    var predictedHeight = KalmanFilter2(x: .zero, P: .zero)
    var heightReference: VerticalReference?
    var hasHeight = false
    var initialized = false
    var lastTime = -Double.infinity
    var lastAcceptedTime = -Double.infinity
    var lastEast = Double.nan, lastNorth = Double.nan
    var rejectionStreak = 0
    var slowStreak = 0
    /// κ_c σ² of the latest accepted fix (``PositionFilter/Configuration/correlatedErrorShare``):
    /// the floor of the reported variance.
    var correlatedVariance = 0.0
    /// Fixes refused as going backwards (for ``PositionFilter/Configuration/clockResetFixCount``).
    var clock = ClockResetDetector()

    init(configuration c: PositionFilter.Configuration) {
        configuration = c
        gate1 = c.gate1
        gate2 = c.gate2
        statistics.gateThreshold = gate2
    }

    /// Why ``advance(_:_:)`` refused `m` (the same tests, in the same order).
    func refusal(of m: LocalMeasurement) -> InputRefusal {
        if !Fix.isUsableTime(m.time) { return InputRefusal(reason: .invalidValue, time: m.time, error: Fix.timeOutOfRange(m.time)) }
        if !m.east.isFinite { return InputRefusal(reason: .invalidValue, time: m.time, error: .nonFinite(name: "east", value: m.east)) }
        if !m.north.isFinite { return InputRefusal(reason: .invalidValue, time: m.time, error: .nonFinite(name: "north", value: m.north)) }
        if !(m.horizontalSigma > 0 && m.horizontalSigma <= Fix.maximumUsableHorizontalAccuracy) {
            return InputRefusal(reason: .invalidValue, time: m.time,
                                error: .outOfRange(name: "horizontalSigma", value: m.horizontalSigma,
                                                   allowed: ValueRange(lower: .exclusive(0), upper: .inclusive(Fix.maximumUsableHorizontalAccuracy), unit: "m")))
        }
        if m.time < lastTime {
            return InputRefusal(reason: .outOfOrder, time: m.time,
                                error: .outOfRange(name: "time (must not go backwards)", value: m.time, allowed: .atLeast(lastTime, unit: "s")))
        }
        return InputRefusal(reason: .duplicate, time: m.time)
    }

    mutating func advance<H: HorizontalModel>(_ h: inout H, _ m: LocalMeasurement) -> PositionFilter.StepInfo? {
        guard Fix.isUsableTime(m.time), m.east.isFinite, m.north.isFinite, m.horizontalSigma > 0, m.horizontalSigma <= Fix.maximumUsableHorizontalAccuracy else {
            statistics.invalid += 1
            return nil
        }
        var clockReset = false
        if m.time < lastTime {
            // A streak of fixes going backwards but forwards among themselves: after
            // clockResetFixCount of them, the filter's own time is what is wrong.
            guard clock.refused(m.time, latest: lastTime, count: configuration.clockResetFixCount, minimumJump: 0) else {
                statistics.outOfOrder += 1
                return nil
            }
            clockReset = true
        }
        if m.time == lastTime && m.east == lastEast && m.north == lastNorth { statistics.duplicates += 1; return nil }
        clock.accepted()
        statistics.fixes += 1
        let r = m.horizontalSigma * m.horizontalSigma

        // (Re-)initialization: first fix, clock reset, long gap.
        var reason: LocalPositionEstimate.Status? = nil
        if !initialized {
            reason = .initialized
        } else if clockReset {
            reason = .clockReset
            statistics.clockResets += 1
        } else if m.time - lastTime > configuration.maximumGap {
            reason = .reinitializedAfterGap
            statistics.gapReinitializations += 1
        }
        if let reason {
            initialize(&h, m, r: r)
            statistics.accepted += 1
            predictedHeight = height
            return .init(status: reason, mahalanobisSquared: .nan, dt: 0, startsSegment: true, heightStartsSegment: hasHeight)
        }

        let dt = m.time - lastTime
        // Velocity from speed/course (Doppler: independent of the position error, so it is
        // applied even when the position is gated — a coasting filter then still follows the
        // speed), or zero velocity when stationary; between the prediction and the position's
        // innovation (2-DOF gate statistic), which are otherwise formed in one pass.
        let d2: Double
        if m.speed != nil || stationaryOverride == true || slowStreak > 0 {
            h.predict(dt: dt)
            applyVelocity(&h, m)
            d2 = h.positionInnovation(east: m.east, north: m.north, noise: r)
        } else {
            d2 = h.predictInnovation(dt: dt, east: m.east, north: m.north, noise: r)
        }
        if hasHeight { height.predictConstantVelocity(dt: dt, q: configuration.verticalAccelerationSpectralDensity) }
        predictedHeight = height
        lastTime = m.time

        // Horizontal position: the gate.
        var status = LocalPositionEstimate.Status.updated
        if d2 > gate2 || !d2.isFinite {
            if rejectionStreak >= h.maximumConsecutiveRejections ?? configuration.maximumConsecutiveRejections
                || m.time - lastAcceptedTime > configuration.maximumRejectionInterval {
                // Another fix outside the gate after a streak: the filter, not the fixes, is
                // wrong (a real jump, a stale state). Start over on this fix.
                initialize(&h, m, r: r)
                statistics.recoveries += 1
                statistics.accepted += 1
                predictedHeight = height
                return .init(status: .recovered, mahalanobisSquared: d2, dt: dt, startsSegment: true, heightStartsSegment: hasHeight)
            }
            h.rejectPosition(gate: gate2)
            rejectionStreak += 1
            statistics.gated += 1
            status = .gated
        } else {
            h.applyPosition()
            correlatedVariance = configuration.correlatedErrorShare * r
            rejectionStreak = 0
            lastAcceptedTime = m.time
            lastEast = m.east; lastNorth = m.north
            statistics.accepted += 1
            statistics.sumMahalanobisSquared += d2
        }

        if let applied = h.applyPath(fixEast: m.east, fixNorth: m.north, sigma: m.horizontalSigma,
                                     fixAccepted: status == .updated, gate: gate1) {
            if applied { statistics.pathUpdates += 1 } else { statistics.pathSkipped += 1 }
        }

        // Height channel.
        var heightStarts = false
        if status == .updated, let (z, hs) = usableHeight(m) {
            if !hasHeight || heightReference != m.verticalReference {
                height = KalmanFilter2(x: SIMD2(z, 0), variances: SIMD2(hs * hs, 0.25))
                heightReference = m.verticalReference
                hasHeight = true
                heightStarts = true
            } else {
                let rh = hs * hs
                let ih = height.componentInnovation(0, measurement: z, noise: rh)
                if ih.innovation * ih.innovation <= gate1 * ih.variance, height.updateComponent(0, innovation: ih.innovation, noise: rh) {
                    statistics.heightUpdates += 1
                } else {
                    statistics.heightGated += 1
                }
            }
        }
        return .init(status: status, mahalanobisSquared: d2, dt: dt, startsSegment: false, heightStartsSegment: heightStarts)
    }

    /// The measurement's height and its σ when the height channel can use them: both present,
    /// |height| ≤ ``Fix/maximumUsableHeight`` and 0 < σ ≤ ``Fix/maximumUsableHorizontalAccuracy``
    /// (100 km each). A height beyond is counted in ``PositionFilterStatistics/heightGated`` and
    /// not used; the fix's horizontal part is (before the bound, a first fix at 1e20 m, or with
    /// σ 1e200 m, initialized the channel there and every later height was gated).
    @inline(__always)
    mutating func usableHeight(_ m: LocalMeasurement) -> (Double, Double)? {
        guard let z = m.height, let hs = m.heightSigma else { return nil }
        guard Swift.abs(z) <= Fix.maximumUsableHeight, hs > 0, hs <= Fix.maximumUsableHorizontalAccuracy else {
            statistics.heightGated += 1
            return nil
        }
        return (z, hs)
    }

    /// Makes the next step a fresh start whatever its time (a second forward pass under the
    /// smoother follows the causal filter's clock reset this way: it never sees the fixes the
    /// causal filter refused before it).
    mutating func restartClock() {
        initialized = false
        lastTime = -.infinity
        clock.accepted()
    }

    mutating func applyVelocity<H: HorizontalModel>(_ h: inout H, _ m: LocalMeasurement) {
        let c = configuration
        var stationary = false
        if let s = m.speed {
            slowStreak = s < c.stationarySpeedThreshold ? slowStreak + 1 : 0
            stationary = c.stationaryFixCount > 0 && slowStreak >= c.stationaryFixCount
        } else {
            slowStreak = 0
        }
        if let o = stationaryOverride { stationary = o }
        if stationary {
            let rz = c.stationaryVelocitySigma * c.stationaryVelocitySigma
            _ = h.updateVelocity(east: 0, north: 0, noise: rz, gate: .infinity)
            statistics.stationarySteps += 1
            return
        }
        guard let s = m.speed else { return }
        var ve = 0.0, vn = 0.0, sv: Double
        if s >= c.courseMinimumSpeed, let course = m.course {
            let (sn, cs) = Angle.sincos(degrees: course)
            ve = s * sn; vn = s * cs
            let cross = s * c.courseSigma * Angle.radiansPerDegree
            sv = max(c.speedSigma, cross)
        } else if s < c.courseMinimumSpeed {
            // Direction unknown: the speed bounds the velocity around zero.
            sv = (c.speedSigma * c.speedSigma + s * s).squareRoot()
        } else {
            return
        }
        if h.updateVelocity(east: ve, north: vn, noise: sv * sv, gate: gate2) {
            statistics.velocityUpdates += 1
        } else {
            statistics.velocityGated += 1
        }
    }

    mutating func initialize<H: HorizontalModel>(_ h: inout H, _ m: LocalMeasurement, r: Double) {
        let sv = configuration.initialVelocitySigma
        h.reset(east: m.east, north: m.north, noise: r, velocityVariance: sv * sv)
        hasHeight = false
        heightReference = nil
        if let (z, hs) = usableHeight(m) {
            height = KalmanFilter2(x: SIMD2(z, 0), variances: SIMD2(hs * hs, 0.25))
            heightReference = m.verticalReference
            hasHeight = true
        }
        initialized = true
        correlatedVariance = configuration.correlatedErrorShare * r
        lastTime = m.time
        lastAcceptedTime = m.time
        lastEast = m.east; lastNorth = m.north
        rejectionStreak = 0
        slowStreak = 0
        if configuration.usesSpeedAndCourse { applyVelocity(&h, m) }
    }

    @inline(__always)
    func estimate(east: KalmanFilter2, north: KalmanFilter2, time: Double, status: LocalPositionEstimate.Status, d2: Double,
                  motion: MotionProbabilities) -> LocalPositionEstimate {
        var e = LocalPositionEstimate(time: time, east: east.x[0], north: north.x[0],
                                      velocityEast: east.x[1], velocityNorth: north.x[1],
                                      horizontalSigma: Swift.max(0.5 * (east.P[0] + north.P[0]), correlatedVariance).squareRoot(),
                                      height: hasHeight ? height.x[0] : nil,
                                      heightSigma: hasHeight ? height.P[0].squareRoot() : nil,
                                      verticalReference: heightReference,
                                      status: status, mahalanobisSquared: d2)
        e.motion = motion
        e.correlatedSigma = correlatedVariance.squareRoot()
        return e
    }
}
