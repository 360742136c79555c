import Foundation

/// Named indices of a per-axis mode state (position, velocity, Gauss–Markov bias).
enum AxisIndex {
    static let position = 0
    static let velocity = 1
    static let bias = 2
}

/// The per-axis horizontal model of ``PositionFilter``: each ``MotionMode`` keeps an east and a
/// north (p, v, b) state, and several modes are combined by an **interacting multiple model**
/// (IMM; Blom & Bar-Shalom 1988; Bar-Shalom, Li & Kirubarajan 2001, §11.6.6):
///
/// 1. *mixing*: with mode probabilities μᵢ and transition probabilities Πᵢⱼ(dt), each mode j
///    starts from the moment-matched mixture of all modes' states weighted by Πᵢⱼ μᵢ;
/// 2. each mode predicts with its own acceleration spectral density (and a stationary mode holds
///    the velocity at zero);
/// 3. velocity and position measurements update each mode with that mode's measurement model;
///    the Gaussian likelihood of each innovation multiplies the mode's probability;
/// 4. the output is the moment-matched mixture of the modes.
///
/// The gate tests each plausible mode's innovation against χ²(2): a fix is gated only when every
/// mode with probability ≥ 5 % (and the most probable) finds it an outlier. With one mode this is exactly a Kalman filter (no mixing).
///
/// For the smoother each step records the mixture's posterior, its moment-matched prediction
/// and the cross-covariance between the previous posterior and that prediction; the backward
/// pass is the Rauch–Tung–Striebel step on these moment-matched Gaussians (see
/// ``KalmanFilter/smoothed(predicted:crossCovariance:next:)``).
struct ModeMixture: HorizontalModel {
    struct Parameters {
        var q: Double
        var observesBias: Bool
        var holdsStill: Bool
        var rate: Double          // 1 / mean duration (1/s)
        var kind: MotionKind
        var maximumSpeed: Double
        var maximumConsecutiveRejections: Int?
    }

    let parameters: [Parameters]
    let tau: Double?
    /// The configured stationary bias variance σ_b² (1 without a bias state).
    let biasVariance: Double
    /// ``PositionFilter/Configuration/biasShare`` (nil: the legacy split).
    let biasShare: Double?
    /// The bias variance in use: σ_b², or with a share min(σ_b², share × r) of the latest fix.
    var currentBiasVariance: Double
    let minimumVariance: Double
    let stillVariance: Double
    /// Per mode: east state at 2j, north at 2j + 1.
    var states: [KalmanFilter3]
    /// Mode probabilities (sum 1).
    var probability: [Double]
    /// Merged posterior (east, north).
    var mergedEast = KalmanFilter3(x: .zero, P: .zero), mergedNorth = KalmanFilter3(x: .zero, P: .zero)
    /// Whether predictions record what the smoother needs (costs the cross-covariances).
    var recordsPrediction = false
    var priorEast = KalmanFilter3(x: .zero, P: .zero), priorNorth = KalmanFilter3(x: .zero, P: .zero)
    var crossEast = SIMD16<Double>(), crossNorth = SIMD16<Double>()
    // Cached per-mode position innovations (east y, s, north y, s) and noises of the last fix.
    var innovations: [SIMD4<Double>]
    var cachedDt = Double.nan, cachedPhi = 1.0

    init(modes: [MotionMode], configuration c: PositionFilter.Configuration) {
        precondition(!modes.isEmpty, "a motion model needs at least one mode")
        parameters = modes.map {
            Parameters(q: $0.accelerationSpectralDensity, observesBias: $0.observesBias && c.biasTimeConstant != nil,
                       holdsStill: $0.holdsStill, rate: $0.meanDuration > 0 ? 1 / $0.meanDuration : 0, kind: $0.kind,
                       maximumSpeed: $0.maximumSpeed ?? .infinity, maximumConsecutiveRejections: $0.maximumConsecutiveRejections)
        }
        tau = c.biasTimeConstant.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        biasVariance = tau == nil ? 1 : c.biasSigma * c.biasSigma
        biasShare = c.biasShare.flatMap { $0 > 0 && $0 < 1 ? $0 : nil }
        currentBiasVariance = biasVariance
        minimumVariance = c.minimumHorizontalSigma * c.minimumHorizontalSigma
        stillVariance = c.stationaryVelocitySigma * c.stationaryVelocitySigma
        states = Array(repeating: KalmanFilter3(x: .zero, P: .zero), count: 2 * modes.count)
        probability = Array(repeating: 1 / Double(modes.count), count: modes.count)
        innovations = Array(repeating: .zero, count: modes.count)
    }

