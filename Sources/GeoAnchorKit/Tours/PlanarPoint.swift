import Foundation

/// A point (or displacement) in the horizontal plane of a local East-North-Up frame, meters.
///
/// Tours work in a ``LocalTangentFrame`` centred on the tour: stops, zones and the path are
/// converted once to `(east, north)` meters, so distances, projections and polygon tests are
/// plain planar arithmetic. Within 10 km of the origin the planar distance differs from the
/// ellipsoidal geodesic by less than 1 cm per km (the ENU frame drops only the `up` component,
/// which is ≈ d²/(2R), i.e. 7.8 m at 10 km, and shortens horizontal distances by ≈ d³/(3R²)
/// ≈ 8 mm at 10 km).
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
