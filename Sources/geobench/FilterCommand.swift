import ArgumentParser
import Foundation
import GeoAnchorKit

struct FilterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filter",
        abstract: "Kalman-filter (and optionally RTS-smooth) a GNSS trace; formats by file extension.",
        discussion: """
        Reads --input (.nmea/.log/.txt, .gpx, .csv, .geojson/.json) and writes one fix per input fix \
        that the filter used or gated to --output (format by its extension). A CSV output has the \
        trace CSV columns (time,latitude,longitude,altitude|ellipsoidal_height,geoid_separation,\
        horizontal_accuracy,vertical_accuracy,speed,course,heading,heading_accuracy,satellites,hdop,\
        vdop,pdop,quality) with the filter's own estimate in latitude, longitude, height, \
        horizontal_accuracy (68 % radius, m), vertical_accuracy, speed and course; other columns \
        are copied from the input fix. Fixes the filter refuses (time going backwards, exact \
        duplicates) are not written; they are counted.

        --smooth runs the Rauch–Tung–Striebel smoother over the whole trace (offline) and writes \
        the smoothed estimates instead. --path FILE.geojson constrains the estimate to a known \
        walking path (map aiding): the LineString/MultiLineString features with "kind": "path" \
        (the tour files' convention), else every line in the file; --path-sigma sets how far \
        (σ, m) the walker strays from the drawn line (default 1.5). The constraint is released \
        outside a corridor of 2 σ of the fix + 3 m around the path. --profile sets the process model (walking, cycling, \
        driving). Measurement σ: horizontal_accuracy is read as a 68 % radius (σ = accuracy / \
        1.5096 per axis; times 2 for cycling because phones report optimistic accuracies, while \
        walking models the slowly varying part as a Gauss–Markov bias state instead), \
        else HDOP × UERE / √2 (--uere, default 6 m), else 5 m.

        --json prints one JSON object on stdout with the keys: input, output, profile, smoothed, \
        fixes_read, fixes_written, accepted, gated, recoveries, gap_reinitializations, duplicates, \
        out_of_order, invalid, velocity_updates, velocity_gated, height_updates, height_gated, \
        stationary_steps, gate_threshold, mean_mahalanobis_squared, path_updates, path_skipped. Without --json a one-line \
        summary goes to stderr. Invalid input exits with status 2 and `FILE:LINE: message`.
        """
    )

    @Option(help: "Input trace file.")
    var input: String

    @Option(help: "Output trace file (created or replaced).")
    var output: String

    @Flag(help: "Write RTS-smoothed (offline) estimates instead of the causal filter's.")
    var smooth = false

    @Flag(help: "Print gate statistics and counts as JSON on stdout.")
    var json = false

    @Option(help: "Process model: walking, cycling or driving.")
    var profile: String = "walking"

    @Option(help: "GeoJSON file with the walking path to constrain the estimate to (LineStrings; \"kind\": \"path\" preferred).")
    var path: String?

    @Option(help: "σ (m) of the walker's distance from the --path line.")
    var pathSigma: Double = 1.5

    @Option(help: "User-equivalent range error σ (m) for fixes with HDOP but no accuracy.")
    var uere: Double?

    @Option(help: "Horizontal acceleration spectral density q (m²/s³) of the filter and the smoother; default from --profile (0.1, 1, 4; walking smoother 0.05).")
    var accelerationPsd: Double?

    @Flag(help: "Skip invalid input lines (count reported on stderr) instead of failing.")
    var skipInvalid = false

    @Option(help: "UTC date YYYY-MM-DD for NMEA input that never states one.")
    var date: String?

    func run() throws {
        try withInputErrors {
            guard let p = MotionProfile(rawValue: profile) else {
                throw InputError(file: "--profile", line: nil, message: "'\(profile)' is not walking, cycling or driving")
            }
            var config = PositionFilter.Configuration.profile(p)
            if let uere {
                guard uere > 0, uere.isFinite else {
                    throw InputError(file: "--uere", line: nil, message: "\(uere) must be a positive number of meters")
                }
                config.userEquivalentRangeError = uere
            }
            if let q = accelerationPsd {
                guard q > 0, q.isFinite else {
                    throw InputError(file: "--acceleration-psd", line: nil, message: "\(q) must be a positive number of m²/s³")
                }
                config.accelerationSpectralDensity = q
                config.smootherAccelerationSpectralDensity = nil
            }
            let outFmt = try TraceIO.format(of: output, option: "--output")
            var opts = TraceReadOptions(skipInvalid: skipInvalid)
            if let date { opts.defaultDate = try TraceIO.parseDate(date) }
            let trace: Trace, summary: TraceReadSummary
            do { (trace, summary) = try TraceIO.load(input, options: opts) } catch let e as TraceFormatError {
                throw TraceIO.inputError(e)
            }
            TraceIO.reportSkipped(summary, source: input)
            if trace.fixes.isEmpty { throw InputError(file: input, line: nil, message: "no fixes found") }

            var constraint: PathConstraint? = nil
            if let path {
                guard pathSigma > 0, pathSigma.isFinite else {
                    throw InputError(file: "--path-sigma", line: nil, message: "\(pathSigma) must be a positive number of meters")
                }
                let collection: GeoJSONFeatureCollection
                do { collection = try GeoJSONFeatureCollection.read(contentsOf: URL(fileURLWithPath: path)) } catch let e as TraceFormatError {
                    throw TraceIO.inputError(e)
                }
                do { constraint = try PathConstraint(geoJSON: collection, crossTrackSigma: pathSigma) } catch {
                    throw InputError(file: path, line: nil, message: "not a usable path: \(error)")
                }
            }
            let track = PositionFilter.track(trace.fixes, configuration: config, smooth: smooth, path: constraint)
            let estimates = smooth ? track.smoothed! : track.filtered
            try TraceOutput.write(to: output, format: outFmt) { writer in
                for (e, i) in zip(estimates, track.inputIndices) {
                    let f = e.fix(replacing: trace.fixes[i])
                    // An extreme but finite input (accuracy 1e308) can overflow the filter: an error
                    // naming the input fix, never nan/inf in the output (which no reader accepts).
                    if let problem = f.validationProblem {
                        let t = trace.fixes[i]
                        throw InputError(file: input, line: nil,
                            message: "fix #\(i + 1) (time \(t.time), horizontal accuracy \(t.horizontalAccuracy.map { "\($0)" } ?? "none") m): the filter's estimate is not usable (\(problem)); the input is out of range")
                    }
                    try writer.write(f)
                }
            }
            let s = track.statistics
            if json {
                let report = FilterJSON(input: input, output: output, profile: p.rawValue, smoothed: smooth,
                                        fixesRead: trace.fixes.count, fixesWritten: estimates.count, statistics: s)
                let enc = JSONEncoder()
                enc.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                try OutputFile.write(String(decoding: try enc.encode(report), as: UTF8.self) + "\n")
            } else {
                Stderr.print("\(input) → \(output): \(trace.fixes.count) fixes read, \(estimates.count) written\(smooth ? " (smoothed)" : ""); "
                             + "\(s.gated) gated, \(s.recoveries) recoveries, \(s.gapReinitializations) gap re-inits, "
                             + "\(s.duplicates) duplicates, \(s.outOfOrder) out of order, \(s.invalid) invalid")
            }
        }
    }
}

