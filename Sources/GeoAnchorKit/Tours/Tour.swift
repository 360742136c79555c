import Foundation

/// A stop of a tour: a point of interest with a circular trigger area.
public struct TourStop: Sendable, Hashable, Codable {
    /// Unique among the tour's stops.
    public var id: String
    /// Degrees (WGS84). The height is ignored by geofencing (2-D fences).
    public var coordinate: GeodeticCoordinate
    /// Trigger radius in meters, in ``radiusRange`` (0, 100 km]: the visitor has arrived when
    /// they are within this horizontal distance of ``coordinate``.
    public var radius: Double
    /// Optional display name (GeoJSON property `name`).
    public var name: String?

    public init(id: String, coordinate: GeodeticCoordinate, radius: Double, name: String? = nil) {
        self.id = id; self.coordinate = coordinate; self.radius = radius; self.name = name
    }

    /// Largest trigger radius, meters: 100 km, the scale of a whole tour
    /// (``TourSession/maximumStopDistance``, ``PathNetwork/maximumExtent``). A circle wider than
    /// the tour says nothing about arriving at a point of interest (an area that large is a
    /// ``TourZone``), and the session measures distances in its local plane, whose distance to a
    /// point 100 km away is short by ≈ d³/(6R²) ≈ 4 m (``PlanarPoint``), while beyond a quarter
    /// meridian (≈ 10,000 km) the plane folds over the globe (the antipode maps onto the origin)
    /// and "within r" loses its meaning. Before this bound, 1e300 m was accepted.
    public static let maximumRadius = 100_000.0

    /// The radii a stop accepts: (0, ``maximumRadius``] m.
    public static let radiusRange = ValueRange(lower: .exclusive(0), upper: .inclusive(maximumRadius), unit: "m")
}

/// A polygonal zone (a square, a courtyard, a quiet area): one polygon or several (a GeoJSON
/// Polygon or MultiPolygon). Rings are closed (first == last), coordinates in degrees; in each
/// polygon the first ring is the outer boundary, the others holes.
public struct TourZone: Sendable, Hashable, Codable {
    /// Unique among the tour's zones.
    public var id: String
    /// The polygons, ≥ 1: each its outer ring then its holes, every ring closed (first == last)
    /// with at least 4 positions. The zone is the union of its polygons: they may overlap or
    /// repeat each other (RFC 7946 says a MultiPolygon's should not, real files do), and a point
    /// inside any of them is inside the zone (see ``PlanarTourZones``).
    public var polygons: [[[GeodeticCoordinate]]]
    /// Optional display name.
    public var name: String?

    /// A zone of one polygon: `rings` = outer ring then holes.
    public init(id: String, rings: [[GeodeticCoordinate]], name: String? = nil) {
        self.init(id: id, polygons: [rings], name: name)
    }

    /// A zone of several polygons (a GeoJSON MultiPolygon).
    public init(id: String, polygons: [[[GeodeticCoordinate]]], name: String? = nil) {
        self.id = id; self.polygons = polygons; self.name = name
    }

    /// Every ring of every polygon, in order (outer rings and holes alike).
    public var rings: [[GeodeticCoordinate]] { polygons.flatMap { $0 } }
}

/// A walking tour: ordered stops, zones, and the walking path.
///
/// Stops are visited in array order (the order of the GeoJSON file or the order a `Routing`
/// solver produced). The path is a polyline in degrees; several `"kind": "path"` LineStrings
/// are joined in file order.
public struct Tour: Sendable, Hashable, Codable {
    /// Ordered stops.
    public var stops: [TourStop]
    /// Zones (any order).
    public var zones: [TourZone]
    /// The walking path, ≥ 2 vertices, or empty when the tour has no path (then progress and
    /// off-route detection are unavailable).
    public var path: [GeodeticCoordinate]
    /// Identifier reported with `off_route` / `on_route` events (the path feature's `id`, else `"path"`).
    public var pathID: String

