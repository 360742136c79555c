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

/// The app's location brain, isolated in an actor: plans the tour, filters position and heading,
/// runs the tour session and places the POIs' models.
public actor TourEngine {
    public let tour: Tour
    public let plan: RoutePlan
    private var session: TourSession
    private var positionFilter: PositionFilter
    private var headingFilter = HeadingFilter()
    private let anchors: [GeoAnchor]
    private let placer: AnchorPlacer

    /// Plans the visiting order from `start` (a walk along `paths` when given, else straight
    /// legs), builds the tour and its session.
    public init(pois: [PointOfInterest], start: CoordinateSample, paths: [[GeodeticCoordinate]] = [],
                triggerRadius: Double = 20) throws {
        let stops = pois.map {
            RouteStop(id: $0.id, coordinate: GeodeticCoordinate(latitude: $0.latitude, longitude: $0.longitude),
                      dwell: $0.dwellSeconds)
        }
        let problem = RouteProblem(stops: stops, start: .location(GeodeticCoordinate(latitude: start.latitude, longitude: start.longitude)))
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
        placer = AnchorPlacer(environment: AnchorEnvironment(geoid: try Self.bundledGeoid()), convention: .arkitGravityAndHeading)
    }

    /// The EGM96 excerpt shipped as a bundle resource (`Bundle.main` in an app target).
    public static func bundledGeoid() throws -> GeoidGrid {
        guard let url = Bundle.module.url(forResource: "egm96-prague", withExtension: "gtx") else {
            throw GeoAnchorError.fileNotFound(path: "egm96-prague.gtx in the app bundle")
        }
        return try GeoidGrid(path: url.path)
    }

    /// A compass reading (CoreLocation's `CLHeading`: true heading and its accuracy, degrees).
    public func headingUpdate(trueHeading: Double, accuracy: Double, time: Double) -> HeadingFilter.CompassOutcome {
        headingFilter.update(heading: trueHeading, accuracy: accuracy, time: time)
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
