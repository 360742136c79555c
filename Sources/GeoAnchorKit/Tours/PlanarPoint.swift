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
