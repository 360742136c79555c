import Foundation

/// A linear Kalman filter with a small fixed state dimension, stored entirely in value types.
///
/// The state `x` is a `SIMD` vector of `n = Vector.scalarCount` components; the covariance `P`
/// is an n×n matrix stored **row-major** in a `SIMD` container (`P[i * n + j]`), e.g.
/// ``KalmanFilter2`` (`SIMD2`/`SIMD4`) or ``KalmanFilter4`` (`SIMD4`/`SIMD16`). Every
/// operation works on stack values: no step allocates, and after specialization every loop has
/// constant bounds.
///
/// - ``predict(transition:noise:)`` propagates with any transition `F` (so a variable `dt` is just
///   a different `F` and `Q` per call): `x ← F x`, `P ← F P Fᵀ + Q`.
/// - ``update(measurement:observation:noise:gate:)-(Double,_,_,_)`` (scalar) and
///   ``update(measurement:observation:noise:gate:)-(MV,_,_,_)`` (vector) apply a linear
///   measurement `z = H x + v`, `v ~ N(0, R)`; the `innovation:` variants take a precomputed
///   innovation for linearized or circular measurements (an EKF step, a wrapped angle).
/// - The covariance update is the **Joseph form** `P ← (I − K H) P (I − K H)ᵀ + K R Kᵀ`, which
///   stays symmetric positive semi-definite for any gain, and the result is symmetrized.
/// - Each update reports the squared Mahalanobis distance `d² = yᵀ S⁻¹ y` of its innovation
///   `y` (with `S = H P Hᵀ + R`) and can reject it against a χ² gate.
/// - Inputs that would corrupt the state (non-finite values, an `S` that is not positive
///   definite, a result that is not finite or has a non-positive variance) are refused: the
///   state is left exactly as it was and the outcome says why.
///
/// - Accuracy: agrees with FilterPy 2.0's `KalmanFilter.predict/update` (which also uses the
///   Joseph form) and `rts_smoother` to ≤ 1e-9 absolute on the committed fixture
///   `Tests/GeoAnchorKitTests/Fixtures/Filtering/` (checked in the test suite).
@frozen
public struct KalmanFilter<Vector: SIMD, Matrix: SIMD>: Hashable
    where Vector.Scalar == Double, Matrix.Scalar == Double {
    /// State estimate (units are the model's).
    public var x: Vector
    /// State covariance, n×n row-major; symmetric positive definite.
    public var P: Matrix

    /// The state dimension n.
    @inlinable public static var dimension: Int { Vector.scalarCount }

    /// Creates a filter with an initial state and covariance.
    /// - Precondition: `Matrix` holds at least n² scalars (a programmer error otherwise).
    @inlinable
    public init(x: Vector, P: Matrix) {
        precondition(Matrix.scalarCount >= Vector.scalarCount * Vector.scalarCount,
                     "covariance container too small for the state dimension")
        self.x = x
        self.P = P
    }

    /// Creates a filter with a diagonal initial covariance.
    @inlinable
    public init(x: Vector, variances: Vector) {
        var p = Matrix()
        let n = Vector.scalarCount
        for i in 0..<n { p[i * n + i] = variances[i] }
        self.init(x: x, P: p)
    }

    /// Element (i, j) of the covariance.
    @inlinable
    public func covariance(_ i: Int, _ j: Int) -> Double { P[i * Vector.scalarCount + j] }

    // MARK: predict

    /// Propagates the state: `x ← F x`, `P ← F P Fᵀ + Q`.
    ///
    /// - Parameters:
    ///   - F: the transition, n×n row-major (built for this step's `dt`).
    ///   - Q: the process noise, n×n row-major, symmetric positive semi-definite.
    /// - Returns: false (and leaves the state unchanged) when the result is not finite.
    @inlinable
    @discardableResult
    public mutating func predict(transition F: Matrix, noise Q: Matrix) -> Bool {
        let n = Vector.scalarCount
        let nx = SmallMatrix.multiply(F, x)
        let fp = SmallMatrix.multiply(F, P, n: n)
        var np = SmallMatrix.multiplyTransposed(fp, F, n: n)
        for i in 0..<(n * n) { np[i] += Q[i] }
        np = SmallMatrix.symmetrized(np, n: n)
        guard SmallMatrix.allFinite(nx, count: n), SmallMatrix.allFinite(np, count: n * n) else { return false }
        x = nx
        P = np
        return true
    }

    // MARK: scalar update

    /// Innovation `y = z − h·x` and its variance `s = h P hᵀ + r` of a scalar measurement,
    /// without changing the state (for gating decisions that combine several channels).
    @inlinable
    public func innovation(measurement z: Double, observation h: Vector, noise r: Double) -> (innovation: Double, variance: Double) {
        let ph = SmallMatrix.multiply(P, h)
        return (z - (h * x).sum(), (h * ph).sum() + r)
    }

    /// Applies a scalar linear measurement `z = h·x + v`, `v ~ N(0, r)`.
    ///
    /// - Parameters:
    ///   - z: the measurement.
    ///   - h: the observation row (n values).
    ///   - r: measurement variance, > 0.
    ///   - gate: χ² threshold on `d² = y²/s`; larger values are rejected (default: no gate).
    @inlinable
    @discardableResult
    public mutating func update(measurement z: Double, observation h: Vector, noise r: Double,
                                gate: Double = .infinity) -> KalmanUpdateOutcome {
        update(innovation: z - (h * x).sum(), observation: h, noise: r, gate: gate)
    }

    /// Applies a scalar measurement given its innovation `y` (e.g. a wrapped angle difference or
    /// `z − h(x)` of a linearized model with Jacobian row `h`).
    @inlinable
    @discardableResult
    public mutating func update(innovation y: Double, observation h: Vector, noise r: Double,
                                gate: Double = .infinity) -> KalmanUpdateOutcome {
        let n = Vector.scalarCount
        guard y.isFinite, r > 0, r.isFinite, SmallMatrix.allFinite(h, count: n) else {
            return KalmanUpdateOutcome(status: .invalidInput, mahalanobisSquared: .nan)
        }
        let ph = SmallMatrix.multiply(P, h)           // P hᵀ
        let s = (h * ph).sum() + r
        guard s > 0, s.isFinite else { return KalmanUpdateOutcome(status: .notPositiveDefinite, mahalanobisSquared: .nan) }
        let d2 = y * y / s
        if d2 > gate { return KalmanUpdateOutcome(status: .gated, mahalanobisSquared: d2) }
        let k = ph / s
        let nx = x + k * y
        // Joseph form with A = I − k hᵀ: P' = A P Aᵀ + r k kᵀ.
        var a = Matrix()
        for i in 0..<n {
            for j in 0..<n { a[i * n + j] = (i == j ? 1 : 0) - k[i] * h[j] }
        }
        var np = SmallMatrix.multiplyTransposed(SmallMatrix.multiply(a, P, n: n), a, n: n)
        for i in 0..<n {
            for j in 0..<n { np[i * n + j] += r * k[i] * k[j] }
        }
        return commit(x: nx, P: SmallMatrix.symmetrized(np, n: n), d2: d2)
    }

    // MARK: vector update

    /// Applies an m-dimensional linear measurement `z = H x + v`, `v ~ N(0, R)`.
    ///
    /// - Parameters:
    ///   - z: the measurement (m = `MV.scalarCount`).
    ///   - H: m×n observation matrix, row-major (`H[i * n + j]`).
    ///   - R: m×m measurement covariance, row-major, symmetric positive definite.
    ///   - gate: χ² threshold (m degrees of freedom) on `d² = yᵀ S⁻¹ y`.
    /// - Precondition: `HM` holds ≥ m·n scalars and `MM` ≥ m² (programmer errors).
    @inlinable
    @discardableResult
    public mutating func update<MV: SIMD, HM: SIMD, MM: SIMD>(measurement z: MV, observation H: HM, noise R: MM,
                                                              gate: Double = .infinity) -> KalmanUpdateOutcome
        where MV.Scalar == Double, HM.Scalar == Double, MM.Scalar == Double {
        let n = Vector.scalarCount, m = MV.scalarCount
        precondition(HM.scalarCount >= m * n && MM.scalarCount >= m * m, "measurement containers too small")
        var y = z
        for i in 0..<m {
            var s = 0.0
            for j in 0..<n { s += H[i * n + j] * x[j] }
            y[i] -= s
        }
        return update(innovation: y, observation: H, noise: R, gate: gate)
    }

    /// Applies an m-dimensional measurement given its innovation `y` (linearized or wrapped).
    @inlinable
    @discardableResult
    public mutating func update<MV: SIMD, HM: SIMD, MM: SIMD>(innovation y: MV, observation H: HM, noise R: MM,
                                                              gate: Double = .infinity) -> KalmanUpdateOutcome
        where MV.Scalar == Double, HM.Scalar == Double, MM.Scalar == Double {
        let n = Vector.scalarCount, m = MV.scalarCount
        precondition(HM.scalarCount >= m * n && MM.scalarCount >= m * m, "measurement containers too small")
        guard SmallMatrix.allFinite(y, count: m), SmallMatrix.allFinite(H, count: m * n),
              SmallMatrix.allFinite(R, count: m * m) else {
            return KalmanUpdateOutcome(status: .invalidInput, mahalanobisSquared: .nan)
        }
        // P Hᵀ (n×m, row-major, stored in an HM container: same m·n count).
        var pht = HM()
        for i in 0..<n {
            for j in 0..<m {
                var s = 0.0
                for k in 0..<n { s += P[i * n + k] * H[j * n + k] }
                pht[i * m + j] = s
            }
        }
        // S = H P Hᵀ + R, then its Cholesky factor.
        var l = MM()
        for i in 0..<m {
            for j in 0..<m {
                var s = R[i * m + j]
                for k in 0..<n { s += H[i * n + k] * pht[k * m + j] }
                l[i * m + j] = s
            }
        }
        l = SmallMatrix.symmetrized(l, n: m)
        guard SmallMatrix.cholesky(&l, m: m) else {
            return KalmanUpdateOutcome(status: .notPositiveDefinite, mahalanobisSquared: .nan)
        }
        var w = y
        SmallMatrix.choleskySolve(l, m: m, &w)        // w = S⁻¹ y
        let d2 = (y * w).sum()
        if d2 > gate { return KalmanUpdateOutcome(status: .gated, mahalanobisSquared: d2) }
        // K = P Hᵀ S⁻¹: each row of P Hᵀ solved against S (S symmetric).
        var k = pht
        for i in 0..<n { SmallMatrix.choleskySolve(l, m: m, &k, offset: i * m, step: 1) }
        var nx = x
        for i in 0..<n {
            var s = 0.0
            for j in 0..<m { s += k[i * m + j] * y[j] }
            nx[i] += s
        }
        // Joseph form: A = I − K H; P' = A P Aᵀ + K R Kᵀ.
        var a = Matrix()
        for i in 0..<n {
            for j in 0..<n {
                var s = 0.0
                for t in 0..<m { s += k[i * m + t] * H[t * n + j] }
                a[i * n + j] = (i == j ? 1 : 0) - s
            }
        }
        var np = SmallMatrix.multiplyTransposed(SmallMatrix.multiply(a, P, n: n), a, n: n)
        var kr = HM()                                  // K R (n×m)
        for i in 0..<n {
            for j in 0..<m {
                var s = 0.0
                for t in 0..<m { s += k[i * m + t] * R[t * m + j] }
                kr[i * m + j] = s
            }
        }
        for i in 0..<n {
            for j in 0..<n {
                var s = 0.0
                for t in 0..<m { s += kr[i * m + t] * k[j * m + t] }
                np[i * n + j] += s
            }
        }
        return commit(x: nx, P: SmallMatrix.symmetrized(np, n: n), d2: d2)
    }

    /// Stores an updated state only if it is finite with positive variances.
    @inlinable
    mutating func commit(x nx: Vector, P np: Matrix, d2: Double) -> KalmanUpdateOutcome {
        let n = Vector.scalarCount
        guard SmallMatrix.allFinite(nx, count: n), SmallMatrix.allFinite(np, count: n * n) else {
            return KalmanUpdateOutcome(status: .notPositiveDefinite, mahalanobisSquared: d2)
        }
        for i in 0..<n where !(np[i * n + i] > 0) {
            return KalmanUpdateOutcome(status: .notPositiveDefinite, mahalanobisSquared: d2)
        }
        x = nx
        P = np
        return KalmanUpdateOutcome(status: .applied, mahalanobisSquared: d2)
    }
}

