import Foundation
import GeoAnchorKit

extension PathConstraint {
    /// The `--path FILE` option of `filter` and `align`: a GeoJSON file's path lines (see
    /// ``PathConstraint/init(geoJSON:crossTrackSigma:corridorSigmas:corridorWidth:)``) or, for a
    /// `.gpx` file, its track segments, else its routes (``GPXReader/lines(url:options:)``: a
    /// tour planned in an outdoor app; no times needed), a KML/KMZ file's LineStrings, or a TCX
    /// or FIT course's tracks, with the `--path-sigma` cross-track σ.
    /// - Throws: ``InputError`` naming `--path-sigma` for a non-positive σ, or the file for an
    ///   unreadable file, a bad point (with its line) or no line.
    static func load(_ file: String, crossTrackSigma: Double) throws -> PathConstraint {
        guard crossTrackSigma > 0, crossTrackSigma.isFinite else {
            throw InputError(file: "--path-sigma", line: nil, message: "\(crossTrackSigma) must be a positive number of meters")
        }
        let url = URL(fileURLWithPath: file)
        if TraceIO.kind(of: file) == "gpx" {
            let lines = try GPXReader.lines(url: url)
            guard !lines.isEmpty else { throw InputError(file: file, line: nil, message: "no track segment or route with points to use as a path") }
            return try located(file, context: "not a usable path") { try PathConstraint(lines: lines, crossTrackSigma: crossTrackSigma) }
        }
        if ["kml", "kmz"].contains(TraceIO.kind(of: file)) {
            let lines = try KMLReader.lines(url: url)
            guard !lines.isEmpty else { throw InputError(file: file, line: nil, message: "no LineString to use as a path") }
            return try located(file, context: "not a usable path") { try PathConstraint(lines: lines, crossTrackSigma: crossTrackSigma) }
        }
        if ["tcx", "fit"].contains(TraceIO.kind(of: file)) {
            let lines = TraceIO.kind(of: file) == "tcx" ? try TCXReader.lines(url: url) : try FITReader.lines(url: url)
            guard !lines.isEmpty else { throw InputError(file: file, line: nil, message: "no track with positions to use as a path") }
            return try located(file, context: "not a usable path") { try PathConstraint(lines: lines, crossTrackSigma: crossTrackSigma) }
        }
        let collection = try GeoJSONFeatureCollection.read(contentsOf: url)
        return try located(file, context: "not a usable path") { try PathConstraint(geoJSON: collection, crossTrackSigma: crossTrackSigma) }
    }
}
