import ArgumentParser
import Foundation
import GeoAnchorKit

struct AlignCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "align",
        abstract: "Geo-register an AR session: fuse AR tracking, GNSS fixes, an optional compass, tour path and DEM (GeoRegistration).",
        discussion: """
        --tracking CSV columns time,x,y,z,yaw: time ISO 8601 UTC or Unix seconds; x,y,z the device \
        position in the AR session frame, meters (frame arkit-gravity, the default: y up, at session \
        start the device looked along -z and x pointed to its right; arkit = ARKit gravityAndHeading \
        x east y up z south; arcore = ARCore Earth EUS; enu = x east y north z up); yaw the device's \
        heading in the session frame, degrees clockwise seen from above, 0 = the frame's -z axis \
        (+y for enu), within [-360, 360]. --fixes: any trace geobench reads. --compass CSV columns \
        time,heading,heading_accuracy (degrees from true north; accuracy degrees, > 0); without it \
        the estimator runs magnetometer-free. Tracking interrupted: samples more than 5 s apart (an \
        app in the background) are a pause after which the session may be in a new frame, so the \
        step is not motion and the heading is re-learnt; an optional tracking column event says \
        what the app knows: reset (this row is the first of a new session frame, e.g. ARKit \
        resetTracking) or relocalized (the same frame after a relocalisation: the heading carries \
        over), empty otherwise. \
        Output CSV, one row per tracking row from the first estimate on (the time echoed as given), \
        except rows while the heading is re-learnt after an interruption (rows_without_estimate): \
        time,latitude,longitude,ellipsoidal_height,heading,heading_sigma,horizontal_accuracy,heading_offset \
        — the device position (WGS84, ellipsoidal height, m), its true heading (degrees, [0, 360)), \
        the 1-sigma of that heading (degrees), the 68 % horizontal radius (m; its variance per axis at \
        least \(gnssDefault(\.gnssPersistentShare)) of the last fix's as reported: GNSS error that lasts minutes does not average out) and the true heading \
        of the session's -z axis (degrees; +y for enu). \
        --json prints {rows, fixes_used, fixes_gated, fixes_before_tracking, fixes_after_tracking, \
        compass_used, compass_gated, tracking_jumps, tracking_interruptions, relocalisations_recognized, \
        tracking_noise_raised, tracking_divergences, rows_without_estimate, large_corrections, heading_reinitializations, \
        fixes_without_accuracy, fix_accuracy_scale_max, fix_accuracy_scale_min, compass_bias, compass_bias_sigma} on stdout; \
        compass_bias is the last estimate of the compass's slow error (reading - true heading, \
        degrees) and compass_bias_sigma its 1-sigma (both absent without --compass or before a \
        reading was used); fix_accuracy_scale_max is the \
        largest factor the fixes' reported accuracies had to be widened by (1: they held; >= 1.5 also \
        warns on stderr), fix_accuracy_scale_min the smallest they were narrowed to (pessimistic \
        accuracies, as from HDOP or a WLS solver: a running mean of the fixes' normalized \
        innovations below 0.4 in variance narrows them, to 0.5 x at most; <= 0.7 also notes it on stderr); \
        relocalisations_recognized counts the unannounced interruptions after which the session was \
        taken for relocalised in its old frame (the tracked step across the pause, turned by the heading \
        kept, matched the displacement the fixes showed; the heading then carries over); \
        tracking_noise_raised is true when the walk showed the tracking drifting more than \
        --tracking-noise models (its estimated scale error and yaw drift rate beyond the model's \
        priors, chi-square 9.21 with 2 degrees of freedom): from then on the estimator assumed older \
        tracking's noise (a note on stderr names the scale error and drift); \
        tracking_divergences counts the times the tracking ran away (its velocity and the fixes' own \
        - speed and course, or the speeds alone without a course - differing by over 2 m/s and half \
        the fix's speed at 3 fixes in a row; a note on stderr \
        each time): its motion since the last agreeing fix was taken back and it was not used until \
        its speed agreed with the fixes' again (rows meanwhile keep the last good sample's time). Fixes without horizontal accuracy (GPX) get HDOP x 6 m / sqrt(2), else \
        5 m per axis (fixes_without_accuracy counts them; a note on stderr). \
        --path FILE.geojson: map aiding with the walking path the device follows (a tour file's \
        LineString/MultiLineString features with "kind": "path", else every line; FILE.gpx: its \
        track segments, else its routes, times not needed; FILE.kml/.kmz its LineStrings; FILE.tcx/.fit \
        a course's tracks); --path-sigma (m, \
        default 1.5) is how far the walker strays from the drawn line, --map-sigma (m per axis, \
        default 0) how far the drawn vertices are off (a street map: 1-3 m; each walked segment's \
        offset and turn are then estimated, so a misdrawn segment turns the heading no more than \
        it can); the path is not used outside a corridor of 2 sigma of the fix + 3 m around it, nor while \
        the fixes stand off it on average (the map check: a path drawn off the walk, or multipath \
        along a street canyon; a note on stderr). With --path the JSON adds path_updates, \
        path_skipped, path_releases. \
        --gnss-correlation-time S (default \(gnssDefault(\.gnssCorrelationTime))) and --gnss-long-share F \
        (default \(gnssDefault(\.gnssLongShare))) state the receiver's GNSS error: its correlated part \
        decorrelates in S seconds except a share F of its variance that lasts --gnss-long-correlation-time s (default \(gnssDefault(\.gnssLongCorrelationTime))); a receiver measured to decorrelate fast (phones in the open: \
        ADVIO 14-17 s) may be better served by --gnss-long-share 0 --gnss-correlation-time 15, \
        one whose errors last minutes by the default (geobench report: GNSS error model stated). \
        --gnss-correlated-fraction F (default \(gnssDefault(\.gnssCorrelatedFraction))) is the part of each fix's \
        sigma that is correlated at all: positions solved epoch by epoch (geobench gnss --mode wls) \
        have more white error than a chipset's filtered ones, and 0.4 suits them better than the default \
        (Pixel 5 drive with compass: 0.93 -> 0.85 x raw, after the accuracy check narrowed their pessimistic sigma). \
        --dem FILE: ground aiding with a DEM (GeoTIFF, SRTM .hgt or ESRI ASCII grid; geographic WGS84): the device \
        is carried --device-height m (default 1.5) above it, +/- --dem-sigma m (default 0.5: how \
        the phone is held and the DEM's own error); --dem-datum msl (default; through --geoid, \
        default /usr/share/proj/egm96_15.gtx) or ellipsoid. Outside the DEM the constraint is \
        skipped. With --dem the JSON adds ground_updates, ground_skipped. \
        --truth TRACE --plot FILE.svg draws |heading error| and the error of anchors 50 m and 200 m \
        ahead over time, fused vs the compass alone (latest fix + latest compass reading). \
        Bad input (times going backwards, NaN, yaw out of range, coordinates beyond ±10,000 km, missing columns) exits 2 with FILE:LINE: message. Fixes stating a horizontal accuracy beyond 100 km, and compass readings beyond 180°, carry no information: counted gated.
        """
    )

    @Option(help: "AR tracking CSV: time,x,y,z,yaw.")
    var tracking: String

    @Option(help: "GNSS fixes (any trace format geobench reads).")
    var fixes: String

    @Option(help: "Compass CSV: time,heading,heading_accuracy (optional).")
    var compass: String?

    @Option(help: "Session frame: arkit-gravity (default), arkit, arcore or enu.")
    var frame: String = "arkit-gravity"

    @Option(help: "Output CSV file.")
    var output: String

    @Flag(help: "Print a JSON summary on stdout.")
    var json = false

    @Option(help: "GeoJSON (\"kind\": \"path\" lines preferred), GPX (track segments, else routes), KML/KMZ, TCX/FIT with the walking path the device follows, or an OpenStreetMap .osm/.osm.pbf file (its walkable ways: a street map) — map aiding.")
    var path: String?

    @Option(help: "σ (m) of the walker's distance from the --path line (how far they stray from it).")
    var pathSigma: Double = 1.5

    @Option(help: "σ (m per axis) of the --path vertices' drawing error (0: an exact map; OpenStreetMap in towns: 1–3).")
    var mapSigma: Double = 0

    /// A `GeoRegistrationConfiguration` default as the help prints it (the library's value, not a copy).
    static func gnssDefault(_ field: KeyPath<GeoRegistrationConfiguration, Double>) -> String {
        String(format: "%g", GeoRegistrationConfiguration()[keyPath: field])
    }

    @Option(help: "Correlation time (s) of the GNSS error's fast part (default \(gnssDefault(\.gnssCorrelationTime)); ADVIO phones 14–17).")
    var gnssCorrelationTime: Double?

    @Option(help: "Share (0–1) of the GNSS correlated error variance that is long-lived, τ \(gnssDefault(\.gnssLongCorrelationTime)) s (default \(gnssDefault(\.gnssLongShare)); 0: a receiver whose error decorrelates fast).")
    var gnssLongShare: Double?

    @Option(help: "Correlation time (s) of the GNSS error's long-lived part (default \(gnssDefault(\.gnssLongCorrelationTime)); receivers whose error lasts ten minutes: 600).")
    var gnssLongCorrelationTime: Double?

    @Option(help: "Part (0–1) of each fix's σ that is correlated at all (default \(gnssDefault(\.gnssCorrelatedFraction)); epoch-by-epoch solutions such as geobench gnss --mode wls: ≈ 0.1).")
    var gnssCorrelatedFraction: Double?

    @Option(help: "χ² gate (2 degrees of freedom, > 0; default \(GeoRegistrationConfiguration().relocalisationGate.map { String(format: "%g", $0) } ?? "off")) under which the tracked step across an unannounced pause, turned by the heading kept, matches the fixes' displacement: the session is taken for relocalised in its old frame and the heading kept (relocalisations_recognized); 'off' re-learns the heading after every unannounced pause.")
    var relocalisationGate: String?

    @Option(help: "DEM the device is carried above (ground aiding): GeoTIFF, SRTM .hgt or ESRI ASCII grid, geographic WGS84.")
    var dem: String?

    @Option(help: "Vertical datum of the --dem heights: msl (through --geoid) or ellipsoid.")
    var demDatum: String = "msl"

    @Option(help: "Geoid grid (GTX) for an MSL --dem.")
    var geoid: String = GeoidGrid.defaultPath

    @Option(help: "Height (m) of the device above the --dem ground.")
    var deviceHeight: Double = 1.5

    @Option(help: "1σ (m) of the device's height above the --dem ground (holding + DEM error).")
    var demSigma: Double = 0.5

    @Option(help: "Truth trace with device headings (e.g. simulate --truth), for --plot.")
    var truth: String?

    @Option(help: "SVG plot of heading and anchor errors against --truth, fused vs compass alone.")
    var plot: String?

    @Option(help: "AR tracking noise the estimator assumes: modern (default; yaw drift ≈ 0.2–0.6°/min, scale 1–2 %; raised to older's once the walk shows the tracking drifting beyond that: tracking_noise_raised) or older (GeoRegistrationConfiguration.olderARTracking: ADVIO's iPhone 6s, 3 × the yaw noise, scale varying 2.5 % per 100 m); the --gnss-* options apply on top.")
    var trackingNoise = "modern"

    func run() throws {
        try withInputErrors {
            var config: GeoRegistrationConfiguration
            switch trackingNoise {
            case "modern": config = GeoRegistrationConfiguration()
            case "older": config = .olderARTracking
            default: throw InputError(file: "--tracking-noise", line: nil, message: "unknown tracking noise '\(trackingNoise)' (known: modern, older)")
            }
            let convention: ARFrameConvention
            switch frame {
            case "arkit-gravity": convention = .arkitGravity(sessionHeading: 0)
            // North-aligned frames: their north is a compass's (ARKit) or VPS/compass (ARCore).
            case "arkit": convention = .arkitGravityAndHeading; config.frameHeadingSigma = 15
            case "arcore": convention = .arcoreEarth; config.frameHeadingSigma = 15
            case "enu": convention = .enu; config.frameHeadingSigma = 15
            default:
                throw InputError(file: "--frame", line: nil, message: "unknown frame '\(frame)' (arkit-gravity, arkit, arcore, enu)")
            }
            if let gnssCorrelationTime { config.gnssCorrelationTime = gnssCorrelationTime }
            if let gnssLongShare { config.gnssLongShare = gnssLongShare }
            if let gnssLongCorrelationTime { config.gnssLongCorrelationTime = gnssLongCorrelationTime }
            if let gnssCorrelatedFraction { config.gnssCorrelatedFraction = gnssCorrelatedFraction }
            if let relocalisationGate {
                if relocalisationGate == "off" {
                    config.relocalisationGate = nil
                } else {
                    guard let g = Double(relocalisationGate) else {
                        throw InputError(file: "--relocalisation-gate", line: nil, message: "'\(relocalisationGate)' is neither a number nor 'off'")
                    }
                    config.relocalisationGate = g
                }
            }
            try located("--gnss-correlation-time/--gnss-long-share/--gnss-long-correlation-time/--gnss-correlated-fraction/--relocalisation-gate") { try config.validate() }
            let samples = try Self.readTracking(tracking)
            let readings = try compass.map(Self.readCompass) ?? []
            let trace: Trace
            (trace, _) = try TraceIO.load(fixes, options: TraceReadConfiguration())
            let fixList = trace.fixes
            for i in fixList.indices.dropFirst() where fixList[i].time < fixList[i - 1].time {
                throw InputError(file: fixes, line: nil, message: "fix #\(i + 1) time \(fixList[i].time) goes backwards (previous fix \(fixList[i - 1].time))")
            }
            let constraint = try path.map { try PathConstraint.load($0, crossTrackSigma: pathSigma, mapSigma: mapSigma) }
            var reg = GeoRegistration(convention: convention, configuration: config, path: constraint)
            if let dem {
                let (grid, datum) = try DEMFile.load(dem, datum: demDatum)
                let geoidGrid = datum == .meanSeaLevel ? try located(geoid) { try GeoidGrid(path: geoid) } : nil
                reg.ground = try located("--device-height/--dem-sigma") {
                    try GroundConstraint(environment: AnchorEnvironment(geoid: geoidGrid, terrain: grid), deviceHeight: deviceHeight, sigma: demSigma)
                }
            }
            let writer = try CSVWriter(path: output, header: ["time", "latitude", "longitude", "ellipsoidal_height", "heading",
                                                              "heading_sigma", "horizontal_accuracy", "heading_offset"])
            if plot != nil && truth == nil { throw InputError(file: "--plot", line: nil, message: "--plot needs --truth") }
            var fi = 0, ci = 0, rows = 0, rowsWithoutEstimate = 0
            var kept: [(time: Double, estimate: GeoRegistrationEstimate)] = []
            // Not committed on error: OutputFile leaves no partial file.
            try located(fixes) {
                for s in samples {
                    switch s.event {
                    case .reset: reg.trackingDidReset()
                    case .relocalized: reg.trackingDidRelocalize()
                    case nil: break
                    }
                    try reg.update(tracking: s.sample, fixes: fixList, fixCursor: &fi, compass: readings, compassCursor: &ci)
                    guard let e = reg.estimate else { if rows > 0 { rowsWithoutEstimate += 1 }; continue }
                    try writer.write([s.timeText, format(e.position.latitude), format(e.position.longitude), format(e.position.height),
                                  format(e.heading), format(e.headingSigma), format(e.horizontalAccuracy), format(e.frameHeading)])
                    rows += 1
                    if plot != nil { kept.append((s.sample.time, e)) }
                }
            }
            try writer.finish()
            if let plot, let truth {
                let t: Trace
                (t, _) = try TraceIO.load(truth, options: TraceReadConfiguration())
                let compared = GeoRegistrationPlot.compare(outputs: kept, truth: t.fixes, fixes: fixList, compass: readings)
                let svg = GeoRegistrationPlot.svg(compared, title: "geobench align: \(tracking) vs \(truth)")
                try OutputFile.write(svg, to: plot)
            }
            let sum = reg.summary
            let unused = fixList.count - fi
            if json {
                let o = JSONSummary(rows: rows, fixes_used: sum.fixesUsed, fixes_gated: sum.fixesGated,
                                    fixes_before_tracking: sum.fixesBeforeTracking, fixes_after_tracking: unused,
                                    compass_used: sum.compassUsed, compass_gated: sum.compassGated,
                                    tracking_jumps: sum.trackingJumps, tracking_interruptions: sum.trackingInterruptions,
                                    relocalisations_recognized: sum.relocalisationsRecognized,
                                    tracking_noise_raised: sum.trackingNoiseRaisedAt != nil,
                                    tracking_divergences: sum.trackingDivergences,
                                    rows_without_estimate: rowsWithoutEstimate, large_corrections: sum.largeCorrections,
                                    heading_reinitializations: sum.headingReinitializations,
                                    fixes_without_accuracy: sum.fixesWithoutAccuracy,
                                    fix_accuracy_scale_max: (sum.maximumFixAccuracyScale * 1000).rounded() / 1000,
                                    fix_accuracy_scale_min: (sum.minimumFixAccuracyScale * 1000).rounded() / 1000,
                                    path_updates: constraint == nil ? nil : sum.pathUpdates,
                                    path_skipped: constraint == nil ? nil : sum.pathSkipped,
                                    path_releases: constraint == nil ? nil : sum.pathReleases,
                                    ground_updates: dem == nil ? nil : sum.groundUpdates,
                                    ground_skipped: dem == nil ? nil : sum.groundSkipped,
                                    compass_bias: reg.estimate?.compassBias.map { ($0 * 1000).rounded() / 1000 },
                                    compass_bias_sigma: reg.estimate?.compassBiasSigma.map { ($0 * 1000).rounded() / 1000 })
                let enc = JSONEncoder()
                enc.outputFormatting = [.sortedKeys]
                print(String(decoding: try enc.encode(o), as: UTF8.self))
            } else {
                Stderr.print("\(tracking): \(samples.count) tracking rows, \(rows) written; fixes \(sum.fixesUsed) used, \(sum.fixesGated) gated, "
                             + "\(sum.fixesBeforeTracking) before / \(unused) after tracking; compass \(sum.compassUsed) used, \(sum.compassGated) gated; "
                             + "\(sum.trackingJumps) tracking jump(s), \(sum.trackingInterruptions) interruption(s)"
                             + (sum.relocalisationsRecognized > 0 ? " (\(sum.relocalisationsRecognized) recognized as relocalised: heading kept)" : "")
                             + (constraint == nil ? "" : "; path \(sum.pathUpdates) applied, \(sum.pathSkipped) skipped"))
            }
            for case let .trackingNoiseRaised(time, scale, drift) in reg.events {
                let into = samples.first.map { String(format: " %.0f s into the session", time - $0.sample.time) } ?? ""
                Stderr.print("note: \(tracking): the AR tracking drifts more than --tracking-noise \(trackingNoise) models (scale error "
                             + String(format: "%+.1f %%, yaw drift %+.2f°/min", 100 * scale, drift) + " estimated\(into)); from then on the "
                             + "estimator assumed older tracking's noise (its heading and position σ grow faster between fixes). "
                             + "For such a device, --tracking-noise older from the start")
            }
            for case let .trackingDiverged(time, trackedSpeed, fixSpeed) in reg.events {
                let into = samples.first.map { String(format: " %.0f s into the session", time - $0.sample.time) } ?? ""
                Stderr.print("note: \(tracking): the AR tracking diverged\(into) (tracked speed "
                             + String(format: "%.1f m/s, the fixes' %.1f m/s", trackedSpeed, fixSpeed) + "; velocities disagreeing at 3 fixes in a row): its motion "
                             + "since the last agreeing fix was taken back and it was not used until its speed agreed with the fixes' again")
            }
            if sum.fixesWithoutAccuracy > 0 {
                Stderr.print("note: \(fixes): \(sum.fixesWithoutAccuracy) fixes without a horizontal accuracy: σ from their HDOP × "
                             + "\(config.userEquivalentRangeError) m / √2, else \(config.unreportedFixSigma.map { "\($0)" } ?? "-") m per axis")
            }
            if sum.maximumFixAccuracyScale >= 1.5 {
                Stderr.print("warning: \(fixes): the fixes' reported accuracies look optimistic — their errors needed up to "
                             + String(format: "%.1f", sum.maximumFixAccuracyScale) + " × the reported radius (the estimator widened them)")
            }
            if sum.minimumFixAccuracyScale <= 0.7 {
                Stderr.print("note: \(fixes): the fixes' reported accuracies look pessimistic — their errors were down to "
                             + String(format: "%.2f", sum.minimumFixAccuracyScale) + " × the reported radius (the estimator narrowed them)")
            }
            if let path, sum.pathReleases > 0 {
                Stderr.print("note: \(path): the fixes stood off the path on average \(sum.pathReleases) time(s) (multipath along a street "
                             + "canyon, or a path drawn away from the walk); it was not used meanwhile (\(sum.pathUpdates) constraints applied, "
                             + "\(sum.pathSkipped) skipped)")
            }
            if let dem, sum.groundUpdates == 0 {
                Stderr.print("warning: \(dem): no ground constraint was applied (\(sum.groundSkipped) skipped): does the DEM cover the walk?")
            }
            if rowsWithoutEstimate > 0 {
                Stderr.print("note: \(tracking): \(rowsWithoutEstimate) rows after the first estimate were not written: the tracking was "
                             + "interrupted (a pause over \(config.trackingGapTime) s or an event 'reset') and the heading was being re-learnt")
            }
            if rows == 0 {
                Stderr.print("warning: no estimate: the heading never became known (no compass, no five agreeing fix courses while walking, and the tracked path never spanned \(config.alignmentSpan) m with fixes)")
            }
        }
    }

    /// `--json` output (keys in snake case, as documented in `--help` and the README).
    struct JSONSummary: Encodable {
        var rows, fixes_used, fixes_gated, fixes_before_tracking, fixes_after_tracking: Int
        var compass_used, compass_gated, tracking_jumps, tracking_interruptions, relocalisations_recognized: Int
        var tracking_noise_raised: Bool
        var tracking_divergences: Int
        var rows_without_estimate: Int
        var large_corrections, heading_reinitializations: Int
        var fixes_without_accuracy: Int
        var fix_accuracy_scale_max, fix_accuracy_scale_min: Double
        /// With --path only (absent otherwise).
        var path_updates, path_skipped, path_releases: Int?
        /// With --dem only.
        var ground_updates, ground_skipped: Int?
        /// With --compass, once a reading was used (``GeoRegistrationEstimate/compassBias``).
        var compass_bias, compass_bias_sigma: Double?
    }

    /// The optional `event` column of the tracking CSV: the row is the first of a new session
    /// frame (`reset`: ``GeoRegistration/trackingDidReset()``) or of the same frame after a
    /// relocalisation (`relocalized`: ``GeoRegistration/trackingDidRelocalize()``).
    enum TrackingEvent: String { case reset, relocalized }

    /// Parses a time field: Unix seconds or ISO 8601 UTC.
    static func readTracking(_ path: String) throws -> [(sample: ARTrackingSample, timeText: String, event: TrackingEvent?)] {
        let table = try CSVTable.read(path: path)
        let cols = try ["time", "x", "y", "z", "yaw"].map { try table.column($0) }
        let eventColumn = table.optionalColumn("event")
        var out: [(ARTrackingSample, String, TrackingEvent?)] = []
        out.reserveCapacity(table.rows.count)
        var last = -Double.infinity
        for row in table.rows {
            guard cols[0] < row.fields.count else { throw InputError(file: table.source, line: row.line, message: "missing value for 'time'") }
            let text = row.fields[cols[0]].trimmingCharacters(in: .whitespaces)
            let t = try table.time(text, line: row.line)
            guard t >= last else {
                throw InputError(file: table.source, line: row.line, message: "time \(text) goes backwards (previous row \(last))")
            }
            last = t
            let x = try table.double(row, cols[1], "x"), y = try table.double(row, cols[2], "y"), z = try table.double(row, cols[3], "z")
            for (name, v) in [("x", x), ("y", y), ("z", z)] where Swift.abs(v) > GeoRegistration.maximumTrackingCoordinate {
                throw InputError(file: table.source, line: row.line,
                                 message: "\(name) \(v) m is beyond ±\(Int(GeoRegistration.maximumTrackingCoordinate)) m (AR session coordinates)")
            }
            let yaw = try table.double(row, cols[4], "yaw")
            guard Swift.abs(yaw) <= 360 else {
                throw InputError(file: table.source, line: row.line, message: "yaw \(yaw) is outside [-360, 360] degrees")
            }
            var event: TrackingEvent?
            if let c = eventColumn, c < row.fields.count {
                let e = row.fields[c].trimmingCharacters(in: .whitespaces)
                if !e.isEmpty {
                    guard let known = TrackingEvent(rawValue: e) else {
                        throw InputError(file: table.source, line: row.line, message: "event '\(e)' is not reset or relocalized")
                    }
                    event = known
                }
            }
            out.append((ARTrackingSample(time: t, position: SIMD3(x, y, z), yaw: yaw), text, event))
        }
        if out.isEmpty { throw InputError(file: table.source, line: nil, message: "no tracking rows") }
        return out
    }

    static func readCompass(_ path: String) throws -> [CompassReading] {
        let table = try CSVTable.read(path: path)
        let cols = try ["time", "heading", "heading_accuracy"].map { try table.column($0) }
        var out: [CompassReading] = []
        var last = -Double.infinity
        for row in table.rows {
            guard cols[0] < row.fields.count else { throw InputError(file: table.source, line: row.line, message: "missing value for 'time'") }
            let t = try table.time(row.fields[cols[0]], line: row.line)
            guard t >= last else { throw InputError(file: table.source, line: row.line, message: "time goes backwards (previous row \(last))") }
            last = t
            let h = try table.double(row, cols[1], "heading"), a = try table.double(row, cols[2], "heading_accuracy")
            guard h >= -360, h <= 360 else { throw InputError(file: table.source, line: row.line, message: "heading \(h) is outside [-360, 360] degrees") }
            guard a > 0 else { throw InputError(file: table.source, line: row.line, message: "heading_accuracy \(a) must be > 0 degrees") }
            out.append(CompassReading(time: t, heading: h, headingAccuracy: a))
        }
        return out
    }

    /// Writes simulated streams in the formats `align` reads (used by `simulate --tracking/--compass`).
    /// `event`: with one, a column `event` holding its name on the row of its time (the first
    /// row after a simulated pause), empty elsewhere.
    static func write(tracking: [ARTrackingSample], event: (time: Double, name: String)? = nil, to path: String) throws {
        let w = try CSVWriter(path: path, header: ["time", "x", "y", "z", "yaw"] + (event == nil ? [] : ["event"]))
        for s in tracking {
            try w.write([s.time, s.position.x, s.position.y, s.position.z, s.yaw], then: event.map { [s.time == $0.time ? $0.name : ""] } ?? [])
        }
        try w.finish()
    }

    static func write(compass: [CompassReading], to path: String) throws {
        let w = try CSVWriter(path: path, header: ["time", "heading", "heading_accuracy"])
        for c in compass { try w.write([c.time, c.heading, c.headingAccuracy]) }
        try w.finish()
    }
}
