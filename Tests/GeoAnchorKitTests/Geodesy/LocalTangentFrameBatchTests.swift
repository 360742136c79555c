import Foundation
import Testing
@testable import GeoAnchorKit

/// The batch fast paths (polynomial sincos, Bowring near the surface, origin-relative atan)
/// against the plain scalar path, and the polynomial kernels against libm.
@Suite("ENU batch fast paths")
struct LocalTangentFrameBatchTests {
    /// Reference: libm `sin`/`cos` of the same radian argument (|x| ≤ π/4) on 200,000 arguments
    /// plus the endpoints. Tolerance: 2 ulp of the result.
    @Test func kernelsMatchLibm() {
        var rng = SplitMix64(seed: 17)
        var worst = 0.0
        for k in 0..<200_002 {
            let x = k == 0 ? Double.pi / 4 : k == 1 ? -Double.pi / 4 : rng.uniform(-Double.pi / 4, Double.pi / 4)
            let (s, c) = BatchKernels.sinCosReduced(x)
            let es = abs(s - sin(x)) / sin(x).ulp.magnitude, ec = abs(c - cos(x)) / cos(x).ulp
            worst = max(worst, es, ec)
        }
        #expect(worst <= 2, "worst error \(worst) ulp")
        #expect(BatchKernels.sinCosReduced(0) == (0, 1))
        // atan of small arguments (|t| ≤ 1/8) against libm, 2 ulp.
        for _ in 0..<100_000 {
            let t = rng.uniform(-0.125, 0.125)
            #expect(abs(BatchKernels.atanSmall(SIMD2(t, -t))[0] - atan(t)) <= 2 * atan(t).ulp.magnitude)
        }
        // Table-based degree sincos: exact at multiples of 90° (up to the sign of zero), and
        // within 4 ulp of 1 of libm-based Angle.sincos elsewhere (measured ≤ 2).
        BatchKernels.sinCosTable.withUnsafeBufferPointer { table in
            for d in stride(from: -720.0, through: 720, by: 90) {
                let (s, c) = BatchKernels.sincos(degrees: d, table: table)
                let (rs, rc) = Angle.sincos(degrees: d)
                #expect(s == rs && c == rc, "\(d)°")
            }
            var worstDeg = 0.0
            for _ in 0..<200_000 {
                let d = rng.uniform(-1000, 1000)
                let (s, c) = BatchKernels.sincos(degrees: d, table: table)
                let (rs, rc) = Angle.sincos(degrees: d)
                worstDeg = max(worstDeg, abs(s - rs) / 1.0.ulp, abs(c - rc) / 1.0.ulp)
            }
            #expect(worstDeg <= 4, "worst table sincos error \(worstDeg) ulp of 1")
        }
    }

