import CGEOS
import Foundation
import GeoAnchorKit

/// A GEOS geometry owned by Swift: destroyed with `GEOSGeom_destroy_r` in `deinit`.
///
/// Coordinates are planar meters in a local frame (``PlanarPoint``: x east, y north), so areas
/// are m², lengths m and buffer distances m. Convert geodetic coordinates with a
/// ``LocalTangentFrame`` first (see ``GEOSContext/polygon(shell:holes:)`` and `TourZones`).
///
/// Keeps its ``context`` alive. Not `Sendable` (the context is not).
public final class OwnedGeometry {
    /// The context that made this geometry; every operation runs on it.
    public let context: GEOSContext
    /// The owned C pointer (`GEOSGeometry *`).
    let pointer: OpaquePointer

    init(context: GEOSContext, pointer: OpaquePointer) {
        self.context = context
        self.pointer = pointer
    }

    deinit {
        // GEOSGeom_destroy_r: void; frees the geometry and its coordinate sequences.
        GEOSGeom_destroy_r(context.handle, pointer)
    }
}

// MARK: - Construction

extension GEOSContext {
    /// A coordinate sequence from planar points. The caller takes ownership.
    private func sequence(_ points: [PlanarPoint], what: String) throws(GEOSError) -> OpaquePointer {
        for (i, p) in points.enumerated() { try Self.check(p, what: "\(what): point \(i)") }
        guard let count = UInt32(exactly: points.count) else { throw .invalidInput(reason: "\(what): \(points.count) points (GEOS takes < 2³²)") }
        clearMessages()
        // GEOSCoordSeq_copyFromBuffer_r: new sequence from interleaved x,y (hasZ 0, hasM 0);
        // NULL on exception.
        let seq: OpaquePointer? = points.withUnsafeBufferPointer { buf in
            buf.withMemoryRebound(to: Double.self) { d in
                GEOSCoordSeq_copyFromBuffer_r(handle, d.baseAddress, count, 0, 0)
            }
        }
        guard let seq else { throw failure("GEOSCoordSeq_copyFromBuffer_r") }
        return seq
    }

    /// Largest |x| and |y| (m) of a coordinate given to or read into GEOS: ``SegmentGrid/maximumCoordinate``
    /// (10⁹ m; any map projection of the Earth stays within 4·10⁷ m). Beyond, GEOS computes
    /// garbage or crashes: a point buffered by 1e155 m has area NaN, and GEOS 3.11's WKT writer
    /// overflows a stack buffer for a coordinate of 1e136 ("stack smashing detected", abort).
    public static let maximumCoordinate = SegmentGrid.maximumCoordinate

    /// Most nested parentheses ``geometry(wkt:)`` accepts (a MULTIPOLYGON needs 3): GEOS's WKT
    /// reader recurses once per level, and 100,000 nested `GEOMETRYCOLLECTION (` overflowed the stack.
    public static let maximumWKTNesting = 64

    /// Throws unless `p` is finite and within ±``maximumCoordinate``.
    static func check(_ p: PlanarPoint, what: String) throws(GEOSError) {
        guard p.x.isFinite, p.y.isFinite else { throw .invalidInput(reason: "\(what) (\(p.x), \(p.y)) is not finite") }
        guard abs(p.x) <= maximumCoordinate, abs(p.y) <= maximumCoordinate else {
            throw .invalidInput(reason: "\(what) (\(p.x), \(p.y)) is beyond ±\(maximumCoordinate) m")
        }
    }

    /// A point geometry.
    /// - Throws: ``GEOSError/invalidInput(reason:)`` for a non-finite coordinate or one beyond ±``maximumCoordinate``.
    public func point(_ p: PlanarPoint) throws(GEOSError) -> OwnedGeometry {
        try Self.check(p, what: "point")
        // GEOSGeom_createPointFromXY_r: new point, NULL on exception.
        return try make("GEOSGeom_createPointFromXY_r") { GEOSGeom_createPointFromXY_r(handle, p.x, p.y) }
    }

    /// A LineString through `points` (at least 2).
    /// - Throws: ``GEOSError/invalidInput(reason:)`` for fewer than 2 or non-finite points.
    public func lineString(_ points: [PlanarPoint]) throws(GEOSError) -> OwnedGeometry {
        guard points.count >= 2 else { throw .invalidInput(reason: "a LineString needs ≥ 2 points, got \(points.count)") }
        let seq = try sequence(points, what: "LineString")
        // GEOSGeom_createLineString_r takes ownership of seq (also on failure); NULL on exception.
        return try make("GEOSGeom_createLineString_r") { GEOSGeom_createLineString_r(handle, seq) }
    }

