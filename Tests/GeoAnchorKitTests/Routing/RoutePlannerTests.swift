import Foundation
import Testing
@testable import GeoAnchorKit

@Suite("Route planner")
struct RoutePlannerTests {
    /// Stops on a line of longitudes at the equator, 0.001° ≈ 111 m apart, given out of order.
    static func lineStops(_ count: Int, dwell: Double = 0) -> [RouteStop] {
        let order = (0..<count).map { ($0 * 7) % count }
        return order.map { k in RouteStop(id: "p\(k)", coordinate: GeodeticCoordinate(latitude: 0, longitude: 0.001 * Double(k)), dwell: dwell) }
    }

    /// Reference: the obvious optimum of collinear stops (walk the line in order).
    @Test func collinearStopsAreWalkedInOrder() throws {
        var problem = RouteProblem(stops: Self.lineStops(9), start: .stop("p0"))
        let plan = try RoutePlanner.plan(problem)
        #expect(plan.order == (0..<9).map { "p\($0)" })
        #expect(plan.solver == .exact)
        // Fixed end at p4: starts at p0, ends at p4, visits all.
        problem.end = .stop("p4")
        let fixed = try RoutePlanner.plan(problem)
        #expect(fixed.order.last == "p4" && fixed.order.first == "p0" && fixed.order.count == 9)
        problem.end = .returnToStart
        let round = try RoutePlanner.plan(problem)
        #expect(round.estimate.legs.last?.to == "p0" && round.estimate.legs.count == 9)
        // Out along the line and back: twice the 8-gap length (spherical/ellipsoidal agree to 0.5 %).
        #expect(abs(round.estimate.distance - 2 * plan.estimate.distance) < 1e-6 * plan.estimate.distance)
    }

    /// Reference: Tobler's formula evaluated by hand. Flat: 6·e^(−0.175) km/h = 5.0363 km/h;
    /// 10 % up: 6·e^(−0.525) = 3.5489 km/h; 10 % down: 6·e^(−0.175) = 5.0363 km/h (the
    /// function is symmetric about −5 %, so −10 % equals 0 %). Tolerance 1e-12 relative.
    @Test func toblerSpeeds() {
        let w = WalkingModel.tobler
        #expect(abs(w.speed(slope: 0) * 3.6 - 6 * exp(-0.175)) < 1e-12)
        #expect(abs(w.speed(slope: 0.1) * 3.6 - 6 * exp(-0.525)) < 1e-12)
        #expect(abs(w.speed(slope: -0.1) - w.speed(slope: 0)) < 1e-15)
        #expect(abs(w.speed(slope: -0.05) * 3.6 - 6) < 1e-12)
        // 1000 m at +10 %: 1000 / (3.5489 km/h) = 1014.4 s.
        #expect(abs(w.duration(horizontalDistance: 1000, heightChange: 100) - 1000 / (6 * exp(-0.525) / 3.6)) < 1e-9)
    }

    /// Walk estimate: climbs, dwell and arrival times add up leg by leg (hand-computed reference
    /// from the cost matrix; tolerance 1e-9 s).
    @Test func walkEstimateAddsUp() throws {
        let stops = [
            RouteStop(id: "a", coordinate: GeodeticCoordinate(latitude: 49.965, longitude: 14.388, altitude: 330), dwell: 60),
            RouteStop(id: "b", coordinate: GeodeticCoordinate(latitude: 49.967, longitude: 14.390, altitude: 370), dwell: 300),
            RouteStop(id: "c", coordinate: GeodeticCoordinate(latitude: 49.964, longitude: 14.395, altitude: 360), dwell: 120),
        ]
        let problem = RouteProblem(stops: stops, end: .returnToStart)
        let plan = try RoutePlanner.plan(problem)
        let e = plan.estimate
        let costs = try RoutingCosts(coordinates: problem.nodeCoordinates)
        var t = 60.0
        for leg in e.legs {
            let i = stops.firstIndex { $0.id == leg.from }!, j = stops.firstIndex { $0.id == leg.to }!
            t += costs.durations[i, j]
            #expect(abs(leg.arrival - t) < 1e-9)
            if leg.to != "a" { t += stops[j].dwell }
        }
        #expect(abs(e.ascent - 40) < 1e-9 && abs(e.descent - 40) < 1e-9)   // round trip: up 40 m, down 40 m
        #expect(abs(e.dwellTime - 480) < 1e-9)
        #expect(abs(e.duration - (e.walkingTime + 480)) < 1e-9)
        // Uphill legs are slower than the same distance flat (Tobler), downhill 5 % is fastest.
        let ab = costs.durations[0, 1], ba = costs.durations[1, 0]
        #expect(ab > ba)
    }

