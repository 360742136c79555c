import Foundation

/// The pure-Swift zone evaluator: a tour's zones (polygons with holes, multipolygons) in the
/// session's local metric frame, answering "signed distance to the boundary, positive inside"
/// for ``TourSession`` — the default ``TourZoneEvaluator``, available on every platform (no GEOS).
///
/// A zone is the union of its polygons: a point is inside when some polygon covers it (inside its
/// outer ring and outside that polygon's own holes, by the even–odd rule over that polygon's
/// rings; a point on a boundary counts as inside, like GEOS's `covers`). Polygons of one zone may
/// overlap — RFC 7946 says MultiPolygon members should not, but exported and hand-made files have
/// duplicated or overlapping members, and an even–odd count over all rings would read a point
/// inside two copies as outside. The signed distance is the largest of the polygons' own signed
/// distances (each: distance to that polygon's nearest ring, positive inside it): outside the
/// zone, the distance to the nearest polygon, exact; inside, the depth within the polygon that
/// holds the point deepest — exact when the polygons do not overlap, and where they do, never
/// more than the distance to the union's boundary (an edge of one polygon inside another still
/// bounds that polygon's depth: in [0, 100]² ∪ [50, 150] × [0, 100], the point (90, 50) is 50 m
/// from the union's boundary and reads 40 m). Inside/outside is exact, and so are the events of
/// thresholds at most ½ (the defaults: enter at P ≥ ½, exit at P ≤ 0.2), which are decided
/// outside or on the boundary; a threshold above ½ can enter later or exit sooner near such an
/// edge.
///
/// Everything comes from one ``SegmentGrid`` per zone, so a position costs the edges in a few
/// grid cells, not every edge. GeoAnchorKitGEOS's `TourZones` gives the same events (tested on
/// the shipped tours and on concave zones, holes, multipolygons, overlapping and duplicated
/// polygons and a zone across the antimeridian) and adds buffers, overlays and hulls.
///
/// - Accuracy: the frame is an exact ENU frame (``LocalTangentFrame``); planar distances are
///   those of ``PlanarPoint`` (≤ 1.4 mm per km within 10 km of the tour's centre). Against GEOS
///   on the same planar geometry the signed distances agree to 1e-9 m in the tests.
public struct PlanarTourZones: TourZoneEvaluator, Sendable {
    /// The frame of every geometry here (the session's ``TourSession/frame``).
    public let frame: LocalTangentFrame
    /// Zone ids, in tour order.
    public let ids: [String]
    /// Per zone, the segments of all its rings.
    let grids: [SegmentGrid]
    /// Per zone, the polygon each line (ring) of its grid belongs to.
    let polygonOfLine: [[Int32]]

    /// Converts and validates the zones of `tour` in `frame` (pass ``TourSession/frame``).
    ///
    /// - Throws: ``TourError/invalidFeature(index:id:reason:)`` naming the zone (feature index =
    ///   stops, then zones) for a ring with fewer than 3 distinct vertices, edges that cross or a
    ///   ring that touches itself, two rings of one polygon sharing a stretch of edge
    ///   ("self-intersection at …"), a hole outside its polygon or inside another hole, or a
    ///   zone whose check would compare more than ``maximumEdgePairChecks`` pairs of nearby edges
    ///   (thousands of edges crowded into one spot, e.g. 100,000 spokes meeting at a centre).
    ///   Polygons of one zone may overlap or repeat each other (see the type's discussion).
    ///   First checks `tour` (``Tour/validate()``, same errors): a ``Tour`` changed or decoded
    ///   after its initializer can hold a ring without positions or a non-finite coordinate,
    ///   which the conversion and ``SegmentGrid/init(lines:minimumCellSize:maximumCells:)``
    ///   (a precondition, for programmer errors) must never see.
    /// - Complexity: the check compares only edges that share a cell of a sparse grid sized by the
    ///   mean edge length, and finds holes outside their shell by one ray per hole: near-linear
    ///   for zones whose vertices are spread along their rings (before, the session's 10 m cells
    ///   made it quadratic: 10⁵ vertices on a 200 m circle ran > 300 s).
    public init(tour: Tour, frame: LocalTangentFrame) throws(TourError) {
        try tour.validate()
        self.frame = frame
        ids = tour.zones.map(\.id)
        func planar(_ c: GeodeticCoordinate) -> PlanarPoint {
            PlanarPoint(frame.enu(latitude: c.latitude, longitude: c.longitude, ellipsoidalHeight: 0))
        }
        var grids: [SegmentGrid] = [], polygonOfLine: [[Int32]] = []
        for (k, z) in tour.zones.enumerated() {
            // Repeated consecutive vertices add nothing (and would make neighbouring edges look touching).
            let polygons = z.polygons.map { rings in
                rings.map { ring in
                    var pts: [PlanarPoint] = []
                    for c in ring { let p = planar(c); if pts.last != p { pts.append(p) } }
                    if pts.count < 2 { pts.append(pts[0]) }
                    return PlanarPolyline(pts)
                }
            }
            let grid = SegmentGrid(lines: polygons.flatMap { $0 })
            if let reason = Self.invalidity(polygons: polygons, grid: grid) {
                let at = reason.point.map { p -> String in
                    let g = frame.geodetic(east: p.x, north: p.y, up: 0)
                    return " at or near (\(g.latitude), \(g.longitude))"
                } ?? ""
                throw .invalidFeature(index: tour.stops.count + k, id: z.id, reason: "zone \"\(z.id)\": \(reason.message)\(at)")
            }
            grids.append(grid)
            polygonOfLine.append(polygons.enumerated().flatMap { pi, rings in [Int32](repeating: Int32(pi), count: rings.count) })
        }
        self.grids = grids
        self.polygonOfLine = polygonOfLine
    }

