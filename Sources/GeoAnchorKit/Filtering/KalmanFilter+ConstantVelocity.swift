import Foundation

// Internal: the horizontal models' closed forms are implementation details of PositionFilter, not
// part of the generic core's public API (which stays the generic predict/update/smoothed).
//
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
    mutating func predictConstantVelocity(dt: Double, q: Double) -> Bool {
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
    func componentInnovation(_ i: Int, measurement z: Double, noise r: Double) -> (innovation: Double, variance: Double) {
        (z - x[i], P[i * 3] + r)
    }

    /// Joseph-form update with a direct measurement of component `i` (h = eᵢ), given its
    /// innovation `y` and noise `r` (gate it with ``componentInnovation(_:measurement:noise:)``
    /// first). Returns false (state unchanged) for non-finite input or results.
    @inlinable @inline(__always)   // inlined, a constant `i` folds its branches (the height channel's hot path)
    @discardableResult
    mutating func updateComponent(_ i: Int, innovation y: Double, noise r: Double) -> Bool {
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
    /// ``smoothed(predicted:transition:next:)`` for F = [[1, dt], [0, 1]] in closed form (2×2
    /// inverse written out). Same results (to rounding) and fallbacks: `self` unchanged when the
    /// predicted covariance is not positive definite or the result is not finite.
    @inlinable
    func smoothedConstantVelocity(predicted: KalmanFilter, dt: Double, next: KalmanFilter) -> KalmanFilter {
        let a = predicted.P[0], b = 0.5 * (predicted.P[1] + predicted.P[2]), d = predicted.P[3]
        let det = a * d - b * b
        guard a > 0, det > 0, det.isFinite else { return self }
        // B = P Fᵀ, C = B (P⁻)⁻¹.
        let p00 = P[0], p01 = 0.5 * (P[1] + P[2]), p11 = P[3]
        let b00 = p00 + dt * p01, b01 = p01, b10 = p01 + dt * p11, b11 = p11
        let i00 = d / det, i01 = -b / det, i11 = a / det
        let c00 = b00 * i00 + b01 * i01, c01 = b00 * i01 + b01 * i11
        let c10 = b10 * i00 + b11 * i01, c11 = b10 * i01 + b11 * i11
        let dx0 = next.x[0] - predicted.x[0], dx1 = next.x[1] - predicted.x[1]
        let sx = SIMD2(x[0] + c00 * dx0 + c01 * dx1, x[1] + c10 * dx0 + c11 * dx1)
        // D = P(next) − P⁻; P + C D Cᵀ.
        let d00 = next.P[0] - a, d01 = 0.5 * (next.P[1] + next.P[2]) - b, d11 = next.P[3] - d
        let m00 = c00 * d00 + c01 * d01, m01 = c00 * d01 + c01 * d11
        let m10 = c10 * d00 + c11 * d01, m11 = c10 * d01 + c11 * d11
        var s00 = p00 + m00 * c00 + m01 * c01
        let s01 = p01 + 0.5 * ((m00 * c10 + m01 * c11) + (m10 * c00 + m11 * c01))
        var s11 = p11 + m10 * c10 + m11 * c11
        guard sx[0].isFinite, sx[1].isFinite, s00.isFinite, s01.isFinite, s11.isFinite else { return self }
        if !(s00 > 0) { s00 = p00 }
        if !(s11 > 0) { s11 = p11 }
        return KalmanFilter(x: sx, P: SIMD4(s00, s01, s01, s11))
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
    mutating func predictBiasedConstantVelocity(dt: Double, q: Double, phi: Double, biasNoise: Double) -> Bool {
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
    mutating func updateScalar(innovation y: Double, observation h: SIMD3<Double>, noise r: Double) -> Bool {
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
    func scalarInnovation(measurement z: Double, observation h: SIMD3<Double>, noise r: Double) -> (innovation: Double, variance: Double) {
        let p00 = P[0], p01 = P[1], p02 = P[2], p11 = P[4], p12 = P[5], p22 = P[8]
        let u0 = p00 * h[0] + p01 * h[1] + p02 * h[2]
        let u1 = p01 * h[0] + p11 * h[1] + p12 * h[2]
        let u2 = p02 * h[0] + p12 * h[1] + p22 * h[2]
        return (z - (h[0] * x[0] + h[1] * x[1] + h[2] * x[2]), h[0] * u0 + h[1] * u1 + h[2] * u2 + r)
    }
}

// Fast paths for ``KalmanFilter8``, the joint horizontal state of a path-constrained
// ``PositionFilter`` (p_e, p_n, v_e, v_n, b_e, b_n, two padding states). The transition is sparse
// and measurements have one or two rows, so both steps are written in O(n²·m) instead of the
// generic O(n³): the predict as row and column operations, the update as the Joseph form expanded
// symmetrically, `(I − K H) P (I − K H)ᵀ + K R Kᵀ = P − K Uᵀ − U Kᵀ + (K S) Kᵀ` with U = P Hᵀ and
// S = H U + R (exact for any gain K, so it keeps the Joseph form's tolerance of an imprecise
// gain). The test suite checks both against the generic core to 1e-12.
extension KalmanFilter where Vector == SIMD8<Double>, Matrix == SIMD64<Double> {
    /// `predict` for the joint constant-velocity + Gauss–Markov bias model: position i (0, 1)
    /// gains dt × velocity i + 2, biases (4, 5) decay by φ; process noise: constant-velocity
    /// spectral density `q` per axis, `biasNoise` on each bias. Returns false (state unchanged) when
    /// the result is not finite.
    @inlinable
    @discardableResult
    mutating func predictJointConstantVelocity(dt: Double, q: Double, phi: Double, biasNoise: Double) -> Bool {
        var p = P
        // Rows: (F P).
        for j in 0..<8 {
            p[0 * 8 + j] += dt * p[2 * 8 + j]
            p[1 * 8 + j] += dt * p[3 * 8 + j]
            p[4 * 8 + j] *= phi
            p[5 * 8 + j] *= phi
        }
        // Columns: (F P) Fᵀ.
        for i in 0..<8 {
            p[i * 8 + 0] += dt * p[i * 8 + 2]
            p[i * 8 + 1] += dt * p[i * 8 + 3]
            p[i * 8 + 4] *= phi
            p[i * 8 + 5] *= phi
        }
        let dt2 = dt * dt
        for a in 0..<2 {
            p[a * 8 + a] += q * dt2 * dt / 3
            p[a * 8 + 2 + a] += q * dt2 * 0.5
            p[(2 + a) * 8 + a] += q * dt2 * 0.5
            p[(2 + a) * 8 + 2 + a] += q * dt
            p[(4 + a) * 8 + 4 + a] += biasNoise
        }
        var nx = x
        nx[0] += dt * x[2]; nx[1] += dt * x[3]; nx[4] *= phi; nx[5] *= phi
        guard SmallMatrix.allFinite(nx, count: 8), SmallMatrix.allFinite(p, count: 64) else { return false }
        x = nx
        P = SmallMatrix.symmetrized(p, n: 8)
        return true
    }

    /// A two-row measurement (H 2×8 row-major, R 2×2) given its innovation, gated at `gate` (χ²,
    /// 2 degrees of freedom); same contract as ``update(innovation:observation:noise:gate:)-(MV,_,_,_)``.
    @inlinable
    @discardableResult
    mutating func updateJoint(innovation y: SIMD2<Double>, observation H: SIMD16<Double>, noise R: SIMD4<Double>,
                                     gate: Double = .infinity) -> KalmanUpdateOutcome {
        guard SmallMatrix.allFinite(y, count: 2), SmallMatrix.allFinite(H, count: 16), SmallMatrix.allFinite(R, count: 4) else {
            return KalmanUpdateOutcome(status: .invalidInput, mahalanobisSquared: .nan)
        }
        // U = P Hᵀ (8×2).
        var u0 = SIMD8<Double>(), u1 = SIMD8<Double>()
        for i in 0..<8 {
            var s0 = 0.0, s1 = 0.0
            for k in 0..<8 { s0 += P[i * 8 + k] * H[k]; s1 += P[i * 8 + k] * H[8 + k] }
            u0[i] = s0; u1[i] = s1
        }
        // S = H U + R (symmetrized), its inverse, d².
        var s00 = R[0], s11 = R[3], a01 = 0.0, a10 = 0.0
        for k in 0..<8 { s00 += H[k] * u0[k]; a01 += H[k] * u1[k]; a10 += H[8 + k] * u0[k]; s11 += H[8 + k] * u1[k] }
        let s01 = 0.5 * (R[1] + R[2]) + 0.5 * (a01 + a10)   // H P Hᵀ is symmetric in exact arithmetic
        let det = s00 * s11 - s01 * s01
        guard s00 > 0, det > 0, det.isFinite else { return KalmanUpdateOutcome(status: .notPositiveDefinite, mahalanobisSquared: .nan) }
        let i00 = s11 / det, i01 = -s01 / det, i11 = s00 / det
        let w0 = i00 * y[0] + i01 * y[1], w1 = i01 * y[0] + i11 * y[1]
        let d2 = y[0] * w0 + y[1] * w1
        if d2 > gate { return KalmanUpdateOutcome(status: .gated, mahalanobisSquared: d2) }
        // K = U S⁻¹ (8×2), KS = K S.
        let k0 = u0 * i00 + u1 * i01, k1 = u0 * i01 + u1 * i11
        let ks0 = k0 * s00 + k1 * s01, ks1 = k0 * s01 + k1 * s11
        let nx = x + k0 * y[0] + k1 * y[1]
        return commitJoint(x: nx, d2: d2) { i, j in
            -k0[i] * u0[j] - k1[i] * u1[j] - u0[i] * k0[j] - u1[i] * k1[j] + ks0[i] * k0[j] + ks1[i] * k1[j]
        }
    }

    /// A scalar measurement with observation row `h` given its innovation, gated at `gate` (χ²,
    /// 1 degree of freedom); same contract as ``update(innovation:observation:noise:gate:)``.
    @inlinable
    @discardableResult
    mutating func updateJoint(innovation y: Double, observation h: SIMD8<Double>, noise r: Double,
                                     gate: Double = .infinity) -> KalmanUpdateOutcome {
        guard y.isFinite, r > 0, r.isFinite, SmallMatrix.allFinite(h, count: 8) else {
            return KalmanUpdateOutcome(status: .invalidInput, mahalanobisSquared: .nan)
        }
        var u = SIMD8<Double>()
        for i in 0..<8 {
            var s = 0.0
            for k in 0..<8 { s += P[i * 8 + k] * h[k] }
            u[i] = s
        }
        let s = (h * u).sum() + r
        guard s > 0, s.isFinite else { return KalmanUpdateOutcome(status: .notPositiveDefinite, mahalanobisSquared: .nan) }
        let d2 = y * y / s
        if d2 > gate { return KalmanUpdateOutcome(status: .gated, mahalanobisSquared: d2) }
        let k = u / s
        return commitJoint(x: x + k * y, d2: d2) { i, j in -k[i] * u[j] - u[i] * k[j] + s * k[i] * k[j] }
    }

    /// Stores `x` and `P + Δ` (Δ(i, j) symmetric, evaluated on the upper triangle and mirrored) only
    /// if both are finite with positive variances; works on a stack buffer, since element-wise
    /// writes into a 64-lane SIMD value are slow.
    @inlinable @inline(__always)
    mutating func commitJoint(x nx: SIMD8<Double>, d2: Double, delta: (Int, Int) -> Double) -> KalmanUpdateOutcome {
        var np = P
        let ok = withUnsafeMutableBytes(of: &np) { raw -> Bool in
            let p = raw.baseAddress!.assumingMemoryBound(to: Double.self)
            var finite = true
            for i in 0..<8 {
                for j in i..<8 {
                    let v = p[i * 8 + j] + delta(i, j)
                    p[i * 8 + j] = v
                    p[j * 8 + i] = v
                    finite = finite && v.isFinite
                }
                finite = finite && p[i * 8 + i] > 0
            }
            return finite
        }
        guard ok, SmallMatrix.allFinite(nx, count: 8) else {
            return KalmanUpdateOutcome(status: .notPositiveDefinite, mahalanobisSquared: d2)
        }
        x = nx
        P = np
        return KalmanUpdateOutcome(status: .applied, mahalanobisSquared: d2)
    }
}

extension KalmanFilter where Vector == SIMD8<Double>, Matrix == SIMD64<Double> {
    /// ``smoothed(predicted:transition:next:)`` for the joint model's sparse transition (see
    /// ``predictJointConstantVelocity(dt:q:phi:biasNoise:)``): `P Fᵀ` by column operations, the
    /// rest as in the generic step, on stack buffers (element-wise writes into a 64-lane SIMD
    /// value are slow). Same results (to rounding) and fallbacks.
    @inlinable
    func smoothedJoint(predicted: KalmanFilter, dt: Double, phi: Double, next: KalmanFilter) -> KalmanFilter {
        withUnsafeTemporaryAllocation(of: Double.self, capacity: 5 * 64) { buffer -> KalmanFilter in
            let l = buffer.baseAddress!, c = l + 64, d = l + 128, cd = l + 192, sp = l + 256
            func load(_ m: SIMD64<Double>, _ to: UnsafeMutablePointer<Double>) {
                withUnsafeBytes(of: m) { UnsafeMutableRawPointer(to).copyMemory(from: $0.baseAddress!, byteCount: 512) }
            }
            load(predicted.P, l); load(P, c); load(next.P, d); load(P, sp)
            // Cholesky of P⁻ (lower triangle of l).
            guard SmallMatrix.cholesky(l, m: 8) else { return self }
            // B = P Fᵀ (column operations), then C = B (P⁻)⁻¹ row by row.
            for i in 0..<8 {
                let row = c + i * 8
                row[0] += dt * row[2]; row[1] += dt * row[3]; row[4] *= phi; row[5] *= phi
                SmallMatrix.choleskySolve(l, m: 8, row)
            }
            let dx = next.x - predicted.x
            var sx = x
            for i in 0..<8 {
                var v = 0.0
                for k in 0..<8 { v += c[i * 8 + k] * dx[k] }
                sx[i] += v
            }
            // D = P(next) − P⁻, then P + C D Cᵀ.
            load(predicted.P, cd)
            for i in 0..<64 { d[i] -= cd[i] }
            for i in 0..<8 {
                for j in 0..<8 {
                    var v = 0.0
                    for k in 0..<8 { v += c[i * 8 + k] * d[k * 8 + j] }
                    cd[i * 8 + j] = v
                }
            }
            for i in 0..<8 {
                for j in i..<8 {
                    var v = 0.0
                    for k in 0..<8 { v += cd[i * 8 + k] * c[j * 8 + k] }
                    sp[i * 8 + j] += v
                    sp[j * 8 + i] = sp[i * 8 + j]
                }
            }
            var out = SIMD64<Double>()
            withUnsafeMutableBytes(of: &out) { $0.baseAddress!.copyMemory(from: sp, byteCount: 512) }
            guard SmallMatrix.allFinite(sx, count: 8), SmallMatrix.allFinite(out, count: 64) else { return self }
            for i in 0..<8 where !(out[i * 8 + i] > 0) { out[i * 8 + i] = P[i * 8 + i] }
            return KalmanFilter(x: sx, P: out)
        }
    }
}
