import Foundation

/// A Kalman filter for phone GNSS fixes: position and velocity in a local East-North-Up frame,
/// height as its own channel.
///
/// **Model.** Each of east, north and height is an independent constant-velocity channel
/// (``ConstantVelocityModel``, a ``KalmanFilter2``) with acceleration spectral density from
/// the ``Configuration``. Treating east and north separately is *exact*, not an approximation,
/// as long as process and measurement noise are isotropic — which they are: a
/// `horizontalAccuracy` describes a circle, and speed/course enter with an isotropic σ (the
/// larger of the along- and cross-track σ, a conservative choice). The frame is a
/// ``LocalTangentFrame`` at the first fix (ellipsoid surface); its east/north are exact.
///
/// **Measurements.** Per-axis σ from `horizontalAccuracy` (68 % radius → σ, see
/// ``Configuration/horizontalSigmaPerAccuracy``), else `HDOP × UERE / √2`, else a default.
/// Speed and course become a velocity measurement; a reported speed near zero, a zero-velocity
/// one. Heights use `verticalAccuracy` (else `VDOP × UERE`, else 1.5 × horizontal σ) in the
/// fix's own vertical reference (the channel never mixes ellipsoidal and MSL heights).
///
/// **Robustness.** Horizontal, velocity and height innovations pass χ² Mahalanobis gates
/// (2, 2, 1 degrees of freedom). A gated fix leaves the position untouched and yields the
/// prediction. After ``Configuration/maximumConsecutiveRejections`` gated fixes in a row (or
/// ``Configuration/maximumRejectionInterval`` seconds without an accepted fix) the next fix that
/// also fails the gate re-initializes the filter on itself, so it never freezes on a stale
/// position; a gap longer than ``Configuration/maximumGap`` re-initializes too. Fixes with
/// NaN/out-of-range coordinates or a negative accuracy (CoreLocation's "invalid"), timestamps
/// going backwards and exact duplicates are refused without touching the state; every case is
/// counted in ``statistics``.
///
/// **Stationary mode.** When the receiver reports a speed below
/// ``Configuration/stationarySpeedThreshold`` on ``Configuration/stationaryFixCount``
/// consecutive fixes, or when ``stationaryOverride`` is `true`, each step adds a zero-velocity
/// pseudo-measurement, which stops the random walk of a parked estimate.
///
/// - Accuracy: the per-step Kalman algebra matches FilterPy to 1e-9 (test suite). Measured with
///   ``FilterAccuracyComparison`` (test suite and `geobench report`), walking preset, RMSE / p95
///   change against the raw fixes: simulated `traces/zavist-tour` −44 % / −31 %, `city-walk`
///   −23 % / −25 % (their errors are dominated by slowly varying biases; the bias state
///   separates them only as far as the Doppler velocity allows); with the tour's path as a
///   ``PathConstraint`` −55 % / −46 % and −52 % / −50 %; GSDC 2020 chipset traces (driving,
///   UERE 2 m) within ±4 % RMSE and ≤ +0.02 m p95 of raw (the phone's output is already filtered).
/// - Complexity: O(1) per fix without a path (13 M local steps/s on one core, release); with a
///   path a grid lookup of the nearby path segments plus an 8-state joint update (≈ 2.6 µs).
public struct PositionFilter: Sendable {
    /// The tuning in use.
    public let configuration: Configuration
    /// The local frame (origin: the first valid fix, on the ellipsoid); nil before the first fix.
    public private(set) var frame: LocalTangentFrame?
    /// What the filter has done so far.
    public private(set) var statistics = PositionFilterStatistics()
    /// `true` forces zero-velocity updates, `false` forbids them, `nil` (default) decides from
    /// the reported speed.
    public var stationaryOverride: Bool?

