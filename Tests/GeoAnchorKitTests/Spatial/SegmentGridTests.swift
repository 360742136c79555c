import Foundation
import Testing
@testable import GeoAnchorKit

/// The one segment index against brute force (reference: a linear scan over every segment with
/// the same projection; exact equality, since both compute the same floating-point expressions).
@Suite("Spatial: segment grid")
struct SegmentGridTests {
    /// A random walk polyline (n vertices, steps up to `step` m) and random query points around it.
    static func randomLines(seed: UInt64, lines: Int, vertices: Int, step: Double) -> [PlanarPolyline] {
        var rng = SplitMix64(seed: seed)
        return (0..<lines).map { _ in
            var p = PlanarPoint(x: rng.uniform() * 2000 - 1000, y: rng.uniform() * 2000 - 1000)
            var pts = [p]
            for _ in 1..<vertices {
                p = p + PlanarPoint(x: (rng.uniform() * 2 - 1) * step, y: (rng.uniform() * 2 - 1) * step)
                pts.append(p)
            }
            return PlanarPolyline(pts)
        }
    }

    @Test func nearestEqualsLinearScan() {
        for seed in 1...4 as ClosedRange<UInt64> {
            let lines = Self.randomLines(seed: seed, lines: 3, vertices: 200, step: 40)
            let grid = SegmentGrid(lines: lines)
            var rng = SplitMix64(seed: seed + 100)
            for _ in 0..<500 {
                // Near, far and very far points (the far ones exercise the linear fallback).
                let spread = [100.0, 3000, 1e6][Int(rng.uniform() * 3)]
                let p = PlanarPoint(x: (rng.uniform() * 2 - 1) * spread, y: (rng.uniform() * 2 - 1) * spread)
                var best = Double.infinity, bestK = -1
                for k in 0..<grid.count {
                    let d = grid.project(p, segment: k).distance
                    if d < best { best = d; bestK = k }
                }
                let n = grid.nearest(to: p)
                #expect(n?.segment == bestK && n?.distance == best)
                // Bounded radius: nil beyond it, the same answer within it.
                let r = 50.0
                #expect(grid.nearest(to: p, within: r)?.segment == (best <= r ? bestK : nil))
                // Every segment within a radius, exactly those.
                let within = grid.segments(within: best + 5, of: p)
                #expect(within == (0..<grid.count).filter { grid.project(p, segment: $0).distance <= best + 5 })
            }
        }
    }

    /// Progress along a path with the grid equals the linear scan (tie-breaking included).
    @Test func polylineProjectionWithIndexEqualsLinear() {
        let line = Self.randomLines(seed: 9, lines: 1, vertices: 400, step: 30)[0]
        let grid = SegmentGrid(lines: [line])
        var rng = SplitMix64(seed: 10)
        var along: Double? = nil
        for _ in 0..<1000 {
            let p = PlanarPoint(x: (rng.uniform() * 2 - 1) * 1500, y: (rng.uniform() * 2 - 1) * 1500)
            let a = line.project(p, previousAlong: along), b = line.project(p, previousAlong: along, index: grid)
            #expect(a == b)
            along = a.along
        }
    }

    /// Even–odd crossing count against a plain loop over every segment (rings of a random
    /// star-shaped polygon with a hole; points on a lattice that hits vertices' y exactly).
    @Test func crossingCountEqualsLinear() {
        var rng = SplitMix64(seed: 3)
        func star(_ c: PlanarPoint, _ r: Double, _ n: Int) -> PlanarPolyline {
            var pts = (0..<n).map { k -> PlanarPoint in
                let a = Double(k) / Double(n) * 2 * Double.pi, rr = r * (0.5 + rng.uniform())
                return PlanarPoint(x: (c.x + rr * cos(a)).rounded(), y: (c.y + rr * sin(a)).rounded())
            }
            pts.append(pts[0])
            return PlanarPolyline(pts)
        }
        let rings = [star(PlanarPoint(x: 0, y: 0), 400, 60), star(PlanarPoint(x: 10, y: 0), 60, 12)]
        let grid = SegmentGrid(lines: rings)
        for x in stride(from: -700.0, through: 700, by: 7) {
            for y in stride(from: -700.0, through: 700, by: 7) {
                let p = PlanarPoint(x: x, y: y)
                var n = 0
                for r in rings {
                    for k in 0..<r.segmentCount {
                        let a = r.points[k], b = r.points[k + 1]
                        if (a.y > p.y) != (b.y > p.y), a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y) > p.x { n += 1 }
                    }
                }
                #expect(grid.crossingCountToEast(of: p) == n, "(\(x), \(y))")
            }
        }
    }
}
