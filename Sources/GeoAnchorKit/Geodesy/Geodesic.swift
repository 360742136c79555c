import Foundation

/// Geodesics on an ellipsoid of revolution: the shortest path between two points (inverse
/// problem), the point reached from a start point, azimuth and distance (direct problem), and
/// points along a geodesic.
///
/// A native Swift implementation of C. F. F. Karney, "Algorithms for geodesics",
/// J. Geodesy 87, 43–55 (2013), doi:10.1007/s00190-012-0578-z — the same method as
/// GeographicLib and PROJ's `geod_*` functions: series to 6th order in the third flattening,
/// Newton's method on the longitude difference λ₁₂ for the inverse problem (with a bisection
/// fallback and Karney's astroid starting guess for nearly antipodal points), and the
/// short-line, meridional and equatorial special cases.
///
/// Conventions: latitudes and longitudes in degrees; azimuths in degrees clockwise from north,
/// returned by ``inverse(latitude1:longitude1:latitude2:longitude2:)`` and
/// ``direct(latitude:longitude:azimuth:distance:)`` in [−180, 180] as Karney returns them
/// (use ``initialBearing(latitude1:longitude1:latitude2:longitude2:)`` for [0, 360));
/// distances in meters along the ellipsoid surface (height is ignored).
///
/// *Accuracy*: for |f| ≤ 1/50 the method is accurate to ~15 nm (Karney 2013, §9). Measured in
/// GeodesicTests on all 10,000 lines of GeographicLib's GeodTest-short (WGS84): inverse distance
/// error ≤ 7.5 nm, direct position error ≤ 9.9 nm, reduced length ≤ 7 nm, area ≤ 1.4 m² (areas
/// reach 1.3e14 m²); azimuths ≤ 1e-12° wherever they are well-conditioned. Where they are not —
/// short lines (the Newton iteration on λ₁₂ stops at |Δλ| ≤ 2ε, leaving ~1e-11° at 10 km), ends
/// within a few km of a pole, nearly conjugate points — the azimuth error stays within what a
/// 15 nm displacement allows (up to 4e-4° for m₁₂ ≈ 0.1 mm). Against PROJ's `geod_inverse` on
/// 100,000 random pairs the distances are bit-identical and azimuths agree to 3e-14°.
///
/// Values are immutable, cheap to copy and `Sendable`; all ellipsoid-dependent coefficients are
/// computed once in ``init(ellipsoid:)``.
public struct Geodesic: Sendable, Hashable {
    /// The ellipsoid the geodesics live on.
    public let ellipsoid: Ellipsoid

    // Ellipsoid constants (Karney's notation).
    @usableFromInline let a: Double
    @usableFromInline let f: Double
    /// 1 − f
    @usableFromInline let f1: Double
    /// e²
    @usableFromInline let e2: Double
    /// e′²
    @usableFromInline let ep2: Double
    /// third flattening n
    @usableFromInline let n: Double
    /// polar semi-axis b
    @usableFromInline let b: Double
    /// authalic radius squared, for areas
    @usableFromInline let c2: Double
    /// σ₁₂ threshold below which a line is "really short" (spherical solution exact enough)
    @usableFromInline let etol2: Double
    @usableFromInline let coefficients: GeodesicCoefficients

    /// Creates the geodesic calculator for an ellipsoid (WGS84 by default).
    ///
    /// The series are accurate to double precision for |f| ≤ 1/50; for larger |f| the error
    /// grows (Karney 2013, §9; use an exact elliptic-integral method there).
    public init(ellipsoid: Ellipsoid = .wgs84) {
        self.ellipsoid = ellipsoid
        a = ellipsoid.semiMajorAxis
        f = ellipsoid.flattening
        f1 = 1 - f
        e2 = f * (2 - f)
        ep2 = e2 / (f1 * f1)
        n = f / (2 - f)
        b = a * f1
        // c² = (a² + b² atanh(e)/e)/2, the authalic radius squared (eq. 60).
        let ratio: Double
        if e2 == 0 {
            ratio = 1
        } else if e2 > 0 {
            ratio = Foundation.atanh(e2.squareRoot()) / e2.squareRoot()
        } else {
            ratio = Foundation.atan((-e2).squareRoot()) / (-e2).squareRoot()
        }
        c2 = (a * a + b * b * ratio) / 2
        // For "really short" lines the relative error of the spherical approximation with
        // dn evaluated at the mid latitude is σ₁₂² |f| min(1, 1 − f/2)/2; setting that to ε with
        // a safety factor 0.1 gives this threshold (Karney's etol2).
        etol2 = 0.1 * GeodesicConstants.tol2
            / (Swift.max(0.001, Swift.abs(f)) * Swift.min(1, 1 - f / 2) / 2).squareRoot()
        coefficients = GeodesicCoefficients(n: n)
    }

