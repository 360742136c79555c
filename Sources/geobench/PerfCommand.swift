import ArgumentParser
import Foundation
import GeoAnchorKit
import GeoAnchorKitPROJ

/// `geobench perf`: native vs PROJ throughput and agreement, side by side in one process.
struct PerfCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "perf",
        abstract: "Native GeoAnchorKit vs PROJ: throughput and max difference on the same points.",
        discussion: """
        In one process, the same deterministic points (a Halton sequence) go through the native batch path and \
        through PROJ (one reused PJ, one proj_trans_generic call per batch; geodesics through \
        PROJ's geod_inverse). Each timing is the best of --repeat runs. Keys (JSON objects with \
        native_per_s, proj_per_s, max_diff_m): \
        enu_forward — geodetic → ENU, points within 100 km of an origin (Závist, 49.96°N 14.39°E), \
        PROJ unitconvert+cart+topocentric; max_diff_m = largest |Δ| of east/north/up. \
        enu_inverse — ENU → geodetic on the forward outputs; max_diff_m = largest of the \
        horizontal ground distance and |Δheight|. \
        geodesic_inverse — distance and both azimuths between global point pairs, native \
        Geodesic batch vs geod_inverse; max_diff_m = largest |Δdistance|. \
        geoid — EGM96 15′ undulation at global points, native bilinear vs PROJ vgridshift \
        (radian input, no unitconvert); max_diff_m = largest |ΔN|. \
        native_per_s and proj_per_s are points per second.
        """
    )

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    @Option(help: "Number of points per measurement.")
    var points: Int = 1_000_000

    @Option(help: "Timing runs per engine (the best one is reported).")
    var `repeat`: Int = 3

    @Option(help: "GTX geoid grid for the geoid measurement.")
    var grid: String = GeoidGrid.defaultPath

    func validate() throws {
        guard points >= 1 else { throw ValidationError("--points must be at least 1") }
        guard `repeat` >= 1 else { throw ValidationError("--repeat must be at least 1") }
    }

    func run() throws {
        try withInputErrors {
            var results: [(String, PerfResult)] = []
            let origin = GeodeticCoordinate(latitude: 49.96, longitude: 14.39, ellipsoidalHeight: 350)
            let local = PerfPoints.local(count: points, around: origin, radius: 100_000, seed: 1)
            let (fwd, inv) = try PerfPoints.enu(origin: origin, points: local, repeats: `repeat`)
            results.append(("enu_forward", fwd))
            results.append(("enu_inverse", inv))
            if let g = try Self.geodesicInverse(count: points, repeats: `repeat`) {
                results.append(("geodesic_inverse", g))
            }
            let model = try located(grid) { try GeoidGrid(path: grid) }
            results.append(("geoid", try PerfPoints.geoid(model, count: points, repeats: `repeat`)))
            if json {
                let body = results.map { key, r in
                    "  \"\(key)\": {\"native_per_s\": \(Self.number(r.nativePerSecond)), \"proj_per_s\": \(Self.number(r.projPerSecond)), \"max_diff_m\": \(Self.number(r.maxDifference))}"
                }.joined(separator: ",\n")
                print("{\n\(body)\n}")
            } else {
                print("\(points) points, best of \(`repeat`) runs")
                print("key               native/s      PROJ/s  speed-up   max diff (m)")
                for (key, r) in results {
                    let name = key.padding(toLength: 16, withPad: " ", startingAt: 0)
                    print(name + String(format: " %9.3e   %9.3e   %6.1f×   %.3e",
                                        r.nativePerSecond, r.projPerSecond, r.nativePerSecond / r.projPerSecond, r.maxDifference))
                }
            }
        }
    }

    /// JSON has no NaN/∞: such values are written as null.
    static func number(_ v: Double) -> String { v.isFinite ? "\(v)" : "null" }
}

/// One comparison: throughputs (points per second) and the largest difference in meters.
struct PerfResult {
    var nativePerSecond: Double
    var projPerSecond: Double
    var maxDifference: Double
}

