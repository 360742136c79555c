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
public enum TCXReader {
    /// Reads a TCX file's fixes.
    /// - Throws: ``TraceFormatError`` for a document that is not TCX or a bad value (with its
    ///   line); whatever `onFix` throws.
    public static func read(url: URL, options: TraceReadConfiguration = TraceReadConfiguration(),
                            onFix: (Fix) throws -> Void) throws -> TraceReadSummary {
        try options.check(source: url.path)
        guard let stream = InputStream(url: url), FileManager.default.isReadableFile(atPath: url.path) else {
            throw TraceFormatError(source: url.path, line: nil, message: "cannot open file")
        }
        if let text = try ByteLineReader.decompressedContents(of: url) {
            try XMLInputCheck.check(data: text, source: url.path, format: XMLInputCheck.tcx)
            return try read(stream: InputStream(data: text), source: url.path, options: options, onFix: onFix)
        }
        try XMLInputCheck.check(url: url, format: XMLInputCheck.tcx)
        return try read(stream: stream, source: url.path, options: options, onFix: onFix)
    }

    /// Reads TCX from bytes in memory; `source` names it in errors.
    public static func read(data: Data, source: String, options: TraceReadConfiguration = TraceReadConfiguration(),
                            onFix: (Fix) throws -> Void) throws -> TraceReadSummary {
        try options.check(source: source)
        try XMLInputCheck.check(data: data, source: source, format: XMLInputCheck.tcx)
        return try read(stream: InputStream(data: data), source: source, options: options, onFix: onFix)
    }

    static func read(stream: InputStream, source: String, options: TraceReadConfiguration,
                     onFix: (Fix) throws -> Void) throws -> TraceReadSummary {
        try withoutActuallyEscaping(onFix) { onFix in
            let d = Delegate(source: source, options: options, onFix: onFix)
            try XMLInputCheck.parse(stream, source: source, delegate: d)
            guard d.sawRoot else {
                throw TraceFormatError(source: source, line: nil, message: "not a TCX document (no <TrainingCenterDatabase> root element)")
            }
            return d.summary
        }
    }

    private struct Point {
        var line: Int
        var time: (String, Int)?
        var latitude: Double?, longitude: Double?, altitude: Double?, speed: Double?
        var invalid: (line: Int, message: String)?
    }

    private final class Delegate: NSObject, TraceXMLDelegate {
        let source: String
        let options: TraceReadConfiguration
        let onFix: (Fix) throws -> Void
        var summary = TraceReadSummary()
        var callbackError: (any Error)?
        var formatError: TraceFormatError?
        var sawRoot = false
        var stack: [String] = []
        var text = ""
        var point: Point?

        init(source: String, options: TraceReadConfiguration, onFix: @escaping (Fix) throws -> Void) {
            self.source = source; self.options = options; self.onFix = onFix
        }


        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes: [String: String] = [:]) {
            let name = XMLInputCheck.localName(elementName)
            if stack.isEmpty && name == "TrainingCenterDatabase" { sawRoot = true }
            stack.append(name)
            text = ""
            if name == "Trackpoint" { point = Point(line: parser.lineNumber) }
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
            switch name {
            case "Time" where parent == "Trackpoint": point!.time = (value, line)
            case "LatitudeDegrees" where parent == "Position": point!.latitude = number(value, "LatitudeDegrees", line: line)
            case "LongitudeDegrees" where parent == "Position": point!.longitude = number(value, "LongitudeDegrees", line: line)
            case "AltitudeMeters" where parent == "Trackpoint": point!.altitude = number(value, "AltitudeMeters", line: line)
            case "Speed" where parent == "TPX": point!.speed = number(value, "Speed", line: line)
            case "Trackpoint":
                let p = point!
                point = nil
                emit(p, parser)
            default: break
            }
        }

        func emit(_ p: Point, _ parser: XMLParser) {
            var problem = p.invalid
            var fix: Fix? = nil
            if problem == nil, let la = p.latitude, let lo = p.longitude, let (w, wl) = p.time {
                var s = w
                switch s.withUTF8({ ByteParsing.iso8601($0) }) {
                case .success(let t):
                    var f = Fix(time: t, latitude: la, longitude: lo)
                    if let h = p.altitude { f.height = h; f.verticalReference = .meanSeaLevel }
                    f.speed = p.speed
                    if let v = f.validationProblem { problem = (p.line, "Trackpoint: " + v) } else { fix = f }
                case .failure(let e): problem = (wl, "Time '\(w.prefix(40))': \(e.message)")
                }
            }
            if let bad = problem {
                let e = TraceFormatError(source: source, line: bad.line, message: bad.message)
                if options.skipInvalid { summary.skip(e); return }
                formatError = e
                parser.abortParsing()
                return
            }
            guard p.latitude != nil, p.longitude != nil else { summary.ignoredRecords += 1; return }
            guard let fix else { summary.ignoredRecords += 1; summary.untimedPoints += 1; return }
            do { try onFix(fix); summary.fixes += 1 } catch {
                callbackError = error
                parser.abortParsing()
            }
        }
    }
}
