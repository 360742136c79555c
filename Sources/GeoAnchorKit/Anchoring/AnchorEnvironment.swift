import Foundation

/// What it takes to turn an anchor's or device's height into an ellipsoidal height: the
/// ellipsoid, an optional geoid (for MSL heights) and an optional terrain model (for heights
/// above terrain).
public struct AnchorEnvironment: Sendable {
    /// The ellipsoid of every coordinate (WGS84 unless told otherwise).
    public var ellipsoid: Ellipsoid
    /// Geoid for MSL heights (and for MSL terrain models): the EGM96 ``GeoidGrid``
    /// (bilinear, as PROJ's `vgridshift`).
    public var geoid: GeoidGrid?
    /// Terrain for ``AnchorAltitude/aboveTerrain(_:)``.
    public var terrain: (any TerrainModel)?

    public init(ellipsoid: Ellipsoid = .wgs84, geoid: GeoidGrid? = nil, terrain: (any TerrainModel)? = nil) {
        self.ellipsoid = ellipsoid; self.geoid = geoid; self.terrain = terrain
    }

    /// Ellipsoidal height in meters of a height given above `reference` at a point.
    /// - Throws: ``GeoAnchorError/verticalReferenceMismatch(expected:got:)`` for an MSL height
    ///   without a geoid; the geoid's coverage errors.
    public func ellipsoidalHeight(_ height: Double, reference: VerticalReference,
                                  latitude: Double, longitude: Double) throws(GeoAnchorError) -> Double {
        switch reference {
        case .ellipsoid: return height
        case .meanSeaLevel:
            guard let geoid else { throw .verticalReferenceMismatch(expected: .ellipsoid, got: .meanSeaLevel) }
            return height + (try geoid.undulation(latitude: latitude, longitude: longitude))
        }
    }

    /// A coordinate converted to an ellipsoidal height (validated).
    public func ellipsoidal(_ c: GeodeticCoordinate) throws(GeoAnchorError) -> GeodeticCoordinate {
        try c.validate()
        let h = try ellipsoidalHeight(c.height, reference: c.verticalReference, latitude: c.latitude, longitude: c.longitude)
        return GeodeticCoordinate(latitude: c.latitude, longitude: c.longitude, ellipsoidalHeight: h)
    }

    /// The anchor's ellipsoidal height in meters.
    /// - Parameters:
    ///   - anchor: a validated anchor.
    ///   - floorEllipsoidalHeight: the device's floor level (meters above the ellipsoid); needed
    ///     only for ``AnchorAltitude/aboveFloor(_:)``.
    /// - Throws: ``GeoAnchorError/verticalReferenceMismatch(expected:got:)`` when the geoid or
    ///   terrain model the datum needs is missing (a missing terrain model is reported as
    ///   `outsideCoverage(…, what: "terrain model (none supplied)")`); coverage errors of the
    ///   geoid or terrain.
    public func ellipsoidalHeight(of anchor: GeoAnchor, floorEllipsoidalHeight: Double?) throws(GeoAnchorError) -> Double {
        try anchor.validate()
        switch anchor.altitude {
        case .ellipsoidal(let h): return h
        case .meanSeaLevel(let h):
            return try ellipsoidalHeight(h, reference: .meanSeaLevel, latitude: anchor.latitude, longitude: anchor.longitude)
        case .aboveTerrain(let dh):
            guard let terrain else {
                throw .outsideCoverage(latitude: anchor.latitude, longitude: anchor.longitude, what: "terrain model (none supplied)")
            }
            let ground = try terrain.terrainHeight(latitude: anchor.latitude, longitude: anchor.longitude)
            return try ellipsoidalHeight(ground, reference: terrain.verticalReference,
                                         latitude: anchor.latitude, longitude: anchor.longitude) + dh
        case .aboveFloor(let dh):
            guard let floor = floorEllipsoidalHeight, floor.isFinite else {
                throw .nonFinite(name: "floorEllipsoidalHeight", value: floorEllipsoidalHeight ?? .nan)
            }
            return floor + dh
        }
    }
}

