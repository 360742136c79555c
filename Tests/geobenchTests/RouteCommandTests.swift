import Foundation
import Testing
import GeoAnchorKit
import GeoAnchorKitTestSupport

/// `geobench route --paths` with stops, starts and paths with and without heights. The site
/// (as in the library's RouteHeightsTests): a path along 50° N over a 30 m hill, 400 m at
/// 14.000° E and 14.008° E, 430 m at 14.004° E; stops a and b 20 m north of it at 14.001° E and
/// 14.007° E. Hand-computed references: their snaps are at 400 + 30 · 0.25 = 407.5 m, so the
/// walk a → b climbs 22.5 m and descends 22.5 m; the JSON prints 3 decimals, so ascents are
/// checked to 1 mm (the snap's height error is < 0.3 mm, see RouteHeightsTests).
@Suite("geobench route: heights of stops and paths")
struct RouteCommandTests {
    let cli = GeobenchInterfaceTests()

    static func paths(heights: Bool) -> String {
        let h = heights ? [",400", ",430", ",400"] : ["", "", ""]
        return "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"properties\":{},\"geometry\":"
            + "{\"type\":\"LineString\",\"coordinates\":[[14.000,50.0\(h[0])],[14.004,50.0\(h[1])],[14.008,50.0\(h[2])]]}}]}"
    }

    func route(_ stops: String, paths: Bool?, _ extra: [String] = []) throws -> GeobenchInterfaceTests.Run {
        var args = ["route", "--stops", try cli.temporaryFile("stops.csv", stops), "--json"] + extra
        if let paths { args += ["--paths", try cli.temporaryFile("paths.geojson", Self.paths(heights: paths))] }
        return try cli.geobench(args)
    }

    /// The bug: a stops file without an altitude column put every stop at 0 m, which on paths
    /// with heights was a datum error ("network vertex 0 is ellipsoid, point 0 is msl"; as MSL
    /// 0 m it would be a 407.5 m phantom climb per stop). Now the stops take the path's heights:
    /// the walk's ascent is the path's own 22.5 m, its walking time Tobler's over the path.
    /// A start without ALT takes its snap's height as well: at 14.0005° E the path is at
    /// 403.75 m, so the walk to a climbs 3.75 m more (26.25 m in all, hand-computed).
    @Test func stopsWithoutAltitudeTakeThePathsHeights() throws {
        let r = try route("id,latitude,longitude\na,50.00018,14.001\nb,50.00018,14.007\n", paths: true)
        #expect(r.status == 0, "\(r.stderr)")
        let j = try cli.json(r.stdout)
        #expect(abs((j["ascent_m"] as? Double ?? .nan) - 22.5) <= 1e-3, "\(r.stdout)")
        // Walking time by Tobler's function (6 km/h · exp(−3.5 · |S + 0.05|)) by hand: two level
        // 20.020 m connectors 28.618 s, 3/4 of the 286.783 m segments (geodesic, GeographicLib)
        // up 22.5 m 221.705 s and down 156.233 s: 406.556 s; 0.01 s (3 decimals, snaps < 3 mm).
        #expect(abs((j["duration_s"] as? Double ?? .nan) - 406.556) < 0.01, "\(r.stdout)")
        let s = try route("id,latitude,longitude\na,50.00018,14.001\nb,50.00018,14.007\n", paths: true, ["--start", "50.00018,14.0005"])
        #expect(s.status == 0, "\(s.stderr)")
        #expect(abs((try cli.json(s.stdout)["ascent_m"] as? Double ?? .nan) - 26.25) <= 1e-3, "\(s.stdout)")
    }