/// Deterministic point sets and the native-vs-PROJ measurements shared by `perf` and the report.
enum PerfPoints {
    /// Geodetic points (degrees, meters above the ellipsoid) within `radius` meters (horizontal)
    /// of `around`, heights ±2 km about the origin's.
    static func local(count: Int, around o: GeodeticCoordinate, radius: Double, seed: UInt64)
        -> (lat: [Double], lon: [Double], h: [Double]) {
        var points = HaltonSequence(seed: seed)
        points.dimensionsPerPoint = 3
        let mPerDegLat = Ellipsoid.wgs84.meridionalRadius(latitude: o.latitude) * Angle.radiansPerDegree
        var lat = [Double](), lon = [Double](), h = [Double]()
        lat.reserveCapacity(count); lon.reserveCapacity(count); h.reserveCapacity(count)
        for _ in 0..<count {
            // Uniform in a disc of 0.9 × radius on a local flat approximation (stays within radius).
            let r = 0.9 * radius * points.unit().squareRoot(), a = 2 * Double.pi * points.unit()
            let la = o.latitude + r * cos(a) / mPerDegLat
            let nPerDeg = Ellipsoid.wgs84.primeVerticalRadius(latitude: la) * Angle.radiansPerDegree * cos(la * Angle.radiansPerDegree)
            lat.append(la)
            lon.append(Angle.normalizeLongitude(o.longitude + r * sin(a) / nPerDeg))
            h.append(o.height + 4000 * points.unit() - 2000)
        }
        return (lat, lon, h)
    }

    /// Seconds of the fastest of `repeats` runs of `body`.
    static func best(_ repeats: Int, _ body: () throws -> Void) rethrows -> Double {
        var best = Double.infinity
        for _ in 0..<repeats {
            let t0 = DispatchTime.now().uptimeNanoseconds
            try body()
            best = min(best, Double(DispatchTime.now().uptimeNanoseconds - t0) * 1e-9)
        }
        return best
    }

    /// ENU forward and inverse, native batch vs PROJ pipeline.
    static func enu(origin: GeodeticCoordinate, points p: (lat: [Double], lon: [Double], h: [Double]),
                    repeats: Int) throws -> (forward: PerfResult, inverse: PerfResult) {
        let n = p.lat.count
        let frame = try LocalTangentFrame(origin: origin)
        let proj = try ProjTransformer.localTangentFrame(origin: origin)
        var e = [Double](repeating: 0, count: n), no = e, u = e
        let tNative = best(repeats) {
            p.lat.withUnsafeBufferPointer { a in p.lon.withUnsafeBufferPointer { b in p.h.withUnsafeBufferPointer { c in
                e.withUnsafeMutableBufferPointer { x in no.withUnsafeMutableBufferPointer { y in u.withUnsafeMutableBufferPointer { z in
                    _ = frame.enu(latitude: a, longitude: b, ellipsoidalHeight: c, east: x, north: y, up: z)
                } } }
            } } }
        }
        var px = p.lon, py = p.lat, pz = p.h
        var failures = 0
        var projTime = Double.infinity
        for _ in 0..<repeats {
            px = p.lon; py = p.lat; pz = p.h // fresh input, copied outside the timed call
            projTime = min(projTime, best(1) {
                failures += transformInPlace(proj, &px, &py, &pz, .forward)
            })
        }
        guard failures == 0 else { throw InputError(file: "perf", line: nil, message: "PROJ failed on \(failures) ENU points") }
        var maxF = 0.0
        for i in 0..<n {
            maxF = max(maxF, abs(e[i] - px[i]), abs(no[i] - py[i]), abs(u[i] - pz[i]))
        }
        let forward = PerfResult(nativePerSecond: Double(n) / tNative, projPerSecond: Double(n) / projTime, maxDifference: maxF)

        // Inverse on the native forward outputs.
        var lat = [Double](repeating: 0, count: n), lon = lat, h = lat
        let tNativeInv = best(repeats) {
            e.withUnsafeBufferPointer { a in no.withUnsafeBufferPointer { b in u.withUnsafeBufferPointer { c in
                lat.withUnsafeMutableBufferPointer { x in lon.withUnsafeMutableBufferPointer { y in h.withUnsafeMutableBufferPointer { z in
                    _ = frame.geodetic(east: a, north: b, up: c, latitude: x, longitude: y, ellipsoidalHeight: z)
                } } }
            } } }
        }
        var projInv = Double.infinity
        for _ in 0..<repeats {
            px = e; py = no; pz = u
            projInv = min(projInv, best(1) { failures += transformInPlace(proj, &px, &py, &pz, .inverse) })
        }
        guard failures == 0 else { throw InputError(file: "perf", line: nil, message: "PROJ failed on \(failures) ENU points") }
        var maxI = 0.0
        let a = Ellipsoid.wgs84.semiMajorAxis
        for i in 0..<n {
            let dn = (lat[i] - py[i]) * Angle.radiansPerDegree * a
            let de = Angle.difference(from: px[i], to: lon[i]) * Angle.radiansPerDegree * a * cos(lat[i] * Angle.radiansPerDegree)
            maxI = max(maxI, (dn * dn + de * de).squareRoot(), abs(h[i] - pz[i]))
        }
        let inverse = PerfResult(nativePerSecond: Double(n) / tNativeInv, projPerSecond: Double(n) / projInv, maxDifference: maxI)
        return (forward, inverse)
    }

