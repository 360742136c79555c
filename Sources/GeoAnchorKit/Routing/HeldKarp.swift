import Foundation

/// Exact solver: Held–Karp dynamic programming over subsets of the free nodes
/// (Held & Karp 1962, "A dynamic programming approach to sequencing problems", J. SIAM 10(1)).
///
/// `best[S][j]` is the least objective of a path that leaves the start, visits exactly the set
/// `S` of free nodes and ends at `j ∈ S`. O(2ⁿ·n²) time, O(2ⁿ·n) memory for n free nodes.
///
/// Side constraints stay exact:
/// - precedence: `x` may join `S` only if none of its required successors is already in `S`;
/// - time windows (objective = time): the value is the earliest departure, which dominates
///   later ones because waiting is allowed, so the recursion remains exact;
/// - prize-collecting: every subset's optimum is available, so the best subset within the
///   budget (most prize, then least cost) is chosen among all that contain the mandatory nodes.
enum HeldKarp {
    /// The optimal solution, or nil when no order satisfies the constraints.
    static func solve(_ p: VisitOrderInstance) -> VisitOrder? {
        let free = p.freeNodes
        let k = free.count
        precondition(k <= 20, "Held–Karp on \(k) free nodes")
        let n = p.count
        let start = p.start
        let fixedEnd = p.fixedEnd
        let timed = p.timed
        let c = p.cost.values

        var index = [Int](repeating: -1, count: n)
        for (a, x) in free.enumerated() { index[x] = a }
        var succMask = [Int](repeating: 0, count: k)
        var mandatoryMask = 0
        for (a, x) in free.enumerated() {
            for y in p.successors[x] where index[y] >= 0 { succMask[a] |= 1 << index[y] }
            if !p.optional[x] { mandatoryMask |= 1 << a }
        }
        // A successor that is the start, or a predecessor that is the fixed end, is impossible.
        for x in 0..<n where x != start && p.successors[x].contains(start) { return nil }
        if let e = fixedEnd, !p.successors[e].isEmpty { return nil }

        let t0 = timed ? p.service[start] : 0
        // Closing cost of a path ending at node x with value v (nil: infeasible).
        @inline(__always) func close(_ v: Double, _ x: Int) -> Double? {
            switch p.end {
            case .free: return v
            case .roundTrip: return v + c[x * n + start]
            case .node(let e):
                if e == start { return v + c[x * n + start] }
                var t = v + c[x * n + e]
                if timed {
                    if t < p.windowOpen[e] { t = p.windowOpen[e] }
                    if t > p.windowClose[e] { return nil }
                    t += p.service[e]
                }
                return t
            }
        }

        if k == 0 {
            guard let total = close(t0, start) else { return nil }
            if let b = p.budget, total > b { return nil }
            var order = [start]
            if let e = fixedEnd { order.append(e) }
            return VisitOrder(order: order, cost: total, solver: .exact, iterations: 0)
        }

        let states = (1 << k) * k
        var best = [Double](repeating: .infinity, count: states)
        var parent = [UInt8](repeating: 255, count: states)
        let service = free.map { timed ? p.service[$0] : 0 }
        let open = free.map { timed ? p.windowOpen[$0] : 0 }
        let closeAt = free.map { timed ? p.windowClose[$0] : .infinity }
        // Local cost matrix between free nodes, transposed (`into[x * k + j]` = cost j → x) so
        // that the "pull" recursion below reads contiguous memory.
        var into = [Double](repeating: 0, count: k * k)
        for a in 0..<k { for b in 0..<k { into[b * k + a] = c[free[a] * n + free[b]] } }

        best.withUnsafeMutableBufferPointer { best in
            parent.withUnsafeMutableBufferPointer { parent in
                into.withUnsafeBufferPointer { into in
                    for a in 0..<k {
                        var t = t0 + c[start * n + free[a]]
                        if t < open[a] { t = open[a] }
                        if t <= closeAt[a] { best[(1 << a) * k + a] = t + service[a] }
                    }
                    // Pull: best[S][x] = min over j ∈ S∖{x} of best[S∖{x}][j] + c(j, x), for x allowed
                    // after S∖{x} (none of its required successors already visited).
                    for mask in 1..<(1 << k) where mask & (mask - 1) != 0 {
                        var xs = mask
                        while xs != 0 {
                            let x = xs.trailingZeroBitCount
                            xs &= xs - 1
                            let prev = mask ^ (1 << x)
                            if succMask[x] & prev != 0 { continue }
                            let pbase = prev * k, col = x * k
                            var bestV = Double.infinity, bestJ = 255
                            var js = prev
                            while js != 0 {
                                let j = js.trailingZeroBitCount
                                js &= js - 1
                                let v = best[pbase + j] + into[col + j]
                                if v < bestV { bestV = v; bestJ = j }
                            }
                            // Windows: the earliest arrival gives the earliest departure (waiting
                            // is allowed), so the minimum above stays exact.
                            if timed && bestV < .infinity {
                                if bestV < open[x] { bestV = open[x] }
                                if bestV > closeAt[x] { bestV = .infinity; bestJ = 255 } else { bestV += service[x] }
                            }
                            best[mask * k + x] = bestV
                            parent[mask * k + x] = UInt8(truncatingIfNeeded: bestJ)
                        }
                    }
                }
            }
        }

        // Choose the final subset and last node.
        let hasOptional = mandatoryMask != (1 << k) - 1
        var bestMask = -1, bestLast = -1
        var bestPrize = -Double.infinity, bestTotal = Double.infinity
        var prizeOf = [Double](repeating: 0, count: k)
        for a in 0..<k { prizeOf[a] = p.prize[free[a]] }
        let masks: [Int] = hasOptional ? Array(1..<(1 << k)) : [(1 << k) - 1]
        for mask in masks where mask & mandatoryMask == mandatoryMask {
            var prize = 0.0
            if hasOptional { var m = mask; while m != 0 { prize += prizeOf[m.trailingZeroBitCount]; m &= m - 1 } }
            for j in 0..<k where mask & (1 << j) != 0 {
                let v = best[mask * k + j]
                if v == .infinity { continue }
                guard let total = close(v, free[j]) else { continue }
                if let b = p.budget, total > b { continue }
                if prize > bestPrize + 1e-9 || (abs(prize - bestPrize) <= 1e-9 && total < bestTotal) {
                    bestPrize = prize; bestTotal = total; bestMask = mask; bestLast = j
                }
            }
        }
        // Visiting no free node at all (all optional).
        if mandatoryMask == 0, let total = close(t0, start), p.budget.map({ total <= $0 }) ?? true,
           bestMask < 0 || (bestPrize <= 1e-9 && total < bestTotal) {
            var order = [start]
            if let e = fixedEnd { order.append(e) }
            return VisitOrder(order: order, cost: total, solver: .exact, iterations: 0)
        }
        guard bestMask >= 0 else { return nil }

        var seq: [Int] = []
        var mask = bestMask, j = bestLast
        while j != 255 && mask != 0 {
            seq.append(free[j])
            let pj = Int(parent[mask * k + j])
            mask &= ~(1 << j)
            j = pj
        }
        var order = [start] + seq.reversed()
        if let e = fixedEnd { order.append(e) }
        return VisitOrder(order: order, cost: bestTotal, solver: .exact, iterations: 0)
    }
}
