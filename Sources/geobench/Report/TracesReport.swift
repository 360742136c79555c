import Foundation
import GeoAnchorKit
import GeoAnchorKitSimulation

/// Traces section: accuracy of each simulated raw trace in traces/ against its truth, a check
/// that the simulator still reproduces the committed files, format round trips, reader speed,
/// files other tools wrote (the repository's test fixtures) read as the files they came from,
/// and (when ../shared/data is present) the GSDC 2020 phone-vs-SPAN accuracy.
enum TracesReport: ReportSection {
    static let title = "Traces: formats, simulator, accuracy metrics"

    /// The committed scenarios and the seeds traces/README.md documents.
    static let scenarios: [(name: String, seed: UInt64)] = [("zavist-tour", 1), ("city-walk", 2)]

    static func run(_ context: ReportContext) throws -> [String] {
        var lines: [String] = []
        let dir = context.tracesDirectory
        lines.append("  accuracy of traces/*.raw.csv vs *.truth.csv (horizontal/vertical in m; type-7 percentiles):")
        lines.append("    trace         matched unmatched   h.p50   h.p95  h.rmse   h.max   v.p50   v.p95   gsdc")
        for (name, seed) in scenarios {
            context.progress("traces: \(name)")
            let raw = try TraceReader.load(url: dir.appendingPathComponent("\(name).raw.csv"))
            let truth = try TraceReader.load(url: dir.appendingPathComponent("\(name).truth.csv"))
            let r = TrackAccuracy.evaluate(trace: raw.fixes, reference: ReferenceTrack(truth.fixes))
            lines.append(String(format: "    %@ %7d %9d %7.2f %7.2f %7.2f %7.2f %7.2f %7.2f %6.2f",
                                name.padding(toLength: 13, withPad: " ", startingAt: 0) as NSString, r.matched, r.unmatched,
                                r.horizontal.p50, r.horizontal.p95, r.horizontal.rmse, r.horizontal.max,
                                r.vertical.p50, r.vertical.p95, r.gsdcScore))
            // Along/cross-track split and how honest the reported accuracy is.
            let covered = r.epochs.filter { e in e.horizontalAccuracy.map { e.horizontal <= $0 } ?? false }.count
            lines.append(String(format: "      along-track p50 %.2f p95 %.2f, cross-track p50 %.2f p95 %.2f; reported 68%% accuracy covers %.0f%% of errors",
                                r.alongTrack.p50, r.alongTrack.p95, r.crossTrack.p50, r.crossTrack.p95,
                                100 * Double(covered) / Double(max(r.epochs.count, 1))))
            // Determinism: regenerate and compare with the committed files.
            guard let config = TraceSimulator.Configuration.scenarios[name] else { continue }
            let sim = try TraceSimulator(config: config, seed: seed).run()
            let same = sim.raw.count == raw.fixes.count && sim.truth.count == truth.fixes.count &&
                zip(sim.raw, raw.fixes).allSatisfy(close) && zip(sim.truth, truth.fixes).allSatisfy(close)
            lines.append("      simulate --scenario \(name) --seed \(seed) reproduces the committed files: \(same ? "yes" : "NO")")
        }

        // Format round trips of the Závist raw trace through every writer and reader.
        context.progress("traces: round trips")
        let raw = try TraceReader.load(url: dir.appendingPathComponent("zavist-tour.raw.csv")).fixes
        var rt: [String] = []
        for fmt in TraceFormat.writable {
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("geobench-rt-\(ProcessInfo.processInfo.processIdentifier).\(fmt.rawValue)")
            defer { try? FileManager.default.removeItem(at: url) }
            let w = try TraceWriter(url: url, format: fmt)
            for f in raw { try w.write(f) }
            try w.finish()
            let back = try TraceReader.load(url: url, format: fmt).fixes
            let (maxPos, maxH) = maxDifferences(raw, back, height: \.ellipsoidalHeight)
            rt.append(String(format: "%@ %d/%d max|Δ°| %.1e max|Δh| %.1e m", fmt.rawValue, back.count, raw.count, maxPos, maxH))
        }
        lines.append("  write → read round trips (zavist raw): " + rt.joined(separator: "; "))

        // Reader throughput on an in-memory NMEA log built from the Závist trace (wall clock,
        // this build's optimization level; the Benchmarks/Traces suite is the reference).
        context.progress("traces: throughput")
        var nmea = Data()
        let w = TraceWriter(format: .nmea) { nmea.append($0) }
        for f in raw { try w.write(f) }
        try w.finish()
        var big = Data()
        let reps = 40
        for _ in 0..<reps { big.append(nmea) }
        let t0 = Date()
        var n = 0
        _ = try NMEAReader.read(ByteLineReader(data: big, source: "mem"), options: TraceReadConfiguration(skipInvalid: true)) { _ in n += 1 }
        let dt = Date().timeIntervalSince(t0)
        let realSentences = big.reduce(0) { $0 + ($1 == 36 ? 1 : 0) }
        lines.append(String(format: "  NMEA reader: %d sentences in %.3f s = %.0f sentences/s (%d fixes)", realSentences, dt, Double(realSentences) / dt, n))
        lines += writerAndCSVReaderSpeeds(raw)

        if let shared = context.sharedDataDirectory {
            context.progress("traces: files other tools wrote")
            lines += try realWorldFiles(shared)
        }
        let fixtures = dir.deletingLastPathComponent().appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures")
        if let other = try otherToolsFiles(fixtures: fixtures, traces: dir) { lines += other }

        if let shared = context.sharedDataDirectory {
            lines.append("  GSDC 2020 chipset NMEA vs SPAN 10 Hz (../shared/data; SPAN RMC checksums are wrong → skipped, date from the phone file):")
            for (drive, phone) in FilterAccuracyComparison.gsdc2020Drives {
                guard let files = FilterAccuracyComparison.gsdc2020Files(shared, drive: drive, phone: phone) else { continue }
                context.progress("traces: \(drive) \(phone)")
                let pair = try FilterAccuracyComparison.loadPair(trace: files.trace, reference: files.reference)
                guard !pair.fixes.isEmpty else { continue }
                let r = TrackAccuracy.evaluate(trace: pair.fixes, reference: pair.reference)
                lines.append(String(format: "    %@ %@: %d epochs, horizontal p50 %.2f p95 %.2f max %.2f, vertical p50 %.2f, GSDC score %.2f m",
                                    drive as NSString, files.trace.lastPathComponent as NSString, r.matched, r.horizontal.p50, r.horizontal.p95, r.horizontal.max,
                                    r.vertical.p50, r.gsdcScore))
            }
        }
        return lines
    }