    /// A linear ring (closed: first point == last point, at least 4 points). Caller owns it.
    private func ring(_ points: [PlanarPoint], what: String) throws(GEOSError) -> OpaquePointer {
        guard points.count >= 4 else {
            throw .invalidInput(reason: "\(what) needs ≥ 4 points (closed, first = last), got \(points.count)")
        }
        guard points.first == points.last else {
            throw .invalidInput(reason: "\(what) is not closed: first point (\(points[0].x), \(points[0].y)) ≠ last point (\(points[points.count - 1].x), \(points[points.count - 1].y))")
        }
        let seq = try sequence(points, what: what)
        clearMessages()
        // GEOSGeom_createLinearRing_r takes ownership of seq; NULL on exception (e.g. not closed).
        guard let r = GEOSGeom_createLinearRing_r(handle, seq) else { throw failure("GEOSGeom_createLinearRing_r") }
        return r
    }

    /// A polygon from a closed shell and closed holes (each ring: first point == last point).
    ///
    /// The polygon is not checked for validity here (GEOS accepts a self-intersecting shell);
    /// call ``OwnedGeometry/validate()`` for that.
    /// - Throws: ``GEOSError/invalidInput(reason:)`` naming the ring for unclosed or short rings.
    public func polygon(shell: [PlanarPoint], holes: [[PlanarPoint]] = []) throws(GEOSError) -> OwnedGeometry {
        let s = try ring(shell, what: "polygon shell")
        var hs: [OpaquePointer?] = []
        for (i, h) in holes.enumerated() {
            do { hs.append(try ring(h, what: "polygon hole \(i)")) } catch {
                GEOSGeom_destroy_r(handle, s)
                for r in hs { GEOSGeom_destroy_r(handle, r) }
                throw error
            }
        }
        // GEOSGeom_createPolygon_r takes ownership of the rings (not of the array); NULL on exception.
        return try make("GEOSGeom_createPolygon_r") {
            hs.withUnsafeMutableBufferPointer { GEOSGeom_createPolygon_r(handle, s, $0.baseAddress, UInt32(holes.count)) }
        }
    }

    /// Parses Well-Known Text (e.g. `"POLYGON ((0 0, 10 0, 10 10, 0 0))"`), coordinates in meters.
    /// - Throws: ``GEOSError/operationFailed(function:message:)`` with GEOS's parse message;
    ///   ``GEOSError/invalidInput(reason:)`` for more than ``maximumWKTNesting`` nested
    ///   parentheses, or a coordinate that is not finite (GEOS reads `NaN`, `inf` and `1e400`,
    ///   the last as +∞) or beyond ±``maximumCoordinate``.
    public func geometry(wkt: String) throws(GEOSError) -> OwnedGeometry {
        var depth = 0
        for u in wkt.utf8 {
            if u == UInt8(ascii: "(") {
                depth += 1
                if depth > Self.maximumWKTNesting {
                    throw .invalidInput(reason: "WKT nests more than \(Self.maximumWKTNesting) parentheses")
                }
            } else if u == UInt8(ascii: ")") { depth -= 1 }
        }
        let g = try parse(wkt: wkt)
        try g.checkCoordinates()
        return g
    }

    private func parse(wkt: String) throws(GEOSError) -> OwnedGeometry {
        clearMessages()
        // GEOSWKTReader_create_r: NULL on exception.
        guard let reader = GEOSWKTReader_create_r(handle) else { throw failure("GEOSWKTReader_create_r") }
        defer { GEOSWKTReader_destroy_r(handle, reader) }
        // GEOSWKTReader_read_r: new geometry, NULL on parse error.
        return try make("GEOSWKTReader_read_r") { GEOSWKTReader_read_r(handle, reader, wkt) }
    }
}

// MARK: - Inspection

extension OwnedGeometry {
    /// GEOS's type name: "Point", "LineString", "Polygon", "MultiPolygon", "GeometryCollection", …
    public var typeName: String {
        // GEOSGeomType_r: string to free with GEOSFree_r; NULL on exception (never for a live geometry).
        guard let s = GEOSGeomType_r(context.handle, pointer) else { return "Unknown" }
        defer { GEOSFree_r(context.handle, s) }
        return String(cString: s)
    }

    /// Whether the geometry has no points.
    public func isEmpty() throws(GEOSError) -> Bool {
        // GEOSisEmpty_r: 1 true, 0 false, 2 exception.
        try context.predicate("GEOSisEmpty_r") { GEOSisEmpty_r(context.handle, pointer) }
    }

    /// Whether the geometry is valid in the OGC Simple Features sense (``validate()`` says why not).
    public func isValid() throws(GEOSError) -> Bool {
        // GEOSisValid_r: 1 true, 0 false, 2 exception.
        try context.predicate("GEOSisValid_r") { GEOSisValid_r(context.handle, pointer) }
    }

