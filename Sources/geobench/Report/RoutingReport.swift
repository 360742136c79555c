import Foundation
import GeoAnchorKit

/// Routing section: a tour of the Závist oppidum ordered and estimated (direct legs and along
/// a path network), the exact solver's speed, the heuristic against OR-Tools (committed
/// fixture), and the small TSPLIB GEO instances when ../shared/data is present.
enum RoutingReport: ReportSection {
    static let title = "Routing: tour order and walk estimate"

    /// Závist oppidum (Celtic hill fort above the Vltava, south of Prague): points of interest
    /// defined here for the report — plausible positions and MSL heights, not surveyed.
    static let zavist: [RouteStop] = [
        RouteStop(id: "south-gate", coordinate: .init(latitude: 49.9566, longitude: 14.3868, altitude: 300), dwell: 120),
        RouteStop(id: "main-gate", coordinate: .init(latitude: 49.9578, longitude: 14.3880, altitude: 320), dwell: 180),
        RouteStop(id: "hallstatt-mound", coordinate: .init(latitude: 49.9600, longitude: 14.3895, altitude: 335), dwell: 120),
        RouteStop(id: "rampart-view", coordinate: .init(latitude: 49.9595, longitude: 14.3935, altitude: 345), dwell: 240),
        RouteStop(id: "outer-bailey", coordinate: .init(latitude: 49.9612, longitude: 14.3958, altitude: 350), dwell: 120),
        RouteStop(id: "celtic-well", coordinate: .init(latitude: 49.9620, longitude: 14.3905, altitude: 360), dwell: 90),
        RouteStop(id: "temple", coordinate: .init(latitude: 49.9632, longitude: 14.3962, altitude: 375), dwell: 300),
        RouteStop(id: "acropolis", coordinate: .init(latitude: 49.9637, longitude: 14.3918, altitude: 385), dwell: 420),
        RouteStop(id: "north-rampart", coordinate: .init(latitude: 49.9645, longitude: 14.3940, altitude: 378), dwell: 150),
        RouteStop(id: "vltava-view", coordinate: .init(latitude: 49.9650, longitude: 14.3870, altitude: 370), dwell: 240),
    ]
    /// The car park below the south gate (start and end of the round trip).
    static let carPark = GeodeticCoordinate(latitude: 49.9555, longitude: 14.3850, altitude: 290)

    /// Paths of the site (defined with the stops): a loop along the ramparts plus two cross paths.
    static var paths: [[GeodeticCoordinate]] {
        func c(_ lat: Double, _ lon: Double, _ h: Double) -> GeodeticCoordinate { .init(latitude: lat, longitude: lon, altitude: h) }
        let loop = [c(49.9555, 14.3850, 290), c(49.9566, 14.3868, 300), c(49.9578, 14.3880, 320), c(49.9595, 14.3935, 345),
                    c(49.9612, 14.3958, 350), c(49.9632, 14.3962, 375), c(49.9645, 14.3940, 378), c(49.9650, 14.3870, 370),
                    c(49.9620, 14.3880, 350), c(49.9600, 14.3895, 335), c(49.9578, 14.3880, 320)]
        let cross1 = [c(49.9600, 14.3895, 335), c(49.9620, 14.3905, 360), c(49.9637, 14.3918, 385), c(49.9645, 14.3940, 378)]
        let cross2 = [c(49.9620, 14.3905, 360), c(49.9612, 14.3958, 350)]
        return [loop, cross1, cross2]
    }

    static func seconds(_ d: Duration) -> Double {
        Double(d.components.seconds) + Double(d.components.attoseconds) * 1e-18
    }

    static func estimateLines(_ plan: RoutePlan, _ header: String) -> [String] {
        var lines = ["  \(header)"]
        lines.append("    order: car park → " + plan.order.joined(separator: " → ") + " → car park"
                     + (plan.solver == .exact ? " (optimal)" : ""))
        for leg in plan.estimate.legs {
            lines.append(String(format: "    %-16@ → %-16@ %7.0f m  ↑%4.0f m ↓%4.0f m  walk %5.0f s  ETA %@",
                                leg.from.padding(toLength: 16, withPad: " ", startingAt: 0) as NSString,
                                leg.to.padding(toLength: 16, withPad: " ", startingAt: 0) as NSString,
                                leg.distance, leg.ascent, leg.descent, leg.walkingTime, clock(leg.arrival) as NSString))
        }
        let e = plan.estimate
        lines.append(String(format: "    total %.0f m, ascent %.0f m, descent %.0f m, walking %@ + dwell %@ = %@",
                            e.distance, e.ascent, e.descent, clock(e.walkingTime) as NSString,
                            clock(e.dwellTime) as NSString, clock(e.duration) as NSString))
        return lines
    }