    /// Geoid undulations at global points (Halton, uniform on the sphere): native bilinear vs PROJ vgridshift (radians in).
    static func geoid(_ grid: GeoidGrid, count n: Int, repeats: Int) throws -> PerfResult {
        var points = HaltonSequence(seed: 3)
        points.dimensionsPerPoint = 2
        var lat = [Double](), lon = [Double]()
        lat.reserveCapacity(n); lon.reserveCapacity(n)
        for _ in 0..<n {
            // Uniform on the sphere (not in latitude), like real-world points.
            lat.append(asin(2 * points.unit() - 1) * Angle.degreesPerRadian)
            lon.append(360 * points.unit() - 180)
        }
        var out = [Double](repeating: 0, count: n)
        var nativeFailures = 0
        let tNative = best(repeats) {
            lat.withUnsafeBufferPointer { a in lon.withUnsafeBufferPointer { b in out.withUnsafeMutableBufferPointer { o in
                nativeFailures = grid.undulations(latitude: a, longitude: b, undulation: o).count
            } } }
        }
        let proj = try located(grid.path) { try ProjTransformer.verticalGridShift(gridPath: grid.path, degrees: false) }
        let latRad = lat.map { $0 * Angle.radiansPerDegree }, lonRad = lon.map { $0 * Angle.radiansPerDegree }
        var px = lonRad, py = latRad, pz = [Double](repeating: 0, count: n)
        var failures = 0, tProj = Double.infinity
        for _ in 0..<repeats {
            px = lonRad; py = latRad; pz = [Double](repeating: 0, count: n)
            tProj = min(tProj, best(1) { failures += transformInPlace(proj, &px, &py, &pz, .forward) })
        }
        guard failures == 0, nativeFailures == 0 else {
            throw InputError(file: "perf", line: nil, message: "geoid failed on \(failures) PROJ / \(nativeFailures) native points")
        }
        var maxD = 0.0
        for i in 0..<n { maxD = max(maxD, abs(out[i] - pz[i])) }
        return PerfResult(nativePerSecond: Double(n) / tNative, projPerSecond: Double(n) / tProj, maxDifference: maxD)
    }

    /// One proj_trans_generic call over the three arrays; returns the number of failures.
    static func transformInPlace(_ t: ProjTransformer, _ x: inout [Double], _ y: inout [Double], _ z: inout [Double],
                                 _ direction: ProjDirection) -> Int {
        x.withUnsafeMutableBufferPointer { bx in y.withUnsafeMutableBufferPointer { by in z.withUnsafeMutableBufferPointer { bz in
            t.transform(x: bx, y: by, z: bz, direction: direction).count
        } } }
    }
}

/// A deterministic, evenly spread point source: the Halton sequence (radical inverses of the
/// index in distinct prime bases, one base per coordinate), skipping the first points.
struct HaltonSequence {
    private var index: Int
    private var dimension = 0
    private static let bases = [2, 3, 5, 7, 11, 13]
    /// `seed` picks where in the sequence to start.
    init(seed: UInt64) { index = 1_000 + Int(seed % 1_000_000) * 7_919 }
    /// The next coordinate in [0, 1): consecutive calls cycle through the bases, one point per
    /// `dimensions` calls (callers draw a fixed number of coordinates per point).
    mutating func unit() -> Double {
        let base = Self.bases[dimension]
        var f = 1.0, r = 0.0, i = index
        while i > 0 {
            f /= Double(base)
            r += f * Double(i % base)
            i /= base
        }
        dimension += 1
        if dimension == dimensionsPerPoint { dimension = 0; index += 1 }
        return r
    }
    /// Coordinates drawn per point (2 for the disc and the sphere, 4 for pairs of points).
    var dimensionsPerPoint = 3
}
