import Foundation
import Testing
import GeoAnchorKit

/// `geobench align` and `simulate --tracking/--compass`: the interface of issue 12 (CSV header,
/// JSON keys, exit 2 with FILE:LINE on bad input). Numbers are tested in GeoRegistrationTests.
extension GeobenchInterfaceTests {
    @Test func alignInterface() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("geobench-align-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        func path(_ n: String) -> String { dir.appendingPathComponent(n).path }
        let sim = try geobench(["simulate", "--scenario", "city-walk", "--seed", "5", "--sensor-duration", "0",
                                "--raw", path("raw.csv"), "--truth", path("truth.csv"),
                                "--tracking", path("trk.csv"), "--compass", path("cmp.csv")])
        #expect(sim.status == 0, "\(sim.stderr)")
        let trk = try String(contentsOfFile: path("trk.csv"), encoding: .utf8)
        #expect(trk.hasPrefix("time,x,y,z,yaw\n"))
        #expect(try String(contentsOfFile: path("cmp.csv"), encoding: .utf8).hasPrefix("time,heading,heading_accuracy\n"))
        let run = try geobench(["align", "--tracking", path("trk.csv"), "--fixes", path("raw.csv"), "--compass", path("cmp.csv"),
                                "--output", path("out.csv"), "--json", "--truth", path("truth.csv"), "--plot", path("p.svg")])
        #expect(run.status == 0, "\(run.stderr)")
        let out = try String(contentsOfFile: path("out.csv"), encoding: .utf8)
        let lines = out.split(separator: "\n")
        #expect(lines.first == "time,latitude,longitude,ellipsoidal_height,heading,heading_sigma,horizontal_accuracy,heading_offset")
        let trackingRows = trk.split(separator: "\n").count - 1
        #expect(lines.count - 1 == trackingRows, "with a compass every tracking row has an estimate")
        let j = try json(run.stdout)
        for k in ["rows", "fixes_used", "fixes_gated", "compass_used", "compass_gated", "tracking_jumps"] { #expect(j[k] != nil, "\(k)") }
        #expect(j["rows"] as? Int == trackingRows)
        // 1 when the reported accuracies held; the simulator's are honest, so no widening warning.
        let scale = try #require(j["fix_accuracy_scale_max"] as? Double)
        #expect(scale >= 1 && scale < 1.5, "fix_accuracy_scale_max \(scale)")
        #expect(!run.stderr.contains("look optimistic"))
        #expect(try String(contentsOfFile: path("p.svg"), encoding: .utf8).contains("<svg"))
        // Without compass: magnetometer-free, fewer rows (the heading needs 30 m of walk).
        let nc = try geobench(["align", "--tracking", path("trk.csv"), "--fixes", path("raw.csv"), "--output", path("o2.csv"), "--json"])
        #expect(nc.status == 0)
        let rows2 = try #require(try json(nc.stdout)["rows"] as? Int)
        #expect(rows2 > 0 && rows2 < trackingRows)
        // CRLF (Python csv module) and ISO 8601 times are read.
        var crlf = "time,x,y,z,yaw\r\n"
        for (i, l) in trk.split(separator: "\n").dropFirst().prefix(50).enumerated() {
            let f = l.split(separator: ",", omittingEmptySubsequences: false)
            let t = ByteParsing.iso8601String(Double(f[0])!, fractionDigits: 3)
            crlf += "\(t),\(f[1]),\(f[2]),\(f[3]),\(f[4])\r\n"
            _ = i
        }
        let crlfPath = try temporaryFile("crlf.csv", crlf)
        let c = try geobench(["align", "--tracking", crlfPath, "--fixes", path("raw.csv"), "--compass", path("cmp.csv"), "--output", path("o3.csv")])
        #expect(c.status == 0, "\(c.stderr)")
        // Bad input: exit 2 with FILE:LINE: message.
        for (body, line, what) in [("time,x,y,z,yaw\n10,0,0,0,0\n9,0,0,0,0\n", 3, "backwards"),
                                   ("time,x,y,z,yaw\n10,0,nan,0,0\n", 2, "finite"),
                                   ("time,x,y,z,yaw\n10,0,0,0,361\n", 2, "yaw"),
                                   ("time,x,y,z\n10,0,0,0\n", 1, "yaw")] {
            let bad = try temporaryFile("bad.csv", body)
            let r = try geobench(["align", "--tracking", bad, "--fixes", path("raw.csv"), "--output", path("o4.csv")])
            #expect(r.status == 2)
            #expect(r.stderr.contains("\(bad):\(line):") && r.stderr.contains(what), "\(r.stderr)")
        }
        let badCompass = try temporaryFile("c.csv", "time,heading,heading_accuracy\n1,10,0\n")
        let r = try geobench(["align", "--tracking", path("trk.csv"), "--fixes", path("raw.csv"), "--compass", badCompass, "--output", path("o5.csv")])
        #expect(r.status == 2 && r.stderr.contains("\(badCompass):2:"))
    }
}

extension GeobenchInterfaceTests {
    /// `geobench report --plots DIR`: the geo-registration section writes one SVG per shipped
    /// scenario (the `align --plot` drawing of the report's own evaluation) and names it; without
    /// `--plots` it writes nothing and says how to get them.
    @Test func reportWritesGeoRegistrationPlots() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("geobench-plots-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        let run = try geobench(["report", "--only", "geo-registration", "--plots", dir.appendingPathComponent("nested").path])
        #expect(run.status == 0, "\(run.stderr)")
        for scenario in ["zavist-tour", "city-walk"] {
            let file = dir.appendingPathComponent("nested/\(scenario)-geo-registration.svg").path
            #expect(run.stdout.contains("plot: \(file)"))
            let svg = try String(contentsOfFile: file, encoding: .utf8)
            #expect(svg.contains("<svg") && svg.hasSuffix("</svg>\n") && svg.contains("\(scenario) (shipped GNSS"))
        }
        let plain = try geobench(["report", "--only", "geo-registration"])
        #expect(plain.status == 0 && plain.stdout.contains("geobench report --plots DIR"))
    }
}
