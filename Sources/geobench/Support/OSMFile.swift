import Foundation
import GeoAnchorKit

/// An OpenStreetMap file given as paths: `route --paths` (a walking network) and `filter`/`align
/// --path` (map aiding with every walkable street). What the walkability rules left out is said
/// on stderr, so nothing is dropped silently.
enum OSMFile {
    /// The file kinds (``TraceIO/kind(of:)``) read as OpenStreetMap: `.osm` (`.osm.gz`) and `.osm.pbf`.
    static let kinds: Set<String> = ["osm", "pbf"]

    /// Prints what the file gave: ways used, left out by reason, missing nodes.
    static func report(_ s: OSMWalkability.Summary, source: String) {
        var text = "\(source): \(s.walkableWays) walkable way(s) used as paths"
        if !s.leftOut.isEmpty { text += "; left out (not walkable): " + PathNetwork.describe(s.leftOut) }
        if s.waysMissingNodes > 0 {
            text += "; \(s.waysMissingNodes) way(s) miss \(s.missingNodes) node(s) the file does not hold (their known pieces used)"
        }
        if !s.blockedNodes.isEmpty {
            text += "; cut where a walker cannot pass: " + PathNetwork.describe(s.blockedNodes)
        }
        if s.degenerateWays > 0 { text += "; \(s.degenerateWays) walkable way(s) with fewer than 2 known nodes left out" }
        Stderr.print(text)
    }

    /// The walkable ways' lines of `path` (``OSMData/walkablePaths(_:)``), reported.
    /// - Throws: the reader's error, or ``InputError`` when no way is walkable (saying what the
    ///   file holds).
    static func lines(_ path: String) throws -> [[GeodeticCoordinate]] {
        let data = try read(path)
        let (lines, _, summary) = data.walkablePaths()
        guard !lines.isEmpty else { throw InputError(file: path, line: nil, message: data.noWalkableWayReason(summary)) }
        report(summary, source: path)
        return lines
    }

    /// The file at `path`, read (XML or PBF).
    static func read(_ path: String) throws -> OSMData { try OSMReader.read(url: URL(fileURLWithPath: path)) }

    /// The named sights of the map read from `path` (``OSMData/sights(_:)``) as stops'
    /// waypoints; stderr says how many there are and what was left out.
    /// - Throws: ``InputError`` when the map has no named sight.
    static func sights(_ data: OSMData, source path: String) throws -> [GPXWaypoint] {
        let (sights, unnamed, withoutNodes) = data.sights()
        var left: [String] = []
        if unnamed > 0 { left.append("\(unnamed) without a name") }
        if withoutNodes > 0 { left.append("\(withoutNodes) way(s) without nodes in the file") }
        guard !sights.isEmpty else {
            throw InputError(file: path, line: nil, message: "no named sight (historic=*, tourism=attraction/museum/viewpoint/artwork/gallery, amenity=place_of_worship) to use as stops"
                             + (left.isEmpty ? "" : "; left out: " + left.joined(separator: ", ")))
        }
        Stderr.print("\(path): \(sights.count) sight(s) as stops" + (left.isEmpty ? "" : "; left out: " + left.joined(separator: ", ")))
        return sights
    }
}
