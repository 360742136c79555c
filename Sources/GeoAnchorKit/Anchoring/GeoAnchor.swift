import Foundation

/// The height of a ``GeoAnchor`` and the datum it is measured from.
///
/// Every case carries meters; which surface they are measured from is the case's meaning.
/// Converting to the ellipsoidal height the placement math needs is done once by
/// ``AnchorEnvironment/ellipsoidalHeight(of:floorEllipsoidalHeight:)``.
public enum AnchorAltitude: Sendable, Hashable {
    /// Meters above the WGS84 ellipsoid (what GNSS receivers and ARCore report).
    case ellipsoidal(Double)
    /// Orthometric meters above mean sea level (the geoid); needs a geoid (``AnchorEnvironment/geoid``, EGM96 ``GeoidGrid``): *h = H + N*.
    case meanSeaLevel(Double)
    /// Meters above the terrain surface of a ``TerrainModel`` (e.g. an ``ElevationGrid`` DEM: GeoTIFF, SRTM `.hgt`, ESRI ASCII).
    case aboveTerrain(Double)
    /// Meters above the floor the device stands on (``DevicePose/heightAboveFloor`` below the device);
    /// moves with the device's height estimate, e.g. for an indoor exhibit.
    case aboveFloor(Double)

    /// The height in meters, whatever its datum.
    @inlinable
    public var meters: Double {
        switch self {
        case .ellipsoidal(let h), .meanSeaLevel(let h), .aboveTerrain(let h), .aboveFloor(let h): return h
        }
    }

    /// Whether the height is relative to the device's floor (``aboveFloor(_:)``).
    public var isFloorRelative: Bool {
        if case .aboveFloor = self { return true }
        return false
    }
}

/// A model's orientation about its anchor point, in degrees.
///
/// The model's own axes are those of ARKit/RealityKit content: +x right, +y up, −z forward.
/// With all angles 0 the model stands upright on the local vertical at the anchor (the
/// ellipsoid normal there, not at the device) with −z pointing to true north, +x to east.
/// Rotations are applied in the order yaw, pitch, roll (intrinsic):
/// - ``yaw``: degrees clockwise from true north, seen from above (rotation about the local up);
/// - ``pitch``: degrees, positive raises the model's front (−z) above the horizon;
/// - ``roll``: degrees, positive lowers the model's right side (+x).
public struct AnchorOrientation: Sendable, Hashable, Codable {
    /// Degrees clockwise from true north; any finite value.
    public var yaw: Double
    /// Degrees, nose up positive; any finite value.
    public var pitch: Double
    /// Degrees, right side down positive; any finite value.
    public var roll: Double

    public init(yaw: Double = 0, pitch: Double = 0, roll: Double = 0) {
        self.yaw = yaw; self.pitch = pitch; self.roll = roll
    }

    /// Upright, facing true north.
    public static let identity = AnchorOrientation()
}

/// A 3D model placed at a geographic position: a reconstructed gate, a lost church, a tour stop.
///
/// Values only; resolving the height datum and placing the anchor in an AR frame is done by
/// ``AnchorPlacer`` (one-shot, Double results) or ``AnchorField`` (batch re-pose per frame).
public struct GeoAnchor: Sendable, Hashable, Identifiable {
    /// Caller-chosen identifier (reported with per-anchor errors).
    public var id: String
    /// Geodetic latitude in degrees (WGS84), [−90, 90].
    public var latitude: Double
    /// Longitude in degrees (WGS84), finite.
    public var longitude: Double
    /// Height and its datum.
    public var altitude: AnchorAltitude
    /// The model's orientation about the anchor point.
    public var orientation: AnchorOrientation
    /// Uniform model scale (dimensionless), finite and > 0.
    public var scale: Double
    /// Radius in meters of a sphere about the anchor point that contains the model (≥ 0);
    /// used for the horizon test (the top of the model may show above the horizon).
    public var boundingRadius: Double
    /// 68 % horizontal uncertainty of the anchor's own surveyed position, meters (≥ 0).
    public var horizontalAccuracy: Double
    /// 68 % uncertainty of the anchor's height, meters (≥ 0).
    public var verticalAccuracy: Double
    /// Free-form key/value pairs (model file, title, epoch, …); not interpreted.
    public var metadata: [String: String]

    public init(id: String, latitude: Double, longitude: Double, altitude: AnchorAltitude,
                orientation: AnchorOrientation = .identity, scale: Double = 1, boundingRadius: Double = 0,
                horizontalAccuracy: Double = 0, verticalAccuracy: Double = 0, metadata: [String: String] = [:]) {
        self.id = id
        self.latitude = latitude
        self.longitude = longitude
        self.altitude = altitude
        self.orientation = orientation
        self.scale = scale
        self.boundingRadius = boundingRadius
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.metadata = metadata
    }

    /// Checks every numeric field.
    /// - Throws: ``GeoAnchorError/invalidLatitude(_:)``, ``GeoAnchorError/invalidLongitude(_:)``,
    ///   ``GeoAnchorError/nonFinite(name:value:)``, ``GeoAnchorError/outOfRange(name:value:allowed:)``.
    public func validate() throws(GeoAnchorError) {
        guard latitude.isFinite, Swift.abs(latitude) <= 90 else { throw .invalidLatitude(latitude) }
        guard longitude.isFinite else { throw .invalidLongitude(longitude) }
        guard altitude.meters.isFinite else { throw .nonFinite(name: "altitude", value: altitude.meters) }
        for (name, v) in [("yaw", orientation.yaw), ("pitch", orientation.pitch), ("roll", orientation.roll)] {
            guard v.isFinite else { throw .nonFinite(name: name, value: v) }
        }
        guard scale.isFinite, scale > 0 else { throw .outOfRange(name: "scale", value: scale, allowed: .greaterThan(0)) }
        for (name, v) in [("boundingRadius", boundingRadius), ("horizontalAccuracy", horizontalAccuracy),
                          ("verticalAccuracy", verticalAccuracy)] {
            guard v.isFinite, v >= 0 else { throw .outOfRange(name: name, value: v, allowed: .atLeast(0)) }
        }
    }
}
