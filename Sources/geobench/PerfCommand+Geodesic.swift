import Foundation
import GeoAnchorKit
import GeoAnchorKitPROJ

extension PerfCommand {
    /// `geodesic_inverse`: native ``Geodesic`` batch inverse vs PROJ's `geod_inverse`, both
    /// computing distance and both azimuths for global pairs (Halton points uniform on the sphere).
    static func geodesicInverse(count n: Int, repeats: Int) throws -> PerfResult? {
        var points = HaltonSequence(seed: 5)
        points.dimensionsPerPoint = 4
        var la1 = [Double](), lo1 = [Double](), la2 = [Double](), lo2 = [Double]()
        for _ in 0..<n {
            la1.append(asin(2 * points.unit() - 1) * Angle.degreesPerRadian); lo1.append(360 * points.unit() - 180)
            la2.append(asin(2 * points.unit() - 1) * Angle.degreesPerRadian); lo2.append(360 * points.unit() - 180)
        }
        let native = Geodesic.wgs84, proj = ProjGeodesic()
        var s = [Double](repeating: 0, count: n), a1 = s, a2 = s
        var ps = s, pa1 = s, pa2 = s
        var failures = 0
        let tNative = PerfPoints.best(repeats) {
            la1.withUnsafeBufferPointer { p1 in lo1.withUnsafeBufferPointer { q1 in la2.withUnsafeBufferPointer { p2 in
                lo2.withUnsafeBufferPointer { q2 in s.withUnsafeMutableBufferPointer { o in
                    a1.withUnsafeMutableBufferPointer { z1 in a2.withUnsafeMutableBufferPointer { z2 in
                        failures = native.inverse(latitude1: p1, longitude1: q1, latitude2: p2, longitude2: q2,
                                                  distance: o, azimuth1: z1, azimuth2: z2).count
                    } }
                } }
            } } }
        }
        let tProj = PerfPoints.best(repeats) {
            la1.withUnsafeBufferPointer { p1 in lo1.withUnsafeBufferPointer { q1 in la2.withUnsafeBufferPointer { p2 in
                lo2.withUnsafeBufferPointer { q2 in ps.withUnsafeMutableBufferPointer { o in
                    pa1.withUnsafeMutableBufferPointer { z1 in pa2.withUnsafeMutableBufferPointer { z2 in
                        proj.inverse(latitude1: p1, longitude1: q1, latitude2: p2, longitude2: q2,
                                     distance: o, azimuth1: z1, azimuth2: z2)
                    } }
                } }
            } } }
        }
        guard failures == 0 else { throw InputError(file: "perf", line: nil, message: "native geodesic failed on \(failures) pairs") }
        var maxD = 0.0
        for i in 0..<n { maxD = max(maxD, abs(s[i] - ps[i])) }
        return PerfResult(nativePerSecond: Double(n) / tNative, projPerSecond: Double(n) / tProj, maxDifference: maxD)
    }
}