    var modeCount: Int { parameters.count }

    // MARK: HorizontalModel

    mutating func reset(east: Double, north: Double, noise r: Double, velocityVariance: Double) {
        setBiasVariance(r)
        let vb = currentBiasVariance
        for j in 0..<modeCount {
            var P = SIMD16<Double>()
            P[4] = velocityVariance
            P[8] = vb
            if parameters[j].observesBias {
                // Fix = p + b + w, b ~ N(0, σ_b²): p = fix − b − w, cov(p, b) = −σ_b².
                P[0] = whiteVariance(r, j) + vb; P[2] = -vb; P[6] = -vb
            } else {
                P[0] = r
            }
            if parameters[j].holdsStill { P[4] = stillVariance }
            states[2 * j] = KalmanFilter3(x: SIMD3(east, 0, 0), P: P)
            states[2 * j + 1] = KalmanFilter3(x: SIMD3(north, 0, 0), P: P)
        }
        merge()
    }

    /// The white-noise variance of a fix of variance `r` under mode j.
    @inline(__always)
    func whiteVariance(_ r: Double, _ j: Int) -> Double {
        guard parameters[j].observesBias else { return r }
        // With a share the fix's variance is split (bias + white = r); without, the legacy
        // split takes σ_b² out and floors the rest.
        return biasShare != nil ? r - currentBiasVariance : max(r - biasVariance, minimumVariance)
    }

    /// The bias variance for a fix of variance `r` (see ``currentBiasVariance``).
    @inline(__always)
    mutating func setBiasVariance(_ r: Double) {
        if let k = biasShare { currentBiasVariance = min(biasVariance, k * r) }
    }

