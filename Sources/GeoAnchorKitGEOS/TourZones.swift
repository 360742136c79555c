import CGEOS
import Foundation
import GeoAnchorKit

/// A tour's zones (and path) as GEOS geometries in the tour session's local metric frame.
///
/// Feeds ``TourSession`` with signed distances to the zone boundaries (``TourZoneEvaluator``):
/// each zone is prepared twice — the polygon, for the inside test (`covers`, boundary counts as
/// inside), and its boundary, for the distance — so a position costs O(log n) per zone.
///
/// A zone is the union of its polygons, as in the core's `PlanarTourZones` (same answers): the
/// polygons of a MultiPolygon may overlap or repeat each other (real exports do, though RFC 7946
/// says they should not). Such a zone is not a valid MultiPolygon for GEOS, so each of its
/// polygons is validated and prepared on its own and the signed distance is the largest of
/// theirs (positive when any polygon covers the point); ``polygons`` holds the union, for areas,
/// path lengths and nearest points.
///
/// Also offers the analyses a tour author needs: zone areas, the path's length inside each zone,
/// a corridor around the path, a simplified path, the convex hull of the stops, nearest points.
///
/// Not `Sendable` (owns a ``GEOSContext``): one per session/thread.
///
/// - Accuracy: the frame is an exact ENU frame (``LocalTangentFrame``); dropping `up` makes
///   planar lengths slightly short (≤ 1.4 mm per km within 10 km of the tour's centre, see
///   ``PlanarPoint``) and areas relatively by ~(d/R)² — irrelevant at tour scale.
public final class TourZones: TourZoneEvaluator {
    public let context: GEOSContext
    /// The frame of every geometry here (the session's ``TourSession/frame``).
    public let frame: LocalTangentFrame
    /// Zone ids, in tour order.
    public let ids: [String]
    /// Zone polygons, in tour order: a Polygon, or a valid MultiPolygon; for a zone whose
    /// polygons overlap, their union (GEOS `GEOSUnaryUnion`).
    public let polygons: [OwnedGeometry]
    /// The tour path (nil without one).
    public let path: OwnedGeometry?
    /// Stop centres as points.
    public let stops: [OwnedGeometry]
    /// Per zone, the prepared ``polygons`` entry (covers, nearest points).
    private let preparedZones: [PreparedGeometry]
    /// Per zone, what its signed distance is the largest of: the zone itself (a Polygon or a
    /// valid MultiPolygon: one entry), or each of its polygons when they overlap.
    private let parts: [[(area: PreparedGeometry, boundary: PreparedGeometry)]]

    /// Builds the geometries of `tour` in `frame` (pass ``TourSession/frame``).
    /// - Throws: ``GEOSError/invalidGeometry(reason:)`` naming the zone (and, in a MultiPolygon,
    ///   the polygon's index) when a polygon is not valid (self-intersection, …), or other
    ///   ``GEOSError``s. Overlapping polygons of one zone are not an error (see the type's
    ///   discussion).
    public init(tour: Tour, frame: LocalTangentFrame, context: GEOSContext? = nil) throws(GEOSError) {
        let ctx: GEOSContext
        if let context { ctx = context } else { ctx = try GEOSContext() }
        self.context = ctx
        self.frame = frame
        func planar(_ c: GeodeticCoordinate) -> PlanarPoint {
            PlanarPoint(frame.enu(latitude: c.latitude, longitude: c.longitude, ellipsoidalHeight: 0))
        }
        var polys: [OwnedGeometry] = [], pz: [PreparedGeometry] = []
        var parts: [[(area: PreparedGeometry, boundary: PreparedGeometry)]] = []
        for z in tour.zones {
            let polygons = z.polygons.map { $0.map { $0.map(planar) } }
            var poly: OwnedGeometry
            var members: [OwnedGeometry] = []
            do throws(GEOSError) {
                if polygons.count == 1 {
                    poly = try ctx.polygon(shell: polygons[0][0], holes: Array(polygons[0].dropFirst()))
                    try poly.validate()
                } else {
                    // Each polygon valid on its own; together they may overlap.
                    for (k, rings) in polygons.enumerated() {
                        let member = try ctx.polygon(shell: rings[0], holes: Array(rings.dropFirst()))
                        do { try member.validate() } catch {
                            if case .invalidGeometry(let r) = error { throw .invalidGeometry(reason: "polygon \(k): \(r)") }
                            throw error
                        }
                        members.append(member)
                    }
                    // A MultiPolygon through WKT (Swift's shortest round-trip digits: exact).
                    func ring(_ r: [PlanarPoint]) -> String { "(" + r.map { "\($0.x) \($0.y)" }.joined(separator: ", ") + ")" }
                    poly = try ctx.geometry(wkt: "MULTIPOLYGON (" + polygons.map { "(" + $0.map(ring).joined(separator: ", ") + ")" }.joined(separator: ", ") + ")")
                    // Valid (no overlaps): one prepared geometry answers as the largest of its
                    // polygons' signed distances would (a point inside one polygon reaches any
                    // other only across its own boundary). Otherwise each polygon answers.
                    if try poly.isValid() { members = [] } else { poly = try poly.unaryUnion() }
                }
            } catch {
                switch error {
                case .invalidGeometry(let r): throw .invalidGeometry(reason: "zone \"\(z.id)\": \(r)")
                case .invalidInput(let r): throw .invalidInput(reason: "zone \"\(z.id)\": \(r)")
                default: throw error
                }
            }
            let prepared = try PreparedGeometry(poly)
            polys.append(poly)
            pz.append(prepared)
            if members.isEmpty {
                parts.append([(prepared, try PreparedGeometry(poly.boundary()))])
            } else {
                var ps: [(area: PreparedGeometry, boundary: PreparedGeometry)] = []
                for m in members { ps.append((try PreparedGeometry(m), try PreparedGeometry(m.boundary()))) }
                parts.append(ps)
            }
        }
        ids = tour.zones.map(\.id)
        polygons = polys; preparedZones = pz; self.parts = parts
        path = tour.path.count >= 2 ? try ctx.lineString(tour.path.map(planar)) : nil
        var st: [OwnedGeometry] = []
        for s in tour.stops { st.append(try ctx.point(planar(s.coordinate))) }
        stops = st
    }

