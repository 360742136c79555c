import Foundation

/// A reference ellipsoid of revolution, given by its equatorial radius and flattening.
///
/// Values are immutable and cheap to copy; all derived constants are precomputed.
/// `WGS84` is the default everywhere in GeoAnchorKit.
@frozen
public struct Ellipsoid: Sendable, Hashable, CustomStringConvertible {
    /// Equatorial radius *a* in meters.
    public let semiMajorAxis: Double
    /// Flattening *f = (a − b)/a* (dimensionless). Negative for a prolate ellipsoid.
    public let flattening: Double
    /// A short name, e.g. `"WGS84"`.
    public let name: String

    /// Polar semi-axis *b = a(1 − f)* in meters.
    public let semiMinorAxis: Double
    /// First eccentricity squared *e² = f(2 − f)*.
    public let eccentricitySquared: Double
    /// Second eccentricity squared *e′² = e²/(1 − e²)*.
    public let secondEccentricitySquared: Double
    /// Third flattening *n = f/(2 − f)*.
    public let thirdFlattening: Double

    /// Creates an ellipsoid.
    /// - Parameters:
    ///   - semiMajorAxis: equatorial radius *a* in meters; finite and > 0.
    ///   - flattening: *f*, finite and < 1. ``Geodesic``'s series are accurate to round-off for
    ///     |f| ≤ 1/50 (Karney 2013, §9; checked against PROJ at f = 1/50 and f = −1/150 in the test
    ///     suite); larger |f| is accepted with a growing error.
    ///   - name: label used in descriptions.
    /// - Throws: ``GeoAnchorError/invalidEllipsoid(semiMajorAxis:flattening:)``.
    public init(semiMajorAxis: Double, flattening: Double, name: String = "custom") throws(GeoAnchorError) {
        guard semiMajorAxis.isFinite, semiMajorAxis > 0, flattening.isFinite, flattening < 1 else {
            throw .invalidEllipsoid(semiMajorAxis: semiMajorAxis, flattening: flattening)
        }
        self.init(unchecked: semiMajorAxis, flattening, name)
    }

    /// Creates an ellipsoid from an inverse flattening *1/f* (e.g. 298.257223563); `0` means a sphere.
    public init(semiMajorAxis: Double, inverseFlattening: Double, name: String = "custom") throws(GeoAnchorError) {
        guard inverseFlattening.isFinite else {
            throw .invalidEllipsoid(semiMajorAxis: semiMajorAxis, flattening: .nan)
        }
        try self.init(semiMajorAxis: semiMajorAxis,
                      flattening: inverseFlattening == 0 ? 0 : 1 / inverseFlattening, name: name)
    }

    @usableFromInline
    init(unchecked a: Double, _ f: Double, _ name: String) {
        self.semiMajorAxis = a
        self.flattening = f
        self.name = name
        self.semiMinorAxis = a * (1 - f)
        self.eccentricitySquared = f * (2 - f)
        self.secondEccentricitySquared = eccentricitySquared / ((1 - f) * (1 - f))
        self.thirdFlattening = f / (2 - f)
    }

    /// WGS 84 (EPSG:7030): a = 6 378 137 m, 1/f = 298.257223563.
    public static let wgs84 = Ellipsoid(unchecked: 6_378_137, 1 / 298.257223563, "WGS84")
    /// GRS 80 (EPSG:7019): a = 6 378 137 m, 1/f = 298.257222101.
    public static let grs80 = Ellipsoid(unchecked: 6_378_137, 1 / 298.257222101, "GRS80")

    public var description: String {
        "\(name) (a = \(semiMajorAxis) m, 1/f = \(flattening == 0 ? 0 : 1 / flattening))"
    }

    /// Radius of curvature in the prime vertical *N(φ)* in meters.
    /// - Parameter latitude: geodetic latitude in degrees, [−90, 90].
    @inlinable
    public func primeVerticalRadius(latitude: Double) -> Double {
        let s = Angle.sincos(degrees: latitude).sin
        return semiMajorAxis / (1 - eccentricitySquared * s * s).squareRoot()
    }

    /// Meridional radius of curvature *M(φ)* in meters.
    /// - Parameter latitude: geodetic latitude in degrees, [−90, 90].
    @inlinable
    public func meridionalRadius(latitude: Double) -> Double {
        let s = Angle.sincos(degrees: latitude).sin
        let w2 = 1 - eccentricitySquared * s * s
        return semiMajorAxis * (1 - eccentricitySquared) / (w2 * w2.squareRoot())
    }
}
