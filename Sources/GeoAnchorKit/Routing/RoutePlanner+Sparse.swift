import Foundation

extension RoutePlanner {
    /// Above this many nodes (stops + start/end locations) an unconstrained tour over direct legs
    /// is ordered by the sparse solver (an internal `SparseTourSolver`: memory linear in the stops; the time limit covers the
    /// whole run) instead of the full-matrix solvers, whose n²/2 geodesics alone take ≈ 1 s here.
    public static let sparseThreshold = 700
    /// Most nodes a sparse plan accepts (≈ 150 MB at this size).
    public static let maximumSparseNodes = 200_000

    /// An order for many stops: minimises the geodesic length (walking time follows; an
    /// approximation when `objective` is duration and the site is hilly), within
    /// `options.timeLimit` seconds from the call. Needs a plain tour (no windows, priorities,
    /// precedences or budget) — ``RouteProblem/isPlainTour``.
    static func planSparse(_ problem: RouteProblem, walking: WalkingModel, distance: DistanceFunction,
                           options: SolverConfiguration) throws(RoutingError) -> RoutePlan {
        let deadline = options.deadline(from: ContinuousClock().now)
        let n = problem.nodeCoordinates.count
        guard n <= maximumSparseNodes else { throw .tooManyStops(count: n, limit: maximumSparseNodes) }
        let coords = try problem.heightedNodeCoordinates()
        var index: [String: Int] = [:]
        for (i, s) in problem.stops.enumerated() {
            if index.updateValue(i, forKey: s.id) != nil { throw .duplicateStopID(s.id) }
        }
        let startNode: Int
        switch problem.start {
        case .firstStop: startNode = 0
        case .stop(let id): guard let i = index[id] else { throw .unknownStopID(id) }; startNode = i
        case .location: startNode = problem.stops.count
        }
        let end: VisitOrderEnd
        switch problem.end {
        case .free: end = .free
        case .returnToStart: end = .roundTrip
        case .stop(let id): guard let i = index[id] else { throw .unknownStopID(id) }; end = .node(i)
        case .location: end = .node(n - 1)
        }
        func leg(_ a: Int, _ b: Int) -> (distance: Double, duration: Double, ascent: Double, descent: Double) {
            let s = distance(coords[a], coords[b]), dh = coords[b].height - coords[a].height
            return (s, walking.duration(horizontalDistance: s, heightChange: dh), Swift.max(0, dh), Swift.max(0, -dh))
        }
        let (nodes, moves) = try SparseTourSolver.order(coordinates: coords, start: startNode, end: end,
                                                        cost: { distance(coords[$0], coords[$1]) }, deadline: deadline)
        let returnTo: Int? = { if case .roundTrip = end { return startNode } else { return nil } }()
        let walk = WalkEstimate(nodes: nodes, returnTo: returnTo, leg: leg, label: problem.label(ofNode:),
                                    dwell: { $0 < problem.stops.count ? problem.stops[$0].dwell : 0 })
        // A leg too steep to walk (Tobler alone, its speed underflowing to 0) makes its end unreachable.
        try walk.checkWalkable()
        var estimate = walk
        for k in estimate.legs.indices {
            estimate.legs[k].path = [coords[estimate.legs[k].fromNode], coords[estimate.legs[k].toNode]]
        }
        let order = nodes.filter { $0 < problem.stops.count }.map { problem.stops[$0].id }
        return RoutePlan(order: order, skipped: [], nodes: nodes, estimate: estimate,
                         solver: .iteratedLocalSearch, iterations: moves)
    }
}

extension RouteProblem {
    /// No time windows, priorities, precedences or time budget: only the order is free.
    public var isPlainTour: Bool {
        precedences.isEmpty && timeBudget == nil && !stops.contains { $0.timeWindow != nil || $0.priority != nil }
    }
}
