import Foundation

/// Process-noise settings of ``GNSSProcessor``'s extended Kalman filter, with reasons.
public struct GNSSFilterConfiguration: Sendable, Hashable {
    /// White-acceleration spectral density per ECEF axis, m²/s³. 2: a car in town (accelerations
    /// of 1–3 m/s² lasting seconds); a pedestrian would use ≈ 0.2.
    public var accelerationPSD: Double = 2
    /// Receiver clock random walk per epoch, m². Phones steer the code clock in jumps of tens of
    /// metres every few seconds, so the clock is nearly re-estimated every epoch (σ 100 m).
    public var clockVariancePerEpoch: Double = 1e4
    /// Clock-drift random walk, (m/s)²/s.
    public var driftPSD: Double = 1
    /// Inter-system / inter-frequency bias random walk, m²/s: hardware delays, stable over a drive.
    public var biasPSD: Double = 0.01
    /// Carrier-phase time differences between consecutive epochs (σ in m at zenith, 40 dB-Hz):
    /// phone phase noise is millimetres but multipath and undetected half-cycle slips reach
    /// centimetres; 0 switches them off. They get their own clock-change unknown per epoch, as
    /// phones steer the code clock in jumps that the phase does not follow.
    public var carrierPhaseDifferenceSigma: Double = 0.05
    /// Innovation gate on |ν|/√S (a 4σ test); rejected measurements are counted
    /// (`filterGated`). Pseudoranges and carrier-phase differences are first tested with the
    /// epoch's common clock removed by the median of their innovations, so that no single one can
    /// set the clock for the others, and a satellite whose pseudorange is rejected has its Doppler
    /// and phase difference rejected in that epoch too (a wrong orbit shows in the range; its
    /// few-m/s rate error passes against the velocity's uncertainty).
    public var gate: Double = 4
    /// Re-initialise from WLS after this many consecutive epochs in which more than half of the
    /// pseudoranges failed the gate (the model no longer fits), or after a gap longer than
    /// ``maximumGap`` seconds.
    public var resetAfterBadEpochs: Int = 3
    public var maximumGap: Double = 10
    /// The share κ_c of a single epoch's position error variance that lasts longer than the filter
    /// averages over, in [0, 1]; 0 (default): the model's covariance as it is.
    ///
    /// With κ_c > 0 each position's `horizontalAccuracy` (filtered and smoothed) is never below
    /// √κ_c × the 68 % radius of that epoch's own least-squares solution from the pseudoranges the
    /// filter used (their geometry and σ; the WLS accuracy). Pseudorange errors — multipath, the
    /// atmosphere, orbit and clock errors — last minutes, so the filter, which takes each epoch's
    /// errors as independent, cannot average them away; its covariance shrinks as if it could.
    /// Only the reported accuracy: the position itself does not change.
    ///
    /// *Measured* (GSDC 2021 MTV-1 Pixel 5, 794 epochs, against the NovAtel SPAN truth; share of
    /// positions within their stated 68 % radius, 0.68 honest; filter / smoother): nav + SP3,
    /// GPS+GLO+GAL, κ_c 0 10 / 5 %, 0.1 26 / 24 %, 0.15 49 / 43 %, 0.2 64 / 67 %, 0.25 78 / 83 %,
    /// 0.3 91 / 91 %; GPS broadcast only 47 / 17 %, 78 / 83 %, 84 / 91 %, 90 / 93 %, 96 / 95 %,
    /// 98 / 98 % (the WLS's own radius holds 97 / 96 %: its σ model is pessimistic, so the share
    /// here is small). Tuned on this one drive, the only raw recording with a reference long
    /// enough to measure it. **Not the default** because ``GeoRegistration`` fed these positions
    /// does worse with their honest accuracies: at κ_c 0.2 its position p95 is 1.13 / 1.12 × the
    /// fixes' (with / without compass) against 0.99 / 0.98 × at 0 — their error is smooth, and with a
    /// wider σ the registration leans on the AR track, whose drift over 4.4 km exceeds it (README:
    /// Raw GNSS). Use 0.2 where the accuracy itself is what matters (anchor placement uncertainty).
    public var correlatedErrorShare: Double = 0
    public init() {}
}

