import CGEOS
import Foundation
import GeoAnchorKit

/// How buffer ends and corners are shaped (GEOS `GEOSBufCapStyles` / `GEOSBufJoinStyles`).
public enum BufferCapStyle: Int32, Sendable, Hashable { case round = 1, flat = 2, square = 3 }
/// See ``BufferCapStyle``.
public enum BufferJoinStyle: Int32, Sendable, Hashable { case round = 1, mitre = 2, bevel = 3 }

extension OwnedGeometry {
    /// Most segments per quarter circle ``buffer(_:quadrantSegments:cap:join:mitreLimit:)``
    /// takes: 1000 already leaves a chord-to-arc gap of 3·10⁻⁷ of the distance.
    public static let maximumQuadrantSegments = 1000

    /// The area within `distance` meters (negative shrinks polygons).
    ///
    /// - Parameters:
    ///   - distance: meters.
    ///   - quadrantSegments: segments per quarter circle for round caps/joins (≥ 1; 8 gives a
    ///     largest chord-to-arc gap of (1 − cos(π/32))·d ≈ 0.48 % of `distance`).
    /// - Accuracy: round ends are polygons inscribed in the circle: a point buffered with q
    ///   quadrant segments has area (n/2)·d²·sin(2π/n), n = 4q — 0.64 % below πd² for q = 8
    ///   (checked against that formula to 1e-9 in the tests).
    /// - Throws: ``GEOSError/invalidInput(reason:)`` for |`distance`| beyond
    ///   ``GEOSContext/maximumCoordinate`` (a point buffered by 1e155 m had area NaN),
    ///   `quadrantSegments` outside 1…``maximumQuadrantSegments`` (Int32 conversion trapped
    ///   beyond 2³¹ − 1; 10⁶ made a 4·10⁶-vertex circle), or a `mitreLimit` that is not a finite
    ///   number > 0 (NaN made GEOS fail deep inside with "encountered NaN/Inf numbers").
    public func buffer(_ distance: Double, quadrantSegments: Int = 8, cap: BufferCapStyle = .round,
                       join: BufferJoinStyle = .round, mitreLimit: Double = 5) throws(GEOSError) -> OwnedGeometry {
        guard distance.isFinite, abs(distance) <= GEOSContext.maximumCoordinate else {
            throw .invalidInput(reason: "buffer distance \(distance) m is not finite and within ±\(GEOSContext.maximumCoordinate) m")
        }
        guard (1...Self.maximumQuadrantSegments).contains(quadrantSegments) else {
            throw .invalidInput(reason: "quadrantSegments \(quadrantSegments) is outside 1…\(Self.maximumQuadrantSegments)")
        }
        guard mitreLimit.isFinite, mitreLimit > 0 else { throw .invalidInput(reason: "mitreLimit \(mitreLimit) must be a finite number > 0") }
        // GEOSBufferWithStyle_r: new geometry, NULL on exception.
        return try context.make("GEOSBufferWithStyle_r") {
            GEOSBufferWithStyle_r(context.handle, pointer, distance, Int32(quadrantSegments), cap.rawValue, join.rawValue, mitreLimit)
        }
    }

    /// Douglas–Peucker simplification that keeps the topology (no new self-intersections, holes
    /// stay inside), `tolerance` in meters: every removed vertex lies within `tolerance` of the
    /// result.
    public func simplifiedPreservingTopology(tolerance: Double) throws(GEOSError) -> OwnedGeometry {
        guard tolerance.isFinite, tolerance >= 0 else { throw .invalidInput(reason: "simplify tolerance \(tolerance) must be finite and ≥ 0") }
        // GEOSTopologyPreserveSimplify_r: new geometry, NULL on exception.
        return try context.make("GEOSTopologyPreserveSimplify_r") { GEOSTopologyPreserveSimplify_r(context.handle, pointer, tolerance) }
    }

    /// The smallest convex polygon containing the geometry.
    public func convexHull() throws(GEOSError) -> OwnedGeometry {
        // GEOSConvexHull_r: new geometry, NULL on exception.
        try context.make("GEOSConvexHull_r") { GEOSConvexHull_r(context.handle, pointer) }
    }

