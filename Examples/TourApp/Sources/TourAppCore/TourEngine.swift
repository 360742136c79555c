import Foundation
import GeoAnchorKit

/// A point of interest of a heritage tour: where a vanished building stood, and its model.
public struct PointOfInterest: Sendable, Hashable {
    public var id: String
    public var latitude: Double
    public var longitude: Double
    /// Height of the model's base above mean sea level, meters (what a map or survey gives).
    public var altitude: Double
    public var dwellSeconds: Double

    public init(id: String, latitude: Double, longitude: Double, altitude: Double, dwellSeconds: Double = 120) {
        self.id = id; self.latitude = latitude; self.longitude = longitude; self.altitude = altitude
        self.dwellSeconds = dwellSeconds
    }
}

/// What the engine tells the UI after each location update.
public struct TourUpdate: Sendable {
    public var events: [TourEvent]
    public var guidance: TourGuidance?
    /// Each POI's placement (AR frame of an ARKit gravity-and-heading session) or why it failed.
    public var placements: [String: Result<AnchorPlacement, GeoAnchorError>]
    /// The filtered position fed to the tour (nil when the filter refused the fix).
    public var position: FilteredFix?
    /// Why the fix was refused (by the position filter or the tour session), nil when it was used.
    public var refusal: InputRefusal? = nil
}

/// What the engine tells the AR view after each AR frame, once the session is aligned.
public struct ARAlignment: Sendable {
    /// The session's alignment to the Earth: device position and heading with their σ, the true
    /// heading of the session's −z axis (`frameHeading`).
    public var estimate: GeoRegistrationEstimate
    /// Each POI's model position in the ARKit session frame (meters; put an `ARAnchor` there), or
    /// why it could not be placed.
    public var anchorPositions: [String: Result<SIMD3<Double>, GeoAnchorError>]
    /// Relocalisations and large corrections since the previous frame (tell the user the scene
    /// was re-aligned).
    public var events: [GeoRegistrationEvent]
}

