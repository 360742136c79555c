import Foundation

/// A uniform-grid spatial prefilter for circular fences in a local planar frame.
///
/// Each circle is registered in every cell its bounding square touches; a query returns the
/// fences registered in the cells of a query square, each once. Cell size is chosen from the
/// radii (2 × the median radius, clamped to [10, 500] m), so a query at walking-scale σ touches
/// a handful of cells regardless of how many fences the tour has.
///
/// Exact, not approximate: every fence whose disc intersects the query square is returned (the
/// caller then computes exact distances). Checked against brute force in the tests.
public struct CircleFenceIndex: Sendable {
    /// Circle centres (m, local frame) and radii (m).
    public let centers: [PlanarPoint]
    public let radii: [Double]
    /// Cell edge length, meters.
    public let cellSize: Double
    private var cells: [Int64: [Int32]] = [:]
    /// Fences whose bounding square covers more than ``maximumCellsPerFence`` cells (a 1000 km
    /// radius): kept in a list checked on every query instead of registered cell by cell, so
    /// memory stays proportional to the number of fences whatever their radii.
    private var large: [Int32] = []
    /// Most grid cells one fence is registered in.
    public static let maximumCellsPerFence = 1_024
    private var stamp: [UInt32]
    private var generation: UInt32 = 0

    /// Indexes circles; `centers[i]`, `radii[i]` describe fence `i`.
    public init(centers: [PlanarPoint], radii: [Double]) {
        precondition(centers.count == radii.count, "one radius per centre")
        self.centers = centers
        self.radii = radii
        let sorted = radii.sorted()
        let median = sorted.isEmpty ? 20 : sorted[sorted.count / 2]
        cellSize = Swift.min(500, Swift.max(10, 2 * median))
        stamp = [UInt32](repeating: 0, count: centers.count)
        for i in centers.indices {
            let c = centers[i], r = radii[i]
            let (x0, y0) = cell(c.x - r, c.y - r), (x1, y1) = cell(c.x + r, c.y + r)
            // Counted in Double: spans of 2e14 cells would overflow Int64 when multiplied.
            if Double(x1 - x0 + 1) * Double(y1 - y0 + 1) > Double(Self.maximumCellsPerFence) {
                large.append(Int32(i))
                continue
            }
            for cx in x0...x1 { for cy in y0...y1 { cells[key(cx, cy), default: []].append(Int32(i)) } }
        }
    }

    @inline(__always) private func cell(_ x: Double, _ y: Double) -> (Int64, Int64) {
        // Clamp so that absurd inputs (1e300 m) cannot trap in the Int conversion.
        let lim = 1e15
        return (Int64((Swift.max(-lim, Swift.min(lim, x)) / cellSize).rounded(.down)),
                Int64((Swift.max(-lim, Swift.min(lim, y)) / cellSize).rounded(.down)))
    }
    @inline(__always) private func key(_ cx: Int64, _ cy: Int64) -> Int64 { (cx &* 73_856_093) ^ (cy &* 19_349_663 &<< 20) ^ cy }

    /// Calls `body(i)` once for every fence whose disc may intersect the square of half-side
    /// `reach` (m) around `p`. Mutating only to de-duplicate without allocating.
    public mutating func forEachCandidate(near p: PlanarPoint, reach: Double, _ body: (Int) -> Void) {
        generation &+= 1
        if generation == 0 { stamp = [UInt32](repeating: 0, count: stamp.count); generation = 1 }
        let (x0, y0) = cell(p.x - reach, p.y - reach), (x1, y1) = cell(p.x + reach, p.y + reach)
        // A huge reach (a fix with 10 km accuracy) would visit millions of empty cells: fall back
        // to a linear scan, which is then cheaper.
        // (Counted in Double: a reach of 1e15 m spans 1e14 cells a side, whose product overflows Int64.)
        if Double(x1 - x0 + 1) * Double(y1 - y0 + 1) > Double(Swift.max(64, centers.count / 4)) {
            for i in centers.indices { body(i) }
            return
        }
        for i32 in large {
            let i = Int(i32)
            if stamp[i] != generation { stamp[i] = generation; body(i) }
        }
        for cx in x0...x1 {
            for cy in y0...y1 {
                guard let list = cells[key(cx, cy)] else { continue }
                for i32 in list {
                    let i = Int(i32)
                    if stamp[i] != generation { stamp[i] = generation; body(i) }
                }
            }
        }
    }
}
