import Foundation
import Testing
@testable import GeoAnchorKit

/// Spatial index against brute force: every query is answered by scanning all points with
/// `Geodesic.wgs84.distance` on the original coordinates (no chord prefilter, no ECEF), sorted
/// by (distance, id). The ids must be identical and in the same order, distances equal to 1e-6 m
/// (the index recovers latitude/longitude from ECEF, ≤ 1e-14° ≈ 1 nm).
@Suite("Spatial: index vs brute force")
struct SpatialIndexTests {
    typealias P = (id: Int, latitude: Double, longitude: Double)

    /// Clustered points (a city with dense old town) plus a sparse world-wide scatter, poles and
    /// the antimeridian included.
    static func points(_ n: Int, seed: UInt64) -> [P] {
        var rng = SplitMix64(seed: seed)
        var out: [P] = []
        for i in 0..<n {
            switch i % 4 {
            case 0: out.append((i, Double.random(in: -90...90, using: &rng), Double.random(in: -180...180, using: &rng)))
            case 1: out.append((i, 49.96 + Double.random(in: -0.01...0.01, using: &rng), 14.39 + Double.random(in: -0.01...0.01, using: &rng)))
            case 2: out.append((i, Double.random(in: 89.9...90, using: &rng), Double.random(in: -180...180, using: &rng)))
            default: out.append((i, Double.random(in: -1...1, using: &rng), 179.99 + Double.random(in: 0...0.02, using: &rng)))
            }
        }
        return out
    }

    static func brute(_ pts: [P], _ index: SpatialIndex, lat: Double, lon: Double) -> [SpatialIndex.Neighbor] {
        pts.map { p in
            SpatialIndex.Neighbor(id: p.id, distance: Geodesic.wgs84.distance(latitude1: lat, longitude1: lon,
                                                                               latitude2: p.latitude, longitude2: p.longitude))
        }.sorted { $0.distance != $1.distance ? $0.distance < $1.distance : $0.id < $1.id }
    }

    static var queries: [(Double, Double)] {
        [(49.96, 14.39), (49.965, 14.385), (90, 0), (89.95, 120), (0, 180), (0, -179.999), (-45, 60), (-90, 0), (10, 10)]
    }

    @Test func nearestAndRadiusMatchBruteForce() throws {
        let pts = Self.points(4_000, seed: 1)
        let index = try SpatialIndex(points: pts)
        #expect(index.count == pts.count)
        for (lat, lon) in Self.queries {
            let all = Self.brute(pts, index, lat: lat, lon: lon)
            for k in [1, 10, 37] {
                let got = try index.nearest(latitude: lat, longitude: lon, k: k)
                #expect(got.map(\.id) == all.prefix(k).map(\.id), "k=\(k) at \(lat),\(lon)")
                for (g, b) in zip(got, all) { #expect(abs(g.distance - b.distance) <= 1e-6) }
            }
            for r in [50.0, 1_000, 30_000, 2_000_000] {
                let got = try index.within(radius: r, latitude: lat, longitude: lon)
                #expect(got.map(\.id) == all.filter { $0.distance <= r }.map(\.id), "r=\(r) at \(lat),\(lon)")
            }
        }
    }

    /// Inserts and removals (crossing buffer flushes, tree merges and half-dead rebuilds) keep
    /// the index equal to a brute-force set.
    @Test func insertRemoveMatchBruteForce() throws {
        var rng = SplitMix64(seed: 9)
        var live: [Int: P] = [:]
        let base = Self.points(1_500, seed: 2)
        var index = try SpatialIndex(points: Array(base.prefix(500)))
        for p in base.prefix(500) { live[p.id] = p }
        var next = 500
        for step in 0..<1_000 {
            if Bool.random(using: &rng) || live.isEmpty {
                let p = base[next % base.count]
                let q: P = (10_000 + next, p.latitude, p.longitude)
                try index.insert(id: q.id, latitude: q.latitude, longitude: q.longitude)
                live[q.id] = q; next += 1
            } else {
                let id = live.keys.sorted()[Int.random(in: 0..<live.count, using: &rng)]
                let removed = index.remove(id: id)
                #expect(removed)
                live[id] = nil
            }
            if step % 200 == 0 || step == 999 {
                #expect(index.count == live.count)
                let pts = Array(live.values)
                for (lat, lon) in Self.queries.prefix(4) {
                    let all = Self.brute(pts, index, lat: lat, lon: lon)
                    #expect(try index.nearest(latitude: lat, longitude: lon, k: 10).map(\.id) == all.prefix(10).map(\.id))
                    #expect(try index.within(radius: 1_500, latitude: lat, longitude: lon).map(\.id)
                            == all.filter { $0.distance <= 1_500 }.map(\.id))
                }
            }
        }
        let removedMissing = index.remove(id: -5)
        #expect(removedMissing == false)
    }

    @Test func badInputIsTyped() throws {
        let index = try SpatialIndex(points: [(1, 0, 0)])
        #expect(throws: GeoAnchorError.invalidLatitude(91)) { try index.nearest(latitude: 91, longitude: 0, k: 1) }
        #expect(throws: GeoAnchorError.outOfRange(name: "radius", value: -1, allowed: .atLeast(0))) {
            try index.within(radius: -1, latitude: 0, longitude: 0)
        }
        #expect(throws: GeoAnchorError.batchFailures([.init(index: 1, error: .invalidLongitude(.infinity))])) {
            try SpatialIndex(points: [(1, 0, 0), (2, 0, .infinity)])
        }
        #expect(try SpatialIndex().nearest(latitude: 0, longitude: 0, k: 3).isEmpty)
        #expect(try index.nearest(latitude: 0, longitude: 0, k: 0).isEmpty)
    }
}
