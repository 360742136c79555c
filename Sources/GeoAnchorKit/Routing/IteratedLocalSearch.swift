import Foundation

/// Heuristic path/tour solver for problems too large for Held–Karp.
///
/// The path is an array `t[0…m]` with the start fixed at position 0 and the end fixed at
/// position `m` (the start again for a round trip, the fixed end, or a zero-cost dummy node
/// for a free end), so every move works on the interior positions 1…m−1 only.
///
/// - Construction: nearest neighbour from the start.
/// - Local search, driven by a queue of "active" nodes (don't-look bits, Bentley 1992) and
///   K = 10 nearest-neighbour candidate lists:
///   2-opt (segment reversal), Or-opt (move a segment of 1–3 nodes, either orientation;
///   Or 1976) and or-3opt: the four pure 3-opt reconnections of two adjacent segments of any
///   length (exchange, and exchange with either or both segments reversed), searched with the
///   Lin–Kernighan gain criterion on symmetric matrices.
/// - Iterated local search (Lourenço, Martin & Stützle 2003): a random kick (a pure 3-opt
///   reconnection of two adjacent segments of ≤ 30 nodes, one kick in 20 up to a third of the
///   path: the double bridge or one of its reversed forms), local search from the kicked
///   nodes, accept if not worse (and one worse result after 10,000 kicks without a new best);
///   the best path seen is returned.
///
/// Asymmetric matrices are exact: reversals are priced with prefix sums of forward and
/// backward leg costs.
final class IteratedLocalSearch {
    private let n: Int
    private let m: Int
    private let c: UnsafeMutablePointer<Double>
    private let symmetric: Bool
    private let t: UnsafeMutablePointer<Int32>
    private let saved: UnsafeMutablePointer<Int32>
    private let bestT: UnsafeMutablePointer<Int32>
    private let pos: UnsafeMutablePointer<Int32>
    private let pf: UnsafeMutablePointer<Double>
    private let pb: UnsafeMutablePointer<Double>
    private let scratch: UnsafeMutablePointer<Int32>
    private let neighbours: UnsafeMutablePointer<Int32>
    private let k: Int
    private let queue: UnsafeMutablePointer<Int32>
    private let queued: UnsafeMutablePointer<Bool>
    private var head = 0, tail = 0, queueCount = 0
    private var cost = 0.0
    /// Range of positions changed since the last accept/reject (for cheap restores).
    private var touchedLo = Int.max, touchedHi = 0
    private let eps: Double
    private let options: SolverConfiguration
    private var rng: SplitMix64
    private let start: Int, endNode: Int, dummy: Int?, roundTrip: Bool
    private let originalCount: Int

