import Benchmark
import Foundation
import GeoAnchorKit
import GeoAnchorKitGEOS

// Tours suite: geofence evaluation cost per position. Target (issue 8): a tour with 10,000
// circular fences evaluated per fix in ≤ 50 µs.
let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(metrics: [.wallClock, .throughput, .mallocCountTotal],
                                           maxDuration: .seconds(3), maxIterations: 100_000)

    /// `fences` circles of 20 m radius scattered uniformly over side × side meters, and 3,000
    /// fixes of a walker crossing the middle diagonally (1.3 m/s, 5 m noise, accuracy 7.5 m).
    func setup(fences: Int, side: Double) throws -> (TourSession, [Fix]) {
        let frame = try LocalTangentFrame(origin: GeodeticCoordinate(latitude: 49.9577, longitude: 14.3953, ellipsoidalHeight: 0))
        var state: UInt64 = 12345
        func uniform() -> Double {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Double(state >> 11) / Double(1 << 53)
        }
        func normal() -> Double { (-2 * log(max(uniform(), 1e-300))).squareRoot() * cos(2 * .pi * uniform()) }
        var stops: [TourStop] = []
        for i in 0..<fences {
            let g = frame.geodetic(east: uniform() * side - side / 2, north: uniform() * side - side / 2, up: 0)
            stops.append(TourStop(id: "f\(i)", coordinate: GeodeticCoordinate(latitude: g.latitude, longitude: g.longitude, ellipsoidalHeight: 0), radius: 20))
        }
        let session = try TourSession(tour: try Tour(stops: stops))
        var fixes: [Fix] = []
        for k in 0..<3000 {
            let x = -1400 + 1.3 * Double(k) * 0.8, y = -1400 + 1.3 * Double(k) * 0.6   // stays inside ±1500 m
            let g = frame.geodetic(east: x + 5 * normal(), north: y + 5 * normal(), up: 0)
            fixes.append(Fix(time: 1_700_000_000 + Double(k), latitude: g.latitude, longitude: g.longitude, horizontalAccuracy: 7.5))
        }
        return (session, fixes)
    }

    // Built once (outside every measurement); each iteration processes the next fix of the walk,
    // and the session carries its state from one iteration to the next, as in an app.
    final class Walk: @unchecked Sendable {
        var session: TourSession
        var fixes: [Fix]
        var k = 0
        init(_ s: TourSession, _ f: [Fix]) { session = s; fixes = f }
        func next() throws -> [TourEvent] {
            if k == fixes.count {   // start the walk again later in time
                k = 0
                for i in fixes.indices { fixes[i].time += 10_000 }
            }
            defer { k += 1 }
            return try session.update(fixes[k]).events
        }
    }
    for (label, side) in [("3 km × 3 km (1 fence per 900 m², overlapping)", 3000.0), ("10 km × 10 km", 10_000.0)] {
        guard let (s, f) = try? setup(fences: 10_000, side: side) else { fatalError("benchmark setup failed") }
        let walk = Walk(s, f)
        Benchmark("Geofences: 10,000 circles over \(label), one fix per iteration") { benchmark in
            for _ in benchmark.scaledIterations { blackHole(try walk.next()) }
        }
    }

    Benchmark("Probability inside a circle (Rice CDF, boundary case)") { benchmark in
        var d = 18.0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            d = d == 18 ? 21 : 18
            blackHole(PositionUncertainty.probabilityInsideCircle(distance: d, radius: 20, sigma: 3.3))
        }
    }

    Benchmark("GEOS zones: signed distance to 10 prepared zones") { benchmark in
        let frame = try LocalTangentFrame(origin: GeodeticCoordinate(latitude: 49.9577, longitude: 14.3953, ellipsoidalHeight: 0))
        func g(_ x: Double, _ y: Double) -> GeodeticCoordinate {
            let r = frame.geodetic(east: x, north: y, up: 0)
            return GeodeticCoordinate(latitude: r.latitude, longitude: r.longitude, ellipsoidalHeight: 0)
        }
        var zones: [TourZone] = []
        for i in 0..<10 {
            // 40-vertex circles of 80 m radius in a row.
            let cx = Double(i) * 200
            var ring = (0..<40).map { k -> GeodeticCoordinate in
                let a = Double(k) / 40 * 2 * .pi
                return g(cx + 80 * cos(a), 80 * sin(a))
            }
            ring.append(ring[0])
            zones.append(TourZone(id: "z\(i)", rings: [ring]))
        }
        let tour = try Tour(stops: [TourStop(id: "s", coordinate: g(0, 0), radius: 20)], zones: zones)
        let session = try TourSession(tour: tour)
        let tz = try TourZones(session: session)
        var out = [Double](repeating: 0, count: 10)
        var x = 0.0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            x = x > 1800 ? 0 : x + 1.3
            try tz.signedDistances(at: PlanarPoint(x: x, y: 10), into: &out)
            blackHole(out)
        }
    }
}
