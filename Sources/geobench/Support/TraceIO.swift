import ArgumentParser
import Foundation
import GeoAnchorKit

extension GnssLoggerProvider: ExpressibleByArgument {}

/// Shared trace-file plumbing for the subcommands: format by extension, typed reader errors
/// turned into `InputError` (`FILE:LINE: message`, exit 2), skipped-line counts on stderr.
enum TraceIO {
    static func format(of path: String, option: String) throws -> TraceFormat {
        guard let f = TraceFormat(fileName: path) else {
            throw InputError(file: option, line: nil,
                message: "cannot tell the format of '\(path)' from its extension (use .nmea/.log/.txt, .gpx, .csv, .geojson/.json, .kml/.kmz, .fit, .tcx, .ubx)")
        }
        return f
    }

    /// A file's extension, lowercased, telling its kind — the one before `.gz` for a
    /// gzip-compressed file (`stops.gpx.gz` → `gpx`; the readers decompress by content).
    static func kind(of path: String) -> String { TraceFormat.formatExtension(ofFileName: path) }

    /// The format of an output path: as ``format(of:option:)``, refusing KML (read, not written)
    /// and gzip (the writers write plain text).
    static func outputFormat(of path: String, option: String) throws -> TraceFormat {
        if TraceFormat.compressionExtensions.contains((path as NSString).pathExtension.lowercased()) {
            throw InputError(file: option, line: nil, message: "'\(path)': compressed output is not written; write the plain file and compress it")
        }
        let f = try format(of: path, option: option)
        guard TraceFormat.writable.contains(f) else {
            throw InputError(file: option, line: nil, message: "'\(path)': \(f.rawValue.uppercased()) is read, not written; write .gpx (Google Earth opens it), .geojson, .csv or .nmea")
        }
        return f
    }

    /// Parses `YYYY-MM-DD` into Unix seconds at 00:00 UTC.
    static func parseDate(_ s: String) throws -> Double {
        var str = s + "T00:00:00Z"
        switch str.withUTF8({ ByteParsing.iso8601($0) }) {
        case .success(let t): return t
        case .failure(let e): throw InputError(file: "--date", line: nil, message: "'\(s)': \(e.message)")
        }
    }

    /// Reports on stderr what a reader read and did not deliver, so nothing is dropped silently:
    /// lines skipped with --skip-invalid, and track/route points without a time (a fix needs
    /// one). Records that are not fixes by nature (NMEA GSV, GnssLogger Status) are not reported
    /// unless no fix was found at all (``noFixesError(_:source:)``).
    static func reportRead(_ s: TraceReadSummary, source: String) {
        if s.skippedLines > 0 {
            Stderr.print("\(source): skipped \(s.skippedLines) invalid line(s)")
            for e in s.firstSkipped.prefix(3) { Stderr.print("  \(e)") }
        }
        if s.untimedPoints > 0 && s.fixes > 0 {
            Stderr.print("\(source): \(s.untimedPoints) point(s) without a time not used (a fix needs a time)")
        }
        if s.otherProviderFixes > 0 && s.fixes > 0 {
            Stderr.print("\(source): \(s.otherProviderFixes) fix(es) of other location providers not used (--provider gps|fused|network|all)")
        }
    }

    /// The error for a file that gave no fix, saying what it held instead.
    static func noFixesError(_ s: TraceReadSummary, source: String) -> InputError {
        var held: [String] = []
        if s.untimedPoints > 0 { held.append("\(s.untimedPoints) point(s) without a time, as in a planned route") }
        let other = s.ignoredRecords - Swift.min(s.ignoredRecords, s.untimedPoints)
        if other > 0 { held.append("\(other) record(s) without a position fix") }
        if s.otherProviderFixes > 0 { held.append("\(s.otherProviderFixes) fix(es) of other providers than --provider selects") }
        if s.waypoints > 0 { held.append("\(s.waypoints) waypoint(s), which are points of interest, not fixes") }
        if s.rawMeasurements > 0 { held.append("\(s.rawMeasurements) Raw GNSS measurement(s): positions from them with `geobench gnss`") }
        if s.sensorSamples > 0 { held.append("\(s.sensorSamples) sensor sample(s)") }
        if s.skippedLines > 0 { held.append("\(s.skippedLines) invalid line(s) skipped") }
        return InputError(file: source, line: nil, message: "no fixes found" + (held.isEmpty ? " (empty trace)" : " (" + held.joined(separator: "; ") + ")"))
    }

    /// Refuses a path that is neither a readable file nor a member of a ZIP archive
    /// (`recording.zip/Location.csv`, GDAL's `/vsizip/` naming: the readers open it).
    /// - Throws: ``InputError`` "cannot read file".
    static func checkReadable(_ path: String) throws {
        guard FileManager.default.isReadableFile(atPath: path) || ByteLineReader.zipMember(path) != nil else {
            throw InputError(file: path, line: nil, message: "cannot read file")
        }
    }

    /// Loads a whole trace, reporting what was not used (``reportRead(_:source:)``); a file
    /// without fixes is an error (``noFixesError(_:source:)``), a file without a date and no
    /// `defaultDate` a typed error whose `isMissingDate` is true.
    static func load(_ path: String, options: TraceReadConfiguration) throws -> (Trace, TraceReadSummary) {
        let url = URL(fileURLWithPath: path)
        let fmt = try format(of: path, option: path)
        try checkReadable(path)
        var t = Trace(name: url.lastPathComponent)
        let s = try TraceReader.read(url: url, format: fmt, options: options,
                                     onFix: { t.fixes.append($0) }, onSensor: { t.sensors.append($0) })
        reportRead(s, source: path)
        if t.fixes.isEmpty { throw noFixesError(s, source: path) }
        return (t, s)
    }
}