    /// The zones of a running session, in its frame.
    public init(session: TourSession) throws(TourError) {
        try self.init(tour: session.tour, frame: session.frame)
    }

    /// Whether zone `i` covers `point` (inside or on its boundary).
    public func contains(zone i: Int, _ point: PlanarPoint) -> Bool {
        signedDistance(zone: i, at: point) >= 0
    }

    /// Signed distance (m) from `point` to zone `i`'s boundary: positive inside, negative outside
    /// (for a zone of several polygons, the largest of theirs: see the type's discussion).
    public func signedDistance(zone i: Int, at point: PlanarPoint) -> Double {
        let grid = grids[i]
        guard let (nearest, d) = grid.nearest(to: point) else { return -.infinity }
        let owner = polygonOfLine[i]
        guard owner.last != 0 else {   // every ring belongs to polygon 0
            // One polygon: the even–odd rule over its rings.
            return d == 0 || grid.crossingCountToEast(of: point) % 2 == 1 ? d : -d
        }
        // Several polygons: the even–odd rule per polygon (its own rings only), so two copies
        // of a polygon, or two overlapping ones, do not cancel each other.
        let crossings = grid.crossingCountToEast(of: point)
        // On some ring: covered by that polygon (distance 0), perhaps deeper inside another.
        var best = d == 0 ? 0 : -d
        guard crossings > 0 else { return best }
        withUnsafeTemporaryAllocation(of: Int32.self, capacity: crossings) { crossed in
            var n = 0
            grid.forEachCrossingToEast(of: point) { k in
                if n < crossings { crossed[n] = owner[Int(grid.line[k])]; n += 1 }
            }
            var seen = UnsafeMutableBufferPointer(rebasing: crossed[0..<n])
            seen.sort()
            var a = 0
            while a < n {
                var b = a + 1
                while b < n && seen[b] == seen[a] { b += 1 }
                defer { a = b }
                guard (b - a) % 2 == 1 else { continue }
                // Inside polygon seen[a]: its depth is the distance to its own nearest ring.
                let depth = owner[Int(grid.line[nearest])] == seen[a] ? d : distance(zone: i, polygon: seen[a], to: point)
                best = Swift.max(best, depth)
            }
        }
        return best
    }

    /// Distance (m) from `point` to the nearest ring of polygon `polygon` of zone `i`.
    private func distance(zone i: Int, polygon: Int32, to point: PlanarPoint) -> Double {
        let grid = grids[i], owner = polygonOfLine[i]
        var best = Double.infinity
        grid.visit(around: point, radius: .infinity, { k in
            if owner[Int(grid.line[k])] == polygon { best = Swift.min(best, grid.project(point, segment: k).distance) }
        }, done: { $0 >= best })
        return best
    }

    // MARK: TourZoneEvaluator

    /// Signed distance (m) from `point` to each zone's boundary, positive inside.
    public func signedDistances(at point: PlanarPoint, into result: inout [Double]) {
        for i in grids.indices { result[i] = signedDistance(zone: i, at: point) }
    }

    // MARK: validation

