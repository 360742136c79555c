import Foundation

/// Tour ordering for many stops without an n × n matrix: memory linear in the stops, distances
/// computed on demand, and the whole run (candidate lists included) inside the time limit.
///
/// - Candidate lists: the `k` = 8 geodesically nearest stops of every stop (``SpatialIndex``).
/// - Start: the stops in Hilbert-curve order of their (longitude·cos φ₀, latitude) position
///   (Platzman & Bartholdi 1989: ≈ 25 % above the optimum on uniform points), start node first.
/// - Improvement: 2-opt restricted to candidate edges, with a queue of nodes whose tour
///   neighbours changed ("don't-look bits", Bentley 1992), until no candidate move improves or
///   the deadline passes. The result is a 2-opt local optimum over the candidate graph (typically
///   ≈ 5 % above the optimal tour) when time allows; it is never worse than the start order.
///
/// Costs must be symmetric (the geodesic distance): a reversed segment keeps its internal cost.
enum SparseTourSolver {
    /// Nearest stops kept per stop.
    static let candidates = 8

    /// Orders nodes `0..<count`. `start` is first; `end`: `.free` (any last node), `.roundTrip`
    /// (closed tour back to the start) or `.node(e)` (e last).
    /// - Returns: the order (start first; the end node last when fixed) and the number of
    ///   improving moves.
    static func order(coordinates: [GeodeticCoordinate], start: Int, end: VisitOrderEnd,
                      cost: (Int, Int) -> Double, deadline: ContinuousClock.Instant) throws(RoutingError) -> (order: [Int], moves: Int) {
        let n = coordinates.count
        let clock = ContinuousClock()
        // Initial order: Hilbert curve over an equirectangular projection.
        let lat0 = coordinates.map(\.latitude).sorted()[n / 2]
        let k = Foundation.cos(lat0 * Double.pi / 180)
        let xs = coordinates.map { $0.longitude * k }, ys = coordinates.map(\.latitude)
        let x0: Double = xs.min()!, x1: Double = xs.max()!, y0: Double = ys.min()!, y1: Double = ys.max()!
        let span: Double = Swift.max(Swift.max(x1 - x0, y1 - y0), 1e-12)
        func q(_ v: Double, _ lo: Double) -> Int { Swift.min(65_535, Swift.max(0, Int(((v - lo) / span * 65_535).rounded()))) }
        var keys = [(UInt64, Int32)]()
        keys.reserveCapacity(n)
        var fixedEnd: Int? = nil
        if case .node(let e) = end, e != start { fixedEnd = e }
        for i in 0..<n where i != start && i != fixedEnd {
            keys.append((hilbert(q(xs[i], x0), q(ys[i], y0)), Int32(i)))
        }
        keys.sort { $0.0 < $1.0 }
        var t = [Int32](repeating: 0, count: 0)
        t.reserveCapacity(n)
        t.append(Int32(start))
        t.append(contentsOf: keys.map(\.1))
        if let fixedEnd { t.append(Int32(fixedEnd)) }
        keys = []
        let m = t.count
        guard m >= 4, clock.now < deadline else { return (t.map(Int.init), 0) }

        // Candidate lists (geodesic k nearest).
        let index: SpatialIndex
        do { index = try SpatialIndex(points: coordinates.enumerated().map { ($0.offset, $0.element.latitude, $0.element.longitude) }) } catch {
            throw .invalidCostMatrix("cannot index the stops: \(error)")
        }
        let kk = Swift.min(candidates, n - 1)
        var nb = [Int32](repeating: -1, count: n * kk)
        for i in 0..<n {
            if i & 255 == 0, clock.now >= deadline { return (t.map(Int.init), 0) }
            guard let near = try? index.nearest(latitude: coordinates[i].latitude, longitude: coordinates[i].longitude, k: kk + 1) else { continue }
            var c = 0
            for p in near where p.id != i && c < kk { nb[i * kk + c] = Int32(p.id); c += 1 }
        }

        var pos = [Int32](repeating: 0, count: n)
        for (p, v) in t.enumerated() { pos[Int(v)] = Int32(p) }
        let closed: Bool = { if case .roundTrip = end { return true } else { return false } }()
        let openEnd: Bool = { if case .free = end { return true } else { return false } }()
        // Next node after position p (nil past the end of an open path).
        func next(_ p: Int) -> Int? { p + 1 < m ? Int(t[p + 1]) : (closed ? Int(t[0]) : nil) }
        func reverse(_ i: Int, _ j: Int) {
            var a = i, b = j
            while a < b { t.swapAt(a, b); pos[Int(t[a])] = Int32(a); pos[Int(t[b])] = Int32(b); a += 1; b -= 1 }
            if a == b { pos[Int(t[a])] = Int32(a) }
        }
        var queue = Array(t.map(Int.init)), queued = [Bool](repeating: true, count: n)
        var head = 0, moves = 0, evaluations = 0
        var gained = 0.0 // length removed by the local search since the last reset
        let eps = 1e-9
        /// 2-opt over the queued nodes until the queue is empty (true) or the deadline passes (false).
        func localSearch() -> Bool {
        while head < queue.count {
            let a = queue[head]; head += 1; queued[a] = false
            if head > 4 * n { queue.removeFirst(head); head = 0 }
            var improved = false
            var touched: [Int] = []
            let p = Int(pos[a])
            for c in 0..<kk {
                let cn = Int(nb[a * kk + c]); if cn < 0 { break }
                evaluations += 1
                if evaluations & 255 == 0, clock.now >= deadline { return false }
                let qc = Int(pos[cn])
                if qc == p { continue }
                let dac = cost(a, cn)
                // Successor side: remove (a, a⁺) and (c, c⁺), add (a, c) and (a⁺, c⁺).
                if let an = next(p) {
                    let dan = cost(a, an)
                    if dac < dan - eps {
                        let cnext = next(qc) // nil only for the last node of an open path
                        // A fixed last node must stay last; a free end may become a⁺'s.
                        if cnext != nil || openEnd {
                            let gain = dan + (cnext.map { cost(cn, $0) } ?? 0) - dac - (cnext.map { cost(an, $0) } ?? 0)
                            if gain > eps {
                                touched = [an, cn] + (cnext.map { [$0] } ?? [])
                                if qc > p { reverse(p + 1, qc) } else { reverse(qc + 1, p) }
                                moves += 1; gained += gain; improved = true; break
                            }
                        }
                    }
                }
                // Predecessor side: remove (a⁻, a) and (c⁻, c), add (a⁻, c⁻) and (a, c).
                if p >= 1, qc >= 1 {
                    let ap = Int(t[p - 1]), cp = Int(t[qc - 1])
                    let dap = cost(ap, a)
                    if dac < dap - eps {
                        let gain = cost(cp, cn) + dap - cost(cp, ap) - dac
                        if gain > eps {
                            touched = [ap, cp, cn]
                            if qc < p { reverse(qc, p - 1) } else { reverse(p, qc - 1) }
                            moves += 1; gained += gain; improved = true; break
                        }
                    }
                }
            }
            if improved {
                // Re-examine the ends of the changed edges (a first: it may improve again).
                for v in [a] + touched where !queued[v] { queued[v] = true; queue.append(v) }
            }
        }
        queue.removeAll(keepingCapacity: true); head = 0
        return true
        }
        guard localSearch() else { return (t.map(Int.init), moves) }

        // Iterated local search (Lourenço, Martin & Stützle 2003) until the deadline: a random
        // segment exchange within a window of 50 positions (a "double bridge" kept local, so the
        // kick costs O(window)), 2-opt from its six endpoints, kept when shorter, undone otherwise.
        var rng = SplitMix64(seed: 0x15)
        var saved = t // the accepted tour (t == saved between kicks)
        let maxP3 = openEnd ? m : m - 1 // t[p3] must exist unless the end is free
        while maxP3 - 2 >= 1, clock.now < deadline {
            let p1 = 1 + rng.below(maxP3 - 2)
            let p2 = p1 + 1 + rng.below(Swift.min(50, maxP3 - 1 - p1))
            let p3 = p2 + 1 + rng.below(Swift.min(50, maxP3 - p2))
            let e: Int? = p3 < m ? Int(t[p3]) : nil
            let a0 = Int(t[p1 - 1]), a1 = Int(t[p1]), b0 = Int(t[p2 - 1]), b1 = Int(t[p2]), c0 = Int(t[p3 - 1])
            // … a0 [a1 … b0] [b1 … c0] e …  →  … a0 [b1 … c0] [a1 … b0] e …
            let delta = cost(a0, b1) + cost(c0, a1) + (e.map { cost(b0, $0) - cost(c0, $0) } ?? 0)
                - cost(a0, a1) - cost(b0, b1)
            let first = Array(t[p1..<p2]), second = Array(t[p2..<p3])
            t.replaceSubrange(p1..<p3, with: second + first)
            for i in p1..<p3 { pos[Int(t[i])] = Int32(i) }
            gained = 0
            for v in [a0, a1, b0, b1, c0] + (e.map { [$0] } ?? []) where !queued[v] { queued[v] = true; queue.append(v) }
            let finished = localSearch()
            if delta - gained < -eps {
                saved = t // shorter: keep
            } else {
                t = saved // not shorter: undo the kick and its repairs
                for i in 0..<m { pos[Int(t[i])] = Int32(i) }
                for v in queue { queued[v] = false }
                queue.removeAll(keepingCapacity: true); head = 0
            }
            if !finished { break }
        }
        return (t.map(Int.init), moves)
    }

    /// Position of (x, y) ∈ [0, 65535]² along a Hilbert curve of order 16.
    static func hilbert(_ x0: Int, _ y0: Int) -> UInt64 {
        var x = x0, y = y0, d: UInt64 = 0
        var s = 1 << 15
        while s > 0 {
            let rx = (x & s) > 0 ? 1 : 0, ry = (y & s) > 0 ? 1 : 0
            d += UInt64(s) * UInt64(s) * UInt64((3 * rx) ^ ry)
            if ry == 0 {
                if rx == 1 { x = 65_535 - x; y = 65_535 - y }
                swap(&x, &y)
            }
            s >>= 1
        }
        return d
    }
}
