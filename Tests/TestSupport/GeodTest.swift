import Foundation
import Testing
import GeoAnchorKit

/// Parsed GeographicLib GeodTest line: lat1 lon1 azi1 lat2 lon2 azi2 s12 a12 m12 S12 (WGS84).
package struct GeodTestCase {
    package var lat1, lon1, azi1, lat2, lon2, azi2, s12, a12, m12, S12: Double

    package static func load() throws -> [GeodTestCase] {
        let text = try SharedData.text("geodesy/geographiclib_geodtest/GeodTest-short.dat")
        var out: [GeodTestCase] = []
        out.reserveCapacity(10_000)
        for line in text.split(separator: "\n") {
            let v = line.split(separator: " ").compactMap { Double($0) }
            guard v.count == 10 else { continue }
            out.append(GeodTestCase(lat1: v[0], lon1: v[1], azi1: v[2], lat2: v[3], lon2: v[4], azi2: v[5],
                                    s12: v[6], a12: v[7], m12: v[8], S12: v[9]))
        }
        return out
    }
}

/// Wrap-safe |a − b| for azimuths in degrees (−180 and 180 are the same direction).
package func azimuthError(_ a: Double, _ b: Double) -> Double {
    Swift.abs(Angle.difference(from: b, to: a))
}

