import Foundation

/// A walking-path network built from polylines (e.g. the GeoJSON LineStrings of a site's real
/// paths). Polylines connect where they share a vertex (coordinates equal to 1e-7°, ≈ 1 cm);
/// crossing segments without a shared vertex do not connect, as in GeoJSON road networks.
///
/// Edge lengths are geodesic; heights come from the vertices' heights (GeoJSON's optional third
/// coordinate), so each edge has its own slope and walking time (``WalkingModel``) in each direction.
/// A network without heights (``hasHeights`` false: GeoJSON positions of two numbers) has no
/// slopes of its own; the climbs of a walk on it come from its ends' heights
/// (``costs(between:maxSnapDistance:walking:distance:)``).
///
/// *Accuracy*: snapping projects stops onto segments in a local East-North-Up frame at the
/// network's first vertex and maps the snap back along the segment's chord (a vertex snaps onto
/// itself to < 1 mm even 89 km out); for sites a few kilometres across the planar error of the
/// snapped position is below a millimetre per 100 m of segment (ENU is conformal to first order).
/// Hence a network spans at most ``maximumExtent`` (100 km) from its first vertex, like a tour
/// from its centre; farther vertices are refused (beyond it the plane no longer represents the
/// ellipsoid: a vertex on the far side of the globe snapped 8,427 km away from itself).
public struct PathNetwork: Sendable {
    /// Largest geodesic distance (m) of any vertex from the network's first vertex: 100 km.
    public static let maximumExtent = 100_000.0

    /// Vertex positions (at 0 m above the ellipsoid when the network has no heights).
    public let vertices: [GeodeticCoordinate]
    /// Whether the vertices' heights are the paths' heights (true) or the paths have none
    /// (false: the vertices are horizontal positions and their heights are not used).
    public let hasHeights: Bool
    /// Undirected edges as vertex index pairs, with their geodesic lengths (m).
    public let edges: [(a: Int, b: Int, length: Double)]
    private let adjacency: [[(to: Int, edge: Int)]]
    private let frame: LocalTangentFrame?
    /// The edges as planar segments in `frame` (segment k = edge k), for snapping.
    private let index: SegmentGrid?
    /// Each vertex's `up` in `frame` at ellipsoidal height 0 (the Earth's curvature below the
    /// plane: −620 m at 89 km), interpolated along a segment to map a snap back to the ellipsoid.
    private let ups: [Double]

