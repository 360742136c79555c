import Foundation
import Testing
@testable import GeoAnchorKit

/// Stops, starts and paths with and without heights (``RouteStop/hasHeight``,
/// ``PathNetwork/hasHeights``): a stop without a height takes the path's height where it is
/// snapped, so the short leg to the path has no phantom climb.
///
/// The site: one path along the 50° N parallel over a 30 m hill — P0 (14.000° E, 400 m),
/// P1 (14.004° E, 430 m), P2 (14.008° E, 400 m), heights above the ellipsoid — and two stops
/// 20 m north of it, a quarter of a segment from the foot of the hill on either side
/// (14.001° E and 14.007° E). Hand-computed references: each stop's snap is at the fraction
/// 0.25 from the foot, 400 + 30 · 0.25 = 407.5 m; the walk between them climbs 430 − 407.5 =
/// 22.5 m and descends 22.5 m. The snap fraction comes from a plane projection in a local ENU
/// frame over ≈ 290 m segments (PathNetwork: < 1 mm per 100 m); its error, measured 1e-6 and
/// asserted < 1e-5, moves a snap height by < 0.3 mm, so heights are checked to 1 mm.
@Suite("Route heights: stops and paths with and without heights")
struct RouteHeightsTests {
    static let p0 = GeodeticCoordinate(latitude: 50, longitude: 14.000, ellipsoidalHeight: 400)
    static let p1 = GeodeticCoordinate(latitude: 50, longitude: 14.004, ellipsoidalHeight: 430)
    static let p2 = GeodeticCoordinate(latitude: 50, longitude: 14.008, ellipsoidalHeight: 400)
    static let hill = [p0, p1, p2]
    /// ≈ 20 m north of the path.
    static let north = 50.00018
    static let a = RouteStop(id: "a", latitude: north, longitude: 14.001)
    static let b = RouteStop(id: "b", latitude: north, longitude: 14.007)
    /// Tobler's speed on the level, 6 km/h · exp(−3.5 · 0.05) (Tobler 1993), m/s.
    static let flatSpeed = 6 / 3.6 * exp(-0.175)
    static let heightTolerance = 1e-3

    /// The bug: stops without heights on a path at 400 m got a 400 m climb on their leg to the
    /// path (with `GeodeticCoordinate(latitude:longitude:)`, 0 m above the ellipsoid). Now each
    /// takes its snap's height: the leg's climbs are the path's own (22.5 m up and 22.5 m down),
    /// the connectors are level and walked at Tobler's flat speed.
    @Test func stopsWithoutHeightsTakeThePathsHeight() throws {
        let net = try PathNetwork(lineStrings: [Self.hill])
        let sa = try #require(net.snap(Self.a.coordinate)), sb = try #require(net.snap(Self.b.coordinate))
        #expect(abs(sa.fraction - 0.25) < 1e-5 && abs(sb.fraction - 0.75) < 1e-5)
        let plan = try RoutePlanner.plan(RouteProblem(stops: [Self.a, Self.b]), network: net)
        let leg = try #require(plan.estimate.legs.first)
        #expect(plan.estimate.legs.count == 1)
        #expect(abs(leg.ascent - 22.5) < Self.heightTolerance, "ascent \(leg.ascent)")
        #expect(abs(leg.descent - 22.5) < Self.heightTolerance, "descent \(leg.descent)")
        #expect(abs(plan.estimate.ascent - 22.5) < Self.heightTolerance)
        // The walked polyline starts and ends at the path's height: no vertical jump to the stop.
        #expect(abs(leg.path.first!.height - 407.5) < Self.heightTolerance)
        #expect(abs(leg.path.last!.height - 407.5) < Self.heightTolerance)
        #expect(leg.path.allSatisfy { $0.verticalReference == .ellipsoid })
        // Walking time: two level connectors at Tobler's flat speed (reference speed above), plus
        // the path pieces up to the top and down from it with the walking model (the connectors'
        // lengths are the snap distances, ≈ 20 m; the pieces 3/4 of each segment by the
        // geodesic, < 3 mm apart from the snap chain's lengths: measured 0.5 ms, checked to 10 ms).
        let w = WalkingModel.tobler
        let up = 0.75 * RoutingDistance.geodesic(Self.p0, Self.p1), down = 0.75 * RoutingDistance.geodesic(Self.p1, Self.p2)
        let expected = (sa.distance + sb.distance) / Self.flatSpeed
            + w.duration(horizontalDistance: up, heightChange: 22.5) + w.duration(horizontalDistance: down, heightChange: -22.5)
        #expect(abs(leg.walkingTime - expected) < 0.01, "walk \(leg.walkingTime) s, expected \(expected) s")
    }

