import Foundation

/// A spatial index of up to tens of millions of points (anchors, tour starts) answering
/// k-nearest and radius queries with **ellipsoidal** (geodesic) distances.
///
/// How: every point is stored as its ECEF position on the ellipsoid surface (height 0) in 3-D
/// k-d trees. The straight chord between two surface points is never longer than the geodesic
/// between them, so the chord is a conservative prefilter; the final distances are exact
/// geodesics from ``Geodesic`` (Karney's algorithm):
/// - radius r: every point with chord ≤ r is a candidate; those with geodesic ≤ r are returned;
/// - k nearest: the k nearest by chord give an upper bound U (the largest of their geodesic
///   distances) on the k-th geodesic distance; every point with chord ≤ U is a candidate, and the
///   k smallest geodesics among the candidates are the answer (exact, no approximation).
///
/// Dynamic updates use the logarithmic method (Bentley & Saxe 1980): inserts go to a small
/// buffer that is turned into a tree when full, and trees of similar size are merged; removals
/// mark the entry dead and a tree more than half dead is rebuilt. Bulk loading builds one tree in
/// O(n log n).
///
/// Ids are the caller's `Int`s and should be unique: the index does not check (that would cost a
/// hash of every id). The first ``remove(id:)`` builds an id → slot table (≈ 40 bytes per point).
///
/// *Accuracy*: distances are those of ``Geodesic`` (≤ 15 nm); results equal a brute-force scan
/// with the same distances (SpatialIndexTests). Heights are ignored (surface distances).
public struct SpatialIndex: Sendable {
    /// One query result.
    public struct Neighbor: Sendable, Hashable {
        /// The point's id.
        public var id: Int
        /// Geodesic distance on the ellipsoid from the query point, meters.
        public var distance: Double
        public init(id: Int, distance: Double) { self.id = id; self.distance = distance }
    }

    /// The ellipsoid of the coordinates and distances.
    public let ellipsoid: Ellipsoid
    /// Geodesic solver on ``ellipsoid`` (final distances).
    let geodesic: Geodesic
    var trees: [KDTree] = []
    var buffer: [KDEntry] = []
    var locator: [Int: Slot]? = nil

    struct Slot: Sendable, Hashable { var tree: Int; var index: Int }   // tree == -1: buffer

    /// Inserted points are scanned linearly until this many are buffered.
    static let bufferCapacity = 256

    /// An empty index.
    public init(ellipsoid: Ellipsoid = .wgs84) { self.ellipsoid = ellipsoid; self.geodesic = Geodesic(ellipsoid: ellipsoid) }

    /// Bulk-loads points into one balanced tree.
    /// - Parameters: points: `(id, latitude, longitude)` in degrees.
    /// - Throws: ``GeoAnchorError/batchFailures(_:)`` listing invalid coordinates by index; the
    ///   valid points are not loaded in that case (nothing is dropped silently).
    public init(points: [(id: Int, latitude: Double, longitude: Double)], ellipsoid: Ellipsoid = .wgs84) throws(GeoAnchorError) {
        self.ellipsoid = ellipsoid
        self.geodesic = Geodesic(ellipsoid: ellipsoid)
        var entries = [KDEntry]()
        entries.reserveCapacity(points.count)
        var failures: [GeoAnchorError.BatchFailure] = []
        for (i, p) in points.enumerated() {
            do throws(GeoAnchorError) {
                entries.append(try Self.entry(id: p.id, latitude: p.latitude, longitude: p.longitude, ellipsoid))
            } catch {
                failures.append(.init(index: i, error: error))
            }
        }
        if !failures.isEmpty { throw .batchFailures(failures) }
        if !entries.isEmpty { trees = [KDTree(entries: entries)] }
    }

    static func entry(id: Int, latitude: Double, longitude: Double, _ ell: Ellipsoid) throws(GeoAnchorError) -> KDEntry {
        guard latitude.isFinite, Swift.abs(latitude) <= 90 else { throw .invalidLatitude(latitude) }
        guard longitude.isFinite else { throw .invalidLongitude(longitude) }
        let p = ell.ecef(latitude: latitude, longitude: longitude, ellipsoidalHeight: 0)
        return KDEntry(x: p.x, y: p.y, z: p.z, id: id)
    }

