import Foundation

extension KalmanFilter {
    /// One backward step of the Rauch–Tung–Striebel smoother.
    ///
    /// Given the filtered estimate at step k (`self`), the prediction made from it for step k+1
    /// (`predicted`, i.e. `F xₖ` and `F Pₖ Fᵀ + Q`), the transition `F` used, and the smoothed
    /// estimate at k+1, returns the smoothed estimate at k:
    /// `C = Pₖ Fᵀ P⁻ₖ₊₁`, `xₖ|N = xₖ + C (xₖ₊₁|N − x⁻ₖ₊₁)`, `Pₖ|N = Pₖ + C (Pₖ₊₁|N − P⁻ₖ₊₁) Cᵀ`.
    ///
    /// - Returns: the smoothed estimate, or `self` unchanged when the predicted covariance is not
    ///   positive definite or the result is not finite.
    /// - Accuracy: matches FilterPy's `rts_smoother` to ≤ 1e-9 on the committed fixture.
    @inlinable
    public func smoothed(predicted: KalmanFilter, transition F: Matrix, next: KalmanFilter) -> KalmanFilter {
        smoothed(predicted: predicted, crossCovariance: SmallMatrix.multiplyTransposed(P, F, n: Vector.scalarCount), next: next)
    }

    /// The RTS backward step given the cross-covariance `B = cov(xₖ, xₖ₊₁ | Zₖ)` (n×n row-major)
    /// instead of a transition: `C = B (P⁻ₖ₊₁)⁻¹`, then as ``smoothed(predicted:transition:next:)``
    /// (which is this step with `B = Pₖ Fᵀ`). Used where the prediction is not one linear
    /// transition — the moment-matched prediction of a mixture of motion modes, a prediction
    /// followed by a constraint.
    @inlinable
    public func smoothed(predicted: KalmanFilter, crossCovariance B: Matrix, next: KalmanFilter) -> KalmanFilter {
        let n = Vector.scalarCount
        var l = predicted.P
        guard SmallMatrix.cholesky(&l, m: n) else { return self }
        // C = B (P⁻)⁻¹; rows of B solved against the symmetric P⁻.
        var c = B
        for i in 0..<n { SmallMatrix.choleskySolve(l, m: n, &c, offset: i * n, step: 1) }
        let dx = next.x - predicted.x
        let sx = x + SmallMatrix.multiply(c, dx)
        var dp = next.P
        for i in 0..<(n * n) { dp[i] -= predicted.P[i] }
        var sp = SmallMatrix.multiplyTransposed(SmallMatrix.multiply(c, dp, n: n), c, n: n)
        for i in 0..<(n * n) { sp[i] += P[i] }
        sp = SmallMatrix.symmetrized(sp, n: n)
        guard SmallMatrix.allFinite(sx, count: n), SmallMatrix.allFinite(sp, count: n * n) else { return self }
        for i in 0..<n where !(sp[i * n + i] > 0) {
            // Rounding can make a variance that is tiny compared with the filtered one non-positive;
            // keep the filtered variance there rather than store an invalid covariance.
            sp[i * n + i] = P[i * n + i]
        }
        return KalmanFilter(x: sx, P: sp)
    }
}