    /// Geodesics on WGS84.
    public static let wgs84 = Geodesic(ellipsoid: .wgs84)

    public static func == (lhs: Geodesic, rhs: Geodesic) -> Bool { lhs.ellipsoid == rhs.ellipsoid }
    public func hash(into hasher: inout Hasher) { hasher.combine(ellipsoid) }
}

/// Tolerances of the iterative parts (Karney's tiny_, tol0_, … for IEEE doubles).
@usableFromInline
enum GeodesicConstants {
    /// Underflow guard: tiny·ε > 0 and tiny + ε == ε.
    static let tiny = Double.leastNormalMagnitude.squareRoot()
    static let tol0 = Double.ulpOfOne
    /// Generous threshold for the astroid's "strip near the cut" test.
    static let tol1 = 200 * tol0
    static let tol2 = tol0.squareRoot()
    /// Bisection interval check.
    static let tolb = tol0 * tol2
    static let xthresh = 1000 * tol2
    /// Newton iterations before falling back to pure bisection.
    static let maxit1 = 20
    /// Total iteration limit: maxit1 + digits + 10.
    static let maxit2 = maxit1 + Double.significandBitCount + 1 + 10
    static let degree = Double.pi / 180
}

/// The solution of the inverse geodesic problem between two points.
///
/// Azimuths are in degrees clockwise from north, in [−180, 180] as Karney's algorithm returns
/// them; −180 and 180 are the same direction (southwards). At coincident points and at the
/// poles the azimuths are not unique; the values returned are the limits Karney's algorithm
/// picks (e.g. for coincident points, the azimuth of a meridian).
public struct GeodesicInverseResult: Sendable, Hashable {
    /// Length of the geodesic s₁₂ in meters, ≥ 0.
    public var distance: Double
    /// Azimuth α₁ at point 1, degrees clockwise from north, [−180, 180].
    public var azimuth1: Double
    /// Forward azimuth α₂ at point 2 (direction of travel there), degrees, [−180, 180].
    public var azimuth2: Double
    /// Arc length σ₁₂ on the auxiliary sphere, degrees, [0, 180].
    public var arcLength: Double
    /// Reduced length m₁₂ in meters (Karney 2013, eq. 38).
    public var reducedLength: Double
    /// Geodesic scale M₁₂ (dimensionless; eq. 39).
    public var geodesicScale12: Double
    /// Geodesic scale M₂₁ (dimensionless).
    public var geodesicScale21: Double
    /// Area S₁₂ in m² between the geodesic, the equator and the meridians through the end points
    /// (eq. 58), positive counter-clockwise.
    public var area: Double

    /// Initial bearing, α₁ normalized to [0, 360).
    @inlinable public var initialBearing: Double { Angle.normalizeHeading(azimuth1) }
    /// Final bearing, α₂ normalized to [0, 360).
    @inlinable public var finalBearing: Double { Angle.normalizeHeading(azimuth2) }

    @inlinable
    public init(distance: Double, azimuth1: Double, azimuth2: Double, arcLength: Double,
                reducedLength: Double, geodesicScale12: Double, geodesicScale21: Double, area: Double) {
        self.distance = distance
        self.azimuth1 = azimuth1
        self.azimuth2 = azimuth2
        self.arcLength = arcLength
        self.reducedLength = reducedLength
        self.geodesicScale12 = geodesicScale12
        self.geodesicScale21 = geodesicScale21
        self.area = area
    }
}

/// The solution of the direct geodesic problem (the point a distance along a geodesic).
public struct GeodesicDirectResult: Sendable, Hashable {
    /// Latitude of point 2, degrees, [−90, 90].
    public var latitude: Double
    /// Longitude of point 2, degrees, [−180, 180].
    public var longitude: Double
    /// Forward azimuth α₂ at point 2, degrees clockwise from north, [−180, 180].
    public var azimuth2: Double
    /// Distance s₁₂ from point 1 in meters (negative when travelling backwards).
    public var distance: Double
    /// Arc length σ₁₂ on the auxiliary sphere, degrees.
    public var arcLength: Double
    /// Reduced length m₁₂ in meters.
    public var reducedLength: Double
    /// Geodesic scale M₁₂.
    public var geodesicScale12: Double
    /// Geodesic scale M₂₁.
    public var geodesicScale21: Double
    /// Area S₁₂ in m² (see ``GeodesicInverseResult/area``).
    public var area: Double

    /// Point 2 as a coordinate on the ellipsoid (height 0 above it).
    @inlinable public var coordinate: GeodeticCoordinate {
        GeodeticCoordinate(latitude: latitude, longitude: longitude, ellipsoidalHeight: 0)
    }
    /// Final bearing, α₂ normalized to [0, 360).
    @inlinable public var finalBearing: Double { Angle.normalizeHeading(azimuth2) }