    /// Throws ``GEOSError/invalidGeometry(reason:)`` with GEOS's reason and location (e.g.
    /// "Self-intersection[5 5]") unless the geometry is valid in the OGC Simple Features sense.
    public func validate() throws(GEOSError) {
        // GEOSisValid_r: 1 true, 0 false, 2 exception.
        if try context.predicate("GEOSisValid_r", { GEOSisValid_r(context.handle, pointer) }) { return }
        context.clearMessages()
        // GEOSisValidReason_r: string to free with GEOSFree_r; NULL on exception.
        guard let r = GEOSisValidReason_r(context.handle, pointer) else { throw context.failure("GEOSisValidReason_r") }
        defer { GEOSFree_r(context.handle, r) }
        throw .invalidGeometry(reason: String(cString: r))
    }

    /// Area in m² (0 for points and lines).
    public func area() throws(GEOSError) -> Double {
        var a = 0.0
        // GEOSArea_r: 1 on success, 0 on exception.
        try context.status("GEOSArea_r") { GEOSArea_r(context.handle, pointer, &a) }
        return a
    }

    /// Length in m (perimeter for polygons, 0 for points).
    public func length() throws(GEOSError) -> Double {
        var l = 0.0
        // GEOSLength_r: 1 on success, 0 on exception.
        try context.status("GEOSLength_r") { GEOSLength_r(context.handle, pointer, &l) }
        return l
    }

    /// Every coordinate finite and within ±``GEOSContext/maximumCoordinate``, else
    /// ``GEOSError/invalidInput(reason:)`` naming the first bad one.
    func checkCoordinates() throws(GEOSError) {
        func walk(_ g: OpaquePointer, _ what: String) throws(GEOSError) {
            let h = context.handle
            // GEOSGeomTypeId_r: GEOS_POINT … GEOS_GEOMETRYCOLLECTION, −1 on exception.
            let type = GEOSGeomTypeId_r(h, g)
            switch type {
            case Int32(GEOS_POINT.rawValue), Int32(GEOS_LINESTRING.rawValue), Int32(GEOS_LINEARRING.rawValue):
                // GEOSisEmpty_r: 1 empty (no coordinate sequence to read), 0 not, 2 exception.
                if try context.predicate("GEOSisEmpty_r", { GEOSisEmpty_r(h, g) }) { return }
                for (i, p) in try Self.points(of: g, context: context).enumerated() {
                    try GEOSContext.check(p, what: "\(what) point \(i)")
                }
            case Int32(GEOS_POLYGON.rawValue):
                if try context.predicate("GEOSisEmpty_r", { GEOSisEmpty_r(h, g) }) { return }
                context.clearMessages()
                // GEOSGetExteriorRing_r / GEOSGetInteriorRingN_r: borrowed, NULL on exception.
                guard let ext = GEOSGetExteriorRing_r(h, g) else { throw context.failure("GEOSGetExteriorRing_r") }
                try walk(ext, what + " shell")
                // GEOSGetNumInteriorRings_r: count, −1 on exception.
                let n = GEOSGetNumInteriorRings_r(h, g)
                guard n >= 0 else { throw context.failure("GEOSGetNumInteriorRings_r") }
                for i in 0..<n {
                    guard let r = GEOSGetInteriorRingN_r(h, g, i) else { throw context.failure("GEOSGetInteriorRingN_r") }
                    try walk(r, what + " hole \(i)")
                }
            case -1:
                throw context.failure("GEOSGeomTypeId_r")
            default:
                // Multi* and collections. GEOSGetNumGeometries_r: count, −1 on exception.
                let n = GEOSGetNumGeometries_r(h, g)
                guard n >= 0 else { throw context.failure("GEOSGetNumGeometries_r") }
                for i in 0..<n {
                    // GEOSGetGeometryN_r: borrowed, NULL on exception.
                    guard let part = GEOSGetGeometryN_r(h, g, i) else { throw context.failure("GEOSGetGeometryN_r") }
                    try walk(part, what + " part \(i)")
                }
            }
        }
        try walk(pointer, typeName)
    }

    /// Well-Known Text, trimmed (no trailing zeros).
    /// - Throws: ``GEOSError/invalidInput(reason:)`` for a coordinate beyond
    ///   ±``GEOSContext/maximumCoordinate`` (from a buffer, say): GEOS 3.11's trimmed writer
    ///   overflows a stack buffer from about 1e134 (measured: abort at 1e136).
    public func wkt() throws(GEOSError) -> String {
        try checkCoordinates()
        let h = context.handle
        context.clearMessages()
        // GEOSWKTWriter_create_r: NULL on exception.
        guard let w = GEOSWKTWriter_create_r(h) else { throw context.failure("GEOSWKTWriter_create_r") }
        defer { GEOSWKTWriter_destroy_r(h, w) }
        GEOSWKTWriter_setTrim_r(h, w, 1)
        // GEOSWKTWriter_write_r: string to free with GEOSFree_r; NULL on exception.
        guard let s = GEOSWKTWriter_write_r(h, w, pointer) else { throw context.failure("GEOSWKTWriter_write_r") }
        defer { GEOSFree_r(h, s) }
        return String(cString: s)
    }