    /// Writer throughput per format on the Závist raw fixes repeated to ≥ 100 000 (best of 3,
    /// to memory), each writer's time relative to CSV (issue 13 target: ≤ 1.5×), and the CSV
    /// reader's throughput on the CSV written.
    /// Largest |Δ| of latitude/longitude (degrees) and of `height` (m, where both have one)
    /// between two traces' fixes in order.
    static func maxDifferences(_ a: [Fix], _ b: [Fix], height: KeyPath<Fix, Double?>) -> (degrees: Double, height: Double) {
        var maxDeg = 0.0, maxH = 0.0
        for (x, y) in zip(a, b) {
            maxDeg = max(maxDeg, abs(x.latitude - y.latitude), abs(x.longitude - y.longitude))
            if let hx = x[keyPath: height], let hy = y[keyPath: height] { maxH = max(maxH, abs(hx - hy)) }
        }
        return (maxDeg, maxH)
    }

    static func writerAndCSVReaderSpeeds(_ raw: [Fix]) -> [String] {
        guard !raw.isEmpty else { return ["  writers: no fixes"] }
        let fixes = Array(repeating: raw, count: max(1, 100_000 / raw.count + 1)).flatMap { $0 }
        var seconds: [TraceFormat: Double] = [:]
        for fmt in TraceFormat.writable {
            var best = Double.infinity
            for _ in 0..<3 {
                var bytes = 0
                let t0 = Date()
                let w = TraceWriter(format: fmt) { bytes &+= $0.count }
                for f in fixes { try? w.write(f) }
                try? w.finish()   // in-memory sink: cannot fail
                best = min(best, Date().timeIntervalSince(t0))
            }
            seconds[fmt] = best
        }
        let csv = seconds[.csv] ?? 1
        let parts = TraceFormat.writable.map { f in
            String(format: "%@ %.0f k fixes/s (%.2f× CSV)", f.rawValue, Double(fixes.count) / seconds[f]! / 1000, seconds[f]! / csv)
        }
        // The CSV reader (CSVRecordReader tokenizer) on the CSV just written, best of 3.
        var csvData = Data()
        let w = TraceWriter(format: .csv) { csvData.append($0) }
        for f in fixes { try? w.write(f) }
        try? w.finish()   // in-memory sink: cannot fail
        var readBest = Double.infinity
        for _ in 0..<3 {
            let t0 = Date()
            var n = 0
            _ = try? CSVTraceReader.read(ByteLineReader(data: csvData, source: "mem")) { _ in n += 1 }
            readBest = min(readBest, Date().timeIntervalSince(t0))
        }
        return ["  writers (\(fixes.count) fixes to memory): " + parts.joined(separator: ", "),
                String(format: "  CSV reader: %.0f k rows/s (%d rows from memory)", Double(fixes.count) / readBest / 1000, fixes.count)]
    }

