import Foundation

// Small dense linear algebra on SIMD containers, row-major: element (i, j) of an r×c matrix
// lives at index `i * c + j`. Dimensions are the `SIMD` types' static `scalarCount`s (or
// explicit small counts), so after specialization every loop has constant bounds and unrolls;
// nothing here allocates. Used only by the Kalman core and its smoother.
@usableFromInline
enum SmallMatrix {
    /// `A x` for an n×n row-major `A`.
    @inlinable @inline(__always)
    static func multiply<V: SIMD, M: SIMD>(_ a: M, _ x: V) -> V where V.Scalar == Double, M.Scalar == Double {
        let n = V.scalarCount
        var r = V()
        for i in 0..<n {
            var s = 0.0
            for k in 0..<n { s += a[i * n + k] * x[k] }
            r[i] = s
        }
        return r
    }

    /// `A B` for n×n row-major matrices.
    @inlinable @inline(__always)
    static func multiply<M: SIMD>(_ a: M, _ b: M, n: Int) -> M where M.Scalar == Double {
        var r = M()
        for i in 0..<n {
            for j in 0..<n {
                var s = 0.0
                for k in 0..<n { s += a[i * n + k] * b[k * n + j] }
                r[i * n + j] = s
            }
        }
        return r
    }

    /// `A Bᵀ` for n×n row-major matrices.
    @inlinable @inline(__always)
    static func multiplyTransposed<M: SIMD>(_ a: M, _ b: M, n: Int) -> M where M.Scalar == Double {
        var r = M()
        for i in 0..<n {
            for j in 0..<n {
                var s = 0.0
                for k in 0..<n { s += a[i * n + k] * b[j * n + k] }
                r[i * n + j] = s
            }
        }
        return r
    }

    /// `(A + Aᵀ) / 2` for an n×n row-major matrix (removes rounding asymmetry).
    @inlinable @inline(__always)
    static func symmetrized<M: SIMD>(_ a: M, n: Int) -> M where M.Scalar == Double {
        var r = a
        for i in 0..<n {
            for j in (i + 1)..<max(n, i + 1) {
                let m = 0.5 * (a[i * n + j] + a[j * n + i])
                r[i * n + j] = m; r[j * n + i] = m
            }
        }
        return r
    }

    /// In-place Cholesky factorization `A = L Lᵀ` of an m×m symmetric matrix (lower triangle of
    /// `a` read and overwritten with `L`). Returns false when `A` is not (numerically) positive
    /// definite or not finite.
    @inlinable @inline(__always)
    static func cholesky<M: SIMD>(_ a: inout M, m: Int) -> Bool where M.Scalar == Double {
        withUnsafeMutableBytes(of: &a) { cholesky($0.baseAddress!.assumingMemoryBound(to: Double.self), m: m) }
    }

    /// ``cholesky(_:m:)`` on a row-major m×m buffer (the one implementation; element-wise writes
    /// into a large SIMD value are slow, so hot paths work on buffers).
    @inlinable @inline(__always)
    static func cholesky(_ a: UnsafeMutablePointer<Double>, m: Int) -> Bool {
        for j in 0..<m {
            var d = a[j * m + j]
            for k in 0..<j { d -= a[j * m + k] * a[j * m + k] }
            // `!(d > 0)` also catches NaN.
            guard d > 0, d.isFinite else { return false }
            let l = d.squareRoot()
            a[j * m + j] = l
            for i in (j + 1)..<max(m, j + 1) {
                var s = a[i * m + j]
                for k in 0..<j { s -= a[i * m + k] * a[j * m + k] }
                a[i * m + j] = s / l
            }
        }
        return true
    }

    /// Solves `L Lᵀ x = b` in place for an m×m Cholesky factor `l` (from ``cholesky(_:m:)``);
    /// `b` holds m values starting at `offset` with `step` between them.
    @inlinable @inline(__always)
    static func choleskySolve<M: SIMD, B: SIMD>(_ l: M, m: Int, _ b: inout B, offset: Int = 0, step: Int = 1)
        where M.Scalar == Double, B.Scalar == Double {
        withUnsafeBytes(of: l) { lp in
            withUnsafeMutableBytes(of: &b) { bp in
                choleskySolve(lp.baseAddress!.assumingMemoryBound(to: Double.self), m: m,
                              bp.baseAddress!.assumingMemoryBound(to: Double.self) + offset, step: step)
            }
        }
    }

    /// ``choleskySolve(_:m:_:offset:step:)`` on buffers: `b` holds m values `step` apart.
    @inlinable @inline(__always)
    static func choleskySolve(_ l: UnsafePointer<Double>, m: Int, _ b: UnsafeMutablePointer<Double>, step: Int = 1) {
        // Forward: L w = b.
        for i in 0..<m {
            var s = b[i * step]
            for k in 0..<i { s -= l[i * m + k] * b[k * step] }
            b[i * step] = s / l[i * m + i]
        }
        // Backward: Lᵀ x = w.
        for i in stride(from: m - 1, through: 0, by: -1) {
            var s = b[i * step]
            for k in (i + 1)..<max(m, i + 1) { s -= l[k * m + i] * b[k * step] }
            b[i * step] = s / l[i * m + i]
        }
    }

    /// True when every one of the first `count` scalars is finite.
    @inlinable @inline(__always)
    static func allFinite<M: SIMD>(_ a: M, count: Int) -> Bool where M.Scalar == Double {
        var ok = true
        for i in 0..<count { ok = ok && a[i].isFinite }
        return ok
    }
}