    /// Most pairs of edges the validity check of one zone compares (pairs sharing a grid cell);
    /// beyond, the zone is refused as too complex to check rather than checked for minutes.
    public static let maximumEdgePairChecks = 50_000_000

    /// Why the polygons are not valid, or nil. Checks each polygon as GEOS's validity test does
    /// for tour zones: too few distinct vertices, crossing edges, a ring touching itself, rings
    /// sharing an edge, a hole outside its shell or inside another hole. Different polygons may overlap, touch or repeat each other (the zone is
    /// their union).
    static func invalidity(polygons: [[PlanarPolyline]], grid: SegmentGrid, maximumPairChecks: Int = maximumEdgePairChecks) -> (message: String, point: PlanarPoint?)? {
        for rings in polygons {
            for r in rings {
                var distinct: [PlanarPoint] = []
                for p in r.points where !distinct.contains(p) { distinct.append(p); if distinct.count == 3 { break } }
                if distinct.count < 3 { return ("a ring needs at least 3 distinct vertices", r.points[0]) }
            }
        }
        // Edge pairs that share a cell (every intersecting pair does) of a sparse grid whose cell
        // is the mean edge length, so a cell holds a few edges of an evenly spread ring (the
        // session's 10 m cells hold thousands of a dense one). Each piece of an edge between
        // samples half a cell apart lies in its bounding box: ≤ 4 cells, listed as (cell, edge).
        let edgeCount = grid.count
        var totalLength = 0.0, minX = Double.infinity, minY = Double.infinity
        for k in 0..<edgeCount {
            totalLength += grid.direction[k].length
            minX = Swift.min(minX, grid.start[k].x); minY = Swift.min(minY, grid.start[k].y)
        }
        let cell = Swift.max(1e-3, totalLength / Double(Swift.max(1, edgeCount)))
        func cellOf(_ v: Double, _ m: Double) -> Int64 { Int64(((v - m) / cell).rounded(.down)) }
        var entries: [(x: Int64, y: Int64, edge: Int32)] = []
        entries.reserveCapacity(4 * edgeCount)
        var seen = Set<SIMD2<Int64>>()
        for k in 0..<edgeCount {
            let a = grid.start[k], d = grid.direction[k]
            let pieces = Swift.max(1, Int((2 * d.length / cell).rounded(.up)))
            seen.removeAll(keepingCapacity: true)
            var q0 = a
            for i in 1...pieces {
                let q1 = i == pieces ? a + d : a + d * (Double(i) / Double(pieces))
                for cx in cellOf(Swift.min(q0.x, q1.x), minX)...cellOf(Swift.max(q0.x, q1.x), minX) {
                    for cy in cellOf(Swift.min(q0.y, q1.y), minY)...cellOf(Swift.max(q0.y, q1.y), minY) where seen.insert(SIMD2(cx, cy)).inserted {
                        entries.append((cx, cy, Int32(k)))
                    }
                }
                q0 = q1
            }
        }
        entries.sort { ($0.x, $0.y, $0.edge) < ($1.x, $1.y, $1.edge) }
        func orient(_ a: PlanarPoint, _ b: PlanarPoint, _ c: PlanarPoint) -> Double {
            (b.x - a.x) * (c.y - a.y) - (b.y - a.y) * (c.x - a.x)
        }
        func onSegment(_ p: PlanarPoint, _ a: PlanarPoint, _ b: PlanarPoint) -> Bool {
            orient(a, b, p) == 0 && min(a.x, b.x) <= p.x && p.x <= max(a.x, b.x) && min(a.y, b.y) <= p.y && p.y <= max(a.y, b.y)
        }
        // The polygon of each line (ring): edges of different polygons may cross or overlap.
        var polygonOf: [Int] = []
        for (pi, rings) in polygons.enumerated() { polygonOf += [Int](repeating: pi, count: rings.count) }
        func endpoints(_ k: Int) -> (PlanarPoint, PlanarPoint) {
            let pts = grid.lines[Int(grid.line[k])].points, i = Int(grid.segmentInLine[k])
            return (pts[i], pts[i + 1])
        }
        var checks = 0
        var lo = 0
        while lo < entries.count {
            var hi = lo + 1
            while hi < entries.count && entries[hi].x == entries[lo].x && entries[hi].y == entries[lo].y { hi += 1 }
            defer { lo = hi }
            guard hi - lo >= 2 else { continue }
            checks += (hi - lo) * (hi - lo - 1) / 2
            if checks > maximumPairChecks {
                return ("too complex to check: more than \(maximumPairChecks) pairs of nearby edges (\(edgeCount) edges, \(hi - lo) of them within one \(cell) m cell)",
                        PlanarPoint(x: minX + (Double(entries[lo].x) + 0.5) * cell, y: minY + (Double(entries[lo].y) + 0.5) * cell))
            }
            for u in lo..<(hi - 1) {
                let s = Int(entries[u].edge)
                // Endpoints exactly as given (start + direction may round off the next vertex).
                let (a, b) = endpoints(s)
                for v in (u + 1)..<hi {
                    let t = Int(entries[v].edge)
                    guard t != s, polygonOf[Int(grid.line[s])] == polygonOf[Int(grid.line[t])] else { continue }
                    let (p, q) = endpoints(t)
                    let o1 = orient(a, b, p), o2 = orient(a, b, q), o3 = orient(p, q, a), o4 = orient(p, q, b)
                    if ((o1 > 0 && o2 < 0) || (o1 < 0 && o2 > 0)) && ((o3 > 0 && o4 < 0) || (o3 < 0 && o4 > 0)) {
                        // Proper crossing: where the segments cross.
                        let w = o1 / (o1 - o2)
                        return ("self-intersection (edges cross)", p + (q - p) * w)
                    }
                    // Touching needs a vertex on the other segment, i.e. a zero orientation.
                    guard o1 == 0 || o2 == 0 || o3 == 0 || o4 == 0 else { continue }
                    guard grid.line[s] == grid.line[t] else {
                        // Two rings of one polygon may touch at points, but not share a stretch of
                        // edge (GEOS: "Self-intersection"): two copies of a hole would cancel in
                        // the even–odd count and read as inside.
                        if o1 == 0 && o2 == 0 {
                            let d = b - a, len2 = d.x * d.x + d.y * d.y
                            let tp = ((p - a).x * d.x + (p - a).y * d.y) / len2, tq = ((q - a).x * d.x + (q - a).y * d.y) / len2
                            let lo = Swift.max(0, Swift.min(tp, tq)), hi = Swift.min(1, Swift.max(tp, tq))
                            if lo < hi { return ("self-intersection (two rings share an edge)", a + d * ((lo + hi) / 2)) }
                        }
                        continue
                    }
                    // Touching within one ring: allowed only at the vertex adjacent edges share.
                    let ring = grid.lines[Int(grid.line[s])]
                    let i = Int(grid.segmentInLine[s]), j = Int(grid.segmentInLine[t])
                    let n = ring.segmentCount
                    let adjacent = abs(i - j) == 1 || (min(i, j) == 0 && max(i, j) == n - 1)
                    for (x, e0, e1) in [(p, a, b), (q, a, b), (a, p, q), (b, p, q)] where onSegment(x, e0, e1) {
                        // Adjacent edges share exactly their common vertex; anything else is a spike or a touch.
                        if adjacent {
                            let shared = (i + 1) % n == j ? b : a
                            if x != shared { return ("self-intersection (ring folds back on itself)", x) }
                        } else {
                            return ("self-intersection (ring touches itself)", x)
                        }
                    }
                }
            }
        }
        // Holes inside their shell and not inside another hole (GEOS: "Holes are nested"; the
        // even–odd count would read the inner hole as inside). Edges of one polygon do not cross,
        // so one vertex of a hole that lies on no other ring of its polygon decides, by the
        // parity of the crossings of one ray with each ring of the polygon (one ray per hole, not
        // every ring against every other). Other polygons are ignored: they may overlap this one.
        var firstLine: [Int] = []   // line number of each polygon's shell
        var n = 0
        for rings in polygons { firstLine.append(n); n += rings.count }
        for (pi, rings) in polygons.enumerated() {
            for h in 1..<rings.count {
                let line = firstLine[pi] + h, shell = firstLine[pi]
                let probe = grid.lines[line].points.first { p in
                    grid.segments(within: 0, of: p).allSatisfy { Int(grid.line[$0]) == line || polygonOf[Int(grid.line[$0])] != pi }
                }
                guard let p = probe else { continue }
                var around = [Bool](repeating: false, count: rings.count)   // per ring of this polygon
                grid.forEachCrossingToEast(of: p) { k in
                    let l = Int(grid.line[k])
                    if polygonOf[l] == pi && l != line { around[l - shell].toggle() }
                }
                if !around[0] { return ("a hole lies outside its polygon", p) }
                if around.dropFirst().contains(true) { return ("a hole lies inside another hole", p) }
            }
        }
        return nil
    }
}
