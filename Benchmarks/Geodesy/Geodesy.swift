import Benchmark
import GeoAnchorKit

// Geodesy suite: native batch paths (filled in below by the `proj` branch: PROJ comparisons).
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput, .mallocCountTotal],
                                           maxDuration: .seconds(2), maxIterations: 1_000)
    let n = 10_000
    Benchmark("ENU forward batch, native (10k points per iteration)") { benchmark in
        let frame = try LocalTangentFrame(origin: GeodeticCoordinate(latitude: 49.96, longitude: 14.39, ellipsoidalHeight: 350))
        var lat = [Double](), lon = [Double](), h = [Double]()
        for i in 0..<n {
            lat.append(49.96 + Double(i % 100) * 0.001); lon.append(14.39 + Double(i / 100) * 0.001); h.append(300)
        }
        var e = [Double](repeating: 0, count: n), no = e, u = e
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            lat.withUnsafeBufferPointer { a in lon.withUnsafeBufferPointer { b in h.withUnsafeBufferPointer { c in
                e.withUnsafeMutableBufferPointer { x in no.withUnsafeMutableBufferPointer { y in u.withUnsafeMutableBufferPointer { z in
                    blackHole(frame.enu(latitude: a, longitude: b, ellipsoidalHeight: c, east: x, north: y, up: z))
                } } }
            } } }
        }
    }
}