extension GNSSProcessor {
    /// Kalman filter (and optionally RTS smoother) over position, velocity, receiver clock, clock
    /// drift and one bias per signal group other than the first (GPS L1 when present), with
    /// pseudoranges and Doppler. Initialised (and re-initialised) from the per-epoch WLS.
    ///
    /// The WLS also runs epoch after epoch with a ``GNSSBiasMonitor``, as in `.wls` mode (one
    /// pass before the filter's; each epoch's exclusions come from that epoch and those before
    /// it, so the filter stays causal): a satellite with a pseudorange
    /// bias that persists but is too small for one epoch's test (a broadcast clock 0.3 µs off) is
    /// fitted by the filter, which then gates the good satellites instead; once the monitor excludes
    /// it, its rows are left out (pseudoranges counted ``GNSSSkipReason/excludedByFDE``) and the
    /// filter restarts from that epoch's WLS. Pixel 5 drive, GPS broadcast, one clock 0.3 µs off:
    /// score G12 47 → 6 m, G24 57 → 4 m; 1 µs: G12 191 → 6 m (without the satellite 4.6 / 3.8 m).
    /// Smoothing is offline: each exclusion then also covers the window (30 s) whose estimates
    /// revealed it, which the causal filter cannot do (G06's clock 0.3 µs off: filter 32.5 m,
    /// smoother 2.8 m; without G06 5.4 / 2.8 m).
    ///
    /// Preconditions: ``configuration`` and `fc` pass their `validate()` (a programmer error
    /// otherwise: validate configurations that come from outside first).
    public func filterEpochs(_ epochs: [GNSSEpoch], smooth: Bool, filter fc: GNSSFilterConfiguration = .init())
        -> (fixes: [Fix], residualRMS: [Double?], statistics: GNSSRunStatistics) {
        configuration.requireValid()
        fc.requireValid()
        let cfg = configuration
        var stats = GNSSRunStatistics()
        // Prepare every epoch once.
        var prepared: [[PreparedMeasurement]] = []
        prepared.reserveCapacity(epochs.count)
        for e in epochs {
            if e.flag > 1 { prepared.append([]); continue }
            prepared.append(ephemerides.prepare(e, systems: cfg.systems, minimumCN0: cfg.minimumCN0, skipped: &stats.measurementsSkipped))
        }
        return filterPrepared(times: epochs.map(\.time), flags: epochs.map(\.flag), prepared: prepared, smooth: smooth, filter: fc, statistics: stats)
    }

