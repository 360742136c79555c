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

    /// One mode's state on both axes: (p, v, b) and the six distinct entries of each axis's
    /// symmetric 3×3 covariance, east in lane 0 and north in lane 1 of each `SIMD2`. The axes see
    /// the same weights, noises and observation rows, so one lane-wise operation updates both
    /// (IEEE operations are exact per lane, so each axis gets exactly what a one-axis filter
    /// computing the same expressions would). The prediction is ``KalmanFilter3``'s closed form;
    /// the scalar update its Joseph form reduced to P − k uᵀ (see ``update(innovation:u0:u1:u2:s:)``),
    /// equal to rounding. An axis whose update would be refused (non-finite or non-positive) keeps
    /// its old value, whatever the other axis does.
    struct Channel {
        typealias V = SIMD2<Double>
        var x0: V, x1: V, x2: V
        var p00: V, p01: V, p02: V, p11: V, p12: V, p22: V

        @inline(__always)
        init(x0: V, x1: V, x2: V, p00: V, p01: V, p02: V, p11: V, p12: V, p22: V) {
            self.x0 = x0; self.x1 = x1; self.x2 = x2
            self.p00 = p00; self.p01 = p01; self.p02 = p02; self.p11 = p11; self.p12 = p12; self.p22 = p22
        }

        static let zero = Channel(x0: .zero, x1: .zero, x2: .zero, p00: .zero, p01: .zero, p02: .zero, p11: .zero, p12: .zero, p22: .zero)

        /// Axis `a` (0 east, 1 north) as a ``KalmanFilter3`` (covariance row-major, symmetric).
        func filter(_ a: Int) -> KalmanFilter3 {
            KalmanFilter3(x: SIMD3(x0[a], x1[a], x2[a]),
                          P: SIMD16(p00[a], p01[a], p02[a], p01[a], p11[a], p12[a], p02[a], p12[a], p22[a], 0, 0, 0, 0, 0, 0, 0))
        }

        /// Lane-wise `isFinite` (v − v is 0 exactly when v is finite).
        @inline(__always)
        static func finite(_ v: V) -> SIMDMask<V.MaskStorage> { (v - v) .== V.zero }

        /// Whether the summed terms are all finite on both axes, tested on their sum: a
        /// non-finite term makes the sum infinite or NaN (inf + finite = inf, inf − inf = NaN), so
        /// a finite sum proves them all finite; an overflowing sum only sends the caller to its
        /// lane-by-lane checks.
        @inline(__always)
        static func allFinite(sum: V) -> Bool { all(finite(sum)) }

        /// ``KalmanFilter3/predictBiasedConstantVelocity(dt:q:phi:biasNoise:)`` on each axis (an
        /// axis whose result is not finite is unchanged).
        @inline(__always)
        mutating func predict(dt: Double, q: Double, phi: Double, biasNoise: Double) {
            let dt2 = dt * dt
            let c00: Double = q * dt2 * dt / 3, c01: Double = q * dt2 * 0.5, c11: Double = q * dt
            let twoDt: Double = 2 * dt, phi2: Double = phi * phi
            let n00: V = p00 + twoDt * p01 + dt2 * p11 + c00
            let n01: V = p01 + dt * p11 + c01
            let n02: V = phi * (p02 + dt * p12)
            let n11: V = p11 + c11
            let n12: V = phi * p12
            let n22: V = phi2 * p22 + biasNoise
            let nx0: V = x0 + dt * x1, nx2: V = phi * x2
            // (Summed as a tree: a short dependency chain before the branch.)
            if Self.allFinite(sum: ((n00 + n01) + (n02 + n11)) + ((n12 + n22) + (nx0 + nx2))) {
                // The usual case: both axes take the prediction.
                x0 = nx0; x2 = nx2
                p00 = n00; p01 = n01; p02 = n02; p11 = n11; p12 = n12; p22 = n22
                return
            }
            var ok = Self.finite(n00) .& Self.finite(n01) .& Self.finite(n02)
            ok = ok .& Self.finite(n11) .& Self.finite(n12) .& Self.finite(n22)
            ok = ok .& Self.finite(nx0) .& Self.finite(nx2)
            x0.replace(with: nx0, where: ok); x2.replace(with: nx2, where: ok)
            p00.replace(with: n00, where: ok); p01.replace(with: n01, where: ok); p02.replace(with: n02, where: ok)
            p11.replace(with: n11, where: ok); p12.replace(with: n12, where: ok); p22.replace(with: n22, where: ok)
        }

        /// A scalar innovation on both axes (east, north lanes): y = z − h x, its variance
        /// s = h u + r and the products u = P hᵀ, everything ``update(_:)`` needs.
        struct Innovation {
            var y: V, s: V, u0: V, u1: V, u2: V
            /// 1 / s, formed once for the distance, the gain and the likelihood.
            var inverse: V
            @inline(__always)
            init(y: V, s: V, u0: V, u1: V, u2: V) {
                self.y = y; self.s = s; self.u0 = u0; self.u1 = u1; self.u2 = u2
                inverse = 1 / s
            }
            static let zero = Innovation(y: .zero, s: V(repeating: 1), u0: .zero, u1: .zero, u2: .zero)
            /// The squared Mahalanobis distance on both axes together, y²/s summed.
            @inline(__always) var squaredDistance: Double { let q = y * y * inverse; return q[0] + q[1] }
            /// The Gaussian likelihood's normalization up to a constant, 1/√(s_east s_north).
            @inline(__always) var likelihoodScale: Double { (inverse[0] * inverse[1]).squareRoot() }
        }

        /// ``KalmanFilter3/scalarInnovation(measurement:observation:noise:)`` of a position on
        /// each axis, h = (1, 0, 1) when the fix sees the bias (`biased`) and (1, 0, 0) otherwise,
        /// with the products u = P hᵀ it forms, for ``update(innovation:u0:u1:u2:s:)``. The sums
        /// skip the terms h makes zero: for finite states (the only kind a mode holds) each is
        /// bit-for-bit the general form's (x·1 = x, x·0 + y = y).
        @inline(__always)
        func positionInnovation(measurement z: V, biased: Bool, noise r: Double) -> Innovation {
            if biased {
                let u0: V = p00 + p02, u1: V = p01 + p12, u2: V = p02 + p22
                return Innovation(y: z - (x0 + x2), s: (u0 + u2) + r, u0: u0, u1: u1, u2: u2)
            }
            return Innovation(y: z - x0, s: p00 + r, u0: p00, u1: p01, u2: p02)
        }

        /// ``positionInnovation(measurement:biased:noise:)`` of a velocity, h = (0, 1, 0).
        @inline(__always)
        func velocityInnovation(measurement z: V, noise r: Double) -> Innovation {
            Innovation(y: z - x1, s: p11 + r, u0: p01, u1: p11, u2: p12)
        }

        /// ``KalmanFilter3/updateScalar(innovation:observation:noise:)`` on each axis, h = (h0, h1, h2)
        /// (an axis with non-finite input or results is unchanged).
        @inline(__always)
        mutating func update(innovation y: V, h0: Double, h1: Double, h2: Double, noise r: Double) {
            guard r > 0, r.isFinite else { return }
            let u0: V = p00 * h0 + p01 * h1 + p02 * h2
            let u1: V = p01 * h0 + p11 * h1 + p12 * h2
            let u2: V = p02 * h0 + p12 * h1 + p22 * h2
            let s: V = h0 * u0 + h1 * u1 + h2 * u2 + r
            update(innovation: y, u0: u0, u1: u1, u2: u2, s: s)
        }

        /// ``update(innovation:u0:u1:u2:s:)`` of a formed ``Innovation``.
        @inline(__always)
        mutating func update(_ i: Innovation) { update(innovation: i.y, u0: i.u0, u1: i.u1, u2: i.u2, s: i.s, inverse: i.inverse) }

        /// ``update(innovation:h0:h1:h2:noise:)`` from the products u = P hᵀ and the innovation
        /// variance s = h u + r that ``positionInnovation(measurement:biased:noise:)`` or
        /// ``velocityInnovation(measurement:noise:)`` already formed
        /// for the same state (the same values: the update needs nothing else of h).
        @inline(__always)
        mutating func update(innovation y: V, u0: V, u1: V, u2: V, s: V) {
            update(innovation: y, u0: u0, u1: u1, u2: u2, s: s, inverse: 1 / s)
        }

        /// ``update(innovation:u0:u1:u2:s:)`` given 1 / s.
        @inline(__always)
        mutating func update(innovation y: V, u0: V, u1: V, u2: V, s: V, inverse: V) {
            // k = u / s and P' = P − k uᵀ (= P − u uᵀ / s, symmetric: only the upper triangle is
            // kept). KalmanFilter3 writes the same update in Joseph form, P − k uᵀ − u kᵀ + s k kᵀ,
            // which is algebraically identical when k is u / s (as here); this form is a third of
            // the arithmetic and one division instead of three. Results agree to rounding.
            let k0: V = u0 * inverse, k1: V = u1 * inverse, k2: V = u2 * inverse
            let n00: V = p00 - k0 * u0
            let n01: V = p01 - k0 * u1
            let n02: V = p02 - k0 * u2
            let n11: V = p11 - k1 * u1
            let n12: V = p12 - k1 * u2
            let n22: V = p22 - k2 * u2
            let nx0: V = x0 + k0 * y, nx1: V = x1 + k1 * y, nx2: V = x2 + k2 * y
            // One mask, one test: positive s and diagonals, and every value finite (their sum,
            // summed as a tree for a short dependency chain before the branch).
            let sum: V = ((y + s) + (n00 + n01)) + ((n02 + n11) + (n12 + n22)) + ((nx0 + nx1) + nx2)
            if all((s .> V.zero) .& (n00 .> V.zero) .& (n11 .> V.zero) .& (n22 .> V.zero) .& Self.finite(sum)) {
                // The usual case: both axes take the update.
                x0 = nx0; x1 = nx1; x2 = nx2
                p00 = n00; p01 = n01; p02 = n02; p11 = n11; p12 = n12; p22 = n22
                return
            }
            var ok = Self.finite(y) .& (s .> V.zero) .& Self.finite(s)
            ok = ok .& (n00 .> V.zero) .& (n11 .> V.zero) .& (n22 .> V.zero)
            ok = ok .& Self.finite(n00) .& Self.finite(n11) .& Self.finite(n22)
            ok = ok .& Self.finite(n01) .& Self.finite(n02) .& Self.finite(n12)
            ok = ok .& Self.finite(nx0) .& Self.finite(nx1) .& Self.finite(nx2)
            x0.replace(with: nx0, where: ok); x1.replace(with: nx1, where: ok); x2.replace(with: nx2, where: ok)
            p00.replace(with: n00, where: ok); p01.replace(with: n01, where: ok); p02.replace(with: n02, where: ok)
            p11.replace(with: n11, where: ok); p12.replace(with: n12, where: ok); p22.replace(with: n22, where: ok)
        }

        /// The raw moments about (m0, m1, m2) on each axis: the offset d = x − m in place of x and
        /// the second moment P + d dᵀ in place of P (see ``centered(scale:about:_:_:)``).
        @inline(__always)
        func moments(about m0: V, _ m1: V, _ m2: V) -> Channel {
            let d0 = x0 - m0, d1 = x1 - m1, d2 = x2 - m2
            return Channel(x0: d0, x1: d1, x2: d2, p00: p00 + d0 * d0, p01: p01 + d0 * d1, p02: p02 + d0 * d2,
                           p11: p11 + d1 * d1, p12: p12 + d1 * d2, p22: p22 + d2 * d2)
        }

        /// ``moments(about:_:_:)`` about this channel's own mean: offset 0 and second moment P
        /// (exactly what that gives: x − x = 0, P + 0·0 = P for finite values).
        @inline(__always)
        var momentsOfOrigin: Channel {
            Channel(x0: .zero, x1: .zero, x2: .zero, p00: p00, p01: p01, p02: p02, p11: p11, p12: p12, p22: p22)
        }

        /// Adds `w` times every field of `c` (a weighted sum of ``moments(about:_:_:)``).
        @inline(__always)
        mutating func add(_ c: Channel, weight w: Double) {
            x0 += w * c.x0; x1 += w * c.x1; x2 += w * c.x2
            p00 += w * c.p00; p01 += w * c.p01; p02 += w * c.p02
            p11 += w * c.p11; p12 += w * c.p12; p22 += w * c.p22
        }

        /// With this channel holding a mode's raw moments M: sets it to
        /// `(shared + a·M).centered(scale: s, about: m0, m1, m2)` — one mode's mixed state in
        /// ``ModeMixture/predict(dt:)`` — field by field in one pass (the same operations as
        /// ``add(_:weight:)`` on a copy of `shared` and ``assignCentered(_:scale:about:_:_:)``).
        @inline(__always)
        mutating func assignMixed(shared c: Channel, weight a: Double, scale s: Double, about m0: V, _ m1: V, _ m2: V) {
            let d0 = s * (c.x0 + a * x0), d1 = s * (c.x1 + a * x1), d2 = s * (c.x2 + a * x2)
            p00 = s * (c.p00 + a * p00) - d0 * d0; p01 = s * (c.p01 + a * p01) - d0 * d1
            p02 = s * (c.p02 + a * p02) - d0 * d2; p11 = s * (c.p11 + a * p11) - d1 * d1
            p12 = s * (c.p12 + a * p12) - d1 * d2; p22 = s * (c.p22 + a * p22) - d2 * d2
            x0 = m0 + d0; x1 = m1 + d1; x2 = m2 + d2
        }

        /// ``add(_:weight:)`` of the position and velocity fields only (x0, x1, p00, p01, p11).
        @inline(__always)
        mutating func addPositionVelocity(_ c: Channel, weight w: Double) {
            x0 += w * c.x0; x1 += w * c.x1
            p00 += w * c.p00; p01 += w * c.p01; p11 += w * c.p11
        }

        /// ``assignCentered(_:scale:about:_:_:)`` at scale 1 of the position and velocity fields
        /// (the same values: 1·x = x); the bias fields become NaN.
        @inline(__always)
        mutating func assignCenteredPositionVelocity(_ c: Channel, about m0: V, _ m1: V) {
            let d0 = c.x0, d1 = c.x1
            x0 = m0 + d0; x1 = m1 + d1
            p00 = c.p00 - d0 * d0; p01 = c.p01 - d0 * d1; p11 = c.p11 - d1 * d1
            let nan = V(repeating: .nan)
            x2 = nan; p02 = nan; p12 = nan; p22 = nan
        }

        /// The mean and covariance of raw moments about (m0, m1, m2) scaled by `s`: with
        /// d = s·offset and S = s·second moment, x = m + d and P = S − d dᵀ (the inverse of
        /// ``moments(about:_:_:)`` after normalizing a weighted sum).
        @inline(__always)
        func centered(scale s: Double, about m0: V, _ m1: V, _ m2: V) -> Channel {
            var c = Channel.zero
            c.assignCentered(self, scale: s, about: m0, m1, m2)
            return c
        }

        /// Sets this channel to `c.centered(scale:about:_:_:)`, field by field (a buffer element
        /// assigned in place: no 144-byte temporary copied with `memmove`).
        @inline(__always)
        mutating func assignCentered(_ c: Channel, scale s: Double, about m0: V, _ m1: V, _ m2: V) {
            let d0 = s * c.x0, d1 = s * c.x1, d2 = s * c.x2
            x0 = m0 + d0; x1 = m1 + d1; x2 = m2 + d2
            p00 = s * c.p00 - d0 * d0; p01 = s * c.p01 - d0 * d1; p02 = s * c.p02 - d0 * d2
            p11 = s * c.p11 - d1 * d1; p12 = s * c.p12 - d1 * d2; p22 = s * c.p22 - d2 * d2
        }
    }

    /// Every per-mode quantity — parameters, states, moments, innovations, probabilities,
    /// likelihoods, transition factors — in one copy-on-write object of raw buffers, so a step
    /// makes one uniqueness check per entry point (``uniqueStorage()``) instead of one per array
    /// written, and the loops index plain pointers (no bounds checks, no retain/release).
    /// Indices are always in `0..<modeCount` (the count is fixed at `init`).
    final class Storage: @unchecked Sendable {
        // @unchecked: the buffers are written only through a ModeMixture that holds the one
        // reference (`uniqueStorage()` copies otherwise), exactly like an Array's buffer.
        let count: Int
        /// The buffers (their current addresses: states and moments, probabilities and prior
        /// probabilities trade places).
        private(set) var view: View

        init(parameters p: [Parameters]) {
            let m = p.count, slots = ModeMixture.cacheSize * m
            count = m
            func buffer<T>(_ value: T, _ n: Int = m) -> UnsafeMutablePointer<T> {
                let b = UnsafeMutablePointer<T>.allocate(capacity: n)
                b.initialize(repeating: value, count: n)
                return b
            }
            let parameters = UnsafeMutablePointer<Parameters>.allocate(capacity: m)
            parameters.initialize(from: p, count: m)
            view = View(parameters: parameters, states: buffer(.zero), moments: buffer(.zero), innovations: buffer(.zero),
                        probability: buffer(1 / Double(m)), priorProbability: buffer(1 / Double(m)),
                        squaredDistances: buffer(0), logLikelihood: buffer(0), likelihoodScale: buffer(1),
                        cachedStay: buffer(1, slots), cachedMove: buffer(0, slots))
        }

        /// A copy of `o` (every buffer).
        convenience init(copying o: Storage) {
            let m = o.count, slots = ModeMixture.cacheSize * m, v = o.view
            self.init(parameters: Array(UnsafeBufferPointer(start: v.parameters, count: m)))
            view.states.update(from: v.states, count: m)
            view.moments.update(from: v.moments, count: m)
            view.innovations.update(from: v.innovations, count: m)
            view.probability.update(from: v.probability, count: m)
            view.priorProbability.update(from: v.priorProbability, count: m)
            view.squaredDistances.update(from: v.squaredDistances, count: m)
            view.logLikelihood.update(from: v.logLikelihood, count: m)
            view.likelihoodScale.update(from: v.likelihoodScale, count: m)
            view.cachedStay.update(from: v.cachedStay, count: slots)
            view.cachedMove.update(from: v.cachedMove, count: slots)
        }

        deinit {
            // Every element type is trivial: deallocation is all that is needed.
            let v = view
            v.parameters.deallocate(); v.states.deallocate(); v.moments.deallocate(); v.innovations.deallocate()
            v.probability.deallocate(); v.priorProbability.deallocate(); v.squaredDistances.deallocate()
            v.logLikelihood.deallocate(); v.likelihoodScale.deallocate(); v.cachedStay.deallocate(); v.cachedMove.deallocate()
        }

        /// The predicted states become the current ones and the old states the scratch (no copy).
        @inline(__always)
        func swapStatesAndMoments() { (view.states, view.moments) = (view.moments, view.states) }

        /// The predicted probabilities become the current ones (no copy; the recording
        /// prediction, which reads the prior afterwards, copies instead).
        @inline(__always)
        func swapProbabilities() { (view.probability, view.priorProbability) = (view.priorProbability, view.probability) }
    }

    /// A ``Storage``'s buffers (see there), valid while that storage lives and until its states
    /// and moments (probabilities and prior) trade places; a plain value, so passing it around
    /// costs no reference counting.
    struct View {
        let parameters: UnsafeMutablePointer<Parameters>
        /// Per mode: both axes' states.
        var states: UnsafeMutablePointer<Channel>
        /// Scratch for the mixed states of ``ModeMixture/predict(dt:)``; between a merge and the
        /// next prediction, the modes' raw moments (``ModeMixture/computeMoments(_:)``).
        var moments: UnsafeMutablePointer<Channel>
        /// Per mode, the last innovation (position or velocity) with its u = P hᵀ, so the update
        /// that follows it does not form them again (the state is unchanged in between).
        let innovations: UnsafeMutablePointer<Channel.Innovation>
        /// Mode probabilities (sum 1).
        var probability: UnsafeMutablePointer<Double>
        /// Scratch: the predicted mode probabilities c̄ⱼ of ``ModeMixture/predict(dt:)``.
        var priorProbability: UnsafeMutablePointer<Double>
        /// Per mode, the squared Mahalanobis distance d² of the last innovation (both axes).
        let squaredDistances: UnsafeMutablePointer<Double>
        /// Per mode, the likelihood `exp(logLikelihood) × likelihoodScale`: the exponent (−½ d² and
        /// any speed-limit term) and the factor 1/√(s_east s_north) of a Gaussian innovation (1
        /// where there is none), kept apart so that no step needs a logarithm; then the
        /// likelihoods themselves (see ``ModeMixture/reweight(_:top:)``).
        let logLikelihood: UnsafeMutablePointer<Double>
        let likelihoodScale: UnsafeMutablePointer<Double>
        /// Per cache slot and mode (slot-major): the probability of staying, exp(−dt·rateᵢ), and of
        /// moving to each other mode.
        let cachedStay: UnsafeMutablePointer<Double>
        let cachedMove: UnsafeMutablePointer<Double>
    }

    var storage: Storage
    let tau: Double?
    /// How bias-observing modes split a fix's variance (``PositionFilter/Configuration/biasShare``).
    var split: BiasSplit
    let stillVariance: Double
    /// Whether the storage's `moments` hold the current states' moments about `momentOrigin`.
    var momentsCurrent = false
    var momentOrigin: (SIMD2<Double>, SIMD2<Double>, SIMD2<Double>) = (.zero, .zero, .zero)
    /// Merged posterior (east, north).
    var merged = Channel.zero
    var mergedEast: KalmanFilter3 { merged.filter(0) }
    var mergedNorth: KalmanFilter3 { merged.filter(1) }
    /// Whether predictions record what the smoother needs (costs the cross-covariances and the
    /// merged bias); set before the first step.
    var recordsPrediction = false
    var priorEast = KalmanFilter3(x: .zero, P: .zero), priorNorth = KalmanFilter3(x: .zero, P: .zero)
    var crossEast = SIMD16<Double>(), crossNorth = SIMD16<Double>()
    /// Scratch for the per-mode cross-covariances of a recording prediction (allocated on first use).
    var crossScratch: [SIMD16<Double>] = []
    /// The step's transition factors for recent step lengths: `cacheSize` slots of (dt, φ(dt)),
    /// and per slot and mode (in the storage) the probability of staying and of moving to each
    /// other mode. Timestamps near 1.7e9 s make a nominal 0.1 s step one of a few neighbouring
    /// doubles, so one slot would miss on most steps.
    var cachedDts: SIMD4<Double> = SIMD4(repeating: .nan)
    var cachedPhis = SIMD4<Double>(repeating: 1)
    var nextCacheSlot = 0
    static let cacheSize = 4

    init(modes: [MotionMode], configuration c: PositionFilter.Configuration) {
        precondition(!modes.isEmpty, "a motion model needs at least one mode")
        storage = Storage(parameters: modes.map {
            Parameters(q: $0.accelerationSpectralDensity, observesBias: $0.observesBias && c.biasTimeConstant != nil,
                       holdsStill: $0.holdsStill, rate: $0.meanDuration > 0 ? 1 / $0.meanDuration : 0, kind: $0.kind,
                       maximumSpeed: $0.maximumSpeed ?? .infinity, maximumConsecutiveRejections: $0.maximumConsecutiveRejections)
        })
        tau = c.biasTimeConstant.flatMap { $0 > 0 && $0.isFinite ? $0 : nil }
        split = BiasSplit(biasVariance: tau == nil ? 1 : c.biasSigma * c.biasSigma, share: c.biasShare,
                          minimumWhite: c.minimumHorizontalSigma * c.minimumHorizontalSigma)
        stillVariance = c.stationaryVelocitySigma * c.stationaryVelocitySigma
        sumKindProbabilities(storage.view)
    }

    var modeCount: Int { storage.count }

    /// The storage, copied first if another value shares it (call once at the start of every
    /// mutating entry point; the returned reference is then the only one).
    @inline(__always)
    mutating func uniqueStorage() -> View {
        if !isKnownUniquelyReferenced(&storage) { storage = Storage(copying: storage) }
        return storage.view
    }

    /// Sets mode j's acceleration spectral density q (m²/s³; the adaptive smoother's second pass
    /// schedules its one mode's q step by step).
    mutating func setAccelerationSpectralDensity(_ q: Double, mode j: Int) {
        precondition(j >= 0 && j < modeCount, "mode index out of range")
        uniqueStorage().parameters[j].q = q
    }

    // MARK: HorizontalModel

    mutating func reset(east: Double, north: Double, noise r: Double, velocityVariance: Double) {
        let s = uniqueStorage()
        split.observe(fixVariance: r)
        let vb = split.current
        for j in 0..<modeCount {
            let par = s.parameters[j]
            var p00: Double, p02 = 0.0
            if par.observesBias {
                // Fix = p + b + w, b ~ N(0, σ_b²): p = fix − b − w, cov(p, b) = −σ_b².
                p00 = split.white(r) + vb; p02 = -vb
            } else {
                p00 = r
            }
            let p11 = par.holdsStill ? stillVariance : velocityVariance
            s.states[j] = Channel(x0: SIMD2(east, north), x1: .zero, x2: .zero, p00: SIMD2(repeating: p00), p01: .zero,
                                  p02: SIMD2(repeating: p02), p11: SIMD2(repeating: p11), p12: .zero, p22: SIMD2(repeating: vb))
        }
        merge(s)
    }

    /// `body(j)` for every mode j in order; written out for the four modes of the adaptive
    /// configuration (no loop counter, and the modes' independent work can interleave).
    @inline(__always)
    static func forEachMode(_ m: Int, _ body: (Int) -> Void) {
        if m == 4 { body(0); body(1); body(2); body(3) } else { for j in 0..<m { body(j) } }
    }

    /// The cache slot holding the transition factors for `dt` (computed on a miss).
    @inline(__always)
    mutating func transitionSlot(_ dt: Double, _ s: View) -> Int {
        for k in 0..<Self.cacheSize where cachedDts[k] == dt { return k }
        let k = nextCacheSlot
        nextCacheSlot = (k + 1) % Self.cacheSize
        let m = modeCount
        cachedDts[k] = dt
        cachedPhis[k] = tau.map { exp(-dt / $0) } ?? 1
        for i in 0..<m {
            let stay = exp(-dt * s.parameters[i].rate)
            s.cachedStay[k * m + i] = stay
            s.cachedMove[k * m + i] = m > 1 ? (1 - stay) / Double(m - 1) : 0
        }
        return k
    }

    mutating func predict(dt: Double) { _ = predict(dt: dt, fix: nil) }

    /// ``predict(dt:)`` then ``positionInnovation(east:north:noise:)``, in one pass over the
    /// modes when it can (the same values: each mode's innovation is formed from its predicted
    /// state while that is at hand).
    mutating func predictInnovation(dt: Double, east: Double, north: Double, noise r: Double) -> Double {
        predict(dt: dt, fix: (SIMD2(east, north), r))
    }

    /// ``predict(dt:)``; with a `fix` (position, per-axis variance) also its
    /// ``positionInnovation(east:north:noise:)``, whose gate statistic it returns (NaN without).
    @inline(__always)
    mutating func predict(dt: Double, fix: (z: SIMD2<Double>, r: Double)?) -> Double {
        let m = modeCount
        let s = uniqueStorage()
        let slot = transitionSlot(dt, s)
        let phi = cachedPhis[slot], biasNoise = tau == nil ? 0 : split.current * (1 - phi * phi)
        if m == 1 {
            predictSingle(s, dt: dt, phi: phi, biasNoise: biasNoise)
            return fix.map { positionInnovation(east: $0.z[0], north: $0.z[1], noise: $0.r) } ?? .nan
        }
        // Mixing: with bᵢ = μᵢ·moveᵢ and aⱼ = μⱼ (stayⱼ − moveⱼ) the weights are Πᵢⱼ μᵢ = bᵢ + [i = j] aⱼ,
        // so the predicted mode probabilities are c̄ⱼ = Σᵢ bᵢ + aⱼ and each mode's moment-matched
        // mixed state is the normalized (Σᵢ bᵢ Mᵢ + aⱼ Mⱼ) / c̄ⱼ of the modes' raw moments Mᵢ
        // (``computeMoments(_:)``, usually left by the last merge), re-centered: one shared sum
        // and one term per mode instead of m² outer products.
        if !momentsCurrent { computeMoments(s) }
        momentsCurrent = false   // the mixed states replace them below
        let (r0, r1, r2) = momentOrigin
        let st = s.states, mx = s.moments, pr = s.probability, pp = s.priorProbability
        let stay = s.cachedStay + slot * m, move = s.cachedMove + slot * m
        var shared = Channel.zero, b = 0.0
        Self.forEachMode(m) { i in
            let w = pr[i] * move[i]
            b += w
            // Unconditional (w = 0 adds exact zeros: the moments are finite), so the sum stays
            // in vector registers instead of being split into scalars around a branch.
            shared.add(mx[i], weight: w)
        }
        Self.forEachMode(m) { j in
            let a = pr[j] * (stay[j] - move[j])
            let c = b + a
            pp[j] = c
            guard c > 0 else { mx[j] = st[j]; return }
            mx[j].assignMixed(shared: shared, weight: a, scale: 1 / c, about: r0, r1, r2)
        }
        if recordsPrediction {
            predictRecording(s, dt: dt, phi: phi, biasNoise: biasNoise)
            return fix.map { positionInnovation(east: $0.z[0], north: $0.z[1], noise: $0.r) } ?? .nan
        }
        // The fix's variance split (after the prediction's bias noise, which uses the previous
        // fix's, as in predict(dt:) followed by positionInnovation).
        let biasWhite = fix.map { observeFix(noise: $0.r) } ?? 0
        // Each mode predicts its mixed state in place; the buffers then trade places (the old
        // states become the scratch), so no state is copied.
        let par = s.parameters, still = stillVariance
        Self.forEachMode(m) { j in
            mx[j].predict(dt: dt, q: par[j].q, phi: phi, biasNoise: biasNoise)
            // Velocity held at zero: a zero-velocity pseudo-measurement.
            // h = (0, 1, 0): u = P hᵀ is the velocity column and s = p₁₁ + r (what the
            // general update forms, without its products by 0 and 1).
            if par[j].holdsStill, still > 0, still.isFinite {
                let c = mx[j]
                mx[j].update(innovation: -c.x1, u0: c.p01, u1: c.p11, u2: c.p12, s: c.p11 + still)
            }
            if let fix { Self.storePositionInnovation(of: mx[j], j, s, measurement: fix.z, noise: fix.r, biasWhite: biasWhite) }
        }
        storage.swapStatesAndMoments()
        storage.swapProbabilities()
        // No merge here: every step follows the prediction with applyPosition, rejectPosition
        // or reset, each of which merges (and nothing reads the merged state in between).
        return fix == nil ? .nan : gateStatistic(probability: pp, squaredDistances: s.squaredDistances)
    }

    /// The per-mode prediction of ``predict(dt:)`` from the mixed states (in the storage's
    /// `moments`), recording the moment-matched prediction and its cross-covariance with the
    /// previous merged posterior for the smoother.
    mutating func predictRecording(_ st: View, dt: Double, phi: Double, biasNoise: Double) {
        let m = modeCount
        if crossScratch.count != 2 * m { crossScratch = Array(repeating: SIMD16(), count: 2 * m) }
        let mixed = st.moments, prior = st.priorProbability
        var nextEast = SIMD3<Double>(), nextNorth = SIMD3<Double>()
        for j in 0..<m {
            var s = mixed[j]
            crossScratch[2 * j] = Self.predictionCross(s.filter(0).P, dt: dt, phi: phi)
            crossScratch[2 * j + 1] = Self.predictionCross(s.filter(1).P, dt: dt, phi: phi)
            s.predict(dt: dt, q: st.parameters[j].q, phi: phi, biasNoise: biasNoise)
            if st.parameters[j].holdsStill {
                // Velocity held at zero: x_{k+1} ← x + k (0 − v), so cov(x_k, ·) ← C (I − k hᵀ)ᵀ.
                for a in 0..<2 {
                    let s11 = s.p11[a] + stillVariance
                    let k = SIMD3(s.p01[a], s.p11[a], s.p12[a]) / s11
                    var c = crossScratch[2 * j + a]
                    for i in 0..<3 {
                        let ch = c[i * 3 + 1]
                        for l in 0..<3 { c[i * 3 + l] -= ch * k[l] }
                    }
                    crossScratch[2 * j + a] = c
                }
                s.update(innovation: -s.x1, h0: 0, h1: 1, h2: 0, noise: stillVariance)
            }
            st.states[j] = s
            nextEast += prior[j] * s.filter(0).x
            nextNorth += prior[j] * s.filter(1).x
        }
        for j in 0..<m { st.probability[j] = prior[j] }
        // Moment-matched prediction and cross-covariance with the previous merged posterior:
        // C = Σⱼ c̄ⱼ [Cⱼ + (x₀ⱼ − x̂)(x̄ⱼ − x̄)ᵀ].
        for a in 0..<2 {
            let next = a == 0 ? nextEast : nextNorth
            let post = a == 0 ? mergedEast.x : mergedNorth.x
            var P = SIMD16<Double>(), C = SIMD16<Double>()
            for j in 0..<m {
                let w = prior[j]
                guard w > 0 else { continue }
                let s = st.states[j].filter(a)
                let d = s.x - next
                P += w * (s.P + Self.outer(d))
                C += w * (crossScratch[2 * j + a] + Self.outer(mixed[j].filter(a).x - post, d))
            }
            if a == 0 {
                priorEast = KalmanFilter3(x: next, P: P); crossEast = C
            } else {
                priorNorth = KalmanFilter3(x: next, P: P); crossNorth = C
            }
        }
        merge(st)
    }

    /// cov(x_k, x_{k+1}) = P₀ Fᵀ, F = [[1, dt, 0], [0, 1, 0], [0, 0, φ]] (row-major in 16 lanes).
    @inline(__always)
    static func predictionCross(_ P: SIMD16<Double>, dt: Double, phi: Double) -> SIMD16<Double> {
        var cross = SIMD16<Double>()
        for i in 0..<3 {
            cross[i * 3 + 0] = P[i * 3 + 0] + dt * P[i * 3 + 1]
            cross[i * 3 + 1] = P[i * 3 + 1]
            cross[i * 3 + 2] = phi * P[i * 3 + 2]
        }
        return cross
    }

    /// ``predict(dt:)`` of a one-mode mixture (a Kalman filter: no mixing, no probabilities), in place.
    @inline(__always)
    mutating func predictSingle(_ st: View, dt: Double, phi: Double, biasNoise: Double) {
        let p = st.parameters[0]
        var s = st.states[0]
        var cross = (SIMD16<Double>(), SIMD16<Double>())
        if recordsPrediction {
            cross = (Self.predictionCross(s.filter(0).P, dt: dt, phi: phi), Self.predictionCross(s.filter(1).P, dt: dt, phi: phi))
        }
        s.predict(dt: dt, q: p.q, phi: phi, biasNoise: biasNoise)
        if p.holdsStill {
            if recordsPrediction {
                for a in 0..<2 {
                    let s11 = s.p11[a] + stillVariance
                    let k = SIMD3(s.p01[a], s.p11[a], s.p12[a]) / s11
                    var c = a == 0 ? cross.0 : cross.1
                    for i in 0..<3 {
                        let ch = c[i * 3 + 1]
                        for l in 0..<3 { c[i * 3 + l] -= ch * k[l] }
                    }
                    if a == 0 { cross.0 = c } else { cross.1 = c }
                }
            }
            s.update(innovation: -s.x1, h0: 0, h1: 1, h2: 0, noise: stillVariance)
        }
        st.states[0] = s
        merged = s
        if recordsPrediction {
            crossEast = cross.0; crossNorth = cross.1
            priorEast = mergedEast; priorNorth = mergedNorth
        }
    }

    mutating func positionInnovation(east: Double, north: Double, noise r: Double) -> Double {
        let m = modeCount
        let s = uniqueStorage()
        let biasWhite = observeFix(noise: r), z = SIMD2(east, north)
        for j in 0..<m { Self.storePositionInnovation(of: s.states[j], j, s, measurement: z, noise: r, biasWhite: biasWhite) }
        return gateStatistic(probability: s.probability, squaredDistances: s.squaredDistances)
    }

    /// Takes a fix's per-axis variance `r` (the bias split follows it; kept for
    /// ``applyPosition()``) and returns the white variance of a bias-observing mode.
    @inline(__always)
    mutating func observeFix(noise r: Double) -> Double {
        split.observe(fixVariance: r)
        lastNoise = r
        return split.white(r)
    }

    /// Mode j's position innovation (state `c`) with its d², into the storage `s`: noise
    /// `biasWhite` for a bias-observing mode, `r` otherwise.
    @inline(__always)
    static func storePositionInnovation(of c: Channel, _ j: Int, _ s: View, measurement z: SIMD2<Double>, noise r: Double, biasWhite: Double) {
        let biased = s.parameters[j].observesBias
        let i = c.positionInnovation(measurement: z, biased: biased, noise: biased ? biasWhite : r)
        s.innovations[j] = i
        s.squaredDistances[j] = i.squaredDistance
    }

    /// The gate statistic of the modes' position innovations (squared distances `dd`) under mode
    /// probabilities `pr`.
    @inline(__always)
    func gateStatistic(probability pr: UnsafeMutablePointer<Double>, squaredDistances dd: UnsafeMutablePointer<Double>) -> Double {
        let m = modeCount
        var top = 0
        for j in 1..<max(m, 1) where pr[j] > pr[top] { top = j }
        // The gate statistic: the smallest d² among the modes that are plausible now
        // (probability ≥ ``plausibleProbability``; the most probable always is). A fix is an
        // outlier only when every plausible mode says so — a moment-matched mixture's variance
        // is dominated by the most confident mode and would reject fixes that a competing,
        // equally plausible mode explains (white errors while a correlated-error mode still
        // has weight).
        var best = Double.infinity
        for j in 0..<m where j == top || pr[j] >= Self.plausibleProbability { best = min(best, dd[j]) }
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
        let s = uniqueStorage()
        var top = -Double.infinity
        for j in 0..<m {
            let l = -0.5 * min(s.squaredDistances[j], gate)
            s.logLikelihood[j] = l
            s.likelihoodScale[j] = 1
            if l.isFinite { top = max(top, l) }
        }
        reweight(s, top: top)
        merge(s)
    }

    mutating func applyPosition() {
        let m = modeCount
        let s = uniqueStorage()
        let r = lastNoise
        // The white variance of a bias-observing mode, hoisted.
        let biasWhite = split.white(r)
        let st = s.states, par = s.parameters, inn = s.innovations, d2 = s.squaredDistances
        let ll = s.logLikelihood, sc = s.likelihoodScale, mo = s.moments
        var origin = (SIMD2<Double>.zero, SIMD2<Double>.zero, SIMD2<Double>.zero)
        var top = -Double.infinity
        Self.forEachMode(m) { j in
            let v = inn[j]
            let rj = par[j].observesBias ? biasWhite : r
            // The update of ``Channel/update(innovation:h0:h1:h2:noise:)`` with h = (1, 0, 0 or 1)
            // from the innovation's own u and s (its noise guard included).
            if rj > 0, rj.isFinite { st[j].update(v) }
            guard m > 1 else { return }
            // The merge's raw moments (``computeMoments(_:)``), formed while the state is at hand.
            if j == 0 {
                origin = (st[0].x0, st[0].x1, st[0].x2)
                mo[0] = st[0].momentsOfOrigin
            } else {
                mo[j] = st[j].moments(about: origin.0, origin.1, origin.2)
            }
            var l = -0.5 * d2[j]
            // A mode with a speed limit (a pedestrian) finds a faster estimate unlikely.
            let vmax = par[j].maximumSpeed
            let ve = st[j].x1[0], vn = st[j].x1[1], speed2 = ve * ve + vn * vn
            if speed2 > vmax * vmax {   // never for an infinite limit; the root only when over it
                let excess = (speed2.squareRoot() - vmax) / Self.speedLimitSigma
                l -= 0.5 * excess * excess
            }
            let c = v.likelihoodScale
            ll[j] = l
            sc[j] = c
            if l.isFinite && c.isFinite { top = max(top, l) }
        }
        if m > 1 {
            momentOrigin = origin
            momentsCurrent = true
            reweight(s, top: top)
        }
        merge(s, momentsFormed: true)
    }

    /// σ (m/s) of the soft speed limit of a mode with ``MotionMode/maximumSpeed``.
    static let speedLimitSigma = 0.5

    mutating func updateVelocity(east ve: Double, north vn: Double, noise r: Double, gate: Double) -> Bool {
        let m = modeCount
        let s = uniqueStorage()
        // Gate: refused only when no mode accepts it (a start or stop is a velocity every mode
        // but one finds unlikely; the likelihoods below then switch modes).
        var d2 = Double.infinity
        for j in 0..<m {
            let i = s.states[j].velocityInnovation(measurement: SIMD2(ve, vn), noise: r)
            s.innovations[j] = i
            s.squaredDistances[j] = i.squaredDistance
            d2 = min(d2, s.squaredDistances[j])
        }
        guard d2 <= gate, d2.isFinite else { return false }
        var top = -Double.infinity
        for j in 0..<m {
            let v = s.innovations[j]
            // ``Channel/update(innovation:h0:h1:h2:noise:)`` from the gate's own u and s.
            if r > 0, r.isFinite { s.states[j].update(v) }
            let l = -0.5 * s.squaredDistances[j], c = v.likelihoodScale
            s.logLikelihood[j] = l
            s.likelihoodScale[j] = c
            if l.isFinite && c.isFinite { top = max(top, l) }
        }
        reweight(s, top: top)
        merge(s)
        return true
    }

    var marginals: (east: KalmanFilter2, north: KalmanFilter2) {
        @inline(__always) get { (Self.marginal(merged, 0), Self.marginal(merged, 1)) }
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
        let s = storage.view
        var best = 0
        for j in 1..<modeCount where s.probability[j] > s.probability[best] { best = j }
        return s.parameters[best].maximumConsecutiveRejections
    }

    // MARK: helpers

    /// The probability of every motion kind (modes of the same kind summed), formed by every
    /// merge (``sumKindProbabilities(_:)``): the filter reads it twice per step (statistics and
    /// estimate).
    private(set) var kindProbabilities: (stationary: Double, walking: Double, vehicle: Double) = (0, 0, 0)

    /// Sets ``kindProbabilities`` from the mode probabilities in one pass.
    @inline(__always)
    mutating func sumKindProbabilities(_ st: View) {
        var s = 0.0, w = 0.0, v = 0.0
        for j in 0..<modeCount {
            switch st.parameters[j].kind {
            case .stationary: s += st.probability[j]
            case .walking: w += st.probability[j]
            case .vehicle: v += st.probability[j]
            }
        }
        kindProbabilities = (s, w, v)
    }

    /// Probability of each motion kind (modes of the same kind summed; ``kindProbabilities``).
    func probability(of kind: MotionKind) -> Double {
        switch kind {
        case .stationary: return kindProbabilities.stationary
        case .walking: return kindProbabilities.walking
        case .vehicle: return kindProbabilities.vehicle
        }
    }

    /// Multiplies the mode probabilities by the likelihoods exp(logL) × scale (the storage's
    /// `logLikelihood`, `likelihoodScale`) and renormalizes (unchanged when no likelihood is
    /// finite). The exponents are taken relative to the largest, `top`: the largest logL whose
    /// logL and scale are both finite (−∞ if none), which the callers find while filling them,
    /// so no likelihood underflows for being far from the others' scale. `s` is the unique storage.
    @inline(__always)
    func reweight(_ s: View, top: Double) {
        let m = modeCount
        guard m > 1 else { return }
        let ll = s.logLikelihood, sc = s.likelihoodScale, pr = s.probability
        guard top.isFinite else { return }
        var sum = 0.0
        for j in 0..<m {
            // exp once per mode: kept in logLikelihood for the normalization below.
            let e = ll[j] - top, c = sc[j]
            let l = e.isFinite && c.isFinite ? (e == 0 ? c : exp(e) * c) : 0
            ll[j] = l
            sum += pr[j] * l
        }
        guard sum > 0, sum.isFinite else { return }
        let inverse = 1 / sum
        for j in 0..<m { pr[j] *= ll[j] * inverse }
    }

    /// The moment-matched mixture of the modes into the merged posterior: Σⱼ μⱼ Mⱼ of the modes'
    /// raw moments (``computeMoments(_:)``), re-centered. The moments stay for the next
    /// ``predict(dt:)``'s mixing (the states do not change in between). `momentsFormed`: the
    /// caller has just filled them (``applyPosition()``). `s` is the unique storage. Also sums
    /// ``kindProbabilities``.
    @inline(__always)
    mutating func merge(_ s: View, momentsFormed: Bool = false) {
        let m = modeCount
        if m == 1 { merged = s.states[0]; return }
        sumKindProbabilities(s)
        if !momentsFormed { computeMoments(s) }
        let (r0, r1, r2) = momentOrigin
        let mx = s.moments, pr = s.probability
        if recordsPrediction {
            var sum = Channel.zero
            for j in 0..<m where pr[j] > 0 { sum.add(mx[j], weight: pr[j]) }
            merged = sum.centered(scale: 1, about: r0, r1, r2)
            return
        }
        // Without a smoother only ``marginals`` read the merged state: its position and velocity
        // (the same expressions as the full merge, field by field); the bias part is NaN so
        // that nothing can read it unnoticed.
        var sum = Channel.zero
        for j in 0..<m { sum.addPositionVelocity(mx[j], weight: pr[j]) }   // μ = 0 adds zeros
        merged.assignCenteredPositionVelocity(sum, about: r0, r1)
    }

    /// Fills the storage's `moments` with each mode's raw moments about mode 0's mean
    /// (``momentOrigin``): offset d = x − x₀ and second moment P + d dᵀ
    /// (``Channel/moments(about:_:_:)``). The offsets are the modes' spread (meters), so
    /// re-centering a weighted sum of them costs only rounding-level precision. `s` is the
    /// unique storage.
    @inline(__always)
    mutating func computeMoments(_ s: View) {
        let m = modeCount
        let st = s.states, out = s.moments
        let o = st[0]
        momentOrigin = (o.x0, o.x1, o.x2)
        out[0] = o.momentsOfOrigin
        for i in 1..<max(m, 1) { out[i] = st[i].moments(about: o.x0, o.x1, o.x2) }
        momentsCurrent = true
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

    @inline(__always)
    static func marginal(_ s: Channel, _ a: Int) -> KalmanFilter2 {
        KalmanFilter2(x: SIMD2(s.x0[a], s.x1[a]), P: SIMD4(s.p00[a], s.p01[a], s.p01[a], s.p11[a]))
    }
}