    /// Reference: the scalar path (``LocalTangentFrame/enu(latitude:longitude:ellipsoidalHeight:)``,
    /// libm sin/cos). Origins everywhere incl. poles and ±180°, points near (≤ 100 km) and far
    /// (up to 36,000 km up). Tolerance: 5e-9 m + 1e-15 × distance (≈ 5 ulp of an ECEF coordinate:
    /// the table sincos is within 4 ulp of libm's).
    @Test func forwardBatchEqualsScalar() throws {
        var rng = SplitMix64(seed: 23)
        for k in 0..<60 {
            let origin = GeodeticCoordinate(latitude: k == 0 ? 90 : k == 1 ? -90 : rng.uniform(-90, 90),
                                            longitude: k == 2 ? 180 : k == 3 ? -180 : rng.uniform(-540, 540),
                                            ellipsoidalHeight: rng.uniform(-100, 3000))
            let frame = try LocalTangentFrame(origin: origin)
            var lat = [Double](), lon = [Double](), h = [Double]()
            for j in 0..<200 {
                if j % 4 == 0 {
                    lat.append(rng.uniform(-90, 90)); lon.append(rng.uniform(-1000, 1000)); h.append(rng.uniform(-11_000, 36_000_000))
                } else {
                    lat.append(max(-90, min(90, origin.latitude + rng.uniform(-0.6, 0.6))))
                    lon.append(origin.longitude + rng.uniform(-0.5, 0.5)); h.append(rng.uniform(-500, 5000))
                }
            }
            var e = [Double](repeating: 0, count: lat.count), n = e, u = e
            let f = lat.withUnsafeBufferPointer { a in lon.withUnsafeBufferPointer { b in h.withUnsafeBufferPointer { c in
                e.withUnsafeMutableBufferPointer { x in n.withUnsafeMutableBufferPointer { y in u.withUnsafeMutableBufferPointer { z in
                    frame.enu(latitude: a, longitude: b, ellipsoidalHeight: c, east: x, north: y, up: z)
                } } }
            } } }
            #expect(f.isEmpty)
            for i in lat.indices {
                let v = frame.enu(latitude: lat[i], longitude: lon[i], ellipsoidalHeight: h[i])
                let tol = 5e-9 + 1e-15 * v.length
                #expect(abs(v.east - e[i]) <= tol && abs(v.north - n[i]) <= tol && abs(v.up - u[i]) <= tol,
                        "origin \(origin) point \(lat[i]),\(lon[i]),\(h[i]): \(v) vs \(e[i]),\(n[i]),\(u[i])")
            }
        }
    }

    /// Reference: the scalar path (``LocalTangentFrame/geodetic(east:north:up:)``, Vermeille's
    /// closed form + atan2). Near points use Bowring and the series atan, far ones the fallbacks.
    /// Tolerance: 5e-9 m on the ground and in height + 1e-15 × distance.
    @Test func inverseBatchEqualsScalar() throws {
        var rng = SplitMix64(seed: 29)
        for k in 0..<60 {
            let origin = GeodeticCoordinate(latitude: k == 0 ? 90 : k == 1 ? -90 : k == 2 ? 89.95 : rng.uniform(-90, 90),
                                            longitude: k == 3 ? 180 : k == 4 ? -180 : rng.uniform(-180, 180),
                                            ellipsoidalHeight: rng.uniform(-100, 3000))
            let frame = try LocalTangentFrame(origin: origin)
            var e = [Double](), n = [Double](), u = [Double]()
            for j in 0..<200 {
                let r = j % 5 == 0 ? 30_000_000.0 : 100_000.0
                e.append(rng.uniform(-r, r)); n.append(rng.uniform(-r, r)); u.append(rng.uniform(-2000, j % 5 == 0 ? 3e7 : 3000))
            }
            var la = [Double](repeating: 0, count: e.count), lo = la, hh = la
            let f = e.withUnsafeBufferPointer { a in n.withUnsafeBufferPointer { b in u.withUnsafeBufferPointer { c in
                la.withUnsafeMutableBufferPointer { x in lo.withUnsafeMutableBufferPointer { y in hh.withUnsafeMutableBufferPointer { z in
                    frame.geodetic(east: a, north: b, up: c, latitude: x, longitude: y, ellipsoidalHeight: z)
                } } }
            } } }
            #expect(f.isEmpty)
            for i in e.indices {
                let g = frame.geodetic(east: e[i], north: n[i], up: u[i])
                let dist = (e[i] * e[i] + n[i] * n[i] + u[i] * u[i]).squareRoot()
                let tol = 5e-9 + 1e-15 * dist
                let dn = (g.latitude - la[i]) * Angle.radiansPerDegree * 6_378_137
                let de = abs(g.latitude) > 89.99999999 ? 0
                    : Angle.difference(from: g.longitude, to: lo[i]) * Angle.radiansPerDegree * 6_378_137 * cos(g.latitude * .pi / 180)
                #expect((dn * dn + de * de).squareRoot() <= tol && abs(g.ellipsoidalHeight - hh[i]) <= tol,
                        "origin \(origin) enu \(e[i]),\(n[i]),\(u[i]): \(g) vs \(la[i]),\(lo[i]),\(hh[i])")
                #expect(abs(la[i]) <= 90 && abs(lo[i]) <= 180)
            }
        }
    }

    /// Bowring's two steps against the closed form on the shell where the batch uses them.
    /// Reference: Vermeille's closed form; tolerance 5e-9 m (rounding level).
    @Test func bowringMatchesClosedForm() {
        let ell = Ellipsoid.wgs84
        var rng = SplitMix64(seed: 31)
        for _ in 0..<50_000 {
            let lat = rng.uniform(-90, 90), lon = rng.uniform(-180, 180), h = rng.uniform(-50_000, 120_000)
            let p = ell.ecef(latitude: lat, longitude: lon, ellipsoidalHeight: h)
            #expect(ell.nearSurface(r2: p.x * p.x + p.y * p.y + p.z * p.z))
            let c = ell.geodeticNearSurface(x: SIMD2(p.x, 0), y: SIMD2(p.y, 0), z: SIMD2(p.z, ell.semiMinorAxis))
            let v = ell.geodetic(x: p.x, y: p.y, z: p.z)
            let dlat = abs(Angle.atan2Degrees(c.sinLatitude[0], c.cosLatitude[0]) - v.latitude) * Angle.radiansPerDegree * 6_378_137
            #expect(dlat <= 5e-9 && abs(c.height[0] - v.ellipsoidalHeight) <= 5e-9, "\(lat),\(lon),\(h)")
        }
    }

    /// NaN in the unchecked scalar path gives NaN out (and does not trap); in the batch inverse it
    /// is reported by index, and its pair partner and an odd last point still convert exactly as
    /// the scalar path does.
    @Test func nanDoesNotTrap() throws {
        let frame = try LocalTangentFrame(origin: GeodeticCoordinate(latitude: 49.96, longitude: 14.39, ellipsoidalHeight: 350))
        let e = [10.0, .nan, 300, 4000, -50], no = [20.0, 5, -700, 1, 2], u = [1.0, 2, 3, 4, 5]
        var la = [Double](repeating: 0, count: 5), lo = la, hh = la
        let f = e.withUnsafeBufferPointer { a in no.withUnsafeBufferPointer { b in u.withUnsafeBufferPointer { c in
            la.withUnsafeMutableBufferPointer { x in lo.withUnsafeMutableBufferPointer { y in hh.withUnsafeMutableBufferPointer { z in
                frame.geodetic(east: a, north: b, up: c, latitude: x, longitude: y, ellipsoidalHeight: z)
            } } }
        } } }
        #expect(f.map(\.index) == [1] && la[1].isNaN)
        for i in [0, 2, 3, 4] {
            let g = frame.geodetic(east: e[i], north: no[i], up: u[i])
            #expect(abs(g.latitude - la[i]) < 1e-13 && abs(g.longitude - lo[i]) < 1e-13 && abs(g.ellipsoidalHeight - hh[i]) < 5e-9)
        }
        let p = Ellipsoid.wgs84.ecef(latitude: .nan, longitude: 10, ellipsoidalHeight: 0)
        #expect(p.x.isNaN && p.z.isNaN)
        let s = Angle.sincos(degrees: .infinity)
        #expect(s.sin.isNaN && s.cos.isNaN)
    }
}