    /// The reverse: stops with altitude (400 and 430 m MSL) on paths without heights. Before: a
    /// datum error (the 2-D positions counted as 0 m above the ellipsoid). Now the leg climbs
    /// the stops' difference, 30 m (hand-computed), spread along the path. Without altitudes
    /// on such paths the walk is level (ascent 0).
    @Test func stopsWithAltitudeOnPathsWithoutHeights() throws {
        let r = try route("id,latitude,longitude,altitude\na,50.00018,14.001,400\nb,50.00018,14.007,430\n", paths: false)
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try cli.json(r.stdout)["ascent_m"] as? Double == 30, "\(r.stdout)")
        let level = try route("id,latitude,longitude\na,50.00018,14.001\nb,50.00018,14.007\n", paths: false)
        #expect(level.status == 0, "\(level.stderr)")
        #expect(try cli.json(level.stdout)["ascent_m"] as? Double == 0, "\(level.stdout)")
    }

    /// Heights all or none: an ALT for --start or --end with stops without altitude was a climb
    /// from 0 m (300 m here); now an error naming the option. MSL altitudes against the
    /// GeoJSON's ellipsoidal heights stay a datum error naming the stop.
    @Test func heightsAllOrNone() throws {
        let stops = "id,latitude,longitude\na,50.00018,14.001\nb,50.00018,14.007\n"
        for (option, paths) in [("--start", nil), ("--end", true)] as [(String, Bool?)] {
            let r = try route(stops, paths: paths, [option, "50,14,300"])
            #expect(r.status == 2 && r.stderr == "\(option): ALT 300.0 given, but the stops have no altitude; "
                    + "give heights to all (the stops' altitude column) or none\n", "\(r.stderr)")
        }
        let msl = try route("id,latitude,longitude,altitude\na,50.00018,14.001,400\nb,50.00018,14.007,430\n", paths: true)
        #expect(msl.status == 2 && msl.stderr.contains("network vertex 0 is ellipsoid, stop 'a' is msl"), "\(msl.stderr)")
    }

    /// Stops with MSL altitudes on paths with ellipsoidal heights (GeoJSON, RFC 7946): before,
    /// always a datum error ("leave the altitude column out"). With `--geoid` the altitudes are
    /// converted, h = H + N: stops given H = 407.5 m − N at their positions (N from the EGM96
    /// grid, itself checked against PROJ's vgridshift in GeoidGridTests; ≈ 46 m here) sit at the
    /// path's 407.5 m, so the walk's ascent is the path's own 22.5 m, hand-computed as in
    /// `stopsWithoutAltitudeTakeThePathsHeights` (1 cm: N varies by < 1 mm over the 20 m
    /// connectors). `--geoid` without paths with heights is refused, naming the option.
    @Test(.enabled(if: FileManager.default.fileExists(atPath: GeoidGrid.defaultPath)))
    func mslStopsOnEllipsoidalPathsThroughTheGeoid() throws {
        let grid = try GeoidGrid()
        func msl(_ lat: Double, _ lon: Double) throws -> Double { 407.5 - (try grid.undulation(latitude: lat, longitude: lon)) }
        let stops = "id,latitude,longitude,altitude\na,50.00018,14.001,\(try msl(50.00018, 14.001))\nb,50.00018,14.007,\(try msl(50.00018, 14.007))\n"
        let refused = try route(stops, paths: true)
        #expect(refused.status == 2, "\(refused.stdout)")
        let r = try route(stops, paths: true, ["--geoid", GeoidGrid.defaultPath])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(abs((try cli.json(r.stdout)["ascent_m"] as? Double ?? .nan) - 22.5) <= 0.01, "\(r.stdout)")
        // A start with an MSL ALT is converted too: at 14.0005° E the path is at 403.75 m.
        let s = try route(stops, paths: true, ["--geoid", GeoidGrid.defaultPath, "--start", "50.00018,14.0005,\(try msl(50.00018, 14.0005) - 3.75)"])
        #expect(s.status == 0, "\(s.stderr)")
        #expect(abs((try cli.json(s.stdout)["ascent_m"] as? Double ?? .nan) - 26.25) <= 0.01, "\(s.stdout)")
        let noPaths = try route(stops, paths: nil, ["--geoid", GeoidGrid.defaultPath])
        #expect(noPaths.status == 2 && noPaths.stderr.contains("--geoid"), "\(noPaths.stderr)")
    }
}

