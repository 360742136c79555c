import Foundation

/// One indexed point: surface ECEF (height 0) in meters and the caller's id.

struct KDEntry: Sendable {
    var x: Double, y: Double, z: Double
    var id: Int
    init(x: Double, y: Double, z: Double, id: Int) { self.x = x; self.y = y; self.z = z; self.id = id }
    subscript(_ d: UInt8) -> Double { d == 0 ? x : d == 1 ? y : z }
}

/// A static, implicit 3-D k-d tree (ECEF chords): the entries are permuted so that the range
/// `[lo, hi)` is split at `mid = (lo + hi) / 2`, whose entry is the splitter along `dims[mid]`;
/// ranges of ≤ `leafSize` entries are scanned linearly. Removal marks entries dead.

struct KDTree: Sendable {
    static let leafSize = 8
    var entries: [KDEntry]
    var dims: [UInt8]
    /// `nil` until the first removal (then one flag per entry).
    var alive: [Bool]?
    var liveCount: Int

    init(entries: [KDEntry]) {
        var e = entries
        var dims = [UInt8](repeating: 0, count: e.count)
        e.withUnsafeMutableBufferPointer { eb in
            dims.withUnsafeMutableBufferPointer { db in
                Self.build(eb, db, 0, eb.count)
            }
        }
        self.entries = e
        self.dims = dims
        self.alive = nil
        self.liveCount = e.count
    }

    var count: Int { entries.count }

    /// Live entries (for merges and rebuilds).
    var liveEntries: [KDEntry] {
        guard let alive else { return entries }
        return zip(entries, alive).compactMap { $1 ? $0 : nil }
    }

    private static func build(_ e: UnsafeMutableBufferPointer<KDEntry>, _ dims: UnsafeMutableBufferPointer<UInt8>, _ lo: Int, _ hi: Int) {
        if hi - lo <= leafSize { return }
        // Split along the widest extent (the data lie on a curved 2-D surface, so cycling x,y,z
        // would waste levels).
        var mn = SIMD3<Double>(repeating: .infinity), mx = SIMD3<Double>(repeating: -.infinity)
        for i in lo..<hi {
            let p = SIMD3(e[i].x, e[i].y, e[i].z)
            mn = pointwiseMin(mn, p); mx = pointwiseMax(mx, p)
        }
        let ext = mx - mn
        let d: UInt8 = ext.x >= ext.y && ext.x >= ext.z ? 0 : (ext.y >= ext.z ? 1 : 2)
        let mid = (lo + hi) / 2
        select(e, lo, hi, mid, d)
        dims[mid] = d
        build(e, dims, lo, mid)
        build(e, dims, mid + 1, hi)
    }

    /// Hoare quickselect: puts the `k`-th smallest along `d` at `k`, smaller-or-equal before, greater-or-equal after.
    private static func select(_ e: UnsafeMutableBufferPointer<KDEntry>, _ lo0: Int, _ hi0: Int, _ k: Int, _ d: UInt8) {
        var lo = lo0, hi = hi0 - 1
        while hi > lo {
            // Median of three as pivot.
            let m = (lo + hi) / 2
            if e[m][d] < e[lo][d] { e.swapAt(m, lo) }
            if e[hi][d] < e[lo][d] { e.swapAt(hi, lo) }
            if e[hi][d] < e[m][d] { e.swapAt(hi, m) }
            let pivot = e[m][d]
            var i = lo, j = hi
            while i <= j {
                while e[i][d] < pivot { i += 1 }
                while e[j][d] > pivot { j -= 1 }
                if i <= j { e.swapAt(i, j); i += 1; j -= 1 }
            }
            if k <= j { hi = j } else if k >= i { lo = i } else { return }
        }
    }

    /// Marks the entry with `id` dead; `hint` (a surface ECEF point) speeds the search.
    mutating func remove(slot: Int) {
        if alive == nil { alive = [Bool](repeating: true, count: entries.count) }
        if alive![slot] { alive![slot] = false; liveCount -= 1 }
    }
}

/// A bounded set of the k best (smallest squared chord) candidates, kept sorted ascending
/// (k is small: insertion into a sorted array beats a heap).
struct KBest {
    struct Candidate { var d2: Double; var id: Int; var tree: Int; var slot: Int }
    var items: [Candidate]
    let k: Int
    /// Squared chord of the current k-th best (∞ until k are held).
    var worst: Double = .infinity
    init(k: Int) {
        self.k = k
        items = []
        items.reserveCapacity(k + 1)
    }
    var count: Int { items.count }
    mutating func offer(_ dist2: Double, _ id: Int, _ tree: Int, _ slot: Int) {
        // Caller checked dist2 < worst.
        var i = items.count
        items.append(Candidate(d2: dist2, id: id, tree: tree, slot: slot))
        while i > 0 && items[i - 1].d2 > dist2 { items.swapAt(i, i - 1); i -= 1 }
        if items.count > k { items.removeLast() }
        if items.count == k { worst = items[k - 1].d2 }
    }
}

