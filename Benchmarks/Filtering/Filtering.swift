import Benchmark
import Foundation
import GeoAnchorKit

// Filtering speed targets (issue 4; issue 14 for the adaptive model):
//  - ≥ 5,000,000 adaptive (4-mode interacting multiple model, the default) filter steps/s on one
//    core — "PositionFilter.step adaptive" below; FilterPy (scripts/dev/filterpy_speed.py) does
//    one single-model step at ~22,000 steps/s on the development machine. Reached 2026-11-27 (below); earlier:
//    (release timing loop over these 100k steps, previous and current code alternating, three
//    times each, median of 15 runs, shared 2-core VM in a slow phase) 1,005–1,071 → 709–762 ns
//    per adaptive step (≈ 1.4×; ≈ 50 ms per iteration, 2 M steps/s, at the 67–73 ms this
//    benchmark measured for the previous code) and 296–300 → 197–203 ns per walking-preset step;
//    the four modes' two-lane arithmetic (> 1,000 SSE2 vector operations per step) is the floor.
//    2026-11-26 on a faster quiet host, after removing the per-step state copies and the repeated
//    P hᵀ: 367 → 297 ns per adaptive step (2.7 → 3.4 M steps/s), bit-identical results; this
//    suite's p0 before the change on that host: 38 ms per iteration (2.6 M steps/s). Then (same
//    host, README "Fourth round"): 303 → 227 ns per adaptive step (4.4 M steps/s); this suite's
//    p0 31 → 23 ms per iteration (p50 25 ms), results unchanged to rounding. 2026-11-27 (same
//    host, README "Fifth round"): 226 → 191 ns per adaptive step (5.2 M steps/s); this suite's
//    p0, p25 and p50 20 ms per iteration (throughput p0 51 = 5.1 M steps/s in each of five runs,
//    p50 46–50 = 4.6–5.0 M steps/s with the shared VM's load), bit-identical results;
//  - ≥ 10,000,000 position-filter steps/s on one core (FilterPy manages ~45,000; on the
//    development machine `python3 scripts/dev/filterpy_speed.py` measures FilterPy 2.0 doing
//    the same step at 22,000 steps/s, against 13 M for "PositionFilter.step" below);
//  - a one-hour 10 Hz trace (36,000 fixes) filtered and smoothed in ≤ 20 ms.
// Inputs are generated deterministically before startMeasurement().

/// A deterministic walk sampled at `rate` Hz with white GNSS noise and 2 % outliers.
func syntheticMeasurements(count: Int, rate: Double) -> [LocalMeasurement] { syntheticWalk(count: count, rate: rate).measurements }

/// The walk's measurements and its true (east, north) positions.
func syntheticWalk(count: Int, rate: Double) -> (measurements: [LocalMeasurement], truth: [SIMD2<Double>]) {
    var s: UInt64 = 0x5EED
    func u() -> Double { s = s &* 6364136223846793005 &+ 1442695040888963407; return Double(s >> 11) * 0x1p-53 }
    func g() -> Double { (-2 * log(max(u(), 1e-300))).squareRoot() * cos(2 * .pi * u()) }
    var e = 0.0, n = 0.0, h = 0.0
    var out: [LocalMeasurement] = [], truth: [SIMD2<Double>] = []
    out.reserveCapacity(count)
    truth.reserveCapacity(count)
    for i in 0..<count {
        let t = Double(i) / rate
        h += 0.02 * g()
        e += 1.4 * sin(h) / rate; n += 1.4 * cos(h) / rate
        truth.append(SIMD2(e, n))
        let jump = u() < 0.02 ? 80.0 : 0
        out.append(LocalMeasurement(time: 1_700_000_000 + t, east: e + 3 * g() + jump, north: n + 3 * g(),
                                    horizontalSigma: 3, height: 30 + 4 * g(), heightSigma: 4, verticalReference: .ellipsoid))
    }
    return (out, truth)
}

