import Foundation

extension Tour {
    /// A tour defined in a GPX file, as outdoor and mapping apps export one: its waypoints are
    /// the stops, in document order, and its track segments (else routes) the walking path,
    /// joined in order.
    /// (`try Tour(waypoints: GPXReader.waypoints(url: url), path: GPXReader.lines(url: url))`.)
    ///
    /// - Parameters:
    ///   - waypoints: the stops (``GPXReader/waypoints(url:options:)``); each stop's id is the
    ///     waypoint's `<name>`, whitespace trimmed, or `waypoint N` (1-based) without one, and
    ///     its ``TourStop/name`` the waypoint's name. Heights are not used (fences are 2-D).
    ///   - lines: the path's lines (``GPXReader/lines(url:options:)``), joined in order (a point
    ///     repeated where one line ends and the next begins is kept once); empty: no path.
    ///   - radius: every stop's trigger radius, meters, in ``TourStop/radiusRange`` (GPX has no
    ///     such field).
    /// - Throws: ``TourError`` as ``init(stops:zones:path:pathID:)``: no waypoints
    ///   (``TourError/noStops``), two waypoints of one name (``TourError/duplicateID(_:firstIndex:secondIndex:)``),
    ///   a radius out of range, a path of one point or of length 0.
    public init(waypoints: [GPXWaypoint], path lines: [[GeodeticCoordinate]] = [], radius: Double = 20) throws(TourError) {
        try self.init(waypoints: waypoints, path: lines, areas: [], radius: radius)
    }

    /// A tour drawn in Google My Maps or Google Earth (KML or KMZ): as
    /// ``init(waypoints:path:radius:)``, with its areas (``KMLReader/areas(url:options:)``) as
    /// the zones — each zone's id the area's `<name>`, whitespace trimmed, or `zone N` (1-based)
    /// without one.
    /// (`try Tour(waypoints: KMLReader.waypoints(url: url), path: KMLReader.lines(url: url), areas: KMLReader.areas(url: url))`.)
    /// - Throws: ``TourError`` as ``init(waypoints:path:radius:)``, and for two areas of one
    ///   name (``TourError/duplicateID(_:firstIndex:secondIndex:)``) or an invalid ring.
    public init(waypoints: [GPXWaypoint], path lines: [[GeodeticCoordinate]] = [], areas: [KMLArea], radius: Double = 20) throws(TourError) {
        let ids = GPXWaypoint.stopIDs(waypoints)
        let stops = zip(waypoints, ids).map { w, id in
            TourStop(id: id, coordinate: GeodeticCoordinate(latitude: w.latitude, longitude: w.longitude), radius: radius, name: w.name)
        }
        let zones = areas.enumerated().map { k, a in
            let name = a.name?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            return TourZone(id: name.isEmpty ? "zone \(k + 1)" : name, polygons: a.polygons, name: a.name)
        }
        var path: [GeodeticCoordinate] = []
        for line in lines {
            for c in line {
                let flat = GeodeticCoordinate(latitude: c.latitude, longitude: c.longitude)
                if path.last != flat { path.append(flat) }
            }
        }
        try self.init(stops: stops, zones: zones, path: path)
    }
}
