import Foundation
import GeoAnchorKit

/// The stops and path of a tour or route planned in another app, as `route --stops/--paths` and
/// `tour --tour` read them: a GPX file's waypoints and tracks (else routes), a KML/KMZ file's
/// untimed Point placemarks and LineStrings, a TCX or FIT course's course points and tracks.
enum StopFile {
    /// The file kinds (``TraceIO/kind(of:)``) read here.
    static let kinds: Set<String> = ["gpx", "kml", "kmz", "tcx", "fit"]

    /// The stops of `path`. Turn instructions (``GPXWaypoint/isTurnInstruction``: a course's, or
    /// a GPX waypoint's `<type>`/`<sym>` as GPSBabel converts a course) are not stops: left out,
    /// and stderr says how many.
    /// - Throws: ``InputError`` for a file without stops (naming what the stops of its kind are)
    ///   or a reader's error.
    static func waypoints(_ path: String) throws -> [GPXWaypoint] {
        let url = URL(fileURLWithPath: path)
        let kind = TraceIO.kind(of: path)
        let all: [GPXWaypoint], what: String, noun: String
        switch kind {
        case "gpx", "kml", "kmz":
            all = kind == "gpx" ? try GPXReader.waypoints(url: url) : try KMLReader.waypoints(url: url)
            guard !all.isEmpty else {
                throw InputError(file: path, line: nil, message: kind == "gpx" ? "no waypoints (<wpt>): the stops of a GPX file are its waypoints"
                                 : "no Point placemark without a time: the stops of a KML file are its untimed Point placemarks")
            }
            (what, noun) = kind == "gpx" ? ("waypoints (<wpt>)", "waypoints") : ("Point placemarks", "Point placemarks")
        default:
            all = kind == "tcx" ? try TCXReader.coursePoints(url: url) : try FITReader.coursePoints(url: url)
            what = kind == "tcx" ? "course points (<CoursePoint>)" : "course points (course_point messages)"
            noun = "course points"
            guard !all.isEmpty else {
                throw InputError(file: path, line: nil, message: "no \(what): the stops of a \(kind.uppercased()) course are its course points")
            }
        }
        let stops = all.filter { !$0.isTurnInstruction }
        let turns = all.count - stops.count
        guard !stops.isEmpty else {
            throw InputError(file: path, line: nil, message: "its \(all.count) \(what) are all turn instructions (\(typeList(all))), not stops")
        }
        if turns > 0 {
            Stderr.print("\(path): \(turns) of \(all.count) \(noun) are turn instructions (\(typeList(all.filter(\.isTurnInstruction)))), not stops: left out")
        }
        return stops
    }

    /// The path lines of `path` (tracks, else routes, of a GPX; LineStrings of a KML/KMZ; tracks
    /// of a TCX or FIT course); empty when it has none.
    static func lines(_ path: String) throws -> [[GeodeticCoordinate]] {
        let url = URL(fileURLWithPath: path)
        switch TraceIO.kind(of: path) {
        case "gpx": return try GPXReader.lines(url: url)
        case "kml", "kmz": return try KMLReader.lines(url: url)
        case "tcx": return try TCXReader.lines(url: url)
        default: return try FITReader.lines(url: url)
        }
    }

    /// The areas of a KML/KMZ file (its Polygon placemarks: a tour's zones); none for the others.
    static func areas(_ path: String) throws -> [KMLArea] {
        ["kml", "kmz"].contains(TraceIO.kind(of: path)) ? try KMLReader.areas(url: URL(fileURLWithPath: path)) : []
    }

    /// The distinct types of `points`, in first-seen order, comma-separated.
    static func typeList(_ points: [GPXWaypoint]) -> String {
        var seen: [String] = []
        for p in points { if let t = p.type, !seen.contains(t) { seen.append(t) } }
        return seen.joined(separator: ", ")
    }
}
