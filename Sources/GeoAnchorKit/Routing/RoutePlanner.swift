import Foundation

/// A planned tour: the visiting order and its walk estimate.
public struct RoutePlan: Sendable, Hashable {
    /// Stop ids in visiting order (the start stop first when the start is a stop; a start or end
    /// *location* is not listed; a round trip does not repeat the start).
    public var order: [String]
    /// Optional stops left out (prize-collecting under a time budget).
    public var skipped: [String]
    /// Cost-matrix node indices in visiting order (including start/end locations).
    public var nodes: [Int]
    /// Distance, climbs, walking/dwell/waiting time, per-leg breakdown and arrival times.
    public var estimate: WalkEstimate
    /// Which solver produced the order; `.exact` means provably optimal.
    public var solver: RoutingSolverKind
    /// Local-search iterations (0 for the exact solver).
    public var iterations: Int
}

/// Orders the stops of a ``RouteProblem`` and estimates the walk.
///
/// Up to 16 free stops (besides a fixed start and end) the order is optimal (Held–Karp, with
/// precedence, time windows and prize-collecting handled exactly); larger problems use
/// iterated local search within ``SolverConfiguration/timeLimit``.
public enum RoutePlanner {
    /// Plans over direct legs between the stops: geodesic distance, walking time from the stops'
    /// height differences by `walking` (Tobler's hiking function; on stairs and steep legs the
    /// steep-terrain model, ``WalkingModel/steepTerrain``). Without any height (every
    /// ``RouteStop/hasHeight`` false, and the start and end locations' too) the tour is level.
    /// - Throws: ``RoutingError/invalidStop(id:error:)`` for a coordinate, height
    ///   (``RouteStop/heightRange``) or dwell (``RouteStop/dwellRange``) out of range;
    ///   ``RoutingError/mixedVerticalReferences(_:)`` for heights above different datums, or
    ///   some stops or locations with a height and others without;
    ///   ``RoutingError/invalidWalkingModel(_:)``; ``RoutingError/unreachableStops(_:)`` for
    ///   stops only reachable over legs too steep to walk (only without a steep-terrain model);
    ///   the solver's errors (``RoutingError/invalidSolverConfiguration(_:)`` first of all).
    public static func plan(_ problem: RouteProblem, walking: WalkingModel = .tobler,
                            distance: DistanceFunction = RoutingDistance.geodesic,
                            options: SolverConfiguration = SolverConfiguration()) throws(RoutingError) -> RoutePlan {
        try options.check()
        guard !problem.stops.isEmpty else { throw .noStops }
        try problem.validateValues()
        try walking.check()
        let nodes = problem.nodeCoordinates.count
        if nodes > sparseThreshold, problem.isPlainTour {
            return try planSparse(problem, walking: walking, distance: distance, options: options)
        }
        guard nodes <= VisitOrderSolver.maximumNodes else { throw .tooManyStops(count: nodes, limit: VisitOrderSolver.maximumNodes) }
        let coordinates = try problem.heightedNodeCoordinates()
        let costs = try RoutingCosts(coordinates: coordinates, distance: distance, walking: walking)
        var result = try plan(problem, costs: costs, options: options)
        for k in result.estimate.legs.indices {
            let leg = result.estimate.legs[k]
            result.estimate.legs[k].path = [coordinates[leg.fromNode], coordinates[leg.toNode]]
        }
        return result
    }