    /// ``filterEpochs(_:smooth:filter:)`` on measurements already prepared (e.g. from a GSDC
    /// `device_gnss.csv` with Google's satellite states): `times` GPS s, `flags` RINEX epoch flags.
    /// Preconditions as ``filterEpochs(_:smooth:filter:)``.
    public func filterPrepared(times: [Double], flags: [Int], prepared measurements: [[PreparedMeasurement]], smooth: Bool,
                               filter fc: GNSSFilterConfiguration = .init(), statistics: GNSSRunStatistics = .init())
        -> (fixes: [Fix], residualRMS: [Double?], statistics: GNSSRunStatistics) {
        configuration.requireValid()
        fc.requireValid()
        precondition(times.count == measurements.count && flags.count == measurements.count, "one time, flag and measurement list per epoch")
        let cfg = configuration
        // Combined once here; the WLS initialisation finds nothing left to combine.
        let prepared = cfg.ionosphereFreeCombination ? measurements.map(PreparedMeasurement.ionosphereFreeCombinations) : measurements
        let wls = GNSSPositionSolver(ephemerides: ephemerides, configuration: cfg)
        var stats = statistics
        stats.epochsRead += times.count
        let epochs = zip(times, flags).map { GNSSEpoch(time: $0, flag: $1, observations: []) }
        var groupSet = Set<GNSSSignalGroup>()
        for p in prepared { for m in p where m.correctedPseudorange != nil { groupSet.insert(m.group) } }
        let groups = groupSet.sorted()
        var gIndex: [GNSSSignalGroup: Int] = [:]
        for (i, g) in groups.enumerated() { gIndex[g] = i }
        // State: 0-2 position, 3-5 velocity, 6 clock (m), 7 drift (m/s), 8-10 the previous epoch's
        // position (a clone, for carrier-phase differences), 11 the phase clock change of the
        // epoch (m, white), 12… bias of groups[1…].
        let n = 12 + max(0, groups.count - 1)
        let biasBase = 11
        // Previous epoch's corrected phase per satellite + band: (phase m, satellite position, epoch time).
        var lastPhase: [String: (phase: Double, sat: SIMD3<Double>, time: Double)] = [:]
        var x = [Double](repeating: 0, count: n)
        var p = [Double](repeating: 0, count: n * n)
        var initialized = false
        var lastTime = -Double.infinity
        var badRun = 0
        // Satellites the initialising WLS found faulty (its `suspects`), and epochs waited for an
        // initialisation without an unresolved fault.
        var faults = GNSSFaultMemory()
        var waited = 0
        // False after a start from an unresolved fault, until a resolved WLS is seen: data whose
        // every epoch fails the fault test (a receiver far noisier than the σ model) is not made
        // to wait again at each reset.
        var mayWait = true
        // Started (after the wait) from a WLS with an unresolved fault: the WLS runs every epoch
        // until one resolves it, and the filter restarts from that one if it is far.
        var provisional = false
        // Satellites with a bias that persists over epochs but is too small for one epoch's test
        // (``GNSSBiasMonitor``): the WLS epoch after epoch with the monitor, as in `.wls` mode, says
        // which to leave out of each epoch — causal, from that epoch and those before. Their rows are left
        // out, and the filter restarts when one it was using is found (it has been fitting that
        // satellite's error). Offline (smoothing), each exclusion also covers the window whose
        // estimates revealed it: the satellite's error is not in the 20–50 s the causal test needs.
        let monitored = Self.solveInTurn(times: times, monitor: biasMonitor) { k, prior, suspects, excluding, skipped in
            flags[k] > 1 ? .failure(.epochFlag)
                : wls.solve(prepared[k], time: times[k], prior: prior, suspects: suspects, excluding: excluding, skipped: &skipped)
        }
        // Rows of epoch k: causally, without what the monitor excluded once epoch k's own WLS was in
        // (the filter sees that epoch too); the epoch's WLS (start, provisional check), without
        // what it excluded before. Offline, both back-dated.
        let rowsExcluding = smooth ? Self.backdated(Array(monitored.excluding.dropLast()), times: times, window: biasMonitor.window)
                                   : Array(monitored.excluding.dropFirst())
        let wlsExcluding = smooth ? rowsExcluding : Array(monitored.excluding.dropLast())
        stats.biasExclusions += monitored.statistics.biasExclusions
        stats.unresolvedBiasEpochs += monitored.statistics.unresolvedBiasEpochs
        var biasRestart = false
        // Satellites whose pseudorange the last update used.
        var lastUsed = Set<SatelliteID>()
        /// The WLS of one epoch with the fault memory, which notes the satellites it finds faulty
        /// (its measurement-level counts are the filter's own business, not added).
        func solveWLS(_ k: Int, prior: SIMD3<Double>?) -> Result<GNSSSolution, GNSSSkipReason> {
            var scratch: [GNSSSkipReason: Int] = [:]
            let time = times[k]
            let r = wls.solve(prepared[k], time: time, prior: prior, suspects: faults.satellites(at: time), excluding: wlsExcluding[k],
                              skipped: &scratch)
            if case .success(let s) = r { faults.note(s) }
            return r
        }
        struct Step { var k: Int; var xPred: [Double]; var pPred: [Double]; var xFilt: [Double]; var pFilt: [Double]; var f: [Double]
            var sats: Int; var pdop: Double; var rms: Double?; var perSystem: [GNSSSystem: Int]; var reset: Bool
            /// κ_c × the epoch's single-epoch horizontal variance (GNSSFilterConfiguration.correlatedErrorShare).
            var floorVariance: Double = 0 }
        var steps: [Step] = []
        let klob = ephemerides.navigation?.klobuchar

        func initialize(_ s: GNSSSolution) {
            x = [Double](repeating: 0, count: n)
            p = [Double](repeating: 0, count: n * n)
            x[0] = s.position.x; x[1] = s.position.y; x[2] = s.position.z
            let v = s.velocity ?? .zero
            x[3] = v.x; x[4] = v.y; x[5] = v.z
            let ref = groups.first.flatMap { s.clock(of: $0) } ?? s.clockValues.first ?? 0
            x[6] = ref
            x[7] = s.clockDrift ?? 0
            for i in 0..<3 { p[i * n + i] = 100 }
            for i in 3..<6 { p[i * n + i] = s.velocity == nil ? 400 : 1 }
            p[6 * n + 6] = 100; p[7 * n + 7] = s.clockDrift == nil ? 1e6 : 1
            for i in 8..<11 { x[i] = x[i - 8]; p[i * n + i] = 100; p[i * n + i - 8] = 100; p[(i - 8) * n + i] = 100 }
            p[11 * n + 11] = 1e6
            lastPhase = [:]
            for (j, g) in groups.enumerated().dropFirst() {
                let idx = biasBase + j
                if let cg = s.clock(of: g) { x[idx] = cg - ref; p[idx * n + idx] = 100 } else { x[idx] = 0; p[idx * n + idx] = 1e8 }
            }
            initialized = true
        }

        for (k, e) in epochs.enumerated() {
            let meas = prepared[k]
            if e.flag > 1 { stats.epochsSkipped[.epochFlag, default: 0] += 1; continue }
            var reset = false
            let excludedBefore = k > 0 ? rowsExcluding[k - 1] : []
            let dt = e.time - lastTime
            if !initialized || dt > fc.maximumGap || dt <= 0 || badRun >= fc.resetAfterBadEpochs || biasRestart {
                let initial = solveWLS(k, prior: initialized ? SIMD3(x[0], x[1], x[2]) : nil)
                guard case .success(let s) = initial else {
                    // The WLS's own reason (not converged, fault not isolated, too few satellites).
                    if case .failure(let reason) = initial { stats.epochsSkipped[reason, default: 0] += 1 }
                    continue
                }
                // A start carrying a satellite's error locks the filter on it (the good satellites
                // are then the ones gated: G24's clock 1 µs off on the Pixel 5 drive, 185 m for
                // the whole drive); wait for an epoch whose fault is isolated, but not forever.
                if !s.unresolvedFault { mayWait = true }
                if s.unresolvedFault && mayWait && waited < Self.unresolvedFaultWait {
                    waited += 1
                    stats.epochsSkipped[.faultNotIsolated, default: 0] += 1
                    continue
                }
                waited = 0
                provisional = s.unresolvedFault
                if provisional { stats.unresolvedFaults += 1; mayWait = false }
                if initialized { stats.filterResets += 1 }
                initialize(s)
                reset = true
                badRun = 0
                biasRestart = false
            } else if provisional {
                if case .success(let c) = solveWLS(k, prior: SIMD3(x[0], x[1], x[2])), !c.unresolvedFault {
                    provisional = false
                    mayWait = true
                    let d = c.position - SIMD3(x[0], x[1], x[2])
                    if (d * d).sum() > GNSSPositionSolver.isolationDistance * GNSSPositionSolver.isolationDistance {
                        stats.filterResets += 1
                        initialize(c)
                        reset = true
                        badRun = 0
                    }
                }
            }
            let leftOut = rowsExcluding[k]
            // A newly excluded satellite the filter was still using has pulled its state: restart
            // (one it was already gating has not).
            if !reset && leftOut.subtracting(excludedBefore).contains(where: lastUsed.contains) { biasRestart = true }
            // Predict.
            var f = [Double](repeating: 0, count: n * n)
            for i in 0..<n { f[i * n + i] = 1 }
            let h = reset ? 0 : dt
            if !reset {
                for i in 0..<3 { f[i * n + 3 + i] = h }
                f[6 * n + 7] = h
                // Clone the current position into the previous-position slots; reset the phase clock change.
                for i in 8..<11 { f[i * n + i] = 0; f[i * n + i - 8] = 1 }
                f[11 * n + 11] = 0
                var xp = [Double](repeating: 0, count: n)
                for i in 0..<n { var s = 0.0; for j in 0..<n { s += f[i * n + j] * x[j] }; xp[i] = s }
                x = xp
                p = Self.mul(Self.mul(f, p, n), Self.transpose(f, n), n)
                let q = fc.accelerationPSD
                for i in 0..<3 {
                    p[i * n + i] += q * h * h * h / 3
                    p[i * n + 3 + i] += q * h * h / 2
                    p[(3 + i) * n + i] += q * h * h / 2
                    p[(3 + i) * n + 3 + i] += q * h
                }
                p[6 * n + 6] += fc.clockVariancePerEpoch
                p[7 * n + 7] += fc.driftPSD * h
                p[11 * n + 11] += 1e6
                for i in 12..<n { p[i * n + i] += fc.biasPSD * h }
            }
            let xPred = x, pPred = p
            lastTime = e.time
            // Update with pseudoranges then Doppler (one linearisation at the predicted state).
            let r = SIMD3(x[0], x[1], x[2])
            let geo = Ellipsoid.wgs84.geodetic(x: r.x, y: r.y, z: r.z)
            let lat = geo.latitude * .pi / 180, lon = geo.longitude * .pi / 180
            let mask = cfg.elevationMask * .pi / 180
            // One geometry context per epoch (trig of lat/lon, zenith delay) for all satellites.
            let ctx = GNSSPositionSolver.GeometryContext(receiver: r, lat: lat, lon: lon, height: geo.ellipsoidalHeight, nearSurface: true,
                                                         time: e.time, config: cfg, klobuchar: klob)
            var ctxNoIono = ctx
            ctxNoIono.klobuchar = nil
            // The pseudorange rows' position part is the solver's exact gradient of the predicted
            // range (``GNSSPositionSolver/designRow(_:heightGradient:)``: Earth rotation during the
            // flight and the troposphere's height slope, not only −u).
            let heightGradient = ctx.heightGradient
            var used = 0, gated = 0, tried = 0
            var usedSats = Set<SatelliteID>()
            var us: [(SIMD3<Double>, Int)] = []
            var rows: [(h: [Double], z: Double, pred: Double, sigma: Double, isCode: Bool, sat: SatelliteID)] = []
            for m in meas {
                let row = GNSSPositionSolver.geometry(m, ctx, cn0Factor: GNSSSolverConfiguration.cn0Factor(m.cn0))
                guard row.elevation >= mask else { stats.measurementsSkipped[.belowElevationMask, default: 0] += 1; continue }
                if leftOut.contains(m.satellite) {
                    if m.correctedPseudorange != nil { stats.measurementsSkipped[.excludedByFDE, default: 0] += 1 }
                    continue
                }
                guard let gi = gIndex[m.group] else { continue }
                if let pr = m.correctedPseudorange {
                    var hv = [Double](repeating: 0, count: n)
                    let g = GNSSPositionSolver.designRow(row, heightGradient: heightGradient)
                    hv[0] = g.x; hv[1] = g.y; hv[2] = g.z; hv[6] = 1
                    var pred = row.predictedRange + x[6]
                    if gi > 0 { hv[biasBase + gi] = 1; pred += x[biasBase + gi] }
                    rows.append((hv, pr, pred, row.sigma, true, m.satellite))
                    us.append((row.u, gi))
                }
                if let rr = m.correctedRangeRate {
                    var hv = [Double](repeating: 0, count: n)
                    hv[3] = -row.u.x; hv[4] = -row.u.y; hv[5] = -row.u.z; hv[7] = 1
                    let pred = (row.u * (m.satelliteVelocity - SIMD3(x[3], x[4], x[5]))).sum() + x[7]
                    let s = cfg.rangeRateSigma * GNSSSolverConfiguration.cn0Factor(m.cn0).squareRoot() / max(sin(row.elevation), 0.1)
                    rows.append((hv, rr, pred, s, false, m.satellite))
                }
            }
            // Carrier-phase differences with the previous epoch: Δφ = ρ_k(r_k) − ρ_{k−1}(r_{k−1}) + c_φ.
            var phaseNow: [String: (phase: Double, sat: SIMD3<Double>, time: Double)] = [:]
            if fc.carrierPhaseDifferenceSigma > 0 && !reset {
                let rPrev = SIMD3(x[8], x[9], x[10])
                for m in meas {
                    guard let ph = m.carrierPhaseMeters else { continue }
                    let key = "\(m.satellite)\(m.group.band)"
                    let row = GNSSPositionSolver.geometry(m, ctxNoIono, cn0Factor: GNSSSolverConfiguration.cn0Factor(m.cn0))
                    phaseNow[key] = (ph, row.satellite, e.time)
                    guard m.lossOfLockIndicator & 1 == 0, row.elevation >= mask, !leftOut.contains(m.satellite),
                          let prev = lastPhase[key], e.time - prev.time < 1.5 else { continue }
                    let dPrev = prev.sat - rPrev
                    let rhoPrev = (dPrev * dPrev).sum().squareRoot()
                    let uPrev = dPrev / rhoPrev
                    let rhoNow = ((row.satellite - r) * (row.satellite - r)).sum().squareRoot()
                    var hv = [Double](repeating: 0, count: n)
                    hv[0] = -row.u.x; hv[1] = -row.u.y; hv[2] = -row.u.z
                    hv[8] = uPrev.x; hv[9] = uPrev.y; hv[10] = uPrev.z; hv[11] = 1
                    let sg = fc.carrierPhaseDifferenceSigma * GNSSSolverConfiguration.cn0Factor(m.cn0).squareRoot() / max(sin(row.elevation), 0.1)
                    rows.append((hv, ph - prev.phase, rhoNow - rhoPrev + x[11], sg, false, m.satellite))
                }
            } else {
                for m in meas {
                    guard let ph = m.carrierPhaseMeters else { continue }
                    let row = GNSSPositionSolver.geometry(m, ctxNoIono, cn0Factor: GNSSSolverConfiguration.cn0Factor(m.cn0))
                    phaseNow["\(m.satellite)\(m.group.band)"] = (ph, row.satellite, e.time)
                }
            }
            lastPhase = phaseNow
            let preGated = Self.robustPreGate(rows.map { ($0.h, $0.z - $0.pred, $0.sigma) }, p: p, n: n, gate: fc.gate)
            // Sequential scalar updates; the prediction of each row is corrected by the change of
            // the state since linearisation (H · Δx), which is exact for the linearised model.
            let x0 = x
            var accepted: [(h: [Double], z: Double, pred: Double, sigma: Double)] = []
            // Satellites whose pseudorange was gated this epoch: their Doppler and phase difference
            // are gated too (rows of one satellite follow its pseudorange, phase rows come last).
            // A wrong orbit or clock is seen first in the range; its rate and phase error (G02 M₀
            // + 0.01 rad: a few m/s) pass their own gate against the velocity's uncertainty and
            // then pull the velocity, drift and phase clock so that the good rows are gated.
            var codeGated = Set<SatelliteID>()
            for (ri, row) in rows.enumerated() {
                var pred = row.pred
                for i in 0..<n where row.h[i] != 0 { pred += row.h[i] * (x[i] - x0[i]) }
                let nu = row.z - pred
                var ph = [Double](repeating: 0, count: n)
                for i in 0..<n { var s = 0.0; for j in 0..<n where row.h[j] != 0 { s += p[i * n + j] * row.h[j] }; ph[i] = s }
                var sv = row.sigma * row.sigma
                for i in 0..<n where row.h[i] != 0 { sv += row.h[i] * ph[i] }
                if row.isCode { tried += 1 }
                // A non-finite innovation or variance (an absurd input: an ADR or frequency that
                // overflowed) is gated too: `NaN > x` is false, and one such update once made 198 of
                // 200 later fixes NaN.
                if preGated[ri] || (!row.isCode && codeGated.contains(row.sat)) || !(nu.isFinite && sv.isFinite && sv > 0)
                    || nu * nu > fc.gate * fc.gate * sv {
                    if row.isCode { gated += 1; codeGated.insert(row.sat) }
                    stats.filterGated += 1
                    continue
                }
                for i in 0..<n { x[i] += ph[i] * nu / sv }
                for i in 0..<n { for j in 0..<n { p[i * n + j] -= ph[i] * ph[j] / sv } }
                if row.isCode { used += 1; accepted.append((row.h, row.z, row.pred, row.sigma)); usedSats.insert(row.sat) }
            }
            badRun = (tried > 0 && gated * 2 > tried) ? badRun + 1 : 0
            lastUsed = usedSats

            if used == 0 {
                stats.epochsSkipped[.tooFewSatellites, default: 0] += 1
                x = xPred; p = pPred
                continue
            }
            // Post-fit residuals of the accepted pseudoranges.
            var ssq = 0.0
            for a in accepted {
                var pred = a.pred
                for i in 0..<n where a.h[i] != 0 { pred += a.h[i] * (x[i] - x0[i]) }
                let v = a.z - pred
                ssq += v * v
                stats.residuals.append(v)
            }
            var perSystem: [GNSSSystem: Int] = [:]
            for s in usedSats { perSystem[s.system, default: 0] += 1 }
            let pdop = Self.pdop(us, groups: groups.count)
            steps.append(Step(k: k, xPred: xPred, pPred: pPred, xFilt: x, pFilt: p, f: f, sats: usedSats.count, pdop: pdop,
                              rms: (ssq / Double(max(1, accepted.count))).squareRoot(), perSystem: perSystem, reset: reset,
                              floorVariance: fc.correlatedErrorShare > 0
                                ? fc.correlatedErrorShare * Self.singleEpochHorizontalVariance(accepted.map { ($0.h, $0.sigma) }, lat: lat, lon: lon)
                                : 0))
        }
        // RTS smoother (segments split at resets).
        var xs = steps.map(\.xFilt), ps = steps.map(\.pFilt)
        if smooth && steps.count > 1 {
            for i in stride(from: steps.count - 2, through: 0, by: -1) where !steps[i + 1].reset {
                let pp = steps[i + 1].pPred
                let inv = GNSSPositionSolver.inverse(Self.symmetrized(pp, n), n)
                guard !inv.isEmpty else { continue }
                let cgain = Self.mul(Self.mul(steps[i].pFilt, Self.transpose(steps[i + 1].f, n), n), inv, n)
                var dx = [Double](repeating: 0, count: n)
                for j in 0..<n { dx[j] = xs[i + 1][j] - steps[i + 1].xPred[j] }
                for a in 0..<n { var s = 0.0; for b in 0..<n { s += cgain[a * n + b] * dx[b] }; xs[i][a] += s }
                var dp = ps[i + 1]
                for j in 0..<(n * n) { dp[j] -= pp[j] }
                let corr = Self.mul(Self.mul(cgain, dp, n), Self.transpose(cgain, n), n)
                for j in 0..<(n * n) { ps[i][j] += corr[j] }
            }
        }
        var fixes: [Fix] = [], rms: [Double?] = []
        for (i, st) in steps.enumerated() {
            let xv = xs[i], pv = ps[i]
            let geo = Ellipsoid.wgs84.geodetic(x: xv[0], y: xv[1], z: xv[2])
            let (ve, vn, vu) = GNSSPositionSolver.enuVariances(pv, m: n, lat: geo.latitude * .pi / 180, lon: geo.longitude * .pi / 180)
            var sol = GNSSSolution(time: epochs[st.k].time, position: SIMD3(xv[0], xv[1], xv[2]), latitude: geo.latitude, longitude: geo.longitude,
                                   ellipsoidalHeight: geo.ellipsoidalHeight, velocity: SIMD3(xv[3], xv[4], xv[5]), clocks: [:],
                                   satellitesUsed: st.sats, satellitesPerSystem: st.perSystem, excluded: 0, pdop: st.pdop,
                                   residualRMS: st.rms ?? .nan, horizontalAccuracy: 1.5096 * Swift.max((ve + vn) / 2, st.floorVariance).squareRoot(),
                                   verticalAccuracy: vu.squareRoot(), residuals: [])
            sol.residualRMS = st.rms ?? .nan
            fixes.append(sol.fix)
            rms.append(st.rms)
            stats.epochsSolved += 1
            for (s, c) in st.perSystem { stats.satellitesPerSystem[s, default: 0] += c }
        }
        return (fixes, rms, stats)
    }

