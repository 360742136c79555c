import Foundation

/// A 4×4 single-precision transform in column-major order, laid out like `simd_float4x4`
/// (which is not available on Linux): `c0, c1, c2` are the rotation·scale columns, `c3` the
/// translation with `w = 1`. Build a `simd_float4x4(c0, c1, c2, c3)` from it on Apple platforms.
@frozen
public struct Float4x4: Sendable, Hashable {
    public var c0: SIMD4<Float>, c1: SIMD4<Float>, c2: SIMD4<Float>, c3: SIMD4<Float>
    @inlinable
    public init(_ c0: SIMD4<Float>, _ c1: SIMD4<Float>, _ c2: SIMD4<Float>, _ c3: SIMD4<Float>) {
        self.c0 = c0; self.c1 = c1; self.c2 = c2; self.c3 = c3
    }

    /// The four columns, in the shape `simd_float4x4(columns:)` takes: on Apple platforms
    /// `simd_float4x4(columns: transform.columns)` is the ARKit / RealityKit matrix.
    @inlinable
    public var columns: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>) { (c0, c1, c2, c3) }

    /// The matrix from columns (e.g. a `simd_float4x4`'s `columns`).
    @inlinable
    public init(columns: (SIMD4<Float>, SIMD4<Float>, SIMD4<Float>, SIMD4<Float>)) {
        self.init(columns.0, columns.1, columns.2, columns.3)
    }

    /// The identity transform.
    public static let identity = Float4x4(SIMD4(1, 0, 0, 0), SIMD4(0, 1, 0, 0), SIMD4(0, 0, 1, 0), SIMD4(0, 0, 0, 1))
    /// The translation column's x, y, z (meters).
    @inlinable
    public var translation: SIMD3<Float> { SIMD3(c3.x, c3.y, c3.z) }
}

/// A rotation as a unit quaternion in `simd_quatf` vector order: `(ix, iy, iz, r)` — imaginary
/// part first, real part last.
@frozen
public struct FloatQuaternion: Sendable, Hashable {
    /// `(x, y, z, w)` with `w` the real part.
    public var vector: SIMD4<Float>
    @inlinable
    public init(vector: SIMD4<Float>) { self.vector = vector }
}

/// Row-major 3×3 Double matrix: the rotations of the placement math (internal; frame
/// conventions live in ``ARFrameConvention``).
@usableFromInline
struct Matrix3: Sendable, Hashable {
    @usableFromInline var m: (Double, Double, Double, Double, Double, Double, Double, Double, Double)

    @usableFromInline
    init(_ a: Double, _ b: Double, _ c: Double, _ d: Double, _ e: Double, _ f: Double, _ g: Double, _ h: Double, _ i: Double) {
        m = (a, b, c, d, e, f, g, h, i)
    }
    @usableFromInline
    init(rows r0: SIMD3<Double>, _ r1: SIMD3<Double>, _ r2: SIMD3<Double>) {
        self.init(r0.x, r0.y, r0.z, r1.x, r1.y, r1.z, r2.x, r2.y, r2.z)
    }
    @usableFromInline
    init(columns c0: SIMD3<Double>, _ c1: SIMD3<Double>, _ c2: SIMD3<Double>) {
        self.init(c0.x, c1.x, c2.x, c0.y, c1.y, c2.y, c0.z, c1.z, c2.z)
    }
    @usableFromInline static let identity = Matrix3(1, 0, 0, 0, 1, 0, 0, 0, 1)

    @usableFromInline static func == (l: Matrix3, r: Matrix3) -> Bool { l.array == r.array }
    @usableFromInline func hash(into h: inout Hasher) { h.combine(array) }
    @usableFromInline var array: [Double] { [m.0, m.1, m.2, m.3, m.4, m.5, m.6, m.7, m.8] }

    @inlinable
    func apply(_ x: Double, _ y: Double, _ z: Double) -> SIMD3<Double> {
        SIMD3(m.0 * x + m.1 * y + m.2 * z, m.3 * x + m.4 * y + m.5 * z, m.6 * x + m.7 * y + m.8 * z)
    }
    @inlinable
    func apply(_ v: SIMD3<Double>) -> SIMD3<Double> { apply(v.x, v.y, v.z) }

    @inlinable
    static func * (a: Matrix3, b: Matrix3) -> Matrix3 {
        let (a0, a1, a2, a3, a4, a5, a6, a7, a8) = a.m
        let (b0, b1, b2, b3, b4, b5, b6, b7, b8) = b.m
        return Matrix3(a0 * b0 + a1 * b3 + a2 * b6, a0 * b1 + a1 * b4 + a2 * b7, a0 * b2 + a1 * b5 + a2 * b8,
                       a3 * b0 + a4 * b3 + a5 * b6, a3 * b1 + a4 * b4 + a5 * b7, a3 * b2 + a4 * b5 + a5 * b8,
                       a6 * b0 + a7 * b3 + a8 * b6, a6 * b1 + a7 * b4 + a8 * b7, a6 * b2 + a7 * b5 + a8 * b8)
    }
    @usableFromInline
    var transposed: Matrix3 { Matrix3(m.0, m.3, m.6, m.1, m.4, m.7, m.2, m.5, m.8) }

    /// Rotation by `degrees` counter-clockwise about the third axis (the ENU up axis).
    @usableFromInline
    static func rotationAboutZ(degrees: Double) -> Matrix3 {
        let (s, c) = Angle.sincos(degrees: degrees)
        return Matrix3(c, -s, 0, s, c, 0, 0, 0, 1)
    }
    @usableFromInline
    static func rotationAboutX(degrees: Double) -> Matrix3 {
        let (s, c) = Angle.sincos(degrees: degrees)
        return Matrix3(1, 0, 0, 0, c, -s, 0, s, c)
    }
    @usableFromInline
    static func rotationAboutY(degrees: Double) -> Matrix3 {
        let (s, c) = Angle.sincos(degrees: degrees)
        return Matrix3(c, 0, s, 0, 1, 0, -s, 0, c)
    }

    /// Unit quaternion `(x, y, z, w)` of a proper rotation matrix (Shepperd's method: the
    /// largest of the four candidates is computed from the diagonal, avoiding cancellation).
    @usableFromInline
    var quaternion: SIMD4<Double> {
        let (r00, r01, r02, r10, r11, r12, r20, r21, r22) = m
        let tr = r00 + r11 + r22
        var q: SIMD4<Double>
        if tr > 0 {
            let s = (tr + 1).squareRoot() * 2
            q = SIMD4((r21 - r12) / s, (r02 - r20) / s, (r10 - r01) / s, s / 4)
        } else if r00 > r11 && r00 > r22 {
            let s = (1 + r00 - r11 - r22).squareRoot() * 2
            q = SIMD4(s / 4, (r01 + r10) / s, (r02 + r20) / s, (r21 - r12) / s)
        } else if r11 > r22 {
            let s = (1 + r11 - r00 - r22).squareRoot() * 2
            q = SIMD4((r01 + r10) / s, s / 4, (r12 + r21) / s, (r02 - r20) / s)
        } else {
            let s = (1 + r22 - r00 - r11).squareRoot() * 2
            q = SIMD4((r02 + r20) / s, (r12 + r21) / s, s / 4, (r10 - r01) / s)
        }
        // Canonical sign: non-negative real part.
        if q.w < 0 { q = -q }
        return q / (q * q).sum().squareRoot()
    }
}
