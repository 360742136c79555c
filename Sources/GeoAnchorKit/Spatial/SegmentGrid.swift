import Foundation

/// A uniform grid over the segments of planar polylines: the one segment index of the library.
///
/// Used by the tour session (progress along the path), the position filter's path constraint
/// (map aiding), the pure-Swift zone evaluator (distance to a zone boundary, point in polygon)
/// and path-network snapping. Segments are numbered across the lines in order: line 0's
/// segments first, then line 1's, …; ``line`` and ``segmentInLine`` map a global number back.
///
/// Every query is exact: the grid only decides which segments to look at, and a query whose
/// ring search would visit more cells than there are segments scans the segments instead, so a
/// point far from a sparse path costs at most O(segments).
///
/// - Complexity: cells ≥ `minimumCellSize` (default 10 m), at most √`maximumCells` + 3 per row
///   and per column (default 400,000 cells: ≤ 635 × 635), also for a long thin extent, and at
///   least (total length of the lines) / `maximumCells`, so building is O(`maximumCells` +
///   segments) in time and memory whatever the segments' lengths (100,000 spokes 2 km long
///   registered 9.5·10⁷ cell entries, > 1 GB, before that last bound).
public struct SegmentGrid: Sendable {
    /// The polylines, as given.
    public let lines: [PlanarPolyline]
    /// Segment k runs from `start[k]` to `start[k] + direction[k]`.
    public let start: [PlanarPoint], direction: [PlanarPoint]
    /// For segment k: the line it belongs to and its index within that line.
    public let line: [Int32], segmentInLine: [Int32]
    /// Grid origin (m), cell size (m), cells per row / column.
    public let origin: PlanarPoint, cellSize: Double, columns: Int, rows: Int
    /// CSR lists: the segments passing within cell c are `cellSegments[cellStart[c]..<cellStart[c+1]]`
    /// (a superset: every cell a segment touches lists it).
    let cellStart: [Int32], cellSegments: [Int32]

    /// Number of segments over all lines.
    @inlinable public var count: Int { start.count }

    /// Indexes the segments of `lines`.
    /// - Parameters:
    ///   - lines: the polylines whose segments are indexed (meters, one plane).
    ///   - minimumCellSize: meters (> 0).
    ///   - maximumCells: upper bound on the number of cells (≥ 1).
    /// - Precondition: every coordinate finite and within ±``maximumCoordinate``, and the total
    ///   number of segments below 2³¹ (the library's callers build lines from validated geodetic
    ///   coordinates, ≤ 1.3·10⁷ m from their frame's origin). For untrusted input use
    ///   ``init(validating:minimumCellSize:maximumCells:)``.
    public init(lines: [PlanarPolyline], minimumCellSize: Double = 10, maximumCells: Int = 400_000) {
        precondition(minimumCellSize > 0 && maximumCells >= 1, "grid parameters")
        var start: [PlanarPoint] = [], direction: [PlanarPoint] = [], line: [Int32] = [], inLine: [Int32] = []
        var minX = Double.infinity, minY = Double.infinity, maxX = -Double.infinity, maxY = -Double.infinity
        var totalLength = 0.0
        for (li, l) in lines.enumerated() {
            totalLength += l.length
            for i in 0..<l.segmentCount {
                start.append(l.points[i])
                direction.append(l.points[i + 1] - l.points[i])
                line.append(Int32(li)); inLine.append(Int32(i))
            }
            for v in l.points {
                precondition(Swift.abs(v.x) <= Self.maximumCoordinate && Swift.abs(v.y) <= Self.maximumCoordinate,
                             "segment grid: vertex (\(v.x), \(v.y)) is not within ±\(Self.maximumCoordinate) m")
                minX = Swift.min(minX, v.x); minY = Swift.min(minY, v.y); maxX = Swift.max(maxX, v.x); maxY = Swift.max(maxY, v.y)
            }
        }
        self.lines = lines
        self.start = start; self.direction = direction; self.line = line; self.segmentInLine = inLine
        if start.isEmpty { minX = 0; minY = 0; maxX = 0; maxY = 0 }
        // From the larger side, not the area: a thin line 1e6 m long would otherwise get 31.6 m
        // cells and 31,625 × 3 of them (for maximumCells 1000).
        // And from the total length: each segment is registered in ~3 cells per cell of its length,
        // so Σ length / cell ≤ maximumCells bounds the registrations.
        let cell = Swift.max(minimumCellSize, (Swift.max(maxX - minX, maxY - minY) + 1) / Double(maximumCells).squareRoot(),
                             totalLength / Double(maximumCells))
        cellSize = cell
        origin = PlanarPoint(x: minX - cell, y: minY - cell)
        // Bounded: extent / cell ≤ √maximumCells on each side by the choice of cell.
        let columns = Int(((maxX - minX) / cell).rounded(.down)) + 3
        let rows = Int(((maxY - minY) / cell).rounded(.down)) + 3
        self.columns = columns; self.rows = rows
        // Every cell a segment passes through is among the 3×3 neighbourhoods of its samples
        // taken every half cell (a point of the segment is ≤ cell/4 from a sample).
        var pairs: [(cell: Int32, segment: Int32)] = []
        var seen = Set<Int>()
        for i in 0..<start.count {
            let len = direction[i].length
            let samples = Swift.max(1, Int((2 * len / cell).rounded(.up)))
            seen.removeAll(keepingCapacity: true)
            for k in 0...samples {
                let q = start[i] + direction[i] * (Double(k) / Double(samples))
                let cx = Int(((q.x - origin.x) / cell).rounded(.down)), cy = Int(((q.y - origin.y) / cell).rounded(.down))
                for y in Swift.max(0, cy - 1)...Swift.min(rows - 1, cy + 1) {
                    for x in Swift.max(0, cx - 1)...Swift.min(columns - 1, cx + 1) where seen.insert(y * columns + x).inserted {
                        pairs.append((Int32(y * columns + x), Int32(i)))
                    }
                }
            }
        }
        pairs.sort { $0.cell < $1.cell || ($0.cell == $1.cell && $0.segment < $1.segment) }
        var cellStart = [Int32](repeating: 0, count: columns * rows + 1)
        for p in pairs { cellStart[Int(p.cell) + 1] += 1 }
        for c in 0..<(columns * rows) { cellStart[c + 1] += cellStart[c] }
        self.cellStart = cellStart
        cellSegments = pairs.map(\.segment)
    }