    @_optimize(speed)
    init(cost matrix: CostMatrix, start: Int, end: VisitOrderEnd, options: SolverConfiguration) {
        originalCount = matrix.count
        let free: Bool
        if case .free = end { free = true } else { free = false }
        n = matrix.count + (free ? 1 : 0)
        c = .allocate(capacity: n * n)
        for i in 0..<matrix.count {
            for j in 0..<matrix.count { c[i * n + j] = i == j ? 0 : matrix[i, j] }
        }
        if free {
            for i in 0..<n { c[i * n + n - 1] = 0; c[(n - 1) * n + i] = 0 }
            dummy = n - 1
        } else { dummy = nil }
        self.start = start
        switch end {
        case .free: endNode = n - 1; roundTrip = false
        case .roundTrip: endNode = start; roundTrip = true
        case .node(let e): endNode = e; roundTrip = e == start
        }
        symmetric = matrix.isSymmetric
        var interior: [Int] = []
        for x in 0..<n where x != start && x != endNode { interior.append(x) }
        m = interior.count + 1
        t = .allocate(capacity: m + 1)
        saved = .allocate(capacity: m + 1)
        bestT = .allocate(capacity: m + 1)
        scratch = .allocate(capacity: m + 1)
        pos = .allocate(capacity: n)
        pos.initialize(repeating: -1, count: n)
        pf = .allocate(capacity: m + 1)
        pb = .allocate(capacity: m + 1)
        queue = .allocate(capacity: n)
        queued = .allocate(capacity: n)
        queued.initialize(repeating: false, count: n)
        self.options = options
        rng = SplitMix64(seed: options.seed)
        var maxEdge = 0.0
        for i in 0..<(n * n) where c[i].isFinite { maxEdge = max(maxEdge, c[i]) }
        eps = max(1e-9, maxEdge * 1e-12)

        // Candidate lists: the K nearest interior nodes of every node (by d(a,b)+d(b,a)).
        k = min(10, max(1, interior.count - 1))
        neighbours = .allocate(capacity: n * k)
        neighbours.initialize(repeating: -1, count: n * k)
        var cand: [(Double, Int32)] = []
        cand.reserveCapacity(interior.count)
        for a in 0..<n where a != dummy {
            cand.removeAll(keepingCapacity: true)
            for b in interior where b != a && b != dummy { cand.append((c[a * n + b] + c[b * n + a], Int32(b))) }
            let kk = min(k, cand.count)
            if kk == 0 { continue }
            // The kk smallest (by cost, then index), kept sorted by insertion: O(n·k), k ≤ 10,
            // instead of sorting all n candidates.
            var best: [(Double, Int32)] = []
            best.reserveCapacity(kk + 1)
            for e in cand {
                if best.count == kk, let w = best.last, !(e.0 < w.0 || (e.0 == w.0 && e.1 < w.1)) { continue }
                var i = best.count
                while i > 0, e.0 < best[i - 1].0 || (e.0 == best[i - 1].0 && e.1 < best[i - 1].1) { i -= 1 }
                best.insert(e, at: i)
                if best.count > kk { best.removeLast() }
            }
            for q in 0..<kk { neighbours[a * k + q] = best[q].1 }
        }

        // Nearest-neighbour construction.
        t[0] = Int32(start)
        var used = [Bool](repeating: false, count: n)
        used[start] = true; used[endNode] = true
        if let dummy { used[dummy] = true }
        var last = start
        for p in 1..<m {
            var bestX = -1, bestD = Double.infinity
            for x in interior where !used[x] {
                let d = c[last * n + x]
                if d < bestD || bestX < 0 { bestD = d; bestX = x }
            }
            used[bestX] = true
            t[p] = Int32(bestX)
            last = bestX
        }
        t[m] = Int32(endNode)
        rebuild()
    }

    deinit {
        c.deallocate(); t.deallocate(); saved.deallocate(); bestT.deallocate(); scratch.deallocate(); pos.deallocate()
        pf.deallocate(); pb.deallocate(); neighbours.deallocate(); queue.deallocate(); queued.deallocate()
    }

    @_optimize(speed) @inline(__always) private func d(_ a: Int32, _ b: Int32) -> Double { c[Int(a) * n + Int(b)] }

    /// Recomputes positions, prefix sums and the cost from `t`.
    @_optimize(speed) private func rebuild() {
        for p in 1..<m { pos[Int(t[p])] = Int32(p) }
        updatePrefix(from: 0)
        cost = pf[m]
    }

    @_optimize(speed) private func updatePrefix(from p0: Int) {
        var p = max(0, p0)
        if p == 0 { pf[0] = 0; pb[0] = 0 }
        var f = pf[p], b = pb[p]
        while p < m {
            f += d(t[p], t[p + 1])
            if !symmetric { b += d(t[p + 1], t[p]) }
            p += 1
            pf[p] = f; pb[p] = b
        }
    }

    /// Extra cost of traversing positions i…j backwards instead of forwards.
    @_optimize(speed) @inline(__always) private func rev(_ i: Int, _ j: Int) -> Double {
        symmetric ? 0 : (pb[j] - pb[i]) - (pf[j] - pf[i])
    }

    // MARK: Moves

    /// Reverse positions i…j (1 ≤ i < j ≤ m−1).
    @_optimize(speed) @inline(__always) private func delta2opt(_ i: Int, _ j: Int) -> Double {
        d(t[i - 1], t[j]) + d(t[i], t[j + 1]) - d(t[i - 1], t[i]) - d(t[j], t[j + 1]) + rev(i, j)
    }

