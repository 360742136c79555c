import Foundation
import Testing
@testable import GeoAnchorKit

@Suite("Path network")
struct PathNetworkTests {
    static func c(_ lat: Double, _ lon: Double, _ h: Double = 0) -> GeodeticCoordinate {
        GeodeticCoordinate(latitude: lat, longitude: lon, ellipsoidalHeight: h)
    }

    /// An L-shaped path: the walk between its ends must follow the L (sum of the two arms), not
    /// the diagonal. Reference: the arms' lengths from the same distance function; tolerance
    /// 0.1 mm because the ends are snapped through the local ENU frame (µm-level round trip).
    /// The diagonal is much shorter, so the network really constrains the walk.
    @Test func walksAlongThePaths() throws {
        let corner = Self.c(50, 14), east = Self.c(50, 14.005), north = Self.c(50.004, 14)
        let net = try PathNetwork(lineStrings: [[north, corner], [corner, east]])
        let costs = try net.costs(between: [north, east])
        let arms = RoutingDistance.geodesic(north, corner) + RoutingDistance.geodesic(corner, east)
        #expect(abs(costs.distances[0, 1] - arms) < 1e-4)
        #expect(costs.distances[0, 1] > RoutingDistance.geodesic(north, east) * 1.3)
    }

    /// A stop 20 m beside the middle of a segment snaps onto it; access legs are added.
    @Test func snapsStopsOntoSegments() throws {
        let a = Self.c(50, 14), b = Self.c(50, 14.01)
        let net = try PathNetwork(lineStrings: [[a, b]])
        let mid = Self.c(50.00018, 14.005) // ≈ 20 m north of the path
        let s = try #require(net.snap(mid))
        #expect(abs(s.fraction - 0.5) < 1e-3)
        #expect(abs(s.distance - 20) < 0.2)
        let costs = try net.costs(between: [a, mid, b])
        #expect(abs(costs.distances[0, 2] - RoutingDistance.geodesic(a, b)) < 1e-3)
        #expect(costs.distances[0, 1] > s.distance)
    }

    /// Disconnected paths and far-away stops are reported by id.
    @Test func unreachableStopsAreNamed() throws {
        let net = try PathNetwork(lineStrings: [[Self.c(50, 14), Self.c(50, 14.01)],
                                                [Self.c(50.02, 14), Self.c(50.02, 14.01)]])
        let stops = [
            RouteStop(id: "home", coordinate: Self.c(50, 14.001)),
            RouteStop(id: "island", coordinate: Self.c(50.02, 14.005)),
            RouteStop(id: "far", coordinate: Self.c(51, 14)),
            RouteStop(id: "near", coordinate: Self.c(50, 14.008)),
        ]
        #expect(throws: RoutingError.unreachableStops(["island", "far"])) {
            try RoutePlanner.plan(RouteProblem(stops: stops), network: net)
        }
        let ok = try RoutePlanner.plan(RouteProblem(stops: [stops[0], stops[3]]), network: net)
        #expect(ok.order == ["home", "near"])
    }

    /// Heights along the network: a path over a 30 m hill between two flat ends gives 30 m up
    /// and 30 m down, and Tobler time per edge (reference: the edges' durations summed by hand).
    @Test func climbsFollowTheNetworkHeights() throws {
        let a = Self.c(50, 14, 300), top = Self.c(50, 14.003, 330), b = Self.c(50, 14.006, 300)
        let net = try PathNetwork(lineStrings: [[a, top, b]])
        let costs = try net.costs(between: [a, b])
        #expect(abs(costs.ascents[0, 1] - 30) < 1e-9 && abs(costs.descents[0, 1] - 30) < 1e-9)
        let w = WalkingModel.tobler
        let l1 = RoutingDistance.geodesic(a, top), l2 = RoutingDistance.geodesic(top, b)
        let expected = w.duration(horizontalDistance: l1, heightChange: 30) + w.duration(horizontalDistance: l2, heightChange: -30)
        #expect(abs(costs.durations[0, 1] - expected) < 1e-6)
    }
}
