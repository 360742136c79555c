import Foundation

/// Eigen-decomposition of a small real symmetric matrix by the cyclic Jacobi method
/// (Golub & Van Loan, *Matrix Computations*, 4th ed., §8.5; rotation formulas as in
/// Numerical Recipes §11.1, which avoid cancellation for small off-diagonal elements).
///
/// Jacobi is slower than QR for large n but for the 3×3 and 10×10 matrices of the ellipsoid fit
/// it converges in ≤ 10 sweeps to full relative accuracy, also for the tiny eigenvalues the
/// fit depends on (Demmel & Veselić 1992).
enum SymmetricEigen {
    /// Eigenvalues (ascending) and unit eigenvectors (`vectors[k]` belongs to `values[k]`)
    /// of the symmetric `n`×`n` matrix stored row-major in `matrix` (only symmetric input is
    /// meaningful; the lower triangle is ignored).
    static func decompose(_ matrix: [Double], n: Int) -> (values: [Double], vectors: [[Double]]) {
        precondition(matrix.count == n * n, "matrix must be n×n")
        var a = matrix
        for i in 0..<n { for j in 0..<i { a[i * n + j] = a[j * n + i] } }
        var v = [Double](repeating: 0, count: n * n)
        for i in 0..<n { v[i * n + i] = 1 }
        for _ in 0..<64 {
            var off = 0.0, diag = 0.0
            for i in 0..<n {
                diag += a[i * n + i] * a[i * n + i]
                for j in (i + 1)..<max(i + 1, n) { off += a[i * n + j] * a[i * n + j] }
            }
            // Converged when the off-diagonal part is at rounding level of the diagonal.
            if off <= 1e-32 * diag || off == 0 { break }
            for p in 0..<(n - 1) {
                for q in (p + 1)..<n {
                    let apq = a[p * n + q]
                    if apq == 0 { continue }
                    let theta = (a[q * n + q] - a[p * n + p]) / (2 * apq)
                    // t = tan of the rotation angle, the smaller root (|θ| large → t ≈ 1/(2θ)).
                    let t = (theta >= 0 ? 1.0 : -1.0) / (Swift.abs(theta) + (theta * theta + 1).squareRoot())
                    let c = 1 / (t * t + 1).squareRoot(), s = t * c
                    for k in 0..<n {   // A ← A·J
                        let akp = a[k * n + p], akq = a[k * n + q]
                        a[k * n + p] = c * akp - s * akq
                        a[k * n + q] = s * akp + c * akq
                    }
                    for k in 0..<n {   // A ← Jᵀ·A
                        let apk = a[p * n + k], aqk = a[q * n + k]
                        a[p * n + k] = c * apk - s * aqk
                        a[q * n + k] = s * apk + c * aqk
                    }
                    for k in 0..<n {   // V ← V·J (columns are eigenvectors)
                        let vkp = v[k * n + p], vkq = v[k * n + q]
                        v[k * n + p] = c * vkp - s * vkq
                        v[k * n + q] = s * vkp + c * vkq
                    }
                }
            }
        }
        let order = (0..<n).sorted { a[$0 * n + $0] < a[$1 * n + $1] }
        let values = order.map { a[$0 * n + $0] }
        let vectors = order.map { col in (0..<n).map { v[$0 * n + col] } }
        return (values, vectors)
    }
}