    /// The per-axis horizontal variance (m², mean of east and north) of a least-squares position
    /// from `rows` alone — pseudorange design rows over the filter's state and their σ — with the
    /// receiver clock and the inter-system biases they touch estimated too: the accuracy one epoch
    /// has without the filter. 0 when the rows do not determine the position (fewer than the
    /// unknowns, or a singular geometry).
    static func singleEpochHorizontalVariance(_ rows: [(h: [Double], sigma: Double)], lat: Double, lon: Double) -> Double {
        guard let n = rows.first?.h.count, n >= 3 else { return 0 }
        // Position first, then every other state a row touches (clock, biases).
        var columns = [0, 1, 2]
        for i in 3..<n where rows.contains(where: { $0.h[i] != 0 }) { columns.append(i) }
        let m = columns.count
        guard rows.count >= m else { return 0 }
        var info = [Double](repeating: 0, count: m * m)
        for r in rows {
            guard r.sigma > 0, r.sigma.isFinite else { continue }
            let w = 1 / (r.sigma * r.sigma)
            for a in 0..<m { for b in 0..<m { info[a * m + b] += r.h[columns[a]] * r.h[columns[b]] * w } }
        }
        let cov = GNSSPositionSolver.inverse(info, m)
        guard !cov.isEmpty else { return 0 }
        let (ve, vn, _) = GNSSPositionSolver.enuVariances(cov, m: m, lat: lat, lon: lon)
        let v = (ve + vn) / 2
        return v.isFinite && v > 0 ? v : 0
    }

