import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport

/// `geobench gnss` interface (issue 19): CSV columns, JSON keys, exit status 2 with
/// `FILE:LINE: message`. Numbers are tested in the library suites.
@Suite("geobench gnss", .enabled(if: SharedData.shouldRun))
struct GnssCommandTests {
    let cli = GeobenchInterfaceTests()
    static let dir = SharedData.url("gnss_raw/gsdc2021_mtv1_pixel5_part1").path

    /// A GSDC 2021 `_derived.csv` needs no orbits; its rows not used are said on stderr.
    /// Reference: the NovAtel truth beside the file (all 7 epochs matched; WLS p50 1.68 m
    /// measured, library suite GSDCDerived2021Tests), and the file's first label 1273529464442
    /// GPS ms, dated one second earlier: 2020-05-14T22:10:45.442Z UTC (18 leap seconds).
    @Test func derived2021() throws {
        let dir = SharedData.url("gnss_traces/gnss_lib_py_samples/google_decimeter_2021").path
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("gnss-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = try cli.geobench(["gnss", "--input", dir + "/Pixel4_derived.csv", "--truth", dir + "/Pixel4_ground_truth.csv",
                                  "--mode", "wls", "--output", out, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let j = try cli.json(r.stdout)
        let a = try #require(j["accuracy"] as? [String: Any])
        #expect(a["matched"] as? Int == 7 && (a["p50"] as? Double ?? .infinity) <= 2.5, "\(a)")
        let first = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").dropFirst().first
        #expect(first?.hasPrefix("2020-05-14T22:10:45.442Z,") == true, "\(first ?? "")")
    }

    @Test func csvAndJSONInterface() throws {
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("gnss-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = try cli.geobench(["gnss", "--input", Self.dir + "/Pixel5_GnssLog_part1.21o", "--nav", Self.dir + "/hour1180.21n",
                                  "--systems", "G", "--mode", "wls", "--output", out, "--json",
                                  "--truth", Self.dir + "/ground_truth_part1.csv"])
        #expect(r.status == 0, "\(r.stderr)")
        let j = try cli.json(r.stdout)
        for k in ["input", "output", "mode", "epochs_read", "epochs_solved", "epochs_skipped", "measurements_skipped",
                  "satellites_per_system", "residuals", "filter_resets", "filter_gated", "unresolved_faults", "bias_exclusions", "bias_unresolved_epochs", "seconds", "accuracy"] {
            #expect(j[k] != nil, "missing key \(k)")
        }
        #expect(j["epochs_read"] as? Int == 794)
        // The accuracy object's keys; GPS-only WLS states pessimistic radii (report: 96 % within
        // them with GPS broadcast orbits): the share within must be reported, and above 0.68.
        let accuracy = try #require(j["accuracy"] as? [String: Any])
        for k in ["p50", "p95", "score", "matched", "reference_epochs", "within_accuracy"] { #expect(accuracy[k] != nil, "missing accuracy.\(k)") }
        let within = try #require(accuracy["within_accuracy"] as? Double)
        #expect(within > 0.68 && within <= 1, "within_accuracy \(within)")
        // The clean drive has no fault the detection cannot isolate.
        #expect(j["unresolved_faults"] as? Int == 0)
        // Nor a satellite with a persistent bias (GNSSBiasMonitor; its largest test value on this
        // drive, GPS only, is 1.7 against the threshold 4).
        #expect(j["bias_exclusions"] as? Int == 0)
        // …so nothing the monitor could not isolate either, and no warning about it.
        #expect(j["bias_unresolved_epochs"] as? Int == 0)
        #expect(!r.stderr.contains("bias_unresolved_epochs"))
        let csv = try String(contentsOfFile: out, encoding: .utf8)
        let lines = csv.split(separator: "\n")
        #expect(lines.first == "time,latitude,longitude,ellipsoidal_height,geoid_separation,horizontal_accuracy,vertical_accuracy,speed,course,heading,heading_accuracy,satellites,hdop,vdop,pdop,quality,residual_rms")
        #expect(lines.count == 795)
        // UTC output: the first RINEX epoch is 22:19:22.43 GPS time = 22:19:04.430 UTC.
        #expect(lines[1].hasPrefix("2021-04-28T22:19:04.430Z,"))
    }

    /// The files as IGS and CDDIS distribute them, gzip-compressed (here by GNU gzip, part of
    /// every Debian system): observations, navigation and SP3 `.gz` give the byte-identical
    /// trace of the plain files.
    @Test func gzipInputs() throws {
        let tmp = FileManager.default.temporaryDirectory.appendingPathComponent("gnss-gz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: tmp, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: tmp) }
        let sp3 = SharedData.url("gnss_raw/orbits_2021_118/COD0MGXFIN_20211180000_01D_05M_ORB.SP3").path
        var gz: [String] = []
        for src in [Self.dir + "/Pixel5_GnssLog_part1.21o", Self.dir + "/hour1180.21n", sp3] {
            let dst = tmp.appendingPathComponent((src as NSString).lastPathComponent + ".gz").path
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/bin/sh")
            p.arguments = ["-c", "gzip -c \"$0\" > \"$1\"", src, dst]
            try p.run(); p.waitUntilExit()
            #expect(p.terminationStatus == 0)
            gz.append(dst)
        }
        let plainOut = tmp.appendingPathComponent("plain.csv").path, gzOut = tmp.appendingPathComponent("gz.csv").path
        let a = try cli.geobench(["gnss", "--input", Self.dir + "/Pixel5_GnssLog_part1.21o", "--nav", Self.dir + "/hour1180.21n", "--sp3", sp3,
                                  "--mode", "wls", "--output", plainOut])
        let b = try cli.geobench(["gnss", "--input", gz[0], "--nav", gz[1], "--sp3", gz[2], "--mode", "wls", "--output", gzOut])
        #expect(a.status == 0 && b.status == 0, "\(b.stderr)")
        #expect(try Data(contentsOf: URL(fileURLWithPath: gzOut)) == Data(contentsOf: URL(fileURLWithPath: plainOut)))
        let c = try cli.geobench(["gnss", "--input", gz[0], "--nav", gz[1], "--mode", "wls", "--output", gzOut + ".gz"])
        #expect(c.status == 2 && c.stderr.contains("compressed output is not written"), "\(c.stderr)")
    }

    /// A u-blox log with RXM-RAWX is recognised by its content whatever its name, its unused
    /// measurements said on stderr, its epochs solved (30/30 with the drive's navigation file;
    /// the positions equal the RINEX's are tested in the library suite UBXRawTests); a broken
    /// frame exits 2 naming the byte offset.
    @Test func uBloxRawLog() throws {
        let fixture = SharedData.repositoryRoot.appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/GNSS/pixel5.first30.rawx.ubx")
        let input = try cli.temporaryFile("receiver.log", "")
        try Data(contentsOf: fixture).write(to: URL(fileURLWithPath: input))
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("gnss-\(UUID().uuidString).csv").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = try cli.geobench(["gnss", "--input", input, "--nav", Self.dir + "/hour1180.21n", "--mode", "wls", "--output", out, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("receiver.log: 30 RXM-RAWX epochs, 621 measurements; not used: 12 pseudorange_invalid"), "\(r.stderr)")
        let j = try cli.json(r.stdout)
        #expect(j["epochs_read"] as? Int == 30 && j["epochs_solved"] as? Int == 30, "\(j)")
        // Its own GPS navigation (RXM-SFRBX) is enough: no --nav, the same 30 epochs solved.
        let own = try cli.geobench(["gnss", "--input", input, "--mode", "wls", "--output", out, "--json"])
        #expect(own.status == 0 && own.stderr.contains("8 GPS/QZSS ephemerides and Klobuchar coefficients from its RXM-SFRBX subframes"), "\(own.stderr)")
        #expect(try cli.json(own.stdout)["epochs_solved"] as? Int == 30)
        var bytes = [UInt8](try Data(contentsOf: fixture))
        bytes[30] ^= 0xFF
        let broken = try cli.temporaryFile("broken.ubx", "")
        try Data(bytes).write(to: URL(fileURLWithPath: broken))
        let b = try cli.geobench(["gnss", "--input", broken, "--nav", Self.dir + "/hour1180.21n", "--output", out])
        #expect(b.status == 2 && b.stderr.contains("broken.ubx: at byte 0: UBX checksum"), "\(b.stderr)")
    }

    /// `geobench rinex`: the u-blox log as RINEX 3.04 (the counts of RinexObservationWriterTests'
    /// file, which RTKLIB reads with every value), read back by the library; on stdout by
    /// default; a GSDC device_gnss.csv and --json without --output exit 2.
    @Test func rinexFromRawLogs() throws {
        let fixture = SharedData.repositoryRoot.appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/GNSS/pixel5.first30.rawx.ubx").path
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("rinex-\(UUID().uuidString).rnx").path
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = try cli.geobench(["rinex", "--input", fixture, "--output", out, "--marker", "PIX5", "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let j = try cli.json(r.stdout)
        #expect(j["epochs"] as? Int == 30 && j["satellite_records"] as? Int == 441 && j["unrepresentable"] as? Int == 0, "\(j)")
        let back = try RinexObservationFile.read(contentsOf: URL(fileURLWithPath: out))
        #expect(back.epochs.count == 30 && back.markerName == "PIX5" && back.version == 3.04)
        let stdout = try cli.geobench(["rinex", "--input", fixture])
        #expect(stdout.status == 0 && stdout.stdout.hasPrefix("     3.04           OBSERVATION DATA    M"), "\(stdout.stderr)")
        let device = try cli.geobench(["rinex", "--input", SharedData.url("gnss_traces/gnss_lib_py_samples/google_decimeter_2021/Pixel4_derived.csv").path])
        #expect(device.status == 2 && device.stderr.contains("not observations"), "\(device.stderr)")
        let json = try cli.geobench(["rinex", "--input", fixture, "--json"])
        #expect(json.status == 2 && json.stderr.contains("--json: needs --output FILE"), "\(json.stderr)")
    }

    /// The main job's Raw GNSS section positions the u-blox log with its own subframes (all 30
    /// epochs; within 1 mm of the drive's navigation file, UBXRawTests' tolerance) and writes it
    /// as RINEX that reads back whole.
    @Test func reportPositionsTheUBloxLog() throws {
        guard let block = try cli.reportBlock(section: "Raw GNSS", heading: "u-blox receiver log") else { return }
        #expect(block.count == 2, "\(block)")
        let first = block.first ?? ""
        #expect(first.contains("8 ephemerides + Klobuchar; GPS wls 30/30 solved"), "\(first)")
        let mm = first.components(separatedBy: "max |Δ| ").last.flatMap { Double($0.replacingOccurrences(of: " mm", with: "")) } ?? .infinity
        #expect(mm < 1, "\(first)")
        #expect(block.last?.hasSuffix("0 values unrepresentable; read back 30 epochs") == true, "\(block)")
    }

    @Test func invalidInputExitsWithStatus2() throws {
        let bad = try cli.temporaryFile("bad.21o", "     3.03           OBSERVATION DATA    M                   RINEX VERSION / TYPE\nnot a header line\n")
        let r = try cli.geobench(["gnss", "--input", bad, "--nav", Self.dir + "/hour1180.21n", "--output", "/tmp/never.csv"])
        #expect(r.status == 2)
        #expect(r.stderr.contains("bad.21o:"))
        let m = try cli.geobench(["gnss", "--input", Self.dir + "/Pixel5_GnssLog_part1.21o", "--nav", Self.dir + "/hour1180.21n",
                                  "--mode", "fast", "--output", "/tmp/never.csv"])
        #expect(m.status == 2 && m.stderr.contains("--mode: 'fast' is not wls, filter or smooth"))
        let i = try cli.geobench(["gnss", "--input", Self.dir + "/Pixel5_GnssLog_part1.21o", "--nav", Self.dir + "/hour1180.21n",
                                  "--ionosphere", "free", "--output", "/tmp/never.csv"])
        #expect(i.status == 2 && i.stderr.contains("--ionosphere: 'free' is not klobuchar or dual-frequency"), "\(i.stderr)")
        // An empty selection solved nothing and blamed the epochs (too_few_satellites).
        let e = try cli.geobench(["gnss", "--input", Self.dir + "/Pixel5_GnssLog_part1.21o", "--nav", Self.dir + "/hour1180.21n",
                                  "--systems", "", "--output", "/tmp/never.csv"])
        #expect(e.status == 2 && e.stderr.contains("--systems: no system given"), "\(e.stderr)")
    }
}
