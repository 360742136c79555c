import ArgumentParser
import Foundation
import GeoAnchorKit

extension GnssLoggerProvider: ExpressibleByArgument {}

/// Shared trace-file plumbing for the subcommands: format by extension, typed reader errors
/// turned into `InputError` (`FILE:LINE: message`, exit 2), skipped-line counts on stderr.
enum TraceIO {
    static func format(of path: String, option: String) throws -> TraceFormat {
        let ext = (path as NSString).pathExtension
        guard let f = TraceFormat(pathExtension: ext) else {
            throw InputError(file: option, line: nil,
                message: "cannot tell the format of '\(path)' from its extension (use .nmea/.log/.txt, .gpx, .csv, .geojson/.json)")
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

    /// Reports skipped lines (only happens with --skip-invalid).
    static func reportSkipped(_ s: TraceReadSummary, source: String) {
        guard s.skippedLines > 0 else { return }
        Stderr.print("\(source): skipped \(s.skippedLines) invalid line(s)")
        for e in s.firstSkipped.prefix(3) { Stderr.print("  \(e)") }
    }

    /// Loads a whole trace; a file without a date and no `defaultDate` is reported as a typed
    /// error whose `isMissingDate` is true.
    static func load(_ path: String, options: TraceReadConfiguration) throws -> (Trace, TraceReadSummary) {
        let url = URL(fileURLWithPath: path)
        let fmt = try format(of: path, option: path)
        guard FileManager.default.isReadableFile(atPath: path) else {
            throw InputError(file: path, line: nil, message: "cannot read file")
        }
        var t = Trace(name: url.lastPathComponent)
        let s = try TraceReader.read(url: url, format: fmt, options: options,
                                     onFix: { t.fixes.append($0) }, onSensor: { t.sensors.append($0) })
        return (t, s)
    }
}
