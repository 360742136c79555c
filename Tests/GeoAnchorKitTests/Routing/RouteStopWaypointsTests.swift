import Foundation
import Testing
import GeoAnchorKit
import GeoAnchorKitTestSupport

/// GPX waypoints as route stops (``RouteStop/stops(waypoints:dwell:)``).
@Suite("Route stops from GPX waypoints")
struct RouteStopWaypointsTests {
    static func waypoints(_ gpx: String) throws -> [GPXWaypoint] {
        var out: [GPXWaypoint] = []
        _ = try GPXReader.read(data: Data(gpx.utf8), source: "w.gpx", onFix: { _ in }, onWaypoint: { out.append($0) })
        return out
    }

    /// gpxpy's unicode.gpx (GPSBabel output): 6 waypoints, every `<ele>` −0.114380, names
    /// šđčćž, BIRDS NEST, FAGGIO, RAKOV12, RAKV SKCJN, VANSHNG LK (the file, in order).
    @Test(.enabled(if: SharedData.shouldRun)) func gpsBabelWaypoints() throws {
        let w = try GPXReader.waypoints(url: SharedData.url("gpx/gpxpy_test_files/unicode.gpx"))
        let stops = try RouteStop.stops(waypoints: w, dwell: 300)
        #expect(stops.map(\.id) == ["šđčćž", "BIRDS NEST", "FAGGIO", "RAKOV12", "RAKV SKCJN", "VANSHNG LK"])
        #expect(stops.allSatisfy { $0.hasHeight && $0.coordinate.height == -0.114380 && $0.coordinate.verticalReference == .meanSeaLevel })
        #expect(stops[0].coordinate.latitude == 45.757933259 && stops[0].coordinate.longitude == 14.294899916)
        #expect(stops.allSatisfy { $0.dwell == 300 })
        let plan = try RoutePlanner.plan(RouteProblem(stops: stops))
        #expect(Set(plan.order) == Set(stops.map(\.id)))
    }

    /// Names trimmed; unnamed waypoints numbered; no `<ele>` anywhere: stops without heights.
    @Test func namesAndHeights() throws {
        let w = try Self.waypoints("""
        <gpx version="1.1"><wpt lat="50" lon="14"><name>  Gate </name></wpt><wpt lat="50.001" lon="14"/></gpx>
        """)
        let stops = try RouteStop.stops(waypoints: w)
        #expect(stops.map(\.id) == ["Gate", "waypoint 2"] && stops.allSatisfy { !$0.hasHeight })
    }

    @Test func refusals() throws {
        #expect(throws: RoutingError.noStops) { _ = try RouteStop.stops(waypoints: []) }
        let dup = try Self.waypoints(#"<gpx version="1.1"><wpt lat="50" lon="14"><name>A</name></wpt><wpt lat="51" lon="14"><name>A</name></wpt></gpx>"#)
        #expect(throws: RoutingError.duplicateStopID("A")) { _ = try RouteStop.stops(waypoints: dup) }
        let mixed = try Self.waypoints(#"<gpx version="1.1"><wpt lat="50" lon="14"><ele>300</ele><name>A</name></wpt><wpt lat="51" lon="14"><name>B</name></wpt></gpx>"#)
        #expect { _ = try RouteStop.stops(waypoints: mixed) } throws: { e in
            guard case .mixedVerticalReferences(let what) = e as? RoutingError else { return false }
            return what.contains("'A' has an altitude (GPX <ele>") && what.contains("'B' none")
        }
        let one = try Self.waypoints(#"<gpx version="1.1"><wpt lat="50" lon="14"/></gpx>"#)
        #expect { _ = try RouteStop.stops(waypoints: one, dwell: -1) } throws: { e in
            if case .invalidStop = e as? RoutingError { return true } else { return false }
        }
    }
}

extension RouteStopWaypointsTests {
    /// ``Tour/init(waypoints:path:radius:)``: waypoints are the stops (ids as for routes, the
    /// `<name>` kept as the display name), the lines joined into one path with the
    /// shared point kept once; duplicates and a bad radius are TourErrors.
    @Test func tourFromWaypoints() throws {
        let w = try Self.waypoints(#"<gpx version="1.1"><wpt lat="50" lon="14"><name> Gate </name></wpt><wpt lat="50.001" lon="14"/></gpx>"#)
        let a = GeodeticCoordinate(latitude: 50, longitude: 14), b = GeodeticCoordinate(latitude: 50.0005, longitude: 14)
        let c = GeodeticCoordinate(latitude: 50.001, longitude: 14)
        let tour = try Tour(waypoints: w, path: [[a, b], [b, c]], radius: 15)
        #expect(tour.stops.map(\.id) == ["Gate", "waypoint 2"] && tour.stops.map(\.name) == ["Gate", nil])
        #expect(tour.stops.allSatisfy { $0.radius == 15 } && tour.path == [a, b, c])
        let dup = try Self.waypoints(#"<gpx version="1.1"><wpt lat="50" lon="14"><name>A</name></wpt><wpt lat="51" lon="14"><name>A</name></wpt></gpx>"#)
        #expect(throws: TourError.duplicateID("A", firstIndex: 0, secondIndex: 1)) { _ = try Tour(waypoints: dup) }
        #expect(throws: TourError.noStops) { _ = try Tour(waypoints: []) }
        #expect { _ = try Tour(waypoints: w, radius: 0) } throws: { e in
            if case .invalidFeature = e as? TourError { return true } else { return false }
        }
    }
}
