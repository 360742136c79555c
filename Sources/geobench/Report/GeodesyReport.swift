import Foundation
import GeoAnchorKit

/// Geodesy section: round-trip exactness of the core conversions on a global grid.
enum GeodesyReport: ReportSection {
    static let title = "Geodesy: geodetic ↔ ECEF ↔ ENU, geodesics"

    static func run(_ context: ReportContext) throws -> [String] {
        let ell = Ellipsoid.wgs84
        var maxLat = 0.0, maxH = 0.0, count = 0
        for latStep in stride(from: -90.0, through: 90.0, by: 7.5) {
            for lon in stride(from: -180.0, through: 180.0, by: 15) {
                for h in [-11_000.0, 0, 8_848, 400_000, 36_000_000] {
                    let p = ell.ecef(latitude: latStep, longitude: lon, ellipsoidalHeight: h)
                    let g = ell.geodetic(x: p.x, y: p.y, z: p.z)
                    maxLat = max(maxLat, abs(g.latitude - latStep))
                    maxH = max(maxH, abs(g.ellipsoidalHeight - h))
                    count += 1
                }
            }
        }
        return [
            "  geodetic → ECEF → geodetic round trips: \(count) points, h from −11 km to 36,000 km",
            String(format: "    max |Δlatitude| = %.3e°, max |Δheight| = %.3e m", maxLat, maxH),
        ] + geodesicLines() + (try projComparisons(context))
    }

    /// Geodesics (Karney 2013): inverse → direct round trips and swap symmetry on a deterministic
    /// global sample of point pairs (a quarter of them nearly antipodal, a tenth shorter than
    /// ~1 km), plus the pole-to-pole length against the WGS84 meridian (2 × 10,001,965.7293 m).
    static func geodesicLines() -> [String] {
        let g = Geodesic.wgs84
        // Deterministic sample: a 64-bit LCG (Knuth's MMIX constants), top 53 bits → [0, 1).
        var state: UInt64 = 0x5EED_2013
        func uniform(_ lo: Double, _ hi: Double) -> Double {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return lo + (hi - lo) * Double(state >> 11) * 0x1p-53
        }
        let pairs = 20_000
        var maxMiss = 0.0, maxAzi = 0.0, maxSym = 0.0, maxDistance = 0.0
        for i in 0..<pairs {
            let lat1 = uniform(-90, 90), lon1 = uniform(-180, 180)
            var lat2 = uniform(-90, 90), lon2 = uniform(-180, 180)
            if i % 4 == 0 { lat2 = max(-90, min(90, -lat1 + uniform(-1, 1))); lon2 = lon1 + 180 + uniform(-1, 1) }
            if i % 10 == 1 { lat2 = max(-90, min(90, lat1 + uniform(-0.005, 0.005))); lon2 = lon1 + uniform(-0.005, 0.005) }
            let r = g.inverse(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2)
            let d = g.direct(latitude: lat1, longitude: lon1, azimuth: r.azimuth1, distance: r.distance)
            let miss = g.distance(latitude1: d.latitude, longitude1: d.longitude, latitude2: lat2, longitude2: lon2)
            maxMiss = max(maxMiss, miss)
            // Near a pole the azimuth is ill-conditioned (the meridian turns fast), so only
            // points farther than ~1 km from both poles count here.
            if abs(lat1) < 89.99, abs(lat2) < 89.99 {
                maxAzi = max(maxAzi, abs(Angle.difference(from: r.azimuth2, to: d.azimuth2)))
            }
            let back = g.inverse(latitude1: lat2, longitude1: lon2, latitude2: lat1, longitude2: lon1)
            maxSym = max(maxSym, abs(back.distance - r.distance))
            maxDistance = max(maxDistance, r.distance)
        }
        let poles = g.inverse(latitude1: -90, longitude1: 0, latitude2: 90, longitude2: 0).distance
        return [
            "  geodesics (Karney 2013, native): \(pairs) global pairs up to \(String(format: "%.0f", maxDistance / 1000)) km, 25 % nearly antipodal",
            String(format: "    inverse → direct: max end-point miss = %.3e m, max |Δα₂| = %.3e° (ends > 1 km from the poles)", maxMiss, maxAzi),
            String(format: "    swap symmetry: max |s₁₂ − s₂₁| = %.3e m; pole to pole %.4f m (WGS84 meridian: 20003931.4586 m)",
                   maxSym, poles),
        ]
    }
}
