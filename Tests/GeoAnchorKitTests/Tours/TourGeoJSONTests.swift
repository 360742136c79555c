import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport

@Suite("Tours: GeoJSON tour files")
struct TourGeoJSONTests {
    static func collection(_ features: String...) -> Data {
        Data(#"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#.utf8)
    }
    static let stopA = #"{"type":"Feature","properties":{"kind":"stop","id":"a","radius":20,"name":"Gate"},"geometry":{"type":"Point","coordinates":[14.395,49.958]}}"#
    static let stopB = #"{"type":"Feature","id":7,"properties":{"kind":"stop","radius":15.5},"geometry":{"type":"Point","coordinates":[14.396,49.959]}}"#
    static let zone = #"{"type":"Feature","properties":{"kind":"zone","id":"hill"},"geometry":{"type":"Polygon","coordinates":[[[14.39,49.95],[14.40,49.95],[14.40,49.96],[14.39,49.95]]]}}"#
    static let path = #"{"type":"Feature","properties":{"kind":"path","id":"main"},"geometry":{"type":"LineString","coordinates":[[14.395,49.958],[14.396,49.959]]}}"#

    /// Reference: the values written in the file.
    @Test func loadsStopsZonesPath() throws {
        let t = try Tour(geoJSON: Self.collection(Self.stopA, Self.zone, Self.stopB, Self.path))
        #expect(t.stops.map(\.id) == ["a", "7"])
        #expect(t.stops[0].radius == 20 && t.stops[0].name == "Gate" && t.stops[1].radius == 15.5)
        #expect(t.stops[0].coordinate.latitude == 49.958 && t.stops[0].coordinate.longitude == 14.395)
        #expect(t.zones.map(\.id) == ["hill"] && t.zones[0].rings[0].count == 4)
        #expect(t.path.count == 2 && t.pathID == "main")
    }

    func error(_ features: String...) -> TourError? {
        do { _ = try Tour(geoJSON: Data(#"{"type":"FeatureCollection","features":[\#(features.joined(separator: ","))]}"#.utf8)); return nil }
        catch { return error }
    }

    /// Bad input names the feature (index and id) and the problem.
    @Test func badFeaturesAreNamed() throws {
        let unclosed = #"{"type":"Feature","properties":{"kind":"zone","id":"open"},"geometry":{"type":"Polygon","coordinates":[[[14.39,49.95],[14.40,49.95],[14.40,49.96],[14.39,49.96]]]}}"#
        let e1 = try #require(error(Self.stopA, unclosed))
        guard case .invalidFeature(1, "open", let r1) = e1 else { Issue.record("\(e1)"); return }
        #expect(r1.contains("closed"), "\(r1)")
        #expect(e1.description.hasPrefix("feature #1 (id \"open\"): "))

        let noRadius = #"{"type":"Feature","properties":{"kind":"stop","id":"b"},"geometry":{"type":"Point","coordinates":[14.39,49.95]}}"#
        #expect(error(Self.stopA, noRadius) == .invalidFeature(index: 1, id: "b", reason: "stop without \"radius\" (meters)"))

        let emptyPath = #"{"type":"Feature","properties":{"kind":"path","id":"p"},"geometry":{"type":"LineString","coordinates":[]}}"#
        guard case .invalidFeature(1, "p", _)? = error(Self.stopA, emptyPath) else { Issue.record("empty path not named"); return }

        let negative = #"{"type":"Feature","properties":{"kind":"stop","id":"n","radius":-3},"geometry":{"type":"Point","coordinates":[14.39,49.95]}}"#
        guard case .invalidFeature(1, "n", _)? = error(Self.stopA, negative) else { Issue.record("negative radius not named"); return }

        // A feature without a kind beside features with one: refused, not guessed.
        let noKind = #"{"type":"Feature","properties":{"id":"x"},"geometry":{"type":"Point","coordinates":[14.39,49.95]}}"#
        guard case .invalidFeature(1, "x", let rk)? = error(Self.stopA, noKind) else { Issue.record("missing kind not named"); return }
        #expect(rk.contains("another feature has one"), "\(rk)")

        let lineStop = #"{"type":"Feature","properties":{"kind":"stop","id":"l","radius":5},"geometry":{"type":"LineString","coordinates":[[14.39,49.95],[14.4,49.95]]}}"#
        guard case .invalidFeature(0, "l", let r2)? = error(lineStop) else { Issue.record("wrong geometry not named"); return }
        #expect(r2.contains("Point"))

        let badLat = #"{"type":"Feature","properties":{"kind":"stop","id":"lat","radius":5},"geometry":{"type":"Point","coordinates":[14.39,95]}}"#
        guard case .invalidFeature(0, "lat", _)? = error(badLat) else { Issue.record("bad latitude not named"); return }

        #expect(error(Self.stopA, Self.stopA) == .duplicateID("a", firstIndex: 0, secondIndex: 1))
        #expect(error(Self.zone) == .noStops)
        #expect(throws: TourError.notAFeatureCollection(source: "<geojson>", reason: "top-level \"type\" is \"Feature\", expected \"FeatureCollection\"")) {
            try Tour(geoJSON: Data(#"{"type":"Feature"}"#.utf8))
        }
    }

    /// Text that is not JSON: JSONDecoder says only "The given data was not valid JSON." and the
    /// message was localizedDescription's "The data isn't in the correct format." for 1e400 and
    /// for 600 nested arrays alike. Now the parser's account names the value or the position.
    /// Reference: JSONSerialization's messages.
    @Test func invalidJSONNamesTheProblem() {
        func reason(_ text: String) -> String {
            do { _ = try Tour(geoJSON: Data(text.utf8)); return "accepted" } catch {
                guard case .notAFeatureCollection(_, let r) = error else { return "\(error)" }
                return r
            }
        }
        let huge = #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"kind":"stop","id":"a","radius":1e400},"geometry":{"type":"Point","coordinates":[14.39,49.95]}}]}"#
        #expect(reason(huge) == "invalid JSON: Number 1e400 is not representable in Swift.")
        let deep = #"{"type":"FeatureCollection","features":[],"x":"# + String(repeating: "[", count: 600) + String(repeating: "]", count: 600) + "}"
        #expect(reason(deep).hasPrefix("invalid JSON: Too many nested arrays or dictionaries around character"), "\(reason(deep))")
        // The shared GeoJSON reader: the parser's account for text that is not JSON at all.
        #expect(throws: TraceFormatError(source: "x", line: nil, message: "not a GeoJSON object: invalid JSON: Too many nested arrays or dictionaries around character 513.")) {
            try GeoJSONFeatureCollection.decode(Data((String(repeating: "[", count: 600) + String(repeating: "]", count: 600)).utf8), source: "x")
        }
    }

    /// An empty id named events "" (CSV `time,enter,`); a path whose positions are all equal
    /// gave progress 0 of 0 m and off_route events from a point. Both were accepted; now they
    /// are refused naming the feature. Reference: the feature indices in the file.
    @Test func emptyIDsAndZeroLengthPathsAreRefused() throws {
        let empty = #"{"type":"Feature","properties":{"kind":"stop","id":"","radius":20},"geometry":{"type":"Point","coordinates":[14.39,49.95]}}"#
        guard case .invalidFeature(1, "", let r1)? = error(Self.stopA, empty) else { Issue.record("empty id accepted"); return }
        #expect(r1.hasPrefix("empty \"id\""))
        let point = #"{"type":"Feature","properties":{"kind":"path","id":"p"},"geometry":{"type":"LineString","coordinates":[[14.39,49.95],[14.39,49.95],[14.39,49.95]]}}"#
        #expect(error(Self.stopA, point) == .invalidFeature(index: 1, id: "p", reason: "path has length 0: all 3 positions are (49.95, 14.39)"))
        // Values built in code: the same rules.
        let c = GeodeticCoordinate(latitude: 49.95, longitude: 14.39)
        #expect(throws: TourError.self) { try Tour(stops: [TourStop(id: "", coordinate: c, radius: 5)]) }
        #expect(throws: TourError.invalidFeature(index: 1, id: "path", reason: "path has length 0: all 2 positions are (49.95, 14.39)")) {
            try Tour(stops: [TourStop(id: "a", coordinate: c, radius: 5)], path: [c, c])
        }
        #expect(throws: TourError.self) { try Tour(stops: [TourStop(id: "a", coordinate: c, radius: 5)], path: [c, GeodeticCoordinate(latitude: 49.951, longitude: 14.39)], pathID: "") }
    }

    /// A MultiPolygon zone whose two members are the same square (an export that wrote a
    /// polygon twice) is read as given and is one zone: its centre is inside. Before, the
    /// session read it as outside (−35.88 m: the two copies cancelled in an even–odd count).
    /// Reference: half the square's east–west side, N·cos φ·Δλ on WGS84 with Δλ = 0.0005° at
    /// φ = 49.9582° (35.8789 m, a = 6378137 m, f = 1/298.257223563), 1e-3 m (the tour plane).
    @Test func duplicatedMultiPolygonMembersAreOneZone() throws {
        let square = "[[[14.3953,49.9577],[14.3963,49.9577],[14.3963,49.9587],[14.3953,49.9587],[14.3953,49.9577]]]"
        let zone = #"{"type":"Feature","properties":{"kind":"zone","id":"twice"},"geometry":{"type":"MultiPolygon","coordinates":[\#(square),\#(square)]}}"#
        let stop = #"{"type":"Feature","properties":{"kind":"stop","id":"s","radius":10},"geometry":{"type":"Point","coordinates":[14.3953,49.9577]}}"#
        let t = try Tour(geoJSON: Self.collection(stop, zone))
        #expect(t.zones[0].polygons.count == 2 && t.zones[0].polygons[0] == t.zones[0].polygons[1])
        let session = try TourSession(tour: t)
        let sd = session.zoneEvaluator.signedDistance(zone: 0, at: session.planarPoint(latitude: 49.9582, longitude: 14.3958))
        #expect(abs(sd - 35.8789) < 1e-3, "\(sd)")
    }

    /// A stop radius beyond ``TourStop/maximumRadius`` (100 km) is refused naming the feature
    /// (its index in the file, not among the stops) and the value; before, 1e300 m was
    /// accepted. Values built in code: the same range. Reference: the documented range
    /// (0, 100000] m and the features' positions in the file.
    @Test func stopRadiusIsBounded() throws {
        let far = #"{"type":"Feature","properties":{"kind":"stop","id":"far","radius":1e300},"geometry":{"type":"Point","coordinates":[14.39,49.95]}}"#
        let e = try #require(error(Self.stopA, Self.zone, far))
        #expect(e == .invalidFeature(index: 2, id: "far", reason: "stop radius 1e+300 is outside (0, 100000] m"), "\(e)")
        let justOver = far.replacingOccurrences(of: "1e300", with: "100000.00000001")
        guard case .invalidFeature(2, "far", let r)? = error(Self.stopA, Self.zone, justOver) else { Issue.record("100 km + 10 nm accepted"); return }
        #expect(r.contains("outside (0, 100000] m"), "\(r)")
        // The limit itself is a valid stop, in a file and in a session.
        let t = try Tour(geoJSON: Self.collection(Self.stopA, Self.zone, far.replacingOccurrences(of: "1e300", with: "100000")))
        #expect(t.stops[1].radius == TourStop.maximumRadius)
        _ = try TourSession(tour: t)
        let c = GeodeticCoordinate(latitude: 49.95, longitude: 14.39)
        #expect(throws: TourError.invalidFeature(index: 0, id: "a", reason: "stop radius 1e+300 is outside (0, 100000] m")) {
            try Tour(stops: [TourStop(id: "a", coordinate: c, radius: 1e300)])
        }
        #expect(throws: TourError.self) { try Tour(stops: [TourStop(id: "a", coordinate: c, radius: .infinity)]) }
    }

    /// A GeoJSON drawn elsewhere (geojson.io's simplestyle properties, no `kind` anywhere) is
    /// read by geometry: Points are stops named by `name` (else `title`, else `stop N`) with the
    /// given radius unless they carry one, LineStrings the path, Polygons zones (`zone N`
    /// without a name). Other geometries are refused naming the feature. Reference: the values
    /// written below.
    @Test func geoJSONDrawnElsewhere() throws {
        let data = Self.collection(
            ##"{"type":"Feature","properties":{"name":"Main gate","marker-color":"#7e7e7e"},"geometry":{"type":"Point","coordinates":[14.388,49.9578]}}"##,
            #"{"type":"Feature","properties":{"title":"Acropolis","radius":35},"geometry":{"type":"Point","coordinates":[14.3918,49.9637]}}"#,
            #"{"type":"Feature","properties":{"name":"  "},"geometry":{"type":"Point","coordinates":[14.3962,49.9632]}}"#,
            ##"{"type":"Feature","properties":{"stroke":"#555555"},"geometry":{"type":"LineString","coordinates":[[14.388,49.9578],[14.3918,49.9637]]}}"##,
            #"{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[14.39,49.963],[14.393,49.963],[14.393,49.964],[14.39,49.963]]]}}"#)
        let t = try Tour(geoJSON: data, radius: 25)
        #expect(t.stops.map(\.id) == ["Main gate", "Acropolis", "stop 3"] && t.stops.map(\.radius) == [25, 35, 25])
        #expect(t.zones.map(\.id) == ["zone 1"] && t.path.count == 2 && t.pathID == "path")
        let multiPoint = #"{"type":"Feature","properties":{"name":"m"},"geometry":{"type":"MultiPoint","coordinates":[[14.39,49.95]]}}"#
        guard case .invalidFeature(0, nil, let r)? = error(multiPoint) else { Issue.record("MultiPoint not named"); return }
        #expect(r.contains("read by its geometry") && r.contains("got MultiPoint"), "\(r)")
        #expect(throws: TourError.self) { try Tour(geoJSON: data, radius: 0) }
    }

    /// `Tour.geoJSON()` writes what the reader reads back to an equal tour: the shipped tour
    /// files (stops with names and radii, zones, the path), and a tour with a MultiPolygon zone,
    /// names that need escaping (quotes, a backslash, a tab, non-ASCII) and a path id of its own.
    /// Independent check of the text: Python's json module reads the written file and finds the
    /// stops' coordinates, ids and radii of the original (scripts-free: python3 -c).
    @Test(arguments: ["zavist-tour.tour.geojson", "city-walk.tour.geojson"])
    func writtenToursReadBack(name: String) throws {
        let tour = try Tour(contentsOf: SharedData.repositoryRoot.appendingPathComponent("traces/\(name)"))
        let data = tour.geoJSON()
        #expect(try Tour(geoJSON: data, source: "written") == tour)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("tour-\(UUID().uuidString).geojson")
        defer { try? FileManager.default.removeItem(at: file) }
        try data.write(to: file)
        let p = Process(), pipe = Pipe()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = ["-c", "import json, sys\nd = json.load(open(sys.argv[1]))\nfor f in d['features']:\n  if f['properties']['kind'] == 'stop':\n    c = f['geometry']['coordinates']\n    print(f['properties']['id'], repr(c[1]), repr(c[0]), repr(float(f['properties']['radius'])))", file.path]
        p.standardOutput = pipe
        try p.run()
        let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        p.waitUntilExit()
        let expected = tour.stops.map { "\($0.id) \($0.coordinate.latitude) \($0.coordinate.longitude) \($0.radius)" }
        #expect(out.split(separator: "\n").map(String.init) == expected, "\(out)")
    }

    @Test func writtenTourEscapesAndMultiPolygons() throws {
        func c(_ lat: Double, _ lon: Double) -> GeodeticCoordinate { GeodeticCoordinate(latitude: lat, longitude: lon) }
        let square = [c(50, 14), c(50, 14.001), c(50.001, 14.001), c(50, 14)]
        let other = [c(50.01, 14), c(50.01, 14.001), c(50.011, 14.001), c(50.01, 14)]
        let tour = try Tour(stops: [TourStop(id: "a \"quoted\" \\ stop", coordinate: c(50.0005, 14.0005), radius: 12.5, name: "Kaple sv. Máří\tMagdalény"),
                                    TourStop(id: "b", coordinate: c(50.002, 14.002), radius: 20)],
                            zones: [TourZone(id: "two parts", polygons: [[square], [other]], name: "zone ü")],
                            path: [c(50.0005, 14.0005), c(50.002, 14.002)], pathID: "the walk")
        #expect(try Tour(geoJSON: tour.geoJSON(), source: "written") == tour)
    }

    /// One conversion of feature ids for tours and anchors (`JSONValue.identifier`): the same
    /// Points read as a tour drawn elsewhere and as anchors get the same ids — an integral
    /// number without a decimal point, another number as its shortest decimal (anchors dropped
    /// it for the name before), a string with its surrounding whitespace trimmed (tours kept it).
    @Test func toursAndAnchorsNameFeaturesAlike() throws {
        let text = #"{"type":"FeatureCollection","features":["#
            + #"{"type":"Feature","id":7,"properties":{"name":"Gate"},"geometry":{"type":"Point","coordinates":[14.395,49.958,300]}},"#
            + #"{"type":"Feature","id":7.5,"properties":{"name":"Well"},"geometry":{"type":"Point","coordinates":[14.396,49.959,300]}},"#
            + #"{"type":"Feature","id":" tower ","properties":{},"geometry":{"type":"Point","coordinates":[14.397,49.960,300]}}]}"#
        let tour = try Tour(geoJSON: Data(text.utf8))
        let anchors = GeoAnchor.anchors(geoJSON: try GeoJSONFeatureCollection.decode(Data(text.utf8), source: "t"), source: "t")
        #expect(tour.stops.map(\.id) == ["7", "7.5", "tower"])
        #expect(anchors.anchors.map(\.anchor.id) == ["7", "7.5", "tower"])
    }
}
