import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport
import GeoAnchorKitGEOS

@Suite("GEOS: tour zones")
struct TourZonesTests {
    /// Straight path along x from −50 to 450 m, stops at x = 0 and 400, a 200 m × 200 m zone
    /// over x ∈ [100, 300], y ∈ [−100, 100], with a 20 m × 20 m hole at its centre. Built in a
    /// frame `sim`; TourZones uses the session's own frame (a few hundred meters away).
    struct Scenario {
        let sim: LocalTangentFrame
        let tour: Tour
        init() throws {
            sim = try LocalTangentFrame(origin: GeodeticCoordinate(latitude: 49.9577, longitude: 14.3953, ellipsoidalHeight: 0))
            let f = sim
            func g(_ x: Double, _ y: Double) -> GeodeticCoordinate {
                let r = f.geodetic(east: x, north: y, up: 0)
                return GeodeticCoordinate(latitude: r.latitude, longitude: r.longitude, ellipsoidalHeight: 0)
            }
            let shell = [g(100, -100), g(300, -100), g(300, 100), g(100, 100), g(100, -100)]
            let hole = [g(190, 40), g(210, 40), g(210, 60), g(190, 60), g(190, 40)]
            tour = try Tour(stops: [TourStop(id: "s1", coordinate: g(0, 0), radius: 20), TourStop(id: "s2", coordinate: g(400, 0), radius: 20)],
                            zones: [TourZone(id: "square", rings: [shell, hole])],
                            path: [g(-50, 0), g(450, 0)], pathID: "street")
        }
    }

    /// References (construction): area 200² − 20² = 39,600 m²; the path runs 200 m inside the
    /// zone; signed distance +50 m at (150, 0) (nearest edge x = 100) and −10 m at (90, 0); a
    /// 10 m flat-ended corridor around the 500 m path has area 500 × 20 = 10,000 m²; the hull of
    /// two stops is a 400 m segment. Tolerances: 1e-6 relative / 1e-6 m (the two ENU frames differ
    /// by a rotation of ~5e-5 rad: planar scale changes ~1e-9).
    @Test func analyses() throws {
        let sc = try Scenario()
        let session = try TourSession(tour: sc.tour)
        let zones = try TourZones(session: session)
        #expect(abs(try zones.zoneAreas()[0] - 39_600) <= 39_600 * 1e-6)
        let inside = try zones.pathInsideZones()
        #expect(inside.count == 1 && inside[0].id == "square" && abs(inside[0].length - 200) <= 1e-4)
        func local(_ x: Double, _ y: Double) -> PlanarPoint {
            let r = sc.sim.geodetic(east: x, north: y, up: 0)
            return session.planarPoint(latitude: r.latitude, longitude: r.longitude)
        }
        #expect(abs(try zones.signedDistance(zone: 0, at: local(150, 0)) - 50) <= 1e-4)
        #expect(abs(try zones.signedDistance(zone: 0, at: local(90, 0)) - -10) <= 1e-4)
        #expect(abs(try zones.signedDistance(zone: 0, at: local(200, 50)) - -10) <= 1e-4)   // centre of the hole
        #expect(abs(try zones.corridor(halfWidth: 10)!.area() - 10_000) <= 10_000 * 1e-6)
        #expect(abs(try zones.stopsHull().length() - 400) <= 1e-4)
        let (onZone, _) = try zones.nearestPoints(zone: 0, to: local(90, 0))
        #expect(onZone.distance(to: local(100, 0)) <= 1e-4)
        // A straight path simplifies to its two ends.
        #expect(try zones.simplifiedPath(tolerance: 1)?.count == 2)
    }

    /// Replaying a noisy walk (5 m white noise, seeded) along the path: the zone is entered once
    /// and exited once (one dwell between), each within 10 s of the true crossing of x = 100 m / x = 300 m
    /// (reference: the simulated truth).
    @Test func zoneEventsOnAWalk() throws {
        let sc = try Scenario()
        var session = try TourSession(tour: sc.tour)
        let zones = try TourZones(session: session)
        let walk = TourWalk(frame: sc.sim, path: [PlanarPoint(x: -50, y: 0), PlanarPoint(x: 450, y: 0)], pauses: [:], sigma: 5, tau: 0, seed: 21)
        var events: [TourEvent] = []
        for s in walk.samples { events += try session.update(s.fix, zones: zones).events }
        // 150 s inside at 1.3 m/s: a dwell event (20 s minimum) between enter and exit.
        #expect(events.filter { $0.feature == .zone }.map(\.kind) == [.enter, .dwell, .exit])
        let z = events.filter { $0.feature == .zone && $0.kind != .dwell }
        let tIn = walk.samples.first { $0.truth.x >= 100 }!.time
        let tOut = walk.samples.first { $0.truth.x > 300 }!.time
        if z.count == 2 {
            #expect(abs(z[0].time - tIn) <= 10 && abs(z[1].time - tOut) <= 10, "\(z[0].time - tIn), \(z[1].time - tOut)")
        }
        #expect(events.filter { $0.feature == .stop && $0.kind == .enter }.map(\.id) == ["s1", "s2"])
    }

    /// A self-intersecting zone is rejected with its id and the reason, by the session's own
    /// pure-Swift evaluator and by GEOS.
    @Test func invalidZoneNamed() throws {
        let sc = try Scenario()
        var t = sc.tour
        let r = t.zones[0].polygons[0][0]
        t.zones[0].polygons = [[[r[0], r[2], r[1], r[3], r[0]]]]   // bow tie
        do {
            _ = try TourSession(tour: t)
            Issue.record("bow tie accepted by the session")
        } catch {
            #expect("\(error)".contains("zone \"square\"") && "\(error)".contains("self-intersection"), "\(error)")
        }
        do {
            _ = try TourZones(tour: t, frame: sc.sim)
            Issue.record("bow tie accepted by GEOS")
        } catch {
            #expect("\(error)".contains("zone \"square\"") && "\(error)".contains("Self-intersection"), "\(error)")
        }
    }
}