    /// A stop with a height keeps it: 410 m beside the path's 407.5 m, its connector descends
    /// 2.5 m (reference: 410 − 407.5), next to a stop without a height on the same network.
    @Test func aStopWithAHeightKeepsIt() throws {
        let net = try PathNetwork(lineStrings: [Self.hill])
        let high = RouteStop(id: "high", coordinate: GeodeticCoordinate(latitude: Self.north, longitude: 14.001, ellipsoidalHeight: 410))
        let plan = try RoutePlanner.plan(RouteProblem(stops: [high, Self.b]), network: net)
        let leg = try #require(plan.estimate.legs.first)
        #expect(abs(leg.ascent - 22.5) < Self.heightTolerance && abs(leg.descent - 25) < Self.heightTolerance)
        #expect(leg.path.first!.height == 410)
    }

    /// A start location without a height takes its snap's height too: at 14.0005° E the path is
    /// at 400 + 30 · 0.125 = 403.75 m, so the walk to stop a climbs 3.75 m (hand-computed).
    /// With a height it climbs from that height (here 400 m: 7.5 m).
    @Test func startWithoutHeightTakesThePathsHeight() throws {
        let net = try PathNetwork(lineStrings: [Self.hill])
        let gate = GeodeticCoordinate(latitude: Self.north, longitude: 14.0005, ellipsoidalHeight: 0)
        var problem = RouteProblem(stops: [Self.a], start: .location(gate))
        problem.startHasHeight = false
        let leg = try #require(try RoutePlanner.plan(problem, network: net).estimate.legs.first)
        #expect(abs(leg.ascent - 3.75) < Self.heightTolerance && abs(leg.descent) < Self.heightTolerance)
        problem.start = .location(GeodeticCoordinate(latitude: Self.north, longitude: 14.0005, ellipsoidalHeight: 400))
        problem.startHasHeight = true
        let withHeight = try #require(try RoutePlanner.plan(problem, network: net).estimate.legs.first)
        #expect(abs(withHeight.ascent - 7.5) < Self.heightTolerance)
    }

