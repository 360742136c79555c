import Foundation

/// Heuristic for problems beyond the exact solver's size that carry side constraints
/// (precedence, time windows, optional stops with prizes, a time budget).
///
/// Every candidate route is simulated in full (O(n)), so constraints are checked exactly.
/// Candidates are ranked lexicographically: constraint violation (window lateness in seconds,
/// precedence inversions, budget overrun), then prize collected (more is better), then the
/// objective. Construction: cheapest insertion of the mandatory nodes in precedence order,
/// then optional nodes by prize while the route stays feasible. Improvement: relocation of single
/// nodes to their neighbours' positions, then ruin-and-recreate (remove a few nearby nodes,
/// re-insert greedily; Schrimpf et al. 2000) within the time limit, keeping non-worse routes.
struct ConstrainedSearch {
    let p: VisitOrderInstance
    let options: SolverConfiguration
    private let n: Int
    private let neighbours: [[Int]]
    private let order: [Int]   // mandatory-first insertion order

    init(_ p: VisitOrderInstance, options: SolverConfiguration) {
        self.p = p
        self.options = options
        n = p.count
        let free = p.freeNodes
        var nb: [[Int]] = []
        for a in 0..<n {
            let sorted = free.filter { $0 != a }.sorted { p.cost[a, $0] + p.cost[$0, a] < p.cost[a, $1] + p.cost[$1, a] }
            nb.append(Array(sorted.prefix(10)))
        }
        neighbours = nb
        // Topological rank for precedence, then window close, then distance from the start.
        var rank = [Int](repeating: 0, count: n)
        var changed = true, rounds = 0
        while changed && rounds <= n {
            changed = false; rounds += 1
            for x in 0..<n { for y in p.successors[x] where rank[y] < rank[x] + 1 { rank[y] = rank[x] + 1; changed = true } }
        }
        order = free.sorted {
            let a = (p.optional[$0] ? 1 : 0, rank[$0], p.windowClose[$0], p.cost[p.start, $0])
            let b = (p.optional[$1] ? 1 : 0, rank[$1], p.windowClose[$1], p.cost[p.start, $1])
            return a < b
        }
    }

    /// (violation, −prize, objective): smaller is better.
    struct Score: Comparable {
        var violation: Double, negPrize: Double, cost: Double
        static func < (l: Score, r: Score) -> Bool {
            if abs(l.violation - r.violation) > 1e-9 { return l.violation < r.violation }
            if abs(l.negPrize - r.negPrize) > 1e-9 { return l.negPrize < r.negPrize }
            return l.cost < r.cost - 1e-9
        }
    }

    /// Scores `mid`, the free nodes in visiting order.
    func score(_ mid: [Int], _ position: inout [Int]) -> Score {
        var t = p.timed ? p.service[p.start] : 0
        var late = 0.0, prize = 0.0
        var prev = p.start
        for (q, x) in mid.enumerated() {
            position[x] = q
            t += p.cost[prev, x]
            if p.timed {
                if t < p.windowOpen[x] { t = p.windowOpen[x] }
                if t > p.windowClose[x] { late += t - p.windowClose[x] }
                t += p.service[x]
            }
            prize += p.prize[x]
            prev = x
        }
        switch p.end {
        case .free: break
        case .roundTrip: t += p.cost[prev, p.start]
        case .node(let e):
            t += p.cost[prev, e]
            if e != p.start && p.timed {
                if t < p.windowOpen[e] { t = p.windowOpen[e] }
                if t > p.windowClose[e] { late += t - p.windowClose[e] }
                t += p.service[e]
            }
        }
        var inversions = 0.0
        for x in mid {
            for y in p.successors[x] where position[y] >= 0 && position[y] < position[x] { inversions += 1 }
        }
        for x in mid { position[x] = -1 }
        var over = 0.0
        if let b = p.budget, t > b { over = t - b }
        return Score(violation: late + 1e6 * inversions + over, negPrize: -prize, cost: t)
    }

