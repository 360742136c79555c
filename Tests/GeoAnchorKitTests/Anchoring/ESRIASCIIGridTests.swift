import Foundation
import Testing
@testable import GeoAnchorKit

/// ESRI ASCII grid DEM reader. Reference: a grid sampled from the plane
/// z = 100 + 20·(lon − 14) + 50·(lat − 49); bilinear interpolation reproduces a plane exactly,
/// so every interpolated height must equal the plane to 1e-9 m.
@Suite("Anchoring: ESRI ASCII grid DEM")
struct ESRIASCIIGridTests {
    static func plane(_ lat: Double, _ lon: Double) -> Double { 100 + 20 * (lon - 14) + 50 * (lat - 49) }

    static var planarText: String {
        // 4 columns × 3 rows, cell 0.1°, lower-left corner (14.0, 49.0): centres at 14.05 … 14.35, 49.05 … 49.25.
        var rows: [String] = []
        for r in (0..<3).reversed() {   // north row first
            rows.append((0..<4).map { c in String(plane(49.05 + 0.1 * Double(r), 14.05 + 0.1 * Double(c))) }.joined(separator: " "))
        }
        return "ncols 4\nnrows 3\nxllcorner 14.0\nyllcorner 49.0\ncellsize 0.1\nNODATA_value -9999\n" + rows.joined(separator: "\n")
    }

    @Test func bilinearReproducesPlane() throws {
        let g = try ESRIASCIIGrid(text: Self.planarText)
        #expect(g.columns == 4 && g.rows == 3)
        var rng = SplitMix64(seed: 3)
        for _ in 0..<200 {
            let lat = Double.random(in: 49.05...49.25, using: &rng), lon = Double.random(in: 14.05...14.35, using: &rng)
            #expect(abs(try g.terrainHeight(latitude: lat, longitude: lon) - Self.plane(lat, lon)) < 1e-9)
        }
        // Exactly at a cell centre.
        #expect(abs(try g.terrainHeight(latitude: 49.15, longitude: 14.25) - Self.plane(49.15, 14.25)) < 1e-9)
        // Half-cell border: edge values extended (south-west corner cell centre value).
        #expect(abs(try g.terrainHeight(latitude: 49.01, longitude: 14.01) - Self.plane(49.05, 14.05)) < 1e-9)
    }

    @Test func outsideAndNoData() throws {
        let g = try ESRIASCIIGrid(text: Self.planarText)
        #expect(throws: GeoAnchorError.self) { try g.terrainHeight(latitude: 49.31, longitude: 14.2) }
        #expect(throws: GeoAnchorError.self) { try g.terrainHeight(latitude: 49.1, longitude: 13.99) }
        let nd = try ESRIASCIIGrid(text: "ncols 2\nnrows 2\nxllcenter 0\nyllcenter 0\ncellsize 1\nNODATA_value -1\n5 -1\n5 5\n")
        // North-east cell is NODATA: anything interpolating from it fails, the south-west corner works.
        #expect(throws: GeoAnchorError.outsideCoverage(latitude: 0.9, longitude: 0.9, what: "DEM <grid> (NODATA cell)")) {
            try nd.terrainHeight(latitude: 0.9, longitude: 0.9)
        }
        #expect(try nd.terrainHeight(latitude: 0, longitude: 0) == 5)
    }

    @Test func corruptFilesNameTheLine() {
        #expect(throws: GeoAnchorError.corruptFile(path: "x.asc", reason: "line 2: unknown header keyword 'nrowz'")) {
            try ESRIASCIIGrid(text: "ncols 2\nnrowz 2\n", name: "x.asc")
        }
        #expect(throws: GeoAnchorError.corruptFile(path: "x.asc", reason: "line 7: 'abc' is not a number")) {
            try ESRIASCIIGrid(text: "ncols 2\nnrows 1\nxllcorner 0\nyllcorner 0\ncellsize 1\n\n1 abc\n", name: "x.asc")
        }
        #expect(throws: GeoAnchorError.self) {
            try ESRIASCIIGrid(text: "ncols 2\nnrows 2\nxllcorner 0\nyllcorner 0\ncellsize 1\n1 2 3\n", name: "x.asc")
        }
        #expect(throws: GeoAnchorError.corruptFile(path: "x.asc", reason: "header keyword 'cellsize' missing")) {
            try ESRIASCIIGrid(text: "ncols 1\nnrows 1\nxllcorner 0\nyllcorner 0\n1\n", name: "x.asc")
        }
    }
}
