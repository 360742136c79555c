import Foundation

/// The solvers' internal view of a problem: a cost matrix over nodes plus optional side
/// constraints. Built by ``VisitOrderSolver`` (plain) and ``RoutePlanner`` (with stops' constraints).
struct VisitOrderInstance: Sendable {
    /// The objective between ordered node pairs (meters or seconds).
    var cost: CostMatrix
    var start: Int
    var end: VisitOrderEnd
    /// When true the objective is time: service (dwell) times are added and windows apply.
    var timed = false
    /// Seconds spent at each node (only when `timed`).
    var service: [Double]
    /// Earliest start of service at each node, seconds after the tour starts (waiting allowed).
    var windowOpen: [Double]
    /// Latest arrival at each node, seconds after the tour starts.
    var windowClose: [Double]
    /// `successors[x]`: nodes that must come after x when both are visited.
    var successors: [[Int]]
    /// Nodes that may be skipped (prize-collecting).
    var optional: [Bool]
    /// Reward for visiting an optional node.
    var prize: [Double]
    /// Maximum total objective (seconds when `timed`), nil for none.
    var budget: Double?

    var count: Int { cost.count }

    init(cost: CostMatrix, start: Int, end: VisitOrderEnd) {
        let n = cost.count
        self.cost = cost
        self.start = start
        self.end = end
        self.service = [Double](repeating: 0, count: n)
        self.windowOpen = [Double](repeating: 0, count: n)
        self.windowClose = [Double](repeating: .infinity, count: n)
        self.successors = [[Int]](repeating: [], count: n)
        self.optional = [Bool](repeating: false, count: n)
        self.prize = [Double](repeating: 0, count: n)
    }

    /// The fixed end node, if it differs from the start.
    var fixedEnd: Int? {
        if case .node(let e) = end, e != start { return e }
        return nil
    }

    /// Nodes other than the start and a fixed end, in index order.
    var freeNodes: [Int] {
        let e = fixedEnd
        return (0..<count).filter { $0 != start && $0 != e }
    }

    var hasWindows: Bool { timed && (windowOpen.contains { $0 > 0 } || windowClose.contains { $0.isFinite }) }
    var hasSideConstraints: Bool {
        hasWindows || successors.contains { !$0.isEmpty } || optional.contains(true) || budget != nil
    }

    /// Dispatches to the exact or the heuristic solver.
    ///
    /// Infinite entries (legs that cannot be walked, "no connection" in a user matrix) are
    /// avoided by both: the exact solver never takes one; the heuristics, which need a complete
    /// matrix, see them as ``withFinitePenalties()``. When the best order found still needs
    /// one, the error is the exact solver's for "no order": ``diagnoseInfeasibility(options:ids:)``
    /// (with no window to blame, the stops such legs lead to are unreachable).
    func solve(options: SolverConfiguration) throws(RoutingError) -> VisitOrder {
        if freeNodes.count <= options.exactLimit {
            guard let s = HeldKarp.solve(self) else { throw diagnoseInfeasibility(options: options) }
            return s
        }
        let search = withFinitePenalties()
        let s: VisitOrder
        if hasSideConstraints {
            guard let r = ConstrainedSearch(search, options: options).run() else { throw diagnoseInfeasibility(options: options) }
            s = r
        } else {
            s = IteratedLocalSearch(cost: search.cost, start: start, end: end, options: options).run()
        }
        if walksInfiniteLeg(s.order) { throw diagnoseInfeasibility(options: options) }
        return s
    }

    /// A copy for the heuristics whose infinite entries are a finite penalty: more than any
    /// order without them can cost (every leg at the largest finite entry, all service times,
    /// the latest window opening), so that they are avoided where possible; capped at
    /// `greatestFiniteMagnitude / (4(n + 1))` so that sums over a whole order stay finite.
    /// `self` when every entry is finite.
    func withFinitePenalties() -> VisitOrderInstance {
        guard cost.values.contains(where: { !$0.isFinite }) else { return self }
        let largest = cost.values.lazy.filter(\.isFinite).max() ?? 0
        let serviceSum = timed ? service.reduce(0, +) : 0
        let latestOpening = timed ? (windowOpen.max() ?? 0) : 0
        let bound = Double(count + 1) * largest + serviceSum + latestOpening + 1
        let penalty = Swift.min(bound, .greatestFiniteMagnitude / Double(4 * (count + 1)))
        var copy = self
        copy.cost = CostMatrix(count: count) { i, j in cost[i, j].isFinite ? cost[i, j] : penalty }
        return copy
    }

