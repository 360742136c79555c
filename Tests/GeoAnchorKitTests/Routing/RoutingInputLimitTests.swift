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

    /// Heuristic runs stopped by an iteration cap rather than the 1 s default limit.
    static let quick = SolverConfiguration(maxIterations: 300)

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

    /// Walking-model parameters outside their ranges are refused by name. Before: peakSpeed −1
    /// planned a walk of −3450 s and the duration objective chose a 7383 m tour over the
    /// 2897 m optimum; 1e-300 m/s gave 3.45e303 s; decay or optimalSlope 1e300 gave
    /// "infeasible time windows at stops: " with no stop named. Reference: the documented ranges.
    @Test func walkingModelOutOfRangeIsNamed() throws {
        let stops = Self.ring(8, height: { Double($0) })
        let cases: [(WalkingModel, GeoAnchorError)] = [
            (WalkingModel(peakSpeed: -1, optimalSlope: -0.05, decay: 3.5),
             .outOfRange(name: "peakSpeed", value: -1, allowed: WalkingModel.peakSpeedRange)),
            (WalkingModel(peakSpeed: 1e-300, optimalSlope: -0.05, decay: 3.5),
             .outOfRange(name: "peakSpeed", value: 1e-300, allowed: WalkingModel.peakSpeedRange)),
            (WalkingModel(peakSpeed: .infinity, optimalSlope: -0.05, decay: 3.5), .nonFinite(name: "peakSpeed", value: .infinity)),
            (WalkingModel(peakSpeed: 1.6, optimalSlope: 1e300, decay: 3.5),
             .outOfRange(name: "optimalSlope", value: 1e300, allowed: WalkingModel.optimalSlopeRange)),
            (WalkingModel(peakSpeed: 1.6, optimalSlope: -0.05, decay: 1e300),
             .outOfRange(name: "decay", value: 1e300, allowed: WalkingModel.decayRange)),
            (WalkingModel(peakSpeed: 1.6, optimalSlope: -0.05, decay: -1),
             .outOfRange(name: "decay", value: -1, allowed: WalkingModel.decayRange)),
        ]
        for (model, error) in cases {
            let message = "\(RoutingError.invalidWalkingModel(error))"
            for objective in [RouteObjective.distance, .duration] {
                #expect(throws: RoutingError.invalidWalkingModel(error), "\(message)") {
                    try RoutePlanner.plan(RouteProblem(stops: stops, objective: objective), walking: model)
                }
            }
            #expect(throws: RoutingError.invalidWalkingModel(error)) {
                try RoutingCosts(coordinates: stops.map(\.coordinate), walking: model)
            }
            let net = try PathNetwork(lineStrings: [stops.map(\.coordinate)])
            #expect(throws: RoutingError.invalidWalkingModel(error)) {
                try RoutePlanner.plan(RouteProblem(stops: stops), network: net, walking: model)
            }
        }
        // Tobler and the range ends themselves are accepted.
        try WalkingModel.tobler.validate()
        try WalkingModel(peakSpeed: 20, optimalSlope: 1, decay: 0).validate()
        try WalkingModel(peakSpeed: 0.01, optimalSlope: -1, decay: 100).validate()
    }

    /// Heights beyond ±10 km (1e7, 1e300, ±1e308 m) made a leg's walking time ∞ (ascent ∞);
    /// dwells of 1e308 s summed to ∞ and were reported as "infeasible time windows" naming
    /// nobody. Reference: RouteStop.heightRange / dwellRange.
    @Test func stopHeightsAndDwellsOutOfRangeAreNamed() throws {
        for h in [1e7, 1e300, 1e308, -1e308, -10_000.5] {
            let error = GeoAnchorError.outOfRange(name: "height", value: h, allowed: RouteStop.heightRange)
            for objective in [RouteObjective.distance, .duration] {
                #expect(throws: RoutingError.invalidStop(id: "s3", error: error)) {
                    try RoutePlanner.plan(RouteProblem(stops: Self.ring(8, height: { $0 == 3 ? h : 0 }), objective: objective))
                }
            }
            let at = GeodeticCoordinate(latitude: 47.37, longitude: 8.54, ellipsoidalHeight: h)
            #expect(throws: RoutingError.invalidStop(id: "start", error: error)) {
                try RoutePlanner.plan(RouteProblem(stops: Self.ring(8), start: .location(at)))
            }
        }
        // The summit of Everest (8849 m) and the Dead Sea shore (−430 m) are fine.
        _ = try RoutePlanner.plan(RouteProblem(stops: Self.ring(8, height: { $0 == 3 ? 8849 : ($0 == 5 ? -430 : 0) })))
        var stops = Self.ring(8)
        stops[2].dwell = 1e308; stops[3].dwell = 1e308
        #expect(throws: RoutingError.invalidStop(id: "s2", error: .outOfRange(name: "dwell", value: 1e308, allowed: RouteStop.dwellRange))) {
            try RoutePlanner.plan(RouteProblem(stops: stops, objective: .duration))
        }
        stops[2].dwell = 604_800; stops[3].dwell = 604_800
        let week = try RoutePlanner.plan(RouteProblem(stops: stops, objective: .duration))
        // Two one-week dwells plus the walk: finite and exact to 1e-6 s.
        #expect(abs(week.estimate.dwellTime - 2 * 604_800) < 1e-6 && week.estimate.duration.isFinite)
    }

    /// Tobler's function alone (no steep-terrain model): legs can be too steep to walk.
    static let toblerAlone = WalkingModel(peakSpeed: 6 / 3.6, optimalSlope: -0.05, decay: 3.5, steepTerrain: nil)

    /// Legs so steep that Tobler's speed underflows to 0 (9000 m up over ≈ 1.1 cm: slope 8e5,
    /// e^(−3.5·8e5) = 0 in doubles) cannot be walked by Tobler's function alone: their ends are
    /// unreachable, in both objectives, instead of an estimate with walkingTime ∞ (before:
    /// distance objective planned a walk of ∞ s; duration objective threw "infeasible time
    /// windows" naming nobody). With the default steep-terrain model the same stops are planned:
    /// 9000 m at Naismith's 600 m/h is 54,000 s (reference: by hand; tolerance 0.01 s for the
    /// 1.1 cm run at 5 km/h).
    @Test func legsTooSteepToWalkMakeStopsUnreachable() throws {
        let a = GeodeticCoordinate(latitude: 47.37, longitude: 8.54, ellipsoidalHeight: 0)
        let foot = GeodeticCoordinate(latitude: 47.379, longitude: 8.54, ellipsoidalHeight: 0)
        let top = GeodeticCoordinate(latitude: 47.3790001, longitude: 8.54, ellipsoidalHeight: 9000)
        let run = RoutingDistance.geodesic(foot, top)
        #expect(Self.toblerAlone.duration(horizontalDistance: run, heightChange: 9000) == .infinity)
        for objective in [RouteObjective.distance, .duration] {
            // Directly from the start.
            #expect(throws: RoutingError.unreachableStops(["top"])) {
                try RoutePlanner.plan(RouteProblem(stops: [RouteStop(id: "foot", coordinate: foot),
                                                           RouteStop(id: "top", coordinate: top)], objective: objective),
                                      walking: Self.toblerAlone)
            }
            // Reachable from the start 1 km away, but every order walks foot ↔ top.
            #expect(throws: RoutingError.unreachableStops(["foot", "top"])) {
                try RoutePlanner.plan(RouteProblem(stops: [RouteStop(id: "a", coordinate: a), RouteStop(id: "foot", coordinate: foot),
                                                           RouteStop(id: "top", coordinate: top)], objective: objective),
                                      walking: Self.toblerAlone)
            }
            // The default model climbs it.
            let plan = try RoutePlanner.plan(RouteProblem(stops: [RouteStop(id: "foot", coordinate: foot),
                                                                  RouteStop(id: "top", coordinate: top)], objective: objective))
            #expect(plan.order == ["foot", "top"])
            #expect(abs(plan.estimate.walkingTime - 54_000) < 0.01)
        }
    }

    /// Legs that cannot be walked (Tobler alone) beyond the exact solver's 16 free stops. Before: any infinite
    /// entry made the heuristics throw `invalidCostMatrix("entry [4][5] is not finite …")`, even
    /// when an order around it existed (a 9 km cliff between s4 and s5, 1.1 cm apart, in a
    /// 30-stop ring), while 8 stops planned around it. Now the heuristics route around it too;
    /// and when no order avoids such legs (s3 and s5 enterable only from the start: both cannot
    /// come first) both sizes name the same stops. Reference: the exact solver's answer on the
    /// 8-stop ring (tolerance: none, the same stop ids).
    @Test func unwalkableLegsBeyondTheExactSolver() throws {
        for n in [8, 30] {
            var stops = Self.ring(n)
            let foot = stops[4].coordinate
            stops[5].coordinate = GeodeticCoordinate(latitude: foot.latitude + 1e-7, longitude: foot.longitude, ellipsoidalHeight: 9000)
            let costs = try RoutingCosts(coordinates: stops.map(\.coordinate), walking: Self.toblerAlone)
            #expect(costs.durations[4, 5] == .infinity)
            let plan = try RoutePlanner.plan(RouteProblem(stops: stops), walking: Self.toblerAlone, options: Self.quick)
            #expect(plan.solver == (n > 16 ? .iteratedLocalSearch : .exact) && plan.order.count == n)
            #expect(plan.estimate.legs.allSatisfy { $0.walkingTime.isFinite }, "n = \(n)")

            let ring = Self.ring(n).map(\.coordinate)
            let d = try CostMatrix(rows: (0..<n).map { i in (0..<n).map { j in
                i == j ? 0 : (j == 3 || j == 5) && i != 0 ? .infinity : RoutingDistance.geodesic(ring[i], ring[j])
            } })
            #expect(throws: RoutingError.unreachableStops(["s3", "s5"]), "n = \(n)") {
                try RoutePlanner.plan(RouteProblem(stops: Self.ring(n)), costs: RoutingCosts(distances: d), options: Self.quick)
            }
            #expect(throws: RoutingError.unreachableStops(["3", "5"]), "n = \(n)") {
                try VisitOrderSolver.solve(cost: d, start: 0, end: .free, options: Self.quick)
            }
        }
    }

    /// Time-window bounds and budgets outside RouteProblem.timeRange ([0, 366 days]) are
    /// refused by name, for exact and heuristic sizes. Before: a window opening at 1e300 s was
    /// planned (waiting 1e300 s; the 3600 s dwell there and every later leg vanished in the
    /// rounding: departure == arrival == 1e300); closes and budgets of 1e300 were accepted.
    /// Reference for the accepted end of the range: opening at 31,622,400 s with a 3600 s dwell
    /// departs at exactly 31,626,000 s.
    @Test func timeWindowsAndBudgetsOutOfRangeAreNamed() throws {
        for n in [8, 30] {
            let cases: [(ClosedRange<Double>, GeoAnchorError)] = [
                (1e300...Double.infinity, .outOfRange(name: "timeWindow.lowerBound", value: 1e300, allowed: RouteProblem.timeRange)),
                (0...1e300, .outOfRange(name: "timeWindow.upperBound", value: 1e300, allowed: RouteProblem.timeRange)),
                (-1...3600, .outOfRange(name: "timeWindow.lowerBound", value: -1, allowed: RouteProblem.timeRange)),
                (31_622_401...31_622_402, .outOfRange(name: "timeWindow.lowerBound", value: 31_622_401, allowed: RouteProblem.timeRange)),
                (-Double.infinity...0, .nonFinite(name: "timeWindow.lowerBound", value: -.infinity)),
            ]
            for (window, error) in cases {
                var stops = Self.ring(n)
                stops[3].timeWindow = window
                #expect(throws: RoutingError.invalidStop(id: "s3", error: error), "n = \(n)") {
                    try RoutePlanner.plan(RouteProblem(stops: stops))
                }
            }
            for b in [1e300, -1, 31_622_401] {
                #expect(throws: RoutingError.invalidStop(id: "time budget", error: .outOfRange(name: "timeBudget", value: b, allowed: RouteProblem.timeRange))) {
                    try RoutePlanner.plan(RouteProblem(stops: Self.ring(n), timeBudget: b))
                }
            }
            var stops = Self.ring(n)
            stops[3].timeWindow = 31_622_400...Double.infinity
            stops[3].dwell = 3600
            let plan = try RoutePlanner.plan(RouteProblem(stops: stops), options: Self.quick)
            let leg = try #require(plan.estimate.legs.first { $0.to == "s3" })
            #expect(leg.departure == 31_626_000 && plan.estimate.duration.isFinite)
        }
    }

    /// A budget the mandatory stops cannot meet names their least duration. Before: with no
    /// time windows the error read "the mandatory stops need nan s". Reference: the exact plan
    /// of the same stops without the budget (duration objective), to 1e-6 s.
    @Test func exceededBudgetNamesTheLeastDuration() throws {
        var stops = Self.ring(8)
        for k in stops.indices { stops[k].dwell = 10 }
        let least = try RoutePlanner.plan(RouteProblem(stops: stops, objective: .duration)).estimate.duration
        do {
            _ = try RoutePlanner.plan(RouteProblem(stops: stops, timeBudget: 200))
            Issue.record("planned within 200 s")
        } catch {
            guard case .timeBudgetExceeded(200, let required) = error else { Issue.record("\(error)"); return }
            #expect(abs(required - least) < 1e-6, "\(required) vs \(least)")
            #expect("\(error)".contains("need \(Int(least.rounded())) s"), "\(error)")
        }
        // Beyond the exact solver: the heuristic's best, finite and over the budget.
        do {
            _ = try RoutePlanner.plan(RouteProblem(stops: Self.ring(30), timeBudget: 10), options: Self.quick)
            Issue.record("planned within 10 s")
        } catch {
            guard case .timeBudgetExceeded(10, let required) = error else { Issue.record("\(error)"); return }
            #expect(required.isFinite && required > 10)
        }
    }

    /// A path network whose edge spans the globe: snapping used one tangent plane at the first
    /// vertex, so `snap(far)` of the vertex `far` itself returned a point 8,427 km away and a
    /// plan with maxSnapDistance 1e6 m called `far` unreachable. Now a vertex more than
    /// PathNetwork.maximumExtent (100 km) from the first is refused, naming its LineString.
    /// Reference for the accepted 90 km network: a vertex snaps onto itself (tolerance 1 mm, the
    /// ENU round trip is µm-level).
    @Test func pathNetworkBeyondItsPlaneIsRefused() throws {
        let a = GeodeticCoordinate(latitude: 47.37, longitude: 8.54, ellipsoidalHeight: 0)
        let b = GeodeticCoordinate(latitude: 47.371, longitude: 8.541, ellipsoidalHeight: 0)
        for far in [GeodeticCoordinate(latitude: -47.37, longitude: 8.54 + 1e6, ellipsoidalHeight: 0),
                    GeodeticCoordinate(latitude: 47.37, longitude: 8.54 + 1e300, ellipsoidalHeight: 0),
                    GeodeticCoordinate(latitude: 48.3, longitude: 8.54, ellipsoidalHeight: 0)] {
            do {
                _ = try PathNetwork(lineStrings: [[a, b], [b, far]])
                Issue.record("accepted a vertex \(RoutingDistance.geodesic(a, far) / 1000) km away")
            } catch {
                guard case .malformedInput("LineString", 2, let reason) = error else { Issue.record("\(error)"); continue }
                #expect(reason.contains("network spans at most 100 km"))
            }
        }
        #expect(throws: RoutingError.self) {
            try PathNetwork(lineStrings: [[a, GeodeticCoordinate(latitude: 47.371, longitude: 8.541, ellipsoidalHeight: 1e7)]])
        }
        let near = GeodeticCoordinate(latitude: 47.37 + 0.8, longitude: 8.54, ellipsoidalHeight: 0) // ≈ 89 km north
        let net = try PathNetwork(lineStrings: [[a, b], [b, near]])
        let s = try #require(net.snap(near))
        #expect(s.distance < 1e-3)
        let plan = try RoutePlanner.plan(RouteProblem(stops: [RouteStop(id: "a", coordinate: a), RouteStop(id: "f", coordinate: near)]),
                                         network: net)
        #expect(plan.order == ["a", "f"])
    }
}
