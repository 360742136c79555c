import ArgumentParser
import Foundation
import GeoAnchorKit

struct RouteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "route",
        abstract: "Order tour stops and estimate the walk (distance, climbs, time).",
        discussion: """
        Stops (--stops FILE): a GPX file's waypoints (.gpx: id = <name>, or "waypoint N" for a \
        waypoint without one; altitude = <ele>, MSL; all waypoints with <ele> or none), a KML or KMZ \
        file's untimed Point placemarks (.kml/.kmz, e.g. exported from Google My Maps: id = <name>; \
        altitude only under an explicit absolute altitudeMode), a TCX or FIT course's course points \
        (.tcx/.fit from Garmin Connect, Ride with GPS, Komoot: id = name; TCX AltitudeMeters as \
        altitude; turn instructions — Left, Right, Straight, forks, U-turns — are not stops: left \
        out, counted on stderr), a tour GeoJSON's stops (.geojson: the stops of `tour --tour`, \
        without heights; or a GeoJSON drawn elsewhere: its Points), an OpenStreetMap file's named \
        sights (.osm/.osm.pbf: historic=*, tourism attraction/museum/viewpoint/artwork/gallery, \
        places of worship; a way at the mean of its nodes; unnamed ones counted on stderr), or a CSV \
        with a header row: id,latitude,longitude[,altitude][,dwell_s] — degrees \
        (WGS84), altitude in meters (MSL; used only for height differences, all rows or none; a \
        stop without altitude has no height, not 0 m), dwell_s in seconds spent at the stop. Legs \
        are geodesic; walking time follows Tobler's hiking function with the legs' slopes, and on \
        stairs and steep legs a Naismith-style model (5 km/h plus 600 m/h of ascent or 1200 m/h \
        of descent), whichever is faster: the steep model takes over beyond a slope of about \
        +0.44 uphill or -0.37 downhill (a tower's stairs, 50 m up over 30 m: 322 s), so gentler \
        legs keep Tobler's time exactly. Up to 16 \
        free stops the order is optimal (Held–Karp); beyond, iterated local search runs within \
        --time-limit. Above 700 stops (without --paths) a sparse solver (nearest-neighbour \
        candidate lists, memory linear in the stops) orders them, its whole run within \
        --time-limit; at most 200,000 stops (2,500 with --paths).

        With --paths FILE.geojson the legs follow the file's LineStrings (shortest paths) — or with \
        --paths FILE.gpx its track segments, else its routes (a trail exported from OpenStreetMap \
        or an outdoor app; <ele> gives MSL heights, all points or none, comparable with the stops' \
        MSL altitudes without --geoid) — or with --paths FILE.kml/.kmz its LineStrings (no heights) — or with \
        --paths FILE.tcx/.fit a course's tracks (altitudes MSL, as GPX <ele>) — or with \
        --paths FILE.osm an OpenStreetMap XML (or .osm.pbf) file's walkable ways (openstreetmap.org \
        Export, JOSM, Overpass, osmium/Geofabrik PBF; OSRM's foot profile: footways, paths, steps, streets, not motorways, trunk roads \
        or cycleways unless foot=yes, not foot=no/access=private; a locked gate or a fence node cuts \
        the way through it; no heights, what was left out on \
        stderr); each stop \
        is snapped to the nearest path within --max-snap meters; stops off the network or on a \
        disconnected part are reported. Heights: when the positions have a third coordinate \
        (meters above the WGS84 ellipsoid, RFC 7946; all positions or none) the climbs follow the \
        paths, and stops without altitude take the path's height at their snap point (interpolated \
        along the segment), so the short leg between a stop and the path is level; MSL altitudes \
        cannot be compared with those heights: give --geoid FILE (a GTX grid, e.g. \
        /usr/share/proj/egm96_15.gtx) to convert the stops' altitudes and --start/--end ALT to \
        ellipsoidal heights (h = H + N), or leave the altitude column out. When the positions \
        have two numbers the paths' slopes are unknown: a leg climbs the altitude difference of \
        its stops, spread evenly along it (none without altitudes) — unless --dem FILE (a GeoTIFF, \
        SRTM .hgt or ESRI ASCII grid) gives the paths their heights: sampled every 25 m along \
        them, above --dem-datum (msl, the default, comparable with the stops' MSL altitudes, or \
        ellipsoid), replacing any heights the paths had.

        Without --start the first stop is the start. --start LAT,LON[,ALT] starts elsewhere; without \
        ALT the start takes the path's height at its snap point on paths with heights, else the \
        nearest stop's altitude (none when the stops have none); ALT needs stops with altitude. \
        --end LAT,LON[,ALT] ends at a fixed place (ALT as for --start), --return ends back at the \
        start; otherwise the end is free.

        Output without --json: a table with one row per leg (from, to, distance_m, ascent_m, \
        descent_m, walk_s, arrival_s after the start) and the totals. With --json one object with \
        keys: order (array of stop ids in visiting order; the start is excluded when it is not a \
        stop; a round trip does not repeat it), distance_m (total meters), duration_s (total \
        seconds: walking + dwell, including the first stop's dwell), ascent_m (total meters \
        climbed), legs (array of objects with from, to, distance_m, duration_s = walking seconds \
        of the leg; from/to are stop ids or "start"/"end" for locations).
        """
    )

    @Option(help: "Stops: a CSV id,latitude,longitude[,altitude][,dwell_s], a GPX file's waypoints (.gpx), a KML/KMZ file's untimed Point placemarks (.kml/.kmz), a TCX/FIT course's course points other than turn instructions (.tcx/.fit), a tour GeoJSON's stops (.geojson), or an OpenStreetMap file's named sights (.osm/.osm.pbf: historic=*, museums, viewpoints, artworks, places of worship).")
    var stops: String

    @Option(help: "Start location LAT,LON[,ALT] (default: the first stop).")
    var start: String?

    @Option(help: "End location LAT,LON[,ALT] (default: free end).")
    var end: String?

    @Flag(name: .customLong("return"), help: "Return to the start (round trip).")
    var roundTrip = false

    @Option(help: "Walking paths: a GeoJSON file whose LineStrings are the site's paths, a GPX file whose track segments (else routes) are, a KML/KMZ file's LineStrings, a TCX/FIT course's tracks, or an OpenStreetMap XML or PBF file's walkable ways; legs follow them.")
    var paths: String?

    @Option(help: "With --paths: a DEM (GeoTIFF, SRTM .hgt or ESRI ASCII grid, geographic WGS84) giving the paths their heights, sampled every 25 m along them (replacing any the paths have).")
    var dem: String?

    @Option(help: "Vertical datum of the --dem heights: msl (default; comparable with the stops' MSL altitudes) or ellipsoid.")
    var demDatum: String = "msl"

    @Option(name: .customLong("max-snap"), help: "With --paths: farthest a stop may be from a path, meters (default 100).")
    var maxSnap: Double = 100

    @Option(help: "With --paths whose positions have heights: GTX geoid grid (e.g. /usr/share/proj/egm96_15.gtx) converting the stops' MSL altitudes and --start/--end ALT to ellipsoidal heights.")
    var geoid: String?

    @OptionGroup var search: SearchOptions

    @Option(name: .customLong("tour-output"), help: "Also write the planned tour as a tour GeoJSON: the stops in visiting order (trigger radius --radius) and the walked path — what `tour --tour` replays and an app loads (Tour(contentsOf:)).")
    var tourOutput: String?

    @Option(help: "With --tour-output: every stop's trigger radius, meters (default 20).")
    var radius: Double = 20

    @Flag(help: "Print JSON instead of a table.")
    var json = false

    /// The stops of `path`: a GPX/KML/TCX/FIT file's waypoints or course points
    /// (``StopFile/waypoints(_:)``, ``RouteStop/stops(waypoints:dwell:)``), or
    /// the stops CSV. Returns them, how many have an altitude, and each id's CSV line.
    static func readStops(_ path: String, osm: (String) throws -> OSMData = OSMFile.read) throws -> ([RouteStop], Int, [String: Int]) {
        if OSMFile.kinds.contains(TraceIO.kind(of: path)) {
            // A town's map: its named sights (OSMData.sights) are the stops.
            let sights = try OSMFile.sights(osm(path), source: path)
            let list = try located(path) { try RouteStop.stops(waypoints: sights) }
            return (list, 0, [:])
        }
        if StopFile.kinds.contains(TraceIO.kind(of: path)) {
            let waypoints = try StopFile.waypoints(path)
            let list = try located(path) { try RouteStop.stops(waypoints: waypoints) }
            return (list, list.filter(\.hasHeight).count, [:])
        }
        if ["geojson", "json"].contains(TraceIO.kind(of: path)) {
            // A tour file's stops (or a GeoJSON drawn elsewhere: its Points), horizontal: a
            // tour's GeoJSON positions carry no stop heights it keeps.
            let tour = try located(path) { try Tour(contentsOf: URL(fileURLWithPath: path)) }
            return (tour.stops.map { RouteStop(id: $0.id, latitude: $0.coordinate.latitude, longitude: $0.coordinate.longitude) }, 0, [:])
        }
        let table = try CSVTable.read(path: path)
        let cid = try table.column("id"), clat = try table.column("latitude"), clon = try table.column("longitude")
        let calt = table.optionalColumn("altitude"), cdwell = table.optionalColumn("dwell_s")
        var list: [RouteStop] = []
        var seen: [String: Int] = [:]
        var withAltitude = 0
        for row in table.rows {
            let id = cid < row.fields.count ? row.fields[cid].trimmingCharacters(in: .whitespaces) : ""
            guard !id.isEmpty else { throw InputError(file: table.source, line: row.line, message: "empty id") }
            if let first = seen[id] {
                throw InputError(file: table.source, line: row.line, message: "duplicate stop id '\(id)' (first on line \(first))")
            }
            seen[id] = row.line
            let lat = try table.double(row, clat, "latitude"), lon = try table.double(row, clon, "longitude")
            guard abs(lat) <= 90 else { throw InputError(file: table.source, line: row.line, message: "latitude \(lat) is outside [-90, 90]") }
            let alt = try table.optionalDouble(row, calt, "altitude")
            if alt != nil { withAltitude += 1 }
            if withAltitude > 0 && alt == nil || (alt != nil && withAltitude != list.count + 1) {
                throw InputError(file: table.source, line: row.line, message: "altitude given for some stops but not all")
            }
            let dwell = try table.optionalDouble(row, cdwell, "dwell_s") ?? 0
            guard dwell >= 0 else { throw InputError(file: table.source, line: row.line, message: "dwell_s \(dwell) is negative") }
            // Without altitude a stop has no height (not 0 m): on paths with heights it takes
            // the path's height at its snap point.
            list.append(alt.map { RouteStop(id: id, coordinate: GeodeticCoordinate(latitude: lat, longitude: lon, altitude: $0), dwell: dwell) }
                        ?? RouteStop(id: id, latitude: lat, longitude: lon, dwell: dwell))
        }
        return (list, withAltitude, seen)
    }

    func run() throws {
        try withInputErrors {
            let solverOptions = try search.solverOptions()
            if roundTrip && end != nil {
                throw InputError(file: "--return", line: nil, message: "--end and --return exclude each other")
            }
            // An OpenStreetMap file given as both --stops and --paths (a town's sights along its
            // streets) is read once.
            var towns: [String: OSMData] = [:]
            func town(_ path: String) throws -> OSMData {
                if let t = towns[path] { return t }
                let t = try OSMFile.read(path)
                towns[path] = t
                return t
            }
            var (list, withAltitude, seen) = try Self.readStops(stops, osm: town)
            guard !list.isEmpty else { throw InputError(file: stops, line: nil, message: "no stops") }
            var network = try paths.map { paths in
                if TraceIO.kind(of: paths) == "gpx" {
                    return try located(paths) { try PathNetwork(gpx: URL(fileURLWithPath: paths)) }
                }
                if ["kml", "kmz"].contains(TraceIO.kind(of: paths)) {
                    // KML LineStrings; their altitudes (often ground-clamped) are not taken as path heights.
                    return try located(paths) { try PathNetwork(kml: URL(fileURLWithPath: paths)) }
                }
                if TraceIO.kind(of: paths) == "tcx" { return try located(paths) { try PathNetwork(tcx: URL(fileURLWithPath: paths)) } }
                if TraceIO.kind(of: paths) == "fit" { return try located(paths) { try PathNetwork(fit: URL(fileURLWithPath: paths)) } }
                if OSMFile.kinds.contains(TraceIO.kind(of: paths)) {
                    // OpenStreetMap: its walkable ways (OSRM's foot profile); what was left out on stderr.
                    let data = try town(paths)
                    let (n, summary) = try located(paths) { try PathNetwork.openStreetMap(data: data, source: paths) }
                    OSMFile.report(summary, source: paths)
                    return n
                }
                let collection = try GeoJSONFeatureCollection.read(contentsOf: URL(fileURLWithPath: paths))
                return try located(paths) { try PathNetwork(geoJSON: collection, source: paths) }
            }
            // Paths drawn without heights (or with ground-clamped ones) take the DEM's.
            if let dem {
                guard let paths, let n = network else {
                    throw InputError(file: "--dem", line: nil, message: "gives the heights of --paths: needs --paths")
                }
                let grid = try DEMFile.load(dem, datum: demDatum).grid
                if n.hasHeights { Stderr.print("\(paths): the paths' own heights replaced by the DEM's (--dem)") }
                network = try located(dem) { try n.withHeights(from: grid) }
            }
            // MSL altitudes onto the paths' ellipsoidal heights (h = H + N), when asked.
            let grid: GeoidGrid? = try geoid.map { geoid in
                guard network?.hasHeights == true, withAltitude > 0 else {
                    throw InputError(file: "--geoid", line: nil, message:
                        "converts the stops' MSL altitudes to the ellipsoidal heights of --paths: needs --paths whose positions have heights and stops with altitude")
                }
                return try located(geoid) { try GeoidGrid(path: geoid) }
            }
            if let grid {
                for i in list.indices {
                    do { list[i].coordinate = try grid.converting(list[i].coordinate, to: .ellipsoid) } catch {
                        throw InputError(file: stops, line: seen[list[i].id], message: "stop '\(list[i].id)': \(error)")
                    }
                }
            }
            /// A location and whether it has a height. Without ALT: on paths with heights none (the
            /// planner gives it the path's height at its snap point), else the nearest stop's
            /// altitude (none when the stops have none).
            func location(_ s: String, _ name: String) throws -> (GeodeticCoordinate, hasHeight: Bool) {
                let parts = s.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
                guard parts.count == 2 || parts.count == 3, parts.allSatisfy({ $0?.isFinite == true }), abs(parts[0]!) <= 90 else {
                    throw InputError(file: "--\(name)", line: nil, message: "expected LAT,LON[,ALT] in degrees (and meters), got '\(s)'")
                }
                let lat = parts[0]!, lon = parts[1]!
                if parts.count == 3 {
                    // Heights all or none, as in the stops file: against stops without one, ALT
                    // would be a climb from nowhere.
                    guard withAltitude > 0 else {
                        throw InputError(file: "--\(name)", line: nil, message:
                            "ALT \(parts[2]!) given, but the stops have no altitude; give heights to all (the stops' altitude column) or none")
                    }
                    let c = GeodeticCoordinate(latitude: lat, longitude: lon, altitude: parts[2]!)
                    guard let grid else { return (c, true) }
                    do { return (try grid.converting(c, to: .ellipsoid), true) } catch {
                        throw InputError(file: "--\(name)", line: nil, message: "\(error)")
                    }
                }
                guard withAltitude > 0, network?.hasHeights != true else { return (GeodeticCoordinate(latitude: lat, longitude: lon), false) }
                let nearest = list.min { a, b in
                    abs(a.coordinate.latitude - lat) + abs(a.coordinate.longitude - lon) < abs(b.coordinate.latitude - lat) + abs(b.coordinate.longitude - lon)
                }!
                return (GeodeticCoordinate(latitude: lat, longitude: lon, altitude: nearest.coordinate.height), true)
            }
            var problem = RouteProblem(stops: list)
            if let start {
                let (c, hasHeight) = try location(start, "start")
                problem.start = .location(c); problem.startHasHeight = hasHeight
            }
            if let end {
                let (c, hasHeight) = try location(end, "end")
                problem.end = .location(c); problem.endHasHeight = hasHeight
            } else if roundTrip { problem.end = .returnToStart }
            let plan: RoutePlan
            let options = solverOptions
            // A value of one stop (dwell, height) is placed at that stop's line.
            func planned(_ body: () throws(RoutingError) -> RoutePlan) throws -> RoutePlan {
                do { return try body() } catch {
                    guard case .invalidStop(let id, _) = error, let line = seen[id] else { return try located(stops) { throw error } }
                    throw InputError(file: stops, line: line, message: error.description)
                }
            }
            if let network {
                plan = try planned { () throws(RoutingError) in try RoutePlanner.plan(problem, network: network, maxSnapDistance: maxSnap, options: options) }
            } else {
                plan = try planned { () throws(RoutingError) in try RoutePlanner.plan(problem, options: options) }
            }
            let e = plan.estimate
            // Extreme but finite inputs (dwell_s 1e308, altitudes 1e300) can overflow the totals:
            // an error naming the file, never "inf" in the table or invalid JSON.
            let totals = [e.distance, e.duration, e.ascent, e.descent, e.walkingTime, e.dwellTime]
                + e.legs.flatMap { [$0.distance, $0.walkingTime, $0.arrival, $0.ascent, $0.descent] }
            guard totals.allSatisfy(\.isFinite) else {
                throw InputError(file: stops, line: nil,
                                 message: "the walk's totals overflow (dwell_s or altitude values too large to add up)")
            }
            if let tourOutput {
                // The plan as a tour file (stops in order, the walked path), written before the
                // result so a refused radius leaves neither.
                let tour = try located(tourOutput) { () throws(TourError) in try Tour(plan: plan, problem: problem, radius: radius) }
                try OutputFile.write(String(decoding: tour.geoJSON(), as: UTF8.self), to: tourOutput)
            }
            if json {
                let q = JSONValue.quoted
                let legs = e.legs.map {
                    "{\"from\":\(q($0.from)),\"to\":\(q($0.to)),\"distance_m\":\(String(format: "%.3f", $0.distance)),\"duration_s\":\(String(format: "%.3f", $0.walkingTime))}"
                }
                try OutputFile.write("{\"order\":[\(plan.order.map(q).joined(separator: ","))],\"distance_m\":\(String(format: "%.3f", e.distance)),"
                    + "\"duration_s\":\(String(format: "%.3f", e.duration)),\"ascent_m\":\(String(format: "%.3f", e.ascent)),"
                    + "\"legs\":[\(legs.joined(separator: ","))]}\n")
            } else {
                try OutputFile.write(Self.table(plan) + "\n")
            }
        }
    }

    /// A readable table of the legs and totals.
    static func table(_ plan: RoutePlan) -> String {
        let e = plan.estimate
        func pad(_ s: String, _ w: Int, left: Bool = false) -> String {
            s.count >= w ? s : (left ? s + String(repeating: " ", count: w - s.count) : String(repeating: " ", count: w - s.count) + s)
        }
        let w = max(6, e.legs.map { max($0.from.count, $0.to.count) }.max() ?? 6)
        var lines = [pad("from", w, left: true) + " " + pad("to", w, left: true) + " " + pad("distance_m", 11)
            + pad("ascent_m", 10) + pad("descent_m", 10) + pad("walk_s", 9) + pad("arrival_s", 11)]
        for l in e.legs {
            lines.append(pad(l.from, w, left: true) + " " + pad(l.to, w, left: true) + " "
                + pad(String(format: "%.1f", l.distance), 11) + pad(String(format: "%.1f", l.ascent), 10)
                + pad(String(format: "%.1f", l.descent), 10) + pad(String(format: "%.0f", l.walkingTime), 9)
                + pad(String(format: "%.0f", l.arrival), 11))
        }
        lines.append(String(format: "total: %.0f m, ascent %.0f m, descent %.0f m, walking %.0f s + dwell %.0f s = %.0f s",
                            e.distance, e.ascent, e.descent, e.walkingTime, e.dwellTime, e.duration)
            + " (\(plan.solver == .exact ? "optimal" : "heuristic"))")
        lines.append("order: " + plan.order.joined(separator: " → "))
        return lines.joined(separator: "\n")
    }
}