/// The app's location brain, isolated in an actor: plans the tour, filters position and heading,
/// runs the tour session and places the POIs' models — from the compass (``locationUpdate(_:)``)
/// or, in an AR view, from the session aligned by AR tracking + GNSS + compass
/// (``arFrameUpdate(time:cameraPosition:cameraYaw:)``).
public actor TourEngine {
    public let tour: Tour
    public let plan: RoutePlan
    private var session: TourSession
    private var positionFilter: PositionFilter
    private var headingFilter = HeadingFilter()
    private let anchors: [GeoAnchor]
    private let placer: AnchorPlacer
    private let environment: AnchorEnvironment
    /// The AR session (ARKit `.gravity`) aligned to the Earth, map-aided by the tour's own path.
    private var registration: GeoRegistration

    /// Plans the visiting order from `start` (a walk along `paths` when given, else straight
    /// legs), builds the tour and its session.
    public init(pois: [PointOfInterest], start: CoordinateSample, paths: [[GeodeticCoordinate]] = [],
                triggerRadius: Double = 20) throws {
        // A POI's altitude is its model's base (a statue on a plinth, a roof), not where the
        // visitor walks: stops and start have no height, so on paths with heights they take the
        // path's height where they are snapped (a 0 m height would climb to every path).
        let stops = pois.map { RouteStop(id: $0.id, latitude: $0.latitude, longitude: $0.longitude, dwell: $0.dwellSeconds) }
        var problem = RouteProblem(stops: stops, start: .location(GeodeticCoordinate(latitude: start.latitude, longitude: start.longitude)))
        problem.startHasHeight = false
        if paths.isEmpty {
            plan = try RoutePlanner.plan(problem)
        } else {
            plan = try RoutePlanner.plan(problem, network: PathNetwork(lineStrings: paths))
        }
        tour = try Tour(plan: plan, problem: problem, radius: triggerRadius)
        session = try TourSession(tour: tour)
        // Map aiding: the filter knows the planned walk.
        positionFilter = PositionFilter(path: try tour.pathConstraint())
        anchors = pois.map {
            GeoAnchor(id: $0.id, latitude: $0.latitude, longitude: $0.longitude, altitude: .meanSeaLevel($0.altitude))
        }
        // MSL anchors need a geoid: the app ships an EGM96 excerpt in its bundle. (Without one,
        // placement reports a typed error per anchor instead of a wrong height.)
        environment = AnchorEnvironment(geoid: try Self.bundledGeoid())
        placer = AnchorPlacer(environment: environment, convention: .arkitGravityAndHeading)
        // Visitors stray from the planned line and the line is drawn from map data: σ 2 m.
        registration = GeoRegistration(convention: .arkitGravity(sessionHeading: 0), path: try tour.pathConstraint(crossTrackSigma: 2))
    }

    /// An AR frame of an ARKit `.gravity` session (`ARFrame.camera.transform`: the camera's
    /// position in meters and its yaw, degrees clockwise seen from above, 0 = the session's −z).
    /// Returns nil until the session is aligned (the first fix with a compass reading, or 30 m
    /// walked without one).
    public func arFrameUpdate(time: Double, cameraPosition: SIMD3<Double>, cameraYaw: Double) throws -> ARAlignment? {
        try registration.update(tracking: ARTrackingSample(time: time, position: cameraPosition, yaw: cameraYaw))
        let events = registration.events
        registration.removeEvents()
        guard let estimate = registration.estimate else { return nil }
        // Placements relative to the device in the session's axes, shifted to the session origin.
        let sessionPlacer = AnchorPlacer(environment: environment, convention: .arkitGravity(sessionHeading: estimate.frameHeading))
        var positions: [String: Result<SIMD3<Double>, GeoAnchorError>] = [:]
        for (a, r) in zip(anchors, try sessionPlacer.place(anchors, registration: estimate)) {
            positions[a.id] = r.map { estimate.devicePositionInSession + $0.position }
        }
        return ARAlignment(estimate: estimate, anchorPositions: positions, events: events)
    }

    /// The EGM96 excerpt shipped as a bundle resource (`Bundle.main` in an app target).
    public static func bundledGeoid() throws -> GeoidGrid {
        guard let url = Bundle.module.url(forResource: "egm96-prague", withExtension: "gtx") else {
            throw GeoAnchorError.fileNotFound(path: "egm96-prague.gtx in the app bundle")
        }
        return try GeoidGrid(path: url.path)
    }

    /// A compass reading (CoreLocation's `CLHeading`: true heading and its accuracy, degrees).
    /// - Throws: a non-finite heading or time (from the AR alignment, which also takes the reading).
    public func headingUpdate(trueHeading: Double, accuracy: Double, time: Double) throws -> HeadingFilter.CompassOutcome {
        // CoreLocation's negative accuracy marks an invalid heading: only valid ones align the session.
        if accuracy > 0 {
            try registration.update(compass: CompassReading(time: time, heading: trueHeading, headingAccuracy: accuracy))
        }
        return headingFilter.update(heading: trueHeading, accuracy: accuracy, time: time)
    }

    /// A gyroscope sample (CoreMotion `rotationRate.z`, rad/s).
    public func gyroUpdate(rotationRateZ: Double, time: Double) -> HeadingFilter.PredictOutcome {
        headingFilter.predict(to: time, gyroZ: rotationRateZ)
    }

    /// A location update (built from a `CLLocation` with ``Fix/init(timestamp:latitude:longitude:altitude:ellipsoidalAltitude:horizontalAccuracy:verticalAccuracy:course:speed:)``).
    public func locationUpdate(_ fix: Fix) throws -> TourUpdate {
        guard let filtered = positionFilter.process(fix) else {
            return TourUpdate(events: [], guidance: session.guidance(), placements: [:], position: nil,
                              refusal: positionFilter.lastRefusal)
        }
        // The AR alignment takes the raw fix (it has its own error model); only fixes the filter accepted.
        try registration.update(fix: fix)
        let update = try session.update(filtered.fix)
        if let r = update.refusal {
            return TourUpdate(events: [], guidance: session.guidance(), placements: [:], position: filtered, refusal: r)
        }
        let events = update.events
        var placements: [String: Result<AnchorPlacement, GeoAnchorError>] = [:]
        if let heading = headingFilter.estimate {
            let pose = DevicePose(position: filtered.fix.coordinate, horizontalAccuracy: filtered.horizontalAccuracy,
                                  verticalAccuracy: filtered.verticalAccuracy ?? 10, heading: heading.heading,
                                  headingAccuracy: heading.accuracy68)
            let results = try placer.place(anchors, from: pose)
            for (a, r) in zip(anchors, results) { placements[a.id] = r }
        }
        return TourUpdate(events: events, guidance: session.guidance(deviceHeading: headingFilter.estimate?.heading),
                          placements: placements, position: filtered)
    }
}

/// A latitude/longitude pair (degrees).
public struct CoordinateSample: Sendable, Hashable {
    public var latitude: Double, longitude: Double
    public init(latitude: Double, longitude: Double) { self.latitude = latitude; self.longitude = longitude }
}
