import Foundation

/// A real symmetric 3×3 matrix (for soft-iron matrices and covariances).
@frozen
public struct SymmetricMatrix3: Sendable, Hashable, Codable {
    public var xx: Double, xy: Double, xz: Double
    public var yy: Double, yz: Double, zz: Double

    @inlinable
    public init(xx: Double, xy: Double, xz: Double, yy: Double, yz: Double, zz: Double) {
        self.xx = xx; self.xy = xy; self.xz = xz; self.yy = yy; self.yz = yz; self.zz = zz
    }

    /// The identity matrix.
    public static let identity = SymmetricMatrix3(xx: 1, xy: 0, xz: 0, yy: 1, yz: 0, zz: 1)

    /// Rows as arrays, `[[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]]`.
    public var rows: [[Double]] { [[xx, xy, xz], [xy, yy, yz], [xz, yz, zz]] }

    /// Matrix × vector.
    @inlinable
    public func multiply(_ v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(xx * v.x + xy * v.y + xz * v.z, xy * v.x + yy * v.y + yz * v.z, xz * v.x + yz * v.y + zz * v.z)
    }

    /// Determinant.
    public var determinant: Double {
        xx * (yy * zz - yz * yz) - xy * (xy * zz - yz * xz) + xz * (xy * yz - yy * xz)
    }

    /// Eigenvalues (ascending) and unit eigenvectors (Jacobi, full relative accuracy).
    public var eigen: (values: SIMD3<Double>, vectors: [SIMD3<Double>]) {
        let (vals, vecs) = SymmetricEigen.decompose([xx, xy, xz, xy, yy, yz, xz, yz, zz], n: 3)
        return (SIMD3(vals[0], vals[1], vals[2]), vecs.map { SIMD3($0[0], $0[1], $0[2]) })
    }

    /// `Σ f(λₖ) eₖ eₖᵀ`: a function applied to the eigenvalues (square root, inverse, …).
    public func mapEigenvalues(_ f: (Double) -> Double) -> SymmetricMatrix3 {
        let (vals, vecs) = eigen
        var m = SymmetricMatrix3(xx: 0, xy: 0, xz: 0, yy: 0, yz: 0, zz: 0)
        for k in 0..<3 {
            let l = f(vals[k]), e = vecs[k]
            m.xx += l * e.x * e.x; m.xy += l * e.x * e.y; m.xz += l * e.x * e.z
            m.yy += l * e.y * e.y; m.yz += l * e.y * e.z; m.zz += l * e.z * e.z
        }
        return m
    }
}
