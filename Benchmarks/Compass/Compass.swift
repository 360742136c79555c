import Benchmark
import GeoAnchorKit
import GeoAnchorKitSimulation

// Compass suite. Targets (issue 5): WMM ≥ 1,000,000 evaluations/s; batch calibration of
// 10,000 samples ≤ 5 ms. The model comes from MagneticModel.load() (.data/WMM.COF, installed by
// scripts/install-deps.sh, or $GEOANCHORKIT_WMM_COF).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput, .mallocCountTotal],
                                           maxDuration: .seconds(2), maxIterations: 1_000)
    let n = 10_000
    // A global scatter of points (deterministic): latitudes −89…89, all longitudes, 0–10 km.
    var lat = [Double](), lon = [Double](), h = [Double]()
    for i in 0..<n {
        lat.append(-89 + 178 * Double((i * 7919) % n) / Double(n))
        lon.append(-180 + 360 * Double((i * 104_729) % n) / Double(n))
        h.append(Double(i % 11) * 1000)
    }

    Benchmark("WMM field, snapshot at one date (10k evaluations per iteration)") { benchmark in
        let model = try MagneticModel.load()
        let snap = model.snapshot(decimalYear: 2026.5)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            var acc = 0.0
            for i in 0..<n {
                let f = snap.field(latitude: lat[i], longitude: lon[i], ellipsoidalHeight: h[i])
                acc += f.north + f.east + f.down
            }
            blackHole(acc)
        }
    }

    Benchmark("WMM field, model with per-call date (10k evaluations per iteration)") { benchmark in
        let model = try MagneticModel.load()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            var acc = 0.0
            for i in 0..<n {
                let f = model.field(latitude: lat[i], longitude: lon[i], ellipsoidalHeight: h[i], decimalYear: 2025 + Double(i % 5))
                acc += f.declination
            }
            blackHole(acc)
        }
    }

    var sim = MagnetometerSimulator(field: SIMD3(1.7, 20.5, -44.9), hardIron: SIMD3(23.4, -41.2, 12.8),
                                    softIron: .identity, noise: 0.5, seed: 2026)
    sim.softIron = sim.randomSoftIron(amount: 0.2)
    let stream = sim.sphereCoveringStream(count: n).map(\.magnetometer)
    let mx = stream.map(\.x), my = stream.map(\.y), mz = stream.map(\.z)

    Benchmark("Batch magnetometer calibration, 10k samples") { benchmark in
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            let c = try mx.withUnsafeBufferPointer { x in
                try my.withUnsafeBufferPointer { y in
                    try mz.withUnsafeBufferPointer { z in try MagnetometerCalibrator.fit(x: x, y: y, z: z) }
                }
            }
            blackHole(c)
        }
    }

    Benchmark("Incremental calibration: add 10k samples, then estimate") { benchmark in
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            var inc = IncrementalMagnetometerCalibrator()
            for m in stream { try inc.add(m) }
            blackHole(try inc.estimate())
        }
    }
}