    /// Builds the network from polylines (each at least 2 positions).
    /// - Parameters:
    ///   - lineStrings: the paths, WGS84 positions.
    ///   - distance: the edges' horizontal length (geodesic by default).
    ///   - hasHeights: true (the default) when the positions' heights are the paths' heights;
    ///     false for horizontal paths, whose positions' heights are then ignored (e.g. a
    ///     horizontal `GeodeticCoordinate(latitude:longitude:)` is 0 m above the ellipsoid, not
    ///     a known height of the path).
    /// - Throws: ``RoutingError/malformedInput(source:line:reason:)`` (line = polyline index + 1)
    ///   for a polyline with fewer than 2 positions, an invalid coordinate, a height outside
    ///   ``RouteStop/heightRange``, or a position more than ``maximumExtent`` from the first.
    public init(lineStrings: [[GeodeticCoordinate]], distance: DistanceFunction = RoutingDistance.geodesic,
                hasHeights: Bool = true) throws(RoutingError) {
        var key: [String: Int] = [:]
        var verts: [GeodeticCoordinate] = []
        var edges: [(a: Int, b: Int, length: Double)] = []
        for (li, line) in lineStrings.enumerated() {
            guard line.count >= 2 else {
                throw .malformedInput(source: "LineString", line: li + 1, reason: "a LineString needs at least 2 positions")
            }
            var prev = -1
            for given in line {
                let c = hasHeights ? given : GeodeticCoordinate(latitude: given.latitude, longitude: given.longitude)
                do {
                    try c.validate()
                    try RouteStop.heightRange.check(c.height, name: "height")
                } catch {
                    throw .malformedInput(source: "LineString", line: li + 1, reason: error.description)
                }
                if let o = verts.first {
                    let r = RoutingDistance.geodesic(o, c)
                    guard r <= Self.maximumExtent else {
                        throw .malformedInput(source: "LineString", line: li + 1, reason: String(
                            format: "position (%.7f, %.7f) is %.1f km from the network's first vertex; a network spans at most %.0f km",
                            c.latitude, c.longitude, r / 1000, Self.maximumExtent / 1000))
                    }
                }
                let k = "\(Int((c.latitude * 1e7).rounded())),\(Int((Angle.normalizeLongitude(c.longitude) * 1e7).rounded()))"
                let v: Int
                if let e = key[k] { v = e } else { v = verts.count; key[k] = v; verts.append(c) }
                if prev >= 0 && prev != v { edges.append((prev, v, distance(verts[prev], verts[v]))) }
                prev = v
            }
        }
        var adj = [[(to: Int, edge: Int)]](repeating: [], count: verts.count)
        for (i, e) in edges.enumerated() { adj[e.a].append((e.b, i)); adj[e.b].append((e.a, i)) }
        self.vertices = verts
        self.hasHeights = hasHeights
        self.edges = edges
        self.adjacency = adj
        let f = verts.first.flatMap { try? LocalTangentFrame(origin: GeodeticCoordinate(latitude: $0.latitude, longitude: $0.longitude, ellipsoidalHeight: 0)) }
        self.frame = f
        let enu = f.map { f in verts.map { f.enu(latitude: $0.latitude, longitude: $0.longitude, ellipsoidalHeight: 0) } } ?? []
        self.ups = enu.map(\.up)
        self.index = f.map { _ in
            let planar = enu.map { PlanarPoint($0) }
            return SegmentGrid(lines: edges.map { PlanarPolyline([planar[$0.a], planar[$0.b]]) })
        }
    }

    /// Where a point attaches to the network.
    public struct Snap: Sendable, Hashable {
        /// Edge index in ``edges``.
        public var edge: Int
        /// Fraction along the edge from `a` to `b`, [0, 1].
        public var fraction: Double
        /// The attachment point (height interpolated along the edge; 0 m above the ellipsoid on a
        /// network without heights).
        public var point: GeodeticCoordinate
        /// Meters from the point to the attachment point (horizontal).
        public var distance: Double
    }

    /// The nearest point of the network to `p`, or nil for an empty network.
    public func snap(_ p: GeodeticCoordinate, distance: DistanceFunction = RoutingDistance.geodesic) -> Snap? {
        guard let frame, let index, !edges.isEmpty else { return nil }
        let q = PlanarPoint(frame.enu(latitude: p.latitude, longitude: p.longitude, ellipsoidalHeight: 0))
        guard let nearest = index.nearest(to: q) else { return nil }
        let best = nearest.segment, proj = index.project(q, segment: best), bestU = proj.t
        let e = edges[best]
        let va = vertices[e.a], vb = vertices[e.b]
        let g = frame.geodetic(east: proj.point.x, north: proj.point.y, up: ups[e.a] + bestU * (ups[e.b] - ups[e.a]))
        let point = GeodeticCoordinate(latitude: g.latitude, longitude: g.longitude,
                                       height: va.height + bestU * (vb.height - va.height), verticalReference: va.verticalReference)
        return Snap(edge: best, fraction: bestU, point: point, distance: distance(p, point))
    }

