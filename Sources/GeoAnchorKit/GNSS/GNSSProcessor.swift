import Foundation

/// Processing mode of ``GNSSProcessor``.
public enum GNSSProcessingMode: String, Sendable, Hashable, Codable, CaseIterable {
    /// Independent per-epoch weighted least squares.
    case wls
    /// Causal extended Kalman filter (pseudoranges + Doppler).
    case filter
    /// Filter + Rauch–Tung–Striebel smoother (offline).
    case smooth
}

/// What a run did: counts by reason, satellites, residuals. Nothing is dropped silently.
public struct GNSSRunStatistics: Sendable, Hashable {
    public var epochsRead = 0
    public var epochsSolved = 0
    /// Epochs without a solution, by reason.
    public var epochsSkipped: [GNSSSkipReason: Int] = [:]
    /// Measurements not used, by reason.
    public var measurementsSkipped: [GNSSSkipReason: Int] = [:]
    /// Sum over solved epochs of the satellites used per system (divide by ``epochsSolved`` for a mean).
    public var satellitesPerSystem: [GNSSSystem: Int] = [:]
    /// Pseudorange residuals of the used measurements (m).
    public var residuals: [Double] = []
    /// Epochs at which the filter was re-initialised from WLS because its model did not fit
    /// (innovations rejected for several epochs, or a gap).
    public var filterResets = 0
    /// Measurements the filter rejected by its innovation gate.
    public var filterGated = 0
    /// Solutions output although their fault detection found a fault it could not isolate
    /// (``GNSSSolution/unresolvedFault``: the position may carry one satellite's error) — WLS
    /// epochs, or filter starts taken from one after waiting.
    public var unresolvedFaults = 0
    /// Satellites excluded for a bias that persisted over epochs (``GNSSBiasMonitor``), each time
    /// one was; their pseudoranges are counted ``GNSSSkipReason/excludedByFDE`` while excluded.
    public var biasExclusions = 0
    /// Epochs at which the bias monitor saw a persistent bias it could not exclude
    /// (``GNSSBiasMonitor/unresolvedBiasEpochs``): more faulty satellites than it isolates; the
    /// fixes around them may be tens of meters off.
    public var unresolvedBiasEpochs = 0
    public init() {}
}

/// Runs a whole observation file: WLS per epoch, or the filter / smoother.
///
/// Its entry points cannot throw: an invalid ``configuration`` (or filter configuration) stops
/// them as a programmer error (`preconditionFailure` naming the value). Validate a configuration
/// that comes from outside first (``GNSSSolverConfiguration/validate()``,
/// ``GNSSFilterConfiguration/validate()``).
public struct GNSSProcessor: Sendable {
    public var ephemerides: SatelliteEphemerides
    public var configuration: GNSSSolverConfiguration
    /// The bias monitor each run starts from (its settings; a run uses a fresh copy): satellites
    /// with a persistent pseudorange bias too small for one epoch's test are left out of the WLS
    /// and the filter. `try GNSSBiasMonitor(maximumExcluded: 0)` only estimates, never excludes.
    public var biasMonitor = GNSSBiasMonitor()

    public init(ephemerides: SatelliteEphemerides, configuration: GNSSSolverConfiguration = .init()) {
        self.ephemerides = ephemerides; self.configuration = configuration
    }

    /// Per-epoch solutions (only solved epochs) and statistics.
    public func solveEpochs(_ epochs: [GNSSEpoch]) -> (solutions: [GNSSSolution], statistics: GNSSRunStatistics) {
        configuration.requireValid()
        let solver = GNSSPositionSolver(ephemerides: ephemerides, configuration: configuration)
        let r = Self.solveInTurn(times: epochs.map(\.time), monitor: biasMonitor) { k, prior, suspects, excluding, skipped in
            solver.solve(epochs[k], prior: prior, suspects: suspects, excluding: excluding, skipped: &skipped)
        }
        return (r.solutions, r.statistics)
    }