    /// Epochs the filter waits, at its start or a reset, for a WLS without an unresolved fault
    /// (``GNSSSolution/unresolvedFault``) before it starts from one anyway: 30 (half a minute at
    /// 1 Hz; a fault that is never isolated must not leave the whole run without output). The
    /// epochs waited are counted as ``GNSSSkipReason/faultNotIsolated``; after such a start the
    /// filter does not wait again until a WLS without an unresolved fault is seen (data whose every
    /// epoch fails the test, ±300 m on every pseudorange, was solved on 10 of 100 epochs, a wait at
    /// each reset; now 61). Started from one anyway,
    /// the filter solves the WLS every epoch until one has no unresolved fault, and restarts from
    /// it when it is farther than 50 m from the filter's position.
    static let unresolvedFaultWait = 30

    /// The clock-robust pre-gate of the sequential updates. Rows of one type share a per-epoch
    /// unknown with a large prior variance: the receiver clock (pseudoranges, column 6;
    /// ``GNSSFilterConfiguration/clockVariancePerEpoch``, σ 100 m), its drift (Doppler, column 7)
    /// and the phase clock change (carrier-phase differences, column 11, σ 1 km). In sequential
    /// updates the first row of a type is gated against that variance and, when it passes, sets
    /// the unknown for the others, which are then gated instead: G02's a_f0 + 1 µs (300 m, within
    /// 4 × 100 m) on the Pixel 5 drive, GPS only, scored 194 m. So each row's innovation against
    /// the predicted state is first tested with the common term removed by the median of its
    /// type's innovations, against its variance without that term (σ² + h P hᵀ over the other
    /// columns, plus the median's own variance, π/2 · median variance / count); rows beyond `gate`
    /// are gated before any update (now 5.35 m, as without G02). A type with fewer than
    /// `robustPreGateMinimumRows` informative rows (variance without the common term below the
    /// term's prior variance) is left to the sequential gate: Doppler rows never are informative,
    /// the velocity's uncertainty exceeds the drift's.
    /// - Parameter rows: (design row, innovation at the predicted state, measurement σ).
    /// - Returns: per row, whether it is gated.
    static func robustPreGate(_ rows: [(h: [Double], nu: Double, sigma: Double)], p: [Double], n: Int, gate: Double) -> [Bool] {
        var gated = [Bool](repeating: false, count: rows.count)
        for c in [6, 7, 11] where c < n {
            let idx = rows.indices.filter { rows[$0].h[c] != 0 }
            guard idx.count >= robustPreGateMinimumRows else { continue }
            var variances = [Double]()
            variances.reserveCapacity(idx.count)
            for i in idx {
                let h = rows[i].h
                var s = rows[i].sigma * rows[i].sigma
                for a in 0..<n where a != c && h[a] != 0 { for b in 0..<n where b != c && h[b] != 0 { s += h[a] * p[a * n + b] * h[b] } }
                variances.append(s)
            }
            let prior = p[c * n + c]
            let informative = idx.indices.filter { rows[idx[$0]].nu.isFinite && variances[$0].isFinite && variances[$0] < prior }
            guard informative.count >= robustPreGateMinimumRows else { continue }
            let centre = informative.map { rows[idx[$0]].nu }.median()
            let centreVariance = .pi / 2 * informative.map { variances[$0] }.median() / Double(informative.count)
            for (j, i) in idx.enumerated() {
                let d = rows[i].nu - centre
                // Non-finite values are left to the sequential gate, which rejects them.
                if d.isFinite && variances[j].isFinite && d * d > gate * gate * (variances[j] + centreVariance) { gated[i] = true }
            }
        }
        return gated
    }

