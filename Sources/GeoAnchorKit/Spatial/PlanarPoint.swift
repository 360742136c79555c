import Foundation

/// A point (or displacement) in the horizontal plane of a local East-North-Up frame, meters.
///
/// Tours work in a ``LocalTangentFrame`` centred on the tour: stops, zones and the path are
/// converted once to `(east, north)` meters, so distances, projections and polygon tests are
/// plain planar arithmetic.
///
/// - Accuracy: planar distances in an ENU frame are slightly shorter than ellipsoidal
///   geodesics: from the origin to a point 10 km away by 4.1 mm (≈ d³/(6R²); 0.03 mm at 2 km),
///   and a 1 km distance between two points 10 km from the origin by ≤ 1.4 mm (measured against
///   GeographicLib's `Geodesic.WGS84` at 49.96° N, every 15° of azimuth).
@frozen
public struct PlanarPoint: Sendable, Hashable, Codable {
    /// Meters towards east.
    public var x: Double
    /// Meters towards (true) north.
    public var y: Double

    @inlinable
    public init(x: Double, y: Double) { self.x = x; self.y = y }

    /// The horizontal part of an ENU vector.
    @inlinable
    public init(_ v: ENUVector) { self.init(x: v.east, y: v.north) }

    /// Euclidean length √(x² + y²), meters.
    @inlinable
    public var length: Double { (x * x + y * y).squareRoot() }

    /// Direction in degrees clockwise from north, [0, 360); 0 for the zero vector.
    @inlinable
    public var bearing: Double { Angle.normalizeHeading(Angle.atan2Degrees(x, y)) }

    /// Euclidean distance to `other`, meters.
    @inlinable
    public func distance(to other: PlanarPoint) -> Double {
        let dx = other.x - x, dy = other.y - y
        return (dx * dx + dy * dy).squareRoot()
    }

    @inlinable public static func - (a: PlanarPoint, b: PlanarPoint) -> PlanarPoint { PlanarPoint(x: a.x - b.x, y: a.y - b.y) }
    @inlinable public static func + (a: PlanarPoint, b: PlanarPoint) -> PlanarPoint { PlanarPoint(x: a.x + b.x, y: a.y + b.y) }
    @inlinable public static func * (a: PlanarPoint, s: Double) -> PlanarPoint { PlanarPoint(x: a.x * s, y: a.y * s) }
    /// Dot product, m².
    @inlinable public func dot(_ b: PlanarPoint) -> Double { x * b.x + y * b.y }
}

extension PlanarPoint {
    /// The closest point of the segment from `a` to `b` to this point.
    ///
    /// The one point-to-segment projection of the library: polylines (``PlanarPolyline``), the
    /// segment grid (``SegmentGrid``), the filter's path constraint, tour zones and path-network
    /// snapping all call it.
    ///
    /// - Returns: `t` ∈ [0, 1], the fraction along the segment of the closest point (0 for a
    ///   degenerate segment, a == b); `point`, that closest point; `distance`, meters from this
    ///   point to it.
    @inlinable
    public func projection(onSegmentFrom a: PlanarPoint, to b: PlanarPoint) -> (t: Double, point: PlanarPoint, distance: Double) {
        projection(onSegmentFrom: a, direction: b - a)
    }

    /// The same projection for the segment from `a` to `a + direction`.
    @inlinable
    public func projection(onSegmentFrom a: PlanarPoint, direction ab: PlanarPoint) -> (t: Double, point: PlanarPoint, distance: Double) {
        let ap = self - a
        let len2 = ab.dot(ab)
        // Degenerate (repeated vertex) segments project onto their single point.
        let t = len2 > 0 ? Swift.min(1, Swift.max(0, ap.dot(ab) / len2)) : 0
        let q = a + ab * t
        return (t, q, distance(to: q))
    }
}
