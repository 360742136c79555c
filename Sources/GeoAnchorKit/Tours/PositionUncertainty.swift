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
    public static func probabilityInsideCircle(distance d: Double, radius R: Double, sigma: Double) -> Double {
        guard sigma > 0 else { return d <= R ? 1 : 0 }
        let cut = 9 * sigma
        if d >= R + cut { return 0 }
        if d + cut <= R { return 1 }          // the whole 9σ disc is inside the circle
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
    /// the boundary's radius of curvature and the distance to other edges exceed 3σ.
    public static func probabilityInsideHalfPlane(signedDistance s: Double, sigma: Double) -> Double {
        guard sigma > 0 else { return s >= 0 ? 1 : 0 }
        return 0.5 * Foundation.erfc(-s / (sigma * 2.0.squareRoot()))
    }
}
