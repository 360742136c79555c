import Foundation

/// What happened (the `type` of `geobench tour`'s output).
public enum TourEventKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// The visitor arrived at a stop or entered a zone.
    case enter
    /// The visitor left a stop's trigger area or a zone.
    case exit
    /// The visitor has stayed inside for the minimum dwell time.
    case dwell
    /// The visitor left the corridor around the path.
    case offRoute = "off_route"
    /// The visitor came back into the corridor.
    case onRoute = "on_route"
}

/// Which kind of tour feature an event is about.
public enum TourFeatureKind: String, Sendable, Hashable, Codable {
    case stop, zone, path
}

/// One tour event.
public struct TourEvent: Sendable, Hashable, Codable {
    /// UTC seconds since 1970: the time of the position that completed the event's confirmation.
    public var time: Double
    public var kind: TourEventKind
    /// The stop's, zone's or path's id.
    public var id: String
    public var feature: TourFeatureKind

    public init(time: Double, kind: TourEventKind, id: String, feature: TourFeatureKind) {
        self.time = time; self.kind = kind; self.id = id; self.feature = feature
    }
}

/// Where the visitor stands relative to the tour, for the UI: next stop, arrow, progress, ETA.
public struct TourGuidance: Sendable, Hashable, Codable {
    /// The first stop (in tour order) not yet visited, nil when all are visited.
    public var nextStopID: String?
    /// Horizontal distance to the next stop's centre, meters (ENU frame at the visitor).
    public var distanceToNextStop: Double?
    /// Direction to the next stop, degrees clockwise from true north in [0, 360).
    public var bearingToNextStop: Double?
    /// Where to point an arrow: bearing − device heading, degrees in (−180, 180] (positive =
    /// turn right). Nil without a heading.
    public var arrowAngle: Double?
    /// Seconds to reach the next stop at the configured walking speed: along the path when on
    /// route (remaining path length to the stop's projection + the stop's offset from the path),
    /// else straight-line.
    public var etaToNextStop: Double?
    /// Distance walked along the path, meters (nil without a path).
    public var progressAlongPath: Double?
    /// Total path length, meters (nil without a path).
    public var pathLength: Double?
    /// Distance from the path, meters (nil without a path).
    public var distanceFromPath: Double?
    /// Whether an `off_route` event is in force.
    public var isOffRoute: Bool
    /// Ids of visited stops, in visiting order.
    public var visitedStopIDs: [String]
}
