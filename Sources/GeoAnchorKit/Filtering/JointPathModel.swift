import Foundation

/// Named indices of the joint horizontal state (two padding states, kept at unit variance, fill
/// the 8-lane SIMD container).
enum JointIndex {
    static let east = 0, north = 1
    static let velocityEast = 2, velocityNorth = 3
    static let biasEast = 4, biasNorth = 5
}

/// The horizontal model of a path-constrained ``PositionFilter``: a ``PathConstraint`` couples
/// east and north (its pseudo-measurement is along the path's normal), so both axes share one
/// state (east, north, v_east, v_north, b_east, b_north; ``JointIndex``) with one motion mode
/// (constant velocity with the mode's `q`, the Gauss–Markov bias observed when the mode
/// ``MotionMode/observesBias``). The joint predict, update and RTS step are the O(n²m) closed
/// forms of ``KalmanFilter`` on 8 states, checked against the generic core in the test suite.
struct JointPathModel: HorizontalModel {
    let q: Double
    let observesBias: Bool
    let tau: Double?
    /// How the fix's variance is split (``PositionFilter/Configuration/pathBiasShare``, else
    /// ``PositionFilter/Configuration/biasShare``).
    var split: BiasSplit
    let constraint: PathConstraint
    var localPath: LocalPath?
    var state = KalmanFilter8(x: .zero, P: .zero)
    var prior = KalmanFilter8(x: .zero, P: .zero)
    var dt = 0.0, phi = 1.0
    var cachedDt = Double.nan
    var pending: (innovation: SIMD2<Double>, noise: Double) = (.zero, 0)

    init(mode: MotionMode, path: PathConstraint, configuration c: PositionFilter.Configuration) {
        q = mode.accelerationSpectralDensity
        tau = c.biasTimeConstant.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        observesBias = mode.observesBias && tau != nil
        split = BiasSplit(biasVariance: tau == nil ? 1 : c.biasSigma * c.biasSigma, share: c.pathBiasShare ?? c.biasShare,
                          minimumWhite: c.minimumHorizontalSigma * c.minimumHorizontalSigma)
        constraint = path
    }

    /// Observation rows of a horizontal fix: p (+ b when the bias is observed), 2×8.
    var positionRows: SIMD16<Double> {
        var H = SIMD16<Double>()
        H[JointIndex.east] = 1; H[8 + JointIndex.north] = 1
        if observesBias { H[JointIndex.biasEast] = 1; H[8 + JointIndex.biasNorth] = 1 }
        return H
    }

    /// The white-noise variance of a fix of variance `r` (``BiasSplit``).
    func whiteVariance(_ r: Double) -> Double { observesBias ? split.white(r) : r }

    mutating func reset(east: Double, north: Double, noise r: Double, velocityVariance: Double) {
        // As the per-axis bias model, with both axes in one state (uncorrelated at the start).
        split.observe(fixVariance: r)
        let vb = split.current
        var P = SIMD64<Double>()
        for a in 0..<2 {
            P[a * 8 + a] = observesBias ? whiteVariance(r) + vb : r
            P[(2 + a) * 8 + 2 + a] = velocityVariance
            P[(4 + a) * 8 + 4 + a] = vb
            if observesBias { P[a * 8 + 4 + a] = -vb; P[(4 + a) * 8 + a] = -vb }
            P[(6 + a) * 8 + 6 + a] = 1
        }
        state = KalmanFilter8(x: SIMD8(east, north, 0, 0, 0, 0, 0, 0), P: P)
        prior = state
    }

    mutating func predict(dt: Double) {
        if dt != cachedDt {
            cachedDt = dt
            phi = tau.map { exp(-dt / $0) } ?? 1
        }
        self.dt = dt
        state.predictJointConstantVelocity(dt: dt, q: q, phi: phi, biasNoise: tau == nil ? 0 : split.current * (1 - phi * phi))
        prior = state
    }