    /// Shortest walking paths (by distance, Dijkstra) between every ordered pair of `points`.
    /// Each point is joined to its snap by a straight access leg. Pairs that are not connected,
    /// or points farther than `maxSnapDistance` meters from every path, get `+∞` entries (the
    /// planner reports them as unreachable).
    ///
    /// Heights: with ``hasHeights`` the climbs and walking time follow the paths' heights edge
    /// by edge, and an access leg climbs from the point's height to its snap's (a point whose
    /// height is not known should be given its snap's height, ``snap(_:distance:)``, as
    /// ``RoutePlanner`` does for a ``RouteStop`` without ``RouteStop/hasHeight``). Without
    /// heights the paths' slopes are unknown: a walk climbs the height difference of its two
    /// points, spread evenly along it (ascent `max(0, Δh)`, descent `max(0, −Δh)`, walking time
    /// at the mean slope) — a lower bound of the climbs the real paths may hold.
    /// - Throws: ``RoutingError/mixedVerticalReferences(_:)`` when the points' heights and the
    ///   network's vertex heights (with ``hasHeights``) are not all above one datum;
    ///   ``RoutingError/invalidWalkingModel(_:)`` when `walking` fails ``WalkingModel/validate()``.
    public func costs(between points: [GeodeticCoordinate], maxSnapDistance: Double = 100,
                      walking: WalkingModel = .tobler, distance: DistanceFunction = RoutingDistance.geodesic) throws(RoutingError) -> RoutingCosts {
        try walking.check()
        let nv0 = hasHeights ? vertices.count : 0
        try RoutingCosts.checkOneDatum((hasHeights ? vertices : []) + points,
                                       names: { $0 < nv0 ? "network vertex \($0)" : "point \($0 - nv0)" })
        let n = points.count
        let inf = Double.infinity
        var dist = CostMatrix(count: n), time = CostMatrix(count: n), up = CostMatrix(count: n), down = CostMatrix(count: n)
        let g = augmented(points: points, maxSnapDistance: maxSnapDistance, distance: distance)
        let snaps = g.snaps, node = g.node, adj = g.adjacency, heights = g.heights
        for i in 0..<n {
            guard node[i] >= 0, let si = snaps[i] else {
                for j in 0..<n where j != i { dist[i, j] = inf; dist[j, i] = inf; time[i, j] = inf; time[j, i] = inf }
                continue
            }
            let r = dijkstra(from: node[i], adj: adj, heights: heights, walking: walking)
            for j in 0..<n where j != i {
                guard node[j] >= 0, let sj = snaps[j], r.dist[node[j]].isFinite else { dist[i, j] = inf; time[i, j] = inf; continue }
                let hi = points[i].height, hj = points[j].height
                dist[i, j] = si.distance + r.dist[node[j]] + sj.distance
                guard hasHeights else {
                    // No slopes of its own: the points' height difference over the whole walk.
                    let dh = hj - hi
                    time[i, j] = walking.duration(horizontalDistance: dist[i, j], heightChange: dh)
                    up[i, j] = max(0, dh) + 0; down[i, j] = max(0, -dh) + 0
                    continue
                }
                // Access legs: point i → its snap, snap j → point j.
                let accessIn = walking.duration(horizontalDistance: si.distance, heightChange: si.point.height - hi)
                let accessOut = walking.duration(horizontalDistance: sj.distance, heightChange: hj - sj.point.height)
                time[i, j] = accessIn + r.time[node[j]] + accessOut
                up[i, j] = max(0, si.point.height - hi) + r.up[node[j]] + max(0, hj - sj.point.height)
                down[i, j] = max(0, hi - si.point.height) + r.down[node[j]] + max(0, sj.point.height - hj)
            }
        }
        return (try? RoutingCosts(distances: dist, durations: time, ascents: up, descents: down))!
    }

    /// The network plus one node per snapped point (index `vertices.count + i` for point i);
    /// snaps on the same edge are chained in order of their fractions.
    private func augmented(points: [GeodeticCoordinate], maxSnapDistance: Double, distance: DistanceFunction)
        -> (snaps: [Snap?], node: [Int], adjacency: [[(to: Int, length: Double)]], heights: [Double]) {
        let n = points.count
        let snaps = points.map { p -> Snap? in
            guard let s = snap(p, distance: distance), s.distance <= maxSnapDistance else { return nil }
            return s
        }
        let nv = vertices.count
        var adj: [[(to: Int, length: Double)]] = adjacency.map { $0.map { ($0.to, edges[$0.edge].length) } }
        var heights = vertices.map(\.height)
        var node = [Int](repeating: -1, count: n)
        var byEdge: [Int: [(Double, Int)]] = [:]
        for (i, s) in snaps.enumerated() {
            guard let s else { continue }
            node[i] = nv + i
            byEdge[s.edge, default: []].append((s.fraction, i))
        }
        adj.append(contentsOf: [[(to: Int, length: Double)]](repeating: [], count: n))
        heights.append(contentsOf: snaps.map { $0?.point.height ?? 0 })
        for (e, list) in byEdge {
            let edge = edges[e]
            let chain = [(0.0, edge.a)] + list.sorted { $0.0 < $1.0 }.map { ($0.0, nv + $0.1) } + [(1.0, edge.b)]
            for k in 1..<chain.count {
                let (u0, x) = chain[k - 1], (u1, y) = chain[k]
                let l = (u1 - u0) * edge.length
                adj[x].append((y, l)); adj[y].append((x, l))
            }
        }
        return (snaps, node, adj, heights)
    }