    /// Fewest rows of one type for `robustPreGate(_:p:n:gate:)`: with 4 the median lies between
    /// two good rows' values whenever at most one is wrong.
    static let robustPreGateMinimumRows = 4

    static func mul(_ a: [Double], _ b: [Double], _ n: Int) -> [Double] {
        var c = [Double](repeating: 0, count: n * n)
        for i in 0..<n { for k in 0..<n { let aik = a[i * n + k]; if aik == 0 { continue }; for j in 0..<n { c[i * n + j] += aik * b[k * n + j] } } }
        return c
    }

    static func transpose(_ a: [Double], _ n: Int) -> [Double] {
        var t = a
        for i in 0..<n { for j in 0..<n { t[j * n + i] = a[i * n + j] } }
        return t
    }

    static func symmetrized(_ a: [Double], _ n: Int) -> [Double] {
        var s = a
        for i in 0..<n { for j in 0..<n { s[i * n + j] = (a[i * n + j] + a[j * n + i]) / 2 } }
        return s
    }

    /// PDOP of unit vectors with one clock unknown per group index.
    static func pdop(_ us: [(SIMD3<Double>, Int)], groups: Int) -> Double {
        let present = Array(Set(us.map(\.1))).sorted()
        let m = 3 + present.count
        guard us.count >= m else { return .nan }
        var col: [Int: Int] = [:]
        for (i, g) in present.enumerated() { col[g] = 3 + i }
        var hth = [Double](repeating: 0, count: m * m)
        for (u, g) in us {
            var h = [Double](repeating: 0, count: m)
            h[0] = -u.x; h[1] = -u.y; h[2] = -u.z; h[col[g]!] = 1
            for a in 0..<m { for b in 0..<m { hth[a * m + b] += h[a] * h[b] } }
        }
        let q = GNSSPositionSolver.inverse(hth, m)
        return q.isEmpty ? .nan : (q[0] + q[m + 1] + q[2 * m + 2]).squareRoot()
    }
}
