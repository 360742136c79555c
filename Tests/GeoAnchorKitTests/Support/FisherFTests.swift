import Foundation
import Testing
@testable import GeoAnchorKit

@Suite("Fisher's F distribution")
struct FisherFTests {
    /// The 99 % quantiles of F(d₁, d₂) against SciPy 1.x `scipy.stats.f.ppf(0.99, d1, d2)`
    /// (independent reference, printed to 3 decimals: tolerance 5e-4 absolute). Small degrees of
    /// freedom are where a normal approximation fails (Paulson's gives 561 for F(2, 2), SciPy 99).
    @Test(arguments: [(1, 1, 4052.181), (2, 2, 99.0), (3, 3, 29.457), (4, 4, 15.977), (5, 5, 10.967),
                      (6, 4, 15.207), (4, 6, 9.148), (10, 10, 4.849), (20, 18, 3.077)])
    func quantile99MatchesSciPy(d1: Int, d2: Int, expected: Double) {
        let q = FisherF.quantile(0.99, d1, d2)
        #expect(abs(q - expected) <= 5e-4, "F(\(d1), \(d2)): \(q) vs \(expected)")
        // The quantile inverts the cdf (to the bisection's 1e-12 in x).
        #expect(abs(FisherF.cdf(q, d1, d2) - 0.99) < 1e-9)
    }

    /// Closed forms: F(2, 2) has cdf f / (1 + f); F(1, ∞)-like limits are not needed. The
    /// regularized beta's symmetry I_x(a, b) = 1 − I_{1−x}(b, a) and I_x(1, 1) = x.
    @Test func closedForms() {
        for f in [0.01, 0.5, 1, 3, 99, 1e4] {
            #expect(abs(FisherF.cdf(f, 2, 2) - f / (1 + f)) < 1e-13)
        }
        for x in [0.001, 0.3, 0.5, 0.77, 0.999] {
            #expect(abs(FisherF.regularizedBeta(x, 1, 1) - x) < 1e-14)
            #expect(abs(FisherF.regularizedBeta(x, 2.5, 0.5) - (1 - FisherF.regularizedBeta(1 - x, 0.5, 2.5))) < 1e-13)
        }
        #expect(FisherF.quantile(0.99, 0, 3) == .infinity && FisherF.cdf(-1, 3, 3) == 0 && FisherF.cdf(.infinity, 3, 3) == 1)
    }
}
