import Foundation
import GeoAnchorKit

/// Geodesy section: round-trip exactness of the core conversions on a global grid.
enum GeodesyReport: ReportSection {
    static let title = "Geodesy: geodetic ↔ ECEF ↔ ENU"

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
        ] + (try projComparisons(context))
    }
}
