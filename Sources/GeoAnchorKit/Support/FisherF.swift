import Foundation

/// Fisher's F distribution: the cumulative distribution from the regularized incomplete beta
/// function, the quantile by bisection. Used where two residual variances are compared (the GNSS
/// solver's choice between leave-one-out candidates).
///
/// *Accuracy*: the continued fraction converges to ~1e-14 relative; the quantile is bisected to
/// 1e-12 relative in x = d₁F / (d₁F + d₂). Checked against SciPy's `scipy.stats.f.ppf`
/// (tests, 1e-8 relative).
enum FisherF {
    /// P(F ≤ f) for F(d₁, d₂): I_x(d₁/2, d₂/2) with x = d₁ f / (d₁ f + d₂). 0 for f ≤ 0.
    static func cdf(_ f: Double, _ d1: Int, _ d2: Int) -> Double {
        guard f > 0 else { return 0 }
        guard f.isFinite else { return 1 }
        let a = Double(d1) / 2, b = Double(d2) / 2
        let x = Double(d1) * f / (Double(d1) * f + Double(d2))
        return regularizedBeta(x, a, b)
    }

    /// The `p` quantile of F(d₁, d₂), p in (0, 1); +∞ when a degree of freedom is below 1.
    static func quantile(_ p: Double, _ d1: Int, _ d2: Int) -> Double {
        guard d1 >= 1, d2 >= 1, p > 0, p < 1 else { return .infinity }
        let a = Double(d1) / 2, b = Double(d2) / 2
        // Bisection in x ∈ (0, 1), where I_x(a, b) increases monotonically.
        var lo = 0.0, hi = 1.0
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if regularizedBeta(mid, a, b) < p { lo = mid } else { hi = mid }
            if hi - lo <= 1e-12 * hi { break }
        }
        let x = (lo + hi) / 2
        return Double(d2) * x / (Double(d1) * (1 - x))
    }

    /// The regularized incomplete beta function I_x(a, b), x in [0, 1], a, b > 0: the continued
    /// fraction of the incomplete beta (Abramowitz & Stegun 26.5.8) evaluated by the modified Lentz
    /// method, on the side x < (a + 1)/(a + b + 2) where it converges fast (else by symmetry,
    /// I_x(a, b) = 1 − I_{1−x}(b, a)).
    static func regularizedBeta(_ x: Double, _ a: Double, _ b: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        // ln of x^a (1−x)^b / (a B(a, b)).
        let lnFront = lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x)
        if x > (a + 1) / (a + b + 2) { return 1 - regularizedBeta(1 - x, b, a) }
        let tiny = 1e-300
        var c = 1.0, d = 1 - (a + b) * x / (a + 1)
        if abs(d) < tiny { d = tiny }
        d = 1 / d
        var h = d
        for m in 1...300 {
            let md = Double(m)
            // Even step: d_{2m} = m (b − m) x / ((a + 2m − 1)(a + 2m)).
            var num = md * (b - md) * x / ((a + 2 * md - 1) * (a + 2 * md))
            d = 1 + num * d; if abs(d) < tiny { d = tiny }
            c = 1 + num / c; if abs(c) < tiny { c = tiny }
            d = 1 / d; h *= d * c
            // Odd step: d_{2m+1} = −(a + m)(a + b + m) x / ((a + 2m)(a + 2m + 1)).
            num = -(a + md) * (a + b + md) * x / ((a + 2 * md) * (a + 2 * md + 1))
            d = 1 + num * d; if abs(d) < tiny { d = tiny }
            c = 1 + num / c; if abs(c) < tiny { c = tiny }
            d = 1 / d
            let delta = d * c
            h *= delta
            if abs(delta - 1) < 1e-15 { break }
        }
        return exp(lnFront) * h / a
    }
}
