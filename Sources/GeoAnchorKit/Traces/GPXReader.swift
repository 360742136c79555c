import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Streaming GPX 1.0 / 1.1 reader built on Foundation's `XMLParser` (a real XML parser: libxml2
/// on Linux, Apple's on Darwin) fed from an `InputStream`, so the file is parsed in chunks.
///
/// **What the trace is** (the semantics of gpxpy and GPSBabel): the track points
/// (`trk/trkseg/trkpt`) in document order, segment after segment (a new `trkseg` may follow a gap
/// in recording; segments are counted in ``TraceReadSummary/segments``); a file without any
/// track point yields its route points (`rte/rtept`) instead (held until the end of the document,
/// since a track may follow the route). Waypoints (`wpt`) are points of interest, never fixes of
/// the trace: they go to `onWaypoint` (``GPXWaypoint``) and are counted in
/// ``TraceReadSummary/waypoints``. Every point is validated whatever its role.
///
/// Points have `lat`/`lon` attributes (degrees, strict number syntax of
/// ``ByteParsing/decimal(_:fortranExponent:)``), and children `ele` (m — GPX's elevation, taken as **MSL**; a
/// point without `<ele>` has no height), `geoidheight` (m, N as in NMEA
/// GGA), `time` (ISO 8601), `hdop`/`vdop`/`pdop`, `sat`, `fix` (`none`/`2d`/`3d`/`dgps`/`pps`),
/// GPX 1.0 `speed` (m/s) and `course` (degrees), and in `extensions` any element whose local
/// name (namespace prefix removed, case-insensitive) is `speed`, `course`, `bearing`, `heading`,
/// `hacc`/`horizontal_accuracy`/`accuracy`, `vacc`/`vertical_accuracy` — which covers Garmin's
/// TrackPointExtension v1/v2 (`gpxtpx:speed`, `gpxtpx:course`) and similar schemes.
///
/// A fix needs a time, so untimed track/route points (planning tracks, routes) are reported
/// through `onUntimedPoint` when given, and otherwise counted in
/// ``TraceReadSummary/ignoredRecords`` and ``TraceReadSummary/untimedPoints``.
public enum GPXReader {
    /// Reads only the waypoints (`wpt`) of a GPX file, in document order.
    public static func waypoints(url: URL, options: TraceReadConfiguration = TraceReadConfiguration()) throws(TraceFormatError) -> [GPXWaypoint] {
        var out: [GPXWaypoint] = []
        _ = try TraceReader.typedReaderError(source: url.path) {
            try read(url: url, options: options, onFix: { _ in }, onWaypoint: { out.append($0) })
        }
        return out
    }

    /// Reads a GPX file as lines — a walking path for ``PathConstraint/init(lines:crossTrackSigma:mapSigma:corridorSigmas:corridorWidth:)``,
    /// e.g. a tour planned in an outdoor app: each track segment (`trkseg`) is a line of its
    /// points in document order, or, in a file without track points, each route (`rte`). Times
    /// are not needed (planned tracks and routes have none); waypoints are not part of a line.
    /// Segments without points are left out; a one-point segment is kept (the constraint refuses
    /// it, naming the line). Points are validated as ``read(url:options:onFix:onUntimedPoint:onWaypoint:)``
    /// validates them.
    /// - Throws: ``TraceFormatError`` with the line of a bad point, or for a document that is not GPX.
    public static func lines(url: URL, options: TraceReadConfiguration = TraceReadConfiguration()) throws(TraceFormatError) -> [[GeodeticCoordinate]] {
        try linePoints(url: url, options: options).lines.map { $0.map { GeodeticCoordinate(latitude: $0.latitude, longitude: $0.longitude) } }
    }

    /// The points of ``lines(url:options:)`` as read (with their heights, for
    /// ``PathNetwork/init(gpx:options:distance:)``), and whether they are routes (no track point in the file).
    static func linePoints(url: URL, options: TraceReadConfiguration) throws(TraceFormatError) -> (lines: [[Fix]], areRoutes: Bool) {
        var tracks: [[Fix]] = [], routes: [[Fix]] = []
        _ = try TraceReader.typedReaderError(source: url.path) {
            try read(url: url, options: options, onFix: { _ in }, onUntimedPoint: nil, onWaypoint: nil, onLinePoint: { isRoute, line, p in
                if isRoute {
                    while routes.count <= line { routes.append([]) }
                    routes[line].append(p)
                } else {
                    while tracks.count <= line { tracks.append([]) }
                    tracks[line].append(p)
                }
            })
        }
        let areRoutes = !tracks.contains { !$0.isEmpty }
        return ((areRoutes ? routes : tracks).filter { !$0.isEmpty }, areRoutes)
    }