extension RouteCommandTests {
    /// `--stops FILE.gpx`: the waypoints are the stops. Reference: the same six stops written
    /// as a stops CSV from gpxpy's unicode.gpx's own `<wpt>` values (copied from the file) give
    /// byte-identical JSON.
    @Test(.enabled(if: SharedData.shouldRun)) func gpxWaypointsAreStops() throws {
        let gpx = SharedData.url("gpx/gpxpy_test_files/unicode.gpx").path
        let csv = """
        id,latitude,longitude,altitude
        šđčćž,45.757933259,14.294899916,-0.114380
        BIRDS NEST,45.735199945,14.377516648,-0.114380
        FAGGIO,45.791266663,14.293566607,-0.114380
        RAKOV12,45.795349991,14.288633270,-0.114380
        RAKV SKCJN,45.791666647,14.305099938,-0.114380
        VANSHNG LK,45.765583254,14.361333288,-0.114380

        """
        let a = try cli.geobench(["route", "--stops", gpx, "--json"])
        let b = try route(csv, paths: nil)
        #expect(a.status == 0 && b.status == 0, "\(a.stderr) \(b.stderr)")
        #expect(a.stdout == b.stdout && a.stdout.contains("\"FAGGIO\""))
        // A GPX without waypoints (gpxpy's route.gpx: 55 <rtept>) says what is missing.
        let none = try cli.geobench(["route", "--stops", SharedData.url("gpx/gpxpy_test_files/route.gpx").path])
        #expect(none.status == 2 && none.stderr.contains("no waypoints (<wpt>)"), "\(none.stderr)")
    }
}

