import Foundation

/// Everything a running tour remembers, Codable for pause/resume (encode it when the app goes
/// to the background, pass it to ``TourSession/init(tour:configuration:resuming:)`` later).
///
/// Fences are keyed by id, so a state stays valid when the tour file gains or reorders stops;
/// only fences that are not in their initial state (outside, nothing pending) are stored.
public struct TourState: Sendable, Hashable, Codable {
    /// Hysteresis state of stops that are inside or pending, by stop id.
    public var stops: [String: FenceState] = [:]
    /// Hysteresis state of zones that are inside or pending, by zone id.
    public var zones: [String: FenceState] = [:]
    /// The corridor state (`isInside` = off route).
    public var route = FenceState()
    /// Visited stop ids in visiting order (a stop is visited when it is entered).
    public var visitedStopIDs: [String] = []
    /// Distance along the path, meters (nil before the first position or without a path).
    public var progressAlongPath: Double?
    /// The last position processed.
    public var lastPosition: LastPosition?

    /// The last processed position and what was derived from it.
    public struct LastPosition: Sendable, Hashable, Codable {
        /// UTC seconds since 1970.
        public var time: Double
        /// Degrees, WGS84.
        public var latitude: Double
        public var longitude: Double
        /// Per-axis σ used, meters.
        public var sigma: Double
        /// Device heading (degrees from true north), when the fix had one.
        public var heading: Double?
        /// Distance from the path, meters (nil without a path).
        public var distanceFromPath: Double?
    }

    public init() {}
}