extension KDTree {
    /// k nearest live entries by chord to `q`, offered into `best`.

    func nearest(_ q: SIMD3<Double>, treeIndex: Int, into best: inout KBest) {
        entries.withUnsafeBufferPointer { e in
            dims.withUnsafeBufferPointer { dm in
                if let alive {
                    alive.withUnsafeBufferPointer { al in Self.knn(e, dm, al.baseAddress, q, treeIndex, &best) }
                } else {
                    Self.knn(e, dm, nil, q, treeIndex, &best)
                }
            }
        }
    }

    @inline(__always)
    static func dist2(_ p: KDEntry, _ q: SIMD3<Double>) -> Double {
        let dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z
        return dx * dx + dy * dy + dz * dz
    }

    /// Depth-first search with an explicit stack of pending subtrees and their lower bounds
    /// (squared distance to the splitting plane); a pending subtree is skipped when its bound is
    /// no better than the current k-th best. Depth ≤ log2(n) + 1, so 128 slots are ample.
    static func knn(_ e: UnsafeBufferPointer<KDEntry>, _ dm: UnsafeBufferPointer<UInt8>, _ al: UnsafePointer<Bool>?,
                    _ q: SIMD3<Double>, _ tree: Int, _ best: inout KBest) {
        withUnsafeTemporaryAllocation(of: (lo: Int, hi: Int, bound: Double).self, capacity: 128) { stack in
            var sp = 1
            stack[0] = (0, e.count, 0)
            while sp > 0 {
                sp -= 1
                var (lo, hi, bound) = stack[sp]
                if bound >= best.worst { continue }
                while hi - lo > leafSize {
                    let mid = (lo + hi) >> 1
                    let p = e[mid]
                    let d = dm[mid]
                    let diff = (d == 0 ? q.x : d == 1 ? q.y : q.z) - p[d]
                    if al == nil || al![mid] {
                        let d2 = dist2(p, q)
                        if d2 < best.worst { best.offer(d2, p.id, tree, mid) }
                    }
                    bound = diff * diff
                    if diff < 0 {
                        stack[sp] = (mid + 1, hi, bound); hi = mid
                    } else {
                        stack[sp] = (lo, mid, bound); lo = mid + 1
                    }
                    sp += 1
                }
                for i in lo..<hi where al == nil || al![i] {
                    let d2 = dist2(e[i], q)
                    if d2 < best.worst { best.offer(d2, e[i].id, tree, i) }
                }
            }
        }
    }

    /// Appends the slots of every live entry with squared chord ≤ `r2` to `out`.

    func within(_ q: SIMD3<Double>, chordSquared r2: Double, into out: inout [Int]) {
        entries.withUnsafeBufferPointer { e in
            dims.withUnsafeBufferPointer { dm in
                if let alive {
                    alive.withUnsafeBufferPointer { al in Self.range(e, dm, al.baseAddress, q, r2, &out) }
                } else {
                    Self.range(e, dm, nil, q, r2, &out)
                }
            }
        }
    }

    static func range(_ e: UnsafeBufferPointer<KDEntry>, _ dm: UnsafeBufferPointer<UInt8>, _ al: UnsafePointer<Bool>?,
                      _ q: SIMD3<Double>, _ r2: Double, _ out: inout [Int]) {
        withUnsafeTemporaryAllocation(of: (lo: Int, hi: Int).self, capacity: 128) { stack in
            var sp = 1
            stack[0] = (0, e.count)
            while sp > 0 {
                sp -= 1
                var (lo, hi) = stack[sp]
                while hi - lo > leafSize {
                    let mid = (lo + hi) >> 1
                    let p = e[mid]
                    let d = dm[mid]
                    let diff = (d == 0 ? q.x : d == 1 ? q.y : q.z) - p[d]
                    if al == nil || al![mid], dist2(p, q) <= r2 { out.append(mid) }
                    let far = diff * diff <= r2
                    if diff < 0 {
                        if far { stack[sp] = (mid + 1, hi); sp += 1 }
                        hi = mid
                    } else {
                        if far { stack[sp] = (lo, mid); sp += 1 }
                        lo = mid + 1
                    }
                }
                for i in lo..<hi where al == nil || al![i] {
                    if dist2(e[i], q) <= r2 { out.append(i) }
                }
            }
        }
    }
}
