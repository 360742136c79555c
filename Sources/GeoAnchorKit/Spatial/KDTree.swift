import Foundation

/// One indexed point: surface ECEF (height 0) in meters and the caller's id.
@usableFromInline
struct KDEntry: Sendable {
    @usableFromInline var x: Double, y: Double, z: Double
    @usableFromInline var id: Int
    @inlinable init(x: Double, y: Double, z: Double, id: Int) { self.x = x; self.y = y; self.z = z; self.id = id }
    @inlinable subscript(_ d: UInt8) -> Double { d == 0 ? x : d == 1 ? y : z }
}

/// A static, implicit 3-D k-d tree (ECEF chords): the entries are permuted so that the range
/// `[lo, hi)` is split at `mid = (lo + hi) / 2`, whose entry is the splitter along `dims[mid]`;
/// ranges of ≤ `leafSize` entries are scanned linearly. Removal marks entries dead.
@usableFromInline
struct KDTree: Sendable {
    @usableFromInline static let leafSize = 8
    @usableFromInline var entries: [KDEntry]
    @usableFromInline var dims: [UInt8]
    /// `nil` until the first removal (then one flag per entry).
    @usableFromInline var alive: [Bool]?
    @usableFromInline var liveCount: Int

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

/// A bounded set of the k best (smallest squared chord) candidates, kept sorted (k is small).
@usableFromInline
struct KBest {
    @usableFromInline var d2: [Double]
    @usableFromInline var ids: [Int]
    @usableFromInline var slots: [(tree: Int, slot: Int)]
    @usableFromInline let k: Int
    @usableFromInline init(k: Int) {
        self.k = k
        d2 = []; ids = []; slots = []
        d2.reserveCapacity(k + 1); ids.reserveCapacity(k + 1); slots.reserveCapacity(k + 1)
    }
    /// Squared chord of the current k-th best (∞ until k are held).
    @inlinable var worst: Double { d2.count < k ? .infinity : d2[d2.count - 1] }
    @inlinable mutating func offer(_ dist2: Double, _ id: Int, _ tree: Int, _ slot: Int) {
        if d2.count == k && dist2 >= d2[k - 1] { return }
        var i = d2.count
        if d2.count == k { d2.removeLast(); ids.removeLast(); slots.removeLast(); i = k - 1 }
        while i > 0 && d2[i - 1] > dist2 { i -= 1 }
        d2.insert(dist2, at: i); ids.insert(id, at: i); slots.insert((tree, slot), at: i)
    }
}

extension KDTree {
    /// k nearest live entries by chord to `q`, offered into `best`.
    @usableFromInline
    func nearest(_ q: SIMD3<Double>, treeIndex: Int, into best: inout KBest) {
        entries.withUnsafeBufferPointer { e in
            dims.withUnsafeBufferPointer { dm in
                if let alive {
                    alive.withUnsafeBufferPointer { al in
                        Self.knn(e, dm, al.baseAddress, q, 0, e.count, treeIndex, &best)
                    }
                } else {
                    Self.knn(e, dm, nil, q, 0, e.count, treeIndex, &best)
                }
            }
        }
    }

    @inline(__always)
    static func dist2(_ p: KDEntry, _ q: SIMD3<Double>) -> Double {
        let dx = p.x - q.x, dy = p.y - q.y, dz = p.z - q.z
        return dx * dx + dy * dy + dz * dz
    }

    static func knn(_ e: UnsafeBufferPointer<KDEntry>, _ dm: UnsafeBufferPointer<UInt8>, _ al: UnsafePointer<Bool>?,
                    _ q: SIMD3<Double>, _ lo: Int, _ hi: Int, _ tree: Int, _ best: inout KBest) {
        if hi - lo <= leafSize {
            for i in lo..<hi where al == nil || al![i] {
                let d2 = dist2(e[i], q)
                if d2 < best.worst { best.offer(d2, e[i].id, tree, i) }
            }
            return
        }
        let mid = (lo + hi) / 2
        let p = e[mid]
        let d = dm[mid]
        let diff = (d == 0 ? q.x : d == 1 ? q.y : q.z) - p[d]
        if al == nil || al![mid] {
            let d2 = dist2(p, q)
            if d2 < best.worst { best.offer(d2, p.id, tree, mid) }
        }
        if diff < 0 {
            knn(e, dm, al, q, lo, mid, tree, &best)
            if diff * diff < best.worst { knn(e, dm, al, q, mid + 1, hi, tree, &best) }
        } else {
            knn(e, dm, al, q, mid + 1, hi, tree, &best)
            if diff * diff < best.worst { knn(e, dm, al, q, lo, mid, tree, &best) }
        }
    }

    /// Every live entry with squared chord ≤ `r2`: calls `found(slot, d2)`.
    @usableFromInline
    func within(_ q: SIMD3<Double>, chordSquared r2: Double, _ found: (Int, Double) -> Void) {
        entries.withUnsafeBufferPointer { e in
            dims.withUnsafeBufferPointer { dm in
                if let alive {
                    alive.withUnsafeBufferPointer { al in Self.range(e, dm, al.baseAddress, q, r2, 0, e.count, found) }
                } else {
                    Self.range(e, dm, nil, q, r2, 0, e.count, found)
                }
            }
        }
    }

    static func range(_ e: UnsafeBufferPointer<KDEntry>, _ dm: UnsafeBufferPointer<UInt8>, _ al: UnsafePointer<Bool>?,
                      _ q: SIMD3<Double>, _ r2: Double, _ lo: Int, _ hi: Int, _ found: (Int, Double) -> Void) {
        if hi - lo <= leafSize {
            for i in lo..<hi where al == nil || al![i] {
                let d2 = dist2(e[i], q)
                if d2 <= r2 { found(i, d2) }
            }
            return
        }
        let mid = (lo + hi) / 2
        let p = e[mid]
        let d = dm[mid]
        let diff = (d == 0 ? q.x : d == 1 ? q.y : q.z) - p[d]
        if al == nil || al![mid] {
            let d2 = dist2(p, q)
            if d2 <= r2 { found(mid, d2) }
        }
        if diff <= 0 || diff * diff <= r2 { range(e, dm, al, q, r2, lo, mid, found) }
        if diff >= 0 || diff * diff <= r2 { range(e, dm, al, q, r2, mid + 1, hi, found) }
    }
}