    /// Plans along a walking-path network: stops are snapped to the nearest path within
    /// `maxSnapDistance` meters; stops that cannot be snapped or lie on a disconnected part are
    /// reported as ``RoutingError/unreachableStops(_:)``.
    ///
    /// Heights: a stop (or start/end location) without a height (``RouteStop/hasHeight``,
    /// ``RouteProblem/startHasHeight``) takes the path's height at its snap point, interpolated
    /// along the segment, so the short leg between it and the path is level and the climbs are
    /// the paths' own; one with a height keeps it (the leg to the path climbs the difference) and
    /// must be above the network's vertical reference. On a network without heights
    /// (``PathNetwork/hasHeights``) the stops' height differences are spread evenly along the
    /// path between them; with no heights at all the tour is level.
    /// - Throws: ``RoutingError/mixedVerticalReferences(_:)`` for heights above a datum other
    ///   than the network's, or, on a network without heights, some stops or locations with a
    ///   height and others without; ``RoutingError/unreachableStops(_:)``; the solver's errors
    ///   (``RoutingError/invalidSolverConfiguration(_:)`` first of all).
    public static func plan(_ problem: RouteProblem, network: PathNetwork, maxSnapDistance: Double = 100,
                            walking: WalkingModel = .tobler,
                            options: SolverConfiguration = SolverConfiguration()) throws(RoutingError) -> RoutePlan {
        try options.check()
        guard !problem.stops.isEmpty else { throw .noStops }
        // Before any n × n matrix is built.
        guard problem.nodeCoordinates.count <= VisitOrderSolver.maximumNodes else {
            throw .tooManyStops(count: problem.nodeCoordinates.count, limit: VisitOrderSolver.maximumNodes)
        }
        try problem.validateValues()
        let coordinates = try problem.heightedNodeCoordinates(network: network, maxSnapDistance: maxSnapDistance)
        let costs = try network.costs(between: coordinates, maxSnapDistance: maxSnapDistance, walking: walking)
        var result = try plan(problem, costs: costs, options: options)
        let paths = network.walkingPaths(between: coordinates, legs: result.estimate.legs.map { ($0.fromNode, $0.toNode) },
                                         maxSnapDistance: maxSnapDistance)
        for k in result.estimate.legs.indices { result.estimate.legs[k].path = paths[k] }
        return result
    }

    /// Plans over user-supplied costs (node order: see ``RouteProblem``).
    public static func plan(_ problem: RouteProblem, costs: RoutingCosts,
                            options: SolverConfiguration = SolverConfiguration()) throws(RoutingError) -> RoutePlan {
        try options.check()
        let (instance, startNode, _) = try problem.instance(costs: costs)
        let solution: VisitOrder
        do { solution = try instance.solve(options: options) } catch {
            if case .noStops = error { throw error }
            throw relabel(error, problem)
        }
        let returnTo: Int? = { if case .roundTrip = instance.end { return startNode } else { return nil } }()
        let estimate = WalkEstimate(nodes: solution.order, returnTo: returnTo, costs: costs,
                                    label: problem.label(ofNode:),
                                    dwell: { $0 < problem.stops.count ? problem.stops[$0].dwell : 0 },
                                    window: { $0 < problem.stops.count ? problem.stops[$0].timeWindow : nil })
        // The solver avoids infinite legs where it can; one that remains (a user matrix with an
        // infinite duration on the only usable leg) makes its end unreachable, not an ∞ estimate.
        try estimate.checkWalkable()
        let visited = Set(solution.order)
        let order = solution.order.filter { $0 < problem.stops.count }.map { problem.stops[$0].id }
        let skipped = problem.stops.indices.filter { !visited.contains($0) }.map { problem.stops[$0].id }
        return RoutePlan(order: order, skipped: skipped, nodes: solution.order, estimate: estimate,
                        solver: solution.solver, iterations: solution.iterations)
    }

    /// Replaces node indices by stop labels in solver errors, and recomputes the diagnosis
    /// with labels.
    private static func relabel(_ e: RoutingError, _ problem: RouteProblem) -> RoutingError {
        func name(_ s: String) -> String { Int(s).map { problem.label(ofNode: $0) } ?? s }
        switch e {
        case .infeasibleTimeWindows(let ids): return .infeasibleTimeWindows(stops: ids.map(name))
        case .contradictoryPrecedence(let ids): return .contradictoryPrecedence(ids.map(name))
        case .unreachableStops(let ids): return .unreachableStops(ids.map(name))
        default: return e
        }
    }
}
