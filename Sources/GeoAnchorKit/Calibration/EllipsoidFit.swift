import Foundation

/// Accumulated normal equations of the algebraic ellipsoid fit — the state shared by the
/// batch and the incremental magnetometer calibrators.
///
/// Each sample, shifted and scaled to `u = (m − center) / scale`, contributes the outer product
/// of `d = (u₁², u₂², u₃², 2u₂u₃, 2u₁u₃, 2u₁u₂, 2u₁, 2u₂, 2u₃, 1)` to the 10×10 scatter matrix
/// `S = Σ d dᵀ`. The general quadric `uᵀAu + 2bᵀu + c = 0` (coefficients v) minimizing the
/// algebraic error `vᵀSv` subject to the linear constraint `trace A = 1` is
/// `v = S⁻¹e / (eᵀS⁻¹e)`, e = (1,1,1,0,…,0), computed from the Jacobi eigen-decomposition of
/// S; it is accepted only if A is positive definite (an ellipsoid) — a general quadric fit
/// plus constraint check. Unlike the unit-norm constraint, `trace A = 1` makes the fitted
/// ellipsoid independent of the shift and scale used to normalize (A does not change under a
/// shift and scales uniformly), so batch and incremental fits agree to rounding. Centering and
/// scaling only keep S well conditioned (entries O(1)).
struct EllipsoidFitAccumulator: Sendable, Hashable {
    /// Shift and scale of the normalized coordinates (raw units).
    let center: SIMD3<Double>
    let scale: Double
    /// Upper triangle of S, row-major (55 entries).
    private(set) var scatter: [Double] = .init(repeating: 0, count: 55)
    private(set) var count = 0

    init(center: SIMD3<Double>, scale: Double) {
        self.center = center
        self.scale = scale > 0 && scale.isFinite ? scale : 1
    }

    /// Adds one sample (raw units). Non-finite samples must be filtered by the caller.
    mutating func add(_ m: SIMD3<Double>) {
        let inv = 1 / scale
        let u = (m - center) * inv
        scatter.withUnsafeMutableBufferPointer { s in Self.accumulate(u, into: s.baseAddress!) }
        count += 1
    }

    /// Adds many samples (raw units) in one pass.
    mutating func add(x: UnsafeBufferPointer<Double>, y: UnsafeBufferPointer<Double>, z: UnsafeBufferPointer<Double>,
                      skip: (Int) -> Bool) {
        let inv = 1 / scale
        var added = 0
        let c = center
        scatter.withUnsafeMutableBufferPointer { s in
            let p = s.baseAddress!
            for i in 0..<x.count where !skip(i) {
                Self.accumulate(SIMD3((x[i] - c.x) * inv, (y[i] - c.y) * inv, (z[i] - c.z) * inv), into: p)
                added += 1
            }
        }
        count += added
    }

    @inline(__always)
    private static func accumulate(_ u: SIMD3<Double>, into s: UnsafeMutablePointer<Double>) {
        let d0 = u.x * u.x, d1 = u.y * u.y, d2 = u.z * u.z
        let d3 = 2 * u.y * u.z, d4 = 2 * u.x * u.z, d5 = 2 * u.x * u.y
        let d6 = 2 * u.x, d7 = 2 * u.y, d8 = 2 * u.z
        let d = (d0, d1, d2, d3, d4, d5, d6, d7, d8, 1.0)
        withUnsafeBytes(of: d) { raw in
            let v = raw.bindMemory(to: Double.self)
            var k = 0
            for i in 0..<10 {
                let vi = v[i]
                for j in i..<10 { s[k] += vi * v[j]; k += 1 }
            }
        }
    }

    /// Merges another accumulator with the same normalization.
    mutating func merge(_ other: EllipsoidFitAccumulator) {
        precondition(other.center == center && other.scale == scale, "accumulators differ in normalization")
        for k in 0..<55 { scatter[k] += other.scatter[k] }
        count += other.count
    }

    private func s(_ i: Int, _ j: Int) -> Double {
        let (a, b) = i <= j ? (i, j) : (j, i)
        return scatter[a * 10 - a * (a - 1) / 2 + (b - a)]
    }

    /// Ratio √(λmin / λmax) of the samples' covariance (1 isotropic, 0 all in a plane or on a
    /// line), from the moments inside S: Σu = S[k,9]/2, Σuᵢuⱼ = S[6+i, 6+j]/4.
    var spreadRatio: Double {
        let n = Double(count)
        guard n > 1 else { return 0 }
        let mean = SIMD3(s(6, 9), s(7, 9), s(8, 9)) / (2 * n)
        func c(_ i: Int, _ j: Int) -> Double { s(6 + i, 6 + j) / (4 * n) - mean[i] * mean[j] }
        let cov = SymmetricMatrix3(xx: c(0, 0), xy: c(0, 1), xz: c(0, 2), yy: c(1, 1), yz: c(1, 2), zz: c(2, 2))
        let l = cov.eigen.values
        guard l[2] > 0 else { return 0 }
        return (Swift.max(0, l[0]) / l[2]).squareRoot()
    }

    /// Smallest spread ratio accepted by ``solve()``: below it the samples lie (almost) on a
    /// circle — a rotation about one axis — and infinitely many ellipsoids fit them.
    static let minimumSpreadRatio = 0.1

    /// Largest accepted ratio of W's axes: a fitted ellipsoid more elongated than this is taken
    /// as an artefact of too little coverage (phone and IMU soft iron stays within ±30 %).
    static let maximumSoftIronRatio = 2.0

