import Foundation

/// How a GNSS fix was obtained (NMEA GGA quality indicator semantics).
public enum FixQuality: Int, Sendable, Hashable, Codable {
    case invalid = 0
    case gps = 1
    case differential = 2
    case pps = 3
    case rtkFixed = 4
    case rtkFloat = 5
    case estimated = 6
    case manual = 7
    case simulation = 8
}

/// One timestamped position fix, as a phone or receiver reports it.
///
/// Optional fields are `nil` when the source did not report them (never 0 or −1 as a sentinel).
/// Accuracy figures follow CoreLocation: ``horizontalAccuracy`` is the radius of 68 % confidence
/// in meters, ``verticalAccuracy`` the 68 % half-interval in meters.
public struct Fix: Sendable, Hashable, Codable {
    /// UTC time in seconds since 1970-01-01T00:00:00Z.
    public var time: Double
    /// Degrees, WGS84, [−90, 90].
    public var latitude: Double
    /// Degrees, WGS84, [−180, 180].
    public var longitude: Double
    /// Height in meters above ``verticalReference``'s datum, if known.
    public var height: Double?
    /// The datum of ``height``.
    public var verticalReference: VerticalReference
    /// Geoid undulation N (meters, ellipsoid height = MSL height + N) when the source states it
    /// (e.g. NMEA GGA field 11).
    public var geoidSeparation: Double?
    /// Radius of 68 % confidence, meters.
    public var horizontalAccuracy: Double?
    /// 68 % vertical half-interval, meters.
    public var verticalAccuracy: Double?
    /// Ground speed, m/s.
    public var speed: Double?
    /// Course over ground, degrees clockwise from true north, [0, 360).
    public var course: Double?
    /// Device heading, degrees clockwise from true north, [0, 360).
    public var heading: Double?
    /// Heading accuracy, degrees (68 %).
    public var headingAccuracy: Double?
    /// Fix type.
    public var quality: FixQuality?
    /// Satellites used.
    public var satellites: Int?
    /// Horizontal, vertical and position dilution of precision (dimensionless).
    public var hdop: Double?
    public var vdop: Double?
    public var pdop: Double?

    public init(time: Double, latitude: Double, longitude: Double, height: Double? = nil,
                verticalReference: VerticalReference = .ellipsoid, geoidSeparation: Double? = nil,
                horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil,
                speed: Double? = nil, course: Double? = nil, heading: Double? = nil,
                headingAccuracy: Double? = nil, quality: FixQuality? = nil, satellites: Int? = nil,
                hdop: Double? = nil, vdop: Double? = nil, pdop: Double? = nil) {
        self.time = time
        self.latitude = latitude
        self.longitude = longitude
        self.height = height
        self.verticalReference = verticalReference
        self.geoidSeparation = geoidSeparation
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.speed = speed
        self.course = course
        self.heading = heading
        self.headingAccuracy = headingAccuracy
        self.quality = quality
        self.satellites = satellites
        self.hdop = hdop
        self.vdop = vdop
        self.pdop = pdop
    }

    /// The position as a geodetic coordinate (height 0 on the ellipsoid when unknown).
    public var coordinate: GeodeticCoordinate {
        GeodeticCoordinate(latitude: latitude, longitude: longitude, height: height ?? 0,
                           verticalReference: height == nil ? .ellipsoid : verticalReference)
    }

    /// Ellipsoidal height when it is known or derivable from the stated geoid separation.
    public var ellipsoidalHeight: Double? {
        guard let h = height else { return nil }
        switch verticalReference {
        case .ellipsoid: return h
        case .meanSeaLevel: return geoidSeparation.map { h + $0 }
        }
    }
}
