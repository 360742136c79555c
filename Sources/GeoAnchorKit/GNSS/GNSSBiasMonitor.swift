import Foundation

/// One satellite's pseudorange bias as one epoch's solution sees it
/// (``GNSSSolution/satelliteBiases``): the estimate of an error common to all of the satellite's
/// pseudoranges (a broadcast clock or orbit error, in m along the line of sight) and its variance
/// under the solver's a-priori σ model.
///
/// For a satellite in the solution it is the least-squares estimate from the residuals and their
/// redundancy (what leaving the satellite out would show — a satellite with high leverage, whose
/// error least squares has mostly moved into the position and onto the other satellites'
/// residuals, still shows its whole error here); for a satellite left out it is the prediction
/// residual at the solution. The variance uses the a-priori σ, which is pessimistic on phones
/// (on the Pixel 5 drive the a-posteriori unit variance has median 0.08), so `bias² / variance`
/// is small for a good satellite.
public struct GNSSSatelliteBias: Sendable, Hashable {
    public var satellite: SatelliteID
    /// Estimated bias of the satellite's pseudoranges, m (positive: measured longer than predicted).
    public var bias: Double
    /// Variance of ``bias`` under the a-priori σ model, m².
    public var variance: Double
    /// Whether the satellite's pseudoranges were in the solution (false: left out by the fault
    /// detection or by ``GNSSPositionSolver/solve(_:time:prior:suspects:excluding:skipped:)``'s
    /// `excluding`).
    public var inSolution: Bool

    public init(satellite: SatelliteID, bias: Double, variance: Double, inSolution: Bool) {
        self.satellite = satellite; self.bias = bias; self.variance = variance; self.inSolution = inSolution
    }
}

/// Finds a satellite whose pseudoranges carry a persistent error too small for one epoch's χ²
/// test, from the per-epoch ``GNSSSatelliteBias`` estimates, and keeps it out of the following
/// solutions while the error lasts.
///
/// A broadcast clock 0.3 µs off puts 90 m on every one of the satellite's pseudoranges for the
/// record's hours. At a phone's a-priori σ (6 m at zenith, far more at low elevation and C/N0) a
/// single epoch's χ² test does not see it, and least squares spreads it over the other
/// satellites: the position is 35–100 m off (Pixel 5 drive, GPS only) and the satellite's own
/// residual is often not even the largest. Its bias estimate, though, is consistently near the
/// true 90 m epoch after epoch, while a good satellite's varies with the geometry.
///
/// Over the last ``window`` seconds each satellite's estimates are combined as a constant bias,
/// b̂ = Σ(b/σ²) / Σ(1/σ²), tested by T = (Σ b/σ²)² / Σ(1/σ²) per epoch — the square of the
/// bias in units of one epoch's standard deviation, sustained. The satellite in the solution with
/// the largest such value is excluded when it reaches ``threshold`` with at least
/// ``minimumEpochs`` estimates in the window, fewer than ``maximumExcluded`` satellites
/// already excluded and at least six others in the solution; the other satellites' windows start over (they absorbed part of its error).
/// An excluded satellite's prediction residuals keep being tested: it is readmitted once its
/// window (refilled since the exclusion) falls below ``readmitThreshold`` with the bias estimate
/// below half the one it was excluded for (where few satellites remain, its predictions are too
/// imprecise to show the bias, not evidence that it ended), or after a window without any
/// estimate of it.
///
/// Measured on the Pixel 5 drive (GPS broadcast, WLS; reference SPAN truth): with every record of
/// one satellite's clock 0.3 µs off the faulty satellite's sustained test value has median 7–11
/// and its bias estimate 87–91 m; on the clean file a good satellite's reached at most 1.7 (GPS
/// broadcast) and 2.1 (GPS + GLONASS + Galileo with SP3), and no satellite is excluded.
public struct GNSSBiasMonitor: Sendable, Hashable {
    /// Seconds of estimates combined. Default 30 s: long enough that a good satellite's multipath
    /// (correlated over seconds to tens of seconds) averages out against the changing geometry, short
    /// enough to catch a broadcast error soon after it appears.
    public let window: Double
    /// Estimates needed in the window before a satellite is judged. Default 20.
    public let minimumEpochs: Int
    /// Sustained (bias / σ)² per epoch at which a satellite is excluded. Default 4 (a bias held at
    /// twice one epoch's a-priori σ for the whole window; the largest value of a good satellite on
    /// the clean Pixel 5 drive is 2.1).
    public let threshold: Double
    /// Sustained (bias / σ)² per epoch below which an excluded satellite's prediction residuals
    /// readmit it. Default 1.
    public let readmitThreshold: Double
    /// At most this many satellites excluded at once. Default 2; 0: the monitor only estimates.
    public let maximumExcluded: Int
    /// The satellites excluded now: pass them as `excluding` to the next solve.
    public private(set) var excluded: Set<SatelliteID> = []
    /// Exclusions made so far (each satellite each time it is excluded).
    public private(set) var exclusions = 0
    /// Epochs at which a satellite in the solution showed a sustained bias (test value ≥
    /// ``threshold`` over ≥ ``minimumEpochs`` estimates) that the monitor could not exclude:
    /// ``maximumExcluded`` satellites were out already, or too few would remain. The model of one
    /// faulty satellite at a time does not fit — typically two or more faulty satellites, whose
    /// errors least squares spreads so that good satellites look biased and get excluded instead
    /// (two satellites + 90 m in an eight-satellite GPS sky: two good ones excluded) — and the
    /// solutions may carry tens of meters of error. 0 on the clean Pixel 5 drive and both 2016
    /// GnssLogger logs.
    public private(set) var unresolvedBiasEpochs = 0

