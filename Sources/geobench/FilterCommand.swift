import ArgumentParser
import Foundation
import GeoAnchorKit

struct FilterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filter",
        abstract: "Kalman-filter (and optionally RTS-smooth) a GNSS trace; formats by file extension.",
        discussion: """
        Reads --input (.nmea/.log/.txt, .gpx, .csv, .geojson/.json, .kml/.kmz, .fit, .tcx, .ubx) and writes one fix per input fix \
        that the filter used or gated to --output (format by its extension). A CSV output has the \
        trace CSV columns (time,latitude,longitude,altitude|ellipsoidal_height,geoid_separation,\
        horizontal_accuracy,vertical_accuracy,speed,course,heading,heading_accuracy,satellites,hdop,\
        vdop,pdop,quality) with the filter's own estimate in latitude, longitude, height, \
        horizontal_accuracy (68 % radius, m; never below √0.6 × the latest fix's σ, as GNSS error \
        that lasts minutes is not averaged out: --correlated-share), vertical_accuracy, speed and \
        course; other columns \
        are copied from the input fix, plus the columns motion (the most probable kind of motion: \
        stationary, walking or vehicle) and motion_stationary, motion_walking, motion_vehicle (their \
        probabilities). Fixes the filter refuses (time going backwards, exact duplicates) are not \
        written; they are counted. Without --smooth the filter streams: it reads, filters and \
        writes one fix at a time in bounded memory (GeoJSON input is decoded whole).

        Without --profile the motion model adapts to the data: an interacting multiple model over \
        stationary, walking (white or Gauss–Markov correlated fix errors) and vehicle modes \
        (PositionFilter.Configuration.adaptive); --profile walking|cycling|driving forces one preset. \
        When the mean normalised innovation (mean_mahalanobis_squared, 2 when the model fits) is \
        outside 0.67–6, a warning says the model does not fit the data (model_fits false).

        --smooth runs the Rauch–Tung–Striebel smoother over the whole trace (offline; with the \
        adaptive model a walking-tuned pass where the device walked or stood, blended with the \
        moment-matched mixture of its modes where it rode) and writes the smoothed \
        estimates instead. --path FILE.geojson constrains the estimate to a known \
        walking path (map aiding): the LineString/MultiLineString features with "kind": "path" \
        (the tour files' convention), else every line in the file; a .gpx path file gives its \
        track segments, else its routes (times not needed), a .kml/.kmz its LineStrings, a .tcx/.fit \
        course its tracks; --path-sigma sets how far \
        (σ, m) the walker strays from the drawn line (default 1.5), --map-sigma how far its \
        vertices are off (σ per axis, m, default 0; added to the cross-track variance). The constraint is released \
        outside a corridor of 2 σ of the fix + 3 m around the path. --profile sets a one-mode process model (walking, cycling, \
        driving). Measurement σ: horizontal_accuracy is read as a 68 % radius (σ = accuracy / \
        1.5096 per axis; times 2 for cycling because phones report optimistic accuracies, while \
        walking models the slowly varying part as a Gauss–Markov bias state instead), \
        else HDOP × UERE / √2 (--uere, default 6 m), else 5 m.

        --json prints one JSON object on stdout with the keys: input, output, profile, smoothed, \
        fixes_read, fixes_written, accepted, gated, recoveries, gap_reinitializations, duplicates, \
        out_of_order, invalid, velocity_updates, velocity_gated, height_updates, height_gated, \
        stationary_steps, gate_threshold, mean_mahalanobis_squared, path_updates, path_skipped, \
        motion_share (an object: the share of time stationary, walking and vehicle), model_fits, \
        clock_resets (re-initializations after 5 fixes in a row went back in time: the filter's \
        previous time was wrong). \
        profile is "adaptive" without --profile. Without --json a one-line summary goes to stderr. Invalid input exits with status 2 and `FILE:LINE: message`.
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

    @Option(help: "Force a one-mode process model: walking, cycling or driving (default: adaptive).")
    var profile: String?

    @Option(help: "GeoJSON (LineStrings; \"kind\": \"path\" preferred), GPX (track segments, else routes), KML/KMZ, TCX/FIT with the walking path to constrain the estimate to, or an OpenStreetMap .osm/.osm.pbf file (its walkable ways).")
    var path: String?

    @Option(help: "σ (m) of the walker's distance from the --path line.")
    var pathSigma: Double = 1.5

    @Option(help: "σ (m per axis) of the --path vertices' drawing error (0: an exact map; OpenStreetMap in towns: 1–3).")
    var mapSigma: Double = 0

    @Option(help: "User-equivalent range error σ (m, at most 100 km) for fixes with HDOP but no accuracy.")
    var uere: Double?

    @Option(help: "Horizontal acceleration spectral density q (m²/s³, at most 10⁴) of the filter and the smoother; default from --profile (0.1, 1, 4; walking smoother 0.05); with the adaptive model it sets the walking modes' q and its smoother's walking q.")
    var accelerationPsd: Double?

    @Option(help: "Share (0–1, default 0.6) of each fix's error variance that lasts longer than the filter averages over: the written horizontal_accuracy never goes below √share × the latest fix's σ; 0 for fixes whose error is white.")
    var correlatedShare: Double?

    @Flag(help: "Skip invalid input lines (count reported on stderr) instead of failing.")
    var skipInvalid = false

    @Option(help: "UTC date YYYY-MM-DD for NMEA input that never states one.")
    var date: String?

    @Option(help: "GnssLogger or GPSLogger CSV input: whose fixes to filter: gps (default), fused, network or all.")
    var provider: GnssLoggerProvider = .gps

    func run() throws {
        try withInputErrors {
            var config = PositionFilter.Configuration.adaptive
            if let profile {
                guard let p = MotionProfile(rawValue: profile) else {
                    throw InputError(file: "--profile", line: nil, message: "'\(profile)' is not walking, cycling or driving")
                }
                config = .profile(p)
            }
            if let uere {
                guard uere > 0, uere.isFinite else {
                    throw InputError(file: "--uere", line: nil, message: "\(uere) must be a positive number of meters")
                }
                // The library's bound (100 km: a σ beyond refuses every fix), as its error.
                try located("--uere") {
                    try PositionFilter.Configuration.horizontalSigmaRange.check(uere, name: "userEquivalentRangeError")
                }
                config.userEquivalentRangeError = uere
            }
            if let q = accelerationPsd {
                guard q > 0, q.isFinite else {
                    throw InputError(file: "--acceleration-psd", line: nil, message: "\(q) must be a positive number of m²/s³")
                }
                // The library's bound (10⁴ m²/s³; 1e308 gave NaN estimates), as its error.
                try located("--acceleration-psd") {
                    try PositionFilter.Configuration.accelerationSpectralDensityRange.check(q, name: "accelerationSpectralDensity")
                }
                config.accelerationSpectralDensity = q
                config.smootherAccelerationSpectralDensity = nil
                config.smootherSchedule?.walkingAccelerationSpectralDensity = q
                config.modes = config.modes?.map { m in
                    var m = m
                    if m.kind == .walking { m.accelerationSpectralDensity = q }
                    return m
                }
            }
            if let share = correlatedShare {
                try located("--correlated-share") { try ValueRange.closed(0, 1).check(share, name: "correlatedErrorShare") }
                config.correlatedErrorShare = share
            }
            // Implied by the checks above (the presets are valid): the filter's precondition
            // must never be what reports an option.
            try located("filter configuration") { try config.validate() }
            let outFmt = try TraceIO.outputFormat(of: output, option: "--output")
            let inFmt = try TraceIO.format(of: input, option: input)
            try TraceIO.checkReadable(input)
            var opts = TraceReadConfiguration(skipInvalid: skipInvalid, provider: provider)
            if let date { opts.defaultDate = try TraceIO.parseDate(date) }

            let constraint = try path.map { try PathConstraint.load($0, crossTrackSigma: pathSigma, mapSigma: mapSigma) }

            var fixesRead = 0, fixesWritten = 0
            var statistics: PositionFilterStatistics? = nil
            // OutputFile: write errors reported, a regular file replaced atomically (no partial output).
            try TraceOutput.write(to: output, format: outFmt) { writer in
                writer.extraCSVColumns = ["motion", "motion_stationary", "motion_walking", "motion_vehicle"]
                func write(_ e: FilteredFix, _ fix: Fix) throws {
                    let out = e.fix(replacing: fix)
                    // An extreme but finite input can overflow the filter: an error
                    // naming the input fix, never nan/inf in the output (which no reader accepts).
                    if let problem = out.validationProblem {
                        throw InputError(file: input, line: nil,
                            message: "fix at time \(fix.time) (horizontal accuracy \(fix.horizontalAccuracy.map { "\($0)" } ?? "none") m): the filter's estimate is not usable (\(problem)); the input is out of range")
                    }
                    let m = e.local.motion
                    try writer.write(out, extra: [m.mostProbable.rawValue, String(format: "%.3f", m.stationary),
                                                  String(format: "%.3f", m.walking), String(format: "%.3f", m.vehicle)])
                    fixesWritten += 1
                }
                let summary: TraceReadSummary
                if smooth {
                    // The smoother needs the whole forward pass: keep the fixes, then write.
                    var fixes: [Fix] = []
                    summary = try TraceReader.read(url: URL(fileURLWithPath: input), format: inFmt, options: opts, onFix: { fixes.append($0) })
                    fixesRead = fixes.count
                    let track = PositionFilter.track(fixes, configuration: config, smooth: true, path: constraint)
                    for (e, i) in zip(track.smoothed ?? [], track.inputIndices) { try write(e, fixes[i]) }
                    statistics = track.statistics
                } else {
                    // Causal filter: read, filter and write one fix at a time (bounded memory).
                    var f = PositionFilter(configuration: config, path: constraint)
                    summary = try TraceReader.read(url: URL(fileURLWithPath: input), format: inFmt, options: opts, onFix: { fix in
                        fixesRead += 1
                        if let e = f.process(fix) { try write(e, fix) }
                    })
                    statistics = f.statistics
                }
                TraceIO.reportRead(summary, source: input)
                if fixesRead == 0 { throw TraceIO.noFixesError(summary, source: input) }
            }
            guard let s = statistics else { return }
            if !s.modelFits {
                Stderr.print("warning: \(input): the motion model does not fit these fixes: mean normalised innovation "
                             + String(format: "%.2f", s.meanMahalanobisSquared) + " (expected 2; accepted range 0.67–6) — "
                             + (s.meanMahalanobisSquared > 2 ? "the fixes' accuracies are optimistic or the motion is not what the model allows"
                                                              : "the fixes' accuracies are pessimistic (the filter smooths less than it could)"))
            }
            if json {
                let report = FilterJSON(input: input, output: output, profile: profile ?? "adaptive", smoothed: smooth,
                                        fixesRead: fixesRead, fixesWritten: fixesWritten, statistics: s)
                let enc = JSONEncoder()
                enc.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
                try OutputFile.write(String(decoding: try enc.encode(report), as: UTF8.self) + "\n")
            } else {
                let share = s.motionShare.map { String(format: "; motion %.0f %% stationary, %.0f %% walking, %.0f %% vehicle",
                                                       100 * $0.stationary, 100 * $0.walking, 100 * $0.vehicle) } ?? ""
                Stderr.print("\(input) → \(output): \(fixesRead) fixes read, \(fixesWritten) written\(smooth ? " (smoothed)" : ""); "
                             + "\(s.gated) gated, \(s.recoveries) recoveries, \(s.gapReinitializations) gap re-inits, \(s.clockResets) clock resets, "
                             + "\(s.duplicates) duplicates, \(s.outOfOrder) out of order, \(s.invalid) invalid" + share)
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
        case path_updates, path_skipped, motion_share, model_fits, clock_resets
    }

    enum ShareKey: String, CodingKey { case stationary, walking, vehicle }

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
        if let share = s.motionShare {
            var sc = c.nestedContainer(keyedBy: ShareKey.self, forKey: .motion_share)
            try sc.encode(share.stationary, forKey: .stationary)
            try sc.encode(share.walking, forKey: .walking)
            try sc.encode(share.vehicle, forKey: .vehicle)
        } else {
            try c.encodeNil(forKey: .motion_share)
        }
        try c.encode(s.modelFits, forKey: .model_fits)
        try c.encode(s.clockResets, forKey: .clock_resets)
    }
}