    /// The shortest walking path (by distance) of each leg `(i, j)` between `points[i]` and
    /// `points[j]`: the point, its snap onto the network, the network vertices walked, the other
    /// snap, the other point (consecutive duplicates removed). A leg whose points cannot be
    /// snapped within `maxSnapDistance` or are not connected gets the straight line. On a network
    /// without heights the path's heights go evenly (by distance) from the first point's height
    /// to the second's, in the points' vertical reference, as
    /// ``costs(between:maxSnapDistance:walking:distance:)`` prices them.
    public func walkingPaths(between points: [GeodeticCoordinate], legs: [(Int, Int)], maxSnapDistance: Double = 100,
                             distance: DistanceFunction = RoutingDistance.geodesic) -> [[GeodeticCoordinate]] {
        let g = augmented(points: points, maxSnapDistance: maxSnapDistance, distance: distance)
        let nv = vertices.count
        var trees: [Int: [Int]] = [:]
        return legs.map { (i, j) -> [GeodeticCoordinate] in
            let straight = [points[i], points[j]]
            guard g.node[i] >= 0, g.node[j] >= 0, let si = g.snaps[i], let sj = g.snaps[j] else { return straight }
            if trees[i] == nil { trees[i] = dijkstra(from: g.node[i], adj: g.adjacency, heights: g.heights, walking: .tobler).previous }
            let prev = trees[i]!
            var chain: [Int] = [g.node[j]]
            while let last = chain.last, last != g.node[i] {
                let p = prev[last]
                guard p >= 0 else { return straight }
                chain.append(p)
            }
            var out: [GeodeticCoordinate] = [points[i]]
            for v in chain.reversed() {
                let c = v < nv ? vertices[v] : (v - nv == i ? si.point : v - nv == j ? sj.point : g.snaps[v - nv]!.point)
                if out.last != c { out.append(c) }
            }
            if out.last != points[j] { out.append(points[j]) }
            return hasHeights ? out : Self.evenHeights(out, from: points[i], to: points[j], distance: distance)
        }
    }

    /// `path` with heights going evenly (by distance along it) from `a`'s to `b`'s, above their datum.
    private static func evenHeights(_ path: [GeodeticCoordinate], from a: GeodeticCoordinate, to b: GeodeticCoordinate,
                                    distance: DistanceFunction) -> [GeodeticCoordinate] {
        var along = [0.0]
        for k in path.indices.dropFirst() { along.append(along[k - 1] + distance(path[k - 1], path[k])) }
        let total = along.last!
        return path.indices.map { k in
            let f = total > 0 ? along[k] / total : 0
            let h = k == path.count - 1 ? b.height : a.height + f * (b.height - a.height)
            return GeodeticCoordinate(latitude: path[k].latitude, longitude: path[k].longitude,
                                      height: h, verticalReference: a.verticalReference)
        }
    }

