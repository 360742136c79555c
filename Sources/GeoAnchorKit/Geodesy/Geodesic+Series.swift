import Foundation

// The series of Karney, "Algorithms for geodesics", J. Geodesy 87, 43–55 (2013),
// doi:10.1007/s00190-012-0578-z, truncated at 6th order in the third flattening n and in
// eps = (√(1+k²) − 1)/(√(1+k²) + 1), k = e′ cos α₀. Equation numbers below refer to the paper.
//
// Fourier coefficients are kept in `SIMD8<Double>` lanes, lane l holding the coefficient of
// sin(2lσ) (or of cos((2l+1)σ) for C4), so that a whole series lives in registers and nothing is
// allocated. The numerical coefficients are the exact rational values of the paper's
// expansions (its eqs. 17, 18, 20–25 and the addenda), written in Horner form.

/// Fourier coefficients of one series, lanes 0…7 (lane 0 unused by sine series).
typealias GeodesicSeries = SIMD8<Double>

enum GeodesicSeriesMath {
    /// Σ_{l=1}^{6} c[l] sin(2lσ) by Clenshaw summation, given (sin σ, cos σ).
    @inline(__always)
    static func sinSeries6(_ s: Double, _ c: Double, _ k: GeodesicSeries) -> Double {
        let ar = 2 * (c - s) * (c + s) // 2 cos 2σ
        var y1 = k[6]
        var y0 = ar * y1 + k[5]
        y1 = ar * y0 - y1 + k[4]
        y0 = ar * y1 - y0 + k[3]
        y1 = ar * y0 - y1 + k[2]
        y0 = ar * y1 - y0 + k[1]
        return 2 * s * c * y0
    }

    /// Σ_{l=1}^{5} c[l] sin(2lσ) by Clenshaw summation (the C3 series has 5 terms at 6th order).
    @inline(__always)
    static func sinSeries5(_ s: Double, _ c: Double, _ k: GeodesicSeries) -> Double {
        let ar = 2 * (c - s) * (c + s)
        var y0 = k[5]
        var y1 = ar * y0 + k[4]
        y0 = ar * y1 - y0 + k[3]
        y1 = ar * y0 - y1 + k[2]
        y0 = ar * y1 - y0 + k[1]
        return 2 * s * c * y0
    }

    /// Σ_{l=0}^{5} c[l] cos((2l+1)σ) by Clenshaw summation (the area series I4, eq. 64).
    @inline(__always)
    static func cosSeries6(_ s: Double, _ c: Double, _ k: GeodesicSeries) -> Double {
        let ar = 2 * (c - s) * (c + s)
        var y1 = k[5]
        var y0 = ar * y1 + k[4]
        y1 = ar * y0 - y1 + k[3]
        y0 = ar * y1 - y0 + k[2]
        y1 = ar * y0 - y1 + k[1]
        y0 = ar * y1 - y0 + k[0]
        return c * (y0 - y1)
    }

    /// A₁ − 1 (eq. 17): mean of dI₁/dσ minus one, from (1 − ε)A₁ − 1 as a series in ε².
    @inline(__always)
    static func a1m1(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = e2 * (e2 * (e2 + 4) + 64) / 256
        return (t + eps) / (1 - eps)
    }

    /// C₁ₗ (eq. 18), l = 1…6.
    @inline(__always)
    static func c1(_ eps: Double) -> GeodesicSeries {
        let e2 = eps * eps
        var d = eps
        var c = GeodesicSeries()
        c[1] = d * ((6 - e2) * e2 - 16) / 32; d *= eps
        c[2] = d * ((64 - 9 * e2) * e2 - 128) / 2048; d *= eps
        c[3] = d * (9 * e2 - 16) / 768; d *= eps
        c[4] = d * (3 * e2 - 5) / 512; d *= eps
        c[5] = d * -7 / 1280; d *= eps
        c[6] = d * -7 / 2048
        return c
    }

    /// C′₁ₗ (eq. 21), the coefficients of the reverted series σ(τ), l = 1…6.
    @inline(__always)
    static func c1p(_ eps: Double) -> GeodesicSeries {
        let e2 = eps * eps
        var d = eps
        var c = GeodesicSeries()
        c[1] = d * ((205 * e2 - 432) * e2 + 768) / 1536; d *= eps
        c[2] = d * ((4005 * e2 - 4736) * e2 + 3840) / 12288; d *= eps
        c[3] = d * (116 - 225 * e2) / 384; d *= eps
        c[4] = d * (2695 - 7173 * e2) / 7680; d *= eps
        c[5] = d * 3467 / 7680; d *= eps
        c[6] = d * 38081 / 61440
        return c
    }

    /// A₂ − 1 (eq. 42), from (1 + ε)A₂ − 1 as a series in ε².
    @inline(__always)
    static func a2m1(_ eps: Double) -> Double {
        let e2 = eps * eps
        let t = e2 * (e2 * (-11 * e2 - 28) - 192) / 256
        return (t - eps) / (1 + eps)
    }