    /// Number of parts: 1 for a single geometry, n for a Multi*/GeometryCollection.
    public func partCount() throws(GEOSError) -> Int {
        context.clearMessages()
        // GEOSGetNumGeometries_r: count, −1 on exception.
        let n = GEOSGetNumGeometries_r(context.handle, pointer)
        guard n >= 0 else { throw context.failure("GEOSGetNumGeometries_r") }
        return Int(n)
    }

    /// The coordinates of a Point, LineString or LinearRing.
    /// - Throws: ``GEOSError/unexpectedType(expected:got:)`` for other types.
    public func points() throws(GEOSError) -> [PlanarPoint] {
        let t = typeName
        guard t == "Point" || t == "LineString" || t == "LinearRing" else {
            throw .unexpectedType(expected: "Point, LineString or LinearRing", got: t)
        }
        return try Self.points(of: pointer, context: context)
    }

    /// Shell and holes of a Polygon, each a closed ring.
    /// - Throws: ``GEOSError/unexpectedType(expected:got:)`` for other types.
    public func rings() throws(GEOSError) -> (shell: [PlanarPoint], holes: [[PlanarPoint]]) {
        let t = typeName
        guard t == "Polygon" else { throw .unexpectedType(expected: "Polygon", got: t) }
        let h = context.handle
        context.clearMessages()
        // GEOSGetExteriorRing_r: borrowed pointer (do not free), NULL on exception.
        guard let ext = GEOSGetExteriorRing_r(h, pointer) else { throw context.failure("GEOSGetExteriorRing_r") }
        let shell = try Self.points(of: ext, context: context)
        // GEOSGetNumInteriorRings_r: count, −1 on exception.
        let n = GEOSGetNumInteriorRings_r(h, pointer)
        guard n >= 0 else { throw context.failure("GEOSGetNumInteriorRings_r") }
        var holes: [[PlanarPoint]] = []
        for i in 0..<n {
            // GEOSGetInteriorRingN_r: borrowed pointer, NULL on exception.
            guard let r = GEOSGetInteriorRingN_r(h, pointer, i) else { throw context.failure("GEOSGetInteriorRingN_r") }
            holes.append(try Self.points(of: r, context: context))
        }
        return (shell, holes)
    }

    /// Each part of a Multi*/GeometryCollection as its own owned geometry (clones).
    public func parts() throws(GEOSError) -> [OwnedGeometry] {
        let n = try partCount()
        var out: [OwnedGeometry] = []
        for i in 0..<n {
            context.clearMessages()
            // GEOSGetGeometryN_r: borrowed pointer (do not free), NULL on exception.
            guard let g = GEOSGetGeometryN_r(context.handle, pointer, Int32(i)) else { throw context.failure("GEOSGetGeometryN_r") }
            // GEOSGeom_clone_r: new geometry we own, NULL on exception.
            out.append(try context.make("GEOSGeom_clone_r") { GEOSGeom_clone_r(context.handle, g) })
        }
        return out
    }

    /// Coordinates of a borrowed Point/LineString/LinearRing pointer.
    static func points(of g: OpaquePointer, context: GEOSContext) throws(GEOSError) -> [PlanarPoint] {
        let h = context.handle
        context.clearMessages()
        // GEOSGeom_getCoordSeq_r: borrowed sequence, NULL on exception.
        guard let seq = GEOSGeom_getCoordSeq_r(h, g) else { throw context.failure("GEOSGeom_getCoordSeq_r") }
        var size: UInt32 = 0
        // GEOSCoordSeq_getSize_r: 1 on success, 0 on exception.
        try context.status("GEOSCoordSeq_getSize_r") { GEOSCoordSeq_getSize_r(h, seq, &size) }
        var out = [PlanarPoint](repeating: PlanarPoint(x: 0, y: 0), count: Int(size))
        guard size > 0 else { return out }
        // GEOSCoordSeq_copyToBuffer_r: 1 on success, 0 on exception; writes x,y pairs (hasZ 0, hasM 0).
        try context.status("GEOSCoordSeq_copyToBuffer_r") {
            out.withUnsafeMutableBufferPointer { b in
                b.withMemoryRebound(to: Double.self) { GEOSCoordSeq_copyToBuffer_r(h, seq, $0.baseAddress, 0, 0) }
            }
        }
        return out
    }
}

/// Not Sendable: a GEOS context must be used by one thread at a time (see ``GEOSContext``).
@available(*, unavailable)
extension OwnedGeometry: Sendable {}