    @inlinable
    public init(latitude: Double, longitude: Double, azimuth2: Double, distance: Double, arcLength: Double,
                reducedLength: Double, geodesicScale12: Double, geodesicScale21: Double, area: Double) {
        self.latitude = latitude
        self.longitude = longitude
        self.azimuth2 = azimuth2
        self.distance = distance
        self.arcLength = arcLength
        self.reducedLength = reducedLength
        self.geodesicScale12 = geodesicScale12
        self.geodesicScale21 = geodesicScale21
        self.area = area
    }
}

// MARK: - Validated and convenience API

extension Geodesic {
    /// Solves the inverse problem between two validated coordinates (heights are ignored).
    /// - Throws: ``GeoAnchorError/invalidLatitude(_:)`` or ``GeoAnchorError/invalidLongitude(_:)``.
    public func inverse(from p1: GeodeticCoordinate, to p2: GeodeticCoordinate) throws(GeoAnchorError) -> GeodesicInverseResult {
        try Self.validate(latitude: p1.latitude, longitude: p1.longitude)
        try Self.validate(latitude: p2.latitude, longitude: p2.longitude)
        return inverse(latitude1: p1.latitude, longitude1: p1.longitude,
                       latitude2: p2.latitude, longitude2: p2.longitude)
    }

    /// Solves the direct problem from a validated coordinate (its height is ignored).
    /// - Parameters:
    ///   - p1: the start point.
    ///   - azimuth: degrees clockwise from north, any finite value.
    ///   - distance: meters, finite (negative goes backwards).
    /// - Throws: ``GeoAnchorError/invalidLatitude(_:)``, ``GeoAnchorError/invalidLongitude(_:)``,
    ///   ``GeoAnchorError/nonFinite(name:value:)`` for `azimuth` or `distance`.
    public func direct(from p1: GeodeticCoordinate, azimuth: Double, distance: Double) throws(GeoAnchorError) -> GeodesicDirectResult {
        try Self.validate(latitude: p1.latitude, longitude: p1.longitude)
        guard azimuth.isFinite else { throw .nonFinite(name: "azimuth", value: azimuth) }
        guard distance.isFinite else { throw .nonFinite(name: "distance", value: distance) }
        return direct(latitude: p1.latitude, longitude: p1.longitude, azimuth: azimuth, distance: distance)
    }

    /// Geodesic distance in meters between two points (degrees); NaN for invalid input.
    /// *Accuracy*: as ``Geodesic`` (≤ 15 nm).
    public func distance(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
        inverseCore(latitude1, longitude1, latitude2, longitude2, full: false).s12
    }

    /// Geodesic distance in meters between two validated coordinates (heights ignored).
    public func distance(from p1: GeodeticCoordinate, to p2: GeodeticCoordinate) throws(GeoAnchorError) -> Double {
        try inverse(from: p1, to: p2).distance
    }

    /// Initial bearing (azimuth at point 1) of the geodesic to point 2, degrees clockwise from
    /// north in [0, 360). At coincident points it is 0 or 180 (not unique).
    public func initialBearing(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
        let r = inverseCore(latitude1, longitude1, latitude2, longitude2, full: false)
        return Angle.normalizeHeading(Angle.atan2Degrees(r.salp1, r.calp1))
    }

    /// Final bearing (forward azimuth at point 2) of the geodesic from point 1, degrees in [0, 360).
    public func finalBearing(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> Double {
        let r = inverseCore(latitude1, longitude1, latitude2, longitude2, full: false)
        return Angle.normalizeHeading(Angle.atan2Degrees(r.salp2, r.calp2))
    }

    /// The point `distance` meters from a start point along the geodesic with the given initial
    /// azimuth (degrees clockwise from north), on the ellipsoid (height 0).
    public func destination(latitude: Double, longitude: Double, azimuth: Double, distance: Double) -> GeodeticCoordinate {
        direct(latitude: latitude, longitude: longitude, azimuth: azimuth, distance: distance).coordinate
    }

    /// As ``destination(latitude:longitude:azimuth:distance:)`` from a validated coordinate;
    /// the result keeps the start point's height and vertical reference.
    public func destination(from p1: GeodeticCoordinate, azimuth: Double, distance: Double) throws(GeoAnchorError) -> GeodeticCoordinate {
        let r = try direct(from: p1, azimuth: azimuth, distance: distance)
        return GeodeticCoordinate(latitude: r.latitude, longitude: r.longitude,
                                  height: p1.height, verticalReference: p1.verticalReference)
    }

    @inline(__always)
    static func validate(latitude: Double, longitude: Double) throws(GeoAnchorError) {
        guard latitude.isFinite, Swift.abs(latitude) <= 90 else { throw .invalidLatitude(latitude) }
        guard longitude.isFinite else { throw .invalidLongitude(longitude) }
    }
}
