import ArgumentParser
import Foundation
import GeoAnchorKit

struct AccuracyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "accuracy",
        abstract: "Accuracy of a trace against a reference (truth) track.",
        discussion: """
        Each trace fix (time + --time-offset) is matched with the truth interpolated linearly \
        between samples at most --max-gap seconds apart; fixes outside the truth's span or in a \
        gap are `unmatched`. Errors are the trace position in the local East-North-Up frame at \
        the truth point (ellipsoidal, no flat-Earth step): horizontal √(e²+n²), vertical |Δh| \
        of ellipsoidal heights (MSL heights + the file's geoid separation, e.g. NMEA GGA field \
        11, or with --geoid the grid's undulation where a file gives none; epochs whose heights \
        cannot be reconciled count only horizontally), along/cross-track relative to the truth's direction of travel. Percentiles: linear \
        interpolation between order statistics (NumPy's default, Hyndman–Fan type 7). \
        gsdc_score = (horizontal p50 + p95) / 2.

        --json prints: {"horizontal":{"count","p50","p95","rmse","drms2","max"}, \
        "vertical":{same keys}, "gsdc_score", "matched", "unmatched", "accuracy_stated", \
        "within_accuracy"} (meters; null when a statistic has no data). drms2 = 2 × RMS. \
        accuracy_stated: matched fixes stating a horizontal accuracy; within_accuracy: the share \
        of those whose horizontal error is within it (0.68 for an honest 68 % radius; null when \
        none states one).

        --plot FILE.svg writes an SVG (any browser) with the horizontal-error CDF, the errors \
        over time and a map of trace vs truth.

        An NMEA file that never states a date (e.g. the GSDC SPAN 10 Hz files, whose RMC \
        checksums are all wrong and are skipped with --skip-invalid) takes the other file's \
        UTC day, with a note on stderr; --date overrides. Invalid input: exit 2, FILE:LINE: \
        message; --skip-invalid skips invalid lines and reports the count on stderr.
        """
    )

    @Option(help: "Trace to evaluate (.nmea, .gpx, .csv, .geojson, .kml/.kmz, .fit, .tcx, .ubx).")
    var trace: String

    @Option(help: "Reference track (.nmea, .gpx, .csv, .geojson, .kml/.kmz, .fit, .tcx, .ubx: a u-blox RTK receiver's NAV-PVT).")
    var truth: String

    @Flag(help: "Print the statistics as JSON.")
    var json = false

    @Option(help: "Write an SVG plot (error CDF, error over time, map).")
    var plot: String?

    @Option(help: "Seconds added to trace times before matching.")
    var timeOffset: Double = 0

    @Option(help: "Largest truth sampling gap (s) to interpolate across.")
    var maxGap: Double = 1.5

    @Flag(help: "Skip invalid lines (count reported on stderr) instead of failing.")
    var skipInvalid = false

    @Option(help: "UTC date YYYY-MM-DD for NMEA files that never state one.")
    var date: String?

    @Option(help: "GnssLogger logs and GPSLogger CSV (trace or truth): whose fixes are read: gps (default), fused, network or all.")
    var provider: GnssLoggerProvider = .gps

    @Option(help: "GTX geoid grid (e.g. /usr/share/proj/egm96_15.gtx) for MSL heights given without a geoid separation.")
    var geoid: String?

    func run() throws {
        try withInputErrors {
            guard timeOffset.isFinite else { throw InputError(file: "--time-offset", line: nil, message: "must be finite") }
            try located("--time-offset") { try TrackAccuracy.Configuration.timeOffsetRange.check(timeOffset, name: "time offset") }
            guard maxGap > 0, maxGap.isFinite else { throw InputError(file: "--max-gap", line: nil, message: "\(maxGap) must be > 0") }
            let day = try date.map(TraceIO.parseDate)
            let (traceFixes, truthFixes) = try Self.loadPair(trace: trace, truth: truth, skipInvalid: skipInvalid, date: day, provider: provider)
            var undulation: (@Sendable (Double, Double) -> Double?)? = nil
            if let geoid {
                let grid = try located(geoid) { try GeoidGrid(path: geoid) }
                undulation = { lat, lon in try? grid.undulation(latitude: lat, longitude: lon) }
            }
            let reference = ReferenceTrack(truthFixes, geoid: undulation)
            let r = TrackAccuracy.evaluate(trace: traceFixes, reference: reference,
                                           options: .init(timeOffset: timeOffset, maximumGap: maxGap), geoid: undulation)
            if json {
                print(Self.json(r))
            } else {
                for line in Self.text(r) { print(line) }
            }
            if let plot {
                let svg = AccuracyPlot.svg(result: r, reference: reference, title: "\((trace as NSString).lastPathComponent) vs \((truth as NSString).lastPathComponent)")
                try OutputFile.write(svg, to: plot)
            }
            if r.matched == 0 {
                Stderr.print("warning: no trace fix falls within the truth's time span (check --time-offset / --date)")
            }
        }
    }

    /// Reads trace and truth; a file without a date takes the other's first UTC day.
    static func loadPair(trace: String, truth: String, skipInvalid: Bool, date: Double?,
                         provider: GnssLoggerProvider = .gps) throws -> ([Fix], [Fix]) {
        let opts = TraceReadConfiguration(skipInvalid: skipInvalid, defaultDate: date, provider: provider)
        func attempt(_ path: String, _ o: TraceReadConfiguration) throws -> [Fix]? {
            do {
                return try TraceIO.load(path, options: o).0.fixes
            } catch let e as TraceFormatError where e.isMissingDate && o.defaultDate == nil {
                return nil
            }
        }
        func dayOf(_ f: [Fix], _ path: String) throws -> Double {
            guard let t = f.first?.time else { throw InputError(file: path, line: nil, message: "no fixes") }
            return (t / 86_400).rounded(.down) * 86_400
        }
        func withDay(_ path: String, _ other: [Fix], _ otherPath: String) throws -> [Fix] {
            var o = opts
            o.defaultDate = try dayOf(other, otherPath)
            Stderr.print("note: \(path) states no date; using \(ByteParsing.iso8601String(o.defaultDate!, fractionDigits: 0).prefix(10)) from \(otherPath) (override with --date)")
            return try attempt(path, o)!
        }
        let a = try attempt(trace, opts)
        let b = try attempt(truth, opts)
        switch (a, b) {
        case let (a?, b?): return (a, b)
        case let (a?, nil): return (a, try withDay(truth, a, trace))
        case let (nil, b?): return (try withDay(trace, b, truth), b)
        case (nil, nil):
            throw InputError(file: trace, line: nil, message: "neither file states a date (no RMC/ZDA sentence): pass --date YYYY-MM-DD")
        }
    }

    static func jsonNumber(_ v: Double) -> String {
        v.isFinite ? String(format: "%.4f", v) : "null"
    }

    static func jsonStats(_ s: ErrorStatistics) -> String {
        "{\"count\":\(s.count),\"p50\":\(jsonNumber(s.p50)),\"p95\":\(jsonNumber(s.p95)),\"rmse\":\(jsonNumber(s.rmse)),\"drms2\":\(jsonNumber(s.drms2)),\"max\":\(jsonNumber(s.max))}"
    }

    static func json(_ r: TrackAccuracy) -> String {
        "{\"horizontal\":\(jsonStats(r.horizontal)),\"vertical\":\(jsonStats(r.vertical)),\"gsdc_score\":\(jsonNumber(r.gsdcScore)),\"matched\":\(r.matched),\"unmatched\":\(r.unmatched)"
            + ",\"accuracy_stated\":\(r.accuracyStated),\"within_accuracy\":\(r.withinAccuracy.map(jsonNumber) ?? "null")}"
    }

    static func text(_ r: TrackAccuracy) -> [String] {
        func row(_ name: String, _ s: ErrorStatistics) -> String {
            name.padding(toLength: 12, withPad: " ", startingAt: 0)
                + String(format: " %6d  %8.3f  %8.3f  %8.3f  %8.3f  %8.3f", s.count, s.p50, s.p95, s.rmse, s.drms2, s.max)
        }
        return [
            "matched \(r.matched), unmatched \(r.unmatched)",
            "error (m)     count       p50       p95      rmse     2drms       max",
            row("horizontal", r.horizontal),
            row("vertical", r.vertical),
            row("along-track", r.alongTrack),
            row("cross-track", r.crossTrack),
            String(format: "CEP50 %.3f m, CEP95 %.3f m, GSDC score %.3f m", r.horizontal.p50, r.horizontal.p95, r.gsdcScore),
            r.withinAccuracy.map { String(format: "within the stated horizontal accuracy: %.1f %% of %d fixes stating one (68 %% for an honest 68 %% radius)", 100 * $0, r.accuracyStated) }
                ?? "no fix states a horizontal accuracy",
        ]
    }
}
