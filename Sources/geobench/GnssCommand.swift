import ArgumentParser
import Foundation
import GeoAnchorKit

struct GnssCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gnss",
        abstract: "Positions from raw GNSS measurements (RINEX 2/3/4 observations) with broadcast and/or SP3 orbits.",
        discussion: """
        --input is a RINEX 2.1x/3.0x/4.0x observation file, or its Compact RINEX (RINEX 2 types mapped to RINEX 3 \
        signals: C1 → C1C, P1/P2 → C1W/C2W, L2 → L2W, …; RINEX 2 GLONASS channels from the \
        --nav GLONASS records), an Android GnssLogger log with Raw \
        records, a u-blox UBX log with RXM-RAWX messages (measurements it does not use counted on \
        stderr; its GPS/QZSS RXM-SFRBX subframes give ephemerides and Klobuchar coefficients, so \
        --nav is then optional), or a GSDC 2022/2023 device_gnss.csv or GSDC 2021 _derived.csv (its satellite states \
        and corrections are used as given, no --nav/--sp3 needed; rows it does not use are counted \
        on stderr; a _derived.csv's epochs are dated one second before their labels, the \
        competition hosts' correction) — the kind is detected from the content; every input may be \
        gzip- or compress-compressed (.gz, .Z, as IGS and CDDIS distribute them), and observations may be Compact \
        RINEX (Hatanaka .crx / .YYd, CRINEX 1.0 and 3.0). --nav \
        (RINEX 2/3/4 navigation, repeatable) gives GPS/QZSS/Galileo/BeiDou broadcast ephemerides \
        and the Klobuchar coefficients; --sp3 (SP3-c/d, repeatable) precise orbits and clocks, \
        used for every satellite it covers; --clk (RINEX clock files, 30 s clocks interpolated \
        linearly) replaces the SP3 clocks where it covers them. --systems selects systems by RINEX letter (default \
        GREJC). --mode wls (per-epoch weighted least squares with fault exclusion), filter \
        (Kalman filter over position, velocity, clocks and drift with pseudoranges and Doppler; \
        the default) or smooth (filter + RTS smoother). \
        --ionosphere klobuchar (default: the \
        navigation file's Klobuchar model for every signal) or dual-frequency (satellites with \
        L1-band and L5-band code use their ionosphere-free combination, the others Klobuchar; \
        noisier on phones, see README).

        --output is a trace in any supported format (by extension). Times are UTC (converted from \
        the GPS time of the RINEX epochs with the leap-second table, rounded to the millisecond), \
        heights ellipsoidal. A CSV has the trace columns (time,latitude,longitude,\
        ellipsoidal_height,geoid_separation,horizontal_accuracy,vertical_accuracy,speed,course,\
        heading,heading_accuracy,satellites,hdop,vdop,pdop,quality) plus residual_rms (m).

        --json prints one object on stdout: input, output, mode, epochs_read, epochs_solved, \
        epochs_skipped (by reason), measurements_skipped (by reason), satellites_per_system (mean \
        per solved epoch), residuals (count, rms, p50, p95 in m), filter_resets, filter_gated, \
        unresolved_faults (solutions output although a fault was detected and not isolated: WLS \
        epochs, or filter starts after waiting 30 epochs for a better one), bias_exclusions \
        (satellites excluded for a pseudorange bias that persisted over 30 s but was too small for \
        one epoch's test, each time one was; their pseudoranges count as excluded_by_fde), \
        bias_unresolved_epochs (epochs at which such a bias persisted on a satellite the monitor \
        could not exclude — more faulty satellites than it isolates; also a warning on stderr), \
        seconds; with --truth FILE (GSDC ground_truth.csv) also accuracy (p50, p95, score, \
        matched, reference_epochs, within_accuracy: the share of matched positions within their own \
        stated 68 % radius, 0.68 if honest). Invalid input exits with status 2 and `FILE:LINE: message`.
        """
    )

    @Option(help: "RINEX 2.1x/3.0x/4.0x observation file, GnssLogger log with Raw records, u-blox UBX log with RXM-RAWX, or GSDC device_gnss.csv / _derived.csv.")
    var input: String

    @Option(help: "RINEX navigation file (repeatable).")
    var nav: [String] = []

    @Option(help: "SP3-c/d precise orbit file (repeatable).")
    var sp3: [String] = []

    @Option(help: "RINEX clock file (repeatable); replaces the SP3 clocks where it covers them (same product as --sp3).")
    var clk: [String] = []

    @Option(help: "Systems to use, RINEX letters (G GPS, R GLONASS, E Galileo, J QZSS, C BeiDou).")
    var systems: String = "GREJC"

    @Option(help: "wls, filter or smooth.")
    var mode: String = "filter"

    @Option(help: "Output trace file (format by extension).")
    var output: String

    @Option(help: "klobuchar or dual-frequency (ionosphere-free L1/L5 combination where a satellite has both).")
    var ionosphere: String = "klobuchar"

    @Option(help: "GSDC ground_truth.csv to measure the horizontal error against (adds \"accuracy\" to --json).")
    var truth: String?

    @Flag(help: "Print counts and statistics as JSON on stdout.")
    var json = false

    func run() throws {
        try withInputErrors {
            let start = Date()
            guard let m = GNSSProcessingMode(rawValue: mode) else {
                throw InputError(file: "--mode", line: nil, message: "'\(mode)' is not wls, filter or smooth")
            }
            var sys = Set<GNSSSystem>()
            for ch in systems {
                guard let s = GNSSSystem(rawValue: ch), "GREJC".contains(ch) else {
                    throw InputError(file: "--systems", line: nil, message: "'\(ch)' is not one of G, R, E, J, C")
                }
                sys.insert(s)
            }
            guard !sys.isEmpty else {
                throw InputError(file: "--systems", line: nil, message: "no system given: name at least one of G, R, E, J, C")
            }
            guard ionosphere == "klobuchar" || ionosphere == "dual-frequency" else {
                throw InputError(file: "--ionosphere", line: nil, message: "'\(ionosphere)' is not klobuchar or dual-frequency")
            }
            let outFmt = try TraceIO.outputFormat(of: output, option: "--output")
            let inputFile = try GNSSInputFile(path: input)
            if let device = try Self.loadDeviceGNSS(inputFile) {
                // GSDC device_gnss.csv / 2021 _derived.csv: satellite states and corrections from the file, no orbits needed.
                if !device.skipped.isEmpty {
                    Stderr.print("\(input): rows not used: " + device.skipped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
                }
                guard ionosphere == "klobuchar" else {
                    throw InputError(file: "--ionosphere", line: nil, message: "\(input) is a device_gnss.csv with Google's ionospheric corrections applied: --ionosphere dual-frequency does not apply")
                }
                var config = GSDCDeviceGNSS.solverConfiguration
                config.systems = sys
                let (fixes, residualRMS, stats) = GNSSProcessor(ephemerides: SatelliteEphemerides(), configuration: config).run(device, mode: m)
                try finish(fixes: fixes, residualRMS: residualRMS, stats: stats, mode: m, format: outFmt, start: start)
                return
            }
            var navFile: RinexNavigationFile? = nil
            for p in nav {
                let n = try RinexNavigationFile.read(contentsOf: URL(fileURLWithPath: p))
                if navFile == nil { navFile = n } else { navFile!.merge(n) }
            }
            let loaded = try Self.loadObservations(inputFile, glonassChannels: navFile?.glonassChannels ?? [:])
            let obs = loaded.epochs
            if let own = loaded.navigation, own.count > 0 {
                // A u-blox log's own GPS/QZSS ephemerides (RXM-SFRBX), with the --nav files'
                // (merge keeps the files' Klobuchar coefficients, else takes the log's).
                if navFile == nil { navFile = own } else { navFile!.merge(own) }
            }
            guard navFile != nil || !sp3.isEmpty else {
                throw InputError(file: "--nav", line: nil, message: "give at least one --nav or --sp3 file (\(input) carries no broadcast navigation of its own)")
            }
            var orbit: PreciseOrbit? = nil
            for p in sp3 {
                let o = try PreciseOrbit.read(contentsOf: URL(fileURLWithPath: p))
                if orbit == nil { orbit = o } else { orbit!.merge(o) }
            }
            var clocks: PreciseClock? = nil
            for p in clk {
                let c = try PreciseClock.read(contentsOf: URL(fileURLWithPath: p))
                if clocks == nil { clocks = c } else { clocks!.merge(c) }
            }
            if clocks != nil && orbit == nil {
                throw InputError(file: "--clk", line: nil, message: "clock files need the SP3 orbits of the same product (--sp3)")
            }
            var config = GNSSSolverConfiguration()
            config.systems = sys
            config.ionosphereFreeCombination = ionosphere == "dual-frequency"
            let processor = GNSSProcessor(ephemerides: SatelliteEphemerides(navigation: navFile, precise: orbit, clocks: clocks), configuration: config)
            let (fixes, residualRMS, stats) = processor.run(obs, mode: m)
            try finish(fixes: fixes, residualRMS: residualRMS, stats: stats, mode: m, format: outFmt, start: start)
        }
    }

    /// Writes the trace and prints the JSON or summary line.
    func finish(fixes: [Fix], residualRMS: [Double?], stats: GNSSRunStatistics, mode m: GNSSProcessingMode,
                format outFmt: TraceFormat, start: Date) throws {
        try Self.write(fixes: fixes, residualRMS: residualRMS, to: output, format: outFmt)
        var accuracy: GNSSAccuracySummary? = nil
        if let truth {
            let ref = try GNSSReferenceTrack.read(contentsOf: URL(fileURLWithPath: truth))
            accuracy = GNSSAccuracySummary(fixes: fixes, reference: ref)
        }
        let seconds = Date().timeIntervalSince(start)
        if stats.unresolvedBiasEpochs > 0 {
            Stderr.print("warning: at \(stats.unresolvedBiasEpochs) epochs a satellite's pseudorange bias persisted that the bias monitor could not exclude (more faulty satellites than it isolates, or too few left): fixes there may be tens of meters off (bias_unresolved_epochs)")
        }
        if json {
            print(Self.jsonText(input: input, output: output, mode: m, stats: stats, accuracy: accuracy, seconds: seconds))
        } else {
            var line = "\(input) → \(output): \(stats.epochsRead) epochs, \(stats.epochsSolved) solved (\(m.rawValue))"
            for (r, n) in stats.epochsSkipped.sorted(by: { $0.key.rawValue < $1.key.rawValue }) { line += ", \(n) \(r.rawValue)" }
            if stats.unresolvedFaults > 0 { line += ", \(stats.unresolvedFaults) with a fault detected but not isolated (unresolved_faults)" }
            if stats.biasExclusions > 0 { line += ", \(stats.biasExclusions) satellite exclusions for a persistent bias (bias_exclusions)" }
            if let a = accuracy {
                line += String(format: "; horizontal p50 %.2f m, p95 %.2f m, score %.2f m on %d/%d reference epochs", a.p50, a.p95, a.score, a.matched, a.referenceEpochs)
                if let w = a.withinAccuracy { line += String(format: ", %.0f %% within the stated 68 %% radius", 100 * w) }
            }
            Stderr.print(line)
        }
    }

    /// The `--input` file: its first 4 KiB of text, to tell its kind, and when it is compressed
    /// (gzip, compress, ZIP) its text decompressed once for both that and the reading.
    struct GNSSInputFile {
        let path: String
        let url: URL
        let decompressed: Data?
        let head: Data
        var firstLine: String { String(decoding: head.prefix { $0 != 10 && $0 != 13 }, as: UTF8.self) }

        init(path: String) throws {
            self.path = path
            url = URL(fileURLWithPath: path)
            decompressed = try ByteLineReader.decompressedContents(of: url)
            if let decompressed {
                head = decompressed.prefix(4096)
            } else {
                guard let h = FileHandle(forReadingAtPath: path) else { throw InputError(file: path, line: nil, message: "cannot read file") }
                head = (try? h.read(upToCount: 4096)) ?? Data()
                try? h.close()
            }
        }
    }

    /// A GSDC device_gnss.csv or 2021 _derived.csv (by its first line, ``GSDCDeviceGNSS/looksLike(firstLine:)``), else nil.
    static func loadDeviceGNSS(_ input: GNSSInputFile) throws -> GSDCDeviceGNSS? {
        guard GSDCDeviceGNSS.looksLike(firstLine: input.firstLine) else { return nil }
        if let d = input.decompressed { return try GSDCDeviceGNSS.read(data: d, source: input.path) }
        return try GSDCDeviceGNSS.read(contentsOf: input.url)
    }

    /// Epochs of a RINEX 2/3/4 observation file, a GnssLogger log with `Raw` records or a u-blox
    /// log with RXM-RAWX messages (kind from content). GLONASS observations without a channel in the file (RINEX 2) get the channels
    /// of `glonassChannels` (slot → channel, from the navigation files).
    static func loadObservations(_ input: GNSSInputFile, glonassChannels: [Int: Int] = [:]) throws -> (epochs: [GNSSEpoch], navigation: RinexNavigationFile?) {
        let path = input.path, first = input.firstLine
        if RinexObservationFile.looksLike(firstLine: first) {
            var file = try input.decompressed.map { try RinexObservationFile.read(data: $0, source: path) }
                ?? RinexObservationFile.read(contentsOf: input.url)
            if !glonassChannels.isEmpty { file.assignGlonassChannels(glonassChannels) }
            if file.unassignedValues > 0 {
                Stderr.print("\(path): \(file.unassignedValues) value(s) not used: their RINEX 2 type (\(file.version2ObservationTypes.joined(separator: " "))) has no signal in the satellite's system")
            }
            return (file.epochs, nil)
        }
        if GnssLoggerRawLog.looksLike(String(decoding: input.head, as: UTF8.self)) {
            let log = try input.decompressed.map { try GnssLoggerRawLog.read(data: $0, source: path) }
                ?? GnssLoggerRawLog.read(contentsOf: input.url)
            if !log.skipped.isEmpty {
                Stderr.print("\(path): \(log.records) Raw records; pseudorange not usable: " + log.skipped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
            }
            return (log.epochs, nil)
        }
        if UBXRawLog.looksLike(input.head) {
            let log = try input.decompressed.map { try UBXRawLog.read(data: $0, source: path) } ?? UBXRawLog.read(contentsOf: input.url)
            if !log.skipped.isEmpty {
                Stderr.print("\(path): \(log.messages) RXM-RAWX epochs, \(log.measurements) measurements; not used: " + log.skipped.sorted { $0.key < $1.key }.map { "\($0.value) \($0.key)" }.joined(separator: ", "))
            }
            if log.navigation.count > 0 {
                Stderr.print("\(path): \(log.navigation.count) GPS/QZSS ephemerides\(log.navigation.klobuchar == nil ? "" : " and Klobuchar coefficients") from its RXM-SFRBX subframes")
            }
            return (log.epochs, log.navigation)
        }
        throw InputError(file: path, line: 1, message: "not a RINEX observation file, GnssLogger log with Raw records, u-blox log with RXM-RAWX or GSDC file (first line: '\(first.prefix(80))')")
    }

    /// Writes the solutions through geobench's one trace-output path (checked, atomic for regular
    /// files); a CSV gets `residual_rms` (m, 3 decimals; empty when unknown) as an extra column.
    static func write(fixes: [Fix], residualRMS: [Double?], to path: String, format: TraceFormat) throws {
        try TraceOutput.write(to: path, format: format) { w in
            w.extraCSVColumns = ["residual_rms"]
            for (k, f) in fixes.enumerated() {
                let r = k < residualRMS.count ? residualRMS[k] : nil
                try w.write(f, extra: [r.map { $0.isFinite ? threeDecimals($0) : "" } ?? ""])
            }
        }
    }

    /// `%.3f` through the C library's formatter directly: the same text as `String(format:)`
    /// (which reaches the same conversion) without Foundation's format-string machinery, which
    /// cost more than the solver per fix.
    static func threeDecimals(_ v: Double) -> String {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buf in
            let n = withVaList([v]) { vsnprintf(buf.baseAddress!, 64, "%.3f", $0) }
            guard n > 0, n < 64 else { return String(format: "%.3f", v) }
            return String(decoding: UnsafeRawBufferPointer(start: buf.baseAddress!, count: Int(n)).bindMemory(to: UInt8.self), as: UTF8.self)
        }
    }

    static func jsonText(input: String, output: String, mode: GNSSProcessingMode, stats s: GNSSRunStatistics,
                         accuracy: GNSSAccuracySummary?, seconds: Double) -> String {
        func num(_ v: Double) -> Any { v.isFinite ? v : NSNull() }
        let res = ErrorStatistics(s.residuals)
        var o: [String: Any] = [
            "input": input, "output": output, "mode": mode.rawValue,
            "epochs_read": s.epochsRead, "epochs_solved": s.epochsSolved,
            "epochs_skipped": Dictionary(uniqueKeysWithValues: GNSSSkipReason.allCases.compactMap { r in s.epochsSkipped[r].map { (r.rawValue, $0) } }),
            "measurements_skipped": Dictionary(uniqueKeysWithValues: GNSSSkipReason.allCases.compactMap { r in s.measurementsSkipped[r].map { (r.rawValue, $0) } }),
            "satellites_per_system": Dictionary(uniqueKeysWithValues: s.satellitesPerSystem.map { (String($0.key.rawValue), s.epochsSolved > 0 ? Double($0.value) / Double(s.epochsSolved) : 0) }),
            "residuals": ["count": res.count, "rms": num(res.rmse), "p50": num(res.p50), "p95": num(res.p95)],
            "filter_resets": s.filterResets, "filter_gated": s.filterGated, "unresolved_faults": s.unresolvedFaults,
            "bias_exclusions": s.biasExclusions, "bias_unresolved_epochs": s.unresolvedBiasEpochs, "seconds": seconds,
        ]
        if let a = accuracy {
            o["accuracy"] = ["p50": num(a.p50), "p95": num(a.p95), "score": num(a.score), "matched": a.matched, "reference_epochs": a.referenceEpochs,
                             "within_accuracy": a.withinAccuracy.map(num) ?? NSNull()]
        }
        guard let d = try? JSONSerialization.data(withJSONObject: o, options: [.sortedKeys, .withoutEscapingSlashes]) else { return "{}" }
        return String(decoding: d, as: UTF8.self)
    }
}
