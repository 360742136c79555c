import Benchmark
import Foundation
import GeoAnchorKit
import GeoAnchorKitSimulation

// Routing suite: the exact solver at its size limit and the heuristic on a 200-stop city tour.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput, .mallocCountTotal],
                                           maxDuration: .seconds(5), maxIterations: 200)

    /// Deterministic pseudo-random stops in a square of `sizeDegrees` around Prague.
    func stops(_ n: Int, seed: UInt64, sizeDegrees: Double) -> [GeodeticCoordinate] {
        var rng = SeededRandom(seed: seed)
        return (0..<n).map { _ in
            GeodeticCoordinate(latitude: 50.07 + rng.uniform(0, sizeDegrees), longitude: 14.40 + rng.uniform(0, 1.5 * sizeDegrees))
        }
    }

    Benchmark("Held–Karp, 16 free stops + fixed start, open path") { benchmark in
        let m = try RoutingCosts(coordinates: stops(17, seed: 1, sizeDegrees: 0.03)).distances
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try VisitOrderSolver.solve(cost: m, start: 0, end: .free))
        }
    }

    Benchmark("Held–Karp, 16 free stops, round trip with time windows and dwell (RoutePlanner)") { benchmark in
        let pts = stops(17, seed: 2, sizeDegrees: 0.02)
        let route = pts.enumerated().map { i, p in
            RouteStop(id: "s\(i)", coordinate: p, dwell: 300, timeWindow: i % 4 == 1 ? 0...20_000 : nil)
        }
        let problem = RouteProblem(stops: route, end: .returnToStart)
        let costs = try RoutingCosts(coordinates: problem.nodeCoordinates)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try RoutePlanner.plan(problem, costs: costs))
        }
    }

    Benchmark("Geodesic + Tobler cost matrix, 200 stops", configuration: .init(maxIterations: 20)) { benchmark in
        let pts = stops(200, seed: 3, sizeDegrees: 0.036)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try! RoutingCosts(coordinates: pts))   // one datum by construction: cannot throw
        }
    }

    Benchmark("ILS, 200-stop open path, 1.8 s budget (wall clock is the budget; see the report for lengths)",
              configuration: .init(metrics: [.wallClock], maxDuration: .seconds(10), maxIterations: 3)) { benchmark in
        let m = try RoutingCosts(coordinates: stops(200, seed: 4, sizeDegrees: 0.036)).distances
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try VisitOrderSolver.solve(cost: m, start: 0, end: .free, options: SolverConfiguration(timeLimit: 1.8, seed: 1)))
        }
    }

    Benchmark("ILS, 200-stop open path, 2000 iterations") { benchmark in
        let m = try RoutingCosts(coordinates: stops(200, seed: 4, sizeDegrees: 0.036)).distances
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(try VisitOrderSolver.solve(cost: m, start: 0, end: .free, options: SolverConfiguration(timeLimit: 100, seed: 1, maxIterations: 2000)))
        }
    }
}
