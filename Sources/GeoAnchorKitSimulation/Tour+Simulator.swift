import Foundation
import GeoAnchorKit

extension TraceSimulator.Configuration {
    /// A tour for this simulated scenario: one stop per ``TraceSimulator/Stop`` (id = its name,
    /// at its waypoint) with trigger radius `radius`, the waypoints as the path, and — when
    /// `decoyOffset` is given — a decoy stop `decoyOffset` meters to the left of the midpoint of
    /// every leg longer than 100 m (id `decoy<leg>`, kept only if it is at least
    /// `decoyOffset − 4` m from the whole path). Decoys measure false arrivals: the walker never
    /// goes there.
    /// - Throws: ``TourError`` (e.g. duplicate stop names).
    public func tour(radius: Double = 20, decoyOffset: Double? = nil) throws -> Tour {
        let frame = try LocalTangentFrame(origin: GeodeticCoordinate(latitude: waypoints[0].latitude, longitude: waypoints[0].longitude, ellipsoidalHeight: 0))
        func geo(_ p: PlanarPoint) -> GeodeticCoordinate {
            let g = frame.geodetic(east: p.x, north: p.y, up: 0)
            return GeodeticCoordinate(latitude: g.latitude, longitude: g.longitude, ellipsoidalHeight: 0)
        }
        let pts = waypoints.map { PlanarPoint(frame.enu(latitude: $0.latitude, longitude: $0.longitude, ellipsoidalHeight: 0)) }
        var stops = self.stops.map { TourStop(id: $0.name, coordinate: geo(pts[$0.waypointIndex]), radius: radius) }
        if let off = decoyOffset {
            let path = PlanarPolyline(pts)
            for i in 0..<(pts.count - 1) {
                let a = pts[i], b = pts[i + 1]
                let len = a.distance(to: b)
                guard len > 100 else { continue }
                let d = (a + b) * 0.5 + PlanarPoint(x: -(b - a).y / len, y: (b - a).x / len) * off
                if path.project(d).distance >= off - 4 { stops.append(TourStop(id: "decoy\(i)", coordinate: geo(d), radius: radius)) }
            }
        }
        return try Tour(stops: stops, path: waypoints.map { GeodeticCoordinate(latitude: $0.latitude, longitude: $0.longitude, ellipsoidalHeight: 0) },
                        pathID: name)
    }
}
