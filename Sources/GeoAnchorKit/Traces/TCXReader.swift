import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reader for TCX (Garmin Training Center XML, `TrainingCenterDatabase` v2): what Garmin
/// Connect, Strava, Polar and many fitness apps export, built on Foundation's `XMLParser` like
/// ``GPXReader``.
///
/// **Fixes** are the `Trackpoint`s of activities' laps and of courses, in document order:
/// `Time` (ISO 8601), `Position/LatitudeDegrees` and `LongitudeDegrees`, `AltitudeMeters` (taken
/// as MSL, as in GPX), and the speed of Garmin's `ActivityExtension` (`TPX/Speed`, m/s).
/// Trackpoints without a position (indoor activities: heart rate and cadence only) are counted
/// in ``TraceReadSummary/ignoredRecords``; with a position but no time (a course planned
/// without times) in ``TraceReadSummary/untimedPoints`` too. A bad value is a
/// ``TraceFormatError`` naming its line, or, with ``TraceReadConfiguration/skipInvalid``, the
/// trackpoint is skipped and counted. Compressed files (`.tcx.gz`) are read as the plain ones.
///
/// **Courses** (a route planned in Garmin Connect, Ride with GPS or Strava and exported as TCX)
/// have `CoursePoint`s — the places along the course a device announces — read by
/// ``coursePoints(url:options:)`` as the stops of a tour or a route, and `Track`s read by
/// ``lines(url:options:)`` as its path.
public enum TCXReader {
    /// The course points (`CoursePoint`) of a TCX file, in document order: `Name` (whitespace
    /// trimmed; nil when empty), `Time` (optional here), `Position`, `AltitudeMeters` (MSL, as
    /// ``GPXWaypoint/altitude``) and `PointType` (``GPXWaypoint/type``: `Generic`, `Summit`,
    /// `Valley`, `Water`, `Food`, `Danger`, `Left`, `Right`, `Straight`, `First Aid`, the climb
    /// categories, `Sprint`; ``GPXWaypoint/isTurnInstruction`` tells the turn cues apart). They are
    /// also counted in ``TraceReadSummary/waypoints`` by ``read(url:options:onFix:)``, and never
    /// fixes.
    /// - Throws: ``TraceFormatError`` with the line of a course point without a `Position` or
    ///   with a bad value (unless ``TraceReadConfiguration/skipInvalid``: then left out), or for a
    ///   document that is not TCX. A course point is validated as a fix is.
    public static func coursePoints(url: URL, options: TraceReadConfiguration = TraceReadConfiguration()) throws(TraceFormatError) -> [GPXWaypoint] {
        var out: [GPXWaypoint] = []
        _ = try TraceReader.typedReaderError(source: url.path) {
            try read(url: url, options: options, sink: Sink(onCoursePoint: { out.append($0) }))
        }
        return out
    }

    /// ``coursePoints(url:options:)`` of TCX bytes in memory; `source` names them in errors.
    static func coursePoints(data: Data, source: String, options: TraceReadConfiguration) throws -> [GPXWaypoint] {
        try options.check(source: source)
        try XMLInputCheck.check(data: data, source: source, format: XMLInputCheck.tcx)
        var out: [GPXWaypoint] = []
        _ = try read(stream: InputStream(data: data), source: source, options: options, sink: Sink(onCoursePoint: { out.append($0) }))
        return out
    }

    /// The file's tracks as lines — a course's path for ``Tour/init(waypoints:path:radius:)`` or
    /// ``PathConstraint/init(lines:crossTrackSigma:mapSigma:corridorSigmas:corridorWidth:)``: each `Track`
    /// (of a course, or of an activity's lap) is a line of its trackpoints with a position, in
    /// document order, with `AltitudeMeters` as an MSL height where given (else 0 m above the
    /// ellipsoid: a horizontal position; see ``PathNetwork/init(tcx:options:distance:)`` for
    /// paths with heights). Times
    /// are not needed (a course planned without times has none). Tracks without positioned
    /// points are left out; a one-point track is kept (a path constraint refuses it, naming it).
    /// - Throws: ``TraceFormatError`` with the line of a bad trackpoint, or for a document that
    ///   is not TCX.
    public static func lines(url: URL, options: TraceReadConfiguration = TraceReadConfiguration()) throws(TraceFormatError) -> [[GeodeticCoordinate]] {
        try linePoints(url: url, options: options).map { $0.map(\.coordinate) }
    }