    /// Reads a GPX file.
    /// - Parameters:
    ///   - url: the file.
    ///   - options: invalid-record handling (``TraceReadConfiguration/skipInvalid``).
    ///   - onFix: called for every timed point in document order.
    ///   - onUntimedPoint: called for points without `<time>` (fix with `time = 0`), e.g. route
    ///     points; when nil they are counted as ignored records.
    ///   - onWaypoint: called for every waypoint (`wpt`); waypoints never reach `onFix`.
    public static func read(url: URL, options: TraceReadConfiguration = TraceReadConfiguration(),
                            onFix: (Fix) throws -> Void,
                            onUntimedPoint: ((Fix) throws -> Void)? = nil,
                            onWaypoint: ((GPXWaypoint) throws -> Void)? = nil) throws -> TraceReadSummary {
        try read(url: url, options: options, onFix: onFix, onUntimedPoint: onUntimedPoint, onWaypoint: onWaypoint, onLinePoint: nil)
    }

    /// ``read(url:options:onFix:onUntimedPoint:onWaypoint:)`` with `onLinePoint` (see
    /// `read(stream:…onLinePoint:)`): opens the file and refuses entity declarations.
    static func read(url: URL, options: TraceReadConfiguration, onFix: (Fix) throws -> Void, onUntimedPoint: ((Fix) throws -> Void)?,
                     onWaypoint: ((GPXWaypoint) throws -> Void)?, onLinePoint: ((Bool, Int, Fix) -> Void)?) throws -> TraceReadSummary {
        try options.check(source: url.path)
        return try read(stream: XMLInputCheck.openStream(url: url, format: XMLInputCheck.gpx), source: url.path, options: options,
                        onFix: onFix, onUntimedPoint: onUntimedPoint, onWaypoint: onWaypoint, onLinePoint: onLinePoint)
    }

    /// Reads GPX from bytes in memory.
    public static func read(data: Data, source: String, options: TraceReadConfiguration = TraceReadConfiguration(),
                            onFix: (Fix) throws -> Void,
                            onUntimedPoint: ((Fix) throws -> Void)? = nil,
                            onWaypoint: ((GPXWaypoint) throws -> Void)? = nil) throws -> TraceReadSummary {
        try options.check(source: source)
        try XMLInputCheck.check(data: data, source: source, format: XMLInputCheck.gpx)
        return try read(stream: InputStream(data: data), source: source, options: options, onFix: onFix, onUntimedPoint: onUntimedPoint,
                        onWaypoint: onWaypoint)
    }

    /// `onLinePoint(isRoute, line, point)`: every valid track or route point, timed or not, with
    /// the index of its track segment or route (for ``lines(url:options:)``).
    static func read(stream: InputStream, source: String, options: TraceReadConfiguration,
                     onFix: (Fix) throws -> Void, onUntimedPoint: ((Fix) throws -> Void)?,
                     onWaypoint: ((GPXWaypoint) throws -> Void)?,
                     onLinePoint: ((Bool, Int, Fix) -> Void)? = nil) throws -> TraceReadSummary {
        // XMLParser.parse() runs to completion and its delegate methods cannot throw: the
        // delegate calls the closures itself, stores the first thrown error and aborts the parse.
        return try withoutActuallyEscaping(onFix) { onFix in
            try withoutActuallyEscaping(onUntimedPoint ?? { _ in }) { untimed in
              try withoutActuallyEscaping(onWaypoint ?? { _ in }) { waypoint in
                let d = Delegate(source: source, options: options, onFix: onFix,
                                 onUntimed: onUntimedPoint == nil ? nil : untimed,
                                 onWaypoint: onWaypoint == nil ? nil : waypoint)
                d.onLinePoint = onLinePoint
                try XMLInputCheck.parse(stream, source: source, format: XMLInputCheck.gpx, delegate: d) { d.parser = $0 }
                guard d.sawGPX else {
                    throw TraceFormatError(source: source, line: nil, message: "not a GPX document (no <gpx> root element; empty file?)")
                }
                // No track point at all: the route points are the trace.
                if !d.sawTrackPoint {
                    for p in d.routePoints {
                        if p.hasTime { try onFix(p.fix); d.summary.fixes += 1 }
                        else if let u = onUntimedPoint { try u(p.fix); d.summary.fixes += 1 }
                        else { d.summary.ignoredRecords += 1; d.summary.untimedPoints += 1 }
                    }
                }
                return d.summary
              }
            }
        }
    }

