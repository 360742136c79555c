import Foundation
import Testing
@testable import GeoAnchorKit

@Suite("Segment grid limits")
struct SegmentGridLimitTests {
    /// A long thin extent: the cell came from the bounding-box area, so a 1e6 m line with
    /// maximumCells 1000 got 31.6 m cells and 31,625 × 3 of them (a thin 1e10 m line with the
    /// defaults ran > 60 s and 1.09 GB). Now each side has at most √maximumCells + 3 cells.
    /// Reference for the query: the perpendicular distance to the x axis, by hand (tolerance
    /// 1e-9 m).
    @Test func thinExtentStaysWithinMaximumCells() {
        let line = PlanarPolyline([PlanarPoint(x: 0, y: 0), PlanarPoint(x: 1e6, y: 0)])
        let grid = SegmentGrid(lines: [line], maximumCells: 1000)
        let side = 1000.0.squareRoot() + 3
        #expect(Double(grid.columns) <= side && Double(grid.rows) <= side)
        #expect(abs(grid.distance(to: PlanarPoint(x: 5e5, y: 7)) - 7) < 1e-9)
        #expect(abs(grid.distance(to: PlanarPoint(x: -3, y: 4)) - 5) < 1e-9)
        // A 1e9 m line (the largest allowed coordinate) with the defaults: ≤ 635 × 635 cells.
        let long = SegmentGrid(lines: [PlanarPolyline([PlanarPoint(x: -1e9, y: 0), PlanarPoint(x: 1e9, y: 1)])])
        #expect(long.columns <= 636 && long.rows <= 636)
        #expect(abs(long.distance(to: PlanarPoint(x: 0, y: 100.5)) - 100) < 1e-6)
    }

    /// Untrusted coordinates: (0,0)–(1e300,1e300) trapped converting NaN to Int, (−1e308,0)–
    /// (1e308,0) an overflowing extent. The validating initializer names the first bad value
    /// (reference: SegmentGrid.maximumCoordinate).
    @Test func validatingInitializerNamesTheBadCoordinate() throws {
        let allowed = ValueRange.closed(-SegmentGrid.maximumCoordinate, SegmentGrid.maximumCoordinate, unit: "m")
        func grid(_ a: PlanarPoint, _ b: PlanarPoint) throws(GeoAnchorError) -> SegmentGrid {
            try SegmentGrid(validating: [PlanarPolyline([a, b])])
        }
        #expect(throws: GeoAnchorError.outOfRange(name: "lines[0].points[1].x", value: 1e300, allowed: allowed)) {
            try grid(PlanarPoint(x: 0, y: 0), PlanarPoint(x: 1e300, y: 1e300))
        }
        #expect(throws: GeoAnchorError.outOfRange(name: "lines[0].points[0].x", value: -1e308, allowed: allowed)) {
            try grid(PlanarPoint(x: -1e308, y: 0), PlanarPoint(x: 1e308, y: 0))
        }
        #expect(throws: GeoAnchorError.nonFinite(name: "lines[0].points[1].y", value: .infinity)) {
            try grid(PlanarPoint(x: 0, y: 0), PlanarPoint(x: 1, y: .infinity))
        }
        #expect(throws: GeoAnchorError.outOfRange(name: "lines[0].points[1].x", value: 1e10, allowed: allowed)) {
            try grid(PlanarPoint(x: 0, y: 0), PlanarPoint(x: 1e10, y: 0))
        }
        let ok = try grid(PlanarPoint(x: 0, y: 0), PlanarPoint(x: 100, y: 0))
        #expect(ok.count == 1 && abs(ok.distance(to: PlanarPoint(x: 50, y: 3)) - 3) < 1e-12)
    }

    /// Long segments in a small extent: 100 edges of ~1000 m zig-zagging inside 1000 m. The cell
    /// came from the extent alone (1001 / √1000 = 31.7 m), so each edge was registered in ~95
    /// cells (100,000 spokes of 2 km: 9.5·10⁷ entries, > 1 GB). Now cell ≥ total length /
    /// maximumCells (10⁵ m / 1000 = 100 m) and the entries stay O(maximumCells + segments).
    /// Reference for the query: the zig-zag's vertex (0, 0) is 5 m from (−3, −4) (tolerance 1e-9 m).
    @Test func totalLengthBoundsTheRegistrations() {
        let pts = (0...100).map { i in PlanarPoint(x: i % 2 == 0 ? 0 : 1000, y: Double(i) * 0.1) }
        let line = PlanarPolyline(pts)
        let grid = SegmentGrid(lines: [line], maximumCells: 1000)
        #expect(grid.cellSize >= line.length / 1000)
        #expect(grid.cellSegments.count <= 4 * 1000 + 9 * 100, "\(grid.cellSegments.count) entries")
        #expect(abs(grid.distance(to: PlanarPoint(x: -3, y: -4)) - 5) < 1e-9)
    }
}