    @Test func badInputIsTyped() throws {
        let p = GeodeticCoordinate(latitude: 50, longitude: 14)
        #expect(throws: RoutingError.noStops) { try RoutePlanner.plan(RouteProblem(stops: [])) }
        #expect(throws: RoutingError.duplicateStopID("x")) {
            try RoutePlanner.plan(RouteProblem(stops: [RouteStop(id: "x", coordinate: p), RouteStop(id: "x", coordinate: p)]))
        }
        let three = Self.lineStops(3)
        #expect(throws: RoutingError.unknownStopID("nope")) {
            try RoutePlanner.plan(RouteProblem(stops: three, precedences: [StopPrecedence(before: "p1", after: "nope")]))
        }
        #expect(throws: RoutingError.contradictoryPrecedence(["p1", "p2", "p1"])) {
            try RoutePlanner.plan(RouteProblem(stops: three, precedences: [StopPrecedence(before: "p1", after: "p2"),
                                                                         StopPrecedence(before: "p2", after: "p1")]))
        }
        #expect(throws: RoutingError.contradictoryPrecedence(["p1", "p0"])) {
            try RoutePlanner.plan(RouteProblem(stops: three, start: .stop("p0"), precedences: [StopPrecedence(before: "p1", after: "p0")]))
        }
        // p2 is 222 m from p0 (≈ 160 s); a window closing at 60 s cannot be met even directly.
        var late = Self.lineStops(3)
        late[late.firstIndex { $0.id == "p2" }!].timeWindow = 0...60
        #expect(throws: RoutingError.infeasibleTimeWindows(stops: ["p2"])) {
            try RoutePlanner.plan(RouteProblem(stops: late, start: .stop("p0")))
        }
        #expect(throws: RoutingError.invalidStop(id: "p0", error: .outOfRange(name: "dwell", value: -1, allowed: .atLeast(0, unit: "s")))) {
            var s = Self.lineStops(2); s[0].dwell = -1
            return try RoutePlanner.plan(RouteProblem(stops: s))
        }
    }

    /// Windows that force a detour: p1 opens only after p2 has been seen. Reference: brute force
    /// over the three orders (done by hand: p0 → p2 → p1 is the only feasible order).
    @Test func timeWindowsReorder() throws {
        var s = Self.lineStops(3)
        s[s.firstIndex { $0.id == "p2" }!].timeWindow = 0...200
        s[s.firstIndex { $0.id == "p1" }!].timeWindow = 200...10_000
        let plan = try RoutePlanner.plan(RouteProblem(stops: s, start: .stop("p0")))
        #expect(plan.order == ["p0", "p2", "p1"])
        #expect(plan.estimate.waitingTime >= 0)
    }

    /// Prize-collecting: 5 optional stops, a budget that fits only some. Reference: brute force
    /// over all subsets and orders (BruteForce.solve on the same instance).
    @Test func prizeCollectingKeepsMostPriority() throws {
        var s = Self.lineStops(6, dwell: 120)
        for k in s.indices where s[k].id != "p0" { s[k].priority = Double(s[k].id.dropFirst())! }
        let problem = RouteProblem(stops: s, start: .stop("p0"), timeBudget: 600)
        let plan = try RoutePlanner.plan(problem)
        let (instance, _, _) = try problem.instance(costs: RoutingCosts(coordinates: problem.nodeCoordinates))
        let brute = try #require(BruteForce.solve(instance))
        let prize = plan.order.compactMap { id in s.first { $0.id == id }?.priority }.reduce(0, +)
        #expect(abs(prize - brute.prize) < 1e-9)
        #expect(plan.estimate.duration <= 600 + 1e-9)
        #expect(!plan.skipped.isEmpty)
        // Mandatory stops that do not fit → explicit error.
        var tight = Self.lineStops(3, dwell: 400)
        tight[1].priority = nil
        #expect(throws: RoutingError.self) { try RoutePlanner.plan(RouteProblem(stops: tight, timeBudget: 500)) }
    }

    /// Larger problems go to the heuristic and still respect precedence (checked on the result).
    @Test func heuristicRespectsPrecedence() throws {
        var rng = SplitMix64(seed: 7)
        let stops = (0..<30).map { k in
            RouteStop(id: "s\(k)", coordinate: GeodeticCoordinate(latitude: 50 + Double(rng.below(1000)) * 1e-5,
                                                                 longitude: 14 + Double(rng.below(1000)) * 1e-5))
        }
        let prec = [StopPrecedence(before: "s20", after: "s3"), StopPrecedence(before: "s3", after: "s11")]
        let plan = try RoutePlanner.plan(RouteProblem(stops: stops, precedences: prec),
                                        options: SolverConfiguration(timeLimit: 60, seed: 1, maxIterations: 30))
        #expect(plan.solver == .iteratedLocalSearch && plan.order.count == 30)
        let pos = Dictionary(uniqueKeysWithValues: plan.order.enumerated().map { ($1, $0) })
        #expect(pos["s20"]! < pos["s3"]! && pos["s3"]! < pos["s11"]!)
    }
}