    @usableFromInline var east = KalmanFilter2(x: .zero, P: .zero)
    @usableFromInline var north = KalmanFilter2(x: .zero, P: .zero)
    @usableFromInline var height = KalmanFilter2(x: .zero, P: .zero)
    // The channels' predictions of the latest step (before its updates), for the smoother.
    var predictedEast = KalmanFilter2(x: .zero, P: .zero)
    var predictedNorth = KalmanFilter2(x: .zero, P: .zero)
    var predictedHeight = KalmanFilter2(x: .zero, P: .zero)
    // Bias-augmented horizontal channels (p, v, b) when `configuration.biasTimeConstant` is set;
    // `east`/`north` then hold their (p, v) marginals.
    var eastBias = KalmanFilter3(x: .zero, P: .zero)
    var northBias = KalmanFilter3(x: .zero, P: .zero)
    let biasTau: Double?
    var cachedBiasDt = Double.nan, cachedBiasPhi = 1.0
    /// Joint horizontal state (east, north, v_east, v_north, b_east, b_north and two unused
    /// padding states kept at unit variance) when a path constraint couples the axes;
    /// `east`/`north` then hold its marginals.
    var joint = KalmanFilter8(x: .zero, P: .zero)
    var predictedJoint = KalmanFilter8(x: .zero, P: .zero)
    let usesJoint: Bool
    /// The constraint (nil: none); its lines in the frame once the frame exists.
    public let path: PathConstraint?
    var localPath: LocalPath?
    @usableFromInline var heightReference: VerticalReference?
    @usableFromInline var hasHeight = false
    @usableFromInline var initialized = false
    @usableFromInline var lastTime = -Double.infinity
    @usableFromInline var lastAcceptedTime = -Double.infinity
    @usableFromInline var lastEast = Double.nan, lastNorth = Double.nan
    @usableFromInline var rejectionStreak = 0
    @usableFromInline var slowStreak = 0
    @usableFromInline let gate1: Double
    @usableFromInline let gate2: Double

    /// Creates a filter, optionally constrained to a known walking path (``PathConstraint``).
    ///
    /// The path takes effect from the first fix given to ``process(_:)`` or
    /// ``measurement(from:)`` (which create the frame it is converted into); a filter fed only
    /// through ``step(_:)`` has no frame and runs unconstrained (its joint state is still used).
    public init(configuration: Configuration = .walking, path: PathConstraint? = nil) {
        self.configuration = configuration
        self.path = path
        self.usesJoint = path != nil
        self.gate1 = configuration.gate1
        self.gate2 = configuration.gate2
        self.biasTau = configuration.biasTimeConstant.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        statistics.gateThreshold = gate2
    }

    /// Creates a filter with a profile's preset configuration.
    public init(profile: MotionProfile) { self.init(configuration: .profile(profile)) }

    /// Whether the filter holds an estimate.
    public var isInitialized: Bool { initialized }

    /// Current estimate in the local frame (nil before the first fix).
    public var localEstimate: LocalPositionEstimate? {
        initialized ? estimate(time: lastTime, status: .predicted, d2: .nan) : nil
    }

    // MARK: geodetic entry point

    /// Processes one fix and returns the filtered fix at its time.
    ///
    /// - Returns: nil when the fix was refused without producing an estimate (invalid values,
    ///   time going backwards, an exact duplicate); the reason is counted in ``statistics``.
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
        guard fix.time.isFinite, fix.latitude.isFinite, abs(fix.latitude) <= 90, fix.longitude.isFinite,
              !(fix.horizontalAccuracy.map { !($0 >= 0) || !$0.isFinite } ?? false) else {
            statistics.invalid += 1
            return nil
        }
        if frame == nil {
            frame = try? LocalTangentFrame(origin: GeodeticCoordinate(latitude: fix.latitude, longitude: fix.longitude,
                                                                      ellipsoidalHeight: 0))
        }
        guard let frame else { statistics.invalid += 1; return nil }
        if localPath == nil, let path { localPath = path.local(in: frame) }
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

