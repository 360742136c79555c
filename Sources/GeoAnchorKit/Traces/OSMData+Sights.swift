import Foundation

/// Which OpenStreetMap objects are sights a tour may visit: what ``OSMData/sights(_:)`` picks.
///
/// ``standard``: anything tagged `historic` (a castle, a ruin, a memorial, a wayside cross — any
/// value but `no`), `tourism` `attraction`, `museum`, `viewpoint`, `artwork`, `gallery`, and
/// `amenity=place_of_worship` (the churches and chapels of a town walk) — the objects heritage
/// and city-tour apps show. Benches, shops and bus stops are not sights.
public struct OSMSights: Sendable, Hashable {
    /// Keys any value of which (but `no`) makes a sight: `historic`.
    public var anyValue: Set<String>
    /// `key=value` tags that make a sight: `tourism=museum`, …
    public var tags: Set<String>

    public init(anyValue: Set<String>, tags: Set<String>) { self.anyValue = anyValue; self.tags = tags }

    /// See the type's description.
    public static let standard = OSMSights(
        anyValue: ["historic"],
        tags: ["tourism=attraction", "tourism=museum", "tourism=viewpoint", "tourism=artwork", "tourism=gallery",
               "amenity=place_of_worship"])

    /// The tag that makes `tags` a sight (`historic=castle`), nil when none does; keys in
    /// alphabetical order, so the answer does not depend on the dictionary's.
    public func match(_ tags: [String: String]) -> String? {
        for key in tags.keys.sorted() {
            let value = tags[key]!
            if anyValue.contains(key), value != "no" { return "\(key)=\(value)" }
            if self.tags.contains("\(key)=\(value)") { return "\(key)=\(value)" }
        }
        return nil
    }
}

extension OSMData {
    /// The named sights of the map (``OSMSights``) as waypoints — the stops of a tour through
    /// the town (``RouteStop/stops(waypoints:dwell:)``, `geobench route --stops FILE.osm`):
    /// `name` as the name (``GPXWaypoint/name``; two sights of one name get their OSM object
    /// appended, `Chapel (node 17)`, so each is a stop), the tag that made it a sight as
    /// ``GPXWaypoint/type``, no altitude (OSM has none). A node is at its position; a way (a
    /// castle's outline, a church's building) at the mean of its distinct nodes.
    ///
    /// Order: nodes by id, then ways in file order (a tour's order is the planner's to choose).
    /// - Returns: the sights, and how many matching objects were left out for having no `name`
    ///   (a stop needs one) or, for a way, no node in the file.
    public func sights(_ selection: OSMSights = .standard) -> (sights: [GPXWaypoint], unnamed: Int, withoutNodes: Int) {
        var found: [(object: String, waypoint: GPXWaypoint)] = []
        var unnamed = 0, withoutNodes = 0
        func name(_ tags: [String: String]) -> String? {
            guard let n = tags["name"]?.trimmingCharacters(in: .whitespacesAndNewlines), !n.isEmpty else { return nil }
            return n
        }
        for id in nodeTags.keys.sorted() {
            let tags = nodeTags[id]!
            guard let type = selection.match(tags), let p = nodes[id] else { continue }
            guard let n = name(tags) else { unnamed += 1; continue }
            found.append(("node \(id)", GPXWaypoint(latitude: p.latitude, longitude: p.longitude, name: n, type: type)))
        }
        for way in ways {
            guard let type = selection.match(way.tags) else { continue }
            guard let n = name(way.tags) else { unnamed += 1; continue }
            var distinct = way.nodes
            if distinct.count > 1, distinct.first == distinct.last { distinct.removeLast() }
            let known = distinct.compactMap { nodes[$0] }
            guard !known.isEmpty else { withoutNodes += 1; continue }
            // The mean of the vertices (a building or a castle: tens of meters, where the
            // degrees' mean is the local plane's to well under a centimeter).
            let lat = known.map(\.latitude).reduce(0, +) / Double(known.count)
            let lon = known.map(\.longitude).reduce(0, +) / Double(known.count)
            found.append(("way \(way.id)", GPXWaypoint(latitude: lat, longitude: lon, name: n, type: type)))
        }
        var count: [String: Int] = [:]
        for f in found { count[f.waypoint.name!, default: 0] += 1 }
        let sights = found.map { f -> GPXWaypoint in
            var w = f.waypoint
            if count[w.name!]! > 1 { w.name = "\(w.name!) (\(f.object))" }
            return w
        }
        return (sights, unnamed, withoutNodes)
    }
}