    /// Files recorded by other tools in ../shared/data: an Android GnssLogger log per provider
    /// and a gpxpy GPX hike with waypoints before its track.
    static func realWorldFiles(_ shared: URL) throws -> [String] {
        var lines: [String] = []
        let log = shared.appendingPathComponent("gnss_traces/gnss_lib_py_samples/android/measurements/pixel6.txt")
        if FileManager.default.fileExists(atPath: log.path) {
            var parts: [String] = []
            var s = TraceReadSummary()
            for p in [GnssLoggerProvider.gps, .fused, .network] {
                var n = 0
                s = try TraceReader.read(url: log, options: TraceReadConfiguration(provider: p), onFix: { _ in n += 1 })
                parts.append("\(p.rawValue) \(n)")
            }
            lines.append("  GnssLogger pixel6.txt (gnss_lib_py): fixes per provider \(parts.joined(separator: ", ")); "
                         + "\(s.sensorSamples) sensor samples (uncalibrated, with bias); \(s.rawMeasurements) Raw records counted")
        }
        let gpx = shared.appendingPathComponent("gpx/gpxpy_test_files/cerknicko-jezero.gpx")
        if FileManager.default.fileExists(atPath: gpx.path) {
            var n = 0, withHeight = 0
            let s = try GPXReader.read(url: gpx, onFix: { n += 1; if $0.height != nil { withHeight += 1 } })
            lines.append("  gpxpy cerknicko-jezero.gpx: \(n) track points (\(withHeight) with <ele>) in \(s.segments) segments; \(s.waypoints) waypoints kept apart")
        }
        return lines
    }

    /// Equal within the files' precision (times to 1 µs, angles to 1e-9°, heights to 1 µm).
    static func close(_ a: Fix, _ b: Fix) -> Bool {
        abs(a.time - b.time) < 1e-6 && abs(a.latitude - b.latitude) < 1e-9 && abs(a.longitude - b.longitude) < 1e-9 &&
            abs((a.ellipsoidalHeight ?? 0) - (b.ellipsoidalHeight ?? 0)) < 1e-6
    }
}