    /// Largest |x| and |y| (m) of a vertex: 10⁹ m, 75 Earth diameters (any map projection of the
    /// Earth stays within 4·10⁷ m), and small enough that squared distances stay exact to µm.
    public static let maximumCoordinate = 1e9

    /// Indexes the segments of `lines` after checking them: for coordinates from outside.
    /// - Throws: ``GeoAnchorError/nonFinite(name:value:)`` or
    ///   ``GeoAnchorError/outOfRange(name:value:allowed:)`` naming the first bad coordinate
    ///   (`lines[i].points[j].x`) or parameter.
    public init(validating lines: [PlanarPolyline], minimumCellSize: Double = 10,
                maximumCells: Int = 400_000) throws(GeoAnchorError) {
        try ValueRange.greaterThan(0, unit: "m").check(minimumCellSize, name: "minimumCellSize")
        guard maximumCells >= 1 else {
            throw .outOfRange(name: "maximumCells", value: Double(maximumCells), allowed: .atLeast(1))
        }
        let allowed = ValueRange.closed(-Self.maximumCoordinate, Self.maximumCoordinate, unit: "m")
        for (i, l) in lines.enumerated() {
            for (j, v) in l.points.enumerated() {
                try allowed.check(v.x, name: "lines[\(i)].points[\(j)].x")
                try allowed.check(v.y, name: "lines[\(i)].points[\(j)].y")
            }
        }
        self.init(lines: lines, minimumCellSize: minimumCellSize, maximumCells: maximumCells)
    }

    /// The closest point of segment `k` to `p` (see ``PlanarPoint/projection(onSegmentFrom:to:)``).
    @inline(__always)
    public func project(_ p: PlanarPoint, segment k: Int) -> (t: Double, point: PlanarPoint, distance: Double) {
        p.projection(onSegmentFrom: start[k], direction: direction[k])
    }

    /// The cell column and row of `p` (may lie outside the grid; clamped far outside so that
    /// absurd coordinates cannot trap in the conversion).
    @inline(__always)
    func cellOf(_ p: PlanarPoint) -> (x: Int, y: Int) {
        let lim = 1e12   // cells: far beyond any grid, far inside Int
        let fx = ((p.x - origin.x) / cellSize).rounded(.down), fy = ((p.y - origin.y) / cellSize).rounded(.down)
        return (Int(Swift.max(-lim, Swift.min(lim, fx.isNaN ? -lim : fx))), Int(Swift.max(-lim, Swift.min(lim, fy.isNaN ? -lim : fy))))
    }

