import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport

/// The pure-Swift zone evaluator (core only, no GEOS). References: constructed geometry (signed
/// distances worked out by hand, 1e-6 m: the tour frame differs from the construction frame by a
/// rotation of ~1e-5 rad); GEOS comparisons live in the GEOS tests.
@Suite("Tours: pure-Swift zones")
struct PlanarTourZonesTests {
    static let origin = GeodeticCoordinate(latitude: 49.9577, longitude: 14.3953, ellipsoidalHeight: 0)

    static func tour(zones: [TourZone], frame: LocalTangentFrame) throws -> Tour {
        let g = frame.geodetic(east: 0, north: 0, up: 0)
        return try Tour(stops: [TourStop(id: "s", coordinate: GeodeticCoordinate(latitude: g.latitude, longitude: g.longitude, ellipsoidalHeight: 0), radius: 10)],
                        zones: zones)
    }

    static func ring(_ f: LocalTangentFrame, _ pts: [(Double, Double)]) -> [GeodeticCoordinate] {
        (pts + [pts[0]]).map { p in
            let g = f.geodetic(east: p.0, north: p.1, up: 0)
            return GeodeticCoordinate(latitude: g.latitude, longitude: g.longitude, ellipsoidalHeight: 0)
        }
    }

    /// An L-shaped (concave) zone with a square hole, and a two-part multipolygon.
    @Test func signedDistancesOnConstructedZones() throws {
        let f = try LocalTangentFrame(origin: Self.origin)
        // L: x ∈ [0, 100], y ∈ [0, 100] minus x ∈ (50, 100], y ∈ (50, 100]; hole [10, 20]².
        let l = TourZone(id: "L", rings: [Self.ring(f, [(0, 0), (100, 0), (100, 50), (50, 50), (50, 100), (0, 100)]),
                                          Self.ring(f, [(10, 10), (20, 10), (20, 20), (10, 20)])])
        let multi = TourZone(id: "two", polygons: [[Self.ring(f, [(200, 0), (220, 0), (220, 20), (200, 20)])],
                                                   [Self.ring(f, [(300, 0), (320, 0), (320, 20), (300, 20)])]])
        let t = try Self.tour(zones: [l, multi], frame: f)
        let zones = try PlanarTourZones(tour: t, frame: f)
        func sd(_ z: Int, _ x: Double, _ y: Double) -> Double { zones.signedDistance(zone: z, at: PlanarPoint(x: x, y: y)) }
        #expect(abs(sd(0, 30, 15) - 10) < 1e-6)      // inside: the hole edge x = 20 is 10 m away (bottom edge 15 m)
        #expect(abs(sd(0, 75, 75) - -25) < 1e-6)     // in the notch: its edges x = 50 and y = 50
        #expect(abs(sd(0, 15, 15) - -5) < 1e-6)      // centre of the hole: outside
        #expect(abs(sd(0, 100, 25)) < 1e-6)           // on the boundary (to the frame round trip's 1e-8 m)
        // Exactly on the boundary (a vertex of the converted ring): distance 0, covered.
        let vertex = zones.grids[0].lines[0].points[2]
        #expect(sd(0, vertex.x, vertex.y) == 0 && zones.contains(zone: 0, vertex))
        #expect(abs(sd(1, 210, 10) - 10) < 1e-6 && abs(sd(1, 310, 5) - 5) < 1e-6)
        #expect(abs(sd(1, 260, 10) - -40) < 1e-6)     // between the parts
    }

    /// A zone across the antimeridian (a Pacific island square, 179.999° E to 179.999° W): the
    /// frame makes it one square; signed distance at its centre = half its width.
    @Test func zoneAcrossTheAntimeridian() throws {
        let o = GeodeticCoordinate(latitude: -16.5, longitude: 180, ellipsoidalHeight: 0)
        let f = try LocalTangentFrame(origin: o)
        let sq = Self.ring(f, [(-100, -100), (100, -100), (100, 100), (-100, 100)])
        #expect(sq.contains { $0.longitude > 179 } && sq.contains { $0.longitude < -179 })
        let t = try Self.tour(zones: [TourZone(id: "dateline", rings: [sq])], frame: f)
        let session = try TourSession(tour: t)
        let centre = session.planarPoint(latitude: o.latitude, longitude: 179.99999999)
        #expect(abs(session.zoneEvaluator.signedDistance(zone: 0, at: centre) - 100) < 0.01)
        let east = f.geodetic(east: 150, north: 0, up: 0)
        #expect(abs(session.zoneEvaluator.signedDistance(zone: 0, at: session.planarPoint(latitude: east.latitude, longitude: east.longitude)) - -50) < 0.01)
    }

