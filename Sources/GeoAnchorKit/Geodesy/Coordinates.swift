import Foundation

/// The datum a height is measured from.
public enum VerticalReference: String, Sendable, Hashable, Codable, CaseIterable {
    /// Height above the reference ellipsoid (what GNSS and ARCore report).
    case ellipsoid
    /// Orthometric height above mean sea level, i.e. above the geoid (what CoreLocation's
    /// `altitude` reports). Converting to ellipsoidal needs a geoid model: *h = H + N*.
    case meanSeaLevel = "msl"
}

/// A geodetic position: latitude and longitude in degrees and a height with an explicit
/// vertical reference.
@frozen
public struct GeodeticCoordinate: Sendable, Hashable, Codable {
    /// Geodetic latitude in degrees, [−90, 90].
    public var latitude: Double
    /// Longitude in degrees (any finite value; normalize with ``Angle/normalizeLongitude(_:)``).
    public var longitude: Double
    /// Height in meters above the datum named by ``verticalReference``.
    public var height: Double
    /// Which datum ``height`` is measured from.
    public var verticalReference: VerticalReference

    /// Creates a coordinate without validation (see ``validated()``). The datum is required: a
    /// height is never silently taken as ellipsoidal (CoreLocation's `altitude` is MSL; use
    /// ``init(latitude:longitude:altitude:)`` for it and ``init(latitude:longitude:ellipsoidalHeight:)``
    /// for GNSS / ARCore heights).
    @inlinable
    public init(latitude: Double, longitude: Double, height: Double,
                verticalReference: VerticalReference) {
        self.latitude = latitude
        self.longitude = longitude
        self.height = height
        self.verticalReference = verticalReference
    }

    /// A horizontal position: on the WGS84 ellipsoid (ellipsoidal height 0). For uses that ignore
    /// height (geodesics, geofences, paths).
    @inlinable
    public init(latitude: Double, longitude: Double) {
        self.init(latitude: latitude, longitude: longitude, height: 0, verticalReference: .ellipsoid)
    }

    /// Creates a coordinate with a height above the ellipsoid.
    @inlinable
    public init(latitude: Double, longitude: Double, ellipsoidalHeight: Double) {
        self.init(latitude: latitude, longitude: longitude, height: ellipsoidalHeight, verticalReference: .ellipsoid)
    }

    /// Creates a coordinate with a height above mean sea level (orthometric).
    @inlinable
    public init(latitude: Double, longitude: Double, altitude: Double) {
        self.init(latitude: latitude, longitude: longitude, height: altitude, verticalReference: .meanSeaLevel)
    }

    /// Checks ranges: latitude in [−90, 90], longitude and height finite.
    /// - Throws: ``GeoAnchorError/invalidLatitude(_:)``, ``GeoAnchorError/invalidLongitude(_:)``,
    ///   ``GeoAnchorError/nonFinite(name:value:)``.
    @inlinable
    public func validate() throws(GeoAnchorError) {
        guard latitude.isFinite, Swift.abs(latitude) <= 90 else { throw .invalidLatitude(latitude) }
        guard longitude.isFinite else { throw .invalidLongitude(longitude) }
        guard height.isFinite else { throw .nonFinite(name: "height", value: height) }
    }

    /// Returns `self` after ``validate()``.
    @inlinable
    public func validated() throws(GeoAnchorError) -> GeodeticCoordinate {
        try validate()
        return self
    }
}

/// Earth-centred, Earth-fixed Cartesian coordinates in meters (x towards 0°N 0°E, z towards
/// the north pole), relative to the ellipsoid's centre.
@frozen
public struct ECEFCoordinate: Sendable, Hashable, Codable {
    /// Meters.
    public var x: Double
    /// Meters.
    public var y: Double
    /// Meters.
    public var z: Double
    @inlinable
    public init(x: Double, y: Double, z: Double) { self.x = x; self.y = y; self.z = z }
}

/// A vector in a local East-North-Up frame, meters.
@frozen
public struct ENUVector: Sendable, Hashable, Codable {
    /// Meters towards east.
    public var east: Double
    /// Meters towards (true) north.
    public var north: Double
    /// Meters along the ellipsoid normal, up.
    public var up: Double
    @inlinable
    public init(east: Double, north: Double, up: Double) { self.east = east; self.north = north; self.up = up }

    /// The same vector in North-East-Down axes.
    @inlinable
    public var ned: NEDVector { NEDVector(north: north, east: east, down: -up) }
    /// Horizontal length √(e² + n²) in meters.
    @inlinable
    public var horizontalDistance: Double { (east * east + north * north).squareRoot() }
    /// Length in meters.
    @inlinable
    public var length: Double { (east * east + north * north + up * up).squareRoot() }
    /// Horizontal direction in degrees clockwise from north, [0, 360); 0 for a vertical vector.
    @inlinable
    public var bearing: Double { Angle.normalizeHeading(Angle.atan2Degrees(east, north)) }
}

/// A vector in a local North-East-Down frame, meters.
@frozen
public struct NEDVector: Sendable, Hashable, Codable {
    /// Meters towards north.
    public var north: Double
    /// Meters towards east.
    public var east: Double
    /// Meters down along the ellipsoid normal.
    public var down: Double
    @inlinable
    public init(north: Double, east: Double, down: Double) { self.north = north; self.east = east; self.down = down }
    /// The same vector in East-North-Up axes.
    @inlinable
    public var enu: ENUVector { ENUVector(east: east, north: north, up: -down) }
}
