import Foundation
@testable import GeoAnchorKit

/// Independent reference for the solver tests: enumerates every order (and, for optional
/// stops, every subset) of a small instance and simulates it directly.
enum BruteForce {
    /// Best (most prize, then least objective) feasible order of `p`, or nil if none.
    static func solve(_ p: VisitOrderInstance) -> (order: [Int], cost: Double, prize: Double)? {
        let free = p.freeNodes
        var best: (order: [Int], cost: Double, prize: Double)? = nil
        let subsets = 1 << free.count
        for mask in 0..<subsets {
            let chosen = free.indices.filter { mask & (1 << $0) != 0 }.map { free[$0] }
            if free.contains(where: { !p.optional[$0] && !chosen.contains($0) }) { continue }
            let prize = chosen.reduce(0.0) { $0 + p.prize[$1] }
            permutations(chosen) { perm in
                var order = [p.start] + perm
                if let e = p.fixedEnd { order.append(e) }
                guard let c = simulate(p, order) else { return }
                if let b = best {
                    if prize > b.prize + 1e-9 || (abs(prize - b.prize) <= 1e-9 && c < b.cost - 1e-9) { best = (order, c, prize) }
                } else { best = (order, c, prize) }
            }
        }
        return best
    }

    /// Objective of `order`, or nil when a window, a precedence or the budget is violated.
    static func simulate(_ p: VisitOrderInstance, _ order: [Int]) -> Double? {
        if p.successors.contains(where: { !$0.isEmpty }) {
            var position = [Int](repeating: -1, count: p.count)
            for (k, x) in order.enumerated() { position[x] = k }
            for x in order { for y in p.successors[x] where position[y] >= 0 && position[y] < position[x] { return nil } }
        }
        var t = p.timed ? p.service[p.start] : 0
        for k in 1..<max(1, order.count) {
            let x = order[k]
            t += p.cost[order[k - 1], x]
            if p.timed {
                t = max(t, p.windowOpen[x])
                if t > p.windowClose[x] { return nil }
                t += p.service[x]
            }
        }
        if case .roundTrip = p.end { t += p.cost[order.last!, p.start] }
        if case .node(let e) = p.end, e == p.start { t += p.cost[order.last!, p.start] }
        if let b = p.budget, t > b + 1e-9 { return nil }
        return t
    }

    static func permutations(_ a: [Int], _ body: ([Int]) -> Void) {
        var a = a
        func rec(_ k: Int) {
            if k == a.count { body(a); return }
            for i in k..<a.count {
                a.swapAt(k, i); rec(k + 1); a.swapAt(k, i)
            }
        }
        rec(0)
    }

    /// Random points in a square of `size` meters (ENU plane), as a Euclidean matrix.
    static func euclidean(_ n: Int, seed: UInt64, size: Double = 1000) -> CostMatrix {
        var rng = SplitMix64(seed: seed)
        let pts = (0..<n).map { _ in (Double(rng.next() % 1_000_000) / 1e6 * size, Double(rng.next() % 1_000_000) / 1e6 * size) }
        return CostMatrix(count: n) { i, j in ((pts[i].0 - pts[j].0) * (pts[i].0 - pts[j].0) + (pts[i].1 - pts[j].1) * (pts[i].1 - pts[j].1)).squareRoot() }
    }

    /// Walking times (s) between random points with random heights (0–60 m) by Tobler's
    /// function: mildly asymmetric, like real hillside tours.
    static func tobler(_ n: Int, seed: UInt64, size: Double = 1000) -> CostMatrix {
        var rng = SplitMix64(seed: seed)
        let pts = (0..<n).map { _ in (Double(rng.next() % 1_000_000) / 1e6 * size, Double(rng.next() % 1_000_000) / 1e6 * size, Double(rng.next() % 60_000) / 1000) }
        return CostMatrix(count: n) { i, j in
            let d = ((pts[i].0 - pts[j].0) * (pts[i].0 - pts[j].0) + (pts[i].1 - pts[j].1) * (pts[i].1 - pts[j].1)).squareRoot()
            return WalkingModel.tobler.duration(horizontalDistance: d, heightChange: pts[j].2 - pts[i].2)
        }
    }

    /// Random asymmetric matrix with entries in [1, 100).
    static func asymmetric(_ n: Int, seed: UInt64) -> CostMatrix {
        var rng = SplitMix64(seed: seed)
        return CostMatrix(count: n) { _, _ in 1 + Double(rng.next() % 99_000) / 1000 }
    }
}
