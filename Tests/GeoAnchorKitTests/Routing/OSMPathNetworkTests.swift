import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport

/// Walking networks from OpenStreetMap XML (`OSMReader`, `PathNetwork.openStreetMap`).
///
/// Fixtures: `Fixtures/Routing/OSM`, written by `scripts/dev/osm_fixtures.py` (a made-up town in
/// the formats openstreetmap.org's Export, JOSM, Overpass and osmium write). Reference
/// (`oldtown.reference.csv`): shortest walks between the stops over the walkable ways as GDAL 3.6's
/// OSM driver reads them (ogr2ogr), edges as GeographicLib WGS84 geodesics, Dijkstra by networkx —
/// tolerance 1 mm (the network's edges are geodesics too; the coordinates are the same 7-decimal
/// values).
@Suite("OpenStreetMap walking networks")
struct OSMPathNetworkTests {
    static let dir = SharedData.repositoryRoot.appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/Routing/OSM")

    /// Stops by id (node positions of the town).
    static func stops() throws -> [(id: String, coordinate: GeodeticCoordinate)] {
        let text = try String(contentsOf: dir.appendingPathComponent("oldtown.stops.csv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { line in
            let f = line.split(separator: ",")
            return (String(f[0]), GeodeticCoordinate(latitude: Double(f[1])!, longitude: Double(f[2])!))
        }
    }

    /// Reference distances of `file` (export or josm): [from: [to: meters]].
    static func reference(_ file: String) throws -> [String: [String: Double]] {
        let text = try String(contentsOf: dir.appendingPathComponent("oldtown.reference.csv"), encoding: .utf8)
        var out: [String: [String: Double]] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",")
            guard f[0] == file else { continue }
            out[String(f[1]), default: [:]][String(f[2])] = Double(f[3])!
        }
        return out
    }

    /// Checks every stop pair's walking distance on `network` against the reference: equal to
    /// 1 mm where the reference connects them, +∞ where it does not. Returns the pairs compared.
    @discardableResult
    static func expectReference(_ network: PathNetwork, _ file: String) throws -> Int {
        let stops = try stops(), ref = try reference(file)
        let costs = try network.costs(between: stops.map(\.coordinate), maxSnapDistance: 1)
        var compared = 0
        for (i, a) in stops.enumerated() {
            for (j, b) in stops.enumerated() where i != j {
                let d = costs.distances[i, j]
                if let r = ref[a.id]?[b.id] {
                    #expect(abs(d - r) < 1e-3, "\(file) \(a.id)→\(b.id): \(d) m, reference \(r) m")
                    compared += 1
                } else {
                    #expect(d == .infinity, "\(file) \(a.id)→\(b.id): \(d) m, the reference has no walk")
                }
            }
        }
        return compared
    }

    /// openstreetmap.org's export: 16 walkable ways (OSRM's foot profile), each way left out
    /// named by its reason; every walk between the 8 stops equals the GDAL + networkx reference
    /// (56 pairs), e.g. across the motorway only over the footbridge (A→C 400.5 m; the cycleway
    /// without foot=yes would make it 160 m).
    @Test func exportWalksAsTheReference() throws {
        let (network, summary) = try PathNetwork.openStreetMap(Self.dir.appendingPathComponent("oldtown.osm"))
        #expect(!network.hasHeights)
        #expect(summary.walkableWays == 16)
        #expect(summary.leftOut == ["highway=motorway": 1, "highway=trunk": 1, "highway=cycleway": 1, "access=private": 1,
                                    "foot=no": 1, "highway=construction": 1, "not a path": 3])
        #expect(summary.waysMissingNodes == 0 && summary.degenerateWays == 0)
        #expect(try Self.expectReference(network, "export") == 56)
        // Every walkable way: none left out means the cycleway shortcut A→G is taken.
        let everything = OSMWalkability(highways: ["residential", "living_street", "tertiary", "footway", "steps", "path", "pedestrian",
                                                   "motorway", "trunk", "cycleway", "service", "construction"],
                                        forbidden: [], allowed: [], nonexistent: [])
        let (all, allSummary) = try PathNetwork.openStreetMap(Self.dir.appendingPathComponent("oldtown.osm"), walkability: everything)
        #expect(allSummary.walkableWays == 22 && allSummary.leftOut == ["not a path": 3])
        let stops = try Self.stops()
        let a = stops.first { $0.id == "A" }!.coordinate, g = stops.first { $0.id == "G" }!.coordinate
        let direct = try all.costs(between: [a, g], maxSnapDistance: 1).distances[0, 1]
        #expect(abs(direct - Geodesic.wgs84.inverse(latitude1: a.latitude, longitude1: a.longitude, latitude2: g.latitude, longitude2: g.longitude).distance) < 1e-3, "\(direct)")
    }

    /// The same map as osmium writes it and as Overpass `out geom` gives it (inline node
    /// positions, no <node> elements) walks the same; JOSM's save (single quotes, the footbridge
    /// deleted, a new way with negative ids) walks as the reference of the edited map.
    @Test func otherWritersWalkTheSame() throws {
        for name in ["oldtown.osmium.osm", "oldtown.overpass-geom.osm"] {
            let (network, summary) = try PathNetwork.openStreetMap(Self.dir.appendingPathComponent(name))
            #expect(summary.walkableWays == 16, "\(name)")
            #expect(try Self.expectReference(network, "export") == 56, "\(name)")
        }
        let josm = try OSMReader.read(url: Self.dir.appendingPathComponent("oldtown.josm.osm"))
        #expect(josm.deleted == 1)
        #expect(josm.ways.contains { $0.id == -3 && $0.tags["name"] == "new footway" })
        let (network, summary) = try PathNetwork.openStreetMap(data: josm, source: "josm")
        #expect(summary.walkableWays == 16)   // the footbridge deleted, the new footway added
        // The edit matters: the south street (C, G) is cut off from the rest (+∞ both ways:
        // 32 pairs connected of 56), the new footway shortens E→H from 240.3 m to 191.0 m.
        #expect(try Self.expectReference(network, "josm") == 32)
        let edited = try Self.reference("josm")
        #expect(edited["E"]?["H"].map { $0 < 200 } == true && edited["A"]?["C"] == nil)
    }

    /// Overpass `out;` without `(._;>;)` gives ways without their nodes: refused saying so. A
    /// way clipped by the file (some nodes missing) is used in its known pieces and counted.
    @Test func missingNodes() throws {
        #expect { _ = try PathNetwork.openStreetMap(Self.dir.appendingPathComponent("oldtown.overpass-ways.osm")) } throws: { e in
            guard case .malformedInput(_, _, let reason) = e as? RoutingError else { return false }
            return reason.contains("54 node reference(s) missing") && reason.contains("(._;>;); out;")
        }
        let text = """
        <osm version="0.6">
          <node id="1" lat="50.0" lon="14.0"/><node id="2" lat="50.0" lon="14.001"/>
          <node id="4" lat="50.0" lon="14.003"/><node id="5" lat="50.0" lon="14.004"/>
          <way id="10"><nd ref="1"/><nd ref="2"/><nd ref="3"/><nd ref="4"/><nd ref="5"/><tag k="highway" v="footway"/></way>
          <way id="11"><nd ref="6"/><nd ref="1"/><nd ref="7"/><tag k="highway" v="path"/></way>
        </osm>
        """
        let data = try OSMReader.read(data: Data(text.utf8), source: "clipped")
        let (network, summary) = try PathNetwork.openStreetMap(data: data, source: "clipped")
        #expect(summary.walkableWays == 1 && summary.waysMissingNodes == 2 && summary.missingNodes == 3 && summary.degenerateWays == 1)
        #expect(network.edges.count == 2)   // 1–2 and 4–5: node 3 is not bridged
    }

    /// The walkability rules, case by case (OSRM foot profile: `foot` before `access`).
    @Test func walkabilityRules() {
        let w = OSMWalkability.standard
        #expect(w.verdict(["highway": "footway"]) == .walkable)
        #expect(w.verdict(["highway": "motorway"]) == .notForWalking("motorway"))
        #expect(w.verdict(["highway": "trunk", "foot": "yes"]) == .walkable)
        #expect(w.verdict(["highway": "cycleway", "foot": "designated"]) == .walkable)
        #expect(w.verdict(["highway": "service", "access": "private"]) == .closed("access=private"))
        #expect(w.verdict(["highway": "service", "access": "private", "foot": "yes"]) == .walkable)
        #expect(w.verdict(["highway": "footway", "access": "yes", "foot": "no"]) == .closed("foot=no"))
        #expect(w.verdict(["highway": "residential", "foot": "destination", "access": "private"]) == .walkable)
        #expect(w.verdict(["highway": "primary", "foot": "use_sidepath"]) == .closed("foot=use_sidepath"))
        #expect(w.verdict(["highway": "proposed", "foot": "yes"]) == .notBuilt("proposed"))
        #expect(w.verdict(["man_made": "pier"]) == .walkable)
        #expect(w.verdict(["building": "yes"]) == .notAPath)
        #expect(w.verdict(["railway": "rail", "foot": "yes"]) == .notAPath)
    }

    /// Bad input names its line; documents that are not a map are refused; a gzip file reads as
    /// the plain one.
    @Test func badInput() throws {
        func refusal(_ body: String) -> TraceFormatError? {
            do { _ = try OSMReader.read(data: Data(body.utf8), source: "t.osm"); return nil } catch { return error }
        }
        let cases: [(String, Int?, String)] = [
            ("<osm version=\"0.6\">\n<node id=\"1\" lat=\"95\" lon=\"14\"/>\n</osm>", 2, "lat '95' is not a latitude"),
            ("<osm>\n<node id=\"1\" lat=\"50\" lon=\"NaN\"/>\n</osm>", 2, "lon 'NaN' is not a longitude"),
            ("<osm>\n<node id=\"x\" lat=\"50\" lon=\"14\"/>\n</osm>", 2, "id 'x' is not an integer"),
            ("<osm>\n<node id=\"1\" lat=\"50\"/>\n</osm>", 2, "without lat and lon"),
            ("<osm>\n<node id=\"1\" lat=\"50\" lon=\"14\"/>\n<node id=\"1\" lat=\"50\" lon=\"14.1\"/>\n</osm>", 3, "node 1 at (50.0000000, 14.1000000) was given before"),
            ("<osm>\n<way id=\"1\">\n<nd/>\n</way>\n</osm>", 3, "<nd> without ref"),
            ("<osm>\n<way id=\"1\">\n<tag k=\"highway\"/>\n</way>\n</osm>", 3, "<tag> without k and v"),
            ("<osmChange version=\"0.6\"><create/></osmChange>", 1, "an osmChange diff holds changes"),
            ("<gpx/>", 1, "the root element is <gpx>"),
            ("<osm><node id=\"1\" lat=\"50\" lon=\"14\">", nil, "malformed XML"),
        ]
        for (body, line, message) in cases {
            let e = refusal(body)
            #expect(e?.message.contains(message) == true, "\(body): \(String(describing: e))")
            if let line { #expect(e?.line == line, "\(body): \(String(describing: e))") }
        }
        let (network, _) = try PathNetwork.openStreetMap(Self.dir.appendingPathComponent("oldtown.osm.gz"))
        try Self.expectReference(network, "export")
    }

    /// 300 mutants of the export (bytes changed, cut, lines repeated): each is read or refused
    /// with a `TraceFormatError`, none traps.
    @Test func mutantsNeverTrap() throws {
        let base = [UInt8](try Data(contentsOf: Self.dir.appendingPathComponent("oldtown.osm")))
        var rng = SplitMix64(seed: 20261128)
        var refused = 0
        for k in 0..<300 {
            var b = base
            switch k % 3 {
            case 0: for _ in 0..<4 { b[Int(rng.next() % UInt64(b.count))] = UInt8(truncatingIfNeeded: rng.next()) }
            case 1: b = Array(b.prefix(Int(rng.next() % UInt64(b.count))))
            default:
                let at = Int(rng.next() % UInt64(b.count - 200))
                b.insert(contentsOf: b[at..<(at + 120)], at: at)
            }
            do {
                let data = try OSMReader.read(data: Data(b), source: "mutant")
                _ = try? PathNetwork.openStreetMap(data: data, source: "mutant")
            } catch { refused += 1 }
        }
        #expect(refused > 100, "\(refused)")
    }

    /// OSM PBF as osmium 1.15 writes it (scripts/dev/osm_fixtures.py: zlib + dense nodes +
    /// metadata; plain nodes in raw blobs without metadata; LocationsOnWays without the untagged
    /// nodes) reads into the XML's nodes, ways and tags — positions exactly (nanodegree integers
    /// divided once, the XML's 7 decimals parsed) — and walks as the reference.
    @Test(arguments: ["oldtown.osm.pbf", "oldtown.plain.osm.pbf", "oldtown.locations.osm.pbf"])
    func pbfReadsAsTheXML(name: String) throws {
        let xml = try OSMReader.read(url: Self.dir.appendingPathComponent("oldtown.osm"))
        let pbf = try OSMReader.read(url: Self.dir.appendingPathComponent(name))
        #expect(pbf.nodes == xml.nodes)
        #expect(pbf.ways.map(\.id) == xml.ways.map(\.id) && pbf.ways.map(\.nodes) == xml.ways.map(\.nodes))
        #expect(pbf.ways.map(\.tags) == xml.ways.map(\.tags) && pbf.ways.allSatisfy { $0.line == nil })
        #expect(pbf.relations == 1)
        let (network, summary) = try PathNetwork.openStreetMap(Self.dir.appendingPathComponent(name))
        #expect(summary.walkableWays == 16)
        #expect(try Self.expectReference(network, "export") == 56)
    }

    /// A protobuf field: key varint, then a varint value or a length-prefixed payload.
    static func field(_ number: Int, _ payload: [UInt8]) -> [UInt8] { varint(UInt64(number << 3 | 2)) + varint(UInt64(payload.count)) + payload }
    static func field(_ number: Int, varint v: UInt64) -> [UInt8] { varint(UInt64(number << 3)) + varint(v) }
    static func varint(_ v: UInt64) -> [UInt8] {
        var v = v, out: [UInt8] = []
        while v >= 0x80 { out.append(UInt8(v & 0x7F) | 0x80); v >>= 7 }
        return out + [UInt8(v)]
    }
    /// A file block: header length, BlobHeader (type, datasize), Blob.
    static func fileBlock(_ type: String, blob: [UInt8]) -> [UInt8] {
        let header = field(1, Array(type.utf8)) + field(3, varint: UInt64(blob.count))
        let n = header.count
        return [0, 0, UInt8(n >> 8), UInt8(n & 0xFF)] + header + blob
    }

    /// Files the reader must refuse — a history file (required feature HistoricalInformation),
    /// an LZMA blob, a blob larger than the format's 32 MiB, a file cut anywhere — each with a
    /// TraceFormatError naming the byte offset; 300 byte mutants of the zlib PBF never trap.
    @Test func pbfProblems() throws {
        func refusal(_ bytes: [UInt8]) -> String {
            do { _ = try OSMReader.read(data: Data(bytes), source: "t.pbf"); return "read" } catch { return error.message }
        }
        let schema = Self.field(4, Array("OsmSchema-V0.6".utf8))
        let history = Self.fileBlock("OSMHeader", blob: Self.field(1, schema + Self.field(4, Array("HistoricalInformation".utf8))))
        #expect(refusal(history).contains("required feature 'HistoricalInformation' is not supported (a history file"))
        let header = Self.fileBlock("OSMHeader", blob: Self.field(1, schema))
        #expect(refusal(header) == "read")
        let lzma = header + Self.fileBlock("OSMData", blob: Self.field(2, varint: 10) + Self.field(4, [1, 2, 3]))
        #expect(refusal(lzma).contains("LZMA-compressed blob"), "\(refusal(lzma))")
        var huge = Array(header.prefix(4)) + Self.field(1, Array("OSMHeader".utf8)) + Self.field(3, varint: 40 << 20)
        huge[3] = UInt8(huge.count - 4)
        #expect(refusal(huge).contains("Blob of 41943040 bytes (at most 33554432)"), "\(refusal(huge))")
        let base = [UInt8](try Data(contentsOf: Self.dir.appendingPathComponent("oldtown.osm.pbf")))
        for cut in stride(from: 20, to: base.count - 1, by: 37) {
            #expect(refusal(Array(base.prefix(cut))).contains("OSM PBF at byte"), "cut at \(cut): \(refusal(Array(base.prefix(cut))))")
        }
        var rng = SplitMix64(seed: 28_11_2026)
        var refused = 0
        for _ in 0..<300 {
            var b = base
            for _ in 0..<3 { b[16 + Int(rng.next() % UInt64(b.count - 16))] = UInt8(truncatingIfNeeded: rng.next()) }
            if refusal(b) != "read" { refused += 1 }
        }
        #expect(refused > 100, "\(refused)")
    }

    /// The town's sights (`OSMData.sights`, OSMSights.standard) as a tour's stops: the church
    /// (a building way: at the mean of its 4 corners, 300 m east and 150 m north of the grid's
    /// corner in the script's layout — to 1e-7°, the file's rounding), the viewpoint (F) and the
    /// museum (E), and two "Chapel"s made distinct by their OSM object; the unnamed wayside cross
    /// counted, the bench and the bus stop not sights. PBF (dense nodes' keys_vals, plain nodes'
    /// keys/vals, LocationsOnWays keeping the tagged nodes) gives the same sights. The plan over
    /// the town's walkable ways visits all five.
    @Test func sightsAreStops() throws {
        let xml = try OSMReader.read(url: Self.dir.appendingPathComponent("oldtown.osm"))
        let (sights, unnamed, withoutNodes) = xml.sights()
        #expect(unnamed == 1 && withoutNodes == 0)
        let names = sights.map { $0.name ?? "" }
        #expect(Set(names.filter { !$0.hasPrefix("Chapel (node ") }) == ["Kotnov viewpoint", "Hussite Museum", "St. Giles"], "\(names)")
        #expect(names.filter { $0.hasPrefix("Chapel (node ") }.count == 2, "\(names)")
        let church = try #require(sights.first { $0.name == "St. Giles" })
        let cosLat = cos(49.414 * Double.pi / 180)
        #expect(abs(church.latitude - (49.414 + 150 / 111_200)) < 1e-7 && abs(church.longitude - (14.658 + 300 / (111_320 * cosLat))) < 1e-7,
                "\(church)")
        #expect(church.type == "amenity=place_of_worship" && sights.first { $0.name == "Hussite Museum" }?.type == "tourism=museum")
        for name in ["oldtown.osm.pbf", "oldtown.plain.osm.pbf", "oldtown.locations.osm.pbf"] {
            let pbf = try OSMReader.read(url: Self.dir.appendingPathComponent(name))
            #expect(pbf.sights().sights == sights && pbf.sights().unnamed == 1, "\(name)")
            if name != "oldtown.locations.osm.pbf" { #expect(pbf.nodeTags == xml.nodeTags, "\(name)") }
        }
        let (streets, _) = try PathNetwork.openStreetMap(data: xml, source: "oldtown.osm")
        let plan = try RoutePlanner.plan(RouteProblem(stops: RouteStop.stops(waypoints: sights)), network: streets)
        #expect(plan.order.count == 5 && plan.estimate.distance.isFinite && plan.estimate.distance > 0)
    }

    /// A node a walker cannot pass cuts the ways through it: the park footway's locked gate
    /// (barrier=gate, access=private) sends the walk from its south-west end P to its north-east
    /// end Q around the grid (P → a grid corner → Q, the shorter of the two, each two geodesics:
    /// grid nodes share their rounded latitudes and longitudes); with the gate allowed (foot=yes on it), through the park
    /// (the footway's own geodesics). References: GeographicLib-verified `Geodesic.wgs84` over the
    /// file's coordinates, 1 mm. Benches, open gates and bollards block nothing.
    @Test func lockedGateCutsTheWay() throws {
        var data = try OSMReader.read(url: Self.dir.appendingPathComponent("oldtown.osm"))
        let park = try #require(data.ways.first { $0.tags["name"] == "park footway" })
        let points = park.nodes.map { data.nodes[$0]! }
        let p = points.first!, q = points.last!
        let below = GeodeticCoordinate(latitude: p.latitude, longitude: q.longitude), beside = GeodeticCoordinate(latitude: q.latitude, longitude: p.longitude)
        func geodesic(_ a: GeodeticCoordinate, _ b: GeodeticCoordinate) -> Double {
            Geodesic.wgs84.inverse(latitude1: a.latitude, longitude1: a.longitude, latitude2: b.latitude, longitude2: b.longitude).distance
        }
        let (locked, summary) = try PathNetwork.openStreetMap(data: data, source: "oldtown.osm")
        #expect(summary.blockedNodes == ["access=private": 1])
        let around = try locked.costs(between: [p, q], maxSnapDistance: 1).distances[0, 1]
        // East then north, or north then east (2.2 mm shorter: the northern row is nearer the pole).
        let grid = min(geodesic(p, below) + geodesic(below, q), geodesic(p, beside) + geodesic(beside, q))
        #expect(abs(around - grid) < 1e-3, "\(around) vs \(grid)")
        let gate = try #require(park.nodes.first { data.nodeTags[$0]?["barrier"] == "gate" })
        data.nodeTags[gate]?["foot"] = "yes"
        let (open, openSummary) = try PathNetwork.openStreetMap(data: data, source: "oldtown.osm")
        #expect(openSummary.blockedNodes.isEmpty)
        let through = try open.costs(between: [p, q], maxSnapDistance: 1).distances[0, 1]
        let footway = zip(points, points.dropFirst()).map { geodesic($0, $1) }.reduce(0, +)
        #expect(abs(through - footway) < 1e-3 && through < around - 50, "\(through) vs \(around)")
        let w = OSMWalkability.standard
        #expect(w.blocks(node: ["amenity": "bench"]) == nil && w.blocks(node: ["barrier": "gate"]) == nil)
        #expect(w.blocks(node: ["barrier": "bollard"]) == nil && w.blocks(node: ["barrier": "fence"]) == "barrier=fence")
        #expect(w.blocks(node: ["barrier": "fence", "foot": "yes"]) == nil && w.blocks(node: ["barrier": "gate", "foot": "no"]) == "foot=no")
    }
}