extension KalmanFilter: Sendable where Vector: Sendable, Matrix: Sendable {}

/// What a Kalman measurement update did.
@frozen
public struct KalmanUpdateOutcome: Sendable, Hashable {
    /// Why an update was or was not applied.
    public enum Status: Sendable, Hashable {
        /// The state and covariance were updated.
        case applied
        /// `d²` exceeded the gate; the state is unchanged.
        case gated
        /// A non-finite measurement, observation or noise, or a non-positive variance; unchanged.
        case invalidInput
        /// The innovation covariance or the result was not positive definite / finite; unchanged.
        case notPositiveDefinite
    }
    /// What happened.
    public var status: Status
    /// Squared Mahalanobis distance `yᵀ S⁻¹ y` of the innovation (NaN when it could not be computed).
    public var mahalanobisSquared: Double

    @inlinable
    public init(status: Status, mahalanobisSquared: Double) {
        self.status = status
        self.mahalanobisSquared = mahalanobisSquared
    }

    /// True when the update was applied.
    @inlinable public var isApplied: Bool { status == .applied }
}

/// A 2-state filter (e.g. position and velocity along one axis).
public typealias KalmanFilter2 = KalmanFilter<SIMD2<Double>, SIMD4<Double>>
/// A 3-state filter (covariance padded into 16 scalars).
public typealias KalmanFilter3 = KalmanFilter<SIMD3<Double>, SIMD16<Double>>
/// A 4-state filter (e.g. 2-D position and velocity).
public typealias KalmanFilter4 = KalmanFilter<SIMD4<Double>, SIMD16<Double>>
/// An 8-state filter (covariance 8×8 in 64 scalars); ``PositionFilter`` uses it for its joint
/// horizontal state when a ``PathConstraint`` couples east and north.
public typealias KalmanFilter8 = KalmanFilter<SIMD8<Double>, SIMD64<Double>>