    /// Dijkstra by distance with a binary heap; time/ascent/descent follow the shortest-distance
    /// tree, `previous` is that tree (−1 at the source and unreached nodes).
    private func dijkstra(from s: Int, adj: [[(to: Int, length: Double)]], heights: [Double],
                          walking: WalkingModel) -> (dist: [Double], time: [Double], up: [Double], down: [Double], previous: [Int]) {
        let count = adj.count
        var dist = [Double](repeating: .infinity, count: count)
        var time = dist, up = dist, down = dist
        var done = [Bool](repeating: false, count: count)
        var previous = [Int](repeating: -1, count: count)
        var heap = BinaryHeap()
        dist[s] = 0; time[s] = 0; up[s] = 0; down[s] = 0
        heap.push(0, s)
        while let (d, u) = heap.pop() {
            if done[u] || d > dist[u] { continue }
            done[u] = true
            for (v, l) in adj[u] {
                let nd = d + l
                if nd < dist[v] {
                    dist[v] = nd
                    previous[v] = u
                    let dh = heights[v] - heights[u]
                    time[v] = time[u] + walking.duration(horizontalDistance: l, heightChange: dh)
                    up[v] = up[u] + max(0, dh)
                    down[v] = down[u] + max(0, -dh)
                    heap.push(nd, v)
                }
            }
        }
        return (dist, time, up, down, previous)
    }
}

/// Min-heap of (key, value) for Dijkstra.
struct BinaryHeap {
    private var keys: [Double] = []
    private var values: [Int] = []
    mutating func push(_ k: Double, _ v: Int) {
        keys.append(k); values.append(v)
        var i = keys.count - 1
        while i > 0 {
            let p = (i - 1) / 2
            if keys[p] <= keys[i] { break }
            keys.swapAt(p, i); values.swapAt(p, i); i = p
        }
    }
    mutating func pop() -> (Double, Int)? {
        guard !keys.isEmpty else { return nil }
        let top = (keys[0], values[0])
        let lastK = keys.removeLast(), lastV = values.removeLast()
        if !keys.isEmpty {
            keys[0] = lastK; values[0] = lastV
            var i = 0
            while true {
                let l = 2 * i + 1, r = l + 1
                var m = i
                if l < keys.count && keys[l] < keys[m] { m = l }
                if r < keys.count && keys[r] < keys[m] { m = r }
                if m == i { break }
                keys.swapAt(m, i); values.swapAt(m, i); i = m
            }
        }
        return top
    }
}

extension PathNetwork {
    /// The network of every LineString and MultiLineString in a GeoJSON collection (also inside
    /// GeometryCollections); other geometries are ignored. Heights come from the positions'
    /// optional third coordinate (above the WGS84 ellipsoid, RFC 7946): all positions have one
    /// (``hasHeights``) or none (a network without heights).
    /// - Throws: ``RoutingError/malformedInput(source:line:reason:)`` when there is no line, a
    ///   line has fewer than 2 positions, or some positions have a height and others not — the
    ///   missing ones would be 0 m, a phantom climb (the reason names the feature, 1-based).
    public init(geoJSON collection: GeoJSONFeatureCollection, source: String = "<geojson>",
                distance: DistanceFunction = RoutingDistance.geodesic) throws(RoutingError) {
        var lines: [[GeoJSONPosition]] = []
        var featureOf: [Int] = []
        func collect(_ g: GeoJSONGeometry, _ f: Int) {
            switch g {
            case .lineString(let p): lines.append(p); featureOf.append(f)
            case .multiLineString(let ls): for p in ls { lines.append(p); featureOf.append(f) }
            case .geometryCollection(let gs): for x in gs { collect(x, f) }
            default: break
            }
        }
        for (i, f) in collection.features.enumerated() { if let g = f.geometry { collect(g, i) } }
        guard !lines.isEmpty else { throw .malformedInput(source: source, line: nil, reason: "no LineString in the GeoJSON") }
        // The first position decides; a line without positions is refused by init(lineStrings:).
        let hasHeights = lines.lazy.flatMap { $0 }.first.map { $0.height != nil } ?? true
        for (l, line) in lines.enumerated() {
            guard let k = line.firstIndex(where: { ($0.height != nil) != hasHeights }) else { continue }
            let p = line[k]
            let at = String(format: "(%.7f, %.7f)", p.latitude, p.longitude)
            throw .malformedInput(source: source, line: nil, reason: "feature \(featureOf[l] + 1): position \(k + 1) \(at) has "
                + (hasHeights ? "no height, the first path position has one" : "a height, the first path position has none")
                + "; give every path position a height (third coordinate) or none")
        }
        do { try self.init(lineStrings: lines.map { $0.map(\.coordinate) }, distance: distance, hasHeights: hasHeights) } catch {
            if case .malformedInput(_, let l?, let r) = error {
                throw .malformedInput(source: source, line: nil, reason: "feature \(featureOf[l - 1] + 1): \(r)")
            }
            throw error
        }
    }
}