/// The device's pose estimate: position and heading, each with its uncertainty.
///
/// Accuracy figures follow CoreLocation: ``horizontalAccuracy`` is the 68 % radius in meters,
/// ``headingAccuracy`` the 68 % half-angle in degrees.
public struct DevicePose: Sendable, Hashable {
    /// Device position; the height may be ellipsoidal or MSL (resolved through the environment's geoid).
    public var position: GeodeticCoordinate
    /// 68 % horizontal radius, meters (≥ 0).
    public var horizontalAccuracy: Double
    /// 68 % vertical half-interval, meters (≥ 0).
    public var verticalAccuracy: Double
    /// Degrees clockwise from true north where the camera looks, [0, 360).
    public var heading: Double
    /// 68 % heading half-angle, degrees (≥ 0).
    public var headingAccuracy: Double
    /// Height of the device above the floor it stands on, meters (default 1.5, a hand-held phone).
    public var heightAboveFloor: Double

    /// A pose with its uncertainties. The accuracies are required: a pose that claims 0 m and 0°
    /// makes every anchor claim a sub-metre error (150 m away: 0.74 m) that the phone cannot
    /// deliver. Pass CoreLocation's `horizontalAccuracy`, `verticalAccuracy` and
    /// `headingAccuracy`, or a filter's (``PositionFilter``, ``HeadingFilter/Estimate/accuracy68``).
    /// For a pose known exactly (tests, simulations) use ``exact(position:heading:heightAboveFloor:)``.
    public init(position: GeodeticCoordinate, horizontalAccuracy: Double, verticalAccuracy: Double,
                heading: Double, headingAccuracy: Double, heightAboveFloor: Double = 1.5) {
        self.position = position
        self.horizontalAccuracy = horizontalAccuracy
        self.verticalAccuracy = verticalAccuracy
        self.heading = heading
        self.headingAccuracy = headingAccuracy
        self.heightAboveFloor = heightAboveFloor
    }

    /// A pose known exactly (every accuracy 0): for geometry tests and simulations, never for
    /// a phone's estimate.
    public static func exact(position: GeodeticCoordinate, heading: Double = 0, heightAboveFloor: Double = 1.5) -> DevicePose {
        DevicePose(position: position, horizontalAccuracy: 0, verticalAccuracy: 0, heading: heading, headingAccuracy: 0,
                   heightAboveFloor: heightAboveFloor)
    }

    /// Checks ranges of every field: accuracies ≥ 0 and finite, the horizontal and vertical ones
    /// at most ``Fix/maximumUsableHorizontalAccuracy`` (100 km: at 1e200 m every anchor's
    /// uncertainty was NaN and the loading order meaningless); the position's height and
    /// ``heightAboveFloor`` within ±``Fix/maximumUsableHeight`` (a pose 1e20 m high put the anchors
    /// 1e14 m away). A heading accuracy beyond 180° is allowed (the heading is then unknown;
    /// ``AnchorUncertainty`` counts it as 180°).
    public func validate() throws(GeoAnchorError) {
        try position.validate()
        guard heading.isFinite else { throw .nonFinite(name: "heading", value: heading) }
        let usable = ValueRange.closed(0, Fix.maximumUsableHorizontalAccuracy, unit: "m")
        for (n, v) in [("horizontalAccuracy", horizontalAccuracy), ("verticalAccuracy", verticalAccuracy)] {
            try usable.check(v, name: n)
        }
        guard headingAccuracy.isFinite, headingAccuracy >= 0 else {
            throw .outOfRange(name: "headingAccuracy", value: headingAccuracy, allowed: .atLeast(0))
        }
        let heights = ValueRange.closed(-Fix.maximumUsableHeight, Fix.maximumUsableHeight, unit: "m")
        try heights.check(position.height, name: "height")
        try heights.check(heightAboveFloor, name: "heightAboveFloor")
    }
}
