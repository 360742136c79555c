import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport

/// Paths drawn without heights take a DEM's (`PathNetwork.withHeights(from:spacing:)`). The DEM
/// is the hill GDAL wrote (scripts/dev/dem_fixtures.py: h = 300 + 80·exp(−(dx² + dy²)) m, dx, dy
/// in units of 700 m from 14.40° E 49.955° N, 0.25 m steps, 3″ cells). References: the DEM itself
/// at every sample (1e-9 m); the analytic hill for the climbs of a walk over its top (0.5 m: the
/// grid's 0.25 m steps and bilinear interpolation between 3″ cells).
@Suite("Path network heights from a DEM")
struct PathNetworkTerrainTests {
    static let dem = SharedData.repositoryRoot.appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/DEM/hill.f32.tif")
    static func hill(_ lat: Double, _ lon: Double) -> Double {
        let dx = (lon - 14.40) * 71.7e3 / 700, dy = (lat - 49.955) * 111.2e3 / 700
        return 300 + 80 * exp(-(dx * dx + dy * dy))
    }

    @Test func climbsFollowTheGround() throws {
        let grid = try ElevationGrid(contentsOf: Self.dem)
        let west = GeodeticCoordinate(latitude: 49.955, longitude: 14.385), top = GeodeticCoordinate(latitude: 49.955, longitude: 14.40)
        let east = GeodeticCoordinate(latitude: 49.955, longitude: 14.415), north = GeodeticCoordinate(latitude: 49.965, longitude: 14.40)
        let flat = try PathNetwork(lineStrings: [[west, top, east], [top, north]], hasHeights: false)
        let lifted = try flat.withHeights(from: grid, spacing: 25)
        #expect(lifted.hasHeights && lifted.vertices.count > 80 && lifted.edges.count == lifted.vertices.count - 1)
        for v in lifted.vertices {
            #expect(v.verticalReference == .meanSeaLevel)
            #expect(abs(v.height - (try grid.terrainHeight(latitude: v.latitude, longitude: v.longitude))) < 1e-9)
        }
        let length = { (n: PathNetwork) in n.edges.reduce(0) { $0 + $1.length } }
        #expect(abs(length(lifted) - length(flat)) < 1e-3 * length(flat))
        // West to east over the top: up what the hill rises above the west end, and down again.
        let ends = [west, east].map { GeodeticCoordinate(latitude: $0.latitude, longitude: $0.longitude, height: Self.hill($0.latitude, $0.longitude), verticalReference: .meanSeaLevel) }
        let over = try lifted.costs(between: ends)
        let rise = Self.hill(49.955, 14.40) - Self.hill(49.955, 14.385)
        #expect(abs(over.ascents[0, 1] - rise) < 0.5 && abs(over.descents[0, 1] - rise) < 0.5, "\(over.ascents[0, 1]) vs \(rise)")
        let level = try flat.costs(between: ends)
        #expect(level.ascents[0, 1] < 0.5 && over.durations[0, 1] > level.durations[0, 1] * 1.05)
        // Off the DEM: named.
        let far = try PathNetwork(lineStrings: [[west, GeodeticCoordinate(latitude: 49.99, longitude: 14.385)]], hasHeights: false)
        #expect { _ = try far.withHeights(from: grid) } throws: { e in "\(e)".contains("DEM") && "\(e)".contains("outside the coverage") }
        #expect { _ = try flat.withHeights(from: grid, spacing: 0) } throws: { e in "\(e)".contains("spacing 0.0 m is not positive") }
    }
}