    /// Per-axis horizontal σ (m) of a fix under `configuration`: from `horizontalAccuracy`, else
    /// HDOP × UERE / √2, else the default; at least the configured minimum.
    static func horizontalSigma(of fix: Fix, configuration c: Configuration) -> Double {
        var sigma: Double
        if let a = fix.horizontalAccuracy, a > 0 {
            sigma = a * c.horizontalSigmaPerAccuracy * c.accuracyInflation
        } else if let h = fix.hdop, h > 0, h.isFinite {
            sigma = h * c.userEquivalentRangeError / 2.0.squareRoot()
        } else {
            sigma = c.defaultHorizontalSigma
        }
        return max(sigma, c.minimumHorizontalSigma)
    }

    /// Height σ (m) of a fix: from `verticalAccuracy`, else VDOP × UERE, else 1.5 × the
    /// horizontal σ; at least the configured minimum.
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
    ///   refused without an estimate (non-finite values, time going backwards, exact duplicate).
    public mutating func step(_ m: LocalMeasurement) -> LocalPositionEstimate? {
        guard let info = advance(m) else { return nil }
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

    /// The step proper. Leaves the channel predictions in `predicted…` for the smoother.
    mutating func advance(_ m: LocalMeasurement) -> StepInfo? {
        guard m.time.isFinite, m.east.isFinite, m.north.isFinite, m.horizontalSigma > 0, m.horizontalSigma.isFinite else {
            statistics.invalid += 1
            return nil
        }
        if m.time < lastTime { statistics.outOfOrder += 1; return nil }
        if m.time == lastTime && m.east == lastEast && m.north == lastNorth { statistics.duplicates += 1; return nil }
        statistics.fixes += 1
        var r = m.horizontalSigma * m.horizontalSigma
        if biasTau != nil {
            // The bias state carries σ_b² of the fix's error; the rest is white.
            let sb = configuration.biasSigma, smin = configuration.minimumHorizontalSigma
            r = max(r - sb * sb, smin * smin)
        }

        // (Re-)initialization: first fix, long gap, or a rejection streak.
        var reason: LocalPositionEstimate.Status? = nil
        if !initialized {
            reason = .initialized
        } else if m.time - lastTime > configuration.maximumGap {
            reason = .reinitializedAfterGap
            statistics.gapReinitializations += 1
        }
        if let reason {
            initialize(m, r: r)
            statistics.accepted += 1
            recordPredictions()
            return StepInfo(status: reason, mahalanobisSquared: .nan, dt: 0, startsSegment: true, heightStartsSegment: hasHeight)
        }

        // Predict.
        let dt = m.time - lastTime
        if usesJoint {
            let (phi, biasNoise) = biasDecay(dt: dt)
            joint.predictJointConstantVelocity(dt: dt, q: configuration.accelerationSpectralDensity, phi: phi, biasNoise: biasNoise)
            syncJointMarginals()
        } else if biasTau != nil {
            let q = configuration.accelerationSpectralDensity
            let (phi, biasNoise) = biasDecay(dt: dt)
            eastBias.predictBiasedConstantVelocity(dt: dt, q: q, phi: phi, biasNoise: biasNoise)
            northBias.predictBiasedConstantVelocity(dt: dt, q: q, phi: phi, biasNoise: biasNoise)
            syncBiasMarginals()
        } else {
            east.predictConstantVelocity(dt: dt, q: configuration.accelerationSpectralDensity)
            north.predictConstantVelocity(dt: dt, q: configuration.accelerationSpectralDensity)
        }
        if hasHeight { height.predictConstantVelocity(dt: dt, q: configuration.verticalAccelerationSpectralDensity) }
        recordPredictions()
        lastTime = m.time

        // Velocity from speed/course (Doppler: independent of the position error, so it is
        // applied even when the position is gated — a coasting filter then still follows the
        // speed), or zero velocity when stationary.
        if m.speed != nil || stationaryOverride == true || slowStreak > 0 { applyVelocity(m) }

        // Horizontal position: 2-DOF gate on both axes (on the joint state when a path couples
        // them; there the gated update is applied at once or leaves the state untouched).
        let positionRow = SIMD3<Double>(1, 0, 1)
        var yEast = 0.0, yNorth = 0.0
        var d2: Double
        if usesJoint {
            let b = biasTau != nil
            let y = SIMD2(m.east - joint.x[0] - (b ? joint.x[4] : 0), m.north - joint.x[1] - (b ? joint.x[5] : 0))
            let o = joint.updateJoint(innovation: y, observation: jointPositionRows, noise: SIMD4(r, 0, 0, r), gate: gate2)
            d2 = o.isApplied || o.status == .gated ? o.mahalanobisSquared : .nan
            if o.isApplied { syncJointMarginals() }
        } else {
            let ie = biasTau == nil ? east.componentInnovation(0, measurement: m.east, noise: r)
                : eastBias.scalarInnovation(measurement: m.east, observation: positionRow, noise: r)
            let inn = biasTau == nil ? north.componentInnovation(0, measurement: m.north, noise: r)
                : northBias.scalarInnovation(measurement: m.north, observation: positionRow, noise: r)
            yEast = ie.innovation; yNorth = inn.innovation
            d2 = ie.innovation * ie.innovation / ie.variance + inn.innovation * inn.innovation / inn.variance
        }
        var status = LocalPositionEstimate.Status.updated
        if d2 > gate2 || !d2.isFinite {
            if rejectionStreak >= configuration.maximumConsecutiveRejections
                || m.time - lastAcceptedTime > configuration.maximumRejectionInterval {
                // Another fix outside the gate after a streak: the filter, not the fixes, is
                // wrong (a real jump, a stale state). Start over on this fix.
                initialize(m, r: r)
                statistics.recoveries += 1
                statistics.accepted += 1
                recordPredictions()
                return StepInfo(status: .recovered, mahalanobisSquared: d2, dt: dt, startsSegment: true, heightStartsSegment: hasHeight)
            }
            rejectionStreak += 1
            statistics.gated += 1
            status = .gated
        } else {
            if usesJoint {
                // Applied above.
            } else if biasTau != nil {
                eastBias.updateScalar(innovation: yEast, observation: positionRow, noise: r)
                northBias.updateScalar(innovation: yNorth, observation: positionRow, noise: r)
                syncBiasMarginals()
            } else {
                east.updateComponent(0, innovation: yEast, noise: r)
                north.updateComponent(0, innovation: yNorth, noise: r)
            }
            rejectionStreak = 0
            lastAcceptedTime = m.time
            lastEast = m.east; lastNorth = m.north
            statistics.accepted += 1
            statistics.sumMahalanobisSquared += d2
        }

        if usesJoint { applyPath(m, fixAccepted: status == .updated) }

        // Height channel.
        var heightStarts = false
        if status == .updated, let h = m.height, let hs = m.heightSigma {
            if !hasHeight || heightReference != m.verticalReference {
                height = KalmanFilter2(x: SIMD2(h, 0), variances: SIMD2(hs * hs, 0.25))
                heightReference = m.verticalReference
                hasHeight = true
                heightStarts = true
            } else {
                let rh = hs * hs
                let ih = height.componentInnovation(0, measurement: h, noise: rh)
                if ih.innovation * ih.innovation <= gate1 * ih.variance, height.updateComponent(0, innovation: ih.innovation, noise: rh) {
                    statistics.heightUpdates += 1
                } else {
                    statistics.heightGated += 1
                }
            }
        }
        return StepInfo(status: status, mahalanobisSquared: d2, dt: dt, startsSegment: false, heightStartsSegment: heightStarts)
    }

    mutating func applyVelocity(_ m: LocalMeasurement) {
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
            if usesJoint {
                updateJointVelocity(east: 0, north: 0, noise: rz, gate: .infinity)
                statistics.stationarySteps += 1
                return
            }
            updateVelocity(innovationEast: -east.x[1], innovationNorth: -north.x[1], noise: rz)
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
        let rv = sv * sv
        if usesJoint {
            let o = updateJointVelocity(east: ve, north: vn, noise: rv, gate: gate2)
            if o.isApplied { statistics.velocityUpdates += 1 } else { statistics.velocityGated += 1 }
            return
        }
        let ie = east.componentInnovation(1, measurement: ve, noise: rv)
        let inn = north.componentInnovation(1, measurement: vn, noise: rv)
        let d2 = ie.innovation * ie.innovation / ie.variance + inn.innovation * inn.innovation / inn.variance
        if d2 > gate2 || !d2.isFinite { statistics.velocityGated += 1; return }
        updateVelocity(innovationEast: ie.innovation, innovationNorth: inn.innovation, noise: rv)
        statistics.velocityUpdates += 1
    }

    /// Applies a direct velocity measurement (given its innovations) to both horizontal axes.
    mutating func updateVelocity(innovationEast ye: Double, innovationNorth yn: Double, noise r: Double) {
        if biasTau != nil {
            let row = SIMD3<Double>(0, 1, 0)
            eastBias.updateScalar(innovation: ye, observation: row, noise: r)
            northBias.updateScalar(innovation: yn, observation: row, noise: r)
            syncBiasMarginals()
        } else {
            east.updateComponent(1, innovation: ye, noise: r)
            north.updateComponent(1, innovation: yn, noise: r)
        }
    }

    /// The bias decay over `dt` seconds: φ = exp(−dt/τ) (cached for the common case of a constant
    /// fix interval) and the process noise σ_b²(1 − φ²); (1, 0) without a bias state.
    mutating func biasDecay(dt: Double) -> (phi: Double, noise: Double) {
        guard let tau = biasTau else { return (1, 0) }
        if dt != cachedBiasDt {
            cachedBiasDt = dt
            cachedBiasPhi = exp(-dt / tau)
        }
        let sb = configuration.biasSigma
        return (cachedBiasPhi, sb * sb * (1 - cachedBiasPhi * cachedBiasPhi))
    }

    /// Copies the (position, velocity) marginals of the bias-augmented channels to `east`/`north`.
    mutating func syncBiasMarginals() {
        east = KalmanFilter2(x: SIMD2(eastBias.x[0], eastBias.x[1]), P: SIMD4(eastBias.P[0], eastBias.P[1], eastBias.P[3], eastBias.P[4]))
        north = KalmanFilter2(x: SIMD2(northBias.x[0], northBias.x[1]), P: SIMD4(northBias.P[0], northBias.P[1], northBias.P[3], northBias.P[4]))
    }

    mutating func initialize(_ m: LocalMeasurement, r: Double) {
        let sv = configuration.initialVelocitySigma
        east = KalmanFilter2(x: SIMD2(m.east, 0), variances: SIMD2(r, sv * sv))
        north = KalmanFilter2(x: SIMD2(m.north, 0), variances: SIMD2(r, sv * sv))
        if biasTau != nil {
            // Fix = p + b + w with b ~ N(0, σ_b²): p = fix − b − w, cov(p, b) = −σ_b².
            let vb = configuration.biasSigma * configuration.biasSigma
            var P = SIMD16<Double>()
            P[0] = r + vb; P[2] = -vb; P[6] = -vb; P[4] = sv * sv; P[8] = vb
            eastBias = KalmanFilter3(x: SIMD3(m.east, 0, 0), P: P)
            northBias = KalmanFilter3(x: SIMD3(m.north, 0, 0), P: P)
            syncBiasMarginals()
        }
        if usesJoint {
            // As the bias channels, with both axes in one state (uncorrelated at the start).
            let vb = biasTau != nil ? configuration.biasSigma * configuration.biasSigma : 0
            var P = SIMD64<Double>()
            for a in 0..<2 {
                P[a * 8 + a] = r + vb
                P[(2 + a) * 8 + 2 + a] = sv * sv
                P[(4 + a) * 8 + 4 + a] = biasTau != nil ? vb : 1
                if biasTau != nil { P[a * 8 + 4 + a] = -vb; P[(4 + a) * 8 + a] = -vb }
                P[(6 + a) * 8 + 6 + a] = 1
            }
            joint = KalmanFilter8(x: SIMD8(m.east, m.north, 0, 0, 0, 0, 0, 0), P: P)
            syncJointMarginals()
        }
        hasHeight = false
        heightReference = nil
        if let h = m.height, let hs = m.heightSigma {
            height = KalmanFilter2(x: SIMD2(h, 0), variances: SIMD2(hs * hs, 0.25))
            heightReference = m.verticalReference
            hasHeight = true
        }
        initialized = true
        lastTime = m.time
        lastAcceptedTime = m.time
        lastEast = m.east; lastNorth = m.north
        rejectionStreak = 0
        slowStreak = 0
        if configuration.usesSpeedAndCourse { applyVelocity(m) }
    }

    func estimate(time: Double, status: LocalPositionEstimate.Status, d2: Double) -> LocalPositionEstimate {
        LocalPositionEstimate(time: time, east: east.x[0], north: north.x[0],
                              velocityEast: east.x[1], velocityNorth: north.x[1],
                              horizontalSigma: (0.5 * (east.P[0] + north.P[0])).squareRoot(),
                              height: hasHeight ? height.x[0] : nil,
                              heightSigma: hasHeight ? height.P[0].squareRoot() : nil,
                              verticalReference: heightReference,
                              status: status, mahalanobisSquared: d2)
    }

    // MARK: joint horizontal state (path constraint)

    /// Observation rows of a horizontal fix on the joint state: p (+ b when biased), 2×8.
    var jointPositionRows: SIMD16<Double> {
        var H = SIMD16<Double>()
        H[0] = 1; H[8 + 1] = 1
        if biasTau != nil { H[4] = 1; H[8 + 5] = 1 }
        return H
    }

    /// A 2-D velocity measurement (m/s, isotropic variance `r`) on the joint state.
    @discardableResult
    mutating func updateJointVelocity(east ve: Double, north vn: Double, noise r: Double, gate: Double) -> KalmanUpdateOutcome {
        var H = SIMD16<Double>()
        H[2] = 1; H[8 + 3] = 1
        let o = joint.updateJoint(innovation: SIMD2(ve - joint.x[2], vn - joint.x[3]), observation: H, noise: SIMD4(r, 0, 0, r), gate: gate)
        if o.isApplied { syncJointMarginals() }
        return o
    }

    /// The path pseudo-measurement of one step (see ``PathConstraint``).
    mutating func applyPath(_ m: LocalMeasurement, fixAccepted: Bool) {
        guard let pc = path, localPath != nil else { return }
        let estimate = PlanarPoint(x: joint.x[0], y: joint.x[1])
        // The corridor is judged on the fix (the evidence); on the estimate when the fix was gated.
        let probe = fixAccepted ? PlanarPoint(x: m.east, y: m.north) : estimate
        let corridor = pc.corridorSigmas * m.horizontalSigma + pc.corridorWidth
        // Both searches are bounded by the corridor: far from the path a step costs O(1).
        guard let d = localPath?.distance(to: probe, within: corridor), d <= corridor,
              let c = localPath?.constraint(at: estimate, velocity: PlanarPoint(x: joint.x[2], y: joint.x[3]), within: corridor) else {
            statistics.pathSkipped += 1
            return
        }
        var h = SIMD8<Double>()
        h[0] = c.normal.x; h[1] = c.normal.y
        let o = joint.updateJoint(innovation: c.normal.dot(c.point) - (h * joint.x).sum(), observation: h,
                                  noise: pc.crossTrackSigma * pc.crossTrackSigma, gate: gate1)
        if o.isApplied {
            syncJointMarginals()
            statistics.pathUpdates += 1
        } else {
            statistics.pathSkipped += 1
        }
    }

    /// Copies the joint state's per-axis (position, velocity) marginals to `east`/`north`.
    mutating func syncJointMarginals() {
        let x = joint.x, P = joint.P
        east = KalmanFilter2(x: SIMD2(x[0], x[2]), P: SIMD4(P[0], P[2], P[16], P[18]))
        north = KalmanFilter2(x: SIMD2(x[1], x[3]), P: SIMD4(P[9], P[11], P[25], P[27]))
    }

    /// Stores the current channel states as this step's predictions (for the smoother).
    mutating func recordPredictions() {
        predictedEast = east; predictedNorth = north; predictedHeight = height
        if usesJoint { predictedJoint = joint }
    }
}
