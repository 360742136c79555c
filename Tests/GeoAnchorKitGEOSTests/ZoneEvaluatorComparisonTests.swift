import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport
import GeoAnchorKitGEOS

/// The core's ``PlanarTourZones`` against GEOS (`TourZones`, prepared `covers` + boundary
/// distance) on the same planar geometry. Reference: GEOS 3.11; tolerance 1e-9 m on signed
/// distances, and identical event lists on replays.
@Suite("GEOS vs pure-Swift zones")
struct ZoneEvaluatorComparisonTests {
    static func ring(_ f: LocalTangentFrame, _ pts: [PlanarPoint]) -> [GeodeticCoordinate] {
        (pts + [pts[0]]).map { p in
            let g = f.geodetic(east: p.x, north: p.y, up: 0)
            return GeodeticCoordinate(latitude: g.latitude, longitude: g.longitude, ellipsoidalHeight: 0)
        }
    }

    /// Random concave star polygons with holes, multipolygons, and a zone across the antimeridian.
    static func zones(_ f: LocalTangentFrame, seed: UInt64) -> [TourZone] {
        var rng = SplitMix64(seed: seed)
        func star(_ c: PlanarPoint, _ r: Double, _ n: Int) -> [PlanarPoint] {
            (0..<n).map { k in
                let a = Double(k) / Double(n) * 2 * Double.pi, rr = r * (0.45 + 0.55 * rng.uniform())
                return PlanarPoint(x: c.x + rr * cos(a), y: c.y + rr * sin(a))
            }
        }
        let concave = TourZone(id: "star", rings: [ring(f, star(PlanarPoint(x: 0, y: 0), 200, 40)),
                                                   ring(f, star(PlanarPoint(x: 5, y: 0), 30, 9))])
        let multi = TourZone(id: "multi", polygons: [[ring(f, star(PlanarPoint(x: 500, y: 0), 80, 15))],
                                                     [ring(f, star(PlanarPoint(x: 700, y: 100), 60, 11)),
                                                      ring(f, star(PlanarPoint(x: 700, y: 100), 15, 6))]])
        return [concave, multi]
    }