    /// Invalid polygons are typed errors naming the zone and the problem.
    @Test func invalidZonesRejected() throws {
        let f = try LocalTangentFrame(origin: Self.origin)
        let cases: [(TourZone, String)] = [
            (TourZone(id: "bowtie", rings: [Self.ring(f, [(0, 0), (10, 10), (10, 0), (0, 10)])]), "edges cross"),
            (TourZone(id: "hole-out", rings: [Self.ring(f, [(0, 0), (10, 0), (10, 10), (0, 10)]),
                                              Self.ring(f, [(20, 20), (30, 20), (30, 30), (20, 30)])]), "hole lies outside"),
            // Rings of one polygon: a hole twice (they cancelled: read as inside), holes sharing an
            // edge, a hole inside another (read as inside) — GEOS: "Self-intersection", "Holes are nested".
            (TourZone(id: "hole-twice", rings: [Self.ring(f, [(0, 0), (100, 0), (100, 100), (0, 100)]),
                                                Self.ring(f, [(40, 40), (60, 40), (60, 60), (40, 60)]),
                                                Self.ring(f, [(40, 40), (60, 40), (60, 60), (40, 60)])]), "two rings share an edge"),
            (TourZone(id: "holes-side-by-side", rings: [Self.ring(f, [(0, 0), (100, 0), (100, 100), (0, 100)]),
                                                        Self.ring(f, [(20, 20), (40, 20), (40, 80), (20, 80)]),
                                                        Self.ring(f, [(40, 20), (60, 20), (60, 80), (40, 80)])]), "two rings share an edge"),
            (TourZone(id: "hole-in-hole", rings: [Self.ring(f, [(0, 0), (100, 0), (100, 100), (0, 100)]),
                                                  Self.ring(f, [(40, 40), (60, 40), (60, 60), (40, 60)]),
                                                  Self.ring(f, [(20, 20), (80, 20), (80, 80), (20, 80)])]), "a hole lies inside another hole"),
            // Each polygon of a multipolygon is still checked on its own (overlaps are allowed).
            (TourZone(id: "multi-bowtie", polygons: [[Self.ring(f, [(0, 0), (10, 0), (10, 10), (0, 10)])],
                                                     [Self.ring(f, [(0, 0), (10, 10), (10, 0), (0, 10)])]]), "edges cross"),
            (TourZone(id: "multi-hole-out", polygons: [[Self.ring(f, [(0, 0), (10, 0), (10, 10), (0, 10)]),
                                                        Self.ring(f, [(20, 2), (24, 2), (24, 6), (20, 6)])],
                                                       [Self.ring(f, [(15, 0), (30, 0), (30, 10), (15, 10)])]]), "hole lies outside"),
            (TourZone(id: "flat", rings: [Self.ring(f, [(0, 0), (10, 0), (0, 0)])]), "3 distinct vertices"),
        ]
        for (z, why) in cases {
            let t = try Self.tour(zones: [z], frame: f)
            do {
                _ = try TourSession(tour: t)
                Issue.record("\(z.id) accepted")
            } catch {
                #expect("\(error)".contains("zone \"\(z.id)\"") && "\(error)".contains(why), "\(error)")
            }
        }
        // An island inside a hole is a valid multipolygon; collinear edges are fine.
        let island = TourZone(id: "island", polygons: [
            [Self.ring(f, [(0, 0), (100, 0), (100, 100), (0, 100)]), Self.ring(f, [(20, 20), (80, 20), (80, 80), (20, 80)])],
            [Self.ring(f, [(40, 40), (50, 40), (60, 40), (60, 60), (40, 60)])]])
        let zones = try PlanarTourZones(tour: try Self.tour(zones: [island], frame: f), frame: f)
        #expect(zones.signedDistance(zone: 0, at: PlanarPoint(x: 50, y: 50)) > 0)
        #expect(zones.signedDistance(zone: 0, at: PlanarPoint(x: 30, y: 50)) < 0)
        #expect(zones.signedDistance(zone: 0, at: PlanarPoint(x: 10, y: 50)) > 0)
    }