    /// A fitted calibration before grading.
    struct Solution {
        var offset: SIMD3<Double>
        var softIron: SymmetricMatrix3
        var fieldStrength: Double
        /// False when the ellipsoid was not determined and a sphere (hard iron only) was fitted.
        var softIronEstimated: Bool
    }

    /// Solves for offset (raw units), soft-iron W (det 1) and field strength (raw units): the
    /// ellipsoid when the samples determine one (positive definite, axis ratio ≤ 2), else the
    /// sphere — hard iron only, W = I — from the same normal equations.
    /// - Throws: ``GeoAnchorError/outOfRange(name:value:allowed:)`` when there are fewer than
    ///   `minimumSamples` samples, when the motion was a rotation about one axis, or when not
    ///   even a sphere fits.
    func solve(minimumSamples: Int) throws(GeoAnchorError) -> Solution {
        guard count >= minimumSamples else {
            throw .outOfRange(name: "magnetometer samples", value: Double(count), allowed: .atLeast(Double(minimumSamples)))
        }
        let spread = spreadRatio
        guard spread >= Self.minimumSpreadRatio else {
            throw .outOfRange(name: "rotation spread ratio √(λmin/λmax) (below the limit the samples lie on a circle: rotate the device about more than one axis)", value: spread,
                              allowed: .atLeast(Self.minimumSpreadRatio))
        }
        var full = [Double](repeating: 0, count: 100)
        for i in 0..<10 { for j in 0..<10 { full[i * 10 + j] = s(i, j) } }
        if let e = ellipsoid(full) {
            let axes = e.softIron.eigen.values
            if axes[2] <= Self.maximumSoftIronRatio * axes[0] { return e }
        }
        if let sphere = sphere(full) { return sphere }
        throw .outOfRange(name: "sphere fit radius² (the samples lie on neither a sphere nor an ellipsoid)", value: .nan, allowed: .greaterThan(0))
    }

    /// The trace-constrained quadric, if it is a real ellipsoid.
    private func ellipsoid(_ full: [Double]) -> Solution? {
        let (lambda, vectors) = SymmetricEigen.decompose(full, n: 10)
        // S⁻¹e through the eigenbasis; a (numerically) zero eigenvalue — exact data — is
        // floored at 1e-15·λmax, which keeps the null vector dominant instead of dividing by 0.
        var v = [Double](repeating: 0, count: 10)
        let floor = 1e-15 * Swift.max(lambda[9], .leastNormalMagnitude)
        for k in 0..<10 {
            let vk = vectors[k]
            let coef = (vk[0] + vk[1] + vk[2]) / Swift.max(lambda[k], floor)
            for j in 0..<10 { v[j] += coef * vk[j] }
        }
        let trace = v[0] + v[1] + v[2]
        guard trace != 0, trace.isFinite else { return nil }
        for j in 0..<10 { v[j] /= trace }
        let a = SymmetricMatrix3(xx: v[0], xy: v[5], xz: v[4], yy: v[1], yz: v[3], zz: v[2])
        let b = SIMD3(v[6], v[7], v[8]), c = v[9]
        let eig = a.eigen.values
        guard eig[0] > 1e-12 * eig[2] else { return nil }   // not definite: no ellipsoid
        let ainv = a.mapEigenvalues { 1 / $0 }
        let centerU = -ainv.multiply(b)
        let k = (centerU * a.multiply(centerU)).sum() - c
        guard k > 0 else { return nil }                     // imaginary ellipsoid
        // (raw − offset)ᵀ M (raw − offset) = 1 with M = A / (k·scale²).
        let mScale = 1 / (k * scale * scale)
        let mEig = eig * mScale
        let radiusProduct = 1 / (mEig[0] * mEig[1] * mEig[2]).squareRoot()
        let fieldStrength = Foundation.cbrt(radiusProduct)
        let w = a.mapEigenvalues { ($0 * mScale).squareRoot() * fieldStrength }
        return Solution(offset: center + centerU * scale, softIron: w, fieldStrength: fieldStrength, softIronEstimated: true)
    }

    /// The sphere `|u|²/3 + 2bᵀu + c = 0` (A = I/3, trace 1) minimizing the same algebraic error:
    /// the 4×4 normal equations `S_ww w = −S_wa·(⅓,⅓,⅓)` for w = (b, c).
    private func sphere(_ full: [Double]) -> Solution? {
        var m = [Double](repeating: 0, count: 16)
        var rhs = [Double](repeating: 0, count: 4)
        for i in 0..<4 {
            for j in 0..<4 { m[i * 4 + j] = full[(6 + i) * 10 + 6 + j] }
            rhs[i] = -(full[(6 + i) * 10] + full[(6 + i) * 10 + 1] + full[(6 + i) * 10 + 2]) / 3
        }
        let (lambda, vectors) = SymmetricEigen.decompose(m, n: 4)
        guard lambda[0] > 1e-14 * lambda[3] else { return nil }
        var w = [Double](repeating: 0, count: 4)
        for k in 0..<4 {
            let vk = vectors[k]
            let coef = (0..<4).reduce(0.0) { $0 + vk[$1] * rhs[$1] } / lambda[k]
            for j in 0..<4 { w[j] += coef * vk[j] }
        }
        let centerU = -3 * SIMD3(w[0], w[1], w[2])
        let r2 = (centerU * centerU).sum() - 3 * w[3]
        guard r2 > 0 else { return nil }
        return Solution(offset: center + centerU * scale, softIron: .identity,
                        fieldStrength: r2.squareRoot() * scale, softIronEstimated: false)
    }
}
