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