    struct Entry: Sendable, Hashable { var time: Double; var weightedBias: Double; var weight: Double }
    /// One satellite's estimates in the window, `entries[head...]`, with their sums Σ b/σ² and
    /// Σ 1/σ² kept as entries come and go (recomputed whenever the array is compacted): no
    /// allocation and no pass over the window per epoch.
    struct Track: Sendable, Hashable {
        var entries: [Entry] = []
        var head = 0
        var num = 0.0, den = 0.0
        var count: Int { entries.count - head }
        var latest: Double { entries.last?.time ?? -.infinity }
        mutating func append(_ e: Entry) { entries.append(e); num += e.weightedBias; den += e.weight }
        mutating func drop(before time: Double) {
            while head < entries.count && entries[head].time < time {
                num -= entries[head].weightedBias; den -= entries[head].weight; head += 1
            }
            if head >= 64 || (head > 0 && head == entries.count) {
                entries.removeFirst(head); head = 0
                num = 0; den = 0
                for e in entries { num += e.weightedBias; den += e.weight }
            }
        }
        /// Appends, drops what left the window, and returns ``statistic``.
        mutating func record(_ e: Entry, windowStart: Double) -> (Double, Int)? {
            append(e); drop(before: windowStart); return statistic
        }
        /// The sustained test value T / n = b̂ · (Σ b/σ²) / n and n (so ordered that it overflows
        /// only when the value itself does).
        var statistic: (Double, Int)? { count > 0 && den > 0 ? ((num / den) * (num / Double(count)), count) : nil }
    }
    private var history: [SatelliteID: Track] = [:]
    /// Time of the last estimate of each excluded satellite.
    private var lastSeen: [SatelliteID: Double] = [:]
    private var lastTime = -Double.infinity
    private var lastSweep = -Double.infinity
    /// The window's bias estimate of each excluded satellite when it was excluded (m).
    private var biasAtExclusion: [SatelliteID: Double] = [:]

    /// Satellites that must remain in the solution after an exclusion: 6 (four unknowns and two
    /// clocks, a dual-frequency phone's, plus redundancy to keep testing).
    static let minimumRemaining = 6

    /// Default ``window``: 30 s.
    public static let defaultWindow = 30.0
    /// Default ``minimumEpochs``: 20.
    public static let defaultMinimumEpochs = 20
    /// Default ``threshold``: 4.
    public static let defaultThreshold = 4.0
    /// Default ``readmitThreshold``: 1.
    public static let defaultReadmitThreshold = 1.0
    /// Default ``maximumExcluded``: 2.
    public static let defaultMaximumExcluded = 2

    /// A monitor with the default settings (the `default…` constants, which pass every check of
    /// the throwing initializer).
    public init() {
        window = Self.defaultWindow; minimumEpochs = Self.defaultMinimumEpochs; threshold = Self.defaultThreshold
        readmitThreshold = Self.defaultReadmitThreshold; maximumExcluded = Self.defaultMaximumExcluded
    }