    /// Inserts x at its best position in `mid`.
    private func insertBest(_ x: Int, into mid: inout [Int], _ position: inout [Int]) -> Score {
        var best: Score? = nil, bestQ = 0
        for q in 0...mid.count {
            mid.insert(x, at: q)
            let s = score(mid, &position)
            mid.remove(at: q)
            if best == nil || s < best! { best = s; bestQ = q }
        }
        mid.insert(x, at: bestQ)
        return best!
    }

    private func construct(_ nodes: [Int], into mid: inout [Int], _ position: inout [Int]) -> Score {
        var current = score(mid, &position)
        for x in nodes {
            let before = current
            let s = insertBest(x, into: &mid, &position)
            if p.optional[x], before.violation <= 1e-9, s.violation > 1e-9 {
                mid.removeAll { $0 == x }   // an optional stop that breaks feasibility stays out
            } else { current = s }
        }
        return score(mid, &position)
    }

    private func relocate(_ mid: inout [Int], _ current: inout Score, _ position: inout [Int]) {
        var improved = true, passes = 0
        while improved && passes < 50 {
            improved = false; passes += 1
            for x in mid {
                guard let from = mid.firstIndex(of: x) else { continue }
                var targets = Set<Int>()
                for y in neighbours[x] { if let q = mid.firstIndex(of: y) { targets.insert(q); targets.insert(q + 1) } }
                targets.insert(0); targets.insert(mid.count)
                mid.remove(at: from)
                var best = current, bestQ = from
                for q in targets where q <= mid.count && q != from {
                    mid.insert(x, at: q)
                    let s = score(mid, &position)
                    mid.remove(at: q)
                    if s < best { best = s; bestQ = q }
                }
                mid.insert(x, at: bestQ)
                if bestQ != from { current = best; improved = true }
            }
            // Optional stops: drop one if that removes a violation, add one if it stays feasible.
            for x in p.freeNodes where p.optional[x] {
                if let q = mid.firstIndex(of: x) {
                    mid.remove(at: q)
                    let s = score(mid, &position)
                    if s < current { current = s; improved = true } else { mid.insert(x, at: q) }
                } else {
                    var trial = mid
                    let s = insertBest(x, into: &trial, &position)
                    if s < current { mid = trial; current = s; improved = true }
                }
            }
        }
    }

    func run() -> VisitOrder? {
        var rng = SplitMix64(seed: options.seed)
        var position = [Int](repeating: -1, count: n)
        var mid: [Int] = []
        var current = construct(order, into: &mid, &position)
        relocate(&mid, &current, &position)
        var best = mid, bestScore = current
        let clock = ContinuousClock()
        let deadline = options.deadline(from: clock.now)
        var iterations = 0
        while mid.count >= 2 {
            if let maxIt = options.maxIterations, iterations >= maxIt { break }
            if clock.now >= deadline { break }
            iterations += 1
            // Ruin: a random node and a few of its neighbours; recreate by cheapest insertion.
            var trial = mid
            let seed = trial[rng.below(trial.count)]
            var removed = [seed]
            for y in neighbours[seed] where removed.count < 2 + rng.below(6) { if trial.contains(y) { removed.append(y) } }
            trial.removeAll { removed.contains($0) }
            var reinsert = removed.sorted { order.firstIndex(of: $0)! < order.firstIndex(of: $1)! }
            for x in p.freeNodes where p.optional[x] && !mid.contains(x) && rng.below(4) == 0 { reinsert.append(x) }
            var s = construct(reinsert, into: &trial, &position)
            if s < current || !(current < s) { relocate(&trial, &s, &position) }
            if !(current < s) {
                mid = trial; current = s
                if s < bestScore { best = trial; bestScore = s }
            }
        }
        guard bestScore.violation <= 1e-9 else { return nil }
        var route = [p.start] + best
        if let e = p.fixedEnd { route.append(e) }
        return VisitOrder(order: route, cost: bestScore.cost, solver: .iteratedLocalSearch, iterations: iterations)
    }
}