    /// A zone is the union of its polygons, which may repeat or overlap (RFC 7946 says they
    /// should not; exported and hand-made files do). Before, an even–odd count over every ring
    /// read a point inside two copies of a square as outside (−30 m at 30 m inside), and
    /// overlapping polygons were refused. Reference: the constructed squares, signed distance =
    /// the largest of the polygons' own (worked out by hand), 1e-6 m (the frame round trip).
    @Test func overlappingPolygonsAreOneZone() throws {
        let f = try LocalTangentFrame(origin: Self.origin)
        let square = Self.ring(f, [(0, 0), (100, 0), (100, 100), (0, 100)])
        let zones = [
            TourZone(id: "twice", polygons: [[square], [square]]),
            TourZone(id: "thrice", polygons: [[square], [square], [square]]),
            // [0, 100]² and [50, 150] × [20, 80].
            TourZone(id: "overlap", polygons: [[square], [Self.ring(f, [(50, 20), (150, 20), (150, 80), (50, 80)])]]),
            // [0, 100]² with a hole [40, 60]², the hole covered by a second square [30, 70]².
            TourZone(id: "hole-covered", polygons: [[square, Self.ring(f, [(40, 40), (60, 40), (60, 60), (40, 60)])],
                                                    [Self.ring(f, [(30, 30), (70, 30), (70, 70), (30, 70)])]]),
            // A square inside another (not in a hole).
            TourZone(id: "nested", polygons: [[square], [Self.ring(f, [(20, 20), (40, 20), (40, 40), (20, 40)])]]),
        ]
        let z = try PlanarTourZones(tour: try Self.tour(zones: zones, frame: f), frame: f)
        func sd(_ i: Int, _ x: Double, _ y: Double) -> Double { z.signedDistance(zone: i, at: PlanarPoint(x: x, y: y)) }
        for i in 0..<2 {
            #expect(abs(sd(i, 30, 50) - 30) < 1e-6 && abs(sd(i, 50, 50) - 50) < 1e-6, "\(zones[i].id)")
            #expect(abs(sd(i, 120, 50) - -20) < 1e-6, "\(zones[i].id)")
        }
        #expect(abs(sd(2, 30, 50) - 30) < 1e-6)      // first square only
        #expect(abs(sd(2, 90, 50) - 30) < 1e-6)      // both: 10 m in the first, 30 m in the second
        #expect(abs(sd(2, 120, 50) - 30) < 1e-6)     // second square only
        #expect(abs(sd(2, 120, 10) - -10) < 1e-6)    // outside both: nearest is the second
        #expect(abs(sd(3, 50, 50) - 20) < 1e-6)      // in the first's hole, inside the second
        #expect(abs(sd(3, 35, 50) - 5) < 1e-6)       // 5 m from the hole (first) and from x = 30 (second)
        #expect(abs(sd(3, 10, 50) - 10) < 1e-6)
        #expect(abs(sd(4, 30, 30) - 30) < 1e-6 && abs(sd(4, 50, 50) - 50) < 1e-6)
        // The session uses them: a walk through the doubled square enters it.
        let g0 = f.geodetic(east: -100, north: 50, up: 0)
        let t = try Tour(stops: [TourStop(id: "a", coordinate: GeodeticCoordinate(latitude: g0.latitude, longitude: g0.longitude, ellipsoidalHeight: 0), radius: 20)],
                         zones: [zones[0]])
        var session = try TourSession(tour: t)
        let walk = TourWalk(frame: f, path: [PlanarPoint(x: -100, y: 50), PlanarPoint(x: 250, y: 50)], pauses: [:], sigma: 3, tau: 0, seed: 5)
        var events: [TourEvent] = []
        for s in walk.samples { events += try session.update(s.fix).events }
        #expect(events.filter { $0.feature == .zone }.map(\.kind) == [.enter, .dwell, .exit])
    }

    /// A ``Tour`` is a value with public fields (and Codable): changed after its initializer, it
    /// can hold a ring without positions or a NaN coordinate. `PlanarTourZones(tour:frame:)`
    /// trapped on both (an index out of range; the ``SegmentGrid`` precondition on non-finite
    /// vertices); now it checks the tour first and names the zone. Reference: the zone's
    /// feature index (1 stop, then zones).
    @Test func toursChangedAfterTheirInitializerAreChecked() throws {
        let f = try LocalTangentFrame(origin: Self.origin)
        let square = Self.ring(f, [(0, 0), (100, 0), (100, 100), (0, 100)])
        let valid = try Self.tour(zones: [TourZone(id: "square", rings: [square])], frame: f)
        var empty = valid
        empty.zones[0].polygons = [[[]]]
        var nan = valid
        nan.zones[0].polygons[0][0][1].latitude = .nan
        for t in [empty, nan] {
            do {
                _ = try PlanarTourZones(tour: t, frame: f)
                Issue.record("accepted")
            } catch {
                guard case .invalidFeature(1, "square", _) = error else { Issue.record("\(error)"); continue }
            }
        }
    }