    /// A monitor with other settings (see each property; defaults the `default…` constants, as ``init()``).
    /// - Throws: ``GeoAnchorError/outOfRange(name:value:allowed:)`` (or `nonFinite`) for a `window`
    ///   outside (0, 86,400] s, `minimumEpochs` outside [1, 1,000,000], `threshold` outside
    ///   (0, 1e6], `readmitThreshold` outside [0, `threshold`], `maximumExcluded` outside [0, 100].
    public init(window: Double = GNSSBiasMonitor.defaultWindow, minimumEpochs: Int = GNSSBiasMonitor.defaultMinimumEpochs,
                threshold: Double = GNSSBiasMonitor.defaultThreshold,
                readmitThreshold: Double = GNSSBiasMonitor.defaultReadmitThreshold,
                maximumExcluded: Int = GNSSBiasMonitor.defaultMaximumExcluded) throws(GeoAnchorError) {
        try ValueRange(lower: .exclusive(0), upper: .inclusive(86_400), unit: "s").check(window, name: "window")
        try ValueRange.closed(1, 1_000_000).check(Double(minimumEpochs), name: "minimumEpochs")
        try ValueRange(lower: .exclusive(0), upper: .inclusive(1e6)).check(threshold, name: "threshold")
        try ValueRange.closed(0, threshold).check(readmitThreshold, name: "readmitThreshold")
        try ValueRange.closed(0, 100).check(Double(maximumExcluded), name: "maximumExcluded")
        self.window = window; self.minimumEpochs = minimumEpochs; self.threshold = threshold
        self.readmitThreshold = readmitThreshold; self.maximumExcluded = maximumExcluded
    }

    /// Adds one epoch's estimates (the solution of the epoch after the previous one noted; epochs
    /// out of time order start the monitor over) and updates ``excluded``.
    public mutating func note(_ solution: GNSSSolution) {
        let t = solution.time
        if !(t > lastTime) { self = Self.reset(self) }
        lastTime = t
        // One dictionary access per satellite: append, drop what left the window, read the test.
        var tested: [(satellite: SatelliteID, value: Double, count: Int)] = []
        tested.reserveCapacity(solution.satelliteBiases.count)
        for b in solution.satelliteBiases where b.variance > 0 && b.variance.isFinite && b.bias.isFinite {
            let entry = Entry(time: t, weightedBias: b.bias / b.variance, weight: 1 / b.variance)
            let stat = history[b.satellite, default: Track()].record(entry, windowStart: t - window)
            if let stat { tested.append((b.satellite, stat.0, stat.1)) }
            if !excluded.isEmpty && excluded.contains(b.satellite) { lastSeen[b.satellite] = t }
        }
        // Satellites no longer in view leave the memory once a window has passed without them.
        if t - lastSweep > window {
            lastSweep = t
            history = history.filter { $0.value.latest >= t - window }
        }
        // Readmission: an excluded satellite whose prediction residuals no longer show the bias, or
        // which has not been seen for a window.
        for s in excluded {
            history[s]?.drop(before: t - window)
            if let seen = lastSeen[s], t - seen <= window {
                // Small against its own precision and at most half the bias it was excluded for:
                // imprecise predictions (five satellites left, say) alone do not readmit it.
                if let (value, count) = statistic(s), count >= minimumEpochs, value < readmitThreshold,
                   let b = bias(of: s), abs(b) < 0.5 * abs(biasAtExclusion[s] ?? 0) {
                    excluded.remove(s); lastSeen[s] = nil; biasAtExclusion[s] = nil
                }
            } else {
                excluded.remove(s); lastSeen[s] = nil; biasAtExclusion[s] = nil
            }
        }
        var worst: (satellite: SatelliteID, value: Double)? = nil
        for c in tested where c.count >= minimumEpochs && c.value >= threshold && !excluded.contains(c.satellite) {
            if worst == nil || c.value > worst!.value || (c.value == worst!.value && c.satellite < worst!.satellite) { worst = (c.satellite, c.value) }
        }
        guard let worst else { return }
        guard excluded.count < maximumExcluded, solution.satellitesUsed > Self.minimumRemaining else {
            unresolvedBiasEpochs += 1
            return
        }
        excluded.insert(worst.satellite)
        biasAtExclusion[worst.satellite] = bias(of: worst.satellite)
        exclusions += 1
        lastSeen[worst.satellite] = t
        // The others absorbed part of its error: their windows start over; its own refills with
        // prediction residuals.
        history = [:]
    }

    /// The sustained test value T / n and the number n of estimates of `satellite` in the window.
    func statistic(_ satellite: SatelliteID) -> (Double, Int)? { history[satellite]?.statistic }

    /// The constant-bias estimate (m) of `satellite` over the window, nil without estimates.
    public func bias(of satellite: SatelliteID) -> Double? {
        guard let track = history[satellite], track.count > 0, track.den > 0 else { return nil }
        return track.num / track.den
    }

    /// The same settings, nothing remembered but the counts (the caller sets the time).
    private static func reset(_ m: GNSSBiasMonitor) -> GNSSBiasMonitor {
        var fresh = m
        fresh.history = [:]; fresh.lastSeen = [:]; fresh.excluded = []; fresh.biasAtExclusion = [:]
        fresh.lastSweep = -.infinity
        return fresh
    }
}
