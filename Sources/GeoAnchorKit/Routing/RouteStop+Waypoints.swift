import Foundation

extension RouteStop {
    /// The stops of a tour planned in another app and exported as GPX waypoints (`wpt`: Google
    /// My Maps via GPSBabel, OsmAnd, Garmin BaseCamp, gpxpy), in document order, ready for
    /// ``RouteProblem`` — no CSV to write by hand.
    ///
    /// - Each stop's ``id`` is the waypoint's `<name>` (whitespace trimmed); a waypoint without a
    ///   name is called `waypoint N` (N its 1-based position among the waypoints).
    /// - Heights: the waypoints' `<ele>` (GPX elevations are above mean sea level,
    ///   ``GPXWaypoint/altitude``) when every waypoint has one; no height when none has (on a
    ///   ``PathNetwork`` with heights the stops then take the paths' heights).
    /// - Parameters:
    ///   - waypoints: from ``GPXReader/waypoints(url:options:)``.
    ///   - dwell: seconds spent at every stop, in ``dwellRange`` (GPX has no such field).
    /// - Throws: ``RoutingError/noStops`` for no waypoints; ``RoutingError/duplicateStopID(_:)``
    ///   for two waypoints of one name (a route needs to tell them apart);
    ///   ``RoutingError/mixedVerticalReferences(_:)`` when some waypoints have `<ele>` and others
    ///   not (the climbs to and from those would be invented); ``RoutingError/invalidStop(id:error:)``
    ///   for a dwell outside ``dwellRange``.
    public static func stops(waypoints: [GPXWaypoint], dwell: TimeInterval = 0) throws(RoutingError) -> [RouteStop] {
        guard !waypoints.isEmpty else { throw .noStops }
        let ids = GPXWaypoint.stopIDs(waypoints)
        var seen = Set<String>()
        for id in ids where !seen.insert(id).inserted { throw .duplicateStopID(id) }
        if let with = waypoints.firstIndex(where: { $0.altitude != nil }),
           let without = waypoints.firstIndex(where: { $0.altitude == nil }) {
            throw .mixedVerticalReferences("waypoint '\(ids[with])' has an altitude (GPX <ele>, TCX AltitudeMeters), waypoint '\(ids[without])' none")
        }
        do { try RouteStop.dwellRange.check(dwell, name: "dwell") } catch { throw .invalidStop(id: ids[0], error: error) }
        return zip(waypoints, ids).map { w, id in
            w.altitude.map { RouteStop(id: id, coordinate: GeodeticCoordinate(latitude: w.latitude, longitude: w.longitude, altitude: $0), dwell: dwell) }
                ?? RouteStop(id: id, latitude: w.latitude, longitude: w.longitude, dwell: dwell)
        }
    }
}

extension GPXWaypoint {
    /// The ids waypoints have as stops (of a route or a tour): the `<name>`, whitespace trimmed,
    /// or `waypoint N` (N the 1-based position among the waypoints) for a waypoint without one.
    static func stopIDs(_ waypoints: [GPXWaypoint]) -> [String] {
        waypoints.enumerated().map { i, w in
            let name = w.name?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            return name.isEmpty ? "waypoint \(i + 1)" : name
        }
    }
}