extension RouteCommandTests {
    /// `--paths FILE.gpx`: the same path as a GPX track (no `<ele>`) and as the 2-D GeoJSON
    /// LineString gives byte-identical JSON (the reference: the GeoJSON network's run).
    @Test func gpxTrackAsPaths() throws {
        let stops = "id,latitude,longitude\na,50.00018,14.001\nb,50.00018,14.007\n"
        let gpx = try cli.temporaryFile("paths.gpx", #"<gpx version="1.1"><trk><trkseg><trkpt lat="50.0" lon="14.000"/><trkpt lat="50.0" lon="14.004"/><trkpt lat="50.0" lon="14.008"/></trkseg></trk></gpx>"#)
        let viaGPX = try cli.geobench(["route", "--stops", try cli.temporaryFile("stops.csv", stops), "--json", "--paths", gpx])
        let viaGeoJSON = try route(stops, paths: false)
        #expect(viaGPX.status == 0 && viaGeoJSON.status == 0, "\(viaGPX.stderr)")
        #expect(viaGPX.stdout == viaGeoJSON.stdout)
    }
}

extension GeobenchInterfaceTests {
    /// `tour --tour FILE.gpx`: the shipped Závist tour written as GPX (its stops as waypoints
    /// named by id, its path as one track segment; every radius there is 20 m, the default)
    /// gives exactly the stop and path events of the GeoJSON tour — the reference — on the
    /// shipped trace; only the zone events (GPX has no zones) are missing.
    @Test func tourFromGPXWaypoints() throws {
        let geojson = "traces/zavist-tour.tour.geojson"
        let tour = try Tour(contentsOf: URL(fileURLWithPath: geojson))
        #expect(tour.stops.allSatisfy { $0.radius == 20 } && tour.path.count >= 2)
        var gpx = #"<?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">"#
        for s in tour.stops { gpx += "<wpt lat=\"\(s.coordinate.latitude)\" lon=\"\(s.coordinate.longitude)\"><name>\(s.id)</name></wpt>" }
        gpx += "<trk><trkseg>" + tour.path.map { "<trkpt lat=\"\($0.latitude)\" lon=\"\($0.longitude)\"/>" }.joined() + "</trkseg></trk></gpx>"
        let file = try temporaryFile("tour.gpx", gpx)
        let a = try geobench(["tour", "--tour", file, "--trace", "traces/zavist-tour.raw.csv"])
        let b = try geobench(["tour", "--tour", geojson, "--trace", "traces/zavist-tour.raw.csv"])
        #expect(a.status == 0 && b.status == 0, "\(a.stderr)")
        let zoneIDs = Set(tour.zones.map(\.id))
        let withoutZones = b.stdout.split(separator: "\n").filter { !zoneIDs.contains(String($0.split(separator: ",").last ?? "")) }
        #expect(a.stdout.split(separator: "\n") == withoutZones)
        // Every stop is entered (the shipped walk visits all four).
        for s in tour.stops { #expect(a.stdout.contains(",enter,\(s.id)\n"), "\(s.id)") }
        let r = try geobench(["tour", "--tour", geojson, "--trace", "traces/zavist-tour.raw.csv", "--radius", "30"])
        #expect(r.status == 2 && r.stderr.contains("--radius"), "\(r.stderr)")
        let zero = try geobench(["tour", "--tour", file, "--trace", "traces/zavist-tour.raw.csv", "--radius", "0"])
        #expect(zero.status == 2 && zero.stderr.hasPrefix("--radius: "), "\(zero.stderr)")
    }

}

extension RouteCommandTests {
    /// Paths drawn without heights over the hill GDAL wrote (scripts/dev/dem_fixtures.py: 300 m
    /// plain, 80 m Gaussian hill of σ 700 m at 14.40° E 49.955° N): with --dem the walk west →
    /// east over the top climbs what the analytic hill rises between the west stop and the top
    /// (72.5 m; 0.5 m for the DEM's 0.25 m steps and 3″ cells), and takes longer than level;
    /// without --dem it climbs nothing; --dem without --paths exits 2.
    @Test func pathsTakeADEMsHeights() throws {
        let dem = SharedData.repositoryRoot.appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/DEM/hill.deflate-p3.tif").path
        let stops = try cli.temporaryFile("stops.csv", "id,latitude,longitude\nw,49.955,14.385\ne,49.955,14.415\n")
        let paths = try cli.temporaryFile("hill.geojson", "{\"type\":\"FeatureCollection\",\"features\":[{\"type\":\"Feature\",\"properties\":{},\"geometry\":"
            + "{\"type\":\"LineString\",\"coordinates\":[[14.385,49.955],[14.400,49.955],[14.415,49.955]]}}]}")
        let hill = { (lon: Double) in 300 + 80 * exp(-pow((lon - 14.40) * 71.7e3 / 700, 2)) }
        let lifted = try cli.geobench(["route", "--stops", stops, "--paths", paths, "--dem", dem, "--json", "--start", "49.955,14.385", "--end", "49.955,14.415"])
        let level = try cli.geobench(["route", "--stops", stops, "--paths", paths, "--json", "--start", "49.955,14.385", "--end", "49.955,14.415"])
        #expect(lifted.status == 0 && level.status == 0, "\(lifted.stderr) \(level.stderr)")
        let a = try cli.json(lifted.stdout), b = try cli.json(level.stdout)
        let ascent = a["ascent_m"] as? Double ?? .nan
        #expect(abs(ascent - (hill(14.40) - hill(14.385))) < 0.5, "\(lifted.stdout)")
        #expect((b["ascent_m"] as? Double ?? .nan) < 0.5 && (a["duration_s"] as? Double ?? 0) > 1.05 * (b["duration_s"] as? Double ?? .infinity))
        let alone = try cli.geobench(["route", "--stops", stops, "--dem", dem])
        #expect(alone.status == 2 && alone.stderr.contains("--dem: gives the heights of --paths: needs --paths"), "\(alone.stderr)")
    }