    static func clock(_ s: Double) -> String {
        let m = Int((s / 60).rounded())
        return String(format: "%d:%02d", m / 60, m % 60)
    }

    static func run(_ context: ReportContext) throws -> [String] {
        var out: [String] = []
        let clockNow = ContinuousClock()
        var problem = RouteProblem(stops: zavist, start: .location(carPark), end: .returnToStart)
        problem.objective = .duration
        var t0 = clockNow.now
        let direct = try RoutePlanner.plan(problem)
        let tDirect = seconds(clockNow.now - t0)
        out.append("  Závist oppidum: \(zavist.count) stops (POIs defined in RoutingReport, heights MSL), round trip from the car park,")
        out.append("  minimising duration (walking: Tobler, the steep-terrain model on steep legs; + dwell).")
        out += estimateLines(direct, String(format: "Direct geodesic legs (solved in %.1f ms):", tDirect * 1000))
        let network = try PathNetwork(lineStrings: paths)
        t0 = clockNow.now
        let along = try RoutePlanner.plan(problem, network: network)
        let tNet = seconds(clockNow.now - t0)
        out += estimateLines(along, String(format: "Along the site's paths (%d edges; snap + Dijkstra + solve in %.1f ms):",
                                           network.edges.count, tNet * 1000))

        // The repository's own Závist tour (traces/zavist-tour.geojson): its stops ordered along
        // its path, round trip from the first stop.
        let shipped = context.tracesDirectory.appendingPathComponent("zavist-tour.geojson")
        if FileManager.default.fileExists(atPath: shipped.path) {
            let fc = try GeoJSONFeatureCollection.read(contentsOf: shipped)
            var stops: [RouteStop] = []
            for f in fc.features where f.string("kind") == "stop" {
                guard case .point(let p)? = f.geometry else { continue }
                let id = f.string("name") ?? "stop\(stops.count + 1)", dwell = f.double("dwell_s") ?? 0
                // A point of two numbers has no height (not 0 m): on paths with heights it takes theirs.
                stops.append(p.height == nil ? RouteStop(id: id, latitude: p.latitude, longitude: p.longitude, dwell: dwell)
                                             : RouteStop(id: id, coordinate: p.coordinate, dwell: dwell))
            }
            if !stops.isEmpty {
                let net = try PathNetwork(geoJSON: fc, source: shipped.path)
                let plan = try RoutePlanner.plan(RouteProblem(stops: stops, end: .returnToStart), network: net)
                let e = plan.estimate
                out.append("  traces/zavist-tour.geojson (\(stops.count) stops, its path network, round trip from the first stop):")
                out.append("    order: " + plan.order.joined(separator: " → ") + " → " + plan.order[0]
                           + (plan.solver == .exact ? " (optimal)" : ""))
                out.append(String(format: "    %.0f m, ascent %.0f m, walking %@ + dwell %@ = %@", e.distance, e.ascent,
                                  clock(e.walkingTime) as NSString, clock(e.dwellTime) as NSString, clock(e.duration) as NSString))
            }
        }

        // Steep legs: a tower's stairs, where Tobler's exponential alone gives hours.
        let walking = WalkingModel.tobler
        var toblerAlone = walking
        toblerAlone.steepTerrain = nil
        let (run, rise) = (30.0, 50.0)
        out.append(String(format: "  Steep legs (a tower's stairs, %.0f m up over %.0f m): up %.0f s, down %.0f s (Tobler alone: %.0f s, %.0f s).",
                          rise, run, walking.duration(horizontalDistance: run, heightChange: rise),
                          walking.duration(horizontalDistance: run, heightChange: -rise),
                          toblerAlone.duration(horizontalDistance: run, heightChange: rise),
                          toblerAlone.duration(horizontalDistance: run, heightChange: -rise)))

        // Exact solver speed: 16 free stops (+ fixed start) in a 3 km square, Held–Karp.
        var city: [GeodeticCoordinate] = []
        for k in 0..<17 {
            let a = Double((k * 7919) % 101) / 101, b = Double((k * 104_729) % 97) / 97
            city.append(GeodeticCoordinate(latitude: 50.08 + 0.027 * a, longitude: 14.40 + 0.042 * b))
        }
        let m = try RoutingCosts(coordinates: city).distances
        var tHK = Double.infinity
        var hk = try VisitOrderSolver.solve(cost: m, start: 0, end: .free)
        for _ in 0..<5 {
            t0 = clockNow.now
            hk = try VisitOrderSolver.solve(cost: m, start: 0, end: .free)
            tHK = min(tHK, seconds(clockNow.now - t0))
        }
        out.append(String(format: "  Exact solver (Held–Karp): 16 free stops + fixed start, open path: %.1f ms (best of 5), %.0f m, %@",
                          tHK * 1000, hk.cost, hk.solver.rawValue))

        // Heuristic vs OR-Tools (fixture committed with the tests).
        let fixture = URL(fileURLWithPath: "Tests/GeoAnchorKitTests/Fixtures/Routing/ortools_city200.json")
        if let data = FileManager.default.contents(atPath: fixture.path),
           let obj = try JSONSerialization.jsonObject(with: data) as? [String: Any],
           let instances = obj["instances"] as? [[String: Any]] {
            out.append("  200 random city stops, open path (fixture: OR-Tools guided local search, 5 s):")
            for inst in instances {
                guard let lat = inst["latitudes"] as? [Double], let lon = inst["longitudes"] as? [Double],
                      let order = inst["ortools_order"] as? [Int], let seed = inst["seed"] as? Int else { continue }
                context.progress("routing: 200-stop instance seed \(seed)")
                let pts = zip(lat, lon).map { GeodeticCoordinate(latitude: $0, longitude: $1) }
                t0 = clockNow.now
                let costs = try RoutingCosts(coordinates: pts)
                let ours = try VisitOrderSolver.solve(cost: costs.distances, start: 0, end: .free,
                                                options: SolverConfiguration(timeLimit: 1.5, seed: 1))
                let t = seconds(clockNow.now - t0)
                let theirs = costs.distances.length(of: order)
                out.append(String(format: "    seed %d: ours %.0f m in %.2f s (matrix + search) vs OR-Tools %.0f m in 5 s: %+.2f %%",
                                  seed, ours.cost, t, theirs, (ours.cost / theirs - 1) * 100))
            }
        }

        // OpenStreetMap paths (fixture town in four writers' formats) vs GDAL + networkx.
        let osmDir = context.tracesDirectory.deletingLastPathComponent().appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/Routing/OSM")
        if let osm = try Self.openStreetMapLine(osmDir) { out.append(osm) }
        if let sights = try Self.sightsTourLine(osmDir) { out.append(sights) }

        // TSPLIB GEO (small instances) when the shared reference data is present.
        if let shared = context.sharedDataDirectory {
            let dir = shared.appendingPathComponent("tsplib")
            if let sol = try? String(contentsOf: dir.appendingPathComponent("solutions.txt"), encoding: .utf8) {
                var optimum: [String: Int] = [:]
                for line in sol.split(separator: "\n") {
                    let p = line.split(separator: ":").map { $0.trimmingCharacters(in: .whitespaces) }
                    if p.count == 2, let v = Int(p[1].split(separator: " ")[0]) { optimum[p[0]] = v }
                }
                out.append("  TSPLIB GEO (../shared/data, published optima; 0.5 s budget):")
                for name in ["burma14", "ulysses16", "ulysses22", "gr96"] {
                    guard let text = try? String(contentsOf: dir.appendingPathComponent("instances/\(name).tsp"), encoding: .utf8),
                          let opt = optimum[name] else { continue }
                    let inst = try TSPLIBInstance.parse(text, source: name)
                    t0 = clockNow.now
                    let s = try VisitOrderSolver.solve(cost: inst.costMatrix(), start: 0, end: .roundTrip,
                                                 options: SolverConfiguration(timeLimit: 0.5, seed: 1))
                    let t = seconds(clockNow.now - t0)
                    let len = inst.tourLength(s.order)
                    out.append(String(format: "    %@ %6d vs optimum %6d: gap %.3f %%, %.3f s (%@)", name.padding(toLength: 10, withPad: " ", startingAt: 0) as NSString, len, opt,
                                      Double(len - opt) / Double(opt) * 100, t, s.solver.rawValue))
                }
            }
        }
        return out
    }

