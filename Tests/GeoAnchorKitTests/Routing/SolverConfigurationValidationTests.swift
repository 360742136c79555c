import Foundation
import Testing
@testable import GeoAnchorKit

/// ``SolverConfiguration/validate()``: each value refused by name outside its documented range,
/// and every solver entry point refuses it first as ``RoutingError/invalidSolverConfiguration(_:)``.
/// Reference: the documented ranges (errors compared exactly).
@Suite("Routing solver configuration validation")
struct SolverConfigurationValidationTests {
    /// The defaults, the values used in the code base and the range ends pass, `.infinity` and
    /// other time limits beyond ``SolverConfiguration/maximumTimeLimit`` included (they run as it).
    @Test func defaultsAndDocumentedValuesPass() throws {
        for c in [SolverConfiguration(), SolverConfiguration(timeLimit: 0, maxIterations: 0, exactLimit: 0),
                  SolverConfiguration(timeLimit: .infinity, maxIterations: SolverConfiguration.maximumIterations, exactLimit: 16),
                  SolverConfiguration(timeLimit: 1e16, seed: .max), SolverConfiguration(timeLimit: .greatestFiniteMagnitude),
                  SolverConfiguration(timeLimit: 120, seed: 1, maxIterations: 1000)] {
            try c.validate()
        }
    }

    /// Before: a NaN or negative time limit ran silently as 0, an exactLimit of 20 was clamped
    /// to 16 by the initializer (and set afterwards reached Held–Karp unclamped), a negative
    /// iteration cap ran as 0.
    @Test func fieldsOutOfRangeAreNamed() throws {
        typealias C = SolverConfiguration
        let iterations = ValueRange.closed(0, Double(C.maximumIterations))
        let exact = ValueRange.closed(0, 16)
        let cases: [(String, C, GeoAnchorError)] = [
            ("timeLimit NaN", C(timeLimit: .nan), .nonFinite(name: "timeLimit", value: .nan)),
            ("timeLimit -1", C(timeLimit: -1), .outOfRange(name: "timeLimit", value: -1, allowed: .atLeast(0, unit: "s"))),
            ("timeLimit -∞", C(timeLimit: -.infinity), .nonFinite(name: "timeLimit", value: -.infinity)),
            ("maxIterations -1", C(maxIterations: -1), .outOfRange(name: "maxIterations", value: -1, allowed: iterations)),
            ("maxIterations 1e15", C(maxIterations: 1_000_000_000_000_000), .outOfRange(name: "maxIterations", value: 1e15, allowed: iterations)),
            ("exactLimit -1", C(exactLimit: -1), .outOfRange(name: "exactLimit", value: -1, allowed: exact)),
            ("exactLimit 17", C(exactLimit: 17), .outOfRange(name: "exactLimit", value: 17, allowed: exact)),
        ]
        let stops = RoutingInputLimitTests.ring(8)
        let costs = try RoutingCosts(coordinates: stops.map(\.coordinate))
        let network = try PathNetwork(lineStrings: [stops.map(\.coordinate)])
        let matrix = CostMatrix(count: 5) { i, j in Double(abs(i - j)) }
        for (label, c, expected) in cases {
            expectRefused(label, expected) { () throws(GeoAnchorError) in try c.validate() }
            let entryPoints: [(String, () throws(RoutingError) -> Void)] = [
                ("solve", { () throws(RoutingError) in _ = try VisitOrderSolver.solve(cost: matrix, start: 0, options: c) }),
                ("plan", { () throws(RoutingError) in _ = try RoutePlanner.plan(RouteProblem(stops: stops), options: c) }),
                ("plan network", { () throws(RoutingError) in _ = try RoutePlanner.plan(RouteProblem(stops: stops), network: network, options: c) }),
                ("plan costs", { () throws(RoutingError) in _ = try RoutePlanner.plan(RouteProblem(stops: stops), costs: costs, options: c) }),
                // Refused before the problem is looked at.
                ("plan, no stops", { () throws(RoutingError) in _ = try RoutePlanner.plan(RouteProblem(stops: []), options: c) }),
            ]
            for (name, call) in entryPoints {
                do {
                    try call()
                    Issue.record("\(name), \(label): accepted")
                } catch {
                    guard case .invalidSolverConfiguration(let e) = error else {
                        Issue.record("\(name), \(label): \(error)"); continue
                    }
                    #expect(sameValidationError(e, expected), "\(name), \(label): \(e)")
                }
            }
        }
    }
}
