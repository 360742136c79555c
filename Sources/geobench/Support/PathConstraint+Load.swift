import Foundation
import GeoAnchorKit

extension PathConstraint {
    /// The `--path FILE` option of `filter` and `align`: a GeoJSON file's path lines (see
    /// ``PathConstraint/init(geoJSON:crossTrackSigma:mapSigma:corridorSigmas:corridorWidth:)``) or, for a
    /// `.gpx` file, its track segments, else its routes (``GPXReader/lines(url:options:)``: a
    /// tour planned in an outdoor app; no times needed), a KML/KMZ file's LineStrings, a TCX
    /// or FIT course's tracks, or an OpenStreetMap file's walkable ways (`.osm`, `.osm.pbf`: a
    /// street map), with the `--path-sigma` cross-track σ and the `--map-sigma` drawing error.
    /// - Throws: ``InputError`` naming `--path-sigma` for a non-positive σ, `--map-sigma` for a
    ///   negative one, or the file for an unreadable file, a bad point (with its line) or no line.
    static func load(_ file: String, crossTrackSigma: Double, mapSigma: Double = 0) throws -> PathConstraint {
        guard crossTrackSigma > 0, crossTrackSigma.isFinite else {
            throw InputError(file: "--path-sigma", line: nil, message: "\(crossTrackSigma) must be a positive number of meters")
        }
        guard mapSigma >= 0, mapSigma.isFinite else {
            throw InputError(file: "--map-sigma", line: nil, message: "\(mapSigma) must be 0 or a positive number of meters")
        }
        let url = URL(fileURLWithPath: file)
        let kind = TraceIO.kind(of: file)
        if OSMFile.kinds.contains(kind) {
            // A town's map: every walkable street, not only a tour's path.
            let lines = try OSMFile.lines(file)
            return try located(file, context: "not a usable path") { try PathConstraint(lines: lines, crossTrackSigma: crossTrackSigma, mapSigma: mapSigma) }
        }
        if StopFile.kinds.contains(kind) {
            let lines = try StopFile.lines(file)
            guard !lines.isEmpty else {
                let what = kind == "gpx" ? "track segment or route with points" : ["tcx", "fit"].contains(kind) ? "track with positions" : "LineString"
                throw InputError(file: file, line: nil, message: "no \(what) to use as a path")
            }
            return try located(file, context: "not a usable path") { try PathConstraint(lines: lines, crossTrackSigma: crossTrackSigma, mapSigma: mapSigma) }
        }
        let collection = try GeoJSONFeatureCollection.read(contentsOf: url)
        return try located(file, context: "not a usable path") { try PathConstraint(geoJSON: collection, crossTrackSigma: crossTrackSigma, mapSigma: mapSigma) }
    }
}