    /// The OpenStreetMap line: the fixture town (scripts/dev/osm_fixtures.py) as openstreetmap.org's
    /// Export, osmium, Overpass `out geom` and JOSM (an edit) write it, and as osmium's PBF (three forms), walked between its 8 stops
    /// and compared with the walks of GDAL's reading of the same files (networkx Dijkstra over
    /// GeographicLib geodesics, `oldtown.reference.csv`). Nil when the fixtures are absent.
    static func openStreetMapLine(_ dir: URL) throws -> String? {
        guard let ref = try? String(contentsOf: dir.appendingPathComponent("oldtown.reference.csv"), encoding: .utf8),
              let stopText = try? String(contentsOf: dir.appendingPathComponent("oldtown.stops.csv"), encoding: .utf8) else { return nil }
        var reference: [String: [String: Double]] = [:]   // "file from to" → meters
        for line in ref.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",")
            guard f.count == 4, let m = Double(f[3]) else { continue }
            reference[String(f[0]), default: [:]]["\(f[1]) \(f[2])"] = m
        }
        var ids: [String] = [], points: [GeodeticCoordinate] = []
        for line in stopText.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",")
            guard f.count == 3, let la = Double(f[1]), let lo = Double(f[2]) else { continue }
            ids.append(String(f[0])); points.append(GeodeticCoordinate(latitude: la, longitude: lo))
        }
        var pairs = 0, equal = 0, worst = 0.0, used = 0, ways = 0
        for (name, file) in [("oldtown.osm", "export"), ("oldtown.osmium.osm", "export"), ("oldtown.overpass-geom.osm", "export"),
                             ("oldtown.josm.osm", "josm"), ("oldtown.osm.pbf", "export"), ("oldtown.plain.osm.pbf", "export"),
                             ("oldtown.locations.osm.pbf", "export")] {
            let data = try OSMReader.read(url: dir.appendingPathComponent(name))
            let (network, summary) = try PathNetwork.openStreetMap(data: data, source: name)
            if name == "oldtown.osm" { used = summary.walkableWays; ways = data.ways.count }
            let d = try network.costs(between: points, maxSnapDistance: 1).distances
            for i in ids.indices { for j in ids.indices where i != j {
                pairs += 1
                let r = reference[file]?["\(ids[i]) \(ids[j])"] ?? .infinity
                if r.isInfinite ? d[i, j].isInfinite : abs(d[i, j] - r) < 1e-3 { equal += 1 }
                if r.isFinite && d[i, j].isFinite { worst = max(worst, abs(d[i, j] - r)) }
            } }
        }
        return String(format: "  OpenStreetMap paths (fixture town: export, osmium, Overpass out geom, JOSM edit; osmium PBF zlib/raw/locations-on-ways): %d of %d ways walkable (OSRM foot profile); %d/%d stop-to-stop walks as GDAL 3.6 + networkx (1 mm; max |Δ| %.1e m, unconnected pairs too)",
                      used, ways, equal, pairs, worst)
    }

    /// The sights line: the fixture town's named sights (OSMData.sights) planned as a walk along
    /// its walkable ways, written as a tour file (Tour.geoJSON) and read back — what
    /// `route --stops town.osm --paths town.osm --tour-output` does. Nil without the fixture.
    static func sightsTourLine(_ dir: URL) throws -> String? {
        let url = dir.appendingPathComponent("oldtown.osm.pbf")
        guard FileManager.default.fileExists(atPath: url.path) else { return nil }
        let town = try OSMReader.read(url: url)
        let (sights, unnamed, _) = town.sights()
        let (streets, summary) = try PathNetwork.openStreetMap(data: town, source: url.path)
        let problem = RouteProblem(stops: try RouteStop.stops(waypoints: sights))
        let plan = try RoutePlanner.plan(problem, network: streets)
        let tour = try Tour(plan: plan, problem: problem, radius: 20)
        let again = try Tour(geoJSON: tour.geoJSON(), source: "written")
        return String(format: "  OpenStreetMap sights as a tour (fixture town's PBF): %d named sights (%d unnamed left out) in %.0f m along its streets (%d node(s) a walker cannot pass: a locked gate); tour file written and read back %@",
                      sights.count, unnamed, plan.estimate.distance, summary.blockedNodes.values.reduce(0, +), again == tour ? "equal" : "DIFFERENT")
    }
}
