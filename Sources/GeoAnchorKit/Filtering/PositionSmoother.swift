import Foundation

/// The result of filtering (and optionally smoothing) a recorded trace.
///
/// Estimates are kept in the filter's local frame; ``filtered`` and ``smoothed`` convert them to
/// geodetic fixes on access (≈ 0.1–0.2 µs a fix), so code that works in the local frame never
/// pays for the conversion.
public struct PositionTrack: Sendable {
    /// The filter's frame (nil when no fix was valid).
    public var frame: LocalTangentFrame?
    /// The configuration used (its accuracy convention converts σ back to 68 % radii).
    public var configuration: PositionFilter.Configuration
    /// The causal filter's estimate at each fix that produced one, in time order.
    public var filteredLocal: [LocalPositionEstimate]
    /// The Rauch–Tung–Striebel smoothed estimates at the same times (nil unless requested).
    public var smoothedLocal: [LocalPositionEstimate]?
    /// For each estimate, the index of the input fix it belongs to (position in the input sequence).
    public var inputIndices: [Int]
    /// What the filter did.
    public var statistics: PositionFilterStatistics

    /// The filtered estimates as geodetic fixes.
    public var filtered: [FilteredFix] { convert(filteredLocal) }
    /// The smoothed estimates as geodetic fixes (nil unless smoothing was requested).
    public var smoothed: [FilteredFix]? { smoothedLocal.map(convert) }

    func convert(_ es: [LocalPositionEstimate]) -> [FilteredFix] {
        guard let frame else { return [] }
        return es.map { PositionFilter.filteredFix($0, frame: frame, configuration: configuration) }
    }
}

extension PositionFilter {
    /// Filters a recorded trace, and with `smooth` also runs the Rauch–Tung–Striebel smoother
    /// over it (offline: every estimate then uses all fixes, before and after).
    ///
    /// Fixes are processed in the given order with the online filter's rules (out-of-order,
    /// duplicate and invalid fixes are refused and counted). The smoother runs backwards over
    /// each segment between (re-)initializations, per channel; gated fixes contribute only their
    /// prediction step, so an outlier the filter rejected does not reach the smoothed track.
    /// When the configuration sets ``Configuration/smootherAccuracyInflation`` or
    /// ``Configuration/smootherAccelerationSpectralDensity`` (the walking preset does), the
    /// smoother runs on a second forward pass with that tuning
    /// (``Configuration/smootherConfiguration``); with ``Configuration/smootherSchedule`` (the
    /// adaptive model) it blends a walking-tuned second pass with the RTS over the mixture
    /// (``SmootherSchedule``). ``PositionTrack/filtered`` and the statistics are always the
    /// causal filter's.
    ///
    /// - Complexity: O(n) time; O(n) memory for what the backward passes need (internal
    ///   `SmoothingRecorder`s: one, or two for the adaptive model).
    /// - Accuracy: the backward step matches FilterPy's `rts_smoother` to 1e-9 (test suite). On
    ///   the simulated `traces/` (walking preset) the smoothed RMSE / p95 are 52 % / 31 %
    ///   (zavist-tour) and 44.6 % / 47 % (city-walk) below the raw fixes' (adaptive: 54.6 % / 40 %
    ///   and 45.6 % / 43 %); on the GSDC 2020 chipset traces the smoothed p95 is at most 1 %
    ///   above raw (test suite, `geobench report`).
    /// - Precondition: `configuration` passes ``Configuration/validate()`` (as for
    ///   ``init(configuration:path:)``: a configuration that fails it is a programmer error;
    ///   validate one that comes from outside first).
    public static func track<S: Sequence>(_ fixes: S, configuration: Configuration = .adaptive,
                                          smooth: Bool = false, path: PathConstraint? = nil) -> PositionTrack where S.Element == Fix {
        track(Array(fixes), configuration: configuration, smooth: smooth, path: path)
    }

    /// ``track(_:configuration:smooth:path:)`` on an array (the non-generic implementation: an
    /// unspecialized generic sequence costs an allocation per element).
    ///
    /// With a `path` (``PathConstraint``) the filter runs its joint horizontal state, and the
    /// smoother runs over that same forward pass (the separate smoother tuning is not used: the
    /// constraint, not a wider averaging window, is what removes the slowly varying error there).
    /// - Precondition: `configuration` passes ``Configuration/validate()`` (a programmer error
    ///   otherwise; validate one that comes from outside first).
    public static func track(_ fixes: [Fix], configuration: Configuration = .adaptive,
                             smooth: Bool = false, path: PathConstraint? = nil) -> PositionTrack {
        requireValid(configuration)
        if path != nil {
            return track(fixes, configuration: configuration, smooth: smooth, path: path, model: JointPathModel.self) { $0.joint! }
        }
        if smooth, let schedule = configuration.smootherSchedule, configuration.modes != nil {
            return scheduledTrack(fixes, configuration: configuration, schedule: schedule)
        }
        return track(fixes, configuration: configuration, smooth: smooth, path: nil, model: ModeMixture.self) { $0.modes }
    }

