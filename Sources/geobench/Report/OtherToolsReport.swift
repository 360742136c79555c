import Foundation
import GeoAnchorKit

extension TracesReport {
    /// Files other tools wrote (the test fixtures beside traces/: GPSBabel, GDAL, Info-ZIP,
    /// Python's zipfile/gzip/csv, GNU gzip, (N)compress, RTKLIB's convbin, Hatanaka's RNX2CRX, pyubx2),
    /// each read and compared with the file it was made from. Nil when the fixtures are absent
    /// (a `--traces` directory outside the repository).
    static func otherToolsFiles(fixtures: URL, traces: URL) throws -> [String]? {
        guard FileManager.default.fileExists(atPath: fixtures.appendingPathComponent("Traces/Other/walk.gpx").path) else { return nil }
        func fixes(_ path: String) throws -> [Fix] {
            try TraceReader.load(url: fixtures.appendingPathComponent(path)).fixes
        }
        var lines = ["  other tools' files vs the file each was made from (Tests/GeoAnchorKitTests/Fixtures; times, max |Δ| of degrees and heights):"]
        let pairs: [(String, String, String)] = [
            ("KMZ, GDAL 3.6 LIBKML (NetworkLinked layer)", "Traces/Other/walk.libkml-track-points.kmz", "Traces/Other/walk.gpx"),
            ("KMZ, Info-ZIP of GPSBabel's gx:Track KML", "Traces/Other/walk.gpsbabel-track.kmz", "Traces/Other/walk.gpsbabel-track.kml"),
            ("FIT, GPSBabel 1.8", "Traces/FIT/walk.gpsbabel.fit", "Traces/Other/walk.gpx"),
            ("TCX, GPSBabel 1.8", "Traces/Other/walk.gpsbabel.tcx", "Traces/Other/walk.gpx"),
            ("NMEA, GPSBabel 1.8, gzip in two members", "Gzip/walk.split.nmea.gz", "Traces/Other/walk.gpsbabel.nmea"),
            ("NMEA in a ZIP beside a README, Info-ZIP", "Gzip/walk.nmea.zip", "Traces/Other/walk.gpsbabel.nmea"),
            ("GPX, Python gzip", "Gzip/walk.gpx.gz", "Traces/Other/walk.gpx"),
        ]
        for (label, file, reference) in pairs {
            let a = try fixes(file), b = try fixes(reference)
            let (maxDeg, maxH) = maxDifferences(a, b, height: \.height)
            let times = a.count == b.count && zip(a, b).allSatisfy { $0.time == $1.time }
            lines.append(String(format: "    %@ %d/%d fixes, times %@, |Δ°| %.1e, |Δh| %.2f m",
                                label.padding(toLength: 46, withPad: " ", startingAt: 0) as NSString, a.count, b.count,
                                times ? "equal" : "DIFFER", maxDeg, maxH))
        }
        // A decimal-comma spreadsheet's CSV: the first 5 fixes of the committed city walk.
        let semicolon = try fixes("CSV/trace.semicolon.csv")
        let walk = try TraceReader.load(url: traces.appendingPathComponent("city-walk.raw.csv")).fixes
        lines.append("    CSV with ';' and decimal commas (Python csv)   \(semicolon.count) fixes, identical to traces/city-walk.raw.csv's first \(semicolon.count): \(Array(walk.prefix(semicolon.count)) == semicolon ? "yes" : "NO")")
        // Phone and receiver logs written from the Závist walk's first fixes, each against them.
        let zavist = Array(try TraceReader.load(url: traces.appendingPathComponent("zavist-tour.raw.csv")).fixes.prefix(30))
        func read(_ path: String) throws -> ([Fix], TraceReadSummary) {
            var out: [Fix] = []
            let s = try TraceReader.read(url: fixtures.appendingPathComponent(path), onFix: { out.append($0) })
            return (out, s)
        }
        func againstWalk(_ label: String, _ a: [Fix], _ b: [Fix], counted: String = "", timeTolerance: Double = 0, timeNote: String = "") -> String {
            let (deg, h) = maxDifferences(a, b, height: \.height)
            let times = a.count == b.count && zip(a, b).allSatisfy { abs($0.time - $1.time) <= timeTolerance }
            return String(format: "    %@ %d/%d fixes%@, times %@, |Δ°| %.1e, |Δh| %.1e m",
                          label.padding(toLength: 46, withPad: " ", startingAt: 0) as NSString, a.count, b.count, counted as NSString,
                          (times ? "equal" + timeNote : "DIFFER") as NSString, deg, h)
        }
        func msl(_ f: Fix) -> Fix { var f = f; f.height = f.height.map { $0 - (f.geoidSeparation ?? 0) }; return f }
        // GPSLogger for Android's CSV log, as its CSVFileLogger formats it (elevation = the
        // trace's MSL altitude + N, as float32; N given on some rows only: the trace made ellipsoidal).
        let (gl, glRead) = try read("Traces/Other/gpslogger.csv")
        lines.append(againstWalk("GPSLogger CSV vs traces/zavist-tour.raw.csv", gl,
                                 zavist.prefix(gl.count).map { var f = $0; f.height = f.height.map { $0 + (f.geoidSeparation ?? 0) }; return f },
                                 counted: " (+\(glRead.otherProviderFixes) network rows counted)"))
        // Sensor Logger's Location.csv (the app's UNITS.md: ns times, ellipsoidal altitude with
        // the MSL one beside it): MSL heights h − N compared.
        let (sl, _) = try read("Traces/Other/SensorLogger/Location.csv")
        lines.append(againstWalk("Sensor Logger Location.csv vs the same walk", sl.map(msl), Array(zavist.prefix(sl.count)),
                                 timeTolerance: 1e-6, timeNote: " (1 µs)"))
        // A u-blox UBX log (pyubx2) of the walk's first 30 fixes, two without a fix or a time.
        let (ubx, ubxRead) = try read("Traces/Other/rover.ubx")
        lines.append(againstWalk("u-blox UBX NAV-PVT (pyubx2) vs the same walk", ubx.map(msl),
                                 zavist.enumerated().filter { $0.offset != 3 && $0.offset != 7 }.map { $0.element },
                                 counted: " (+\(ubxRead.ignoredRecords) NAV-PVT without a fix or time)", timeTolerance: 12e-6, timeNote: " (12 µs)"))
        // Courses: GPSBabel's FIT course points are the GPX's waypoints; a TCX course's points as
        // GPSBabel reads them (less the LAP001 it makes of the lap's start).
        func points(_ w: [GPXWaypoint]) -> [Fix] { w.map { Fix(time: $0.time ?? 0, latitude: $0.latitude, longitude: $0.longitude) } }
        let coursePairs: [(String, [GPXWaypoint], [GPXWaypoint])] = [
            ("FIT course points, GPSBabel 1.8", try FITReader.coursePoints(url: fixtures.appendingPathComponent("Traces/FIT/course.gpsbabel.fit")),
             try GPXReader.waypoints(url: fixtures.appendingPathComponent("Traces/Other/course.gpx"))),
            ("TCX course points vs GPSBabel's reading", try TCXReader.coursePoints(url: fixtures.appendingPathComponent("Traces/Other/course.tcx")),
             try GPXReader.waypoints(url: fixtures.appendingPathComponent("Traces/Other/course.gpsbabel.gpx")).filter { $0.name != "LAP001" }),
        ]
        for (label, a, b) in coursePairs {
            let (deg, _) = maxDifferences(points(a), points(b), height: \.height)
            lines.append(String(format: "    %@ %d/%d points, times %@, |Δ°| %.1e, %d turn cue(s)",
                                label.padding(toLength: 46, withPad: " ", startingAt: 0) as NSString, a.count, b.count,
                                a.count == b.count && zip(a, b).allSatisfy { $0.time == $1.time } ? "equal" : "DIFFER", deg,
                                a.filter(\.isTurnInstruction).count))
        }
        // Observation files: RINEX 2 (RTKLIB), Hatanaka (RNX2CRX), compress.
        let observations: [(String, String, String)] = [
            ("RINEX 2.11 vs RTKLIB convbin's 3.04 of it", "GNSS/geodetic.211.99o", "GNSS/geodetic.rtklib304.99o"),
            ("Compact RINEX 1.0 (RNX2CRX 4.1.0)", "GNSS/pixel6.first2min.211.23d", "GNSS/pixel6.first2min.211.23o"),
            ("Compact RINEX 3.0 (RNX2CRX 4.1.0)", "GNSS/pixel6.first2min.304.crx", "GNSS/pixel6.first2min.304.rnx"),
            ("RINEX 2.11, compress -b 12", "Gzip/pixel6.b12.23o.Z", "GNSS/pixel6.first2min.211.23o"),
        ]
        for (label, file, reference) in observations {
            let a = try RinexObservationFile.read(contentsOf: fixtures.appendingPathComponent(file))
            let b = try RinexObservationFile.read(contentsOf: fixtures.appendingPathComponent(reference))
            // Compared per epoch time, satellite and signal, values and frequency (RTKLIB adds a
            // flag-6 epoch as data and sets loss-of-lock bits of its own: not compared).
            func same(_ x: GNSSObservation, _ y: GNSSObservation) -> Bool {
                x.satellite == y.satellite && x.signal == y.signal && x.pseudorange == y.pseudorange && x.carrierPhase == y.carrierPhase
                    && x.doppler == y.doppler && x.cn0 == y.cn0 && x.frequency == y.frequency
            }
            var equal = 0, total = 0
            for e in a.epochs {
                guard let r = b.epochs.first(where: { abs($0.time - e.time) < 1e-7 }) else { total += e.observations.count; continue }
                for o in e.observations {
                    total += 1
                    if r.observations.contains(where: { same($0, o) }) { equal += 1 }
                }
            }
            lines.append(String(format: "    %@ %d epochs, %d/%d observations equal",
                                label.padding(toLength: 46, withPad: " ", startingAt: 0) as NSString, a.epochs.count, equal, total))
        }
        // A u-blox raw log (pyubx2's RXM-RAWX of a Pixel 5 RINEX) against RTKLIB's decoding of it,
        // to the 0.0005 its RINEX prints; the L5/E5a signals RTKLIB 2.4.3 does not know counted.
        let raw = try UBXRawLog.read(contentsOf: fixtures.appendingPathComponent("GNSS/pixel5.first30.rawx.ubx"))
        let convbin = try RinexObservationFile.read(contentsOf: fixtures.appendingPathComponent("GNSS/pixel5.first30.rawx.convbin304.rnx.gz"))
        func close(_ x: Double?, _ y: Double?) -> Bool {
            guard let x, let y else { return x == nil && y == nil }
            return abs(x - y) <= 0.0005
        }
        func same(_ o: GNSSObservation, _ x: GNSSObservation) -> Bool {
            let values = close(o.pseudorange, x.pseudorange) && close(o.carrierPhase, x.carrierPhase) && close(o.doppler, x.doppler)
            let lock = o.carrierPhase == nil || o.lossOfLockIndicator == x.lossOfLockIndicator
            return values && lock && o.cn0 == x.cn0 && o.frequency == x.frequency
        }
        var rawEqual = 0, rawTotal = 0, unknownToRTKLIB = 0
        for e in raw.epochs {
            let r = convbin.epochs.first { abs($0.time - e.time) < 1e-7 }
            for o in e.observations {
                guard let x = r?.observations.first(where: { $0.satellite == o.satellite && $0.signal == o.signal }) else {
                    if o.band == "5" { unknownToRTKLIB += 1 } else { rawTotal += 1 }
                    continue
                }
                rawTotal += 1
                if same(o, x) { rawEqual += 1 }
            }
        }
        lines.append(String(format: "    %@ %d epochs, %d/%d observations equal (LLI too), %d L5/E5a it does not know",
                            ("u-blox RXM-RAWX vs RTKLIB 2.4.3 convbin" as NSString).padding(toLength: 46, withPad: " ", startingAt: 0),
                            raw.epochs.count, rawEqual, rawTotal, unknownToRTKLIB))
        return lines
    }
}
