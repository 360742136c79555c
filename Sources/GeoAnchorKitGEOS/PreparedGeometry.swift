import CGEOS
import Foundation
import GeoAnchorKit

/// A GEOS prepared geometry: indexes a geometry's segments once so that repeated predicates
/// against it (is this fix inside the zone?) cost O(log n) instead of O(n).
///
/// Owns the `GEOSPreparedGeometry` (destroyed with `GEOSPreparedGeom_destroy_r`) and keeps the
/// base ``OwnedGeometry`` alive, because GEOS's prepared geometry points into it. Not `Sendable`.
public final class PreparedGeometry {
    /// The geometry that was prepared.
    public let base: OwnedGeometry
    /// `const GEOSPreparedGeometry *`.
    let pointer: OpaquePointer
    var context: GEOSContext { base.context }

    /// Prepares `geometry`.
    /// - Throws: ``GEOSError/operationFailed(function:message:)``.
    public init(_ geometry: OwnedGeometry) throws(GEOSError) {
        base = geometry
        geometry.context.clearMessages()
        // GEOSPrepare_r: new prepared geometry referencing `geometry` (which must outlive it), NULL on exception.
        guard let p = GEOSPrepare_r(geometry.context.handle, geometry.pointer) else {
            throw geometry.context.failure("GEOSPrepare_r")
        }
        pointer = p
    }

    deinit {
        // GEOSPreparedGeom_destroy_r: void. Runs before `base` is released.
        GEOSPreparedGeom_destroy_r(context.handle, pointer)
    }

    /// Whether the prepared geometry contains `other` (boundary points are not contained).
    public func contains(_ other: OwnedGeometry) throws(GEOSError) -> Bool {
        // GEOSPreparedContains_r: 1 true, 0 false, 2 exception.
        try context.predicate("GEOSPreparedContains_r") { GEOSPreparedContains_r(context.handle, pointer, other.pointer) }
    }

    /// Whether the prepared geometry covers `other` (boundary points count as covered).
    public func covers(_ other: OwnedGeometry) throws(GEOSError) -> Bool {
        // GEOSPreparedCovers_r: 1 true, 0 false, 2 exception.
        try context.predicate("GEOSPreparedCovers_r") { GEOSPreparedCovers_r(context.handle, pointer, other.pointer) }
    }

    /// Whether they share at least one point.
    public func intersects(_ other: OwnedGeometry) throws(GEOSError) -> Bool {
        // GEOSPreparedIntersects_r: 1 true, 0 false, 2 exception.
        try context.predicate("GEOSPreparedIntersects_r") { GEOSPreparedIntersects_r(context.handle, pointer, other.pointer) }
    }

    /// Minimum distance in meters (0 when they intersect).
    public func distance(to other: OwnedGeometry) throws(GEOSError) -> Double {
        var d = 0.0
        // GEOSPreparedDistance_r: 1 on success, 0 on exception.
        try context.status("GEOSPreparedDistance_r") { GEOSPreparedDistance_r(context.handle, pointer, other.pointer, &d) }
        return d
    }

    /// Closest pair: `onSelf` on the prepared geometry, `onOther` on `other`.
    public func nearestPoints(to other: OwnedGeometry) throws(GEOSError) -> (onSelf: PlanarPoint, onOther: PlanarPoint) {
        context.clearMessages()
        // GEOSPreparedNearestPoints_r: new 2-point sequence (caller destroys), NULL on exception.
        guard let seq = GEOSPreparedNearestPoints_r(context.handle, pointer, other.pointer) else {
            throw context.failure("GEOSPreparedNearestPoints_r")
        }
        defer { GEOSCoordSeq_destroy_r(context.handle, seq) }
        return try context.twoPoints(seq, function: "GEOSPreparedNearestPoints_r")
    }
}

/// Not Sendable: a GEOS context must be used by one thread at a time (see ``GEOSContext``).
@available(*, unavailable)
extension PreparedGeometry: Sendable {}
