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
    /// ≤ 20 ms for 16 free stops in release builds). Default 1 s. ≥ 0: 0 still runs the
    /// construction and one local-search descent; values above ``maximumTimeLimit`` (10⁶ s,
    /// 11.6 days), `.infinity` included, run as that (leave the stop to ``maxIterations``).
    /// Negative and NaN are refused (``validate()``).
    public var timeLimit: Double
    /// Seed of the pseudo-random perturbations. A run is reproducible for a given seed as long
    /// as ``maxIterations`` (not the time limit) stops it.
    public var seed: UInt64
    /// Upper bound on iterated-local-search iterations (nil: only the time limit), in
    /// [0, ``maximumIterations``]; 0 stops after the construction and one descent.
    public var maxIterations: Int?
    /// Problems with at most this many free nodes (excluding a fixed start and end) are solved
    /// exactly with Held–Karp. In [0, ``maximumExactLimit``] (memory grows as 2ⁿ·n); 0 always
    /// uses the heuristic.
    public var exactLimit: Int

    /// A configuration; the values are checked by ``validate()``, which the solvers call (an
    /// `exactLimit` above 16 was clamped to 16 here before, and is now refused there by name).
    public init(timeLimit: Double = 1, seed: UInt64 = 1, maxIterations: Int? = nil, exactLimit: Int = 16) {
        self.timeLimit = timeLimit
        self.seed = seed
        self.maxIterations = maxIterations
        self.exactLimit = exactLimit
    }

    /// Largest ``exactLimit``: 16 free nodes, ≈ 8 MB of Held–Karp table (2ⁿ·n entries); 25 would
    /// need 6.7 GB.
    public static let maximumExactLimit = 16

    /// Largest ``maxIterations``: 10¹². An iteration took 27 µs on 20 stops (debug build,
    /// `geobench route --iterations 20000`); even 10 times faster (a release build) 10¹²
    /// iterations take 2.7·10⁶ s, longer than ``maximumTimeLimit`` lets a run last. A larger cap
    /// only means "no cap", which nil says.
    public static let maximumIterations = 1_000_000_000_000

    /// Checks every value: ``timeLimit`` ≥ 0 (`.infinity` allowed, see there; NaN refused),
    /// ``maxIterations`` nil or in [0, ``maximumIterations``], ``exactLimit`` in
    /// [0, ``maximumExactLimit``]. ``VisitOrderSolver/solve(cost:start:end:options:)`` and every
    /// ``RoutePlanner`` `plan` throw it first, as ``RoutingError/invalidSolverConfiguration(_:)``.
    /// - Throws: ``GeoAnchorError/nonFinite(name:value:)`` (NaN, −∞) or
    ///   ``GeoAnchorError/outOfRange(name:value:allowed:)`` naming the first bad value.
    public func validate() throws(GeoAnchorError) {
        if timeLimit != .infinity { try ValueRange.atLeast(0, unit: "s").check(timeLimit, name: "timeLimit") }
        if let m = maxIterations { try ValueRange.closed(0, Double(Self.maximumIterations)).check(Double(m), name: "maxIterations") }
        try ValueRange.closed(0, Double(Self.maximumExactLimit)).check(Double(exactLimit), name: "exactLimit")
    }

    /// ``validate()`` as a routing error.
    func check() throws(RoutingError) {
        do { try validate() } catch { throw .invalidSolverConfiguration(error) }
    }

    /// The longest ``timeLimit`` honoured, seconds (10⁶ s ≈ 11.6 days; far beyond any useful
    /// run, and far inside what a `Duration` holds).
    public static let maximumTimeLimit = 1e6

    /// When a run started at `now` must stop: `now` + ``timeLimit`` clamped to
    /// [0, ``maximumTimeLimit``] (NaN counts as 0; ``validate()`` refuses both before a run). The
    /// one conversion of the limit to a clock instant: a limit above ≈ 9.2·10¹⁵ s would not fit
    /// the `Int64` milliseconds.
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
    /// - Throws: ``RoutingError/invalidSolverConfiguration(_:)`` when `options` fails
    ///   ``SolverConfiguration/validate()`` (checked first); ``RoutingError/invalidCostMatrix(_:)`` for bad indices;
    ///   ``RoutingError/unreachableStops(_:)`` (node indices as text: the nodes that an infinite
    ///   entry leads to) when no order found avoids the infinite entries — with any number of
    ///   nodes, exact and heuristic alike.
    public static func solve(cost: CostMatrix, start: Int, end: VisitOrderEnd = .roundTrip,
                             options: SolverConfiguration = SolverConfiguration()) throws(RoutingError) -> VisitOrder {
        try options.check()
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
