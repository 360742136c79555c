import Foundation
import GeoAnchorKit

extension TraceSimulator.Configuration {
    /// Cumulative distance (m) along a polyline at each vertex (ENU at the first vertex).
    public static func pathDistances(_ waypoints: [GeodeticCoordinate]) -> [Double] {
        guard let first = waypoints.first,
              let f = try? LocalTangentFrame(origin: GeodeticCoordinate(latitude: first.latitude, longitude: first.longitude, ellipsoidalHeight: 0))
        else { return [] }
        var out = [0.0]
        var prev = f.enu(latitude: first.latitude, longitude: first.longitude, ellipsoidalHeight: 0)
        for w in waypoints.dropFirst() {
            let p = f.enu(latitude: w.latitude, longitude: w.longitude, ellipsoidalHeight: 0)
            out.append(out.last! + ((p.east - prev.east) * (p.east - prev.east) + (p.north - prev.north) * (p.north - prev.north)).squareRoot())
            prev = p
        }
        return out
    }

    /// A walking tour of the Závist Celtic oppidum south of Prague (around 49.96 N, 14.39 E):
    /// a ≈ 2.3 km loop from the car park via the main gate, the acropolis and the temple
    /// platform back along the ramparts, with four stops. Terrain: a hill rising ≈ 55 m to the
    /// acropolis; a stretch under forest canopy degrades GNSS like an urban canyon. The
    /// waypoints are an illustrative route, not surveyed archaeological positions. Geoid
    /// separation 45.6 m (approximately EGM96 there).
    public static var zavistTour: TraceSimulator.Configuration {
        let w: [(Double, Double)] = [
            (49.95660, 14.38680), (49.95780, 14.38800), (49.96000, 14.38950), (49.96200, 14.39050),
            (49.96370, 14.39180), (49.96450, 14.39400), (49.96320, 14.39620), (49.96120, 14.39580),
            (49.95950, 14.39350), (49.95800, 14.39050), (49.95660, 14.38680),
        ]
        let wp = w.map { GeodeticCoordinate(latitude: $0.0, longitude: $0.1) }
        let d = pathDistances(wp)
        var c = TraceSimulator.Configuration(
            name: "zavist-tour", waypoints: wp,
            stops: [.init(name: "Main gate", waypointIndex: 1, dwell: 90),
                    .init(name: "Acropolis", waypointIndex: 4, dwell: 150),
                    .init(name: "Temple platform", waypointIndex: 6, dwell: 120),
                    .init(name: "Rampart viewpoint", waypointIndex: 8, dwell: 90)],
            canyons: [.init(from: d[6] + 20, to: d[7] + 40)],
            terrain: .init(base: 330, hills: [.init(east: 360, north: 780, height: 55, radius: 280),
                                              .init(east: 650, north: 500, height: 20, radius: 150)],
                           slopeEast: 0.012, slopeNorth: 0.004),
            geoidSeparation: 45.6,
            startTime: 1_778_920_200) // 2026-05-16T08:30:00Z
        c.sensors.declination = 5.1
        c.gnss.canyonFactor = 2.2
        c.gnss.canyonPull = 2.0
        return c
    }

    /// A dense city walk through Prague's Old Town (Old Town Square, Celetná, Powder Tower,
    /// Estates Theatre, Havelská, Bethlehem Chapel, Karlova, Old Town Bridge Tower): ≈ 1.9 km
    /// with many turns and narrow streets (urban canyons) between open squares, five stops.
    /// Flat terrain (≈ 190 m MSL); geoid separation 45.5 m.
    public static var cityWalk: TraceSimulator.Configuration {
        let w: [(Double, Double)] = [
            (50.08700, 14.42068), (50.08705, 14.42120), (50.08760, 14.42200), (50.08740, 14.42290),
            (50.08720, 14.42480), (50.08710, 14.42750), (50.08630, 14.42700), (50.08600, 14.42370),
            (50.08550, 14.42250), (50.08520, 14.42050), (50.08460, 14.41870), (50.08560, 14.41720),
            (50.08620, 14.41600), (50.08640, 14.41520), (50.08630, 14.41400),
        ]
        let wp = w.map { GeodeticCoordinate(latitude: $0.0, longitude: $0.1) }
        let d = pathDistances(wp)
        var c = TraceSimulator.Configuration(
            name: "city-walk", waypoints: wp,
            stops: [.init(name: "Astronomical clock", waypointIndex: 0, dwell: 60),
                    .init(name: "Powder Tower", waypointIndex: 5, dwell: 60),
                    .init(name: "Estates Theatre", waypointIndex: 7, dwell: 45),
                    .init(name: "Bethlehem Chapel", waypointIndex: 10, dwell: 60),
                    .init(name: "Old Town Bridge Tower", waypointIndex: 14, dwell: 60)],
            canyons: [.init(from: d[3], to: d[5] - 15), .init(from: d[7] + 10, to: d[10]),
                      .init(from: d[11], to: d[14] - 20)],
            terrain: .init(base: 190, hills: [.init(east: 200, north: -150, height: 4, radius: 200)], slopeEast: -0.004),
            geoidSeparation: 45.5,
            startTime: 1_778_940_000) // 2026-05-16T14:00:00Z
        c.walkingSpeed = 1.2
        c.sensors.declination = 5.2
        return c
    }