    /// The adaptive model's smoother (``Configuration/smootherSchedule``): the causal
    /// interacting-multiple-model pass gives the filtered track, the gating decisions and each
    /// fix's vehicle probability; a second forward pass with one constant-velocity mode, tuned
    /// per fix by ``SmootherSchedule``, then feeds the RTS backward pass. Fixes the causal filter
    /// gated stay out of the second pass (σ × 10⁴); that pass has no gate of its own.
    static func scheduledTrack(_ fixes: [Fix], configuration: Configuration, schedule: SmootherSchedule) -> PositionTrack {
        // Set in code (a decoded schedule is validated when decoded): a programmer error.
        GeoAnchorKit.requireValid("PositionFilter.SmootherSchedule") { () throws(GeoAnchorError) in try schedule.validate() }
        var f = PositionFilter(configuration: configuration)
        f.modes.recordsPrediction = true
        let cap = fixes.count
        var filtered: [LocalPositionEstimate] = [], indices: [Int] = []
        filtered.reserveCapacity(cap); indices.reserveCapacity(cap)
        var mixtureRecorder = SmoothingRecorder<ModeMixture>()
        mixtureRecorder.reserve(cap)
        // Per filtered step: the measurement, whether the causal filter gated it, its vehicle
        // probability, whether it was a clock reset.
        var steps: [(m: LocalMeasurement, gated: Bool, vehicle: Double, clockReset: Bool)] = []
        steps.reserveCapacity(cap)
        causalPass(fixes, &f, filtered: &filtered, indices: &indices) { _, m, info, f in
            steps.append((m, info.status == .gated, f.modes.probability(of: .vehicle), info.status == .clockReset))
            mixtureRecorder.append(f.modes.record, core: f.core, step: info)
        }
        var track = PositionTrack(frame: f.frame, configuration: configuration, filteredLocal: filtered,
                                  smoothedLocal: nil, inputIndices: indices, statistics: f.statistics)
        let n = steps.count
        // The windows' clock: the fixes' times, moved past the previous window at a clock reset
        // (times go backwards there: the windows must neither span nor straddle it). Equal to
        // the times without a reset.
        var times = [Double](repeating: 0, count: n)
        do {
            var offset = 0.0
            let separation = 2 * (schedule.persistence + schedule.window) + 1
            for k in 0..<n {
                if steps[k].clockReset && k > 0 { offset = times[k - 1] + separation - steps[k].m.time }
                times[k] = steps[k].m.time + offset
            }
        }
        // Vehicle weight: the vehicle probability averaged over ± persistence (a brief spike is
        // not a ride), its largest value within ± window (sliding-window maximum with a monotone
        // deque: O(n)), mapped linearly from the schedule's start (weight 0) to its full
        // probability (weight 1).
        var sustained = [Double](repeating: 0, count: n)
        do {
            var prefix = [Double](repeating: 0, count: n + 1)
            for k in 0..<n { prefix[k + 1] = prefix[k] + steps[k].vehicle }
            var lo = 0, hi = 0
            for k in 0..<n {
                let t = times[k]
                while hi < n, times[hi] <= t + schedule.persistence { hi += 1 }
                while times[lo] < t - schedule.persistence { lo += 1 }
                sustained[k] = (prefix[hi] - prefix[lo]) / Double(hi - lo)
            }
        }
        var weight = [Double](repeating: 0, count: n)
        var deque: [Int] = [], head = 0, hi = 0
        deque.reserveCapacity(n)
        let p0 = schedule.vehicleProbabilityStart, p1 = schedule.vehicleProbabilityFull   // p1 > p0: validated above
        for k in 0..<n {
            let t = times[k]
            while hi < n, times[hi] <= t + schedule.window {
                while deque.count > head, sustained[deque[deque.count - 1]] <= sustained[hi] { deque.removeLast() }
                deque.append(hi); hi += 1
            }
            // The front stays in the window: step k, or a later step with a larger value, is in the deque.
            while head < deque.count - 1, times[deque[head]] < t - schedule.window { head += 1 }
            weight[k] = min(1, max(0, (sustained[deque[head]] - p0) / (p1 - p0)))
        }
        var c = configuration
        c.modes = nil; c.biasTimeConstant = nil; c.smootherSchedule = nil
        // The causal filter decides what is an outlier (gated fixes get σ × 10⁴ below); this pass
        // accepts the rest as they are (no gate of its own, so no recovery either).
        c.gateProbability = 1
        c.accelerationSpectralDensity = schedule.walkingAccelerationSpectralDensity
        var g = PositionFilter(configuration: c)
        g.modes.recordsPrediction = true
        var recorder = SmoothingRecorder<ModeMixture>()
        recorder.reserve(n)
        let qWalk = schedule.walkingAccelerationSpectralDensity, qRide = schedule.vehicleAccelerationSpectralDensity
        let aWalk = schedule.walkingAccuracyInflation, aRide = configuration.accuracyInflation
        for k in 0..<n {
            let v = weight[k]
            g.modes.setAccelerationSpectralDensity(qWalk + v * (qRide - qWalk), mode: 0)
            var ms = steps[k].m
            if steps[k].clockReset { g.core.restartClock() }
            if steps[k].gated {
                ms.horizontalSigma *= 1e4
            } else {
                ms.horizontalSigma = PositionFilter.horizontalSigma(of: fixes[indices[k]], configuration: configuration,
                                                                    inflation: aWalk + v * (aRide - aWalk))
            }
            if let gi = g.advance(ms) {
                recorder.append(g.modes.record, core: g.core, step: gi)
            } else {
                // Refused by the second pass only: a zero-length step keeps the passes aligned.
                recorder.append(g.modes.zeroStepRecord, core: g.core,
                                step: StepInfo(status: .gated, mahalanobisSquared: .nan, dt: 0, startsSegment: false, heightStartsSegment: false),
                                zeroStep: true)
            }
        }
        // Blend: the walking-tuned pass where the device walked or stood, the mixture's own RTS
        // (its bias modes follow the Doppler velocity through a vehicle's correlated error) where it rode.
        var smoothed = recorder.smoothBackward(filtered)
        let ride = mixtureRecorder.smoothBackward(filtered)
        for k in 0..<n where weight[k] > 0 {
            let v = weight[k], u = 1 - v
            smoothed[k].east = u * smoothed[k].east + v * ride[k].east
            smoothed[k].north = u * smoothed[k].north + v * ride[k].north
            smoothed[k].velocityEast = u * smoothed[k].velocityEast + v * ride[k].velocityEast
            smoothed[k].velocityNorth = u * smoothed[k].velocityNorth + v * ride[k].velocityNorth
            smoothed[k].horizontalSigma = u * smoothed[k].horizontalSigma + v * ride[k].horizontalSigma
            if let a = smoothed[k].height, let b = ride[k].height { smoothed[k].height = u * a + v * b }
            if let a = smoothed[k].heightSigma, let b = ride[k].heightSigma { smoothed[k].heightSigma = u * a + v * b }
        }
        track.smoothedLocal = smoothed
        return track
    }

