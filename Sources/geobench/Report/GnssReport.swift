import Foundation
import GeoAnchorKit

/// Raw GNSS section: positions computed from the Pixel 5's own RINEX measurements (GSDC 2021
/// MTV-1, first 40 %, in ../shared/data/gnss_raw) against the SPAN ground truth, per mode and
/// orbit source; broadcast vs SP3 GPS orbits; reading and solving speed. Skipped without
/// ../shared/data (the raw files are third-party data, not shipped in traces/).
enum GnssReport: ReportSection {
    static let title = "Raw GNSS: positions from phone measurements"

    static func run(_ context: ReportContext) throws -> [String] {
        guard let shared = context.sharedDataDirectory else {
            return ["  ../shared/data not present: skipped (needs gnss_raw/)"]
        }
        let dir = shared.appendingPathComponent("gnss_raw/gsdc2021_mtv1_pixel5_part1")
        let obsURL = dir.appendingPathComponent("Pixel5_GnssLog_part1.21o")
        let sp3URL = shared.appendingPathComponent("gnss_raw/orbits_2021_118/COD0MGXFIN_20211180000_01D_05M_ORB.SP3")
        guard FileManager.default.fileExists(atPath: obsURL.path) else { return ["  gnss_raw/ missing: skipped"] }
        var lines: [String] = []
        var cleanUnresolved = 0, singleUnresolved = 0
        context.progress("raw GNSS: reading")
        var t0 = Date()
        let obs = try RinexObservationFile.read(contentsOf: obsURL)
        let readObs = Date().timeIntervalSince(t0)
        t0 = Date()
        let nav = try RinexNavigationFile.read(contentsOf: dir.appendingPathComponent("hour1180.21n"))
        let sp3 = try PreciseOrbit.read(contentsOf: sp3URL)
        let readOrbits = Date().timeIntervalSince(t0)
        let truth = try GNSSReferenceTrack.read(contentsOf: dir.appendingPathComponent("ground_truth_part1.csv"))
        let nObs = obs.epochs.reduce(0) { $0 + $1.observations.count }
        lines.append(String(format: "  Pixel 5, GSDC 2021 MTV-1 part 1: %d epochs, %d signal records read in %.3f s; nav (%d ephemerides) + SP3 (%d satellites) in %.3f s",
                            obs.epochs.count, nObs, readObs, nav.count, sp3.positions.count, readOrbits))
        // Broadcast vs precise GPS orbits over the drive's hour.
        let tStart = obs.epochs.first?.time ?? 0
        var sq = 0.0, n = 0
        for k in 0...12 {
            let t = tStart + Double(k) * 300
            for prn in 1...32 {
                let s = SatelliteID(system: .gps, number: prn)
                guard let e = nav.ephemeris(for: s, at: t), let p = sp3.state(of: s, at: t) else { continue }
                let d = e.state(at: t).position - p.position
                sq += (d * d).sum(); n += 1
            }
        }
        lines.append(String(format: "  GPS broadcast orbits vs CODE MGEX SP3 over the drive's hour: 3D RMS %.2f m (%d satellite-epochs)",
                            n > 0 ? (sq / Double(n)).squareRoot() : .nan, n))
        lines.append("  horizontal error vs NovAtel SPAN (m); GSDC score = mean(p50, p95); target in brackets (issue 19)")
        lines.append("    orbits / systems            mode     solved     p50     p95   score   target   epochs/s   within stated 68 % (0.68 honest)")
        let gpsOnly: GNSSSolverConfiguration = { var c = GNSSSolverConfiguration(); c.systems = [.gps]; return c }()
        let dualFrequency: GNSSSolverConfiguration = { var c = GNSSSolverConfiguration(); c.ionosphereFreeCombination = true; return c }()
        let runs: [(String, SatelliteEphemerides, GNSSSolverConfiguration, GNSSProcessingMode, String)] = [
            ("nav + SP3, GPS+GLO+GAL", SatelliteEphemerides(navigation: nav, precise: sp3), .init(), .wls, "5.0"),
            ("nav + SP3, GPS+GLO+GAL", SatelliteEphemerides(navigation: nav, precise: sp3), .init(), .filter, "3.5"),
            ("nav + SP3, GPS+GLO+GAL", SatelliteEphemerides(navigation: nav, precise: sp3), .init(), .smooth, "3.0"),
            ("GPS broadcast only", SatelliteEphemerides(navigation: nav), gpsOnly, .wls, "13"),
            ("GPS broadcast only", SatelliteEphemerides(navigation: nav), gpsOnly, .smooth, "-"),
            // The dual-frequency option (ionosphere-free L1/L5 where a satellite has both), for comparison.
            ("nav + SP3, iono-free L1/L5", SatelliteEphemerides(navigation: nav, precise: sp3), dualFrequency, .wls, "-"),
        ]
        for (name, eph, cfg, mode, target) in runs {
            context.progress("raw GNSS: \(name) \(mode.rawValue)")
            let start = Date()
            let r = GNSSProcessor(ephemerides: eph, configuration: cfg).run(obs.epochs, mode: mode)
            let sec = Date().timeIntervalSince(start)
            cleanUnresolved += r.statistics.unresolvedBiasEpochs
            let a = GNSSAccuracySummary(fixes: r.fixes, reference: truth)
            lines.append(String(format: "    %@ %@ %5.1f %% %7.2f %7.2f %7.2f %@ %10.0f   %5.0f %%",
                                name.padding(toLength: 27, withPad: " ", startingAt: 0) as NSString,
                                mode.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0) as NSString,
                                100 * a.solvedFraction, a.p50, a.p95, a.score, ("≤ " + target).padding(toLength: 8, withPad: " ", startingAt: 0) as NSString, Double(r.statistics.epochsRead) / sec,
                                100 * (a.withinAccuracy ?? .nan)))
        }
        // The filter's accuracy floor (GNSSFilterConfiguration.correlatedErrorShare; off by
        // default, README: Raw GNSS), nav + SP3: how honest its radius is with it.
        do {
            let processor = GNSSProcessor(ephemerides: SatelliteEphemerides(navigation: nav, precise: sp3), configuration: .init())
            var floored = GNSSFilterConfiguration()
            floored.correlatedErrorShare = 0.2
            let f = GNSSAccuracySummary(fixes: processor.filterEpochs(obs.epochs, smooth: false, filter: floored).fixes, reference: truth)
            let m = GNSSAccuracySummary(fixes: processor.filterEpochs(obs.epochs, smooth: true, filter: floored).fixes, reference: truth)
            lines.append(String(format: "    nav + SP3 filter / smooth with GNSSFilterConfiguration.correlatedErrorShare 0.2 (not the default): within stated 68 %% %.0f %% / %.0f %%, positions unchanged",
                                100 * (f.withinAccuracy ?? .nan), 100 * (m.withinAccuracy ?? .nan)))
        }
        lines.append("    RTKLIB 2.4.3 single point (GPS L1, whole drive, SOURCES.md): 73 % solved, p50 7.3, p95 24.3, score 15.8")
        // A satellite error too small for one epoch's fault test: every record of G25's clock
        // 0.3 µs (90 m) off, against the same run without the bias monitor and without G25.
        context.progress("raw GNSS: faulty satellite")
        // Every record of `satellite`'s clock 0.3 µs (90 m) off, or the satellite removed.
        func clockOff(_ n: RinexNavigationFile, _ satellite: SatelliteID) -> RinexNavigationFile {
            var n = n
            n.ephemerides[satellite] = nav.ephemerides[satellite]?.map { e in var e = e; e.af0 += 3e-7; return e }
            return n
        }
        func removed(_ n: RinexNavigationFile, _ satellite: SatelliteID) -> RinexNavigationFile {
            var n = n
            n.ephemerides[satellite] = nil
            return n
        }
        func run(_ n: RinexNavigationFile, _ mode: GNSSProcessingMode, monitor: GNSSBiasMonitor = GNSSBiasMonitor())
            -> (score: Double, statistics: GNSSRunStatistics) {
            var processor = GNSSProcessor(ephemerides: SatelliteEphemerides(navigation: n), configuration: gpsOnly)
            processor.biasMonitor = monitor
            let r = processor.run(obs.epochs, mode: mode)
            return (GNSSAccuracySummary(fixes: r.fixes, reference: truth).score, r.statistics)
        }
        let g25 = SatelliteID(system: .gps, number: 25), g06 = SatelliteID(system: .gps, number: 6)
        let faulty = clockOff(nav, g25), without = removed(nav, g25)
        let off = try GNSSBiasMonitor(maximumExcluded: 0)
        lines.append("  G25's clock 0.3 µs off in every record (90 m, under one epoch's χ² test), GPS broadcast; bias monitor (GNSSBiasMonitor):")
        for mode in [GNSSProcessingMode.wls, .filter, .smooth] {
            let on = run(faulty, mode)
            let exclusions = on.statistics.biasExclusions
            singleUnresolved += on.statistics.unresolvedBiasEpochs
            lines.append(String(format: "    %@ score %.1f m, monitor off %.1f m, without G25 %.1f m; %d exclusion%@",
                                mode.rawValue.padding(toLength: 7, withPad: " ", startingAt: 0) as NSString, on.score,
                                run(faulty, mode, monitor: off).score, run(without, mode).score, exclusions, exclusions == 1 ? "" : "s"))
        }
        // Two faulty satellites: beyond the one-at-a-time model, which the run reports.
        let two = run(clockOff(faulty, g06), .wls), reference = run(removed(without, g06), .wls)
        lines.append(String(format: "  G06 and G25 both 0.3 µs off (two faulty satellites, not isolated: good ones look biased): wls score %.1f m (without both %.1f m);",
                            two.score, reference.score))
        lines.append(String(format: "    the run says so: %d of %d epochs with a bias the monitor could not exclude (bias_unresolved_epochs; clean runs above %d, G25 alone %d)",
                            two.statistics.unresolvedBiasEpochs, two.statistics.epochsRead, cleanUnresolved, singleUnresolved))
        context.progress("raw GNSS: Google's satellite states")
        lines += Self.googleStateLines(shared)
        let fixtures = context.tracesDirectory.deletingLastPathComponent().appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/GNSS")
        if let ubx = try Self.uBloxLines(fixtures.appendingPathComponent("pixel5.first30.rawx.ubx"), navigation: nav, truth: truth) { lines += ubx }
        return lines
    }

    /// A u-blox receiver's log (the drive's first 30 s as RXM-RAWX + RXM-SFRBX,
    /// scripts/dev/ubx_raw_fixtures.py) positioned with its own GPS subframes, against the same
    /// epochs with the drive's navigation file, and written as RINEX 3.04 and read back. Nil
    /// without the fixture (a `--traces` folder outside the repository).
    static func uBloxLines(_ url: URL, navigation: RinexNavigationFile, truth: GNSSReferenceTrack) throws -> [String]? {
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let log = try UBXRawLog.read(contentsOf: url)
        var gps = GNSSSolverConfiguration()
        gps.systems = [.gps]
        let own = GNSSProcessor(ephemerides: SatelliteEphemerides(navigation: log.navigation), configuration: gps).run(log.epochs, mode: .wls)
        let file = GNSSProcessor(ephemerides: SatelliteEphemerides(navigation: navigation), configuration: gps).run(log.epochs, mode: .wls)
        var worst = 0.0
        for (a, b) in zip(own.fixes, file.fixes) {
            let frame = try LocalTangentFrame(origin: GeodeticCoordinate(latitude: b.latitude, longitude: b.longitude, ellipsoidalHeight: b.height ?? 0))
            let d = frame.enu(latitude: a.latitude, longitude: a.longitude, ellipsoidalHeight: a.height ?? 0)
            worst = max(worst, (d.east * d.east + d.north * d.north).squareRoot())
        }
        let accuracy = GNSSAccuracySummary(fixes: own.fixes, reference: truth)
        let rinex = RinexObservationWriter.text(epochs: log.epochs, glonassChannels: log.glonassChannels)
        let back = try RinexObservationFile.read(data: Data(rinex.text.utf8), source: "rinex")
        return [
            "  u-blox receiver log (the drive's first 30 s as RXM-RAWX + RXM-SFRBX, pyubx2; Tests/GeoAnchorKitTests/Fixtures/GNSS):",
            String(format: "    %d epochs, %d measurements; its own GPS subframes: %d ephemerides%@; GPS wls %d/%d solved, p50 %.2f m, p95 %.2f m; vs hour1180.21n max |Δ| %.2f mm",
                   log.epochs.count, log.measurements, log.navigation.count, log.navigation.klobuchar == nil ? "" : " + Klobuchar",
                   own.statistics.epochsSolved, own.statistics.epochsRead, accuracy.p50, accuracy.p95, worst * 1000),
            String(format: "    as RINEX 3.04 (RinexObservationWriter): %d epochs, %d satellite records, %d values unrepresentable; read back %d epochs",
                   rinex.epochs, rinex.satelliteRecords, rinex.unrepresentable, back.epochs.count),
        ]
    }

    /// GSDC files carrying Google's satellite states and corrections (``GSDCDeviceGNSS``: no
    /// orbits needed) against their NovAtel truth: gnss_lib_py's samples, a few epochs each.
    static func googleStateLines(_ shared: URL) -> [String] {
        let samples: [(String, String, String)] = [
            ("2020 MTV-1 Pixel 4, 2021 _derived.csv", "gnss_traces/gnss_lib_py_samples/google_decimeter_2021/Pixel4_derived.csv",
             "gnss_traces/gnss_lib_py_samples/google_decimeter_2021/Pixel4_ground_truth.csv"),
            ("2021 SJC-1 Pixel 4, _derived.csv (clock discontinuity)", "gnss_raw/gnss_lib_py_more/Pixel4_derived_clkdiscnt.csv",
             "gnss_raw/gnss_lib_py_more/Pixel4_ground_truth_clkdiscnt.csv"),
            ("2023 Pixel 7 Pro, device_gnss.csv", "gnss_traces/gnss_lib_py_samples/google_decimeter_2023/2023-09-07-18-59-us-ca/pixel7pro/device_gnss.csv",
             "gnss_traces/gnss_lib_py_samples/google_decimeter_2023/2023-09-07-18-59-us-ca/pixel7pro/ground_truth.csv"),
        ]
        var out = ["  GSDC files with Google's satellite states (GSDCDeviceGNSS, no orbits), horizontal error vs NovAtel truth (m):"]
        let processor = GNSSProcessor(ephemerides: SatelliteEphemerides(), configuration: GSDCDeviceGNSS.solverConfiguration)
        for (name, file, truthFile) in samples {
            do {
                let device = try GSDCDeviceGNSS.read(contentsOf: shared.appendingPathComponent(file))
                let truth = try GNSSReferenceTrack.read(contentsOf: shared.appendingPathComponent(truthFile))
                let wlsFixes = processor.run(device, mode: .wls).fixes
                let wls = GNSSAccuracySummary(fixes: wlsFixes, reference: truth)
                let filter = GNSSAccuracySummary(fixes: processor.run(device, mode: .filter).fixes, reference: truth)
                out.append(String(format: "    %@ %2d epochs: wls p50 %.2f, p95 %.2f; filter p50 %.2f, p95 %.2f",
                                  name.padding(toLength: 55, withPad: " ", startingAt: 0) as NSString, device.epochs.count,
                                  wls.p50, wls.p95, filter.p50, filter.p95))
                // A recording gap (a phone clock discontinuity): the WLS on either side of it.
                if let k = wlsFixes.indices.dropFirst().max(by: { wlsFixes[$0].time - wlsFixes[$0 - 1].time < wlsFixes[$1].time - wlsFixes[$1 - 1].time }),
                   wlsFixes[k].time - wlsFixes[k - 1].time > 1.5 {
                    let before = GNSSAccuracySummary(fixes: Array(wlsFixes[..<k]), reference: truth)
                    let after = GNSSAccuracySummary(fixes: Array(wlsFixes[k...]), reference: truth)
                    out.append(String(format: "      wls before its %.0f-s gap p50 %.2f (%d epochs), after it p50 %.2f (%d) — see README, Raw GNSS",
                                      wlsFixes[k].time - wlsFixes[k - 1].time, before.p50, before.matched, after.p50, after.matched))
                }
            } catch {
                out.append("    \(name): \(error)")
            }
        }
        return out
    }
}