    @_optimize(speed) private func apply2opt(_ i: Int, _ j: Int) {
        push(t[i - 1]); push(t[i]); push(t[j]); push(t[j + 1])
        touchedLo = min(touchedLo, i); touchedHi = max(touchedHi, j)
        var a = i, b = j
        while a < b {
            let x = t[a]; t[a] = t[b]; t[b] = x
            pos[Int(t[a])] = Int32(a); pos[Int(t[b])] = Int32(b)
            a += 1; b -= 1
        }
        if a == b { pos[Int(t[a])] = Int32(a) }
        if !symmetric { updatePrefix(from: i - 1) }
    }

    /// Exchange A = t[i…j−1] and B = t[j…k] (1 ≤ i < j ≤ k ≤ m−1): … B A …
    @_optimize(speed) @inline(__always) private func deltaExchange(_ i: Int, _ j: Int, _ kk: Int) -> Double {
        d(t[i - 1], t[j]) + d(t[kk], t[i]) + d(t[j - 1], t[kk + 1])
            - d(t[i - 1], t[i]) - d(t[j - 1], t[j]) - d(t[kk], t[kk + 1])
    }

    @_optimize(speed) private func applyExchange(_ i: Int, _ j: Int, _ kk: Int) {
        push(t[i - 1]); push(t[i]); push(t[j - 1]); push(t[j]); push(t[kk]); push(t[kk + 1])
        let lenA = j - i, lenB = kk - j + 1
        touchedLo = min(touchedLo, i); touchedHi = max(touchedHi, kk)
        for q in 0..<lenA { scratch[q] = t[i + q] }
        for q in 0..<lenB { t[i + q] = t[j + q] }
        for q in 0..<lenA { t[i + lenB + q] = scratch[q] }
        for p in i...kk { pos[Int(t[p])] = Int32(p) }
        if !symmetric { updatePrefix(from: i - 1) }
    }

    /// Pure 3-opt reconnections of A = t[i…j−1], B = t[j…k] (1 ≤ i < j ≤ k ≤ m−1):
    /// variant 1: B rev(A); 2: rev(B) A; 3: rev(A) rev(B). (Variant 0, B A, is ``deltaExchange``.)
    @_optimize(speed) @inline(__always) private func delta3opt(_ i: Int, _ j: Int, _ kk: Int, _ variant: Int) -> Double {
        let prev = t[i - 1], a1 = t[i], a2 = t[j - 1], b1 = t[j], b2 = t[kk], next = t[kk + 1]
        let removed = d(prev, a1) + d(a2, b1) + d(b2, next)
        switch variant {
        case 1: return d(prev, b1) + d(b2, a2) + d(a1, next) + rev(i, j - 1) - removed
        case 2: return d(prev, b2) + d(b1, a1) + d(a2, next) + rev(j, kk) - removed
        default: return d(prev, a2) + d(a1, b2) + d(b1, next) + rev(i, j - 1) + rev(j, kk) - removed
        }
    }

    @_optimize(speed) private func apply3opt(_ i: Int, _ j: Int, _ kk: Int, _ variant: Int) {
        let lenB = kk - j + 1
        switch variant {
        case 1:
            applyExchange(i, j, kk)
            if kk > i + lenB { apply2opt(i + lenB, kk) }
        case 2:
            applyExchange(i, j, kk)
            if lenB > 1 { apply2opt(i, i + lenB - 1) }
        default:
            if j - 1 > i { apply2opt(i, j - 1) } else { push(t[i - 1]); push(t[i]) }
            if kk > j { apply2opt(j, kk) } else { push(t[j]); push(t[kk + 1]) }
        }
    }

    /// Move segment t[i…i+L−1] reversed into the edge (t[q], t[q+1]), q ∉ [i−1, i+L−1].
    @_optimize(speed) @inline(__always) private func deltaOrReversed(_ i: Int, _ len: Int, _ q: Int) -> Double {
        let e = i + len - 1
        let base = d(t[i - 1], t[e + 1]) - d(t[i - 1], t[i]) - d(t[e], t[e + 1]) - d(t[q], t[q + 1]) + rev(i, e)
        return base + d(t[q], t[e]) + d(t[i], t[q + 1])
    }