    /// Visits the segments of the cells in square rings around `p`'s cell, ring by ring, until
    /// `done(bound)` says stop, where `bound` is a lower bound on the distance of every segment
    /// not yet visited (a segment may be visited more than once). Nothing is visited when every
    /// cell is farther than `radius`, so a point far from the lines costs O(1) for a bounded
    /// radius. When the rings would visit more cells than there are segments, every segment is
    /// visited once instead (then `done` is not consulted).
    @inline(__always)
    public func visit(around p: PlanarPoint, radius: Double, _ body: (Int) -> Void, done: (Double) -> Bool) {
        let (cx, cy) = cellOf(p)
        // Rings that miss the grid entirely are empty: start at the first that reaches it.
        let r0 = Swift.max(0, -cx, cx - (columns - 1), -cy, cy - (rows - 1))
        let rMax = Swift.max(cx, columns - 1 - cx, cy, rows - 1 - cy)
        // Cells of ring r are at least (r − 1) cells from p.
        if Double(r0 - 1) * cellSize > radius { return }
        func cellBody(_ x: Int, _ y: Int) {
            guard x >= 0, x < columns, y >= 0, y < rows else { return }
            let c = y * columns + x
            for k in Int(cellStart[c])..<Int(cellStart[c + 1]) { body(Int(cellSegments[k])) }
        }
        let budget = Swift.max(64, 2 * count)
        var visited = 0
        var r = r0
        while r <= rMax {
            visited += r == 0 ? 1 : 8 * r
            if visited > budget {
                for k in 0..<count { body(k) }
                return
            }
            if r == 0 {
                cellBody(cx, cy)
            } else {
                // The ring's rows and columns clipped to the grid (an empty stride when clipped away).
                for x in stride(from: Swift.max(cx - r, 0), through: Swift.min(cx + r, columns - 1), by: 1) {
                    cellBody(x, cy - r); cellBody(x, cy + r)
                }
                for y in stride(from: Swift.max(cy - r + 1, 0), through: Swift.min(cy + r - 1, rows - 1), by: 1) {
                    cellBody(cx - r, y); cellBody(cx + r, y)
                }
            }
            // Every cell beyond ring r is at least r cells from p.
            if done(Double(r) * cellSize) || Double(r) * cellSize > radius { return }
            r += 1
        }
    }

    /// The nearest segment to `p` and its distance (m), when within `radius`; ties go to the
    /// lowest segment number (as a linear scan in order would choose). nil for an empty grid
    /// or when every segment is farther than `radius`.
    public func nearest(to p: PlanarPoint, within radius: Double = .infinity) -> (segment: Int, distance: Double)? {
        var best = Double.infinity, bestK = -1
        visit(around: p, radius: radius, { k in
            let d = project(p, segment: k).distance
            if d < best || (d == best && k < bestK) { best = d; bestK = k }
        }, done: { $0 >= best })
        return bestK >= 0 && best <= radius ? (bestK, best) : nil
    }

    /// Distance (m) from `p` to the nearest segment when it is at most `radius`, else infinity.
    public func distance(to p: PlanarPoint, within radius: Double = .infinity) -> Double {
        nearest(to: p, within: radius)?.distance ?? .infinity
    }

    /// Every segment whose distance to `p` is at most `radius`, in increasing segment number.
    public func segments(within radius: Double, of p: PlanarPoint) -> [Int] {
        var found: [Int] = []
        visit(around: p, radius: radius, { k in
            if project(p, segment: k).distance <= radius { found.append(k) }
        }, done: { $0 > radius })
        found.sort()
        var unique: [Int] = []
        unique.reserveCapacity(found.count)
        for k in found where unique.last != k { unique.append(k) }
        return unique
    }

    /// Even–odd crossing count of the ray from `p` towards +x with every segment (half-open in y,
    /// so a vertex on the ray counts once): odd means `p` is inside the region the lines bound
    /// when they are closed rings (outer rings and holes alike, any number of polygons).
    /// Each crossing is counted in the one grid cell that holds the crossing point, so a
    /// segment listed in several cells of the row counts once.
    public func crossingCountToEast(of p: PlanarPoint) -> Int {
        var crossings = 0
        forEachCrossingToEast(of: p) { _ in crossings += 1 }
        return crossings
    }

    /// Calls `body(k)` once for every segment `k` the ray from `p` towards +x crosses (the
    /// crossings ``crossingCountToEast(of:)`` counts), e.g. to count them per line.
    public func forEachCrossingToEast(of p: PlanarPoint, _ body: (Int) -> Void) {
        let (cx, cy) = cellOf(p)
        guard cy >= 0, cy < rows, cx < columns else { return }
        let row = cy * columns
        for x in Swift.max(0, cx)..<columns {
            let c = row + x
            for k in Int(cellStart[c])..<Int(cellStart[c + 1]) {
                let s = Int(cellSegments[k])
                let a = start[s], d = direction[s]
                let b = a + d
                guard (a.y > p.y) != (b.y > p.y) else { continue }
                let xc = a.x + (p.y - a.y) * d.x / d.y
                guard xc > p.x else { continue }
                // Count where the crossing point lies (its own cell lists the segment).
                let col = cellOf(PlanarPoint(x: xc, y: p.y)).x
                if col == x || (x == Swift.max(0, cx) && col < x) || (x == columns - 1 && col > x) { body(s) }
            }
        }
    }
}