    /// `--paths FILE.osm` (and its `.osm.pbf`): the fixture town (scripts/dev/osm_fixtures.py) from its grid corner A
    /// to C beyond the motorway and back to B: the walks of GDAL's reading + networkx
    /// (oldtown.reference.csv: A→C 400.4807 m, C→B 480.2895 m; the JSON's 3 decimals, 1 mm);
    /// stderr counts the ways used and left out by reason; an Overpass `out;` without its nodes
    /// exits 2 saying how to query.
    @Test func openStreetMapPaths() throws {
        let dir = SharedData.repositoryRoot.appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/Routing/OSM")
        let stops = try cli.temporaryFile("stops.csv", "id,latitude,longitude\nA,49.4140000,14.6580000\nC,49.4125612,14.6613138\nB,49.4157986,14.6629708\n")
        let r = try cli.geobench(["route", "--stops", stops, "--paths", dir.appendingPathComponent("oldtown.osm").path, "--json", "--end", "49.4157986,14.6629708"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("16 walkable way(s) used as paths; left out (not walkable): not a path 3, access=private 1, foot=no 1"), "\(r.stderr)")
        let distance = try cli.json(r.stdout)["distance_m"] as? Double ?? .nan
        #expect(abs(distance - (400.4807 + 480.2895)) < 1e-3, "\(r.stdout)")
        let pbf = try cli.geobench(["route", "--stops", stops, "--paths", dir.appendingPathComponent("oldtown.osm.pbf").path, "--json", "--end", "49.4157986,14.6629708"])
        #expect(pbf.status == 0 && pbf.stdout == r.stdout, "\(pbf.stderr)")   // osmium's PBF of the same map
        let ways = try cli.geobench(["route", "--stops", stops, "--paths", dir.appendingPathComponent("oldtown.overpass-ways.osm").path])
        #expect(ways.status == 2 && ways.stderr.contains("an Overpass query needs `(._;>;); out;` or `out geom;`"), "\(ways.stderr)")
    }

    /// `--stops FILE.osm --paths FILE.osm`: a walk through the town's named sights along its
    /// streets (OSMData.sights; OSMPathNetworkTests checks which they are): five stops, the
    /// unnamed wayside cross said on stderr; a map without sights exits 2 naming what counts.
    @Test func openStreetMapSightsAreStops() throws {
        let town = SharedData.repositoryRoot.appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/Routing/OSM/oldtown.osm").path
        let r = try cli.geobench(["route", "--stops", town, "--paths", town, "--json"])
        #expect(r.status == 0, "\(r.stderr)")
        #expect(r.stderr.contains("5 sight(s) as stops; left out: 1 without a name"), "\(r.stderr)")
        let order = try cli.json(r.stdout)["order"] as? [String] ?? []
        #expect(order.count == 5 && order.contains("St. Giles"), "\(r.stdout)")
        let none = try cli.temporaryFile("none.osm", "<osm version=\"0.6\"><node id=\"1\" lat=\"50\" lon=\"14\"><tag k=\"amenity\" v=\"bench\"/></node></osm>\n")
        let e = try cli.geobench(["route", "--stops", none])
        #expect(e.status == 2 && e.stderr.contains("no named sight (historic=*"), "\(e.stderr)")
    }

    /// `--tour-output FILE.geojson`: the plan as a tour file — its stops in the JSON's visiting
    /// order with --radius, its path the legs walked (its geodesic length the plan's distance_m,
    /// to 1 cm: the JSON's 3 decimals and the snaps), readable by Tour(contentsOf:) and so by
    /// `tour --tour`; a radius the tour refuses exits 2 and writes nothing.
    @Test func tourOutputIsTheWalk() throws {
        let town = SharedData.repositoryRoot.appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/Routing/OSM/oldtown.osm").path
        let out = FileManager.default.temporaryDirectory.appendingPathComponent("tour-\(UUID().uuidString).geojson")
        defer { try? FileManager.default.removeItem(at: out) }
        let r = try cli.geobench(["route", "--stops", town, "--paths", town, "--json", "--tour-output", out.path, "--radius", "15"])
        #expect(r.status == 0, "\(r.stderr)")
        let j = try cli.json(r.stdout)
        let tour = try Tour(contentsOf: out)
        #expect(tour.stops.map(\.id) == j["order"] as? [String] && tour.stops.allSatisfy { $0.radius == 15 })
        var length = 0.0
        for (a, b) in zip(tour.path, tour.path.dropFirst()) {
            length += Geodesic.wgs84.inverse(latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude).distance
        }
        #expect(abs(length - (j["distance_m"] as? Double ?? .nan)) < 0.01, "path \(length) m vs \(r.stdout)")
        let bad = FileManager.default.temporaryDirectory.appendingPathComponent("tour-\(UUID().uuidString).geojson")
        let e = try cli.geobench(["route", "--stops", town, "--paths", town, "--tour-output", bad.path, "--radius", "0"])
        #expect(e.status == 2 && e.stderr.contains("stop radius 0.0 is outside") && !FileManager.default.fileExists(atPath: bad.path), "\(e.stderr)")
    }
}
