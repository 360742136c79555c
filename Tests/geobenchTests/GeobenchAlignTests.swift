import Foundation
import Testing
import GeoAnchorKit
import GeoAnchorKitSimulation
import GeoAnchorKitTestSupport

/// `geobench align` and `simulate --tracking/--compass`: the interface of issue 12 (CSV header,
/// JSON keys, exit 2 with FILE:LINE on bad input). Numbers are tested in GeoRegistrationTests.
extension GeobenchInterfaceTests {
    @Test func alignInterface() throws {
        let dir = try AlignScratch("geobench-align")
        defer { dir.remove() }
        let path = dir.path
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
        // Nor narrowed (the check narrows pessimistic ones: GeoRegistrationTests).
        #expect(j["fix_accuracy_scale_min"] as? Double == 1, "fix_accuracy_scale_min \(j["fix_accuracy_scale_min"] ?? "missing")")
        #expect(!run.stderr.contains("look pessimistic"))
        #expect(try String(contentsOfFile: path("p.svg"), encoding: .utf8).contains("<svg"))
        // The compass's estimated slow error (its accuracy is tested in GeoRegistrationTests).
        let bias = try #require(j["compass_bias"] as? Double), biasSigma = try #require(j["compass_bias_sigma"] as? Double)
        #expect(bias.isFinite && abs(bias) <= 180 && biasSigma > 0 && biasSigma < 30, "\(bias) ± \(biasSigma)")
        // Without compass: magnetometer-free, fewer rows (the heading needs a few seconds of walking: five agreeing fix courses), no bias.
        let nc = try geobench(["align", "--tracking", path("trk.csv"), "--fixes", path("raw.csv"), "--output", path("o2.csv"), "--json"])
        #expect(nc.status == 0)
        let ncJSON = try json(nc.stdout)
        let rows2 = try #require(ncJSON["rows"] as? Int)
        #expect(rows2 > 0 && rows2 < trackingRows)
        #expect(ncJSON["compass_bias"] == nil && ncJSON["compass_bias_sigma"] == nil)
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
                                   ("time,x,y,z,yaw\n10,0,0,0,0\n11,0,1e308,0,0\n", 3, "beyond"),
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

    /// `align` across a pause in the tracking (an app sent to the background): a 30 s hole in
    /// the simulated tracking CSV. The same frame after it, unannounced: an interruption (JSON
    /// tracking_interruptions 1) recognized as a relocalisation (relocalisations_recognized 1: the
    /// tracked step across the pause matches the fixes' displacement), the heading kept, no row
    /// missing. The rows after the pause moved 150 m (a new frame that does not start at its
    /// origin): not recognized, and without compass the heading is re-learnt meanwhile
    /// (rows_without_estimate > 0, a note on stderr); with the optional column `event` saying
    /// `relocalized` on the first row after it, the heading carries over (no row missing, nothing
    /// to recognize). `--relocalisation-gate off` re-learns it on the unshifted file too; a gate
    /// that is not a positive number, and an unknown event, exit 2 (naming the option; FILE:LINE).
    @Test func alignAcrossAPause() throws {
        let dir = try AlignScratch("geobench-align-pause")
        defer { dir.remove() }
        let path = dir.path
        let sim = try geobench(["simulate", "--scenario", "zavist-tour", "--seed", "2", "--sensor-duration", "0",
                                "--raw", path("raw.csv"), "--truth", path("truth.csv"), "--tracking", path("trk.csv")])
        #expect(sim.status == 0, "\(sim.stderr)")
        let lines = try String(contentsOfFile: path("trk.csv"), encoding: .utf8).split(separator: "\n").map(String.init)
        let body = Array(lines.dropFirst())
        let t0 = try #require(Double(body[body.count / 2].split(separator: ",")[0]))
        let kept = body.filter { l in Double(l.split(separator: ",")[0]).map { $0 <= t0 || $0 >= t0 + 30 } ?? true }
        #expect(kept.count < body.count - 250)
        let resume = try #require(kept.firstIndex { Double($0.split(separator: ",")[0])! >= t0 + 30 })
        let plain = "time,x,y,z,yaw\n" + kept.joined(separator: "\n") + "\n"
        let shifted = "time,x,y,z,yaw\n" + kept.enumerated().map { k, l in
            guard k >= resume else { return l }
            var f = l.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            f[1] = String(Double(f[1])! + 150)
            return f.joined(separator: ",")
        }.joined(separator: "\n") + "\n"
        try shifted.write(toFile: path("shifted.csv"), atomically: true, encoding: .utf8)
        let marked = "time,x,y,z,yaw,event\n" + kept.enumerated().map { $0.element + ($0.offset == resume ? ",relocalized" : ",") }.joined(separator: "\n") + "\n"
        try plain.write(toFile: path("plain.csv"), atomically: true, encoding: .utf8)
        try marked.write(toFile: path("marked.csv"), atomically: true, encoding: .utf8)
        let p = try geobench(["align", "--tracking", path("plain.csv"), "--fixes", path("raw.csv"), "--output", path("p.csv"), "--json"])
        #expect(p.status == 0, "\(p.stderr)")
        let jp = try json(p.stdout)
        #expect(jp["tracking_interruptions"] as? Int == 1 && jp["relocalisations_recognized"] as? Int == 1)
        #expect(jp["rows_without_estimate"] as? Int == 0)
        // --relocalisation-gate off: the same file re-learns the heading (rows missing); a gate
        // that is not a positive number exits 2 naming the option.
        let o = try geobench(["align", "--tracking", path("plain.csv"), "--fixes", path("raw.csv"), "--output", path("o.csv"),
                              "--relocalisation-gate", "off", "--json"])
        #expect(o.status == 0, "\(o.stderr)")
        let jo = try json(o.stdout)
        #expect(jo["relocalisations_recognized"] as? Int == 0 && (jo["rows_without_estimate"] as? Int ?? 0) > 0)
        for bad in ["0", "-1", "nan", "never"] {
            let r = try geobench(["align", "--tracking", path("plain.csv"), "--fixes", path("raw.csv"), "--output", path("bad.csv"),
                                  "--relocalisation-gate=\(bad)"])
            #expect(r.status == 2 && r.stderr.contains("--relocalisation-gate"), "\(bad): \(r.stderr)")
        }
        let a = try geobench(["align", "--tracking", path("shifted.csv"), "--fixes", path("raw.csv"), "--output", path("a.csv"), "--json"])
        #expect(a.status == 0, "\(a.stderr)")
        let ja = try json(a.stdout)
        #expect(ja["tracking_interruptions"] as? Int == 1 && ja["relocalisations_recognized"] as? Int == 0)
        let missing = try #require(ja["rows_without_estimate"] as? Int)
        #expect(missing > 0, "rows_without_estimate \(missing)")
        #expect(a.stderr.contains("were not written"), "\(a.stderr)")
        let b = try geobench(["align", "--tracking", path("marked.csv"), "--fixes", path("raw.csv"), "--output", path("b.csv"), "--json"])
        #expect(b.status == 0, "\(b.stderr)")
        let jb = try json(b.stdout)
        #expect(jb["tracking_interruptions"] as? Int == 1 && jb["rows_without_estimate"] as? Int == 0)
        #expect(jb["relocalisations_recognized"] as? Int == 0)
        #expect((jb["rows"] as? Int ?? 0) == (ja["rows"] as? Int ?? 0) + missing)
        #expect(jp["rows"] as? Int == jb["rows"] as? Int)
        let bad = try temporaryFile("event.csv", "time,x,y,z,yaw,event\n10,0,0,0,0,\n11,0,0,1,0,restart\n")
        let r = try geobench(["align", "--tracking", bad, "--fixes", path("raw.csv"), "--output", path("c.csv")])
        #expect(r.status == 2 && r.stderr.contains("\(bad):3:") && r.stderr.contains("restart"), "\(r.stderr)")
    }

    /// `simulate --pause-at --pause --resumption --announce-resumption`: the tracking CSV has a
    /// 45 s hole, and with the announcement a column event marking the first row after it;
    /// `align` reads it (one interruption, the heading kept for a relocalised session). Bad pause
    /// options exit 2 before any file is written.
    @Test func simulatePause() throws {
        let dir = try AlignScratch("geobench-simulate-pause")
        defer { dir.remove() }
        let path = dir.path
        let sim = try geobench(["simulate", "--scenario", "zavist-tour", "--seed", "2", "--sensor-duration", "0",
                                "--raw", path("raw.csv"), "--truth", path("truth.csv"), "--tracking", path("trk.csv"),
                                "--compass", path("cmp.csv"), "--pause-at", "900", "--pause", "45", "--resumption", "same-frame",
                                "--announce-resumption"])
        #expect(sim.status == 0, "\(sim.stderr)")
        let rows = try String(contentsOfFile: path("trk.csv"), encoding: .utf8).split(separator: "\n")
        #expect(rows.first == "time,x,y,z,yaw,event")
        let times = rows.dropFirst().compactMap { Double($0.split(separator: ",")[0]) }
        let gaps = zip(times, times.dropFirst()).map { $1 - $0 }
        #expect(gaps.filter { $0 > 40 }.count == 1 && (gaps.max() ?? 0) < 46, "largest gap \(gaps.max() ?? 0) s")
        #expect(rows.filter { $0.hasSuffix(",relocalized") }.count == 1 && rows.filter { $0.hasSuffix(",reset") }.isEmpty)
        let a = try geobench(["align", "--tracking", path("trk.csv"), "--fixes", path("raw.csv"), "--compass", path("cmp.csv"),
                              "--output", path("a.csv"), "--json"])
        #expect(a.status == 0, "\(a.stderr)")
        let j = try json(a.stdout)
        #expect(j["tracking_interruptions"] as? Int == 1 && j["rows_without_estimate"] as? Int == 0)
        for (args, option) in [(["--pause", "30"], "--pause"), (["--pause-at", "10", "--pause", "0"], "--pause"),
                               (["--pause-at", "10", "--pause", "30", "--resumption", "later"], "--resumption"),
                               (["--announce-resumption"], "--announce-resumption")] {
            let bad = try geobench(["simulate", "--scenario", "zavist-tour", "--raw", path("r2.csv"), "--truth", path("t2.csv"),
                                    "--tracking", path("k2.csv")] + args)
            #expect(bad.status == 2 && bad.stderr.contains(option), "\(args): \(bad.stderr)")
            #expect(!FileManager.default.fileExists(atPath: path("r2.csv")))
        }
    }

    /// `simulate --gnss`: the raw fixes' error model. Same walk (truth identical), other fixes for
    /// phone and persistent; reference: the truth trace — the persistent model's errors change
    /// less over five minutes than the phone's (its variogram at 300 s is 0.61 of the variance
    /// against ≈ 1; bound: median squared change over 300 s, persistent < 0.8 × phone's);
    /// an unknown model exits 2 naming the option, before any file is written.
    @Test func simulateGNSSModels() throws {
        let dir = try AlignScratch("geobench-simulate-gnss")
        defer { dir.remove() }
        let path = dir.path
        var changes: [String: Double] = [:]
        var truths: [String] = []
        for model in ["shipped", "phone", "persistent"] {
            let sim = try geobench(["simulate", "--scenario", "zavist-tour", "--seed", "4", "--sensor-duration", "0", "--gnss", model,
                                    "--raw", path("\(model).csv"), "--truth", path("\(model)-truth.csv")])
            #expect(sim.status == 0, "\(sim.stderr)")
            truths.append(try String(contentsOfFile: path("\(model)-truth.csv"), encoding: .utf8))
            let raw = try TraceReader.load(url: URL(fileURLWithPath: path("\(model).csv"))).fixes
            let truth = try TraceReader.load(url: URL(fileURLWithPath: path("\(model)-truth.csv"))).fixes
            let frame = try LocalTangentFrame(origin: GeodeticCoordinate(latitude: truth[0].latitude, longitude: truth[0].longitude, ellipsoidalHeight: 0))
            var errors: [Double: SIMD2<Double>] = [:]
            let truthAt = Dictionary(truth.map { ($0.time, $0) }, uniquingKeysWith: { a, _ in a })
            for f in raw {
                guard let t = truthAt[f.time] else { continue }
                let a = frame.enu(latitude: f.latitude, longitude: f.longitude, ellipsoidalHeight: 0)
                let b = frame.enu(latitude: t.latitude, longitude: t.longitude, ellipsoidalHeight: 0)
                errors[f.time] = SIMD2(a.east - b.east, a.north - b.north)
            }
            // Median of the squared 300 s changes (outliers, in every model, do not move it).
            let squared = errors.compactMap { t, e in errors[t + 300].map { (($0 - e) * ($0 - e)).sum() } }.sorted()
            changes[model] = squared.isEmpty ? .nan : squared[squared.count / 2]
        }
        #expect(truths[0] == truths[1] && truths[0] == truths[2])
        #expect(try String(contentsOfFile: path("phone.csv"), encoding: .utf8) != String(contentsOfFile: path("persistent.csv"), encoding: .utf8))
        let (p, q) = (try #require(changes["persistent"]), try #require(changes["phone"]))
        #expect(p < 0.8 * q, "median squared 300 s change: persistent \(p) m², phone \(q) m²")
        let bad = try geobench(["simulate", "--scenario", "zavist-tour", "--gnss", "survey", "--raw", path("r2.csv"), "--truth", path("t2.csv")])
        #expect(bad.status == 2 && bad.stderr.contains("--gnss") && bad.stderr.contains("survey"), "\(bad.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("r2.csv")))
    }

    /// `simulate --tracking-model older` and `align --tracking-noise older` (ADVIO's iPhone 6s
    /// tracking; `GeoRegistrationTests.olderTrackingIsStatedHonestly` measures the honesty). The
    /// older tracking file differs from the modern one (same walk: the raw fixes identical); on it
    /// `--tracking-noise older` states a wider heading σ than the default (median of the column
    /// heading_sigma larger: it trusts the tracking less from the first fix). The default's tracking
    /// quality check trips on the older file (`tracking_noise_raised` true, a note on stderr naming
    /// the scale error) and not on the modern one (GeoRegistrationTests.trackingQualityCheckTripsOnlyOnOlderTracking
    /// measures it); unknown values exit 2 naming the option,
    /// simulate's before any file is written, as does `--tracking-model older` without `--tracking`.
    @Test func olderTrackingOptions() throws {
        let dir = try AlignScratch("geobench-older-tracking")
        defer { dir.remove() }
        let path = dir.path
        for model in ["modern", "older"] {
            let sim = try geobench(["simulate", "--scenario", "city-walk", "--seed", "2", "--sensor-duration", "0", "--tracking-model", model,
                                    "--raw", path("raw-\(model).csv"), "--truth", path("truth.csv"), "--tracking", path("trk-\(model).csv"),
                                    "--compass", path("c.csv")])
            #expect(sim.status == 0, "\(sim.stderr)")
        }
        #expect(try String(contentsOfFile: path("raw-modern.csv"), encoding: .utf8) == String(contentsOfFile: path("raw-older.csv"), encoding: .utf8))
        #expect(try String(contentsOfFile: path("trk-modern.csv"), encoding: .utf8) != String(contentsOfFile: path("trk-older.csv"), encoding: .utf8))
        var medians: [String: Double] = [:]
        for noise in ["modern", "older"] {
            let a = try geobench(["align", "--tracking", path("trk-older.csv"), "--fixes", path("raw-older.csv"), "--compass", path("c.csv"),
                                  "--tracking-noise", noise, "--output", path("a-\(noise).csv"), "--json"])
            #expect(a.status == 0, "\(a.stderr)")
            if noise == "modern" {
                #expect(try json(a.stdout)["tracking_noise_raised"] as? Bool == true, "\(a.stdout)")
                #expect(a.stderr.contains("the AR tracking drifts more than --tracking-noise modern models (scale error "), "\(a.stderr)")
            }
            let rows = try String(contentsOfFile: path("a-\(noise).csv"), encoding: .utf8).split(separator: "\n").dropFirst()
            let sigmas = rows.compactMap { Double($0.split(separator: ",")[5]) }.sorted()
            medians[noise] = sigmas.isEmpty ? .nan : sigmas[sigmas.count / 2]
        }
        let (older, modern) = (try #require(medians["older"]), try #require(medians["modern"]))
        #expect(older > modern, "median heading_sigma: older \(older)°, modern \(modern)°")
        let steady = try geobench(["align", "--tracking", path("trk-modern.csv"), "--fixes", path("raw-modern.csv"), "--compass", path("c.csv"),
                                   "--output", path("a-steady.csv"), "--json"])
        #expect(steady.status == 0 && !steady.stderr.contains("drifts more"), "\(steady.stderr)")
        #expect(try json(steady.stdout)["tracking_noise_raised"] as? Bool == false, "\(steady.stdout)")
        let badAlign = try geobench(["align", "--tracking", path("trk-older.csv"), "--fixes", path("raw-older.csv"), "--tracking-noise", "ancient",
                                     "--output", path("bad.csv")])
        #expect(badAlign.status == 2 && badAlign.stderr.contains("--tracking-noise") && badAlign.stderr.contains("ancient"), "\(badAlign.stderr)")
        let badSim = try geobench(["simulate", "--scenario", "city-walk", "--tracking-model", "ancient", "--raw", path("r2.csv"),
                                   "--truth", path("t2.csv"), "--tracking", path("k2.csv")])
        #expect(badSim.status == 2 && badSim.stderr.contains("--tracking-model") && badSim.stderr.contains("ancient"), "\(badSim.stderr)")
        let unused = try geobench(["simulate", "--scenario", "city-walk", "--tracking-model", "older", "--raw", path("r2.csv"), "--truth", path("t2.csv")])
        #expect(unused.status == 2 && unused.stderr.contains("--tracking-model") && unused.stderr.contains("needs --tracking"), "\(unused.stderr)")
        #expect(!FileManager.default.fileExists(atPath: path("r2.csv")))
    }

    /// `simulate --diverge-at` and `align`'s divergence check: the same walk's tracking with and
    /// without a runaway 300 s in (1 m/s² for 15 s, then relocalised); align --json
    /// `tracking_divergences` is 1 on it (a note on stderr naming the speeds) and 0 on the
    /// undisturbed file (GeoRegistrationDivergenceTests measures the position). Reference for the
    /// position: the truth trace; bound: the output's position p95 between 300 and 375 s is within
    /// 2 × the raw fixes' over the same seconds. Bad values exit 2 naming the option, before any
    /// file is written.
    @Test func divergingTracking() throws {
        let dir = try AlignScratch("geobench-diverging-tracking")
        defer { dir.remove() }
        let path = dir.path
        for (name, extra) in [("steady", [String]()), ("diverged", ["--diverge-at", "300"])] {
            let sim = try geobench(["simulate", "--scenario", "city-walk", "--seed", "3", "--sensor-duration", "0", "--gnss", "phone",
                                    "--raw", path("raw.csv"), "--truth", path("truth.csv"), "--tracking", path("trk-\(name).csv")] + extra)
            #expect(sim.status == 0, "\(sim.stderr)")
            let a = try geobench(["align", "--tracking", path("trk-\(name).csv"), "--fixes", path("raw.csv"), "--output", path("a-\(name).csv"), "--json"])
            #expect(a.status == 0, "\(a.stderr)")
            #expect(try json(a.stdout)["tracking_divergences"] as? Int == (name == "steady" ? 0 : 1), "\(name): \(a.stdout)")
            #expect(a.stderr.contains("the AR tracking diverged") == (name == "diverged"), "\(name): \(a.stderr)")
        }
        let steady = try String(contentsOfFile: path("trk-steady.csv"), encoding: .utf8).split(separator: "\n")
        let diverged = try String(contentsOfFile: path("trk-diverged.csv"), encoding: .utf8).split(separator: "\n")
        #expect(steady.count == diverged.count && steady != diverged)
        // The output's position against the truth over the divergence and the minute after it.
        let truth = try TraceReader.load(url: URL(fileURLWithPath: path("truth.csv"))).fixes
        let raw = try TraceReader.load(url: URL(fileURLWithPath: path("raw.csv"))).fixes
        let t0 = try #require(Double(String(steady[1].split(separator: ",")[0])))
        func errors(_ rows: [(time: Double, lat: Double, lon: Double)]) -> [Double] {
            var k = 0
            return rows.filter { $0.time >= t0 + 300 && $0.time < t0 + 375 }.compactMap { r in
                while k + 1 < truth.count && truth[k + 1].time <= r.time { k += 1 }
                guard Swift.abs(truth[k].time - r.time) <= 1 else { return nil }
                return Geodesic.wgs84.inverse(latitude1: truth[k].latitude, longitude1: truth[k].longitude, latitude2: r.lat, longitude2: r.lon).distance
            }
        }
        let out = try String(contentsOfFile: path("a-diverged.csv"), encoding: .utf8).split(separator: "\n").dropFirst().compactMap { line -> (Double, Double, Double)? in
            let f = line.split(separator: ",").map(String.init)
            guard f.count > 2, let t = Double(f[0]), let la = Double(f[1]), let lo = Double(f[2]) else { return nil }
            return (t, la, lo)
        }
        let fused = errors(out.map { (time: $0.0, lat: $0.1, lon: $0.2) }), fixes = errors(raw.map { (time: $0.time, lat: $0.latitude, lon: $0.longitude) })
        #expect(fused.count > 500 && fixes.count > 50)
        let p95 = { (v: [Double]) in v.sorted()[Swift.min(v.count - 1, Int(0.95 * Double(v.count)))] }
        if !fused.isEmpty && !fixes.isEmpty { #expect(p95(fused) <= 2 * p95(fixes), "position p95 \(p95(fused)) m, fixes \(p95(fixes)) m") }
        let noTracking = try geobench(["simulate", "--scenario", "city-walk", "--raw", path("r2.csv"), "--truth", path("t2.csv"), "--diverge-at", "300"])
        #expect(noTracking.status == 2 && noTracking.stderr.contains("--diverge-at"), "\(noTracking.stderr)")
        let bad = try geobench(["simulate", "--scenario", "city-walk", "--raw", path("r3.csv"), "--truth", path("t3.csv"), "--tracking", path("k3.csv"), "--diverge-at", "nan"])
        #expect(bad.status == 2 && bad.stderr.contains("--diverge-at"), "\(bad.stderr)")
        // A finite time beyond the walk: refused once the streams are simulated, still before any file.
        let late = try geobench(["simulate", "--scenario", "city-walk", "--raw", path("r4.csv"), "--truth", path("t4.csv"), "--tracking", path("k4.csv"), "--diverge-at", "1e308"])
        #expect(late.status == 2 && late.stderr.contains("--diverge-at") && late.stderr.contains("shorter"), "\(late.stderr)")
        for f in ["r2.csv", "r3.csv", "r4.csv", "t4.csv", "k4.csv"] { #expect(!FileManager.default.fileExists(atPath: path(f)), "\(f) written") }
    }

    /// `align --dem`: ground aiding with an ESRI ASCII grid. The DEM is the city walk's own
    /// terrain sampled every 0.0002° (ellipsoidal heights, `--dem-datum ellipsoid`), the device
    /// at ground level (`--device-height 0`, as the simulator's truth). Reference: the truth
    /// trace's heights at the output rows of the same times. Bound: height p95 ≤ 0.6 × that of
    /// the run without `--dem` (measured 0.14 m against 1.91 m); JSON ground_updates > 0;
    /// a DEM that does not cover the walk warns and changes nothing.
    @Test func alignWithDEM() throws {
        let dir = try AlignScratch("geobench-align-dem")
        defer { dir.remove() }
        let path = dir.path
        let sim = try geobench(["simulate", "--scenario", "city-walk", "--seed", "2", "--sensor-duration", "0",
                                "--raw", path("raw.csv"), "--truth", path("truth.csv"), "--tracking", path("trk.csv"), "--compass", path("cmp.csv")])
        #expect(sim.status == 0, "\(sim.stderr)")
        // The DEM: 0.0002° cells over the walk (≈ 14 × 22 m), heights from the scenario's terrain.
        let terrain = try TraceSimulator.Configuration.cityWalk.terrainModel()
        func grid(lat0: Double, lon0: Double) throws -> String {
            let n = 120, cell = 0.0002
            var text = "ncols \(n)\nnrows \(n)\nxllcenter \(lon0)\nyllcenter \(lat0)\ncellsize \(cell)\n"
            for r in (0..<n).reversed() {
                text += try (0..<n).map { c in String(format: "%.3f", try terrain.terrainHeight(latitude: lat0 + Double(r) * cell, longitude: lon0 + Double(c) * cell)) }
                    .joined(separator: " ") + "\n"
            }
            return text
        }
        let truth = try TraceReader.load(url: URL(fileURLWithPath: path("truth.csv"))).fixes
        let first = try #require(truth.first)
        let dem = try temporaryFile("walk.asc", try grid(lat0: first.latitude - 0.012, lon0: first.longitude - 0.012))
        var truthHeight: [Int: Double] = [:]   // by time in ms
        for f in truth { if let h = f.ellipsoidalHeight { truthHeight[Int((f.time * 1000).rounded())] = h } }
        func heightP95(_ out: String) throws -> Double {
            let rows = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").dropFirst()
            let errors = rows.compactMap { line -> Double? in
                let f = line.split(separator: ",", omittingEmptySubsequences: false)
                guard f.count > 3, let t = Double(f[0]), let h = Double(f[3]), let ref = truthHeight[Int((t * 1000).rounded())] else { return nil }
                return abs(h - ref)
            }
            #expect(errors.count > 100)
            return errors.sorted()[Int(0.95 * Double(errors.count - 1))]
        }
        let plain = try geobench(["align", "--tracking", path("trk.csv"), "--fixes", path("raw.csv"), "--compass", path("cmp.csv"), "--output", path("o1.csv")])
        #expect(plain.status == 0, "\(plain.stderr)")
        let run = try geobench(["align", "--tracking", path("trk.csv"), "--fixes", path("raw.csv"), "--compass", path("cmp.csv"), "--output", path("o2.csv"),
                                "--dem", dem, "--dem-datum", "ellipsoid", "--device-height", "0", "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let j = try json(run.stdout)
        #expect((j["ground_updates"] as? Int ?? 0) > 0 && j["ground_skipped"] as? Int != nil)
        let hPlain = try heightP95(path("o1.csv")), hDEM = try heightP95(path("o2.csv"))
        #expect(hDEM <= 0.6 * hPlain, "height p95 \(hDEM) m with the DEM vs \(hPlain) m without")
        // A DEM of somewhere else: every constraint skipped, a warning, the plain estimates.
        let far = try temporaryFile("far.asc", try grid(lat0: first.latitude + 1, lon0: first.longitude + 1))
        let away = try geobench(["align", "--tracking", path("trk.csv"), "--fixes", path("raw.csv"), "--compass", path("cmp.csv"), "--output", path("o3.csv"),
                                 "--dem", far, "--dem-datum", "ellipsoid"])
        #expect(away.status == 0 && away.stderr.contains("does the DEM cover the walk"), "\(away.stderr)")
        #expect(try String(contentsOfFile: path("o3.csv"), encoding: .utf8) == String(contentsOfFile: path("o1.csv"), encoding: .utf8))
        let badDatum = try geobench(["align", "--tracking", path("trk.csv"), "--fixes", path("raw.csv"), "--output", path("o4.csv"), "--dem", dem, "--dem-datum", "navd88"])
        #expect(badDatum.status == 2 && badDatum.stderr.contains("--dem-datum"), "\(badDatum.stderr)")
    }

    /// `align --path`: map aiding with the tour file `simulate --pois` writes (its "kind": "path"
    /// line); the JSON gains path_updates, path_skipped, path_releases (absent without --path);
    /// a bad --path-sigma or a file without lines exits 2 naming it.
    @Test func alignWithPath() throws {
        let dir = try AlignScratch("geobench-align-path")
        defer { dir.remove() }
        let path = dir.path
        let sim = try geobench(["simulate", "--scenario", "city-walk", "--seed", "2", "--sensor-duration", "0", "--lateral-wander", "1.5",
                                "--raw", path("raw.csv"), "--truth", path("truth.csv"), "--pois", path("tour.geojson"),
                                "--tracking", path("trk.csv"), "--compass", path("cmp.csv")])
        #expect(sim.status == 0, "\(sim.stderr)")
        let plain = try geobench(["align", "--tracking", path("trk.csv"), "--fixes", path("raw.csv"), "--output", path("o1.csv"), "--json"])
        #expect(plain.status == 0, "\(plain.stderr)")
        #expect(try json(plain.stdout)["path_updates"] == nil)
        let run = try geobench(["align", "--tracking", path("trk.csv"), "--fixes", path("raw.csv"), "--compass", path("cmp.csv"),
                                "--path", path("tour.geojson"), "--path-sigma", "1.5", "--output", path("o2.csv"), "--json"])
        #expect(run.status == 0, "\(run.stderr)")
        let j = try json(run.stdout)
        let updates = try #require(j["path_updates"] as? Int), skipped = try #require(j["path_skipped"] as? Int)
        #expect(j["path_releases"] as? Int != nil)
        // Most fixes of a walk along the path constrain it; the rest are outside the corridor or gated.
        let used = try #require(j["fixes_used"] as? Int)
        #expect(updates > used / 2 && updates + skipped <= used, "path \(updates) applied, \(skipped) skipped of \(used) fixes")
        // The same path as an untimed GPX track (what an outdoor planner exports): the same lines,
        // so the same estimates, byte for byte, and the same JSON.
        let tour = try GeoJSONFeatureCollection.read(contentsOf: URL(fileURLWithPath: path("tour.geojson")))
        let lines = try PathConstraint(geoJSON: tour).lines
        var gpx = "<?xml version=\"1.0\"?>\r\n<gpx version=\"1.1\" creator=\"test\" xmlns=\"http://www.topografix.com/GPX/1/1\">\r\n<trk>"
        for l in lines {
            gpx += "<trkseg>\r\n" + l.map { "<trkpt lat=\"\($0.latitude)\" lon=\"\($0.longitude)\"></trkpt>\r\n" }.joined() + "</trkseg>"
        }
        gpx += "</trk></gpx>\r\n"
        let gpxPath = try temporaryFile("tour.gpx", gpx)
        let viaGPX = try geobench(["align", "--tracking", path("trk.csv"), "--fixes", path("raw.csv"), "--compass", path("cmp.csv"),
                                   "--path", gpxPath, "--path-sigma", "1.5", "--output", path("o2g.csv"), "--json"])
        #expect(viaGPX.status == 0, "\(viaGPX.stderr)")
        #expect(viaGPX.stdout == run.stdout)
        #expect(try String(contentsOfFile: path("o2g.csv"), encoding: .utf8) == String(contentsOfFile: path("o2.csv"), encoding: .utf8))
        // The same lines as an OpenStreetMap file's footways, beside a motorway that is left out
        // (a street map: `--path FILE.osm`): the same estimates, and stderr says what was used.
        var osm = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<osm version=\"0.6\" generator=\"test\">\n"
        var ways = "", id = 1
        for (k, l) in lines.enumerated() {
            ways += " <way id=\"\(k + 1)\">\n"
            for p in l {
                osm += " <node id=\"\(id)\" lat=\"\(p.latitude)\" lon=\"\(p.longitude)\"/>\n"
                ways += "  <nd ref=\"\(id)\"/>\n"
                id += 1
            }
            ways += "  <tag k=\"highway\" v=\"footway\"/>\n </way>\n"
        }
        osm += " <node id=\"\(id)\" lat=\"50.09\" lon=\"14.40\"/>\n <node id=\"\(id + 1)\" lat=\"50.09\" lon=\"14.43\"/>\n"
        ways += " <way id=\"999\"><nd ref=\"\(id)\"/><nd ref=\"\(id + 1)\"/><tag k=\"highway\" v=\"motorway\"/></way>\n"
        let osmPath = try temporaryFile("streets.osm", osm + ways + "</osm>\n")
        let viaOSM = try geobench(["align", "--tracking", path("trk.csv"), "--fixes", path("raw.csv"), "--compass", path("cmp.csv"),
                                   "--path", osmPath, "--path-sigma", "1.5", "--output", path("o2o.csv"), "--json"])
        #expect(viaOSM.status == 0 && viaOSM.stdout == run.stdout, "\(viaOSM.stderr)")
        #expect(viaOSM.stderr.contains("\(lines.count) walkable way(s) used as paths; left out (not walkable): highway=motorway 1"), "\(viaOSM.stderr)")
        #expect(try String(contentsOfFile: path("o2o.csv"), encoding: .utf8) == String(contentsOfFile: path("o2.csv"), encoding: .utf8))
        let badGPX = try temporaryFile("bad.gpx", "<gpx version=\"1.1\"><trk><trkseg>\n<trkpt lat=\"95\" lon=\"14\"/></trkseg></trk></gpx>\n")
        let bad = try geobench(["align", "--tracking", path("trk.csv"), "--fixes", path("raw.csv"), "--path", badGPX, "--output", path("o5.csv")])
        #expect(bad.status == 2 && bad.stderr.contains("\(badGPX):2:"), "\(bad.stderr)")
        let badSigma = try geobench(["align", "--tracking", path("trk.csv"), "--fixes", path("raw.csv"), "--path", path("tour.geojson"),
                                     "--path-sigma", "0", "--output", path("o3.csv")])
        #expect(badSigma.status == 2 && badSigma.stderr.contains("--path-sigma"), "\(badSigma.stderr)")
        // --map-sigma: the drawn path's own error, estimated per walked segment (16 states): the
        // path still constrains most fixes, the estimates change; a negative σ exits 2 naming it.
        let mapped = try geobench(["align", "--tracking", path("trk.csv"), "--fixes", path("raw.csv"), "--compass", path("cmp.csv"),
                                   "--path", path("tour.geojson"), "--map-sigma", "2", "--output", path("o6.csv"), "--json"])
        #expect(mapped.status == 0, "\(mapped.stderr)")
        let mj = try json(mapped.stdout)
        #expect(try #require(mj["path_updates"] as? Int) > used / 2)
        #expect(try String(contentsOfFile: path("o6.csv"), encoding: .utf8) != String(contentsOfFile: path("o2.csv"), encoding: .utf8))
        let badMap = try geobench(["align", "--tracking", path("trk.csv"), "--fixes", path("raw.csv"), "--path", path("tour.geojson"),
                                   "--map-sigma=-0.5", "--output", path("o7.csv")])
        #expect(badMap.status == 2 && badMap.stderr.contains("--map-sigma"), "\(badMap.stderr)")
        // The receiver's GNSS error model: stated values change the estimates; out of range exits 2 naming the options.
        let tuned = try geobench(["align", "--tracking", path("trk.csv"), "--fixes", path("raw.csv"), "--compass", path("cmp.csv"),
                                  "--gnss-long-share", "0", "--gnss-correlation-time", "15", "--output", path("o8.csv")])
        #expect(tuned.status == 0, "\(tuned.stderr)")
        #expect(try String(contentsOfFile: path("o8.csv"), encoding: .utf8) != String(contentsOfFile: path("o2.csv"), encoding: .utf8))
        let badShare = try geobench(["align", "--tracking", path("trk.csv"), "--fixes", path("raw.csv"),
                                     "--gnss-long-share", "1.5", "--output", path("o9.csv")])
        #expect(badShare.status == 2 && badShare.stderr.contains("--gnss-long-share") && badShare.stderr.contains("gnssLongShare"), "\(badShare.stderr)")
        // --gnss-correlated-fraction: a mostly white receiver error changes the estimates; beyond 1 exits 2 naming it.
        let white = try geobench(["align", "--tracking", path("trk.csv"), "--fixes", path("raw.csv"), "--compass", path("cmp.csv"),
                                  "--gnss-long-share", "0", "--gnss-correlated-fraction", "0.1", "--output", path("o10.csv")])
        #expect(white.status == 0, "\(white.stderr)")
        #expect(try String(contentsOfFile: path("o10.csv"), encoding: .utf8) != String(contentsOfFile: path("o8.csv"), encoding: .utf8))
        let badFraction = try geobench(["align", "--tracking", path("trk.csv"), "--fixes", path("raw.csv"),
                                        "--gnss-correlated-fraction", "1.2", "--output", path("o11.csv")])
        #expect(badFraction.status == 2 && badFraction.stderr.contains("--gnss-correlated-fraction") && badFraction.stderr.contains("gnssCorrelatedFraction"),
                "\(badFraction.stderr)")
        // --gnss-long-correlation-time: a receiver whose error lasts ten minutes changes the estimates; 0 exits 2 naming it.
        let long = try geobench(["align", "--tracking", path("trk.csv"), "--fixes", path("raw.csv"), "--compass", path("cmp.csv"),
                                 "--gnss-long-correlation-time", "600", "--output", path("o12.csv")])
        #expect(long.status == 0, "\(long.stderr)")
        #expect(try String(contentsOfFile: path("o12.csv"), encoding: .utf8) != String(contentsOfFile: path("o2.csv"), encoding: .utf8))
        let badLong = try geobench(["align", "--tracking", path("trk.csv"), "--fixes", path("raw.csv"),
                                    "--gnss-long-correlation-time", "0", "--output", path("o13.csv")])
        #expect(badLong.status == 2 && badLong.stderr.contains("--gnss-long-correlation-time") && badLong.stderr.contains("gnssLongCorrelationTime"),
                "\(badLong.stderr)")
        let empty = try temporaryFile("empty.geojson", #"{"type":"FeatureCollection","features":[]}"#)
        let noLines = try geobench(["align", "--tracking", path("trk.csv"), "--fixes", path("raw.csv"), "--path", empty, "--output", path("o4.csv")])
        #expect(noLines.status == 2 && noLines.stderr.contains(empty), "\(noLines.stderr)")
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
        // A plots folder that cannot be made (under a regular file) is an error naming it, before any section runs.
        let file = try temporaryFile("not-a-folder", "x")
        let bad = try geobench(["report", "--only", "geo-registration", "--plots", file + "/plots"])
        #expect(bad.status != 0 && bad.stderr.contains(file + "/plots") && !bad.stdout.contains("## Anchoring"), "\(bad.stderr)")
    }

    /// Without `--plots` the section names the option instead of writing plots. A test of its
    /// own (not a second run inside the one above), so the two runs of the section — the
    /// longest in a debug build — go in parallel with each other.
    @Test func reportWithoutPlotsNamesTheOption() throws {
        let plain = try geobench(["report", "--only", "geo-registration"])
        #expect(plain.status == 0 && plain.stdout.contains("geobench report --plots DIR") && !plain.stdout.contains("    plot: "), "\(plain.stderr)")
    }
}

extension GeobenchInterfaceTests {
    /// `align --fixes` on a GPX track another tool wrote (gpxpy's cerknicko-jezero.gpx: a 2 h
    /// walk, 296 points ≈ 8 s apart, no accuracy, no HDOP, one 92 m/s glitch) with tracking made
    /// from the same points (10 Hz, linear between them) in a session whose −z looked at 40°.
    /// The fixes are used with the assumed σ (counted in fixes_without_accuracy, noted on
    /// stderr), not dropped; the heading offset comes out as the construction's 40° (tolerance
    /// 2°: the tracking is the fixes' own path, so only the glitch and the interpolation differ).
    @Test(.enabled(if: SharedData.shouldRun)) func alignOnThirdPartyGPX() throws {
        let gpx = SharedData.url("gpx/gpxpy_test_files/cerknicko-jezero.gpx")
        let fixes = try TraceReader.load(url: gpx).fixes
        #expect(fixes.count == 296 && fixes.allSatisfy { $0.horizontalAccuracy == nil && $0.hdop == nil })
        let frame = try LocalTangentFrame(origin: GeodeticCoordinate(latitude: fixes[0].latitude, longitude: fixes[0].longitude, ellipsoidalHeight: 0))
        let enu = fixes.map { frame.enu(latitude: $0.latitude, longitude: $0.longitude, ellipsoidalHeight: 0) }
        let psi = 40.0
        let (sinPsi, cosPsi): (Double, Double) = Angle.sincos(degrees: psi)
        // The points joined by straight lines, at 10 Hz, then averaged over 4 s (centered): the
        // polyline's corners are instant velocity changes (up to 9 m/s: parts are ridden), which
        // no device makes and the jump rule rightly flags.
        var times: [Double] = [], path: [SIMD2<Double>] = []
        var j = 0
        var t = fixes[0].time
        while t <= fixes[fixes.count - 1].time {
            while j + 1 < fixes.count - 1 && fixes[j + 1].time <= t { j += 1 }
            let f: Double = (t - fixes[j].time) / Swift.max(fixes[j + 1].time - fixes[j].time, 1e-9)
            path.append(SIMD2(enu[j].east + f * (enu[j + 1].east - enu[j].east), enu[j].north + f * (enu[j + 1].north - enu[j].north)))
            times.append(t)
            t += 0.1
        }
        var sum = SIMD2<Double>(0, 0), smooth: [SIMD2<Double>] = []
        var prefix: [SIMD2<Double>] = [sum]
        for p in path { sum += p; prefix.append(sum) }
        for i in path.indices {
            let lo = Swift.max(0, i - 20), hi = Swift.min(path.count, i + 21)
            smooth.append((prefix[hi] - prefix[lo]) / Double(hi - lo))
        }
        var csv = "time,x,y,z,yaw\n"
        var heading = 0.0
        for i in smooth.indices {
            let d = smooth[Swift.min(i + 1, smooth.count - 1)] - smooth[Swift.max(i - 1, 0)]
            if (d * d).sum() > 1e-6 { heading = Angle.normalizeHeading(Angle.atan2Degrees(d.x, d.y)) }
            let e = smooth[i].x, n = smooth[i].y
            let forward: Double = e * sinPsi + n * cosPsi, right: Double = e * cosPsi - n * sinPsi
            csv += String(format: "%.2f,%.4f,0,%.4f,%.3f\n", times[i], right, -forward, Angle.difference(from: psi, to: heading))
        }
        let tracking = try temporaryFile("cerknica-tracking.csv", csv)
        let out = tracking + ".out.csv"
        defer { try? FileManager.default.removeItem(atPath: out) }
        let r = try geobench(["align", "--tracking", tracking, "--fixes", gpx.path, "--output", out, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        let j2 = try json(r.stdout)
        let used = try #require(j2["fixes_used"] as? Int), without = try #require(j2["fixes_without_accuracy"] as? Int)
        #expect(used > 250 && without >= used, "used \(used), without accuracy \(without)")
        #expect(r.stderr.contains("fixes without a horizontal accuracy"))
        let rows = try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").dropFirst()
        #expect(rows.count > 50_000)
        // heading_offset (last column) over the second half of the walk.
        let offsets: [Double] = rows.suffix(rows.count / 2).compactMap { row in row.split(separator: ",").last.flatMap { Double(String($0)) } }
        let worst = offsets.map { Swift.abs(Angle.difference(from: psi, to: $0)) }.max() ?? .infinity
        #expect(worst <= 2, "heading offset off by up to \(worst)°")
    }
}

/// A fresh temporary directory for one align test (removed by `remove()`); `path(name)` is a
/// file in it.
struct AlignScratch {
    let url: URL
    init(_ prefix: String) throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }
    func path(_ name: String) -> String { url.appendingPathComponent(name).path }
    func remove() { try? FileManager.default.removeItem(at: url) }
}
