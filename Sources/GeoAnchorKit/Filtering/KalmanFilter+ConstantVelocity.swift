import Foundation

// Closed-form 2-state fast paths for the constant-velocity channels of ``PositionFilter``: the
// same algebra as the generic ``KalmanFilter/predict(transition:noise:)`` and scalar
// ``KalmanFilter/update(innovation:observation:noise:gate:)`` (Joseph form) written out for
// F = [[1, dt], [0, 1]] and a unit observation row, without the generic loops. The test suite
// checks them against the generic path to 1e-12.
extension KalmanFilter where Vector == SIMD2<Double>, Matrix == SIMD4<Double> {
    /// `predict(transition: ConstantVelocityModel.transition(dt:), noise: …processNoise(dt:q:))`
    /// in closed form. Returns false (state unchanged) when the result is not finite.
    @inlinable
    @discardableResult
    public mutating func predictConstantVelocity(dt: Double, q: Double) -> Bool {
        let a = P[0], b = 0.5 * (P[1] + P[2]), d = P[3]
        let dt2 = dt * dt
        let na = a + 2 * dt * b + dt2 * d + q * dt2 * dt / 3
        let nb = b + dt * d + q * dt2 * 0.5
        let nd = d + q * dt
        let x0 = x[0] + dt * x[1]
        guard na.isFinite, nb.isFinite, nd.isFinite, x0.isFinite else { return false }
        x[0] = x0
        P = SIMD4(na, nb, nb, nd)
        return true
    }

    /// Innovation and its variance for a direct measurement of component `i` (0 or 1).
    @inlinable
    public func componentInnovation(_ i: Int, measurement z: Double, noise r: Double) -> (innovation: Double, variance: Double) {
        (z - x[i], P[i * 3] + r)
    }

    /// Joseph-form update with a direct measurement of component `i` (h = eᵢ), given its
    /// innovation `y` and noise `r` (gate it with ``componentInnovation(_:measurement:noise:)``
    /// first). Returns false (state unchanged) for non-finite input or results.
    @inlinable
    @discardableResult
    public mutating func updateComponent(_ i: Int, innovation y: Double, noise r: Double) -> Bool {
        let a = P[0], b = P[1], d = P[3]
        let s = P[i * 3] + r
        guard s > 0, r > 0, y.isFinite, s.isFinite else { return false }
        // k = P eᵢ / s; A = I − k eᵢᵀ; P' = A P Aᵀ + r k kᵀ (2×2, written out).
        let k0 = (i == 0 ? a : b) / s, k1 = (i == 0 ? b : d) / s
        let a00: Double, a01: Double, a10: Double, a11: Double
        if i == 0 { a00 = 1 - k0; a01 = 0; a10 = -k1; a11 = 1 } else { a00 = 1; a01 = -k0; a10 = 0; a11 = 1 - k1 }
        // M = A P
        let m00 = a00 * a + a01 * b, m01 = a00 * b + a01 * d
        let m10 = a10 * a + a11 * b, m11 = a10 * b + a11 * d
        // P' = M Aᵀ + r k kᵀ
        let p00 = m00 * a00 + m01 * a01 + r * k0 * k0
        let p01 = m00 * a10 + m01 * a11 + r * k0 * k1
        let p10 = m10 * a00 + m11 * a01 + r * k1 * k0
        let p11 = m10 * a10 + m11 * a11 + r * k1 * k1
        let pb = 0.5 * (p01 + p10)
        let nx0 = x[0] + k0 * y, nx1 = x[1] + k1 * y
        guard p00 > 0, p11 > 0, p00.isFinite, p11.isFinite, pb.isFinite, nx0.isFinite, nx1.isFinite else { return false }
        x = SIMD2(nx0, nx1)
        P = SIMD4(p00, pb, pb, p11)
        return true
    }
}