    mutating func positionInnovation(east: Double, north: Double, noise r: Double) -> Double {
        let x = state.x
        let b = observesBias
        let y = SIMD2(east - x[0] - (b ? x[4] : 0), north - x[1] - (b ? x[5] : 0))
        split.observe(fixVariance: r)
        let w = whiteVariance(r)
        pending = (y, w)
        // d² without applying: a gate of −1 rejects every finite innovation after computing it.
        var probe = state
        let o = probe.updateJoint(innovation: y, observation: positionRows, noise: SIMD4(w, 0, 0, w), gate: -1)
        return o.status == .gated ? o.mahalanobisSquared : .nan
    }

    mutating func applyPosition() {
        state.updateJoint(innovation: pending.innovation, observation: positionRows,
                          noise: SIMD4(pending.noise, 0, 0, pending.noise))
    }

    mutating func updateVelocity(east ve: Double, north vn: Double, noise r: Double, gate: Double) -> Bool {
        var H = SIMD16<Double>()
        H[JointIndex.velocityEast] = 1; H[8 + JointIndex.velocityNorth] = 1
        let y = SIMD2(ve - state.x[JointIndex.velocityEast], vn - state.x[JointIndex.velocityNorth])
        return state.updateJoint(innovation: y, observation: H, noise: SIMD4(r, 0, 0, r), gate: gate).isApplied
    }

    var marginals: (east: KalmanFilter2, north: KalmanFilter2) { @inline(__always) get { Self.marginals(of: state) } }

    /// The path pseudo-measurement of one step (see ``PathConstraint``): true when applied, false
    /// when released (outside the corridor, beyond a free end, gated at `gate`); nil before the
    /// path is in the filter's frame.
    mutating func applyPath(fixEast: Double, fixNorth: Double, sigma: Double, fixAccepted: Bool, gate: Double) -> Bool? {
        guard let localPath else { return nil }
        let x = state.x
        guard let c = localPath.corridorLine(estimate: PlanarPoint(x: x[JointIndex.east], y: x[JointIndex.north]),
                                             fix: fixAccepted ? PlanarPoint(x: fixEast, y: fixNorth) : nil, fixSigma: sigma,
                                             velocity: PlanarPoint(x: x[JointIndex.velocityEast], y: x[JointIndex.velocityNorth]),
                                             constraint: constraint) else { return false }
        var h = SIMD8<Double>()
        h[JointIndex.east] = c.normal.x; h[JointIndex.north] = c.normal.y
        // The map's drawing error adds to the walker's stray (the filter keeps no per-segment state).
        let r = constraint.crossTrackSigma * constraint.crossTrackSigma + constraint.mapSigma * constraint.mapSigma
        return state.updateJoint(innovation: c.normal.dot(c.point) - (h * x).sum(), observation: h, noise: r, gate: gate).isApplied
    }

    // MARK: smoothing

    struct Record {
        var posterior: KalmanFilter8, prior: KalmanFilter8
        var dt: Double, phi: Double
    }

    var record: Record { Record(posterior: state, prior: prior, dt: dt, phi: phi) }
    var zeroStepRecord: Record { Record(posterior: state, prior: state, dt: 0, phi: 1) }

    static func smoothedEnd(_ r: Record) -> KalmanFilter8 { r.posterior }

    static func smoothed(_ r: Record, next: Record, smoothedNext: KalmanFilter8) -> KalmanFilter8 {
        r.posterior.smoothedJoint(predicted: next.prior, dt: next.dt, phi: next.phi, next: smoothedNext)
    }

    @inline(__always)
    static func marginals(of s: KalmanFilter8) -> (east: KalmanFilter2, north: KalmanFilter2) {
        let x = s.x, P = s.P
        let e = JointIndex.east, n = JointIndex.north, ve = JointIndex.velocityEast, vn = JointIndex.velocityNorth
        return (KalmanFilter2(x: SIMD2(x[e], x[ve]), P: SIMD4(P[e * 8 + e], P[e * 8 + ve], P[ve * 8 + e], P[ve * 8 + ve])),
                KalmanFilter2(x: SIMD2(x[n], x[vn]), P: SIMD4(P[n * 8 + n], P[n * 8 + vn], P[vn * 8 + n], P[vn * 8 + vn])))
    }
}