    /// The boundary: the rings of a polygon (as a LineString or MultiLineString), the end points
    /// of a line.
    public func boundary() throws(GEOSError) -> OwnedGeometry {
        // GEOSBoundary_r: new geometry, NULL on exception.
        try context.make("GEOSBoundary_r") { GEOSBoundary_r(context.handle, pointer) }
    }

    /// The point-set union of the geometry's parts (e.g. the overlapping polygons of a
    /// MultiPolygon merged into a valid MultiPolygon or Polygon); each part must be valid.
    public func unaryUnion() throws(GEOSError) -> OwnedGeometry {
        // GEOSUnaryUnion_r: new geometry, NULL on exception.
        try context.make("GEOSUnaryUnion_r") { GEOSUnaryUnion_r(context.handle, pointer) }
    }

    /// The point-set intersection (e.g. the parts of a path inside a zone).
    public func intersection(_ other: OwnedGeometry) throws(GEOSError) -> OwnedGeometry {
        precondition(other.context === context, "geometries from different GEOS contexts")
        // GEOSIntersection_r: new geometry, NULL on exception.
        return try context.make("GEOSIntersection_r") { GEOSIntersection_r(context.handle, pointer, other.pointer) }
    }

    /// Minimum Euclidean distance in meters (0 if they intersect).
    public func distance(to other: OwnedGeometry) throws(GEOSError) -> Double {
        precondition(other.context === context, "geometries from different GEOS contexts")
        var d = 0.0
        // GEOSDistance_r: 1 on success, 0 on exception.
        try context.status("GEOSDistance_r") { GEOSDistance_r(context.handle, pointer, other.pointer, &d) }
        return d
    }

    /// The closest pair of points: `onSelf` on this geometry, `onOther` on `other`.
    public func nearestPoints(to other: OwnedGeometry) throws(GEOSError) -> (onSelf: PlanarPoint, onOther: PlanarPoint) {
        precondition(other.context === context, "geometries from different GEOS contexts")
        context.clearMessages()
        // GEOSNearestPoints_r: new 2-point sequence (caller destroys), NULL on exception or empty input.
        guard let seq = GEOSNearestPoints_r(context.handle, pointer, other.pointer) else {
            throw context.failure("GEOSNearestPoints_r")
        }
        defer { GEOSCoordSeq_destroy_r(context.handle, seq) }
        return try context.twoPoints(seq, function: "GEOSNearestPoints_r")
    }

    /// Whether this geometry contains `other` (no point of `other` outside, one inside).
    public func contains(_ other: OwnedGeometry) throws(GEOSError) -> Bool {
        // GEOSContains_r: 1 true, 0 false, 2 exception.
        try context.predicate("GEOSContains_r") { GEOSContains_r(context.handle, pointer, other.pointer) }
    }

    /// Whether the two geometries share at least one point.
    public func intersects(_ other: OwnedGeometry) throws(GEOSError) -> Bool {
        // GEOSIntersects_r: 1 true, 0 false, 2 exception.
        try context.predicate("GEOSIntersects_r") { GEOSIntersects_r(context.handle, pointer, other.pointer) }
    }
}

extension GEOSContext {
    /// Reads the two points of a nearest-points sequence.
    func twoPoints(_ seq: OpaquePointer, function: String) throws(GEOSError) -> (PlanarPoint, PlanarPoint) {
        var x0 = 0.0, y0 = 0.0, x1 = 0.0, y1 = 0.0
        // GEOSCoordSeq_getXY_r: 1 on success, 0 on exception (index out of range).
        try status(function + "/GEOSCoordSeq_getXY_r") { GEOSCoordSeq_getXY_r(handle, seq, 0, &x0, &y0) }
        try status(function + "/GEOSCoordSeq_getXY_r") { GEOSCoordSeq_getXY_r(handle, seq, 1, &x1, &y1) }
        return (PlanarPoint(x: x0, y: y0), PlanarPoint(x: x1, y: y1))
    }
}