    mutating func predict(dt: Double) {
        let m = modeCount
        if dt != cachedDt {
            cachedDt = dt
            cachedPhi = tau.map { exp(-dt / $0) } ?? 1
        }
        let phi = cachedPhi, biasNoise = tau == nil ? 0 : currentBiasVariance * (1 - phi * phi)
        if m == 1 { predictSingle(dt: dt, phi: phi, biasNoise: biasNoise); return }
        // Scratch on the stack (no allocation per step): the predicted mode probabilities c̄ⱼ, the
        // mixing weights Πᵢⱼ μᵢ, the mixed states and (when recording) the cross-covariances.
        // Per axis, so each buffer stays under the stack-allocation limit (1 KiB) for 4 modes.
        withUnsafeTemporaryAllocation(of: Double.self, capacity: m + m * m) { scratch in
        withUnsafeTemporaryAllocation(of: KalmanFilter3.self, capacity: m) { mixedEast in
        withUnsafeTemporaryAllocation(of: KalmanFilter3.self, capacity: m) { mixedNorth in
        withUnsafeTemporaryAllocation(of: SIMD16<Double>.self, capacity: recordsPrediction ? m : 0) { crossesEast in
        withUnsafeTemporaryAllocation(of: SIMD16<Double>.self, capacity: recordsPrediction ? m : 0) { crossesNorth in
        let prior = UnsafeMutableBufferPointer(rebasing: scratch[0..<m])
        let weights = UnsafeMutableBufferPointer(rebasing: scratch[m..<(m + m * m)])   // weights[i * m + j] = Πᵢⱼ μᵢ
        for j in 0..<m {
            prior[j] = probability[j]
            (mixedEast.baseAddress! + j).initialize(to: states[2 * j])
            (mixedNorth.baseAddress! + j).initialize(to: states[2 * j + 1])
        }
        @inline(__always) func mixed(_ k: Int) -> KalmanFilter3 { k % 2 == 0 ? mixedEast[k / 2] : mixedNorth[k / 2] }
        // Mixing (skipped for one mode).
        if m > 1 {
            for i in 0..<m {
                let stay = exp(-dt * parameters[i].rate)
                let move = (1 - stay) / Double(m - 1)
                for j in 0..<m { weights[i * m + j] = probability[i] * (i == j ? stay : move) }
            }
            for j in 0..<m {
                var c = 0.0
                for i in 0..<m { c += weights[i * m + j] }
                prior[j] = c
                guard c > 0 else { continue }
                for a in 0..<2 {
                    var x = SIMD3<Double>()
                    for i in 0..<m { x += (weights[i * m + j] / c) * states[2 * i + a].x }
                    var P = SIMD16<Double>()
                    for i in 0..<m {
                        let w = weights[i * m + j] / c
                        guard w > 0 else { continue }
                        P += w * (states[2 * i + a].P + Self.outer(states[2 * i + a].x - x))
                    }
                    if a == 0 { mixedEast[j] = KalmanFilter3(x: x, P: P) } else { mixedNorth[j] = KalmanFilter3(x: x, P: P) }
                }
            }
        }
        var nextEast = SIMD3<Double>(), nextNorth = SIMD3<Double>()
        for j in 0..<m {
            let q = parameters[j].q
            for a in 0..<2 {
                var s = mixed(2 * j + a)
                var cross = SIMD16<Double>()
                if recordsPrediction {
                    // cov(x_k, x_{k+1}) = P₀ Fᵀ, F = [[1, dt, 0], [0, 1, 0], [0, 0, φ]].
                    let P = s.P
                    for i in 0..<3 {
                        cross[i * 3 + 0] = P[i * 3 + 0] + dt * P[i * 3 + 1]
                        cross[i * 3 + 1] = P[i * 3 + 1]
                        cross[i * 3 + 2] = phi * P[i * 3 + 2]
                    }
                }
                s.predictBiasedConstantVelocity(dt: dt, q: q, phi: phi, biasNoise: biasNoise)
                if parameters[j].holdsStill {
                    // Velocity held at zero: x_{k+1} ← x + k (0 − v), so cov(x_k, ·) ← C (I − k hᵀ)ᵀ.
                    let s11 = s.P[4] + stillVariance
                    let k = SIMD3(s.P[1], s.P[4], s.P[7]) / s11
                    s.updateScalar(innovation: -s.x[1], observation: SIMD3(0, 1, 0), noise: stillVariance)
                    if recordsPrediction {
                        for i in 0..<3 {
                            let ch = cross[i * 3 + 1]
                            for l in 0..<3 { cross[i * 3 + l] -= ch * k[l] }
                        }
                    }
                }
                states[2 * j + a] = s
                if recordsPrediction {
                    if a == 0 { crossesEast[j] = cross } else { crossesNorth[j] = cross }
                    if a == 0 { nextEast += prior[j] * s.x } else { nextNorth += prior[j] * s.x }
                }
            }
        }
        for j in 0..<m { probability[j] = prior[j] }
        if recordsPrediction {
            // Moment-matched prediction and cross-covariance with the previous merged posterior:
            // C = Σⱼ c̄ⱼ [Cⱼ + (x₀ⱼ − x̂)(x̄ⱼ − x̄)ᵀ].
            for a in 0..<2 {
                let next = a == 0 ? nextEast : nextNorth
                let post = a == 0 ? mergedEast.x : mergedNorth.x
                var P = SIMD16<Double>(), C = SIMD16<Double>()
                for j in 0..<m {
                    let w = prior[j]
                    guard w > 0 else { continue }
                    let s = states[2 * j + a]
                    let d = s.x - next
                    P += w * (s.P + Self.outer(d))
                    C += w * ((a == 0 ? crossesEast[j] : crossesNorth[j]) + Self.outer(mixed(2 * j + a).x - post, d))
                }
                if a == 0 {
                    priorEast = KalmanFilter3(x: next, P: P); crossEast = C
                } else {
                    priorNorth = KalmanFilter3(x: next, P: P); crossNorth = C
                }
            }
        }
        }
        }
        }
        }
        }
        merge()
    }