extension PathNetwork {
    /// The network of a GPX file's paths — a trail exported from OpenStreetMap, an outdoor app
    /// or a GPS: each track segment (`trkseg`) is a path, or, in a file without track points,
    /// each route (`rte`); waypoints are not paths and times are not needed
    /// (``GPXReader/lines(url:options:)``).
    ///
    /// Heights: `<ele>`, which GPX gives above mean sea level, when every point has one (the
    /// network's heights are then MSL: give stops MSL altitudes, or none to take the paths'
    /// heights); no heights when no point has one.
    /// - Parameters:
    ///   - url: the GPX file.
    ///   - options: invalid-point handling (``TraceReadConfiguration/skipInvalid``).
    ///   - distance: as in ``init(lineStrings:distance:hasHeights:)``.
    /// - Throws: ``RoutingError/malformedInput(source:line:reason:)`` for a file that is not
    ///   GPX or has a bad point (with its line), no track or route with points, a path of one
    ///   point, or some points with `<ele>` and others without (the missing ones would make
    ///   phantom climbs; the reason names the segment and point, 1-based).
    public init(gpx url: URL, options: TraceReadConfiguration = TraceReadConfiguration(),
                distance: DistanceFunction = RoutingDistance.geodesic) throws(RoutingError) {
        let read = try Self.reading { () throws(TraceFormatError) in try GPXReader.linePoints(url: url, options: options) }
        try self.init(fileLines: read.lines.map { $0.map { p in
            (GeodeticCoordinate(latitude: p.latitude, longitude: p.longitude, altitude: p.height ?? 0), p.height != nil)
        } }, source: url.path, kind: read.areRoutes ? "route" : "track segment", what: "track segment or route with points",
                      height: ("no <ele>", "an <ele>"), distance: distance)
    }

    /// A network from a TCX file's tracks — a course planned in Garmin Connect, Ride with GPS or
    /// Strava (``TCXReader/lines(url:options:)``): each `Track` is a path.
    ///
    /// Heights: `AltitudeMeters` (MSL) when every trackpoint has one, as in
    /// ``init(gpx:options:distance:)``; none when no trackpoint has one.
    /// - Throws: ``RoutingError/malformedInput(source:line:reason:)`` for a file that is not TCX
    ///   or has a bad trackpoint (with its line), no track with positions, a track of one point,
    ///   or some trackpoints with an altitude and others without (the reason names the track and
    ///   point, 1-based).
    public init(tcx url: URL, options: TraceReadConfiguration = TraceReadConfiguration(),
                distance: DistanceFunction = RoutingDistance.geodesic) throws(RoutingError) {
        try self.init(fileLines: Self.reading { () throws(TraceFormatError) in try TCXReader.linePoints(url: url, options: options) }, source: url.path, kind: "Track", what: "Track with positioned trackpoints",
                      height: ("no AltitudeMeters", "AltitudeMeters"), distance: distance)
    }

    /// A network from a FIT file's records — a course file from Garmin Connect, Ride with GPS,
    /// Komoot or GPSBabel (``FITReader/lines(url:options:)``): the positioned records of each
    /// (chained) FIT file are a path.
    ///
    /// Heights: the records' altitude (MSL) when every one has one; none when none has.
    /// - Throws: ``RoutingError/malformedInput(source:line:reason:)`` for a file that is not FIT
    ///   or is corrupt (with the byte offset), no positioned record, a path of one point, or
    ///   some records with an altitude and others without.
    public init(fit url: URL, options: TraceReadConfiguration = TraceReadConfiguration(),
                distance: DistanceFunction = RoutingDistance.geodesic) throws(RoutingError) {
        try self.init(fileLines: Self.reading { () throws(TraceFormatError) in try FITReader.linePoints(url: url, options: options) }, source: url.path, kind: "FIT file", what: "record with a position",
                      height: ("no altitude", "an altitude"), distance: distance)
    }

