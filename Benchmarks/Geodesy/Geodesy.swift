import Benchmark
import Foundation
import GeoAnchorKit
import GeoAnchorKitPROJ

// Geodesy suite: native batch paths side by side with PROJ on the same points.
// Every benchmark converts 10,000 points per iteration, so points/s = 10,000 × throughput.
// ENU points lie within 100 km of Závist (49.96°N 14.39°E); geoid points are uniform on the sphere.
// PROJ: one reused PJ, one proj_trans_generic call per iteration (inputs re-copied each
// iteration because PROJ transforms in place; the copy is < 1 % of PROJ's time).

let pointsPerIteration = 10_000

struct Points {
    var lat: [Double], lon: [Double], h: [Double]
    init(lat: [Double], lon: [Double], h: [Double]) { self.lat = lat; self.lon = lon; self.h = h }

    /// SplitMix64-driven uniform values.
    static func generator(seed: UInt64) -> () -> Double {
        var state = seed
        return {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return Double((z ^ (z >> 31)) >> 11) / Double(1 << 53)
        }
    }

    /// Within ~90 km of `o` (0.6° in latitude, 60 km in longitude), heights ±2 km.
    static func local(around o: GeodeticCoordinate, count: Int) -> Points {
        let u = generator(seed: 1)
        var p = Points(lat: [], lon: [], h: [])
        for _ in 0..<count {
            let la = o.latitude + 1.2 * u() - 0.6
            p.lat.append(la)
            p.lon.append(o.longitude + (1.08 * u() - 0.54) / cos(la * .pi / 180))
            p.h.append(o.height + 4000 * u() - 2000)
        }
        return p
    }

    static func global(count: Int) -> Points {
        let u = generator(seed: 3)
        var p = Points(lat: [], lon: [], h: [])
        for _ in 0..<count {
            p.lat.append(asin(2 * u() - 1) * 180 / .pi)
            p.lon.append(360 * u() - 180)
            p.h.append(0)
        }
        return p
    }
}