    /// Number of live points.
    public var count: Int { trees.reduce(buffer.count) { $0 + $1.liveCount } }

    /// Adds a point.
    /// - Throws: range errors for the coordinate.
    public mutating func insert(id: Int, latitude: Double, longitude: Double) throws(GeoAnchorError) {
        let e = try Self.entry(id: id, latitude: latitude, longitude: longitude, ellipsoid)
        buffer.append(e)
        locator?[id] = Slot(tree: -1, index: buffer.count - 1)
        if buffer.count >= Self.bufferCapacity {
            let t = KDTree(entries: buffer)
            buffer.removeAll(keepingCapacity: true)
            trees.append(t)
            reindex(tree: trees.count - 1)
            // Merge while the newest tree is at least half the size of the one before it.
            while trees.count >= 2, 2 * trees[trees.count - 1].liveCount >= trees[trees.count - 2].liveCount {
                let b = trees.removeLast(), a = trees.removeLast()
                trees.append(KDTree(entries: a.liveEntries + b.liveEntries))
                reindex(tree: trees.count - 1)
            }
        }
    }

    /// Removes the point with `id`.
    /// - Returns: `false` when no live point has that id.
    @discardableResult
    public mutating func remove(id: Int) -> Bool {
        if locator == nil { buildLocator() }
        guard let s = locator?.removeValue(forKey: id) else { return false }
        if s.tree < 0 {
            buffer.remove(at: s.index)
            for i in s.index..<buffer.count { locator?[buffer[i].id] = Slot(tree: -1, index: i) }
            return true
        }
        trees[s.tree].remove(slot: s.index)
        if trees[s.tree].liveCount * 2 < trees[s.tree].count {
            if trees[s.tree].liveCount == 0 {
                trees.remove(at: s.tree)
                for t in s.tree..<trees.count { reindex(tree: t) }
            } else {
                trees[s.tree] = KDTree(entries: trees[s.tree].liveEntries)
                reindex(tree: s.tree)
            }
        }
        return true
    }

    private mutating func buildLocator() {
        var m = [Int: Slot](minimumCapacity: count)
        for (t, tree) in trees.enumerated() {
            for (i, e) in tree.entries.enumerated() where tree.alive?[i] ?? true { m[e.id] = Slot(tree: t, index: i) }
        }
        for (i, e) in buffer.enumerated() { m[e.id] = Slot(tree: -1, index: i) }
        locator = m
    }

    private mutating func reindex(tree t: Int) {
        guard locator != nil else { return }
        let tree = trees[t]
        for (i, e) in tree.entries.enumerated() where tree.alive?[i] ?? true { locator![e.id] = Slot(tree: t, index: i) }
    }

    // MARK: Queries