    /// Convenience: the zones of a running session, in its frame.
    public convenience init(session: TourSession, context: GEOSContext? = nil) throws(GEOSError) {
        try self.init(tour: session.tour, frame: session.frame, context: context)
    }

    // MARK: TourZoneEvaluator

    /// Signed distance (m) from `point` to each zone's boundary, positive inside.
    public func signedDistances(at point: PlanarPoint, into result: inout [Double]) throws {
        guard !polygons.isEmpty else { return }
        let p = try context.point(point)
        for i in polygons.indices { result[i] = try signedDistance(zone: i, at: p) }
    }

    /// Signed distance for one point (convenience for tests and tools).
    public func signedDistance(zone i: Int, at point: PlanarPoint) throws(GEOSError) -> Double {
        try signedDistance(zone: i, at: context.point(point))
    }

    /// The largest signed distance of zone `i`'s parts (the zone, or its overlapping polygons).
    private func signedDistance(zone i: Int, at p: OwnedGeometry) throws(GEOSError) -> Double {
        var best = -Double.infinity
        for part in parts[i] {
            let d = try part.boundary.distance(to: p)
            best = Swift.max(best, try part.area.covers(p) ? d : -d)
        }
        return best
    }

    // MARK: analyses

    /// Area of each zone, m² (holes subtracted).
    public func zoneAreas() throws(GEOSError) -> [Double] {
        var out: [Double] = []
        for p in polygons { out.append(try p.area()) }
        return out
    }

    /// For each zone, the part of the path inside it (GEOS intersection) and its length (m).
    /// Empty (length 0) when the path misses the zone or there is no path.
    public func pathInsideZones() throws(GEOSError) -> [(id: String, length: Double, geometry: OwnedGeometry?)] {
        var out: [(String, Double, OwnedGeometry?)] = []
        for (i, z) in polygons.enumerated() {
            guard let path else { out.append((ids[i], 0, nil)); continue }
            let g = try path.intersection(z)
            out.append((ids[i], try g.length(), g))
        }
        return out
    }

    /// The area within `halfWidth` m of the path (flat ends, round joins): the off-route
    /// corridor as a polygon. Nil without a path.
    public func corridor(halfWidth: Double) throws(GEOSError) -> OwnedGeometry? {
        try path?.buffer(halfWidth, cap: .flat, join: .round)
    }

    /// The path simplified with topology-preserving Douglas–Peucker (`tolerance` m), back in
    /// degrees (height 0). Nil without a path.
    public func simplifiedPath(tolerance: Double) throws(GEOSError) -> [GeodeticCoordinate]? {
        guard let path else { return nil }
        return try path.simplifiedPreservingTopology(tolerance: tolerance).points().map { p in
            let g = frame.geodetic(east: p.x, north: p.y, up: 0)
            return GeodeticCoordinate(latitude: g.latitude, longitude: g.longitude, ellipsoidalHeight: 0)
        }
    }

    /// The convex hull of the stops (a Polygon, or a LineString/Point for ≤ 2 distinct stops).
    public func stopsHull() throws(GEOSError) -> OwnedGeometry {
        let wkt = "MULTIPOINT (" + (try stops.map { (g: OwnedGeometry) throws(GEOSError) -> String in
            let p = try g.points()[0]
            return "(\(p.x) \(p.y))"
        }).joined(separator: ", ") + ")"
        return try context.geometry(wkt: wkt).convexHull()
    }

    /// The closest points of zone `i` and `point` (e.g. where to walk to reach a zone).
    public func nearestPoints(zone i: Int, to point: PlanarPoint) throws(GEOSError) -> (onZone: PlanarPoint, onPoint: PlanarPoint) {
        let r = try preparedZones[i].nearestPoints(to: context.point(point))
        return (r.onSelf, r.onOther)
    }
}

@available(*, unavailable)
extension TourZones: Sendable {}