    @_optimize(speed) private func applyOrReversed(_ i: Int, _ len: Int, _ q: Int) {
        if q >= i + len {
            applyExchange(i, i + len, q)
            apply2opt(q - len + 1, q)
        } else {
            applyExchange(q + 1, i, i + len - 1)
            apply2opt(q + 1, q + len)
        }
    }

    /// Segment move without reversal expressed as an exchange; returns (delta, i, j, k).
    @_optimize(speed) @inline(__always) private func orForward(_ i: Int, _ len: Int, _ q: Int) -> (Double, Int, Int, Int) {
        if q >= i + len { return (deltaExchange(i, i + len, q), i, i + len, q) }
        return (deltaExchange(q + 1, i, i + len - 1), q + 1, i, i + len - 1)
    }

    // MARK: Local search

    @_optimize(speed) @inline(__always) private func push(_ x: Int32) {
        let xi = Int(x)
        if xi == start || xi == endNode || (dummy != nil && xi == dummy!) || queued[xi] { return }
        queued[xi] = true
        queue[tail] = x
        tail = tail + 1 == n ? 0 : tail + 1
        queueCount += 1
    }

    @_optimize(speed) private func pop() -> Int32 {
        let x = queue[head]
        head = head + 1 == n ? 0 : head + 1
        queueCount -= 1
        queued[Int(x)] = false
        return x
    }

    private enum Move { case none, twoOpt(Int, Int), exchange(Int, Int, Int), orReversed(Int, Int, Int), threeOpt(Int, Int, Int, Int) }