    private final class Delegate: NSObject, TraceXMLDelegate {
        let source: String
        let options: TraceReadConfiguration
        let onFix: (Fix) throws -> Void
        let onUntimed: ((Fix) throws -> Void)?
        let onWaypoint: ((GPXWaypoint) throws -> Void)?
        weak var parser: XMLParser?
        /// Route points held until the end: they are the trace only if the file has no track point.
        var routePoints: [(fix: Fix, hasTime: Bool)] = []
        var sawTrackPoint = false
        /// See `read(stream:…onLinePoint:)`; the current track segment's and route's indices.
        var onLinePoint: ((Bool, Int, Fix) -> Void)? = nil
        var trackSegment = -1, route = -1
        /// The kind of the point being read: wpt, rtept or trkpt.
        var pointKind = ""
        var pointName: String? = nil
        /// A waypoint's `<type>` and `<sym>`.
        var pointType: String? = nil, pointSymbol: String? = nil
        var summary = TraceReadSummary()
        var callbackError: (any Error)? = nil
        var formatError: TraceFormatError? = nil
        var sawGPX = false
        var sawGPXEnd = false
        /// The root's end ends the document (a GPX without `</gpx>` was cut short).
        var openElements: Int { sawGPX && !sawGPXEnd ? 1 : 0 }

        var point: Fix? = nil
        var pointLine = 0
        var pointHasTime = false
        var pointInvalid: String? = nil
        var depthInPoint = 0
        var text = ""
        var collecting = false

        init(source: String, options: TraceReadConfiguration, onFix: @escaping (Fix) throws -> Void,
             onUntimed: ((Fix) throws -> Void)?, onWaypoint: ((GPXWaypoint) throws -> Void)?) {
            self.source = source; self.options = options; self.onFix = onFix; self.onUntimed = onUntimed
            self.onWaypoint = onWaypoint
        }

        /// A number in the strict syntax (no hex, nan, inf or NUL bytes).
        static func number<S: StringProtocol>(_ s: S) -> Double? {
            var str = String(s)
            return str.withUTF8 { ByteParsing.decimal($0) }
        }

        /// The element name without its namespace prefix, lowercased. GPX's own element names
        /// are already lowercase: those are returned without allocating a new string.
        static func localName(_ qName: String) -> String {
            // One pass over the bytes: the start after the last ':' and whether the local part
            // has upper-case letters (Character-based lastIndex(of:) was a sixth of GPX reading).
            let u = qName.utf8
            var start = u.startIndex, hasUpper = false
            var i = u.startIndex
            while i < u.endIndex {
                let c = u[i]
                if c == 58 { start = u.index(after: i); hasUpper = false } else if c >= 65 && c <= 90 { hasUpper = true }
                i = u.index(after: i)
            }
            if start == u.startIndex && !hasUpper { return qName }
            let name = qName[start...]
            return hasUpper ? name.lowercased() : String(name)
        }

        /// ASCII whitespace trimmed (cheaper than Foundation's CharacterSet trimming).
        static func trimmed(_ s: String) -> Substring {
            let u = s.utf8
            var a = u.startIndex, b = u.endIndex
            func ws(_ c: UInt8) -> Bool { c == 32 || c == 9 || c == 10 || c == 13 }
            while a < b, ws(u[a]) { a = u.index(after: a) }
            while b > a, ws(u[u.index(before: b)]) { b = u.index(before: b) }
            return Substring(u[a..<b])
        }