    /// `zones: nil` compiles and means the session's own evaluator: a walk through a square
    /// zone gives enter, dwell, exit (reference: the constructed walk crosses x = 100 and x = 300).
    @Test func sessionEvaluatesZonesByDefault() throws {
        let f = try LocalTangentFrame(origin: Self.origin)
        let sq = TourZone(id: "square", rings: [Self.ring(f, [(100, -100), (300, -100), (300, 100), (100, 100)])])
        let g0 = f.geodetic(east: 0, north: 0, up: 0), g1 = f.geodetic(east: 400, north: 0, up: 0)
        let t = try Tour(stops: [TourStop(id: "a", coordinate: GeodeticCoordinate(latitude: g0.latitude, longitude: g0.longitude, ellipsoidalHeight: 0), radius: 20),
                                 TourStop(id: "b", coordinate: GeodeticCoordinate(latitude: g1.latitude, longitude: g1.longitude, ellipsoidalHeight: 0), radius: 20)],
                         zones: [sq])
        var session = try TourSession(tour: t)
        let walk = TourWalk(frame: f, path: [PlanarPoint(x: -50, y: 0), PlanarPoint(x: 450, y: 0)], pauses: [:], sigma: 3, tau: 0, seed: 5)
        var events: [TourEvent] = []
        for s in walk.samples { events += try session.update(s.fix, zones: nil).events }
        #expect(events.filter { $0.feature == .zone }.map(\.kind) == [.enter, .dwell, .exit])
    }

    /// A dense but simple zone: a 200 m circle of 100,000 vertices (1.3 cm apart). Before, the
    /// validity check compared every pair of edges in a 10 m cell (thousands per cell): the
    /// `geobench tour` run with it took > 300 s; now edges share cells of the mean edge length.
    /// Reference: the signed distance at the centre is the apothem R·cos(π/n) (tolerance 1e-6 m,
    /// the frame round trip).
    @Test(.timeLimit(.minutes(1))) func denseCircleZoneIsCheckedQuickly() throws {
        let f = try LocalTangentFrame(origin: Self.origin)
        let n = 100_000, r = 200.0
        let ring = Self.ring(f, (0..<n).map { k in (r * cos(2 * .pi * Double(k) / Double(n)), r * sin(2 * .pi * Double(k) / Double(n))) })
        let zones = try PlanarTourZones(tour: try Self.tour(zones: [TourZone(id: "circle", rings: [ring])], frame: f), frame: f)
        #expect(abs(zones.signedDistance(zone: 0, at: PlanarPoint(x: 0, y: 0)) - r * cos(.pi / Double(n))) < 1e-6)
    }

    /// Edges crowded into one spot (spokes of a star meeting at its centre) cannot be checked in
    /// bounded time by comparing nearby pairs: beyond the budget the zone is refused, naming
    /// the problem, instead of running for minutes. Reference: 2,000 spokes all share the cell
    /// at the centre, 2,000·1,999/2 ≈ 2·10⁶ pairs > the budget of 10,000 passed here.
    @Test func crowdedZoneIsRefusedAsTooComplex() throws {
        let n = 2_000
        let pts = (0..<n).map { k -> PlanarPoint in
            let a = 2 * Double.pi * Double(k) / Double(n), r = k % 2 == 0 ? 1000.0 : 1.0
            return PlanarPoint(x: r * cos(a), y: r * sin(a))
        }
        let ring = PlanarPolyline(pts + [pts[0]])
        let grid = SegmentGrid(lines: [ring])
        let r = try #require(PlanarTourZones.invalidity(polygons: [[ring]], grid: grid, maximumPairChecks: 10_000))
        #expect(r.message.hasPrefix("too complex to check: more than 10000 pairs of nearby edges (2000 edges"), "\(r.message)")
        // The same star is valid: with the default budget it is accepted.
        #expect(PlanarTourZones.invalidity(polygons: [[ring]], grid: grid) == nil)
    }
}