    /// What a reader read from a path file, its ``TraceFormatError`` (bad value, not the format)
    /// as the network's ``RoutingError/malformedInput(source:line:reason:)``.
    static func reading<T>(_ read: () throws(TraceFormatError) -> T) throws(RoutingError) -> T {
        do { return try read() } catch { throw .malformedInput(source: error.source, line: error.line, reason: error.message) }
    }

    /// A network from a file's lines whose points each have a height or not: all or none must
    /// (missing ones would be 0 m, phantom climbs). `kind` names a line in errors ("track
    /// segment 2"), `what` what the file lacks when it has no line, `height` how a point lacks or
    /// has a height.
    init(fileLines lines: [[(coordinate: GeodeticCoordinate, hasHeight: Bool)]], source: String, kind: String, what: String,
         height: (none: String, some: String), distance: DistanceFunction) throws(RoutingError) {
        guard let first = lines.first?.first else {
            throw .malformedInput(source: source, line: nil, reason: "no \(what) to use as paths")
        }
        let hasHeights = first.hasHeight
        for (l, line) in lines.enumerated() {
            guard let k = line.firstIndex(where: { $0.hasHeight != hasHeights }) else { continue }
            throw .malformedInput(source: source, line: nil, reason: "\(kind) \(l + 1), point \(k + 1) has "
                + (hasHeights ? "\(height.none), the first point has one" : "\(height.some), the first point has none")
                + "; give every path point an elevation or none")
        }
        let coordinates = lines.map { line in
            line.map { p in hasHeights ? p.coordinate : GeodeticCoordinate(latitude: p.coordinate.latitude, longitude: p.coordinate.longitude) }
        }
        do { try self.init(lineStrings: coordinates, distance: distance, hasHeights: hasHeights) } catch {
            if case .malformedInput(_, let l?, let r) = error {
                throw .malformedInput(source: source, line: nil, reason: "\(kind) \(l): \(r)")
            }
            throw error
        }
    }
}

extension PathNetwork {
    /// A network from a KML or KMZ file's `LineString`s (a walking path drawn in Google My Maps
    /// or Google Earth; ``KMLReader/lines(url:options:)``), without heights: KML line altitudes
    /// are usually clamped to the ground (My Maps writes `,0`), not heights of the path, so
    /// stops keep their own altitudes and climbs come from them
    /// (``init(lineStrings:distance:hasHeights:)`` with `hasHeights` false).
    /// - Parameters:
    ///   - url: the `.kml` or `.kmz` file.
    ///   - options: invalid-placemark handling (``TraceReadConfiguration/skipInvalid``).
    ///   - distance: as in ``init(lineStrings:distance:hasHeights:)``.
    /// - Throws: ``RoutingError/malformedInput(source:line:reason:)`` for a file that is not KML
    ///   or KMZ or has a bad coordinate (with its line), no `LineString`, or a line of one position
    ///   (the reason names it, 1-based).
    public init(kml url: URL, options: TraceReadConfiguration = TraceReadConfiguration(),
                distance: DistanceFunction = RoutingDistance.geodesic) throws(RoutingError) {
        let lines = try Self.reading { () throws(TraceFormatError) in try KMLReader.lines(url: url, options: options) }
        guard !lines.isEmpty else {
            throw .malformedInput(source: url.path, line: nil, reason: "no LineString to use as paths")
        }
        do { try self.init(lineStrings: lines, distance: distance, hasHeights: false) } catch {
            if case .malformedInput(_, let l?, let r) = error {
                throw .malformedInput(source: url.path, line: nil, reason: "LineString \(l): \(r)")
            }
            throw error
        }
    }
}