    /// A height above another datum than the paths' is refused by name, as before; without a
    /// height there is nothing to convert.
    @Test func heightsAboveAnotherDatumThanThePathsAreNamed() throws {
        let net = try PathNetwork(lineStrings: [Self.hill])
        let msl = RouteStop(id: "tower", coordinate: GeodeticCoordinate(latitude: Self.north, longitude: 14.001, altitude: 360))
        #expect(throws: RoutingError.mixedVerticalReferences("network vertex 0 is ellipsoid, stop 'tower' is msl")) {
            try RoutePlanner.plan(RouteProblem(stops: [msl, Self.b]), network: net)
        }
    }

    /// Direct legs have no path to take a height from: without any height the tour is level
    /// (walking time = geodesic length / Tobler's flat speed, 1e-9 relative); some stops with a
    /// height and others without is a typed error naming both (was a phantom climb from 0 m).
    @Test func directLegsWithoutHeightsAreLevelAndAMixIsRefused() throws {
        let plan = try RoutePlanner.plan(RouteProblem(stops: [Self.a, Self.b]))
        let leg = try #require(plan.estimate.legs.first)
        let length = Geodesic.wgs84.distance(latitude1: Self.north, longitude1: 14.001, latitude2: Self.north, longitude2: 14.007)
        #expect(leg.ascent == 0 && leg.descent == 0)
        #expect(abs(leg.walkingTime / (length / Self.flatSpeed) - 1) < 1e-9)
        let high = RouteStop(id: "high", coordinate: GeodeticCoordinate(latitude: 50, longitude: 14.002, altitude: 420))
        #expect(throws: RoutingError.mixedVerticalReferences("stop 'high' has a height, stop 'a' has none (direct legs: no path to take it from)")) {
            try RoutePlanner.plan(RouteProblem(stops: [Self.a, high]))
        }
        var problem = RouteProblem(stops: [Self.a, Self.b], start: .location(GeodeticCoordinate(latitude: 50, longitude: 14, altitude: 380)))
        #expect(throws: RoutingError.mixedVerticalReferences("start has a height, stop 'a' has none (direct legs: no path to take it from)")) {
            try RoutePlanner.plan(problem)
        }
        problem.startHasHeight = false
        #expect(try RoutePlanner.plan(problem).estimate.ascent == 0)
    }

    /// The sparse planner (above ``RoutePlanner/sparseThreshold`` nodes) treats heights the same:
    /// level without any, refused for a mix.
    @Test func sparsePlannerTreatsHeightsTheSame() throws {
        let n = RoutePlanner.sparseThreshold + 1
        let stops = (0..<n).map { k in
            RouteStop(id: "s\(k)", latitude: 50 + Double(k % 27) * 1e-4, longitude: 14 + Double(k / 27) * 1e-4)
        }
        var options = SolverConfiguration()
        options.timeLimit = 0.2
        let plan = try RoutePlanner.plan(RouteProblem(stops: stops), options: options)
        #expect(plan.estimate.ascent == 0 && plan.estimate.descent == 0 && plan.order.count == n)
        var mixed = stops
        mixed[5] = RouteStop(id: "s5", coordinate: GeodeticCoordinate(latitude: 50, longitude: 14, altitude: 300))
        #expect(throws: RoutingError.mixedVerticalReferences("stop 's5' has a height, stop 's0' has none (direct legs: no path to take it from)")) {
            try RoutePlanner.plan(RouteProblem(stops: mixed), options: options)
        }
    }

    /// Paths without heights (2-D LineStrings) and stops with heights (MSL here): the walk
    /// climbs the stops' height difference, spread evenly along the path — 400 → 430 m is 30 m
    /// up and 0 down (hand-computed), walking time at the mean slope over the leg's length
    /// (reference: the walking model at 30 m over the leg's distance, 1e-9 s) — and the walked
    /// polyline's heights rise evenly from 400 to 430 m. Before: the vertices counted as 0 m
    /// above the ellipsoid, a datum error with MSL stops and a 400 m phantom climb with
    /// ellipsoidal ones.
    @Test func pathsWithoutHeightsSpreadTheStopsHeightDifference() throws {
        let flat = Self.hill.map { GeodeticCoordinate(latitude: $0.latitude, longitude: $0.longitude) }
        let net = try PathNetwork(lineStrings: [flat], hasHeights: false)
        #expect(!net.hasHeights)
        let low = RouteStop(id: "low", coordinate: GeodeticCoordinate(latitude: Self.north, longitude: 14.001, altitude: 400))
        let high = RouteStop(id: "high", coordinate: GeodeticCoordinate(latitude: Self.north, longitude: 14.007, altitude: 430))
        let plan = try RoutePlanner.plan(RouteProblem(stops: [low, high]), network: net)
        let leg = try #require(plan.estimate.legs.first)
        #expect(leg.ascent == 30 && leg.descent == 0)
        let w = WalkingModel.tobler
        #expect(abs(leg.walkingTime - w.duration(horizontalDistance: leg.distance, heightChange: 30)) < 1e-9)
        #expect(leg.path.first!.height == 400 && leg.path.last!.height == 430 && leg.path.count == 5) // stop, snap, P1, snap, stop
        #expect(zip(leg.path, leg.path.dropFirst()).allSatisfy { $0.height <= $1.height })
        #expect(leg.path.allSatisfy { $0.verticalReference == .meanSeaLevel })
        // Nothing has a height: level. A mix: refused by name.
        let level = try RoutePlanner.plan(RouteProblem(stops: [Self.a, Self.b]), network: net)
        #expect(level.estimate.ascent == 0 && level.estimate.descent == 0)
        #expect(throws: RoutingError.mixedVerticalReferences("stop 'low' has a height, stop 'b' has none (the paths have no heights to take it from)")) {
            try RoutePlanner.plan(RouteProblem(stops: [low, Self.b]), network: net)
        }
    }

    /// GeoJSON: positions of 3 numbers give a network with heights, of 2 numbers one without;
    /// a file mixing them is refused naming the feature and position (the missing heights were
    /// 0 m, a phantom climb of the other positions' height).
    @Test func geoJSONPathsHaveHeightsForAllPositionsOrNone() throws {
        func network(_ json: String) throws -> PathNetwork {
            let fc = try JSONDecoder().decode(GeoJSONFeatureCollection.self, from: Data(json.utf8))
            return try PathNetwork(geoJSON: fc, source: "paths.geojson")
        }
        func collection(_ lines: String...) -> String {
            "{\"type\":\"FeatureCollection\",\"features\":["
                + lines.map { "{\"type\":\"Feature\",\"properties\":{},\"geometry\":{\"type\":\"LineString\",\"coordinates\":\($0)}}" }
                    .joined(separator: ",") + "]}"
        }
        #expect(try network(collection("[[14,50,400],[14.004,50,430]]")).hasHeights)
        #expect(try !network(collection("[[14,50],[14.004,50]]")).hasHeights)
        #expect(throws: RoutingError.malformedInput(source: "paths.geojson", line: nil, reason:
            "feature 2: position 2 (50.0000000, 14.0080000) has no height, the first path position has one; "
            + "give every path position a height (third coordinate) or none")) {
            try network(collection("[[14,50,400],[14.004,50,430]]", "[[14.004,50,430],[14.008,50]]"))
        }
    }
}

