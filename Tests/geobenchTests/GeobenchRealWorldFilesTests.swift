import Foundation
import Testing
import GeoAnchorKit
import GeoAnchorKitTestSupport

/// Files other tools wrote: Python csv (LF, CRLF, BOM+CRLF), GnssLogger logs, gpxpy GPX.
extension GeobenchInterfaceTests {
    static let csvFixtures = SharedData.repositoryRoot.appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/CSV")

    /// The command line of each table subcommand for one input file.
    static func tableCommand(_ name: String, _ file: String) -> [String] {
        switch name {
        case "enu": return ["enu", "--origin", "55,5,200", "--input", file]
        case "crs": return ["crs", "--from", "EPSG:4326", "--to", "EPSG:3857", "--input", file]
        case "calibrate": return ["calibrate", "--input", file, "--json"]
        case "anchors": return ["anchors", "--device", "49.9617,14.3950,390", "--device-reference", "msl", "--heading", "60", "--anchors", file]
        case "route": return ["route", "--stops", file, "--json"]
        default: return [name, "--input", file]
        }
    }

    /// Reference: the same table written by Python's csv module with LF, CRLF and BOM+CRLF, and
    /// as a decimal-comma spreadsheet writes it (`;`, `50,1`; scripts/dev/csv_line_end_fixtures.py,
    /// with a quoted cell and a trailing blank line) must give byte-identical output, and succeed.
    @Test(arguments: ["geodesic", "enu", "geoid", "magnetic", "crs", "calibrate", "anchors", "route"])
    func tableSubcommandsIgnoreLineEnds(command: String) throws {
        var outputs: [String] = []
        for variant in ["lf", "crlf", "bomcrlf", "semicolon"] {
            let file = Self.csvFixtures.appendingPathComponent("\(command).\(variant).csv").path
            let r = try geobench(Self.tableCommand(command, file))
            #expect(r.status == 0, "\(command) \(variant): \(r.stderr)")
            outputs.append(r.stdout)
        }
        #expect(!outputs[0].isEmpty)
        #expect(outputs[1] == outputs[0] && outputs[2] == outputs[0] && outputs[3] == outputs[0], "\(command)")
    }

    /// Strict numbers in the table subcommands: hex, NUL, nan are FILE:LINE errors (exit 2).
    @Test(arguments: ["0x10", "1\u{0}2", "nan"]) func tableNumbersAreStrict(value: String) throws {
        let path = try temporaryFile("strict.csv", "lat1,lon1,lat2,lon2\r\n1,2,3,4\r\n\(value),2,3,4\r\n")
        let r = try geobench(["geodesic", "--input", path])
        #expect(r.status == 2 && r.stderr.hasPrefix("\(path):3: lat1"), "\(r.stderr)")
    }

