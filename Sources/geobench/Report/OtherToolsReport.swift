import Foundation
import GeoAnchorKit

extension TracesReport {
    /// Files other tools wrote (the test fixtures beside traces/: GPSBabel, GDAL, Info-ZIP,
    /// Python's zipfile/gzip/csv, GNU gzip, (N)compress, RTKLIB's convbin, Hatanaka's RNX2CRX),
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
        // GPSLogger for Android's CSV log, written as its CSVFileLogger formats it from the
        // Závist walk's first 20 fixes (its elevation = the trace's MSL altitude + N, as float32).
        let gpsLogger = try TraceReader.read(url: fixtures.appendingPathComponent("Traces/Other/gpslogger.csv"), onFix: { _ in })
        let gl = try fixes("Traces/Other/gpslogger.csv")
        let zavist = Array(try TraceReader.load(url: traces.appendingPathComponent("zavist-tour.raw.csv")).fixes.prefix(gl.count))
        let (glDeg, glH) = maxDifferences(gl, zavist.map { var f = $0; f.height = f.height.map { $0 + (f.geoidSeparation ?? 0) }; return f }, height: \.height)
        lines.append(String(format: "    %@ %d/%d fixes (+%d network rows counted), times %@, |Δ°| %.1e, |Δh| %.1e m",
                            ("GPSLogger CSV vs traces/zavist-tour.raw.csv" as NSString).padding(toLength: 46, withPad: " ", startingAt: 0) as NSString,
                            gl.count, zavist.count, gpsLogger.otherProviderFixes,
                            zip(gl, zavist).allSatisfy { $0.time == $1.time } ? "equal" : "DIFFER", glDeg, glH))
        // Sensor Logger's Location.csv (the app's UNITS.md: ns times, ellipsoidal altitude with
        // the MSL one beside it), from the same 20 fixes: MSL heights h − N compared.
        let sl = try fixes("Traces/Other/SensorLogger/Location.csv")
        let slMSL = sl.map { var f = $0; f.height = f.height.map { $0 - (f.geoidSeparation ?? 0) }; return f }
        let (slDeg, slH) = maxDifferences(slMSL, Array(zavist.prefix(sl.count)), height: \.height)
        lines.append(String(format: "    %@ %d/%d fixes, times %@, |Δ°| %.1e, |Δh| %.1e m",
                            ("Sensor Logger Location.csv vs the same walk" as NSString).padding(toLength: 46, withPad: " ", startingAt: 0) as NSString,
                            sl.count, min(zavist.count, sl.count),
                            zip(sl, zavist).allSatisfy { abs($0.time - $1.time) < 1e-6 } ? "equal (1 µs)" : "DIFFER", slDeg, slH))
        // A u-blox UBX log (pyubx2) of the walk's first 30 fixes, two without a fix or a time.
        let ubxRead = try TraceReader.read(url: fixtures.appendingPathComponent("Traces/Other/rover.ubx"), onFix: { _ in })
        let ubx = try fixes("Traces/Other/rover.ubx")
        let ubxRef = try TraceReader.load(url: traces.appendingPathComponent("zavist-tour.raw.csv")).fixes.prefix(30).enumerated()
            .filter { $0.offset != 3 && $0.offset != 7 }.map(\.element)
        let ubxMSL = ubx.map { var f = $0; f.height = f.height.map { $0 - (f.geoidSeparation ?? 0) }; return f }
        let (ubxDeg, ubxH) = maxDifferences(ubxMSL, ubxRef, height: \.height)
        lines.append(String(format: "    %@ %d/%d fixes (+%d NAV-PVT without a fix or time), times %@, |Δ°| %.1e, |Δh| %.1e m",
                            ("u-blox UBX NAV-PVT (pyubx2) vs the same walk" as NSString).padding(toLength: 46, withPad: " ", startingAt: 0) as NSString,
                            ubx.count, ubxRef.count, ubxRead.ignoredRecords,
                            ubx.count == ubxRef.count && zip(ubx, ubxRef).allSatisfy { abs($0.time - $1.time) <= 12e-6 } ? "equal (12 µs)" : "DIFFER",
                            ubxDeg, ubxH))
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
        return lines
    }
}