    /// Tries every move driven by node `a`; applies the best improving one.
    @_optimize(speed) private func improve(_ a: Int32) -> Bool {
        let p = Int(pos[Int(a)])
        var best = -eps
        var move = Move.none
        let nb = neighbours + Int(a) * k
        let succ = t[p + 1], pred = t[p - 1]
        let g2 = max(d(a, succ), d(pred, a))

        // 2-opt.
        for q0 in 0..<(k + 2) {
            let q: Int
            if q0 < k {
                let cn = nb[q0]
                if cn < 0 { break }
                if symmetric && d(a, cn) >= g2 { break }
                q = Int(pos[Int(cn)])
            } else { q = q0 == k ? 0 : m }
            if q > p {
                if q - 1 > p { let v = delta2opt(p, q - 1); if v < best { best = v; move = .twoOpt(p, q - 1) } }
                if q > p + 1 && q <= m - 1 { let v = delta2opt(p + 1, q); if v < best { best = v; move = .twoOpt(p + 1, q) } }
            } else if q < p {
                if q + 1 < p { let v = delta2opt(q + 1, p); if v < best { best = v; move = .twoOpt(q + 1, p) } }
                if q < p - 1 && q >= 1 { let v = delta2opt(q, p - 1); if v < best { best = v; move = .twoOpt(q, p - 1) } }
            }
        }

        // Or-opt: segments of 1–3 nodes with `a` at either end.
        for len in 1...3 {
            for side in 0..<(len == 1 ? 1 : 2) {
                let i = side == 0 ? p : p - len + 1
                let e = i + len - 1
                if i < 1 || e > m - 1 { continue }
                let s = t[i], se = t[e]
                let gain = d(t[i - 1], s) + d(se, t[e + 1]) - d(t[i - 1], t[e + 1])
                if gain <= eps { continue }
                for end in 0..<2 {
                    let nbs = neighbours + Int(end == 0 ? s : se) * k
                    for q0 in 0..<(k + 2) {
                        let q: Int
                        if q0 < k {
                            let cn = nbs[q0]
                            if cn < 0 { break }
                            if symmetric && d(end == 0 ? s : se, cn) >= gain { break }
                            q = Int(pos[Int(cn)])
                        } else { q = q0 == k ? 0 : m }
                        for qq in (q - 1)...q where qq >= 0 && qq <= m - 1 && (qq < i - 1 || qq > e) {
                            let f = orForward(i, len, qq)
                            if f.0 < best { best = f.0; move = .exchange(f.1, f.2, f.3) }
                            if len > 1 {
                                let v = deltaOrReversed(i, len, qq)
                                if v < best { best = v; move = .orReversed(i, len, qq) }
                            }
                        }
                    }
                }
            }
        }

        // 3-opt segment moves driven by a = t[i−1] (first new edge leaves a). Symmetric
        // instances use the Lin–Kernighan gain criterion: each partial gain must stay positive,
        // and candidate lists are sorted, so loops stop at the first failure.
        if p + 1 <= m - 1 {
            let i = p + 1
            let a1 = t[i]
            let removed1 = d(a, a1)
            let nbi = neighbours + Int(a1) * k
            for q0 in 0..<k {
                let cn = nb[q0]
                if cn < 0 { break }
                let g1 = removed1 - d(a, cn)
                if symmetric && g1 <= 0 { break }
                let q = Int(pos[Int(cn)])
                if q <= i || q > m - 1 { continue }
                // cn = b1 = t[j]: B A (second new edge (b2, a1)) and B rev(A) (second new edge (b2, a2)).
                do {
                    let j = q
                    let a2 = t[j - 1]
                    let g1r = g1 + d(a2, cn)
                    for r0 in 0...k {
                        let kk: Int
                        if r0 < k {
                            let e = nbi[r0]
                            if e < 0 { break }
                            if symmetric && g1r - d(e, a1) <= 0 { break }
                            kk = Int(pos[Int(e)])
                        } else { kk = m - 1 }
                        if kk < j || kk > m - 1 { continue }
                        let v = deltaExchange(i, j, kk)
                        if v < best { best = v; move = .exchange(i, j, kk) }
                    }
                    let nba2 = neighbours + Int(a2) * k
                    for r0 in 0...k {
                        let kk: Int
                        if r0 < k {
                            let e = nba2[r0]
                            if e < 0 { break }
                            if symmetric && g1r - d(e, a2) <= 0 { break }
                            kk = Int(pos[Int(e)])
                        } else { kk = m - 1 }
                        if kk < j || kk > m - 1 { continue }
                        let v = delta3opt(i, j, kk, 1)
                        if v < best { best = v; move = .threeOpt(i, j, kk, 1) }
                    }
                }
                // cn = b2 = t[k]: rev(B) A, second new edge (b1, a1) with b1 = t[j], i < j ≤ k.
                do {
                    let kk = q
                    let g1r = g1 + d(cn, t[kk + 1])
                    for r0 in 0..<k {
                        let e = nbi[r0]
                        if e < 0 { break }
                        if symmetric && g1r - d(e, a1) <= 0 { break }
                        let j = Int(pos[Int(e)])
                        if j > i && j <= kk {
                            let v = delta3opt(i, j, kk, 2)
                            if v < best { best = v; move = .threeOpt(i, j, kk, 2) }
                        }
                    }
                }
                // cn = a2 = t[j−1]: rev(A) rev(B), second new edge (a1, b2) with b2 = t[k], k ≥ j.
                if q + 1 <= m - 1 {
                    let j = q + 1
                    let g1r = g1 + d(cn, t[j])
                    for r0 in 0..<k {
                        let e = nbi[r0]
                        if e < 0 { break }
                        if symmetric && g1r - d(a1, e) <= 0 { break }
                        let kk = Int(pos[Int(e)])
                        if kk >= j && kk <= m - 1 {
                            let v = delta3opt(i, j, kk, 3)
                            if v < best { best = v; move = .threeOpt(i, j, kk, 3) }
                        }
                    }
                }
            }
        }
        // Mirror: a = a1 = t[i], first new edge (b2 = t[k], a), second (t[i−1], b1 = t[j]).
        do {
            let i = p
            let prev = t[i - 1]
            let removed1 = d(prev, a)
            let nbp = neighbours + Int(prev) * k
            for q0 in 0..<k {
                let cn = nb[q0]
                if cn < 0 { break }
                let g1 = removed1 - d(cn, a)
                if symmetric && g1 <= 0 { break }
                let kk = Int(pos[Int(cn)])
                if kk <= i || kk > m - 1 { continue }
                let g1r = g1 + d(cn, t[kk + 1])
                for r0 in 0..<k {
                    let e = nbp[r0]
                    if e < 0 { break }
                    if symmetric && g1r - d(prev, e) <= 0 { break }
                    let j = Int(pos[Int(e)])
                    if j <= i || j > kk { continue }
                    let v = deltaExchange(i, j, kk)
                    if v < best { best = v; move = .exchange(i, j, kk) }
                }
            }
        }

        switch move {
        case .none: return false
        case .twoOpt(let i, let j): apply2opt(i, j)
        case .exchange(let i, let j, let kk): applyExchange(i, j, kk)
        case .orReversed(let i, let len, let q): applyOrReversed(i, len, q)
        case .threeOpt(let i, let j, let kk, let v): apply3opt(i, j, kk, v)
        }
        cost += best
        push(a)
        return true
    }

