import Benchmark
import CProj
import GeoAnchorKit

// Geodesic suite: the native Karney inverse (batch, scalar) side by side with PROJ's copy of
// Karney's C library (`geod_inverse`), on the same 10,000 global pairs per iteration.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput, .mallocCountTotal],
                                           maxDuration: .seconds(2), maxIterations: 1_000)
    let n = 10_000
    // Deterministic global sample (64-bit LCG, top 53 bits → [0, 1)).
    var state: UInt64 = 42
    func uniform(_ lo: Double, _ hi: Double) -> Double {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return lo + (hi - lo) * Double(state >> 11) * 0x1p-53
    }
    var la1 = [Double](), lo1 = [Double](), la2 = [Double](), lo2 = [Double]()
    for _ in 0..<n {
        la1.append(uniform(-90, 90)); lo1.append(uniform(-180, 180))
        la2.append(uniform(-90, 90)); lo2.append(uniform(-180, 180))
    }
    let lat1 = la1, lon1 = lo1, lat2 = la2, lon2 = lo2

    Benchmark("geodesic inverse batch, native (10k pairs per iteration)") { benchmark in
        let g = Geodesic.wgs84
        var s = [Double](repeating: 0, count: n), a1 = s, a2 = s
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            lat1.withUnsafeBufferPointer { p1 in lon1.withUnsafeBufferPointer { q1 in
                lat2.withUnsafeBufferPointer { p2 in lon2.withUnsafeBufferPointer { q2 in
                    s.withUnsafeMutableBufferPointer { sp in a1.withUnsafeMutableBufferPointer { ap in
                        a2.withUnsafeMutableBufferPointer { bp in
                            blackHole(g.inverse(latitude1: p1, longitude1: q1, latitude2: p2, longitude2: q2,
                                                distance: sp, azimuth1: ap, azimuth2: bp))
                        } } } } } } }
            blackHole(s)
        }
    }

    Benchmark("geodesic inverse, PROJ geod_inverse (10k pairs per iteration)") { benchmark in
        var pg = geod_geodesic()
        geod_init(&pg, 6_378_137, 1 / 298.257223563)
        var s = [Double](repeating: 0, count: n), a1 = s, a2 = s
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for i in 0..<n { geod_inverse(&pg, lat1[i], lon1[i], lat2[i], lon2[i], &s[i], &a1[i], &a2[i]) }
            blackHole(s)
        }
    }

    Benchmark("geodesic inverse full (m12, M12, M21, S12), native scalar (10k pairs per iteration)") { benchmark in
        let g = Geodesic.wgs84
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for i in 0..<n {
                blackHole(g.inverse(latitude1: lat1[i], longitude1: lon1[i], latitude2: lat2[i], longitude2: lon2[i]))
            }
        }
    }

    Benchmark("geodesic direct, native (10k per iteration)") { benchmark in
        let g = Geodesic.wgs84
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            for i in 0..<n {
                blackHole(g.direct(latitude: lat1[i], longitude: lon1[i], azimuth: lon2[i], distance: 1e4 * (lat2[i] + 90)))
            }
        }
    }
}
