import Foundation
import GeoAnchorKit
import GeoAnchorKitPROJ

extension PerfCommand {
    /// `geodesic_inverse`: distance and both azimuths between random global point pairs, native
    /// `Geodesic` batch inverse vs PROJ's `geod_inverse` (one call per pair, azimuths requested
    /// too, so both do the same work); max_diff_m = largest |Δdistance|.
    static func geodesicInverse(count n: Int, repeats: Int) throws -> PerfResult? {
        var rng = SeededGenerator(seed: 2)
        var lat1 = [Double](), lon1 = [Double](), lat2 = [Double](), lon2 = [Double]()
        lat1.reserveCapacity(n); lon1.reserveCapacity(n); lat2.reserveCapacity(n); lon2.reserveCapacity(n)
        for _ in 0..<n {
            // Uniform on the sphere, like real-world point pairs.
            lat1.append(asin(2 * rng.unit() - 1) * Angle.degreesPerRadian)
            lon1.append(360 * rng.unit() - 180)
            lat2.append(asin(2 * rng.unit() - 1) * Angle.degreesPerRadian)
            lon2.append(360 * rng.unit() - 180)
        }
        let native = Geodesic.wgs84
        var s = [Double](repeating: 0, count: n), a1 = s, a2 = s
        var failures = 0
        let tNative = PerfPoints.best(repeats) {
            lat1.withUnsafeBufferPointer { p1 in lon1.withUnsafeBufferPointer { q1 in
                lat2.withUnsafeBufferPointer { p2 in lon2.withUnsafeBufferPointer { q2 in
                    s.withUnsafeMutableBufferPointer { sp in a1.withUnsafeMutableBufferPointer { ap in
                        a2.withUnsafeMutableBufferPointer { bp in
                            failures = native.inverse(latitude1: p1, longitude1: q1, latitude2: p2, longitude2: q2,
                                                      distance: sp, azimuth1: ap, azimuth2: bp).count
                        } } } } } } }
        }
        let proj = ProjGeodesic(ellipsoid: .wgs84)
        var ps = [Double](repeating: 0, count: n), pa1 = ps, pa2 = ps
        let tProj = PerfPoints.best(repeats) {
            lat1.withUnsafeBufferPointer { p1 in lon1.withUnsafeBufferPointer { q1 in
                lat2.withUnsafeBufferPointer { p2 in lon2.withUnsafeBufferPointer { q2 in
                    ps.withUnsafeMutableBufferPointer { sp in pa1.withUnsafeMutableBufferPointer { ap in
                        pa2.withUnsafeMutableBufferPointer { bp in
                            proj.inverse(latitude1: p1, longitude1: q1, latitude2: p2, longitude2: q2,
                                         distance: sp, azimuth1: ap, azimuth2: bp)
                        } } } } } } }
        }
        guard failures == 0 else {
            throw InputError(file: "perf", line: nil, message: "native geodesic inverse failed on \(failures) pairs")
        }
        var maxD = 0.0
        for i in 0..<n { maxD = max(maxD, abs(s[i] - ps[i])) }
        return PerfResult(nativePerSecond: Double(n) / tNative, projPerSecond: Double(n) / tProj, maxDifference: maxD)
    }
}