    static func compare(frame: LocalTangentFrame, tour: Tour, sessionFrame: LocalTangentFrame, spread: Double, seed: UInt64) throws {
        let native = try PlanarTourZones(tour: tour, frame: sessionFrame)
        let geos = try TourZones(tour: tour, frame: sessionFrame)
        var rng = SplitMix64(seed: seed)
        var a = [Double](repeating: 0, count: tour.zones.count), b = a
        for _ in 0..<3000 {
            let p = PlanarPoint(x: (rng.uniform() * 2 - 1) * spread + spread / 2, y: (rng.uniform() * 2 - 1) * spread)
            native.signedDistances(at: p, into: &a)
            try geos.signedDistances(at: p, into: &b)
            for i in a.indices { #expect(abs(a[i] - b[i]) <= 1e-9, "zone \(i) at (\(p.x), \(p.y)): \(a[i]) vs \(b[i])") }
        }
    }

    @Test func signedDistancesMatchGEOS() throws {
        for (seed, origin) in [(UInt64(1), GeodeticCoordinate(latitude: 49.9577, longitude: 14.3953, ellipsoidalHeight: 0)),
                               (2, GeodeticCoordinate(latitude: -16.5, longitude: 179.999, ellipsoidalHeight: 0)),
                               (3, GeodeticCoordinate(latitude: 64.1, longitude: -21.9, ellipsoidalHeight: 0))] {
            let f = try LocalTangentFrame(origin: origin)
            let zones = Self.zones(f, seed: seed)
            let g = f.geodetic(east: 0, north: 0, up: 0)
            let tour = try Tour(stops: [TourStop(id: "s", coordinate: GeodeticCoordinate(latitude: g.latitude, longitude: g.longitude, ellipsoidalHeight: 0), radius: 10)], zones: zones)
            if seed == 2 { #expect(tour.zones[0].rings[0].contains { $0.longitude < -179 }) }   // crosses ±180°
            let session = try TourSession(tour: tour)
            try Self.compare(frame: f, tour: tour, sessionFrame: session.frame, spread: 900, seed: seed + 10)
        }
    }

    /// MultiPolygons whose polygons repeat or overlap (RFC 7946 says they should not; real
    /// exports do): the zone is their union in both evaluators. Before, GEOS refused each of
    /// these zones ("Self-intersection", "Nested shells") and the pure-Swift evaluator refused
    /// all but the copies, which it read as outside. Reference: GEOS, each polygon prepared on
    /// its own, the largest signed distance (1e-9 m); the union's area from GEOS against one
    /// copy's area (1e-9 relative) and identical events on a walk through every zone.
    @Test func overlappingPolygonsMatchGEOS() throws {
        let origin = GeodeticCoordinate(latitude: 49.9577, longitude: 14.3953, ellipsoidalHeight: 0)
        let f = try LocalTangentFrame(origin: origin)
        var rng = SplitMix64(seed: 4)
        func star(_ c: PlanarPoint, _ r: Double, _ n: Int) -> [PlanarPoint] {
            (0..<n).map { k in
                let a = Double(k) / Double(n) * 2 * Double.pi, rr = r * (0.45 + 0.55 * rng.uniform())
                return PlanarPoint(x: c.x + rr * cos(a), y: c.y + rr * sin(a))
            }
        }
        let a = Self.ring(f, star(PlanarPoint(x: 0, y: 0), 150, 30))
        let shifted = Self.ring(f, star(PlanarPoint(x: 60, y: 40), 150, 25))
        let holed = [Self.ring(f, star(PlanarPoint(x: 400, y: 0), 150, 30)), Self.ring(f, star(PlanarPoint(x: 400, y: 0), 40, 8))]
        let zones = [
            TourZone(id: "copies", polygons: [[a], [a]]),
            TourZone(id: "shifted", polygons: [[a], [shifted]]),
            TourZone(id: "hole-covered", polygons: [holed, [Self.ring(f, star(PlanarPoint(x: 410, y: 5), 60, 12))]]),
            TourZone(id: "nested", polygons: [holed, [Self.ring(f, star(PlanarPoint(x: 330, y: -10), 25, 9))], [a]]),
            TourZone(id: "one-copy", polygons: [[a]]),
        ]
        let g = f.geodetic(east: 0, north: 0, up: 0)
        let tour = try Tour(stops: [TourStop(id: "s", coordinate: GeodeticCoordinate(latitude: g.latitude, longitude: g.longitude, ellipsoidalHeight: 0), radius: 10)],
                            zones: zones)
        let session = try TourSession(tour: tour)
        try Self.compare(frame: f, tour: tour, sessionFrame: session.frame, spread: 600, seed: 14)
        let geos = try TourZones(session: session)
        let areas = try geos.zoneAreas()
        #expect(abs(areas[0] - areas[4]) <= 1e-9 * areas[4], "\(areas)")
        // A walk through all of them: the same events from both evaluators, every zone entered.
        let walk = TourWalk(frame: session.frame, path: [PlanarPoint(x: -200, y: 5), PlanarPoint(x: 600, y: 5)], pauses: [:], sigma: 3, tau: 0, seed: 3)
        var native = session, viaGEOS = session
        var e1: [TourEvent] = [], e2: [TourEvent] = []
        for s in walk.samples {
            e1 += try native.update(s.fix).events
            e2 += try viaGEOS.update(s.fix, zones: geos).events
        }
        #expect(e1 == e2)
        #expect(Set(e1.filter { $0.feature == .zone && $0.kind == .enter }.map(\.id)) == Set(zones.map(\.id)))
    }

    /// Rings of one polygon: the pure-Swift check refuses what GEOS refuses (a hole twice,
    /// holes sharing an edge, a hole inside another: before, the first and last were accepted
    /// and read as inside, the middle accepted) and accepts holes touching at a point, with the
    /// same signed distances. Reference: GEOS's validity test and distances (1e-9 m).
    @Test func ringsOfOnePolygonAreCheckedAsGEOSDoes() throws {
        let f = try LocalTangentFrame(origin: GeodeticCoordinate(latitude: 49.9577, longitude: 14.3953, ellipsoidalHeight: 0))
        func ring(_ pts: [(Double, Double)]) -> [GeodeticCoordinate] { Self.ring(f, pts.map { PlanarPoint(x: $0.0, y: $0.1) }) }
        let square = ring([(0, 0), (100, 0), (100, 100), (0, 100)]), hole = ring([(40, 40), (60, 40), (60, 60), (40, 60)])
        let cases: [(TourZone, valid: Bool)] = [
            (TourZone(id: "hole-twice", rings: [square, hole, hole]), false),
            (TourZone(id: "holes-side-by-side", rings: [square, ring([(20, 20), (40, 20), (40, 80), (20, 80)]), ring([(40, 20), (60, 20), (60, 80), (40, 80)])]), false),
            (TourZone(id: "hole-in-hole", rings: [square, hole, ring([(20, 20), (80, 20), (80, 80), (20, 80)])]), false),
            (TourZone(id: "hole-twice-in-multi", polygons: [[square, hole, hole], [ring([(200, 0), (210, 0), (210, 10), (200, 10)])]]), false),
            (TourZone(id: "holes-touching", rings: [square, ring([(20, 20), (40, 20), (40, 40), (20, 40)]), hole]), true),
        ]
        let g = f.geodetic(east: 0, north: 0, up: 0)
        for (zone, valid) in cases {
            let tour = try Tour(stops: [TourStop(id: "s", coordinate: GeodeticCoordinate(latitude: g.latitude, longitude: g.longitude, ellipsoidalHeight: 0), radius: 10)],
                                zones: [zone])
            let native = Result { () throws(TourError) in try PlanarTourZones(tour: tour, frame: f) }
            let geos = Result { () throws(GEOSError) in try TourZones(tour: tour, frame: f) }
            if valid {
                try Self.compare(frame: f, tour: tour, sessionFrame: f, spread: 150, seed: 21)
            } else {
                if case .success = native { Issue.record("\(zone.id): accepted by the pure-Swift check") }
                if case .success = geos { Issue.record("\(zone.id): accepted by GEOS") }
            }
        }
    }

    /// The shipped tours replayed with their raw and filtered traces: identical events.
    @Test(arguments: ["zavist-tour", "city-walk"])
    func shippedToursGiveIdenticalEvents(name: String) throws {
        let dir = SharedData.repositoryRoot.appendingPathComponent("traces")
        let tour = try Tour(contentsOf: dir.appendingPathComponent("\(name).tour.geojson"))
        var fixes: [Fix] = []
        try TraceReader.read(url: dir.appendingPathComponent("\(name).raw.csv"), onFix: { fixes.append($0) })
        for filtered in [false, true] {
            var native = try TourSession(tour: tour), viaGEOS = native
            let geos = try TourZones(session: viaGEOS)
            var f1: PositionFilter? = filtered ? PositionFilter(configuration: .walking) : nil, f2 = f1
            var s1 = TourSession.ReplaySummary(), s2 = s1
            var e1: [TourEvent] = [], e2: [TourEvent] = []
            for fix in fixes {
                e1 += try native.process(fix, filter: &f1, summary: &s1)
                e2 += try viaGEOS.process(fix, filter: &f2, zones: geos, summary: &s2)
            }
            #expect(e1.contains { $0.feature == .zone })
            #expect(e1 == e2)
        }
    }
}