    /// Reference: pixel6.txt's own lines (94 `Fix,GPS`, 95 `Fix,FLP`; 30 Uncal* sensor lines).
    @Test(.enabled(if: SharedData.shouldRun)) func convertGnssLogger() throws {
        let log = SharedData.url("gnss_traces/gnss_lib_py_samples/android/measurements/pixel6.txt").path
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("gak-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let x = out.appendingPathComponent("x.csv").path, s = out.appendingPathComponent("s.csv").path
        let r = try geobench(["convert", "--input", log, "--output", x, "--sensors", s])
        #expect(r.status == 0, "\(r.stderr)")
        let rows = try String(contentsOfFile: x, encoding: .utf8).split(separator: "\n")
        #expect(rows.first?.hasPrefix("time,latitude,longitude,ellipsoidal_height,") == true)
        #expect(rows.count == 95)
        // First GPS line: Fix,GPS,37.4265079783,-122.1737079613,23.67296474531974,0.0,4.2366138,,1699400582000,…
        #expect(rows.dropFirst().first?.hasPrefix("2023-11-07T23:43:02.000Z,37.4265079783,-122.1737079613,23.67296474531974,,4.2366138,") == true)
        let sensorRows = try String(contentsOfFile: s, encoding: .utf8).split(separator: "\n")
        #expect(sensorRows.first == "time,sensor,x,y,z,bias_x,bias_y,bias_z" && sensorRows.count == 31)
        let fused = try geobench(["convert", "--input", log, "--output", x, "--provider", "fused"])
        #expect(fused.status == 0)
        #expect(try String(contentsOfFile: x, encoding: .utf8).split(separator: "\n").count == 96)
    }

    /// Reference: Pixel4_GnssLog.txt line 88 is the deliberately malformed `Fix` (GSDC 2021).
    /// The error names the input file (never the .partial output) and that line.
    @Test(.enabled(if: SharedData.shouldRun)) func convertMalformedGnssLogger() throws {
        let log = SharedData.url("gnss_traces/gnss_lib_py_samples/google_decimeter_2021/Pixel4_GnssLog.txt").path
        let x = FileManager.default.temporaryDirectory.appendingPathComponent("gak-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: x) }
        let bad = try geobench(["convert", "--input", log, "--output", x])
        #expect(bad.status == 2 && bad.stderr.hasPrefix("\(log):88: "), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: x) && !FileManager.default.fileExists(atPath: x + ".partial"))
        let ok = try geobench(["convert", "--input", log, "--output", x, "--skip-invalid"])
        #expect(ok.status == 0 && ok.stderr.contains("skipped 1 invalid line"), "\(ok.stderr)")
    }

    /// Reference: cerknicko-jezero.gpx has 296 `<trkpt>` (grep) and 7 waypoints before the track;
    /// cerknicko-jezero-without-elevations.gpx 295 timed track points without `<ele>`; every
    /// output format gets one row/point per track point.
    @Test(.enabled(if: SharedData.shouldRun), arguments: TraceFormat.writable)
    func convertGPXToEveryFormat(format: TraceFormat) throws {
        for (name, count) in [("cerknicko-jezero", 296), ("cerknicko-jezero-without-elevations", 295)] {
            let gpx = SharedData.url("gpx/gpxpy_test_files/\(name).gpx").path
            let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gak-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            defer { try? FileManager.default.removeItem(at: dir) }
            let out = dir.appendingPathComponent("o.\(format.rawValue)")
            let w = dir.appendingPathComponent("w.csv").path
            let r = try geobench(["convert", "--input", gpx, "--output", out.path, "--waypoints", w])
            #expect(r.status == 0, "\(name) → \(format): \(r.stderr)")
            let back = try TraceReader.load(url: out, format: format).fixes
            #expect(back.count == count, "\(name) → \(format)")
            #expect(try String(contentsOfFile: w, encoding: .utf8).split(separator: "\n").count == 8)
        }
    }
}

extension GeobenchInterfaceTests {
    /// A sensors CSV as `convert --sensors` writes it feeds `calibrate`: its
    /// uncalibrated_magnetometer rows (other rows ignored) give the same fit as the same values
    /// in mx,my,mz columns (reference: the mx,my,mz run of the same numbers, identical JSON).
    /// Times may be ISO 8601 as the simulator writes them (the shipped traces' sensors CSV was
    /// refused: "time '2026-05-16T08:30:00.000Z' is not a number").
    @Test(arguments: [false, true]) func calibrateTakesSensorsCSV(_ isoTimes: Bool) throws {
        let plain = Self.csvFixtures.appendingPathComponent("calibrate.lf.csv")
        let rows = try String(contentsOf: plain, encoding: .utf8).split(separator: "\n").dropFirst()
        var sensors = "time,sensor,x,y,z,bias_x,bias_y,bias_z\r\n"
        for (i, r) in rows.enumerated() {
            let t = isoTimes ? String(format: "2026-05-16T%02d:%02d:%02d.000Z", 8 + i / 3600, i / 60 % 60, i % 60) : "\(1000 + i)"
            sensors += "\(t),uncalibrated_magnetometer,\(r),1,2,3\r\n"
            sensors += "\(t),magnetometer,\(r),,,\r\n".replacingOccurrences(of: "magnetometer,", with: "magnetometer,9")
            sensors += "\(t),accelerometer,0,0,9.8,,,\r\n"
        }
        let path = try temporaryFile("sensors.csv", sensors)
        let a = try geobench(["calibrate", "--input", path, "--json"])
        let b = try geobench(["calibrate", "--input", plain.path, "--json"])
        #expect(a.status == 0 && b.status == 0, "\(a.stderr) \(b.stderr)")
        #expect(a.stdout == b.stdout)
        let shipped = try geobench(["calibrate", "--input", "traces/zavist-tour.sensors.csv", "--json"])
        #expect(shipped.status == 0, "\(shipped.stderr)")
    }
}

extension GeobenchInterfaceTests {
    /// A fix the CSV writer cannot label (an MSL height without geoid separation after an
    /// ellipsoidal one) is reported against the INPUT file, never the `.partial` output.
    @Test func writerObjectionNamesTheInput() throws {
        let geojson = """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","geometry":{"type":"Point","coordinates":[14.39,49.96,400]},"properties":{"time":"2026-05-16T08:30:00Z"}},
        {"type":"Feature","geometry":{"type":"Point","coordinates":[14.39,49.96]},"properties":{"time":"2026-05-16T08:30:01Z","altitude":355}}]}
        """
        let input = try temporaryFile("mixed.geojson", geojson)
        let out = input + ".csv"
        let r = try geobench(["convert", "--input", input, "--output", out])
        #expect(r.status == 2 && r.stderr.hasPrefix("\(input): fix #2"), "\(r.stderr)")
        #expect(!r.stderr.contains(".partial"))
    }
}

extension GeobenchInterfaceTests {
    /// Nothing dropped silently, in every subcommand that reads a trace: gpxpy's
    /// cerknicko-without-times.gpx has 296 `<trkpt>`, 5 with `<time>` (grep), so 291 points are
    /// not fixes and stderr says so; route.gpx (55 `<rtept>`, no `<time>`) and unicode.gpx (6
    /// `<wpt>`, no track) give no fix, and the error says what the file held instead.
    @Test(.enabled(if: SharedData.shouldRun)) func traceReadersSayWhatTheyDidNotUse() throws {
        let dir = "gpx/gpxpy_test_files/"
        let partly = SharedData.url(dir + "cerknicko-without-times.gpx").path
        let route = SharedData.url(dir + "route.gpx").path, pois = SharedData.url(dir + "unicode.gpx").path
        let out = try temporaryFile("out.csv", "")
        let tracking = try temporaryFile("trk.csv", "time,x,y,z,yaw\n1281025372,0,0,0,0\n1281025373,0,0,-1,0\n")
        func commands(_ file: String) -> [[String]] {
            [["filter", "--input", file, "--output", out],
             ["convert", "--input", file, "--output", out],
             ["accuracy", "--trace", file, "--truth", file],
             ["tour", "--tour", "traces/zavist-tour.tour.geojson", "--trace", file],
             ["align", "--tracking", tracking, "--fixes", file, "--output", out]]
        }
        for c in commands(partly) {
            let r = try geobench(c)
            #expect(r.stderr.contains("\(partly): 291 point(s) without a time not used"), "\(c[0]): \(r.stderr)")
        }
        for c in commands(route) {
            let r = try geobench(c)
            #expect(r.status == 2 && r.stderr.contains("\(route): no fixes found (55 point(s) without a time"), "\(c[0]): \(r.stderr)")
        }
        for c in commands(pois) {
            let r = try geobench(c)
            #expect(r.status == 2 && r.stderr.contains("\(pois): no fixes found (6 waypoint(s)"), "\(c[0]): \(r.stderr)")
        }
    }
}

extension GeobenchInterfaceTests {
    /// `calibrate` reads an IMU logger's own header. Reference: the x-io Fusion sample log
    /// (`Magnetometer X (uT)`…) parsed here by column position, fitted by the library: the same
    /// JSON as the command's. And a unit in the header is converted: the shipped calibrate
    /// fixture rewritten in milligauss (×10) under x-io-style names gives the µT answer
    /// (offsets to 1e-9 µT relative).
    @Test(.enabled(if: SharedData.shouldRun)) func calibrateReadsIMULoggerHeaders() throws {
        let xio = SharedData.url("magnetometer_imu/xio_fusion/sensor_data.csv").path
        let r = try geobench(["calibrate", "--input", xio, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        var mags: [SIMD3<Double>] = []
        for line in try SharedData.text("magnetometer_imu/xio_fusion/sensor_data.csv").split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",").compactMap { Double($0) }
            if f.count == 10 { mags.append(SIMD3(f[7], f[8], f[9])) }
        }
        let c = try MagnetometerCalibrator.fit(mags)
        let j = try json(r.stdout)
        let offset = try #require(j["offset"] as? [Double])
        #expect(j["samples"] as? Int == 13_514 && offset.count == 3, "\(offset)")
        for (u, v) in zip(offset, [c.offset.x, c.offset.y, c.offset.z]) { #expect(abs(u - v) <= 1e-9, "\(offset) vs \(c.offset)") }

        let plain = Self.csvFixtures.appendingPathComponent("calibrate.lf.csv").path
        let rows = try String(contentsOfFile: plain, encoding: .utf8).split(separator: "\n").dropFirst()
        let milligauss = "Time (s),Magnetometer X (mG),Magnetometer Y (mG),Magnetometer Z (mG)\n"
            + rows.enumerated().map { i, l in "\(i)," + l.split(separator: ",").map { String(10 * Double($0)!) }.joined(separator: ",") }.joined(separator: "\n") + "\n"
        let a = try geobench(["calibrate", "--input", plain, "--json"])
        let b = try geobench(["calibrate", "--input", try temporaryFile("mg.csv", milligauss), "--json"])
        #expect(a.status == 0 && b.status == 0, "\(b.stderr)")
        let oa = try #require(try json(a.stdout)["offset"] as? [Double]), ob = try #require(try json(b.stdout)["offset"] as? [Double])
        for (u, v) in zip(oa, ob) { #expect(abs(u - v) <= 1e-9 * max(1, abs(u)), "\(oa) vs \(ob)") }
        let bad = try geobench(["calibrate", "--input", try temporaryFile("bad.csv", milligauss.replacingOccurrences(of: "(mG)", with: "(Oe)"))])
        #expect(bad.status == 2 && bad.stderr.contains("unit 'oe'"), "\(bad.stderr)")
    }
}

extension GeobenchInterfaceTests {
    static let otherFixtures = SharedData.repositoryRoot.appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/Traces/Other").path

    /// One KML-family file set through geobench: the trace converts to 5 fixes (with `untimed`
    /// on stderr when given), the stops file gives `route` the two Prague stops and `tour` its
    /// events, and the output extension is refused. Reference: the GPX the fixtures came from
    /// (5 fixes; stops Old Town Hall and Charles Bridge, 0.0092° of longitude apart at 50.09° N
    /// ≈ 661 m by the geodesic, so the walk is 655–670 m).
    func checkKMLFamily(trace: String, stops: String, tourTrace: String, refusedOutput: String, untimed: String?) throws {
        let dir = Self.otherFixtures
        let out = try temporaryFile("k.csv", "")
        let c = try geobench(["convert", "--input", dir + "/" + trace, "--output", out])
        #expect(c.status == 0 && (untimed.map { c.stderr.contains($0) } ?? true), "\(c.stderr)")
        #expect(try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").count == 6)
        let r = try geobench(["route", "--stops", dir + "/" + stops, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let j = try json(r.stdout)
        #expect(j["order"] as? [String] == ["Old Town Hall", "Charles Bridge"])
        let d = j["distance_m"] as? Double ?? 0
        #expect(d > 655 && d < 670, "\(d)")
        let t = try geobench(["tour", "--tour", dir + "/" + stops, "--trace", dir + "/" + tourTrace, "--radius", "30"])
        #expect(t.status == 0 && t.stdout.hasPrefix("time,type,id\n"), "\(t.stderr)")
        let k = try geobench(["convert", "--input", dir + "/walk.gpx", "--output", out + "." + refusedOutput])
        #expect(k.status == 2 && k.stderr.hasPrefix("--output: ") && k.stderr.contains("KML is read, not written"), "\(k.stderr)")
    }

    /// KML GPSBabel wrote (Tests/…/Fixtures/Traces/Other): its LineString beside the fixes is
    /// reported as untimed points; KML output is refused, naming the output.
    @Test func kmlFilesFromGPSBabel() throws {
        try checkKMLFamily(trace: "walk.gpsbabel.kml", stops: "stops.gpsbabel.kml", tourTrace: "walk.gpsbabel.kml",
                           refusedOutput: "kml", untimed: "5 point(s) without a time not used")
    }

    /// KMZ (scripts/dev/kmz_fixtures.sh) wherever KML is read: GDAL's LIBKML archive, a
    /// Python-zipped stops archive, Info-ZIP's track; KMZ output refused like KML; a file with
    /// ZIP's signature that is no archive says so.
    @Test func kmzFiles() throws {
        try checkKMLFamily(trace: "walk.libkml-track-points.kmz", stops: "stops.python.kmz", tourTrace: "walk.gpsbabel-track.kmz",
                           refusedOutput: "kmz", untimed: nil)
        let notKMZ = try temporaryFile("n.kmz", "PK\u{3}\u{4}not really a zip")
        let e = try geobench(["convert", "--input", notKMZ, "--output", try temporaryFile("e.csv", "")])
        #expect(e.status == 2 && e.stderr.contains("KMZ archive: "), "\(e.stderr)")
    }
}

extension GeobenchInterfaceTests {
    /// FIT and TCX files (GPSBabel's, scripts/dev/fit_fixtures.sh, tcx_fixtures.sh) are traces
    /// wherever one is read: converted to walk.gpx's 5 fixes; FIT or TCX output refused by name.
    @Test(arguments: [("FIT/walk.gpsbabel.fit", "fit"), ("Other/walk.gpsbabel.tcx", "tcx")]) func fitAndTCXFiles(file: String, ext: String) throws {
        let fit = SharedData.repositoryRoot.appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/Traces/" + file).path
        let out = try temporaryFile("fit.csv", "")
        let c = try geobench(["convert", "--input", fit, "--output", out])
        #expect(c.status == 0, "\(c.stderr)")
        #expect(try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").count == 6)
        let k = try geobench(["convert", "--input", fit, "--output", out + "." + ext])
        #expect(k.status == 2 && k.stderr.contains("\(ext.uppercased()) is read, not written"), "\(k.stderr)")
    }
}

extension GeobenchInterfaceTests {
    /// A semicolon-separated table (a spreadsheet's CSV in a decimal-comma locale) gives the
    /// output of the same table with commas and decimal points; a bad number still names its line.
    @Test func semicolonTablesAreRead() throws {
        let path = try temporaryFile("excel.csv", "lat1;lon1;lat2;lon2\r\n50,1;14,4;50,2;14,5\r\n")
        let plain = try temporaryFile("plain.csv", "lat1,lon1,lat2,lon2\n50.1,14.4,50.2,14.5\n")
        let r = try geobench(["geodesic", "--input", path]), p = try geobench(["geodesic", "--input", plain])
        #expect(r.status == 0 && p.status == 0 && r.stdout == p.stdout && !r.stdout.isEmpty, "\(r.stderr)")
        // Excel's Czech "CSV" is Windows-1250: "Hradní brána" with í = 0xED, á = 0xE1.
        let cp1250 = FileManager.default.temporaryDirectory.appendingPathComponent("cp1250-\(UUID().uuidString).csv")
        try Data("id;latitude;longitude\r\nHradn".utf8 + [0xED] + Data(" br".utf8) + [0xE1] + Data("na;49,96;14,39\r\n".utf8)).write(to: cp1250)
        defer { try? FileManager.default.removeItem(at: cp1250) }
        let e = try geobench(["route", "--stops", cp1250.path])
        #expect(e.status == 2 && e.stderr.contains(":2: field 1 is not UTF-8 text (a spreadsheet's legacy encoding such as Windows-1250?"), "\(e.stderr)")
        let bad = try temporaryFile("bad.csv", "lat1;lon1;lat2;lon2\r\n50,1;14,4;50,2;14 5\r\n")
        let b = try geobench(["geodesic", "--input", bad])
        #expect(b.status == 2 && b.stderr.hasPrefix("\(bad):2: lon2 '14 5' is not a number"), "\(b.stderr)")
    }
}

extension GeobenchInterfaceTests {
    /// The lines indented under `heading` in the main job's `section` (`report --only`); nil, an
    /// issue recorded, when the heading is missing.
    func reportBlock(section: String, heading: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> ArraySlice<String>? {
        let r = try geobench(["report", "--only", section])
        #expect(r.status == 0, "\(r.stderr)", sourceLocation: sourceLocation)
        let lines = r.stdout.split(separator: "\n").map(String.init)
        guard let start = lines.firstIndex(where: { $0.contains(heading) }) else {
            Issue.record("no '\(heading)' in the \(section) section", sourceLocation: sourceLocation); return nil
        }
        return lines[(start + 1)...].prefix { $0.hasPrefix("    ") }
    }

    /// The main job's Traces section reads the files other tools wrote (the fixtures) and compares
    /// each with the file it was made from: every pair agrees (times equal, observations equal),
    /// within the formats' own resolution (FIT's 0.2 m heights, GPSBabel's decimals).
    @Test func reportReadsOtherToolsFiles() throws {
        guard let block = try reportBlock(section: "Traces", heading: "other tools' files vs the file each was made from") else { return }
        #expect(block.count == 18)
        #expect(block.contains { $0.contains("u-blox UBX NAV-PVT") && $0.contains("28/28 fixes (+2 NAV-PVT without a fix or time), times equal (12 µs)") })
        #expect(block.contains { $0.contains("Sensor Logger Location.csv") && $0.contains("20/20 fixes, times equal (1 µs), |Δ°| 0.0e+00") })
        #expect(block.filter { $0.contains("5/5 fixes, times equal") }.count == 7)
        #expect(block.contains { $0.contains("GPSLogger CSV") && $0.contains("20/20 fixes (+3 network rows counted), times equal, |Δ°| 0.0e+00") })
        #expect(block.contains { $0.contains("FIT course points") && $0.contains("4/4 points, times equal") && $0.hasSuffix("0 turn cue(s)") })
        #expect(block.contains { $0.contains("TCX course points") && $0.contains("5/5 points, times equal") && $0.hasSuffix("1 turn cue(s)") })
        #expect(!block.contains { $0.contains("DIFFER") || $0.hasSuffix(": NO") })
        #expect(block.contains { $0.contains("72/72 observations equal") })
        #expect(block.filter { $0.contains("251/251 observations equal") }.count == 3)
        // RTKLIB 2.4.3 knows no L5/E5a signal id: those 183 are checked against the source RINEX (UBXRawTests).
        #expect(block.contains { $0.contains("u-blox RXM-RAWX") && $0.contains("30 epochs, 438/438 observations equal (LLI too), 183 L5/E5a") })
        for l in block where l.contains("|Δh|") {
            // FIT's altitude resolution 0.2 m; GPSBabel's TCX 0.1 m rounding; GPSLogger's float32.
            let h = Double(l.split(separator: " ").dropLast().last ?? "") ?? .infinity
            #expect(h <= 0.2, "\(l)")
        }
    }
}

extension GeobenchInterfaceTests {
    /// Replays traces/zavist-tour.raw.csv through `tour` (with `options`) and through the tour
    /// file it was made from (traces/zavist-tour.tour.geojson): the first's events (CSV lines
    /// after the header) with their ids renamed by `ids`, and the tour file's events.
    func zavistEvents(tour: String, _ options: [String] = [], ids: [String: String],
                      sourceLocation: SourceLocation = #_sourceLocation) throws -> (events: [String], reference: [String]) {
        let root = SharedData.repositoryRoot.path
        let trace = root + "/traces/zavist-tour.raw.csv"
        let a = try geobench(["tour", "--tour", tour, "--trace", trace] + options)
        let b = try geobench(["tour", "--tour", root + "/traces/zavist-tour.tour.geojson", "--trace", trace])
        #expect(a.status == 0 && b.status == 0, "\(a.stderr) \(b.stderr)", sourceLocation: sourceLocation)
        let events = a.stdout.split(separator: "\n").dropFirst().map { line -> String in
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            return [f[0], f[1], ids[f[2]] ?? f[2]].joined(separator: ",")
        }
        return (events, b.stdout.split(separator: "\n").dropFirst().map(String.init))
    }

    /// A tour planned elsewhere as a FIT or TCX course (scripts/dev/course_fixtures.sh:
    /// GPSBabel's FIT course of course.gpx — traces/zavist-tour.tour.geojson's stops and path —
    /// and a TCX course with a turn instruction). Reference: the GeoJSON tour itself — replaying
    /// traces/zavist-tour.raw.csv through the FIT course gives the same stop and path events at
    /// the same times (stops by name, the FIT's 15-byte "Rampart viewpoi"; zones are GeoJSON
    /// only); `route` orders the TCX course's stops with the Left turn left out and said.
    @Test func coursesAsToursAndRoutes() throws {
        let root = SharedData.repositoryRoot.path
        let fitCourse = root + "/Tests/GeoAnchorKitTests/Fixtures/Traces/FIT/course.gpsbabel.fit"
        let trace = root + "/traces/zavist-tour.raw.csv"
        let ids = ["Main gate": "main-gate", "Acropolis": "acropolis", "Temple platform": "temple-platform",
                   "Rampart viewpoi": "rampart-viewpoint", "path": "zavist-tour-path"]
        let (mapped, all) = try zavistEvents(tour: fitCourse, ids: ids)
        let expected = all.filter { line in ids.values.contains { line.hasSuffix("," + $0) } }
        #expect(mapped == expected && expected.count >= 8, "\(mapped) vs \(expected)")

        let r = try geobench(["route", "--stops", fitCourse, "--paths", fitCourse, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try json(r.stdout)["order"] as? [String] == ["Main gate", "Acropolis", "Temple platform", "Rampart viewpoi"], "\(r.stdout)")
        // The tour file's own stops and path give the same walk (the course's vertices are the
        // tour path's to 1e-7°; the FIT course has heights, the tour file none: distance only).
        let tourFile = root + "/traces/zavist-tour.tour.geojson"
        let t = try geobench(["route", "--stops", tourFile, "--paths", tourFile, "--json"])
        let tourOrder = try json(t.stdout)["order"] as? [String]
        #expect(t.status == 0 && tourOrder == ["main-gate", "acropolis", "temple-platform", "rampart-viewpoint"], "\(t.stderr)")
        let dc = try json(r.stdout)["distance_m"] as? Double ?? 0, dt = try json(t.stdout)["distance_m"] as? Double ?? -1
        #expect(abs(dc - dt) < 0.5, "\(dc) vs \(dt)")
        // The TCX course: its Left turn is left out and said; its stops mix altitudes (the Water
        // point has none), refused as for GPX waypoints.
        let tcx = root + "/Tests/GeoAnchorKitTests/Fixtures/Traces/Other/course.tcx"
        let m = try geobench(["route", "--stops", tcx, "--paths", tcx])
        #expect(m.status == 2 && m.stderr.contains("course.tcx: 1 of 5 course points are turn instructions (Left), not stops: left out")
                && m.stderr.contains("waypoint 'Main gate' has an altitude (GPX <ele>, TCX AltitudeMeters), waypoint 'Spring' none"), "\(m.stderr)")
        let turnsOnly = try temporaryFile("turns.tcx", """
        <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"><Courses><Course>
        <CoursePoint><Name>L</Name><Position><LatitudeDegrees>50</LatitudeDegrees><LongitudeDegrees>14</LongitudeDegrees></Position><PointType>Left</PointType></CoursePoint>
        </Course></Courses></TrainingCenterDatabase>
        """)
        let e = try geobench(["route", "--stops", turnsOnly])
        #expect(e.status == 2 && e.stderr.contains("its 1 course points (<CoursePoint>) are all turn instructions (Left), not stops"), "\(e.stderr)")
        // The TCX course converted to GPX by GPSBabel: the turn cue's PointType is its <sym>.
        let g = try geobench(["tour", "--tour", root + "/Tests/GeoAnchorKitTests/Fixtures/Traces/Other/course.gpsbabel.gpx", "--trace", trace])
        #expect(g.status == 0 && g.stderr.contains("course.gpsbabel.gpx: 1 of 6 waypoints are turn instructions (Left), not stops: left out"), "\(g.stderr)")
        let none = try geobench(["tour", "--tour", root + "/Tests/GeoAnchorKitTests/Fixtures/Traces/FIT/walk.gpsbabel.fit", "--trace", trace])
        #expect(none.status == 2 && none.stderr.contains("no course points (course_point messages)"), "\(none.stderr)")
    }
}

extension GeobenchInterfaceTests {
    /// The Závist tour as a tour designer would draw it on geojson.io or uMap: the same
    /// geometries, no "kind", "id" or "radius", only names. Reference: the tour file itself —
    /// replaying traces/zavist-tour.raw.csv gives the same events at the same times, stops and
    /// zones named by their names (--radius 20, the tour file's radius).
    @Test func tourDrawnElsewhere() throws {
        let root = SharedData.repositoryRoot.path
        let typed = root + "/traces/zavist-tour.tour.geojson"
        var doc = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: typed))) as? [String: Any])
        var names: [String: String] = [:]
        doc["features"] = (doc["features"] as? [[String: Any]] ?? []).map { f -> [String: Any] in
            var f = f
            let p = f["properties"] as? [String: Any] ?? [:]
            let id = p["id"] as? String ?? ""
            let name = p["name"] as? String ?? id.replacingOccurrences(of: "-", with: " ").capitalized
            if p["kind"] as? String != "path" { names[name] = id }
            f["properties"] = p["kind"] as? String == "path" ? ["stroke": "#555555"] : ["name": name, "marker-color": "#7e7e7e"]
            return f
        }
        let drawn = try temporaryFile("drawn.geojson", String(decoding: try JSONSerialization.data(withJSONObject: doc), as: UTF8.self))
        names["path"] = "zavist-tour-path"
        let (mapped, expected) = try zavistEvents(tour: drawn, ["--radius", "20"], ids: names)
        #expect(mapped == expected && expected.count >= 10, "\(mapped) vs \(expected)")
    }
}

extension GeobenchInterfaceTests {
    /// The whole Závist tour — stops, path, zones — as GDAL writes it to KML and KMZ
    /// (scripts/dev/kml_tour_fixtures.sh). Reference: the tour GeoJSON it came from: replaying
    /// traces/zavist-tour.raw.csv gives every event at the same time, zones included (stops
    /// named by their names, the path "path").
    @Test(arguments: ["zavist-tour.gdal.kml", "zavist-tour.libkml.kmz"]) func kmlTourWithZones(name: String) throws {
        let ids = ["Main gate": "main-gate", "Acropolis": "acropolis", "Temple platform": "temple-platform",
                   "Rampart viewpoint": "rampart-viewpoint", "path": "zavist-tour-path"]
        let (mapped, expected) = try zavistEvents(tour: Self.otherFixtures + "/" + name, ["--radius", "20"], ids: ids)
        #expect(mapped == expected && expected.contains { $0.hasSuffix(",acropolis-plateau") }, "\(mapped) vs \(expected)")
    }
}

extension GeobenchInterfaceTests {
    /// Sensor Logger's Magnetometer.csv (time in ns, z,y,x in µT; scripts/dev/sensorlogger_fixtures.py
    /// from calibrate.lf.csv): the calibration of the samples it came from, to 1e-9 µT. The same
    /// columns under another sensor's file name are refused naming it (its Accelerometer.csv
    /// has them too).
    @Test func calibrateReadsSensorLogger() throws {
        let root = SharedData.repositoryRoot.path
        let a = try geobench(["calibrate", "--input", root + "/Tests/GeoAnchorKitTests/Fixtures/Traces/Other/SensorLogger/Magnetometer.csv", "--json"])
        let b = try geobench(["calibrate", "--input", Self.csvFixtures.appendingPathComponent("calibrate.lf.csv").path, "--json"])
        #expect(a.status == 0 && b.status == 0, "\(a.stderr)")
        let oa = try #require(try json(a.stdout)["offset"] as? [Double]), ob = try #require(try json(b.stdout)["offset"] as? [Double])
        #expect(try json(a.stdout)["samples"] as? Int == 200)
        for (u, v) in zip(oa, ob) { #expect(abs(u - v) <= 1e-9, "\(oa) vs \(ob)") }
        // The same file inside the app's recording export, named ARCHIVE.zip/MEMBER: the same output.
        let z = try geobench(["calibrate", "--input", root + "/Tests/GeoAnchorKitTests/Fixtures/Traces/Other/SensorLogger/recording.zip/Magnetometer.csv", "--json"])
        #expect(z.status == 0 && z.stdout == a.stdout, "\(z.stderr)")
        let text = try String(contentsOfFile: root + "/Tests/GeoAnchorKitTests/Fixtures/Traces/Other/SensorLogger/Magnetometer.csv", encoding: .utf8)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("sl-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try text.write(to: dir.appendingPathComponent("Accelerometer.csv"), atomically: true, encoding: .utf8)
        let e = try geobench(["calibrate", "--input", dir.appendingPathComponent("Accelerometer.csv").path])
        #expect(e.status == 2 && e.stderr.contains("give Magnetometer.csv or MagnetometerUncalibrated.csv (µT), not 'Accelerometer.csv'"), "\(e.stderr)")
    }

    /// `convert`, `filter` and `accuracy` take `ARCHIVE.zip/MEMBER` as the readers do: the app's
    /// recording export's Location.csv converts byte-identically to the plain file's, and the
    /// filter reads it. Before, their own existence check refused the path ("cannot read file").
    @Test func traceCommandsReadZipMembers() throws {
        let dir = SharedData.repositoryRoot.path + "/Tests/GeoAnchorKitTests/Fixtures/Traces/Other/SensorLogger"
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("zm-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: out, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: out) }
        let a = try geobench(["convert", "--input", dir + "/recording.zip/Location.csv", "--output", out.path + "/a.csv"])
        let b = try geobench(["convert", "--input", dir + "/Location.csv", "--output", out.path + "/b.csv"])
        #expect(a.status == 0 && b.status == 0, "\(a.stderr)")
        #expect(try Data(contentsOf: out.appendingPathComponent("a.csv")) == Data(contentsOf: out.appendingPathComponent("b.csv")))
        let f = try geobench(["filter", "--input", dir + "/recording.zip/Location.csv", "--output", out.path + "/f.csv"])
        #expect(f.status == 0, "\(f.stderr)")
        let m = try geobench(["accuracy", "--trace", dir + "/recording.zip/Location.csv", "--truth", dir + "/Location.csv"])
        #expect(m.status == 0 && m.stdout.contains("matched 20"), "\(m.stderr)")
        let missing = try geobench(["convert", "--input", dir + "/recording.zip/Nothere.csv", "--output", out.path + "/c.csv"])
        #expect(missing.status == 2 && missing.stderr.contains("ZIP archive has no file 'Nothere.csv'"), "\(missing.stderr)")
    }
}

extension GeobenchInterfaceTests {
    static let anchorArgs = ["anchors", "--device", "49.9580,14.3870,372", "--heading", "80", "--fov", "360"]

    /// Places the anchors of `file` and of an anchors CSV with `csv`'s rows (after the header
    /// `id,latitude,longitude,altitude,altitude_reference,yaw`) from one device pose (`options`
    /// for `file` only): the run of `file` (exit 2: it has bad features) and both outputs.
    func placedBeside(_ file: String, csv rows: String, _ options: [String] = [],
                      sourceLocation: SourceLocation = #_sourceLocation) throws -> (Run, String, String) {
        let csv = try temporaryFile("anchors.csv", "id,latitude,longitude,altitude,altitude_reference,yaw\n" + rows)
        let outA = try temporaryFile("a.csv", ""), outB = try temporaryFile("b.csv", "")
        let a = try geobench(Self.anchorArgs + ["--anchors", file, "--output", outA] + options)
        let b = try geobench(Self.anchorArgs + ["--anchors", csv, "--output", outB])
        #expect(a.status == 2 && b.status == 0, "\(a.stderr) \(b.stderr)", sourceLocation: sourceLocation)
        return (a, try String(contentsOfFile: outA, encoding: .utf8), try String(contentsOfFile: outB, encoding: .utf8))
    }

    /// Anchors from a GeoJSON (a site's models placed in QGIS or geojson.io) place exactly as the
    /// same anchors written in the anchors CSV (the CSV path is tested against pyproj): the same
    /// output, byte for byte; a Point without a height is reported naming its feature, the
    /// LineString counted, and --json names the feature instead of a line.
    @Test func anchorsFromGeoJSON() throws {
        let geojson = try temporaryFile("site.geojson", """
        {"type":"FeatureCollection","features":[
        {"type":"Feature","id":"gate","properties":{"yaw":95},"geometry":{"type":"Point","coordinates":[14.388,49.9578,375.2]}},
        {"type":"Feature","properties":{"name":"temple","altitude":331,"altitude_reference":"msl"},"geometry":{"type":"Point","coordinates":[14.3962,49.9632]}},
        {"type":"Feature","properties":{"name":"well"},"geometry":{"type":"Point","coordinates":[14.3935,49.9595]}},
        {"type":"Feature","properties":{},"geometry":{"type":"LineString","coordinates":[[14.388,49.9578],[14.3962,49.9632]]}}
        ]}
        """)
        let (a, ta, tb) = try placedBeside(geojson, csv: "gate,49.9578,14.388,375.2,ellipsoid,95\ntemple,49.9632,14.3962,331,msl,0\n")
        #expect(a.stderr.contains("site.geojson: feature #2 (id \"well\"): no height") && a.stderr.contains("1 feature(s) other than Points: not anchors"), "\(a.stderr)")
        #expect(ta == tb && ta.split(separator: "\n").count == 3, "\(ta) vs \(tb)")
        let outA = try temporaryFile("j.json", "")
        let j = try geobench(Self.anchorArgs + ["--anchors", geojson, "--json", "--output", outA])
        let errors = try json(try String(contentsOfFile: outA, encoding: .utf8))["errors"] as? [[String: Any]]
        #expect(j.status == 2 && errors?.first?["feature"] as? Int == 2 && errors?.first?["line"] == nil, "\(errors ?? [])")
    }
}

extension GeobenchInterfaceTests {
    /// Models in a KMZ (GDAL LIBKML, scripts/dev/kml_anchor_fixtures.sh): the absolute gate places
    /// as the same anchor in an anchors CSV (msl, yaw 95) — the same row, byte for byte; the
    /// terrain-relative ones fail without a terrain, the tilted and stretched ones are refused,
    /// each naming its placemark's line and the document inside the KMZ.
    @Test func anchorsFromKML() throws {
        let (a, ta, tb) = try placedBeside(Self.otherFixtures + "/site-models.kmz", csv: "gate,49.9578,14.388,331.2,msl,95\n")
        #expect(ta == tb && ta.split(separator: "\n").count == 2, "\(ta) vs \(tb)")
        // GDAL's LIBKML layer is a document inside the KMZ: lines are its lines, and it is named.
        for needle in [":31: (layers/site-models.kml) anchor 'tower':", ":53: (layers/site-models.kml) anchor 'well':", "terrain model (none supplied)",
                       ":64: (layers/site-models.kml) placemark \"statue\": Model tilt 5.0°",
                       ":88: (layers/site-models.kml) placemark \"wall\": Model scale 2.0, 1.0, 1.0 is not uniform"] {
            #expect(a.stderr.contains(needle), "\(needle): \(a.stderr)")
        }
        // With a DEM (flat, 370 m above the ellipsoid: --dem-datum ellipsoid) the tower
        // (relativeToGround 2 m) and the well (clampToGround) place as the same anchors at 372 m
        // and 370 m ellipsoidal in a CSV, byte for byte.
        var dem = "ncols 40\nnrows 40\nxllcenter 14.37\nyllcenter 49.945\ncellsize 0.001\n"
        for _ in 0..<40 { dem += Array(repeating: "370.000", count: 40).joined(separator: " ") + "\n" }
        let demFile = try temporaryFile("flat.asc", dem)
        let (d, td, tc) = try placedBeside(Self.otherFixtures + "/site-models.kmz",
                                           csv: "gate,49.9578,14.388,331.2,msl,95\ntower,49.9632,14.3962,372,ellipsoid,10\nwell,49.9595,14.3935,370,ellipsoid,0\n",
                                           ["--dem", demFile, "--dem-datum", "ellipsoid"])
        #expect(td == tc && td.split(separator: "\n").count == 4 && !d.stderr.contains("terrain model"), "\(td) vs \(tc) \(d.stderr)")
        // A hill as GDAL wrote it (scripts/dev/dem_fixtures.py): its GeoTIFFs (tiled Deflate with
        // the floating-point predictor; big-endian pixel-is-point) place the terrain-relative
        // anchors byte for byte as the ESRI ASCII grid they were written from.
        let demDir = SharedData.repositoryRoot.appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/DEM").path
        let placed = try ["hill.asc", "hill.deflate-p3.tif", "hill.point.be.f64.tif"].map { file -> String in
            let out = try temporaryFile("dem-\(file).csv", "")
            let r = try geobench(Self.anchorArgs + ["--anchors", Self.otherFixtures + "/site-models.kmz", "--output", out,
                                                    "--dem", demDir + "/" + file, "--dem-datum", "ellipsoid"])
            #expect(r.status == 2 && !r.stderr.contains("terrain model") && !r.stderr.contains("outside"), "\(file): \(r.stderr)")
            return try String(contentsOfFile: out, encoding: .utf8)
        }
        #expect(placed[0] == placed[1] && placed[0] == placed[2] && placed[0].split(separator: "\n").count == 4, "\(placed)")
        #expect(placed[0] != td)   // the hill is not the flat terrain
        // A DEM declaring EGM2008 heights taken as MSL (converted through EGM96) is said.
        let egm = try geobench(Self.anchorArgs + ["--anchors", Self.otherFixtures + "/site-models.kmz", "--output", try temporaryFile("egm.csv", ""),
                                                  "--dem", demDir + "/hill.egm2008.tif"])
        #expect(egm.stderr.contains("hill.egm2008.tif: the file declares EPSG:3855 (EGM2008 height); MSL heights are converted through EGM96"), "\(egm.stderr)")
    }
}

extension GeobenchInterfaceTests {
    /// The main job's Tours section replays the Závist tour as other tools made it (GDAL's KML and
    /// KMZ with zones, GPSBabel's FIT course) against the tour file's own events: all equal.
    @Test func reportReplaysToursFromOtherTools() throws {
        guard let block = try reportBlock(section: "Tours", heading: "the Závist tour made in other tools") else { return }
        #expect(block.count == 3 && block.filter { $0.hasSuffix("18/18 events equal") }.count == 2 && block.last?.hasSuffix("12/12 events equal") == true,
                "\(block)")
    }
}

extension GeobenchInterfaceTests {
    /// Surveyed points as GPX waypoints (GPSBabel's GPX of a unicsv, scripts/dev/kml_anchor_fixtures.sh):
    /// `<ele>` MSL, so they place exactly as the same anchors in a CSV with altitude_reference
    /// msl; the waypoint without `<ele>` is reported by position.
    @Test func anchorsFromGPXWaypoints() throws {
        let (a, ta, tb) = try placedBeside(Self.otherFixtures + "/survey.gpsbabel.gpx", csv: "gate,49.9578,14.388,331.2,msl,0\ntower,49.9632,14.3962,336.5,msl,0\n")
        #expect(ta == tb && ta.split(separator: "\n").count == 3, "\(ta) vs \(tb)")
        #expect(a.stderr.contains("survey.gpsbabel.gpx: waypoint 3 (\"well\"): no <ele>: a model needs a height"), "\(a.stderr)")
    }
}