// Closed-form 3-state fast paths for the bias-augmented channels of ``PositionFilter``
// (state p, v, b: constant velocity plus a first-order Gauss–Markov bias). Same algebra as the
// generic predict and scalar Joseph update, written out for this F and any observation row; the
// test suite checks them against the generic path to 1e-12.
extension KalmanFilter where Vector == SIMD3<Double>, Matrix == SIMD16<Double> {
    /// `predict` with F = [[1, dt, 0], [0, 1, 0], [0, 0, φ]] and Q = constant-velocity noise of
    /// spectral density `q` on (p, v) plus `biasNoise` on b, in closed form. Returns false (state
    /// unchanged) when the result is not finite.
    @inlinable
    @discardableResult
    public mutating func predictBiasedConstantVelocity(dt: Double, q: Double, phi: Double, biasNoise: Double) -> Bool {
        // Symmetric entries (row-major 3×3 in the first nine scalars).
        let p00 = P[0], p01 = P[1], p02 = P[2], p11 = P[4], p12 = P[5], p22 = P[8]
        let dt2 = dt * dt
        let n00 = p00 + 2 * dt * p01 + dt2 * p11 + q * dt2 * dt / 3
        let n01 = p01 + dt * p11 + q * dt2 * 0.5
        let n02 = phi * (p02 + dt * p12)
        let n11 = p11 + q * dt
        let n12 = phi * p12
        let n22 = phi * phi * p22 + biasNoise
        let x0 = x[0] + dt * x[1], x2 = phi * x[2]
        guard n00.isFinite, n01.isFinite, n02.isFinite, n11.isFinite, n12.isFinite, n22.isFinite,
              x0.isFinite, x2.isFinite else { return false }
        x[0] = x0; x[2] = x2
        P = SIMD16(n00, n01, n02, n01, n11, n12, n02, n12, n22, 0, 0, 0, 0, 0, 0, 0)
        return true
    }

    /// The scalar Joseph-form update with observation row `h`, given the innovation `y` and
    /// noise `r`, in closed form: with u = P h, s = hᵀu + r and k = u/s,
    /// `(I − k hᵀ) P (I − k hᵀ)ᵀ + r k kᵀ = P − k uᵀ − u kᵀ + s k kᵀ` (exact for any k), evaluated
    /// on the six distinct entries. Returns false (state unchanged) for non-finite input, a
    /// non-positive `s`, or a result that is not finite with positive variances.
    @inlinable
    @discardableResult
    public mutating func updateScalar(innovation y: Double, observation h: SIMD3<Double>, noise r: Double) -> Bool {
        let p00 = P[0], p01 = P[1], p02 = P[2], p11 = P[4], p12 = P[5], p22 = P[8]
        let u0 = p00 * h[0] + p01 * h[1] + p02 * h[2]
        let u1 = p01 * h[0] + p11 * h[1] + p12 * h[2]
        let u2 = p02 * h[0] + p12 * h[1] + p22 * h[2]
        let s = h[0] * u0 + h[1] * u1 + h[2] * u2 + r
        guard y.isFinite, r > 0, r.isFinite, s > 0, s.isFinite else { return false }
        let k0 = u0 / s, k1 = u1 / s, k2 = u2 / s
        let n00 = p00 - 2 * k0 * u0 + s * k0 * k0
        let n01 = p01 - k0 * u1 - u0 * k1 + s * k0 * k1
        let n02 = p02 - k0 * u2 - u0 * k2 + s * k0 * k2
        let n11 = p11 - 2 * k1 * u1 + s * k1 * k1
        let n12 = p12 - k1 * u2 - u1 * k2 + s * k1 * k2
        let n22 = p22 - 2 * k2 * u2 + s * k2 * k2
        let nx = x + SIMD3(k0, k1, k2) * y
        guard n00 > 0, n11 > 0, n22 > 0, n00.isFinite, n11.isFinite, n22.isFinite, n01.isFinite, n02.isFinite,
              n12.isFinite, nx[0].isFinite, nx[1].isFinite, nx[2].isFinite else { return false }
        x = nx
        P = SIMD16(n00, n01, n02, n01, n11, n12, n02, n12, n22, 0, 0, 0, 0, 0, 0, 0)
        return true
    }

    /// Innovation `z − hᵀx` and its variance `hᵀPh + r` (closed form of ``innovation(measurement:observation:noise:)``).
    @inlinable
    public func scalarInnovation(measurement z: Double, observation h: SIMD3<Double>, noise r: Double) -> (innovation: Double, variance: Double) {
        let p00 = P[0], p01 = P[1], p02 = P[2], p11 = P[4], p12 = P[5], p22 = P[8]
        let u0 = p00 * h[0] + p01 * h[1] + p02 * h[2]
        let u1 = p01 * h[0] + p11 * h[1] + p12 * h[2]
        let u2 = p02 * h[0] + p12 * h[1] + p22 * h[2]
        return (z - (h[0] * x[0] + h[1] * x[1] + h[2] * x[2]), h[0] * u0 + h[1] * u1 + h[2] * u2 + r)
    }
}