    /// The WLS epoch after epoch (`solve(k, prior, suspects, excluding, skipped)` solves epoch `k`
    /// at `times[k]`): each starts from the last solution (from scratch after a failure, which may
    /// come from a bad prior) with the satellites found faulty in the last minute
    /// (``GNSSFaultMemory``) and without those `monitor` finds persistently biased.
    /// Only solved epochs are returned; every epoch is counted. `excluding[k]`: the satellites
    /// left out of epoch `k` for a persistent bias, and last (`times.count` + 1 entries) those
    /// left out after the whole run (`excluding[k + 1]`: the monitor's state once epoch `k` is in).
    static func solveInTurn(times: [Double], monitor: GNSSBiasMonitor,
                            solve: (_ k: Int, _ prior: SIMD3<Double>?, _ suspects: Set<SatelliteID>, _ excluding: Set<SatelliteID>,
                                    _ skipped: inout [GNSSSkipReason: Int]) -> Result<GNSSSolution, GNSSSkipReason>)
        -> (solutions: [GNSSSolution], statistics: GNSSRunStatistics, excluding: [Set<SatelliteID>]) {
        var stats = GNSSRunStatistics()
        var out: [GNSSSolution] = []
        out.reserveCapacity(times.count)
        var excluding: [Set<SatelliteID>] = []
        excluding.reserveCapacity(times.count)
        var prior: SIMD3<Double>? = nil
        var faults = GNSSFaultMemory()
        var biases = monitor
        for (k, time) in times.enumerated() {
            stats.epochsRead += 1
            excluding.append(biases.excluded)
            switch solve(k, prior, faults.satellites(at: time), biases.excluded, &stats.measurementsSkipped) {
            case .success(let s):
                out.append(s)
                faults.note(s)
                biases.note(s)
                if s.unresolvedFault { stats.unresolvedFaults += 1 }
                prior = s.position
                stats.epochsSolved += 1
                for (k, v) in s.satellitesPerSystem { stats.satellitesPerSystem[k, default: 0] += v }
                stats.residuals += s.residuals
            case .failure(let r):
                stats.epochsSkipped[r, default: 0] += 1
                prior = nil
            }
        }
        excluding.append(biases.excluded)
        stats.biasExclusions = biases.exclusions
        stats.unresolvedBiasEpochs = biases.unresolvedBiasEpochs
        return (out, stats, excluding)
    }

    /// Offline use of ``solveInTurn(times:monitor:solve:)``'s exclusions: each satellite the monitor
    /// excluded after epoch `k` is also left out of the epochs of the window before (from
    /// `times[k]` − ``GNSSBiasMonitor/window`` on), whose estimates revealed its bias.
    static func backdated(_ excluding: [Set<SatelliteID>], times: [Double], window: Double) -> [Set<SatelliteID>] {
        var out = excluding
        for k in excluding.indices.dropLast() {
            for s in excluding[k + 1].subtracting(excluding[k]) {
                var j = k
                while j >= 0 && times[j] >= times[k] - window { out[j].insert(s); j -= 1 }
            }
        }
        return out
    }
}

extension GNSSProcessor {
    /// Runs `mode` over a GSDC `device_gnss.csv` (Google's satellite states and corrections as
    /// given; use ``GSDCDeviceGNSS/solverConfiguration``).
    public func run(_ device: GSDCDeviceGNSS, mode: GNSSProcessingMode) -> (fixes: [Fix], residualRMS: [Double?], statistics: GNSSRunStatistics) {
        configuration.requireValid()
        switch mode {
        case .wls:
            let solver = GNSSPositionSolver(ephemerides: ephemerides, configuration: configuration)
            let epochs = device.epochs
            let (out, stats, _) = Self.solveInTurn(times: epochs.map(\.time), monitor: biasMonitor) { k, prior, suspects, excluding, skipped in
                solver.solve(epochs[k].measurements, time: epochs[k].time, prior: prior, suspects: suspects, excluding: excluding,
                             skipped: &skipped)
            }
            return (out.map(\.fix), out.map { $0.residualRMS }, stats)
        case .filter, .smooth:
            return filterPrepared(times: device.epochs.map(\.time), flags: device.epochs.map { _ in 0 },
                                  prepared: device.epochs.map(\.measurements), smooth: mode == .smooth)
        }
    }

    /// Runs `mode` over all epochs: output fixes (UTC), the residual RMS per fix, statistics.
    public func run(_ epochs: [GNSSEpoch], mode: GNSSProcessingMode) -> (fixes: [Fix], residualRMS: [Double?], statistics: GNSSRunStatistics) {
        configuration.requireValid()
        switch mode {
        case .wls:
            let (sols, stats) = solveEpochs(epochs)
            return (sols.map(\.fix), sols.map { $0.residualRMS }, stats)
        case .filter: return filterEpochs(epochs, smooth: false)
        case .smooth: return filterEpochs(epochs, smooth: true)
        }
    }
}

/// Satellites the WLS's fault detection left out recently (``GNSSSolution/faultySatellites``),
/// passed as `suspects` to the next epochs' solves: a wrong broadcast orbit or clock persists for
/// the record's validity (hours), so where the next epoch's leave-one-out is ambiguous the
/// candidate without the satellite already found faulty is taken.
struct GNSSFaultMemory {
    /// How long (s) a satellite stays suspect after it was last left out: 60 s, a minute of 1 Hz
    /// epochs (long enough to bridge ambiguous epochs, short enough that a satellite left out for a
    /// passing multipath spike is soon trusted again).
    static let memory: Double = 60
    private var lastFaulty: [SatelliteID: Double] = [:]

    /// The satellites left out within ``memory`` seconds before `time`.
    func satellites(at time: Double) -> Set<SatelliteID> {
        var out = Set<SatelliteID>()
        for (s, t) in lastFaulty where time - t <= Self.memory && time >= t { out.insert(s) }
        return out
    }

    mutating func note(_ solution: GNSSSolution) {
        for s in solution.faultySatellites { lastFaulty[s] = solution.time }
    }
}
