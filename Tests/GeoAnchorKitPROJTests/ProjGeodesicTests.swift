import Foundation
import Testing
import GeoAnchorKit
import GeoAnchorKitTestSupport
import GeoAnchorKitPROJ

/// PROJ's bundled geodesic routines (the reference path for native geodesics) against
/// GeographicLib's GeodTest-short.
@Suite("PROJ geodesic reference path", .enabled(if: SharedData.shouldRun))
struct ProjGeodesicTests {
    /// Reference: GeographicLib GeodTest-short.dat (Karney), first 2,000 lines: columns
    /// lat1 lon1 azi1 lat2 lon2 azi2 s12 …. Tolerances: distance 15 nm and azimuth 1e-12°
    /// (inverse), position 15 nm on the ground (direct), as Karney states.
    @Test func geodTestShort() throws {
        let text = try SharedData.text("geodesy/geographiclib_geodtest/GeodTest-short.dat")
        let g = ProjGeodesic()
        var n = 0
        for line in text.split(separator: "\n").prefix(2_000) {
            let v = line.split(separator: " ").compactMap { Double($0) }
            guard v.count >= 7 else { continue }
            let inv = g.inverse(latitude1: v[0], longitude1: v[1], latitude2: v[3], longitude2: v[4])
            #expect(abs(inv.distance - v[6]) <= 15e-9, "line \(n + 1): \(inv.distance) vs \(v[6])")
            let dir = g.direct(latitude1: v[0], longitude1: v[1], azimuth1: v[2], distance: v[6])
            let dn = (dir.latitude2 - v[3]) * .pi / 180 * 6_371_000
            let de = Angle.difference(from: v[4], to: dir.longitude2) * .pi / 180 * 6_371_000 * cos(v[3] * .pi / 180)
            #expect((dn * dn + de * de).squareRoot() <= 15e-9, "line \(n + 1)")
            #expect(abs(Angle.difference(from: v[5], to: dir.azimuth2)) <= 1e-12 || abs(v[3]) == 90, "line \(n + 1)")
            n += 1
        }
        #expect(n == 2_000)
        // The batch path equals the scalar one.
        let la1 = [10.0, -33.9], lo1 = [20.0, 151.2], la2 = [-5.0, 51.5], lo2 = [170.0, -0.1]
        var out = [0.0, 0.0], az1 = out, az2 = out
        la1.withUnsafeBufferPointer { a in lo1.withUnsafeBufferPointer { b in la2.withUnsafeBufferPointer { c in
            lo2.withUnsafeBufferPointer { d in out.withUnsafeMutableBufferPointer { o in
                az1.withUnsafeMutableBufferPointer { z1 in az2.withUnsafeMutableBufferPointer { z2 in
                    g.inverse(latitude1: a, longitude1: b, latitude2: c, longitude2: d, distance: o, azimuth1: z1, azimuth2: z2)
                } }
            } }
        } } }
        for i in 0..<2 {
            let r = g.inverse(latitude1: la1[i], longitude1: lo1[i], latitude2: la2[i], longitude2: lo2[i])
            #expect(out[i] == r.distance && az1[i] == r.azimuth1 && az2[i] == r.azimuth2)
        }
    }
}