    /// The causal pass shared by the smoothers: runs `f` over `fixes` in order, appends each
    /// estimate and its input index, and hands every step (fix, measurement, step, filter after
    /// it) to `body`.
    @inline(__always)
    static func causalPass(_ fixes: [Fix], _ f: inout PositionFilter, filtered: inout [LocalPositionEstimate], indices: inout [Int],
                           _ body: (Fix, LocalMeasurement, StepInfo, PositionFilter) -> Void) {
        for (i, fix) in fixes.enumerated() {
            guard let m = f.measurement(from: fix), let info = f.advance(m) else { continue }
            filtered.append(f.estimate(time: m.time, status: info.status, d2: info.mahalanobisSquared))
            indices.append(i)
            body(fix, m, info, f)
        }
    }

    /// The track on horizontal model `H` (`model` reads it from a filter).
    static func track<H: HorizontalModel>(_ fixes: [Fix], configuration: Configuration, smooth: Bool, path: PathConstraint?,
                                          model: H.Type, _ horizontal: (PositionFilter) -> H) -> PositionTrack {
        let smootherConfiguration = configuration.smootherConfiguration
        let separate = smooth && path == nil && smootherConfiguration != configuration
        var f = PositionFilter(configuration: configuration, path: path)
        // The smoother's own forward pass (only when its tuning differs from the filter's).
        var g = PositionFilter(configuration: smootherConfiguration)
        if smooth && separate { g.modes.recordsPrediction = true } else if smooth { f.modes.recordsPrediction = true }
        let cap = fixes.count
        var filtered: [LocalPositionEstimate] = [], indices: [Int] = []
        filtered.reserveCapacity(cap); indices.reserveCapacity(cap)
        var recorder = SmoothingRecorder<H>()
        if smooth { recorder.reserve(cap) }
        causalPass(fixes, &f, filtered: &filtered, indices: &indices) { fix, m, info, f in
            guard smooth else { return }
            guard separate else {
                recorder.append(horizontal(f).record, core: f.core, step: info)
                return
            }
            // Same position; only the σ tuning differs.
            var ms = m
            ms.horizontalSigma = PositionFilter.horizontalSigma(of: fix, configuration: smootherConfiguration)
            if ms.heightSigma != nil {
                ms.heightSigma = PositionFilter.heightSigma(of: fix, horizontalSigma: ms.horizontalSigma,
                                                            configuration: smootherConfiguration)
            }
            // The causal filter's clock reset: g never saw the fixes refused before it.
            if info.status == .clockReset { g.core.restartClock() }
            if let gi = g.advance(ms) {
                recorder.append(horizontal(g).record, core: g.core, step: gi)
            } else {
                // Refused by the second pass only (a duplicate there, as its gate differs): at
                // the same time as its previous step, so a zero-length step (no motion, no process
                // noise) keeps the two passes aligned without changing the smoothed track.
                recorder.append(horizontal(g).zeroStepRecord, core: g.core, step: StepInfo(status: .gated, mahalanobisSquared: .nan, dt: 0,
                                                                                           startsSegment: false, heightStartsSegment: false),
                                zeroStep: true)
            }
        }
        var track = PositionTrack(frame: f.frame, configuration: configuration, filteredLocal: filtered,
                                  smoothedLocal: nil, inputIndices: indices, statistics: f.statistics)
        guard smooth else { return track }
        track.smoothedLocal = recorder.smoothBackward(filtered)
        return track
    }
}