    @_optimize(speed) private func localSearch() {
        while queueCount > 0 {
            let a = pop()
            _ = improve(a)
        }
    }

    // MARK: Driver

    @_optimize(speed) func run() -> VisitOrder {
        if m >= 2 {
            for p in 1..<m { push(t[p]) }
            localSearch()
        }
        var iterations = 0
        let clock = ContinuousClock()
        let deadline = options.deadline(from: clock.now)
        let interior = m - 1
        let kickSpan = 30
        if interior >= 8 {
            for p in 0...m { saved[p] = t[p]; bestT[p] = t[p] }
            touchedLo = Int.max; touchedHi = 0
            var current = cost, bestCost = cost
            var sinceBest = 0
            // After this many kicks without a new best, one worse result is accepted to leave
            // the funnel (the best path is kept aside).
            let stallLimit = 10_000
            while true {
                if let maxIt = options.maxIterations, iterations >= maxIt { break }
                if clock.now >= deadline { break }
                iterations += 1
                // Kick: a random pure 3-opt reconnection of two adjacent segments (the double
                // bridge and its reversed variants).
                // One kick in 20 spans up to a third of the path, to leave deep funnels.
                let span = min(rng.below(20) == 0 ? interior / 3 : kickSpan, interior / 3)
                let la = 1 + rng.below(span), lb = 1 + rng.below(span)
                let i = 1 + rng.below(max(1, interior - la - lb + 1))
                let j = i + la, kk = j + lb - 1
                guard kk <= m - 1 else { continue }
                let variant = rng.below(4)
                if variant == 0 {
                    cost += deltaExchange(i, j, kk)
                    applyExchange(i, j, kk)
                } else {
                    cost += delta3opt(i, j, kk, variant)
                    apply3opt(i, j, kk, variant)
                }
                localSearch()
                sinceBest += 1
                if cost < bestCost - eps {
                    for p in 0...m { bestT[p] = t[p] }
                    bestCost = cost
                    sinceBest = 0
                }
                let escape = stallLimit > 0 && sinceBest >= stallLimit
                if escape { sinceBest = 0 }
                if cost <= current + eps || escape {
                    if touchedLo <= touchedHi { for p in touchedLo...touchedHi { saved[p] = t[p] } }
                    current = cost
                } else {
                    if touchedLo <= touchedHi {
                        for p in touchedLo...touchedHi { t[p] = saved[p]; pos[Int(t[p])] = Int32(p) }
                        if !symmetric { updatePrefix(from: touchedLo - 1) }
                    }
                    cost = current
                }
                touchedLo = Int.max; touchedHi = 0
            }
            for p in 0...m { t[p] = bestT[p] }
        }
        rebuild()
        var order: [Int] = []
        order.reserveCapacity(m + 1)
        for p in 0...m {
            let x = Int(t[p])
            if p == m && (roundTrip || x == dummy) { continue }
            order.append(x)
        }
        // Exact cost of the returned path on the caller's matrix (no accumulated rounding).
        var exact = 0.0
        for q in 1...m where !(q == m && t[q] == Int32(dummy ?? -1)) { exact += d(t[q - 1], t[q]) }
        return VisitOrder(order: order, cost: exact, solver: .iteratedLocalSearch, iterations: iterations)
    }
}