        func fail(_ line: Int, _ message: String) { reject(line: line, message, parser) }

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes: [String: String] = [:]) {
            let name = Self.localName(elementName)
            if name == "gpx" { sawGPX = true }
            if point != nil { depthInPoint += 1; text = ""; collecting = true; return }
            if name == "trkseg" { summary.segments += 1; trackSegment += 1 }
            if name == "rte" { route += 1 }
            if name == "wpt" || name == "rtept" || name == "trkpt" {
                pointKind = name
                pointName = nil; pointType = nil; pointSymbol = nil
                if name == "trkpt" && !sawTrackPoint {
                    sawTrackPoint = true
                    summary.ignoredRecords += routePoints.count // route points before the track: not the trace
                    routePoints = []
                }
                pointLine = parser.lineNumber
                summary.lines = pointLine
                pointHasTime = false
                pointInvalid = nil
                depthInPoint = 0
                guard let ls = attributes["lat"], let os = attributes["lon"] else {
                    point = Fix(time: 0, latitude: 0, longitude: 0)
                    pointInvalid = "<\(elementName)> without lat/lon attributes"
                    return
                }
                guard let lat = Self.number(ls) else {
                    point = Fix(time: 0, latitude: 0, longitude: 0); pointInvalid = "lat '\(ls.prefix(40))' is not a number"; return
                }
                guard let lon = Self.number(os) else {
                    point = Fix(time: 0, latitude: 0, longitude: 0); pointInvalid = "lon '\(os.prefix(40))' is not a number"; return
                }
                point = Fix(time: 0, latitude: lat, longitude: lon)
                if abs(lat) > 90 { pointInvalid = "latitude \(lat) is outside [-90, 90]" }
                else if abs(lon) > 180 { pointInvalid = "longitude \(lon) is outside [-180, 180]" }
            }
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            if collecting { if text.isEmpty { text = string } else { text += string } }
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            let name = Self.localName(elementName)
            if point == nil && name == "gpx" { sawGPXEnd = true }
            guard point != nil else { return }
            if depthInPoint == 0 {
                // End of the point itself.
                let p = point!
                point = nil
                if let msg = pointInvalid ?? p.validationProblem { fail(pointLine, "<\(pointKind)>: " + msg); return }
                if let onLinePoint, pointKind != "wpt" {
                    // A track point outside any <trkseg> (invalid GPX, but seen) joins segment 0.
                    onLinePoint(pointKind == "rtept", Swift.max(0, pointKind == "rtept" ? route : trackSegment), p)
                }
                do {
                    switch pointKind {
                    case "wpt":
                        summary.waypoints += 1
                        let alt = p.verticalReference == .meanSeaLevel ? p.height : nil
                        try onWaypoint?(GPXWaypoint(latitude: p.latitude, longitude: p.longitude, altitude: alt,
                                                    geoidSeparation: p.geoidSeparation,
                                                    time: pointHasTime ? p.time : nil, name: pointName,
                                                    type: pointType ?? pointSymbol))
                    case "rtept":
                        if sawTrackPoint { summary.ignoredRecords += 1 } else { routePoints.append((p, pointHasTime)) }
                    default:
                        if pointHasTime { try onFix(p); summary.fixes += 1 }
                        else if let u = onUntimed { try u(p); summary.fixes += 1 }
                        else { summary.ignoredRecords += 1; summary.untimedPoints += 1 }
                    }
                } catch {
                    callbackError = error
                    parser.abortParsing()
                }
                return
            }
            depthInPoint -= 1
            collecting = false
            let value = Self.trimmed(text)
            text = ""
            if value.isEmpty || pointInvalid != nil { return }
            func num() -> Double? {
                guard let v = Self.number(value) else {
                    pointInvalid = "<\(elementName)> '\(value.prefix(40))' is not a finite number"
                    return nil
                }
                return v
            }
            switch name {
            case "name":
                if depthInPoint == 0 { pointName = String(value) }
            case "type":
                if depthInPoint == 0 { pointType = String(value) }
            case "sym":
                if depthInPoint == 0 { pointSymbol = String(value) }
            case "ele":
                if let v = num() { point!.height = v; point!.verticalReference = .meanSeaLevel }
            case "geoidheight":
                if let v = num() { point!.geoidSeparation = v }
            case "time":
                var s = String(value)
                switch s.withUTF8({ ByteParsing.iso8601($0) }) {
                case .success(let t): point!.time = t; pointHasTime = true
                case .failure(let e): pointInvalid = "time '\(value.prefix(40))': \(e.message)"
                }
            case "hdop": if let v = num() { point!.hdop = v }
            case "vdop": if let v = num() { point!.vdop = v }
            case "pdop": if let v = num() { point!.pdop = v }
            case "sat":
                guard let v = Int(value), v >= 0 else { pointInvalid = "<sat> '\(value.prefix(40))' is not a count"; return }
                point!.satellites = v
            case "fix":
                if let q = FixQuality(gpxFix: value) { point!.quality = q }
                else { pointInvalid = "<fix> '\(value.prefix(40))' is not none, 2d, 3d, dgps or pps" }
            case "speed":
                if let v = num() {
                    if v < 0 { pointInvalid = "speed \(v) is negative" } else { point!.speed = v }
                }
            case "course", "bearing":
                if let v = num() { point!.course = Angle.normalizeHeading(v) }
            case "heading":
                if let v = num() { point!.heading = Angle.normalizeHeading(v) }
            case "hacc", "horizontal_accuracy", "horizontalaccuracy", "accuracy":
                if let v = num() {
                    if v < 0 { pointInvalid = "horizontal accuracy \(v) is negative" } else { point!.horizontalAccuracy = v }
                }
            case "vacc", "vertical_accuracy", "verticalaccuracy":
                if let v = num() {
                    if v < 0 { pointInvalid = "vertical accuracy \(v) is negative" } else { point!.verticalAccuracy = v }
                }
            default: break
            }
        }
    }
}