/// One proj_trans_generic call over copies of x, y, z.
@inline(never)
func projTransform(_ t: ProjTransformer, _ x: [Double], _ y: [Double], _ z: [Double], _ d: ProjDirection) -> [Double] {
    var x = x, y = y, z = z
    let failures = x.withUnsafeMutableBufferPointer { bx in y.withUnsafeMutableBufferPointer { by in
        z.withUnsafeMutableBufferPointer { bz in t.transform(x: bx, y: by, z: bz, direction: d) }
    } }
    precondition(failures.isEmpty, "PROJ failed on \(failures.count) points")
    return z
}

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput, .mallocCountTotal],
                                           maxDuration: .seconds(2), maxIterations: 1_000)
    let origin = GeodeticCoordinate(latitude: 49.96, longitude: 14.39, ellipsoidalHeight: 350)
    let n = pointsPerIteration

    // MARK: ENU forward / inverse

    Benchmark("ENU forward, native batch (10k points)") { benchmark in
        let frame = try LocalTangentFrame(origin: origin)
        let p = Points.local(around: origin, count: n)
        var e = [Double](repeating: 0, count: n), no = e, u = e
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            p.lat.withUnsafeBufferPointer { a in p.lon.withUnsafeBufferPointer { b in p.h.withUnsafeBufferPointer { c in
                e.withUnsafeMutableBufferPointer { x in no.withUnsafeMutableBufferPointer { y in u.withUnsafeMutableBufferPointer { z in
                    blackHole(frame.enu(latitude: a, longitude: b, ellipsoidalHeight: c, east: x, north: y, up: z))
                } } }
            } } }
        }
        blackHole(u)
    }

    Benchmark("ENU forward, PROJ cart+topocentric (10k points)") { benchmark in
        let proj = try ProjTransformer.localTangentFrame(origin: origin)
        let p = Points.local(around: origin, count: n)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(projTransform(proj, p.lon, p.lat, p.h, .forward))
        }
    }

    Benchmark("ENU inverse, native batch (10k points)") { benchmark in
        let frame = try LocalTangentFrame(origin: origin)
        let p = Points.local(around: origin, count: n)
        let v = p.lat.indices.map { frame.enu(latitude: p.lat[$0], longitude: p.lon[$0], ellipsoidalHeight: p.h[$0]) }
        let e = v.map(\.east), no = v.map(\.north), u = v.map(\.up)
        var lat = [Double](repeating: 0, count: n), lon = lat, h = lat
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            e.withUnsafeBufferPointer { a in no.withUnsafeBufferPointer { b in u.withUnsafeBufferPointer { c in
                lat.withUnsafeMutableBufferPointer { x in lon.withUnsafeMutableBufferPointer { y in h.withUnsafeMutableBufferPointer { z in
                    blackHole(frame.geodetic(east: a, north: b, up: c, latitude: x, longitude: y, ellipsoidalHeight: z))
                } } }
            } } }
        }
        blackHole(h)
    }

    Benchmark("ENU inverse, PROJ cart+topocentric (10k points)") { benchmark in
        let frame = try LocalTangentFrame(origin: origin)
        let proj = try ProjTransformer.localTangentFrame(origin: origin)
        let p = Points.local(around: origin, count: n)
        let v = p.lat.indices.map { frame.enu(latitude: p.lat[$0], longitude: p.lon[$0], ellipsoidalHeight: p.h[$0]) }
        let e = v.map(\.east), no = v.map(\.north), u = v.map(\.up)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(projTransform(proj, e, no, u, .inverse))
        }
    }

    // MARK: Geoid

    Benchmark("Geoid EGM96 bilinear, native (10k points)") { benchmark in
        let grid = try GeoidGrid()
        let p = Points.global(count: n)
        var out = [Double](repeating: 0, count: n)
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            p.lat.withUnsafeBufferPointer { a in p.lon.withUnsafeBufferPointer { b in out.withUnsafeMutableBufferPointer { o in
                blackHole(grid.undulations(latitude: a, longitude: b, undulation: o))
            } } }
        }
        blackHole(out)
    }

    Benchmark("Geoid EGM96, PROJ vgridshift (10k points)") { benchmark in
        let proj = try ProjTransformer.verticalGridShift(gridPath: GeoidGrid.defaultPath, degrees: false)
        let p = Points.global(count: n)
        let lat = p.lat.map { $0 * .pi / 180 }, lon = p.lon.map { $0 * .pi / 180 }
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            blackHole(projTransform(proj, lon, lat, p.h, .forward))
        }
    }

    // MARK: Geodesic inverse (distance and both azimuths)

    Benchmark("Geodesic inverse, native batch (10k pairs)") { benchmark in
        let p = Points.global(count: 2 * n)
        let la1 = Array(p.lat[..<n]), lo1 = Array(p.lon[..<n]), la2 = Array(p.lat[n...]), lo2 = Array(p.lon[n...])
        var s = [Double](repeating: 0, count: n), a1 = s, a2 = s
        let g = Geodesic.wgs84
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            la1.withUnsafeBufferPointer { p1 in lo1.withUnsafeBufferPointer { q1 in la2.withUnsafeBufferPointer { p2 in
                lo2.withUnsafeBufferPointer { q2 in s.withUnsafeMutableBufferPointer { o in
                    a1.withUnsafeMutableBufferPointer { z1 in a2.withUnsafeMutableBufferPointer { z2 in
                        blackHole(g.inverse(latitude1: p1, longitude1: q1, latitude2: p2, longitude2: q2,
                                            distance: o, azimuth1: z1, azimuth2: z2))
                    } }
                } }
            } } }
        }
        blackHole(s)
    }

    Benchmark("Geodesic inverse, PROJ geod_inverse (10k pairs)") { benchmark in
        let p = Points.global(count: 2 * n)
        let la1 = Array(p.lat[..<n]), lo1 = Array(p.lon[..<n]), la2 = Array(p.lat[n...]), lo2 = Array(p.lon[n...])
        var s = [Double](repeating: 0, count: n), a1 = s, a2 = s
        let g = ProjGeodesic()
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            la1.withUnsafeBufferPointer { p1 in lo1.withUnsafeBufferPointer { q1 in la2.withUnsafeBufferPointer { p2 in
                lo2.withUnsafeBufferPointer { q2 in s.withUnsafeMutableBufferPointer { o in
                    a1.withUnsafeMutableBufferPointer { z1 in a2.withUnsafeMutableBufferPointer { z2 in
                        g.inverse(latitude1: p1, longitude1: q1, latitude2: p2, longitude2: q2,
                                  distance: o, azimuth1: z1, azimuth2: z2)
                    } }
                } }
            } } }
        }
        blackHole(s)
    }
}
