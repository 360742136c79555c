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
        if s.degenerateWays > 0 { text += "; \(s.degenerateWays) walkable way(s) with fewer than 2 known nodes left out" }
        Stderr.print(text)
    }

    /// The walkable ways' lines of `path` (``OSMData/walkablePaths(_:)``), reported.
    /// - Throws: the reader's error, or ``InputError`` when no way is walkable (saying what the
    ///   file holds).
    static func lines(_ path: String) throws -> [[GeodeticCoordinate]] {
        let data = try OSMReader.read(url: URL(fileURLWithPath: path))
        let (lines, _, summary) = data.walkablePaths()
        guard !lines.isEmpty else { throw InputError(file: path, line: nil, message: data.noWalkableWayReason(summary)) }
        report(summary, source: path)
        return lines
    }
}
