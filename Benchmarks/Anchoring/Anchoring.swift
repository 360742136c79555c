import Benchmark
import GeoAnchorKit
import GeoAnchorKitSimulation

// Anchoring suite: per-frame batch re-pose of 100k anchors, k-nearest among 1M points, radius
// queries among 10M points, geo-registration updates. Targets (issue 7): ≤ 2 ms per re-pose of 100k, ≤ 10 µs per kNN
// query, ≤ 50 µs per radius query. Query benchmarks run 1,000 queries per iteration, so the
// per-query time is the iteration time / 1,000.

/// Deterministic points (GeoAnchorKitSimulation's SeededRandom) spread uniformly over a Czechia-sized box
/// (48.5…51.1° N, 12.1…18.9° E, ≈ 142,000 km²).
func czechPoints(_ n: Int, seed: UInt64) -> [(id: Int, latitude: Double, longitude: Double)] {
    var rng = SeededRandom(seed: seed)
    return (0..<n).map { ($0, rng.uniform(48.5, 51.1), rng.uniform(12.1, 18.9)) }
}

/// Registers a geo-registration benchmark: one iteration feeds the whole simulated Závist walk
/// (seed 1, no sensors) to a new `GeoRegistration` with the path `path(config)` gives (nil: none),
/// created in the loop as an app creates it per session.
func geoRegistrationBenchmark(_ name: String, path: @escaping @Sendable (TraceSimulator.Configuration) throws -> PathConstraint?) {
    Benchmark(name) { benchmark in
        var config = TraceSimulator.Configuration.zavistTour
        config.sensors.duration = 0
        let sim = try TraceSimulator(config: config, seed: 1).run()
        let streams = GeoRegistrationSimulator(seed: 1).run(truth: sim.truth)
        let p = try path(config)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            var reg = GeoRegistration(path: p)
            var fi = 0, ci = 0
            for t in streams.tracking {
                try reg.update(tracking: t, fixes: sim.raw, fixCursor: &fi, compass: streams.compass, compassCursor: &ci)
            }
            blackHole(reg.estimate)
        }
    }
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput, .mallocCountTotal],
                                           maxDuration: .seconds(3), maxIterations: 1_000)

    Benchmark("Re-pose 100k anchors (one frame, Float transforms)") { benchmark in
        let device = GeodeticCoordinate(latitude: 49.9617, longitude: 14.3950, ellipsoidalHeight: 392)
        let anchors = czechPoints(100_000, seed: 1).map {
            GeoAnchor(id: "a\($0.id)", latitude: 49.9617 + ($0.latitude - 49.8) * 0.02,
                      longitude: 14.395 + ($0.longitude - 15.5) * 0.02, altitude: .ellipsoidal(350),
                      orientation: AnchorOrientation(yaw: Double($0.id % 360)))
        }
        var field = try AnchorField(anchors: anchors, convention: .arkitGravityAndHeading,
                                    session: DevicePose.exact(position: device))
        try field.update(pose: DevicePose.exact(position: device, heading: 3), devicePositionInSession: SIMD3(1, 0, -2),
                         nominalHeading: 0)
        field.snapToEstimate()
        var out = [Float4x4](repeating: .identity, count: anchors.count)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            out.withUnsafeMutableBufferPointer { field.repose(into: $0) }
            blackHole(out[12_345])
        }
    }

    // Geo-registration (issue 12): ≥ 100,000 tracking + fix updates per second on one core. One
    // iteration feeds a whole simulated Závist walk (≈ 22k tracking samples at 10 Hz, ≈ 2.1k
    // fixes, ≈ 4.4k compass readings); updates/s = (tracking + fixes) × iterations / wall time.
    // Measured: p0 154 iterations/s (4.3 M updates/s), 34 mallocs per iteration (none per update).
    geoRegistrationBenchmark("GeoRegistration: Závist walk, 10 Hz tracking + 1 Hz fixes + 2 Hz compass (≈ 28k updates)") { _ in nil }

    // The same walk with map aiding (GeoRegistration(path:)): a cross-track constraint after each
    // fix, the path's segments in PathConstraint's grid (one creation per iteration, in the loop
    // as an app would create it per session). Measured: p0 127 iterations/s (3.1 M updates/s)
    // against 150 without the path in the same run; 83 mallocs per iteration (49 more, all the
    // path's grid in the session frame, built at the first fix).
    geoRegistrationBenchmark("GeoRegistration with the tour path: Závist walk (≈ 28k updates)") {
        try GeoRegistrationEvaluation.drawnPath(of: $0)
    }

    // The same with a path whose vertices are off by σ 2 m, stated as PathConstraint.mapSigma: the
    // estimator carries 14 states (the walked segments' offsets and turns) instead of 10, so
    // every covariance propagation and update costs up to (14/10)² as much. Measured (one run,
    // 2026-11-28): p0 86 iterations/s (2.1 M updates/s), against 112 with the exact tour path
    // (10 states) and 136 without a path; 85 mallocs per iteration (2 more: the 14-state arrays).
    geoRegistrationBenchmark("GeoRegistration with a ±2 m path, mapSigma 2 m: Závist walk (≈ 28k updates)") {
        try GeoRegistrationEvaluation.drawnPath(of: $0, vertexError: 2, crossTrackSigma: 1.5, mapSigma: 2, seed: 1)
    }

    Benchmark("k-nearest k=10 among 1M points (1,000 queries)") { benchmark in
        let index = try SpatialIndex(points: czechPoints(1_000_000, seed: 2))
        let queries = czechPoints(1_000, seed: 3)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for q in queries { blackHole(try index.nearest(latitude: q.latitude, longitude: q.longitude, k: 10)) }
        }
    }

    Benchmark("Radius 250 m among 10M points (1,000 queries, ≈ 14 results each)",
              configuration: .init(maxDuration: .seconds(3), maxIterations: 100)) { benchmark in
        let index = try SpatialIndex(points: czechPoints(10_000_000, seed: 4))
        let queries = czechPoints(1_000, seed: 5)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for q in queries { blackHole(try index.within(radius: 250, latitude: q.latitude, longitude: q.longitude)) }
        }
    }
}