/// What the RTS backward pass needs from each step of a forward pass: the horizontal model's
/// record, the height channel's prediction and posterior, and the step's segment flags — nothing
/// else (≈ 1 KB a step for the per-axis models: posterior, moment-matched prediction and cross-covariance per axis, the height channel, the step flags).
struct SmoothingRecorder<H: HorizontalModel> {
    var horizontal: [H.Record] = []
    var heightPredicted: [KalmanFilter2] = [], heightPosterior: [KalmanFilter2] = []
    var heightLive: [Bool] = []
    var steps: [PositionFilter.StepInfo] = []

    mutating func reserve(_ n: Int) {
        horizontal.reserveCapacity(n); heightPredicted.reserveCapacity(n); heightPosterior.reserveCapacity(n)
        heightLive.reserveCapacity(n); steps.reserveCapacity(n)
    }

    mutating func append(_ record: H.Record, core: StepCore, step: PositionFilter.StepInfo, zeroStep: Bool = false) {
        horizontal.append(record)
        heightPredicted.append(zeroStep ? core.height : core.predictedHeight)
        heightPosterior.append(core.height)
        heightLive.append(core.hasHeight)
        steps.append(step)
    }

    var count: Int { steps.count }

    /// The RTS backward pass; the smoothed estimates take time, status, motion and vertical
    /// reference from `filtered` (one per recorded step). Heights are smoothed where `filtered`
    /// has one and the recorded height channel is live; elsewhere the filtered height is kept.
    func smoothBackward(_ filtered: [LocalPositionEstimate]) -> [LocalPositionEstimate] {
        let n = filtered.count
        var smoothed = filtered
        guard n > 0 else { return smoothed }
        precondition(n == count, "one record per filtered estimate")
        func live(_ k: Int) -> Bool { filtered[k].height != nil && heightLive[k] }
        var s = H.smoothedEnd(horizontal[n - 1])
        var sh = heightPosterior[n - 1]
        for k in stride(from: n - 1, through: 0, by: -1) {
            if k == n - 1 || steps[k + 1].startsSegment {
                s = H.smoothedEnd(horizontal[k]); sh = heightPosterior[k]
            } else {
                s = H.smoothed(horizontal[k], next: horizontal[k + 1], smoothedNext: s)
                if live(k) && live(k + 1) && !steps[k + 1].heightStartsSegment {
                    sh = heightPosterior[k].smoothedConstantVelocity(predicted: heightPredicted[k + 1], dt: steps[k + 1].dt, next: sh)
                } else {
                    sh = heightPosterior[k]
                }
            }
            let (se, sn) = H.marginals(of: s)
            smoothed[k].east = se.x[0]; smoothed[k].north = sn.x[0]
            smoothed[k].velocityEast = se.x[1]; smoothed[k].velocityNorth = sn.x[1]
            // The causal filter's floor (Configuration.correlatedErrorShare): smoothing averages
            // no more of the long-lasting error than filtering does.
            smoothed[k].horizontalSigma = Swift.max((0.5 * (se.P[0] + sn.P[0])).squareRoot(), smoothed[k].correlatedSigma)
            if live(k) {
                smoothed[k].height = sh.x[0]
                smoothed[k].heightSigma = sh.P[0].squareRoot()
            }
        }
        return smoothed
    }
}