    /// The points of ``lines(url:options:)`` with whether each has an altitude.
    static func linePoints(url: URL, options: TraceReadConfiguration) throws(TraceFormatError) -> [[(coordinate: GeodeticCoordinate, hasHeight: Bool)]] {
        // Tracks come in document order: a new index starts a new line.
        var lines: [[(coordinate: GeodeticCoordinate, hasHeight: Bool)]] = []
        var current: Int? = nil
        _ = try TraceReader.typedReaderError(source: url.path) {
            try read(url: url, options: options, sink: Sink(onLinePoint: { track, c, hasHeight in
                if track != current { lines.append([]); current = track }
                lines[lines.count - 1].append((c, hasHeight))
            }))
        }
        return lines
    }

    /// What a read delivers: fixes, course points, line points (track index, position, whether it
    /// has a height).
    struct Sink {
        var onFix: ((Fix) throws -> Void)? = nil
        var onCoursePoint: ((GPXWaypoint) throws -> Void)? = nil
        var onLinePoint: ((Int, GeodeticCoordinate, Bool) -> Void)? = nil
    }

    /// Reads a TCX file's fixes.
    /// - Throws: ``TraceFormatError`` for a document that is not TCX or a bad value (with its
    ///   line); whatever `onFix` throws.
    public static func read(url: URL, options: TraceReadConfiguration = TraceReadConfiguration(),
                            onFix: (Fix) throws -> Void) throws -> TraceReadSummary {
        try withoutActuallyEscaping(onFix) { onFix in try read(url: url, options: options, sink: Sink(onFix: onFix)) }
    }

    static func read(url: URL, options: TraceReadConfiguration, sink: Sink) throws -> TraceReadSummary {
        try options.check(source: url.path)
        return try read(stream: XMLInputCheck.openStream(url: url, format: XMLInputCheck.tcx), source: url.path, options: options, sink: sink)
    }

    /// Reads TCX from bytes in memory; `source` names it in errors.
    public static func read(data: Data, source: String, options: TraceReadConfiguration = TraceReadConfiguration(),
                            onFix: (Fix) throws -> Void) throws -> TraceReadSummary {
        try options.check(source: source)
        try XMLInputCheck.check(data: data, source: source, format: XMLInputCheck.tcx)
        return try withoutActuallyEscaping(onFix) { onFix in
            try read(stream: InputStream(data: data), source: source, options: options, sink: Sink(onFix: onFix))
        }
    }

    static func read(stream: InputStream, source: String, options: TraceReadConfiguration, sink: Sink) throws -> TraceReadSummary {
        let d = Delegate(source: source, options: options, sink: sink)
        try XMLInputCheck.parse(stream, source: source, format: XMLInputCheck.tcx, delegate: d)
        guard d.sawRoot else {
            throw TraceFormatError(source: source, line: nil, message: "not a TCX document (no <TrainingCenterDatabase> root element)")
        }
        return d.summary
    }

    private struct Point {
        var line: Int
        var isCoursePoint = false
        var time: (String, Int)?
        var latitude: Double?, longitude: Double?, altitude: Double?, speed: Double?
        var name: String?, type: String?
        var invalid: (line: Int, message: String)?
    }

    private final class Delegate: NSObject, TraceXMLDelegate {
        let source: String
        let options: TraceReadConfiguration
        let sink: Sink
        var summary = TraceReadSummary()
        var callbackError: (any Error)?
        var formatError: TraceFormatError?
        var sawRoot = false
        var stack: [String] = []
        var openElements: Int { stack.count }
        var text = ""
        var point: Point?
        /// The current `Track`'s index (−1 before the first).
        var track = -1

