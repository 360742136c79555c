import Foundation

/// Probability that the true position lies inside a fence, given an estimated position with a
/// circular Gaussian error.
///
/// **Model.** The true horizontal position is `N(estimate, σ²·I₂)` (isotropic, 2-D). A
/// CoreLocation-style `horizontalAccuracy` is the radius of 68 % confidence; for this model the
/// radial error is Rayleigh-distributed, P(r ≤ ρ) = 1 − exp(−ρ²/(2σ²)), so
/// σ = accuracy / √(−2 ln 0.32) = accuracy / 1.5096.
///
/// **Circle.** The probability of being inside a circle of radius R whose centre is d from the
/// estimate is the Rice CDF, 1 − Q₁(d/σ, R/σ) (Marcum Q). It is computed as the integral over
/// the circle of the Gaussian density: with x along the centre direction,
/// P = ∫ φ_σ(x) · erf(h(x)/(σ√2)) dx, h(x) = √(R² − (x − d)²), x ∈ [d − R, d + R]; the substitution
/// x = d + R·sin θ removes the square-root end points and the range is clipped to |x| ≤ 9σ (the
/// rest holds < 1e-18 of the mass); 48-point Gauss–Legendre on the clipped θ range (error
/// ≤ 1e-12 in a NumPy prototype; 32 points gave 1e-6, so 48 is the smallest order that is exact
/// to print precision).
/// Short cuts: P is exactly 0 or 1 when the circle boundary is more than 9σ away.
///
/// - Accuracy: |error| ≤ 1e-9 against SciPy's non-central χ² CDF
///   (`ncx2.cdf(R²/σ², 2, d²/σ²)`, the same Rice CDF) over R/σ ∈ [0.05, 200], d/σ ∈ [0, 250]
///   (fixture Tests/GeoAnchorKitTests/Fixtures/Tours/rice_cdf.csv).
public enum PositionUncertainty {
    /// Probability in [0, 1] that the true position lies within `radius` m of a point `distance`
    /// m from the estimate, for per-axis standard deviation `sigma` (m).
    ///
    /// - Parameters:
    ///   - d: distance, ≥ 0, meters from the estimate to the circle's centre.
    ///   - R: radius, ≥ 0, meters.
    ///   - sigma: > 0, meters (use ``CircularError/sigma(horizontalAccuracy:)``). σ = 0 gives the bare point test.
    ///
    /// Any finite inputs in these ranges give the probability: a circle more than 2^30 · 9σ
    /// (≈ 1e10 σ) in radius is a straight edge on the scale of σ (curvature error ≈ σ/R < 1e-10),
    /// so P is the half-plane's, ``probabilityInsideHalfPlane(signedDistance:sigma:)`` of R − d
    /// (before, the 9σ cut-off and the integration range were lost in R's rounding: an estimate
    /// on the boundary of a 1e300 m circle with σ = 9 m, or of a 1 m circle with σ = 1e-150 m,
    /// gave 0 instead of ½, of a 100 m circle with σ = 1e-15 m 1); a σ beyond 2^±500 m
    /// (≈ 3e±150) is scaled with d and R by 2^∓600 (exact), as 1/σ would overflow. Ordinary
    /// inputs (R < 1e10 σ, σ within 2^±500 m) give the same values as before, bit for bit.
    public static func probabilityInsideCircle(distance d: Double, radius R: Double, sigma: Double) -> Double {
        guard sigma > 0 else { return d <= R ? 1 : 0 }
        let cut = 9 * sigma
        // A circle ≥ 2^30 · 9σ in radius is straight on the scale of σ (and the θ range below
        // would be lost in rounding): the half-plane's Φ((R − d)/σ), within ≈ σ/R < 1e-10.
        if R.isFinite, cut < R * 0x1p-30 { return probabilityInsideHalfPlane(signedDistance: R - d, sigma: sigma) }
        if d >= R + cut { return 0 }
        if d + cut <= R { return 1 }          // the whole 9σ disc is inside the circle
        if sigma.isFinite, sigma > 0x1p500 || sigma < 0x1p-500 {
            let k = sigma > 0x1p500 ? 0x1p-600 : 0x1p600
            return probabilityInsideCircle(distance: d * k, radius: R * k, sigma: sigma * k)
        }
        // θ range where |x| = |d + R sin θ| ≤ 9σ, intersected with [−π/2, π/2].
        let lo = Swift.max(-1, (-cut - d) / R), hi = Swift.min(1, (cut - d) / R)
        guard lo < hi else { return d <= R ? 1 : 0 }  // R ≈ 0: negligible area
        let t0 = Foundation.asin(lo), t1 = Foundation.asin(hi)
        let half = 0.5 * (t1 - t0), mid = 0.5 * (t1 + t0)
        let invSigma = 1 / sigma, invSigmaSqrt2 = invSigma / 2.0.squareRoot()
        let norm = invSigma / (2 * Double.pi).squareRoot()
        var sum = 0.0
        @inline(__always) func integrand(_ theta: Double) -> Double {
            let sinT = Foundation.sin(theta), cosT = Foundation.cos(theta)
            let z = (d + R * sinT) * invSigma
            return Foundation.exp(-0.5 * z * z) * Foundation.erf(R * cosT * invSigmaSqrt2) * R * cosT
        }
        for k in 0..<GaussLegendre48.nodes.count {
            let u = half * GaussLegendre48.nodes[k]
            sum += GaussLegendre48.weights[k] * (integrand(mid - u) + integrand(mid + u))
        }
        sum *= norm
        return Swift.min(1, Swift.max(0, sum * half))
    }

    /// Probability that the true position is inside a region whose boundary is locally straight,
    /// given the signed distance `s` (m, positive inside) from the estimate to the boundary:
    /// Φ(s/σ). Used for polygon zones; exact for a half-plane, and within 1 % of the truth when
    /// the boundary's radius of curvature and the distance to other edges exceed 3σ. For σ > 0
    /// (m) and any finite `s` the result is Φ(s/σ) in [0, 1]: a σ beyond ≈ 1.3e308 m, whose
    /// product with √2 overflows, is divided first (before, Φ(1) for s = σ = 1e308 came out ½).
    public static func probabilityInsideHalfPlane(signedDistance s: Double, sigma: Double) -> Double {
        guard sigma > 0 else { return s >= 0 ? 1 : 0 }
        let scale = sigma * 2.0.squareRoot()
        guard scale.isFinite || !sigma.isFinite else { return 0.5 * Foundation.erfc(-(s / sigma) / 2.0.squareRoot()) }
        return 0.5 * Foundation.erfc(-s / scale)
    }
}