/// The `--json` object (keys documented in the command's discussion and README).
private struct FilterJSON: Encodable {
    var input: String, output: String, profile: String, smoothed: Bool
    var fixesRead: Int, fixesWritten: Int
    var statistics: PositionFilterStatistics

    enum Key: String, CodingKey {
        case input, output, profile, smoothed, fixes_read, fixes_written, accepted, gated, recoveries
        case gap_reinitializations, duplicates, out_of_order, invalid, velocity_updates, velocity_gated
        case height_updates, height_gated, stationary_steps, gate_threshold, mean_mahalanobis_squared
        case path_updates, path_skipped
    }

    func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Key.self)
        let s = statistics
        try c.encode(input, forKey: .input); try c.encode(output, forKey: .output)
        try c.encode(profile, forKey: .profile); try c.encode(smoothed, forKey: .smoothed)
        try c.encode(fixesRead, forKey: .fixes_read); try c.encode(fixesWritten, forKey: .fixes_written)
        try c.encode(s.accepted, forKey: .accepted); try c.encode(s.gated, forKey: .gated)
        try c.encode(s.recoveries, forKey: .recoveries); try c.encode(s.gapReinitializations, forKey: .gap_reinitializations)
        try c.encode(s.duplicates, forKey: .duplicates); try c.encode(s.outOfOrder, forKey: .out_of_order)
        try c.encode(s.invalid, forKey: .invalid); try c.encode(s.velocityUpdates, forKey: .velocity_updates)
        try c.encode(s.velocityGated, forKey: .velocity_gated); try c.encode(s.heightUpdates, forKey: .height_updates)
        try c.encode(s.heightGated, forKey: .height_gated); try c.encode(s.stationarySteps, forKey: .stationary_steps)
        try c.encode(s.gateThreshold, forKey: .gate_threshold)
        try c.encode(s.pathUpdates, forKey: .path_updates); try c.encode(s.pathSkipped, forKey: .path_skipped)
        // NaN (no accepted update) is not representable in JSON: null.
        let m = s.meanMahalanobisSquared
        if m.isFinite { try c.encode(m, forKey: .mean_mahalanobis_squared) } else { try c.encodeNil(forKey: .mean_mahalanobis_squared) }
    }
}