    /// C₂ₗ (eq. 43), l = 1…6.
    @inline(__always)
    static func c2(_ eps: Double) -> GeodesicSeries {
        let e2 = eps * eps
        var d = eps
        var c = GeodesicSeries()
        c[1] = d * ((e2 + 2) * e2 + 16) / 32; d *= eps
        c[2] = d * ((35 * e2 + 64) * e2 + 384) / 2048; d *= eps
        c[3] = d * (15 * e2 + 80) / 768; d *= eps
        c[4] = d * (7 * e2 + 35) / 512; d *= eps
        c[5] = d * 63 / 1280; d *= eps
        c[6] = d * 77 / 2048
        return c
    }
}

/// The ε-polynomial coefficients of A₃, C₃ₗ and C₄ₗ, which depend on the ellipsoid through n
/// only and are therefore evaluated once per ``Geodesic``.
@usableFromInline
struct GeodesicCoefficients: Sendable, Hashable {
    /// A₃ (eq. 24) as a polynomial in ε, highest power first: ε⁵ … ε⁰.
    var a3: SIMD8<Double>
    /// C₃ₗ (eq. 25), l = 1…5: for each l the coefficients of ε^5 … ε^l.
    var c3: SIMD16<Double>
    /// C₄ₗ (eq. 64), l = 0…5: for each l the coefficients of ε^5 … ε^l.
    var c4: SIMD32<Double>

    init(n: Double) {
        // Each entry: polynomial in n (highest power first) followed by its denominator.
        // A₃: coefficient of ε^j for j = 5…0.
        let a3Table: [[Double]] = [
            [-3, 128],
            [-2, -3, 64],
            [-1, -3, -1, 16],
            [3, -1, -2, 8],
            [1, -1, 2],
            [1, 1],
        ]
        // C₃ₗ, l = 1…5, coefficient of ε^j for j = 5…l.
        let c3Table: [[Double]] = [
            [3, 128], [2, 5, 128], [-1, 3, 3, 64], [-1, 0, 1, 8], [-1, 1, 4],
            [5, 256], [1, 3, 128], [-3, -2, 3, 64], [1, -3, 2, 32],
            [7, 512], [-10, 9, 384], [5, -9, 5, 192],
            [7, 512], [-14, 7, 512],
            [21, 2560],
        ]
        // C₄ₗ, l = 0…5, coefficient of ε^j for j = 5…l.
        let c4Table: [[Double]] = [
            [97, 15015], [1088, 156, 45045], [-224, -4784, 1573, 45045],
            [-10656, 14144, -4576, -858, 45045], [64, 624, -4576, 6864, -3003, 15015],
            [100, 208, 572, 3432, -12012, 30030, 45045],
            [1, 9009], [-2944, 468, 135135], [5792, 1040, -1287, 135135],
            [5952, -11648, 9152, -2574, 135135], [-64, -624, 4576, -6864, 3003, 135135],
            [8, 10725], [1856, -936, 225225], [-8448, 4992, -1144, 225225],
            [-1440, 4160, -4576, 1716, 225225],
            [-136, 63063], [1024, -208, 105105], [3584, -3328, 1144, 315315],
            [-128, 135135], [-2560, 832, 405405],
            [128, 99099],
        ]
        func value(_ row: [Double]) -> Double {
            var y = 0.0
            for c in row.dropLast() { y = y * n + c }
            return y / row[row.count - 1]
        }
        a3 = SIMD8(repeating: 0)
        for (k, row) in a3Table.enumerated() { a3[k] = value(row) }
        c3 = SIMD16(repeating: 0)
        for (k, row) in c3Table.enumerated() { c3[k] = value(row) }
        c4 = SIMD32(repeating: 0)
        for (k, row) in c4Table.enumerated() { c4[k] = value(row) }
    }

    /// A₃(ε).
    @inline(__always)
    func a3f(_ eps: Double) -> Double {
        let a = a3
        return ((((a[0] * eps + a[1]) * eps + a[2]) * eps + a[3]) * eps + a[4]) * eps + a[5]
    }

    /// C₃ₗ(ε), l = 1…5 in lanes 1…5.
    @inline(__always)
    func c3f(_ eps: Double) -> GeodesicSeries {
        let k = c3
        var c = GeodesicSeries()
        var m = eps
        c[1] = m * ((((k[0] * eps + k[1]) * eps + k[2]) * eps + k[3]) * eps + k[4]); m *= eps
        c[2] = m * (((k[5] * eps + k[6]) * eps + k[7]) * eps + k[8]); m *= eps
        c[3] = m * ((k[9] * eps + k[10]) * eps + k[11]); m *= eps
        c[4] = m * (k[12] * eps + k[13]); m *= eps
        c[5] = m * k[14]
        return c
    }

    /// C₄ₗ(ε), l = 0…5 in lanes 0…5.
    @inline(__always)
    func c4f(_ eps: Double) -> GeodesicSeries {
        let k = c4
        var c = GeodesicSeries()
        var m = 1.0
        c[0] = m * (((((k[0] * eps + k[1]) * eps + k[2]) * eps + k[3]) * eps + k[4]) * eps + k[5]); m *= eps
        c[1] = m * ((((k[6] * eps + k[7]) * eps + k[8]) * eps + k[9]) * eps + k[10]); m *= eps
        c[2] = m * (((k[11] * eps + k[12]) * eps + k[13]) * eps + k[14]); m *= eps
        c[3] = m * ((k[15] * eps + k[16]) * eps + k[17]); m *= eps
        c[4] = m * (k[18] * eps + k[19]); m *= eps
        c[5] = m * k[20]
        return c
    }
}