    /// True when `order` (a solution's: start first, a round trip not repeating it) walks a leg
    /// whose cost is infinite.
    func walksInfiniteLeg(_ order: [Int]) -> Bool {
        guard let last = order.last else { return false }
        for k in order.indices.dropFirst() where !cost[order[k - 1], order[k]].isFinite { return true }
        switch end {
        case .roundTrip: return !cost[last, start].isFinite
        case .node(let e) where e == start: return last != start && !cost[last, start].isFinite
        default: return false
        }
    }

    /// Simulates `order` (start first; a fixed end last; no repeated start for round trips).
    /// Returns the objective and whether every window holds, or nil if the order breaks a window.
    func evaluate(_ order: [Int]) -> (cost: Double, feasible: Bool) {
        var t = timed ? service[start] : 0
        var feasible = true
        var prev = order[0]
        for k in 1..<max(1, order.count) {
            let x = order[k]
            t += cost[prev, x]
            if timed {
                if t < windowOpen[x] { t = windowOpen[x] }
                if t > windowClose[x] { feasible = false }
                t += service[x]
            }
            prev = x
        }
        if case .roundTrip = end { t += cost[prev, start] }
        return (timed ? t : t, feasible)
    }

    /// Explains why no solution exists: a precedence cycle, a window unreachable even directly
    /// from the start, the budget, or the windows jointly.
    /// `options` bound the search for the mandatory stops' least duration reported with an
    /// exceeded budget.
    func diagnoseInfeasibility(options: SolverConfiguration = SolverConfiguration(),
                               ids: (Int) -> String = { String($0) }) -> RoutingError {
        if let cycle = precedenceCycle() { return .contradictoryPrecedence(cycle.map(ids)) }
        if hasWindows {
            let t0 = service[start]
            let late = (0..<count).filter { $0 != start && !optional[$0] && t0 + cost[start, $0] > windowClose[$0] }
            if !late.isEmpty { return .infeasibleTimeWindows(stops: late.map(ids)) }
        }
        if let budget {
            // Lower bound on the mandatory duration: dwell at every mandatory node.
            let mandatoryDwell = (0..<count).filter { !optional[$0] }.reduce(0) { $0 + service[$1] }
            if mandatoryDwell > budget { return .timeBudgetExceeded(budget: budget, requiredDuration: mandatoryDwell) }
            if !hasWindows {
                // The least duration of an order through the mandatory stops (optional ones
                // worth nothing), without the budget: exact up to the exact solver's size.
                var relaxed = self
                relaxed.budget = nil
                for i in 0..<count where optional[i] { relaxed.prize[i] = 0 }
                if let least = try? relaxed.solve(options: options), least.cost.isFinite {
                    return .timeBudgetExceeded(budget: budget, requiredDuration: least.cost)
                }
            }
        }
        let windowed = (0..<count).filter { $0 != start && !optional[$0] && (windowOpen[$0] > 0 || windowClose[$0].isFinite) }
        if windowed.isEmpty {
            // No window to blame: legs that cannot be walked (infinite entries) cut every route.
            let cut = (0..<count).filter { j in j != start && (0..<count).contains { i in i != j && !cost[i, j].isFinite } }
            if !cut.isEmpty { return .unreachableStops(cut.map(ids)) }
        }
        return .infeasibleTimeWindows(stops: windowed.map(ids))
    }

    /// A cycle in the precedence graph (node indices, first repeated at the end), or nil.
    func precedenceCycle() -> [Int]? {
        var state = [UInt8](repeating: 0, count: count) // 0 new, 1 on stack, 2 done
        var stack: [Int] = []
        func visit(_ x: Int) -> [Int]? {
            state[x] = 1; stack.append(x)
            for y in successors[x] {
                if state[y] == 1, let k = stack.firstIndex(of: y) { return Array(stack[k...]) + [y] }
                if state[y] == 0, let c = visit(y) { return c }
            }
            state[x] = 2; stack.removeLast()
            return nil
        }
        for x in 0..<count where state[x] == 0 {
            if let c = visit(x) { return c }
        }
        return nil
    }
}