extension RouteHeightsTests {
    static func gpxFile(_ body: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("paths-\(UUID().uuidString).gpx")
        try "<?xml version=\"1.0\"?><gpx version=\"1.1\" xmlns=\"http://www.topografix.com/GPX/1/1\">\(body)</gpx>".write(to: url, atomically: true, encoding: .utf8)
        return url
    }

    /// The same hill as a GPX trail (``PathNetwork/init(gpx:options:distance:)``), `<ele>` above
    /// mean sea level: the stops without heights take the trail's (MSL) heights, so the walk
    /// climbs and descends the hand-computed 22.5 m as on the GeoJSON network; stops with MSL
    /// altitudes are compared with it directly (a stop at 410 m MSL beside the 407.5 m snap:
    /// the leg from a descends 2.5 m to the path, hand-computed, before the 22.5 m of the hill).
    @Test func gpxTrailWithElevations() throws {
        let url = try Self.gpxFile("""
        <trk><trkseg><trkpt lat="50" lon="14.000"><ele>400</ele></trkpt><trkpt lat="50" lon="14.004"><ele>430</ele></trkpt>
        <trkpt lat="50" lon="14.008"><ele>400</ele></trkpt></trkseg></trk>
        """)
        defer { try? FileManager.default.removeItem(at: url) }
        let net = try PathNetwork(gpx: url)
        #expect(net.hasHeights)
        let plan = try RoutePlanner.plan(RouteProblem(stops: [Self.a, Self.b]), network: net)
        #expect(abs(plan.estimate.ascent - 22.5) < Self.heightTolerance && abs(plan.estimate.descent - 22.5) < Self.heightTolerance)
        #expect(plan.estimate.legs[0].path.allSatisfy { $0.verticalReference == .meanSeaLevel })
        let a410 = RouteStop(id: "a", coordinate: GeodeticCoordinate(latitude: Self.north, longitude: 14.001, altitude: 410))
        let b = RouteStop(id: "b", coordinate: GeodeticCoordinate(latitude: Self.north, longitude: 14.007, altitude: 407.5))
        let withAltitudes = try RoutePlanner.plan(RouteProblem(stops: [a410, b]), network: net)
        #expect(abs(withAltitudes.estimate.descent - 25) < Self.heightTolerance, "\(withAltitudes.estimate.descent)")
    }

    /// A GPX without elevations is a network without heights; a route-only file's routes are
    /// the paths; some points with `<ele>` and others without, or no path at all, are refused
    /// naming the point.
    @Test func gpxTrailShapes() throws {
        let flat = try Self.gpxFile(#"<rte><rtept lat="50" lon="14.000"/><rtept lat="50" lon="14.008"/></rte>"#)
        defer { try? FileManager.default.removeItem(at: flat) }
        let net = try PathNetwork(gpx: flat)
        #expect(!net.hasHeights)
        let plan = try RoutePlanner.plan(RouteProblem(stops: [Self.a, Self.b]), network: net)
        #expect(plan.estimate.ascent == 0 && plan.estimate.legs.count == 1)
        let mixed = try Self.gpxFile(#"<trk><trkseg><trkpt lat="50" lon="14"><ele>400</ele></trkpt><trkpt lat="50" lon="14.004"/></trkseg></trk>"#)
        defer { try? FileManager.default.removeItem(at: mixed) }
        #expect { _ = try PathNetwork(gpx: mixed) } throws: { e in
            guard case .malformedInput(_, _, let reason) = e as? RoutingError else { return false }
            return reason.contains("track segment 1, point 2 has no <ele>")
        }
        let none = try Self.gpxFile(#"<wpt lat="50" lon="14"/>"#)
        defer { try? FileManager.default.removeItem(at: none) }
        #expect { _ = try PathNetwork(gpx: none) } throws: { e in
            guard case .malformedInput(_, _, let reason) = e as? RoutingError else { return false }
            return reason.contains("no track segment or route")
        }
    }
}