    /// ``predict(dt:)`` of a one-mode mixture (a Kalman filter: no mixing, no probabilities), in place.
    @inline(__always)
    mutating func predictSingle(dt: Double, phi: Double, biasNoise: Double) {
        let p = parameters[0]
        states.withUnsafeMutableBufferPointer { st in
            for a in 0..<2 {
                var cross = SIMD16<Double>()
                if recordsPrediction {
                    let P = st[a].P
                    for i in 0..<3 {
                        cross[i * 3 + 0] = P[i * 3 + 0] + dt * P[i * 3 + 1]
                        cross[i * 3 + 1] = P[i * 3 + 1]
                        cross[i * 3 + 2] = phi * P[i * 3 + 2]
                    }
                }
                st[a].predictBiasedConstantVelocity(dt: dt, q: p.q, phi: phi, biasNoise: biasNoise)
                if p.holdsStill {
                    let s11 = st[a].P[4] + stillVariance
                    let k = SIMD3(st[a].P[1], st[a].P[4], st[a].P[7]) / s11
                    st[a].updateScalar(innovation: -st[a].x[1], observation: SIMD3(0, 1, 0), noise: stillVariance)
                    if recordsPrediction {
                        for i in 0..<3 {
                            let ch = cross[i * 3 + 1]
                            for l in 0..<3 { cross[i * 3 + l] -= ch * k[l] }
                        }
                    }
                }
                if a == 0 { crossEast = cross } else { crossNorth = cross }
            }
        }
        mergedEast = states[0]; mergedNorth = states[1]
        if recordsPrediction { priorEast = mergedEast; priorNorth = mergedNorth }
    }

    mutating func positionInnovation(east: Double, north: Double, noise r: Double) -> Double {
        let m = modeCount
        setBiasVariance(r)
        for j in 0..<m {
            let rj = whiteVariance(r, j)
            let h = SIMD3<Double>(1, 0, parameters[j].observesBias ? 1 : 0)
            let ie = states[2 * j].scalarInnovation(measurement: east, observation: h, noise: rj)
            let inn = states[2 * j + 1].scalarInnovation(measurement: north, observation: h, noise: rj)
            innovations[j] = SIMD4(ie.innovation, ie.variance, inn.innovation, inn.variance)
        }
        lastNoise = r
        // The gate statistic: the smallest d² among the modes that are plausible now (probability
        // ≥ ``plausibleProbability``; the most probable always is). A fix is an outlier only when
        // every plausible mode says so — a moment-matched mixture's variance is dominated by the
        // most confident mode and would reject fixes that a competing, equally plausible mode
        // explains (white errors while a correlated-error mode still has weight).
        var best = Double.infinity, top = 0
        for j in 1..<max(m, 1) where probability[j] > probability[top] { top = j }
        for j in 0..<m where j == top || probability[j] >= Self.plausibleProbability {
            let v = innovations[j]
            best = min(best, v[0] * v[0] / v[1] + v[2] * v[2] / v[3])
        }
        return best
    }

    /// Modes at least this probable take part in the gate (see ``positionInnovation(east:north:noise:)``).
    static let plausibleProbability = 0.05

    var lastNoise = 0.0