    /// Creates and validates a tour.
    /// - Throws: ``TourError`` for no stops, duplicate or empty ids, radii outside
    ///   ``TourStop/radiusRange`` (the reason names the value and the range), unclosed
    ///   rings, a one-point path or one whose positions are all equal (length 0: no progress, no
    ///   direction), or out-of-range coordinates (feature indices count stops, then zones, then
    ///   the path).
    public init(stops: [TourStop], zones: [TourZone] = [], path: [GeodeticCoordinate] = [], pathID: String = "path") throws(TourError) {
        self.stops = stops; self.zones = zones; self.path = path; self.pathID = pathID
        try validate()
    }

    /// Checks the rules listed at ``init(stops:zones:path:pathID:)``.
    public func validate() throws(TourError) {
        guard !stops.isEmpty else { throw .noStops }
        var seen: [String: Int] = [:]
        for (i, s) in stops.enumerated() {
            if s.id.isEmpty { throw .invalidFeature(index: i, id: s.id, reason: "empty stop id (it names the stop's events)") }
            if let j = seen[s.id] { throw .duplicateID(s.id, firstIndex: j, secondIndex: i) }
            seen[s.id] = i
            do { try TourStop.radiusRange.check(s.radius, name: "stop radius") } catch {
                throw .invalidFeature(index: i, id: s.id, reason: "\(error)")
            }
            do { try s.coordinate.validate() } catch {
                throw .invalidFeature(index: i, id: s.id, reason: "\(error)")
            }
        }
        seen = [:]
        for (k, z) in zones.enumerated() {
            let i = stops.count + k
            if z.id.isEmpty { throw .invalidFeature(index: i, id: z.id, reason: "empty zone id (it names the zone's events)") }
            if let j = seen[z.id] { throw .duplicateID(z.id, firstIndex: j, secondIndex: i) }
            seen[z.id] = i
            guard !z.polygons.isEmpty, z.polygons.allSatisfy({ !$0.isEmpty }) else {
                throw .invalidFeature(index: i, id: z.id, reason: "zone has a polygon without rings")
            }
            for (r, ring) in z.rings.enumerated() {
                guard ring.count >= 4 else {
                    throw .invalidFeature(index: i, id: z.id, reason: "zone ring \(r) has \(ring.count) positions; a closed ring needs ≥ 4")
                }
                guard ring.first!.latitude == ring.last!.latitude, ring.first!.longitude == ring.last!.longitude else {
                    throw .invalidFeature(index: i, id: z.id, reason: "zone ring \(r) is not closed (first position ≠ last)")
                }
                for c in ring {
                    do { try c.validate() } catch { throw .invalidFeature(index: i, id: z.id, reason: "\(error)") }
                }
            }
        }
        if path.count == 1 { throw .invalidFeature(index: stops.count + zones.count, id: pathID, reason: "path has 1 position; a LineString needs ≥ 2") }
        for c in path {
            do { try c.validate() } catch { throw .invalidFeature(index: stops.count + zones.count, id: pathID, reason: "\(error)") }
        }
        if !path.isEmpty && pathID.isEmpty {
            throw .invalidFeature(index: stops.count + zones.count, id: pathID, reason: "empty path id (it names off_route / on_route events)")
        }
        if let reason = Self.zeroLengthPath(path) { throw .invalidFeature(index: stops.count + zones.count, id: pathID, reason: reason) }
    }

    /// Why `path` (≥ 2 positions) has no length — every position the same — or nil. Progress
    /// along such a path is 0 of 0 m and its direction undefined.
    static func zeroLengthPath(_ path: [GeodeticCoordinate]) -> String? {
        guard path.count >= 2, let first = path.first,
              path.allSatisfy({ $0.latitude == first.latitude && $0.longitude == first.longitude }) else { return nil }
        return "path has length 0: all \(path.count) positions are (\(first.latitude), \(first.longitude))"
    }

    /// Index of the stop with `id`, or nil.
    public func stopIndex(id: String) -> Int? { stops.firstIndex { $0.id == id } }
}