func syntheticFixes(count: Int, rate: Double) -> [Fix] {
    let frame = try! LocalTangentFrame(origin: GeodeticCoordinate(latitude: 48.8566, longitude: 2.3522, ellipsoidalHeight: 0))
    return syntheticMeasurements(count: count, rate: rate).map { m in
        let g = frame.geodetic(east: m.east, north: m.north, up: 0)
        return Fix(time: m.time, latitude: g.latitude, longitude: g.longitude, ellipsoidalHeight: m.height,
                   horizontalAccuracy: 4.5, verticalAccuracy: 4)
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .cpuTotal, .throughput, .mallocCountTotal],
                                           maxDuration: .seconds(3), maxIterations: 1_000)

    // One "step" = predict + gated 2-D position update + height update, in the local frame.
    // Each iteration runs 100,000 steps: steps/s = 100,000 / (time per iteration).
    let steps = syntheticMeasurements(count: 100_000, rate: 10)
    Benchmark("PositionFilter.step (local ENU), 100k steps per iteration") { benchmark in
        for _ in benchmark.scaledIterations {
            var f = PositionFilter(configuration: .walking)
            for m in steps { blackHole(f.step(m)) }
        }
    }

    // The default adaptive model (IMM over four modes): the same 100,000 steps.
    Benchmark("PositionFilter.step adaptive (local ENU), 100k steps per iteration") { benchmark in
        for _ in benchmark.scaledIterations {
            var f = PositionFilter(configuration: .adaptive)
            for m in steps { blackHole(f.step(m)) }
        }
    }

    // Whole geodetic path: Fix → ENU → filter → geodetic FilteredFix (100,000 fixes).
    let fixes = syntheticFixes(count: 100_000, rate: 10)
    Benchmark("PositionFilter.process (Fix in, FilteredFix out), 100k fixes per iteration") { benchmark in
        for _ in benchmark.scaledIterations {
            var f = PositionFilter(configuration: .walking)
            for fix in fixes { blackHole(f.process(fix)) }
        }
    }

    // One hour at 10 Hz, filtered and RTS-smoothed offline (estimates in the local frame).
    let hour = syntheticFixes(count: 36_000, rate: 10)
    Benchmark("PositionFilter.track adaptive smooth, 1 h at 10 Hz (36,000 fixes)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(PositionFilter.track(hour, configuration: .adaptive, smooth: true))
        }
    }
    Benchmark("PositionFilter.track smooth, 1 h at 10 Hz (36,000 fixes)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(PositionFilter.track(hour, configuration: .walking, smooth: true))
        }
    }

    // The same plus converting the 36,000 smoothed estimates back to latitude/longitude.
    Benchmark("PositionFilter.track smooth + geodetic output, 1 h at 10 Hz") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(PositionFilter.track(hour, configuration: .walking, smooth: true).smoothed)
        }
    }

    // Path-aided (PathConstraint): the same hour with the true walk drawn as a 500-vertex path
    // (a vertex every 7.2 s); the joint 8-state filter plus a segment search per step.
    let frame = try! LocalTangentFrame(origin: GeodeticCoordinate(latitude: 48.8566, longitude: 2.3522, ellipsoidalHeight: 0))
    let walkTruth = syntheticWalk(count: 36_000, rate: 10).truth
    let vertices = stride(from: 0, to: walkTruth.count, by: 72).map { i -> GeodeticCoordinate in
        let g = frame.geodetic(east: walkTruth[i].x, north: walkTruth[i].y, up: 0)
        return GeodeticCoordinate(latitude: g.latitude, longitude: g.longitude)
    }
    let path = try! PathConstraint(lines: [vertices])
    Benchmark("PositionFilter.track path-aided, 1 h at 10 Hz, 500-vertex path") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(PositionFilter.track(hour, configuration: .walking, smooth: false, path: path))
        }
    }
    Benchmark("PositionFilter.track path-aided smooth, 1 h at 10 Hz, 500-vertex path") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(PositionFilter.track(hour, configuration: .walking, smooth: true, path: path))
        }
    }

    // Heading filter: gyro predict + compass update, 100,000 per iteration.
    Benchmark("HeadingFilter predict+update, 100k steps per iteration") { benchmark in
        for _ in benchmark.scaledIterations {
            var f = HeadingFilter(expectedField: .init(totalIntensity: 48_000, inclination: 64))
            for i in 0..<100_000 {
                let t = Double(i) * 0.01
                blackHole(f.predict(to: t, headingRate: 10))
                blackHole(f.update(heading: (Double(i) * 0.1).truncatingRemainder(dividingBy: 360), accuracy: 8, time: t,
                                   fieldMagnitude: 48_000, fieldInclination: 64))
            }
        }
    }
}
