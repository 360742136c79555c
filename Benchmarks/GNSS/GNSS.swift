import Benchmark
import Foundation
import GeoAnchorKit

// GNSS suite (issue 19): raw-GNSS reading and positioning on the Pixel 5 drive of
// ../shared/data/gnss_raw (GSDC 2021 MTV-1, first 40 %, 794 epochs), side by side with RTKLIB's
// `rnx2rtkp` single point on the same files in the same run (Debian package `rtklib`).
// Targets: the whole `wls` run (reading included) ≥ 3× faster than rnx2rtkp; ≥ 100 k WLS
// epochs/s from prepared measurements. Skipped when the shared data is absent.
//
// Measured 2026-11-25 on the shared 2-core machine under other engineers' builds (p0 wall, two
// runs each, before → after the issue-19 speed work, run alternately): obs read 34 → 25 ms;
// GPS WLS whole run incl. reading 77 → 46 ms vs rnx2rtkp 370–470 ms; WLS from prepared
// measurements 39–51 → 12–15 ms per 794 epochs, i.e. ≈ 16–20 k → 53–66 k epochs/s (the 100 k
// target is not reached). The process-level ratio (with our ≈ 24 ms start-up) is in README.md.
// 2026-11-25, second round (clocks eliminated from the normal equations, atmosphere once per
// epoch): a release timing loop over the same prepared epochs, old and new builds alternately,
// two rounds, best of 40 on a quiet machine: 17 → 9.5 ms per 794 epochs (46 k → 83 k epochs/s)
// with the previous epoch as prior (this benchmark now), 10.3 → 7.7–7.9 ms (76 k → 101–103 k)
// with the epoch's own solution as prior (its old definition). Still short of 100 k as defined
// now. This suite on the commit before the last fix (same speed within noise), p0 / p50 wall:
// WLS from prepared measurements 10 / 11 ms per 794 epochs (≈ 79 k / 71 k epochs/s), GPS WLS
// whole run incl. reading 34 / 35 ms, obs read 17 / 18 ms, rnx2rtkp process 295 / 304 ms.
// 2026-11-26 on another (faster, quiet) 2-core host, before → after the exact design rows
// (troposphere height slope + Earth rotation in the Jacobian, one-step stop below 30 m), p0 /
// p50 wall: WLS from prepared measurements 6.65 / 7.02 → 5.43 / 5.82 ms per 794 epochs
// (119 k / 113 k → 146 k / 136 k epochs/s; target met here); GPS WLS whole run 18 / 19 →
// 17 / 17 ms; obs read 9.0 / 9.3 ms (unchanged). rnx2rtkp is not installed on that host.
//
// Run: `cd Benchmarks && swift package --disable-sandbox benchmark --target GNSS`
// (GEOANCHORKIT_SHARED_DATA=/path/to/shared/data if it is not ../../shared/data).

let sharedData: URL = {
    if let env = ProcessInfo.processInfo.environment["GEOANCHORKIT_SHARED_DATA"], !env.isEmpty { return URL(fileURLWithPath: env) }
    return URL(fileURLWithPath: FileManager.default.currentDirectoryPath).appendingPathComponent("../../shared/data").standardized
}()
let drive = sharedData.appendingPathComponent("gnss_raw/gsdc2021_mtv1_pixel5_part1")
let obsURL = drive.appendingPathComponent("Pixel5_GnssLog_part1.21o")
let navURL = drive.appendingPathComponent("hour1180.21n")
let sp3URL = sharedData.appendingPathComponent("gnss_raw/orbits_2021_118/COD0MGXFIN_20211180000_01D_05M_ORB.SP3")

let benchmarks: @Sendable () -> Void = {
    guard FileManager.default.fileExists(atPath: obsURL.path) else {
        print("GNSS suite: \(obsURL.path) not found, skipped")
        return
    }
    let metrics: [BenchmarkMetric] = [.wallClock, .cpuTotal, .throughput, .peakMemoryResident, .mallocCountTotal]
    Benchmark.defaultConfiguration = .init(metrics: metrics, maxDuration: .seconds(5), maxIterations: 20)

    Benchmark("RINEX 3 obs read, 794 epochs (Pixel 5)") { benchmark in
        for _ in benchmark.scaledIterations { blackHole(try RinexObservationFile.read(contentsOf: obsURL).epochs.count) }
    }

    // The whole job of `geobench gnss --mode wls --systems G` in-process: read obs + nav, solve.
    Benchmark("GPS WLS whole run incl. reading, 794 epochs") { benchmark in
        for _ in benchmark.scaledIterations {
            let obs = try RinexObservationFile.read(contentsOf: obsURL)
            let nav = try RinexNavigationFile.read(contentsOf: navURL)
            var cfg = GNSSSolverConfiguration(); cfg.systems = [.gps]
            blackHole(GNSSProcessor(ephemerides: SatelliteEphemerides(navigation: nav), configuration: cfg).run(obs.epochs, mode: .wls).fixes.count)
        }
    }

    // rnx2rtkp on the same files (GPS L1, mask 15°, its default Klobuchar + Saastamoinen).
    if let rnx2rtkp = ["/usr/bin/rnx2rtkp", "/usr/local/bin/rnx2rtkp"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
        Benchmark("rnx2rtkp single point process, 794 epochs") { benchmark in
            let out = FileManager.default.temporaryDirectory.appendingPathComponent("gnss-bench-rtklib.pos").path
            for _ in benchmark.scaledIterations {
                let p = Process()
                p.executableURL = URL(fileURLWithPath: rnx2rtkp)
                p.arguments = ["-p", "0", "-f", "1", "-m", "15", "-sys", "G", "-o", out, obsURL.path, navURL.path]
                p.standardError = FileHandle.nullDevice; p.standardOutput = FileHandle.nullDevice
                try p.run(); p.waitUntilExit()
                blackHole(p.terminationStatus)
            }
        }
    }

    // WLS from prepared measurements (satellite states computed beforehand), multi-GNSS with SP3:
    // the estimator alone; throughput = epochs/s (scalingFactor 794 per iteration). Each epoch
    // starts from the previous epoch's solution, as `GNSSProcessor` runs it (starting from the
    // epoch's own solution, as this benchmark did before 2026-11-25, needs one pass fewer).
    Benchmark("WLS from prepared measurements, nav + SP3 (794 epochs per iteration)") { benchmark in
        let obs = try RinexObservationFile.read(contentsOf: obsURL)
        let eph = SatelliteEphemerides(navigation: try RinexNavigationFile.read(contentsOf: navURL), precise: try PreciseOrbit.read(contentsOf: sp3URL))
        let solver = GNSSPositionSolver(ephemerides: eph)
        var skipped: [GNSSSkipReason: Int] = [:]
        let prepared = obs.epochs.map { eph.prepare($0, systems: solver.configuration.systems, minimumCN0: solver.configuration.minimumCN0, skipped: &skipped) }
        let solutions = obs.epochs.indices.map { i -> SIMD3<Double>? in
            if case .success(let s) = solver.solve(prepared[i], time: obs.epochs[i].time, prior: nil, skipped: &skipped) { return s.position }
            return nil
        }
        let priors = [nil] + solutions.dropLast()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            var n = 0
            for i in prepared.indices {
                if case .success(let s) = solver.solve(prepared[i], time: obs.epochs[i].time, prior: priors[i], skipped: &skipped) { n &+= s.satellitesUsed }
            }
            blackHole(n)
        }
    }
}