/// A GPX waypoint (`wpt`): a point of interest, not a recorded fix.
public struct GPXWaypoint: Sendable, Hashable {
    /// Degrees, WGS84.
    public var latitude: Double
    public var longitude: Double
    /// `<ele>`: meters above mean sea level, nil when absent.
    public var altitude: Double?
    /// `<geoidheight>`: geoid separation N in meters, nil when absent.
    public var geoidSeparation: Double?
    /// `<time>`: UTC seconds since 1970, nil when absent.
    public var time: Double?
    /// `<name>`, nil when absent.
    public var name: String?
    /// The kind of point, where the file names one: a TCX course point's `PointType`
    /// (`Generic`, `Summit`, `Water`, `Left`, `Right`, …), a FIT course point's `type` as the
    /// FIT profile names it (`generic`, `summit`, `left`, `slight_right`, `toilet`, …, or its
    /// number for one the profile does not name), a GPX waypoint's `<type>`, else its `<sym>`
    /// (where GPSBabel puts a TCX course point's `PointType`); nil for KML waypoints.
    /// ``isTurnInstruction`` tells the turn cues apart.
    public var type: String?

    public init(latitude: Double, longitude: Double, altitude: Double? = nil, geoidSeparation: Double? = nil,
                time: Double? = nil, name: String? = nil, type: String? = nil) {
        self.latitude = latitude; self.longitude = longitude; self.altitude = altitude
        self.geoidSeparation = geoidSeparation; self.time = time; self.name = name; self.type = type
    }

    /// Whether the point is a turn instruction of a course — TCX `Left`, `Right`, `Straight`; FIT
    /// `left`, `right`, `straight`, `left_fork`, `right_fork`, `middle_fork`, `slight_left`,
    /// `sharp_left`, `slight_right`, `sharp_right`, `u_turn` (case-insensitive) — rather than a
    /// place to stop. Route planners (Garmin Connect, Ride with GPS, Komoot) write one at every
    /// junction; as a tour's stops they would trigger content at each turn, so
    /// `geobench route`/`tour` leave them out (and say how many). False for any other type and
    /// for none.
    public var isTurnInstruction: Bool {
        guard let t = type?.lowercased() else { return false }
        return Self.turnTypes.contains(t)
    }

    static let turnTypes: Set<String> = ["left", "right", "straight", "left_fork", "right_fork", "middle_fork",
                                         "slight_left", "sharp_left", "slight_right", "sharp_right", "u_turn"]
}

extension FixQuality {
    /// GPX's `fix` names (`none`, `2d`, `3d`, `dgps`, `pps`; case-insensitive, also GPSBabel's
    /// unicsv `FIX` column) as the GGA quality the readers give; nil for any other.
    init?<S: StringProtocol>(gpxFix name: S) {
        switch name.lowercased() {
        case "none": self = .invalid
        case "2d", "3d": self = .gps
        case "dgps": self = .differential
        case "pps": self = .pps
        default: return nil
        }
    }
}