    /// The scenario's terrain as a DEM (``TerrainModel``, ellipsoidal heights: the terrain's MSL
    /// height + ``geoidSeparation``) — the ground the simulated walker walks on, plus a DEM error:
    /// a smooth field of 1σ `demError` meters (two plane waves of 150–400 m wavelength in random
    /// directions, drawn from `seed`) — for ground aiding (``GroundConstraint``) against the
    /// simulator's truth. `demError` 0 is the true ground.
    /// - Throws: ``GeoAnchorError`` for an invalid first waypoint (the frame's origin).
    public func terrainModel(demError: Double = 0, seed: UInt64 = 0) throws(GeoAnchorError) -> any TerrainModel {
        var rng = SeededRandom(seed: seed)
        let waves = (0..<2).map { _ -> (k: SIMD2<Double>, phase: Double) in
            let length = rng.uniform(150, 400), dir = rng.uniform(0, 2 * Double.pi)
            return (SIMD2(Foundation.sin(dir), Foundation.cos(dir)) * (2 * Double.pi / length), rng.uniform(0, 2 * Double.pi))
        }
        let origin = waypoints.first ?? GeodeticCoordinate(latitude: 0, longitude: 0)
        return SimulatedTerrain(terrain: terrain, geoidSeparation: geoidSeparation,
                                frame: try LocalTangentFrame(origin: GeodeticCoordinate(latitude: origin.latitude, longitude: origin.longitude,
                                                                                        ellipsoidalHeight: 0)),
                                demError: demError, waves: waves)
    }

    /// The named presets (`zavist-tour`, `city-walk`).
    public static var scenarios: [String: TraceSimulator.Configuration] {
        ["zavist-tour": zavistTour, "city-walk": cityWalk]
    }

    /// The tour as GeoJSON: the path (LineString, `"kind": "path"`), each stop (Point with
    /// `"kind": "stop"`, `name`, `dwell_s`).
    public var geoJSON: GeoJSONFeatureCollection {
        var feats: [GeoJSONFeature] = []
        let pos = waypoints.map { GeoJSONPosition(longitude: $0.longitude, latitude: $0.latitude) }
        feats.append(GeoJSONFeature(geometry: .lineString(pos), properties: ["kind": "path", "name": .string(name)]))
        for s in stops {
            feats.append(GeoJSONFeature(geometry: .point(pos[s.waypointIndex]),
                                        properties: ["kind": "stop", "name": .string(s.name), "dwell_s": .number(s.dwell)]))
        }
        return GeoJSONFeatureCollection(features: feats)
    }
}

/// ``TraceSimulator/Configuration/terrainModel(demError:seed:)``: the scenario terrain in the
/// simulator's frame (origin at the first waypoint, ellipsoidal height 0).
struct SimulatedTerrain: TerrainModel {
    let terrain: TraceSimulator.Terrain
    let geoidSeparation: Double
    /// The simulator's frame (``TraceSimulator``'s: the first waypoint at ellipsoidal height 0).
    let frame: LocalTangentFrame
    /// 1σ of the DEM error (m) and its two plane waves (wave vector, phase); each wave has
    /// amplitude demError (two of them: σ = demError).
    let demError: Double
    let waves: [(k: SIMD2<Double>, phase: Double)]
    var verticalReference: VerticalReference { .ellipsoid }
    func terrainHeight(latitude: Double, longitude: Double) throws(GeoAnchorError) -> Double {
        let p = frame.enu(latitude: latitude, longitude: longitude, ellipsoidalHeight: 0)
        var error = 0.0
        for w in waves { error += demError * Foundation.sin(w.k.x * p.east + w.k.y * p.north + w.phase) }
        return terrain.height(east: p.east, north: p.north) + geoidSeparation + error
    }
}
