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
    /// The largest horizontal accuracy (m) the estimators use: 100 km. A fix stating more says
    /// nothing about a walk (receivers put 9999 m or more on invalid fixes), and its variance next
    /// to centimeter-level states would cost a filter its precision (1e100 m once made a filtered
    /// walk 5 × worse than its input; 1e20 m made a tour zone "entered", P(inside) rounding to
    /// ½). ``PositionFilter`` and ``TourSession`` refuse such fixes as invalid (counted),
    /// ``GeoRegistration`` counts them gated.
    public static let maximumUsableHorizontalAccuracy = 100_000.0
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

    /// A fix whose height datum is given explicitly (readers that learn it from the file).
    ///
    /// - Parameters:
    ///   - time: UTC seconds since 1970-01-01.
    ///   - latitude: WGS84 degrees.
    ///   - longitude: WGS84 degrees.
    ///   - height: meters above the datum `verticalReference` names, nil when unknown.
    ///   - verticalReference: required: a height is never assumed to be ellipsoidal or MSL.
    ///   - geoidSeparation: geoid height N above the ellipsoid (m) when the source states it
    ///     (NMEA GGA field 11), so `ellipsoidal = MSL + N`.
    ///   - horizontalAccuracy: 68 % horizontal radius, meters.
    ///   - verticalAccuracy: 68 % vertical half-width, meters.
    ///   - speed: meters per second.
    ///   - course: direction of travel, degrees clockwise from true north.
    ///   - heading: direction the device faces, degrees clockwise from true north.
    ///   - headingAccuracy: 68 % half-width, degrees.
    ///   - quality: NMEA GGA fix quality.
    ///   - satellites: satellites used.
    ///   - hdop: horizontal dilution of precision.
    ///   - vdop: vertical dilution of precision.
    ///   - pdop: position dilution of precision.
    public init(time: Double, latitude: Double, longitude: Double, height: Double?,
                verticalReference: VerticalReference, geoidSeparation: Double? = nil,
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

    /// A fix with no height or a height above the WGS84 **ellipsoid** (GNSS receivers, Android
    /// `Location.getAltitude()`, CoreLocation's `ellipsoidalAltitude`). For a height above mean sea
    /// level (CoreLocation's `altitude`) use ``init(time:latitude:longitude:altitude:geoidSeparation:horizontalAccuracy:verticalAccuracy:speed:course:heading:headingAccuracy:quality:satellites:hdop:vdop:pdop:)``.
    public init(time: Double, latitude: Double, longitude: Double, ellipsoidalHeight: Double? = nil,
                horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil,
                speed: Double? = nil, course: Double? = nil, heading: Double? = nil,
                headingAccuracy: Double? = nil, quality: FixQuality? = nil, satellites: Int? = nil,
                hdop: Double? = nil, vdop: Double? = nil, pdop: Double? = nil) {
        self.init(time: time, latitude: latitude, longitude: longitude, height: ellipsoidalHeight, verticalReference: .ellipsoid,
                  horizontalAccuracy: horizontalAccuracy, verticalAccuracy: verticalAccuracy, speed: speed, course: course,
                  heading: heading, headingAccuracy: headingAccuracy, quality: quality, satellites: satellites,
                  hdop: hdop, vdop: vdop, pdop: pdop)
    }

    /// A fix with a height above **mean sea level** (CoreLocation's `altitude`, NMEA GGA, GPX
    /// `ele`). `geoidSeparation` (N, m) makes the ellipsoidal height known (`altitude + N`);
    /// without it, code that needs an ellipsoidal height converts with a geoid grid or refuses.
    public init(time: Double, latitude: Double, longitude: Double, altitude: Double, geoidSeparation: Double? = nil,
                horizontalAccuracy: Double? = nil, verticalAccuracy: Double? = nil,
                speed: Double? = nil, course: Double? = nil, heading: Double? = nil,
                headingAccuracy: Double? = nil, quality: FixQuality? = nil, satellites: Int? = nil,
                hdop: Double? = nil, vdop: Double? = nil, pdop: Double? = nil) {
        self.init(time: time, latitude: latitude, longitude: longitude, height: altitude, verticalReference: .meanSeaLevel,
                  geoidSeparation: geoidSeparation, horizontalAccuracy: horizontalAccuracy, verticalAccuracy: verticalAccuracy,
                  speed: speed, course: course, heading: heading, headingAccuracy: headingAccuracy, quality: quality,
                  satellites: satellites, hdop: hdop, vdop: vdop, pdop: pdop)
    }

    /// A fix from CoreLocation's `CLLocation`, field for field, so an app's adapter is one call:
    ///
    /// ```swift
    /// let fix = Fix(timestamp: l.timestamp, latitude: l.coordinate.latitude, longitude: l.coordinate.longitude,
    ///               altitude: l.altitude, ellipsoidalAltitude: l.ellipsoidalAltitude,
    ///               horizontalAccuracy: l.horizontalAccuracy, verticalAccuracy: l.verticalAccuracy,
    ///               course: l.course, speed: l.speed)
    /// ```
    ///
    /// CoreLocation's conventions are honoured: `altitude` is above mean sea level and
    /// `ellipsoidalAltitude` above the WGS84 ellipsoid (their difference is the geoid separation
    /// kept in ``geoidSeparation``); a negative `verticalAccuracy` means both altitudes are
    /// invalid; negative `course` or `speed` mean "invalid" and become nil. A negative
    /// `horizontalAccuracy` means the *coordinate* is invalid (CoreLocation): it is kept, so
    /// ``PositionFilter`` and ``TourSession`` refuse the fix with a reason (``InputRefusal``)
    /// instead of using an invalid position with a default accuracy.
    /// Pass `ellipsoidalAltitude: nil` before iOS 15 (then only the MSL altitude is known).
    public init(timestamp: Date, latitude: Double, longitude: Double, altitude: Double, ellipsoidalAltitude: Double?,
                horizontalAccuracy: Double, verticalAccuracy: Double, course: Double = -1, speed: Double = -1) {
        let heightValid = verticalAccuracy >= 0
        let h: Double? = heightValid ? (ellipsoidalAltitude ?? altitude) : nil
        self.init(time: timestamp.timeIntervalSince1970, latitude: latitude, longitude: longitude, height: h,
                  verticalReference: heightValid && ellipsoidalAltitude != nil ? .ellipsoid : .meanSeaLevel,
                  geoidSeparation: heightValid ? ellipsoidalAltitude.map { $0 - altitude } : nil,
                  horizontalAccuracy: horizontalAccuracy,
                  verticalAccuracy: heightValid ? verticalAccuracy : nil,
                  speed: speed >= 0 ? speed : nil, course: course >= 0 ? course : nil)
    }

    /// Height above mean sea level when it is known or derivable from the stated geoid separation
    /// (CoreLocation's `altitude`).
    public var altitude: Double? {
        guard let h = height else { return nil }
        switch verticalReference {
        case .meanSeaLevel: return h
        case .ellipsoid: return geoidSeparation.map { h - $0 }
        }
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

extension Fix {
    /// Per-axis horizontal σ (m) from the fix's HDOP: `HDOP × uere / √2` (the user-equivalent
    /// range error spread over two axes); nil without a positive, finite HDOP. The fallback of
    /// ``PositionFilter`` and ``GeoRegistration`` for fixes that state no accuracy.
    func hdopHorizontalSigma(userEquivalentRangeError uere: Double) -> Double? {
        guard let h = hdop, h > 0, h.isFinite else { return nil }
        return h * uere / 2.0.squareRoot()
    }
}
