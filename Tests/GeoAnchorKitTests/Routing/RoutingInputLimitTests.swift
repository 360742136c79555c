import Foundation
import Testing
@testable import GeoAnchorKit

/// Inputs at and beyond the routing module's limits: each must give a typed error naming the
/// value, or the same result as a representable input — never a trap or an ∞/negative estimate.
@Suite("Routing input limits")
struct RoutingInputLimitTests {
    /// `n` stops on an ellipse ≈ 1.5 × 1.1 km around Zürich (the sweep's layout).
    static func ring(_ n: Int, height: (Int) -> Double = { _ in 0 }) -> [RouteStop] {
        (0..<n).map { i in
            let a = Double(i) * 2 * .pi / Double(n)
            return RouteStop(id: "s\(i)", coordinate: GeodeticCoordinate(
                latitude: 47.37 + 0.005 * sin(a) + 0.0003 * Double(i % 3), longitude: 8.54 + 0.007 * cos(a),
                ellipsoidalHeight: height(i)))
        }
    }

    /// A time limit beyond Int64 milliseconds (1e16 s, also +∞) trapped the heuristic solvers.
    /// Reference: the same seeded run with a 60 s limit — the iteration cap stops both, so the
    /// orders must be identical (tolerance: none).
    @Test func hugeTimeLimitRunsLikeAnyOther() throws {
        let plain = RouteProblem(stops: Self.ring(30))
        var constrained = plain
        constrained.precedences = [StopPrecedence(before: "s20", after: "s3")]
        for problem in [plain, constrained] {
            let reference = try RoutePlanner.plan(problem, options: SolverConfiguration(timeLimit: 60, maxIterations: 20))
            for limit in [1e16, .infinity, Double.greatestFiniteMagnitude] {
                let plan = try RoutePlanner.plan(problem, options: SolverConfiguration(timeLimit: limit, maxIterations: 20))
                #expect(plan.order == reference.order && plan.solver == .iteratedLocalSearch)
            }
        }
        // The one conversion: clamped to [0, 1e6] s, NaN as 0 (exact Durations).
        let now = ContinuousClock().now
        for (limit, seconds) in [(1e16, 1e6), (.infinity, 1e6), (-5, 0), (.nan, 0), (2.5, 2.5)] as [(Double, Double)] {
            #expect(SolverConfiguration(timeLimit: limit).deadline(from: now) - now == .milliseconds(Int64(seconds * 1000)))
        }
    }
}
