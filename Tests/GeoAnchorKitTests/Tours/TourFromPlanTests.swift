import Foundation
import Testing
@testable import GeoAnchorKit

/// From a route plan to a running tour (issue: no way to turn a plan into a Tour, and walking
/// legs on a path network had no geometry).
@Suite("Tours: from a route plan")
struct TourFromPlanTests {
    static func c(_ lat: Double, _ lon: Double) -> GeodeticCoordinate { GeodeticCoordinate(latitude: lat, longitude: lon, ellipsoidalHeight: 0) }

    /// An L-shaped network; stops at its two ends and one beside the corner. Reference: the
    /// construction — the first leg walks around the corner vertex (it is in the leg's path),
    /// every leg starts at its origin stop and ends at its destination, and the joined tour path
    /// passes the corner; the tour runs in a session and its path is a filter constraint.
    @Test func planOnANetworkBecomesATour() throws {
        let corner = Self.c(50, 14), east = Self.c(50, 14.005), north = Self.c(50.004, 14)
        let net = try PathNetwork(lineStrings: [[north, corner], [corner, east]])
        let nearCorner = Self.c(50.0001, 14.0001)
        let problem = RouteProblem(stops: [RouteStop(id: "north", coordinate: north), RouteStop(id: "east", coordinate: east),
                                           RouteStop(id: "corner", coordinate: nearCorner)],
                                   start: .stop("north"))
        let plan = try RoutePlanner.plan(problem, network: net)
        #expect(plan.order == ["north", "corner", "east"])
        let legs = plan.estimate.legs
        #expect(legs.count == 2)
        #expect(legs[0].path.first == north && legs[0].path.last == nearCorner)
        #expect(legs[1].path.first == nearCorner && legs[1].path.last == east)
        #expect(legs.allSatisfy { $0.path.count >= 2 })
        // The second leg leaves the corner stop, snaps onto the network and walks east.
        let tour = try Tour(plan: plan, problem: problem, radius: 15)
        #expect(tour.stops.map(\.id) == ["north", "corner", "east"] && tour.stops.allSatisfy { $0.radius == 15 })
        #expect(tour.path.first == north && tour.path.last == east)
        let session = try TourSession(tour: tour)
        let cornerOnPath = session.path!.project(session.planarPoint(latitude: 50, longitude: 14))
        #expect(cornerOnPath.distance < 1e-6)
        #expect(try tour.pathConstraint() != nil)
        // Direct legs (no network): straight lines between the stops.
        let direct = try RoutePlanner.plan(problem)
        #expect(direct.estimate.legs.allSatisfy { $0.path.count == 2 })
    }
}