    /// A gated fix leaves every mode's state alone but still weighs the modes: a fix that only
    /// the stationary mode finds far off (a walker setting off) moves the probability to the
    /// modes that expect it, so the next fix passes the mixture's gate instead of starting a
    /// rejection streak.
    ///
    /// The weight is the innovation's d² capped at `gate`: modes that all find the fix an
    /// outlier keep their probabilities (an outlier is evidence about the fix, not the motion).
    mutating func rejectPosition(gate: Double) {
        let m = modeCount
        guard m > 1 else { return }
        withUnsafeTemporaryAllocation(of: Double.self, capacity: m) { logL in
            for j in 0..<m {
                let v = innovations[j]
                logL[j] = -0.5 * min(v[0] * v[0] / v[1] + v[2] * v[2] / v[3], gate)
            }
            reweight(UnsafeBufferPointer(logL))
        }
        merge()
    }

    mutating func applyPosition() {
        let m = modeCount
        withUnsafeTemporaryAllocation(of: Double.self, capacity: m) { logL in
            for j in 0..<m {
                let v = innovations[j]
                let h = SIMD3<Double>(1, 0, parameters[j].observesBias ? 1 : 0)
                let rj = whiteVariance(lastNoise, j)
                states[2 * j].updateScalar(innovation: v[0], observation: h, noise: rj)
                states[2 * j + 1].updateScalar(innovation: v[2], observation: h, noise: rj)
                logL[j] = -0.5 * (v[0] * v[0] / v[1] + v[2] * v[2] / v[3] + log(v[1] * v[3]))
                // A mode with a speed limit (a pedestrian) finds a faster estimate unlikely.
                let vmax = parameters[j].maximumSpeed
                if vmax.isFinite {
                    let ve = states[2 * j].x[1], vn = states[2 * j + 1].x[1]
                    let excess = max(0, (ve * ve + vn * vn).squareRoot() - vmax) / Self.speedLimitSigma
                    logL[j] -= 0.5 * excess * excess
                }
            }
            reweight(UnsafeBufferPointer(logL))
        }
        merge()
    }

    /// σ (m/s) of the soft speed limit of a mode with ``MotionMode/maximumSpeed``.
    static let speedLimitSigma = 0.5

    mutating func updateVelocity(east ve: Double, north vn: Double, noise r: Double, gate: Double) -> Bool {
        let m = modeCount
        let h = SIMD3<Double>(0, 1, 0)
        let applied = withUnsafeTemporaryAllocation(of: SIMD4<Double>.self, capacity: m) { inn -> Bool in
            // Gate: refused only when no mode accepts it (a start or stop is a velocity every mode
            // but one finds unlikely; the likelihoods below then switch modes).
            var d2 = Double.infinity
            for j in 0..<m {
                let a = states[2 * j].scalarInnovation(measurement: ve, observation: h, noise: r)
                let b = states[2 * j + 1].scalarInnovation(measurement: vn, observation: h, noise: r)
                let v = SIMD4(a.innovation, a.variance, b.innovation, b.variance)
                inn[j] = v
                d2 = min(d2, v[0] * v[0] / v[1] + v[2] * v[2] / v[3])
            }
            guard d2 <= gate, d2.isFinite else { return false }
            withUnsafeTemporaryAllocation(of: Double.self, capacity: m) { logL in
                for j in 0..<m {
                    let v = inn[j]
                    states[2 * j].updateScalar(innovation: v[0], observation: h, noise: r)
                    states[2 * j + 1].updateScalar(innovation: v[2], observation: h, noise: r)
                    logL[j] = -0.5 * (v[0] * v[0] / v[1] + v[2] * v[2] / v[3] + log(v[1] * v[3]))
                }
                reweight(UnsafeBufferPointer(logL))
            }
            return true
        }
        if applied { merge() }
        return applied
    }

    var marginals: (east: KalmanFilter2, north: KalmanFilter2) {
        (Self.marginal(mergedEast), Self.marginal(mergedNorth))
    }

    // MARK: smoothing

    struct Record {
        var east: KalmanFilter3, north: KalmanFilter3
        var priorEast: KalmanFilter3, priorNorth: KalmanFilter3
        var crossEast: SIMD16<Double>, crossNorth: SIMD16<Double>
    }