        init(source: String, options: TraceReadConfiguration, sink: Sink) {
            self.source = source; self.options = options; self.sink = sink
        }

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes: [String: String] = [:]) {
            let name = XMLInputCheck.localName(elementName)
            if stack.isEmpty && name == "TrainingCenterDatabase" { sawRoot = true }
            stack.append(name)
            text = ""
            switch name {
            case "Trackpoint": point = Point(line: parser.lineNumber)
            case "CoursePoint": point = Point(line: parser.lineNumber, isCoursePoint: true)
            case "Track": track += 1
            default: break
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }

        func number(_ value: String, _ what: String, line: Int) -> Double? {
            var s = value
            guard let v = s.withUTF8({ ByteParsing.decimal($0) }) else {
                if point?.invalid == nil { point?.invalid = (line, "\(what) '\(value.prefix(40))' is not a finite number") }
                return nil
            }
            return v
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            let name = XMLInputCheck.localName(elementName)
            defer { if !stack.isEmpty { stack.removeLast() }; text = "" }
            guard point != nil else { return }
            let parent = stack.count >= 2 ? stack[stack.count - 2] : ""
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            let line = parser.lineNumber
            let owner = point!.isCoursePoint ? "CoursePoint" : "Trackpoint"
            switch name {
            case "Time" where parent == owner: point!.time = (value, line)
            case "LatitudeDegrees" where parent == "Position": point!.latitude = number(value, "LatitudeDegrees", line: line)
            case "LongitudeDegrees" where parent == "Position": point!.longitude = number(value, "LongitudeDegrees", line: line)
            case "AltitudeMeters" where parent == owner: point!.altitude = number(value, "AltitudeMeters", line: line)
            case "Speed" where parent == "TPX": point!.speed = number(value, "Speed", line: line)
            case "Name" where parent == "CoursePoint": point!.name = value.isEmpty ? nil : value
            case "PointType" where parent == "CoursePoint": point!.type = value.isEmpty ? nil : value
            case owner:
                let p = point!
                point = nil
                emit(p, parser)
            default: break
            }
        }

        /// Stops the parse with `bad` (or, with skipInvalid, counts it); true when the point is
        /// to be left out.
        func refused(_ bad: (line: Int, message: String)?, _ parser: XMLParser) -> Bool {
            guard let bad else { return false }
            reject(line: bad.line, bad.message, parser)
            return true
        }

        func emit(_ p: Point, _ parser: XMLParser) {
            var problem = p.invalid
            var fix: Fix? = nil
            var time: Double? = nil
            let what = p.isCoursePoint ? "CoursePoint" : "Trackpoint"
            if problem == nil, let (w, wl) = p.time {
                var s = w
                switch s.withUTF8({ ByteParsing.iso8601($0) }) {
                case .success(let t): time = t
                case .failure(let e): problem = (wl, "Time '\(w.prefix(40))': \(e.message)")
                }
            }
            if problem == nil, let la = p.latitude, let lo = p.longitude {
                // Validated as a fix whether or not it has a time (an untimed point at 1970).
                var f = Fix(time: time ?? 0, latitude: la, longitude: lo)
                if let h = p.altitude { f.height = h; f.verticalReference = .meanSeaLevel }
                f.speed = p.speed
                if let v = f.validationProblem { problem = (p.line, "\(what): " + v) } else if time != nil { fix = f }
            } else if problem == nil, p.isCoursePoint {
                problem = (p.line, "CoursePoint without a Position")
            }
            if refused(problem, parser) { return }
            do {
                if p.isCoursePoint {
                    summary.waypoints += 1
                    let name = p.name?.trimmingCharacters(in: .whitespacesAndNewlines)
                    try sink.onCoursePoint?(GPXWaypoint(latitude: p.latitude!, longitude: p.longitude!, altitude: p.altitude,
                                                        time: time, name: name?.isEmpty == false ? name : nil, type: p.type))
                    return
                }
                guard let la = p.latitude, let lo = p.longitude else { summary.ignoredRecords += 1; return }
                sink.onLinePoint?(Swift.max(track, 0), p.altitude.map { GeodeticCoordinate(latitude: la, longitude: lo, altitude: $0) }
                                  ?? GeodeticCoordinate(latitude: la, longitude: lo), p.altitude != nil)
                guard let fix else { summary.ignoredRecords += 1; summary.untimedPoints += 1; return }
                try sink.onFix?(fix)
                summary.fixes += 1
            } catch {
                callbackError = error
                parser.abortParsing()
            }
        }
    }
}
