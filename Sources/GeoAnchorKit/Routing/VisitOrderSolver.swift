import Foundation

/// How a visiting order ends.
public enum VisitOrderEnd: Sendable, Hashable {
    /// Anywhere: the order ends at whichever node is cheapest (an open order).
    case free
    /// At this node index (it is visited last).
    case node(Int)
    /// Back at the start (a closed tour, as in TSPLIB).
    case roundTrip
}

/// Which algorithm produced a solution.
public enum RoutingSolverKind: String, Sendable, Hashable, Codable {
    /// Held–Karp dynamic programming over subsets: provably optimal.
    case exact
    /// Construction + iterated local search (2-opt, Or-opt, or-3opt segment exchange).
    case iteratedLocalSearch
}

/// Options shared by the solvers.
public struct SolverConfiguration: Sendable, Hashable {
    /// Wall-clock budget for the heuristic, seconds (the exact solver ignores it; it needs
    /// ≤ 20 ms for 16 free stops in release builds). Default 1 s. Values above
    /// ``maximumTimeLimit`` (10⁶ s, 11.6 days) run as that, negative and NaN as 0 (the
    /// construction and one local-search descent still run).
    public var timeLimit: Double
    /// Seed of the pseudo-random perturbations. A run is reproducible for a given seed as long
    /// as ``maxIterations`` (not the time limit) stops it.
    public var seed: UInt64
    /// Upper bound on iterated-local-search iterations (nil: only the time limit).
    public var maxIterations: Int?
    /// Problems with at most this many free nodes (excluding a fixed start and end) are solved
    /// exactly with Held–Karp. At most 16 (memory grows as 2ⁿ·n).
    public var exactLimit: Int

    public init(timeLimit: Double = 1, seed: UInt64 = 1, maxIterations: Int? = nil, exactLimit: Int = 16) {
        self.timeLimit = timeLimit
        self.seed = seed
        self.maxIterations = maxIterations
        self.exactLimit = max(0, min(exactLimit, 16))
    }

    /// The longest ``timeLimit`` honoured, seconds (10⁶ s ≈ 11.6 days; far beyond any useful
    /// run, and far inside what a `Duration` holds).
    public static let maximumTimeLimit = 1e6

    /// When a run started at `now` must stop: `now` + ``timeLimit`` clamped to
    /// [0, ``maximumTimeLimit``] (NaN counts as 0). The one conversion of the limit to a clock
    /// instant: a limit above ≈ 9.2·10¹⁵ s would not fit the `Int64` milliseconds.
    func deadline(from now: ContinuousClock.Instant) -> ContinuousClock.Instant {
        let seconds = timeLimit.isNaN ? 0 : Swift.min(Swift.max(0, timeLimit), Self.maximumTimeLimit)
        return now + .milliseconds(Int64(seconds * 1000))
    }
}

/// A solved visiting order and its cost. ("Path" in this library means a walkable line: see
/// ``PathNetwork`` and ``WalkLeg/path``.)
public struct VisitOrder: Sendable, Hashable {
    /// Node indices in visiting order, starting with the start. A fixed end is the last entry;
    /// a round trip does not repeat the start at the end (its closing leg is in ``cost``).
    public var order: [Int]
    /// Total cost of the order (including the closing leg of a round trip).
    public var cost: Double
    /// Which solver produced it.
    public var solver: RoutingSolverKind
    /// True when the exact solver proved it optimal.
    public var isProvenOptimal: Bool { solver == .exact }
    /// Local-search iterations run (0 for the exact solver).
    public var iterations: Int
}

/// Orders nodes of a cost matrix into a cheapest open order or round trip (a travelling-salesman
/// solver).
///
/// Up to ``SolverConfiguration/exactLimit`` free nodes the answer is optimal (Held–Karp). Beyond,
/// an iterated local search (nearest-neighbour construction; 2-opt, Or-opt and or-3opt segment
/// exchange with neighbour lists and don't-look bits; double-bridge kicks) runs within the
/// time limit. Asymmetric matrices are handled exactly by every move.
///
/// *Accuracy*: on the ten TSPLIB GEO instances the heuristic's gap to the published optimum is
/// ≤ 1 % within 2 s (see the `tsplib` report and tests for the measured figures).
public enum VisitOrderSolver {
    /// Most nodes a problem may have (start, stops and end): the planner keeps four full n × n
    /// matrices (distance, time, ascent, descent; 8 bytes per entry) and the solver a copy,
    /// ≈ 0.3 GB at this size.
    public static let maximumNodes = 2_500

    /// Solves `cost` over all its nodes.
    /// - Parameters:
    ///   - cost: the objective between every ordered pair of nodes; ≥ 0, `+∞` for "no
    ///     connection" (avoided by every solver).
    ///   - start: index of the first node.
    ///   - end: how the order ends.
    ///   - options: time limit, seed, iteration cap and the exact solver's size limit.
    /// - Throws: ``RoutingError/invalidCostMatrix(_:)`` for bad indices;
    ///   ``RoutingError/unreachableStops(_:)`` (node indices as text: the nodes that an infinite
    ///   entry leads to) when no order found avoids the infinite entries — with any number of
    ///   nodes, exact and heuristic alike.
    public static func solve(cost: CostMatrix, start: Int, end: VisitOrderEnd = .roundTrip,
                             options: SolverConfiguration = SolverConfiguration()) throws(RoutingError) -> VisitOrder {
        let n = cost.count
        guard n > 0 else { throw .noStops }
        guard n <= maximumNodes else { throw .tooManyStops(count: n, limit: maximumNodes) }
        guard (0..<n).contains(start) else { throw .invalidCostMatrix("start index \(start) outside 0..<\(n)") }
        if case .node(let e) = end, !(0..<n).contains(e) {
            throw .invalidCostMatrix("end index \(e) outside 0..<\(n)")
        }
        let instance = VisitOrderInstance(cost: cost, start: start, end: end)
        return try instance.solve(options: options)
    }
}