    var record: Record {
        Record(east: mergedEast, north: mergedNorth, priorEast: priorEast, priorNorth: priorNorth,
               crossEast: crossEast, crossNorth: crossNorth)
    }

    var zeroStepRecord: Record {
        Record(east: mergedEast, north: mergedNorth, priorEast: mergedEast, priorNorth: mergedNorth,
               crossEast: mergedEast.P, crossNorth: mergedNorth.P)
    }

    static func smoothedEnd(_ r: Record) -> (KalmanFilter3, KalmanFilter3) { (r.east, r.north) }

    static func smoothed(_ r: Record, next: Record, smoothedNext s: (KalmanFilter3, KalmanFilter3)) -> (KalmanFilter3, KalmanFilter3) {
        (r.east.smoothed(predicted: next.priorEast, crossCovariance: next.crossEast, next: s.0),
         r.north.smoothed(predicted: next.priorNorth, crossCovariance: next.crossNorth, next: s.1))
    }

    static func marginals(of s: (KalmanFilter3, KalmanFilter3)) -> (east: KalmanFilter2, north: KalmanFilter2) {
        (marginal(s.0), marginal(s.1))
    }

    /// The most probable mode's ``MotionMode/maximumConsecutiveRejections``, if it sets one.
    var maximumConsecutiveRejections: Int? {
        var best = 0
        for j in 1..<modeCount where probability[j] > probability[best] { best = j }
        return parameters[best].maximumConsecutiveRejections
    }

    // MARK: helpers

    /// Probability of each motion kind (modes of the same kind summed).
    func probability(of kind: MotionKind) -> Double {
        var p = 0.0
        for j in 0..<modeCount where parameters[j].kind == kind { p += probability[j] }
        return p
    }

    /// Multiplies the mode probabilities by exp(logL) and renormalizes (unchanged when no
    /// likelihood is finite).
    mutating func reweight(_ logL: UnsafeBufferPointer<Double>) {
        let m = modeCount
        guard m > 1 else { return }
        var top = -Double.infinity
        for j in 0..<m where logL[j].isFinite { top = max(top, logL[j]) }
        guard top.isFinite else { return }
        var sum = 0.0
        for j in 0..<m { sum += probability[j] * (logL[j].isFinite ? exp(logL[j] - top) : 0) }
        guard sum > 0, sum.isFinite else { return }
        for j in 0..<m { probability[j] *= (logL[j].isFinite ? exp(logL[j] - top) : 0) / sum }
    }

    /// The moment-matched mixture of the modes into `mergedEast` / `mergedNorth`.
    mutating func merge() {
        let m = modeCount
        if m == 1 { mergedEast = states[0]; mergedNorth = states[1]; return }
        for a in 0..<2 {
            var x = SIMD3<Double>()
            for j in 0..<m { x += probability[j] * states[2 * j + a].x }
            var P = SIMD16<Double>()
            for j in 0..<m where probability[j] > 0 {
                P += probability[j] * (states[2 * j + a].P + Self.outer(states[2 * j + a].x - x))
            }
            if a == 0 { mergedEast = KalmanFilter3(x: x, P: P) } else { mergedNorth = KalmanFilter3(x: x, P: P) }
        }
    }

    @inline(__always)
    static func outer(_ d: SIMD3<Double>) -> SIMD16<Double> { outer(d, d) }

    /// `a bᵀ` (3×3, row-major in the first nine lanes).
    @inline(__always)
    static func outer(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD16<Double> {
        SIMD16(a[0] * b[0], a[0] * b[1], a[0] * b[2], a[1] * b[0], a[1] * b[1], a[1] * b[2],
               a[2] * b[0], a[2] * b[1], a[2] * b[2], 0, 0, 0, 0, 0, 0, 0)
    }

    @inline(__always)
    static func marginal(_ s: KalmanFilter3) -> KalmanFilter2 {
        KalmanFilter2(x: SIMD2(s.x[0], s.x[1]), P: SIMD4(s.P[0], s.P[1], s.P[3], s.P[4]))
    }
}