    /// The `k` nearest points to a position, nearest first, by geodesic distance (ties in
    /// distance broken by id).
    /// - Parameters: latitude, longitude in degrees; `k` ≥ 0.
    /// - Throws: range errors for the query coordinate or a negative `k`.
    public func nearest(latitude: Double, longitude: Double, k: Int) throws(GeoAnchorError) -> [Neighbor] {
        guard k >= 0 else { throw .outOfRange(name: "k", value: Double(k), allowed: .atLeast(0)) }
        let qe = try Self.entry(id: 0, latitude: latitude, longitude: longitude, ellipsoid)
        if k == 0 { return [] }
        let q = SIMD3(qe.x, qe.y, qe.z)
        // The k + 1 nearest by chord: the extra one tells whether anything beyond could matter.
        var best = KBest(k: k + 1)
        for (t, tree) in trees.enumerated() { tree.nearest(q, treeIndex: t, into: &best) }
        for (i, e) in buffer.enumerated() {
            let d2 = KDTree.dist2(e, q)
            if d2 < best.worst { best.offer(d2, e.id, -1, i) }
        }
        let m = Swift.min(k, best.count)
        var result: [Neighbor] = []
        result.reserveCapacity(m + 1)
        // U = the largest geodesic among the k chord-nearest bounds the true k-th distance.
        var bound = 0.0
        for c in best.items.prefix(m) {
            let g = geodesicDistance(latitude, longitude, entryAt(c.tree, c.slot))
            bound = Swift.max(bound, g)
            result.append(Neighbor(id: c.id, distance: g))
        }
        // Every point outside the chord-best has chord ≥ the (k+1)-th chord. If that exceeds U,
        // its geodesic (≥ chord) does too and the k found are the answer; otherwise (near-ties,
        // rare) every point with chord ≤ U is measured.
        if best.count == k + 1 && best.items[k].d2 <= bound * bound {
            let seen = best.items.prefix(m).map { Self.key($0.tree, $0.slot) }
            var slots: [Int] = []
            for (t, tree) in trees.enumerated() {
                slots.removeAll(keepingCapacity: true)
                tree.within(q, chordSquared: bound * bound, into: &slots)
                for s in slots where !seen.contains(Self.key(t, s)) {
                    let e = tree.entries[s]
                    result.append(Neighbor(id: e.id, distance: geodesicDistance(latitude, longitude, e)))
                }
            }
            for (i, e) in buffer.enumerated() where KDTree.dist2(e, q) <= bound * bound && !seen.contains(Self.key(-1, i)) {
                result.append(Neighbor(id: e.id, distance: geodesicDistance(latitude, longitude, e)))
            }
        }
        result.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.id < $1.id }
        if result.count > k { result.removeSubrange(k...) }
        return result
    }

    /// Every point within `radius` meters (geodesic) of a position, nearest first (ties by id).
    /// - Throws: range errors for the query coordinate; ``GeoAnchorError/outOfRange(name:value:allowed:)``
    ///   for a negative or non-finite radius.
    public func within(radius: Double, latitude: Double, longitude: Double) throws(GeoAnchorError) -> [Neighbor] {
        guard radius.isFinite, radius >= 0 else { throw .outOfRange(name: "radius", value: radius, allowed: .atLeast(0)) }
        let qe = try Self.entry(id: 0, latitude: latitude, longitude: longitude, ellipsoid)
        let q = SIMD3(qe.x, qe.y, qe.z)
        let r2 = radius * radius
        var result: [Neighbor] = []
        var slots: [Int] = []
        for tree in trees {
            slots.removeAll(keepingCapacity: true)
            tree.within(q, chordSquared: r2, into: &slots)
            for s in slots {
                let e = tree.entries[s]
                let g = geodesicDistance(latitude, longitude, e)
                if g <= radius { result.append(Neighbor(id: e.id, distance: g)) }
            }
        }
        for e in buffer where KDTree.dist2(e, q) <= r2 {
            let g = geodesicDistance(latitude, longitude, e)
            if g <= radius { result.append(Neighbor(id: e.id, distance: g)) }
        }
        result.sort { $0.distance != $1.distance ? $0.distance < $1.distance : $0.id < $1.id }
        return result
    }

    /// Every live point as `(id, latitude, longitude)` (degrees; recovered from the stored ECEF,
    /// ≤ 1e-14° from the inserted values).
    public var points: [(id: Int, latitude: Double, longitude: Double)] {
        var out: [(Int, Double, Double)] = []
        out.reserveCapacity(count)
        for tree in trees {
            for (i, e) in tree.entries.enumerated() where tree.alive?[i] ?? true {
                let g = ellipsoid.geodetic(x: e.x, y: e.y, z: e.z)
                out.append((e.id, g.latitude, g.longitude))
            }
        }
        for e in buffer {
            let g = ellipsoid.geodetic(x: e.x, y: e.y, z: e.z)
            out.append((e.id, g.latitude, g.longitude))
        }
        return out
    }

    @inline(__always)
    static func key(_ tree: Int, _ slot: Int) -> Int { (tree + 1) << 40 | slot }

    @inline(__always)
    func entryAt(_ tree: Int, _ slot: Int) -> KDEntry { tree < 0 ? buffer[slot] : trees[tree].entries[slot] }

    /// Geodesic distance from the query (degrees) to a stored surface point.
    @inline(__always)
    func geodesicDistance(_ latitude: Double, _ longitude: Double, _ e: KDEntry) -> Double {
        let g = ellipsoid.geodetic(x: e.x, y: e.y, z: e.z)
        return surfaceDistance(latitude, longitude, g.latitude, g.longitude)
    }
}
