import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport
import GeoAnchorKitSimulation

/// ``KMLReader`` on KML GPSBabel 1.8.0 wrote (scripts/dev/gdal_gpsbabel_fixtures.sh) and on
/// hand-written documents. Reference: the GPX the fixtures came from (GPSBabel keeps 6
/// decimals of degrees and the GPX `<ele>` as the altitude), and each document's own values.
@Suite("KML reader")
struct KMLReaderTests {
    static let dir = GeoJSONTests.other

    static func read(_ name: String, _ options: TraceReadConfiguration = TraceReadConfiguration()) throws -> ([Fix], TraceReadSummary) {
        var out: [Fix] = []
        let s = try TraceReader.read(url: dir.appendingPathComponent(name), options: options, onFix: { out.append($0) })
        return (out, s)
    }

    static func read(text: String, _ options: TraceReadConfiguration = TraceReadConfiguration()) throws -> ([Fix], [GPXWaypoint], TraceReadSummary) {
        var fixes: [Fix] = [], wpts: [GPXWaypoint] = []
        let s = try KMLReader.read(data: Data(text.utf8), source: "t.kml", options: options, onFix: { fixes.append($0) }, onWaypoint: { wpts.append($0) })
        return (fixes, wpts, s)
    }

    /// A KMZ inside a ZIP archive (`kmz-bundle.zip/MEMBER.kmz`, scripts/dev/kmz_bundle_fixture.py)
    /// reads as the KMZ itself: the GPSBabel track's fixes, lines and the site's models. Before,
    /// the member's bytes (a ZIP) went to the XML parser and the read failed.
    @Test func kmzInsideAZip() throws {
        let bundle = SharedData.repositoryRoot.appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/Zip/kmz-bundle.zip")
        let (inside, s1) = try Self.read("../../Zip/kmz-bundle.zip/walk.gpsbabel-track.kmz")
        let (direct, s2) = try Self.read("walk.gpsbabel-track.kmz")
        #expect(inside == direct && !inside.isEmpty && s1 == s2)
        #expect(try KMLReader.lines(url: bundle.appendingPathComponent("walk.gpsbabel-track.kmz"))
                == KMLReader.lines(url: Self.dir.appendingPathComponent("walk.gpsbabel-track.kmz")))
        let models = try GeoAnchor.anchors(kml: bundle.appendingPathComponent("site-models.kmz"))
        let expected = try GeoAnchor.anchors(kml: Self.dir.appendingPathComponent("site-models.kmz"))
        #expect(models.anchors.map(\.anchor) == expected.anchors.map(\.anchor) && !models.anchors.isEmpty)
    }

    /// Timed Point placemarks (GPSBabel's default) and a gx:Track (`track=1`) give the GPX's
    /// fixes; the LineString GPSBabel writes beside them is counted as 5 untimed points.
    @Test(arguments: ["walk.gpsbabel.kml", "walk.gpsbabel-track.kml"]) func gpsBabelTracks(name: String) throws {
        let gpx = try GPSBabelTraceTests.gpx()
        let (fixes, s) = try Self.read(name)
        #expect(fixes.count == 5 && s.untimedPoints == 5, "\(s)")
        for (a, b) in zip(fixes, gpx) {
            #expect(a.time == b.time)
            #expect(abs(a.latitude - b.latitude) <= 5e-7 && abs(a.longitude - b.longitude) <= 5e-7)
            #expect(a.verticalReference == .meanSeaLevel && a.height == b.height)
        }
    }

    /// GDAL 3.6's KML driver keeps the GPX fields as ExtendedData: `time` (in GDAL's
    /// `YYYY/MM/DD HH:MM:SS+00`) and `ele`; the Points are 2-D. Reference: the GPX, exactly.
    @Test func gdalTrackPoints() throws {
        let gpx = try GPSBabelTraceTests.gpx()
        let (fixes, s) = try Self.read("walk.ogr-track-points.kml")
        #expect(fixes.count == 5 && s.waypoints == 0, "\(s)")
        for (a, b) in zip(fixes, gpx) {
            #expect(a.time == b.time && a.latitude == b.latitude && a.longitude == b.longitude)
            #expect(a.verticalReference == .meanSeaLevel && a.height == b.height)
        }
    }

    /// Untimed Point placemarks are waypoints: a tour's stops (names as in the GPX GPSBabel read).
    /// GPSBabel writes the GPX's 200 m and 190 m under KML's default clampToGround, where the
    /// altitude is ignored: the stops have no height (they take a path's).
    @Test func gpsBabelWaypointsAreStops() throws {
        let w = try KMLReader.waypoints(url: Self.dir.appendingPathComponent("stops.gpsbabel.kml"))
        #expect(w.map(\.name) == ["Old Town Hall", "Charles Bridge"] && w.map(\.altitude) == [nil, nil])
        #expect(w[0].latitude == 50.087 && w[0].longitude == 14.4207)
        let stops = try RouteStop.stops(waypoints: w)
        #expect(stops.map(\.id) == ["Old Town Hall", "Charles Bridge"])
        let tour = try Tour(waypoints: w, path: KMLReader.lines(url: Self.dir.appendingPathComponent("walk.gpsbabel.kml")))
        #expect(tour.stops.count == 2 && tour.path.count == 5)
    }

    /// Google Earth's own forms: gx:Track inside gx:MultiTrack, namespace prefixes, a
    /// ground-relative altitude left out, My Maps placemarks without altitude and with `,0`.
    @Test func googleEarthForms() throws {
        let doc = """
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Document>
        <Placemark><name>Walk</name><gx:MultiTrack><gx:Track>
          <when>2026-05-16T14:00:00Z</when><when>2026-05-16T14:00:01.5+02:00</when>
          <gx:coord>14.42 50.08 200</gx:coord><gx:coord>14.4201 50.0801 201</gx:coord>
        </gx:Track></gx:MultiTrack></Placemark>
        <Placemark><name>Tower</name><Point><altitudeMode>relativeToGround</altitudeMode><coordinates>14.43,50.09,30</coordinates></Point></Placemark>
        <Placemark><name> Gate </name><Point><coordinates>14.44,50.1</coordinates></Point></Placemark>
        <Placemark><name>Hall</name><Point><coordinates>14.45,50.1,0</coordinates></Point></Placemark>
        <Placemark><name>Mast</name><Point><altitudeMode>absolute</altitudeMode><coordinates>14.46,50.1,512.5</coordinates></Point></Placemark>
        <Placemark><Polygon><outerBoundaryIs><LinearRing><coordinates>0,0 1,0 1,1 0,0</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
        </Document></kml>
        """
        let (fixes, wpts, s) = try Self.read(text: doc)
        #expect(fixes.map(\.time) == [1_778_940_000, 1_778_932_801.5] && fixes.map(\.height) == [200, 201])
        // My Maps' ",0" under the default clampToGround is no height; an explicit absolute is.
        #expect(wpts.map(\.name) == ["Tower", "Gate", "Hall", "Mast"] && wpts.map(\.altitude) == [nil, nil, nil, 512.5])
        #expect(s.fixes == 2 && s.waypoints == 4 && s.ignoredRecords == 1)
    }

    /// Bad input names its line; with skipInvalid the placemark is skipped and counted.
    @Test(arguments: [
        ("<Placemark><gx:Track><when>2026-05-16T14:00:00Z</when></gx:Track></Placemark>", "1 <when> and 0 <gx:coord>"),
        ("<Placemark><Point>\n<coordinates>14.4,95</coordinates></Point></Placemark>", "latitude 95.0 is outside"),
        ("<Placemark><Point><coordinates>14.4;50</coordinates></Point></Placemark>", "is not lon,lat[,alt]"),
        ("<Placemark><TimeStamp><when>2026-02-30T00:00:00Z</when></TimeStamp><Point><coordinates>14,50</coordinates></Point></Placemark>", "<when> '2026-02-30"),
        ("<Placemark><Point><coordinates>0x10,50</coordinates></Point></Placemark>", "'0x10' is not a finite number"),
    ]) func badPlacemarks(body: String, expected: String) throws {
        let doc = "<kml xmlns=\"http://www.opengis.net/kml/2.2\" xmlns:gx=\"http://www.google.com/kml/ext/2.2\">\(body)"
            + "<Placemark><Point><coordinates>14,50</coordinates></Point></Placemark></kml>"
        #expect { _ = try Self.read(text: doc) } throws: { e in
            (e as? TraceFormatError).map { $0.line != nil && $0.message.contains(expected) } == true
        }
        let (_, wpts, s) = try Self.read(text: doc, TraceReadConfiguration(skipInvalid: true))
        #expect(s.skippedLines == 1 && wpts.count == 1)
    }

    @Test func notKML() throws {
        #expect { _ = try Self.read(text: "<gpx version=\"1.1\"></gpx>") } throws: { e in
            (e as? TraceFormatError)?.message.contains("not a KML document") == true
        }
        let bomb = "<?xml version=\"1.0\"?><!DOCTYPE kml [<!ENTITY a \"aaaa\">]><kml>&a;</kml>"
        #expect { _ = try Self.read(text: bomb) } throws: { e in
            (e as? TraceFormatError)?.message.contains("entity declarations are not accepted in KML") == true
        }
        // KML is read, not written.
        #expect(throws: TraceFormatError.self) { _ = try TraceWriter(url: nil, format: .kml) }
    }
}

extension KMLReaderTests {
    /// GPSBabel's KML fixtures under the GNSS readers' seeded mutations (GNSSReaderFuzzTests):
    /// each mutant reads — every fix valid (``Fix/validationProblem`` nil) — or is refused with a
    /// `TraceFormatError` naming it; both outcomes occur (the mutations reach the checks).
    @Test func mutants() throws {
        try Self.mutantRun(["walk.gpsbabel.kml", "walk.gpsbabel-track.kml", "stops.gpsbabel.kml"], seed: 0x4B4D4C)
    }

    /// 80 seeded mutants of each fixture through ``KMLReader/read(data:source:options:onFix:onWaypoint:)``.
    static func mutantRun(_ names: [String], seed: UInt64) throws {
        try GNSSReaderFuzzTests.expectMutantsReadOrRefused(names.map { dir.appendingPathComponent($0) }, seed: seed, count: 80) { data, source in
            var fixes: [Fix] = []
            _ = try KMLReader.read(data: data, source: source, onFix: { fixes.append($0) }, onWaypoint: { _ in })
            return fixes
        }
    }
}

extension KMLReaderTests {
    /// The same seeded mutations on GPX: GPSBabel's and our own writer's (the walk fixture) and,
    /// with ../shared, gpxpy's unicode and extensions files. Read, every fix valid, or refused
    /// with a TraceFormatError naming the mutant — never a trap (the invalid-UTF-8 one was).
    /// (Run once with 3,000 mutants per file for KML and GPX: no trap.)
    @Test func gpxMutants() throws {
        var files = [Self.dir.appendingPathComponent("walk.gpx")]
        if SharedData.shouldRun {
            files += ["gpx/gpxpy_test_files/unicode.gpx", "gpx/gpxpy_test_files/gpx1.1_with_extensions.gpx",
                      "gpx/georust_gpx_fixtures/with_accuracy.gpx"].map { SharedData.url($0) }
        }
        var rng = SeededRandom(seed: 0x475058)
        var read = 0, refused = 0
        for url in files {
            let bytes = Array(try Data(contentsOf: url))
            for k in 0..<80 {
                let source = "\(url.lastPathComponent)#\(k)"
                do {
                    var fixes: [Fix] = []
                    _ = try GPXReader.read(data: Data(GNSSReaderFuzzTests.mutate(bytes, &rng)), source: source,
                                           onFix: { fixes.append($0) }, onWaypoint: { _ in })
                    #expect(fixes.allSatisfy { $0.validationProblem == nil }, "\(source)")
                    read += 1
                } catch let e as TraceFormatError {
                    #expect(e.description.hasPrefix(source), "\(e)")
                    refused += 1
                }
            }
        }
        #expect(read > 0 && refused > 0 && read + refused == 80 * files.count)
    }
}

/// KMZ: the zipped KML Google My Maps and Google Earth export by default, as GDAL's LIBKML
/// driver, Info-ZIP and Python's zipfile write it (scripts/dev/kmz_fixtures.sh). Reference: the
/// KML each archive holds (the committed fixture it was made from), read as plain KML.
extension KMLReaderTests {
    static func all(_ url: URL) throws -> ([Fix], [GPXWaypoint], TraceReadSummary) {
        var fixes: [Fix] = [], wpts: [GPXWaypoint] = []
        let s = try KMLReader.read(url: url, onFix: { fixes.append($0) }, onWaypoint: { wpts.append($0) })
        return (fixes, wpts, s)
    }

    @Test(arguments: [
        ("walk.gpsbabel-track.kmz", "walk.gpsbabel-track.kml"),          // Info-ZIP, doc.kml deflated
        ("walk.libkml-track-points.kmz", "walk.ogr-track-points.kml"),   // GDAL LIBKML: doc.kml → NetworkLink → layers/track_points.kml
        ("stops.python.kmz", "stops.gpsbabel.kml"),                      // Python zipfile, doc.kml after images/
    ]) func kmzAsTheKMLInside(kmz: String, kml: String) throws {
        let (f1, w1, s1) = try Self.all(Self.dir.appendingPathComponent(kmz))
        let (f2, w2, s2) = try Self.all(Self.dir.appendingPathComponent(kml))
        #expect(f1 == f2 && w1 == w2, "\(kmz)")
        #expect(s1.fixes == s2.fixes && s1.waypoints == s2.waypoints && s1.untimedPoints == s2.untimedPoints)
        #expect(f1.count + w1.count > 0)
        // The trace entry points and the extension: .kmz is KML.
        #expect(TraceFormat(pathExtension: "KMZ") == .kml)
        var viaTraceReader: [Fix] = []
        _ = try TraceReader.read(url: Self.dir.appendingPathComponent(kmz), onFix: { viaTraceReader.append($0) })
        #expect(viaTraceReader == f1)
    }

    /// `PathNetwork(kml:)`: GPSBabel's LineString (the GPX's 5 points, with its `<ele>`s as
    /// clamped altitudes) is a path network without heights; a stops-only KMZ has no path.
    @Test func pathNetworkFromKML() throws {
        let net = try PathNetwork(kml: Self.dir.appendingPathComponent("walk.gpsbabel.kml"))
        #expect(!net.hasHeights)
        #expect(throws: RoutingError.malformedInput(source: Self.dir.appendingPathComponent("stops.python.kmz").path, line: nil,
                                                     reason: "no LineString to use as paths")) {
            try PathNetwork(kml: Self.dir.appendingPathComponent("stops.python.kmz"))
        }
    }

    /// GDAL's LIBKML driver writes the Point as `lon,lat,0` and the GPX elevation as `ele`
    /// ExtendedData: the height is the `ele` (reference: walk.gpx's `<ele>`s).
    @Test func libkmlHeightsAreTheGPXElevations() throws {
        let (fixes, _, _) = try Self.all(Self.dir.appendingPathComponent("walk.libkml-track-points.kmz"))
        let gpx = try GPSBabelTraceTests.gpx()
        #expect(fixes.count == 5 && fixes.map(\.height) == gpx.map(\.height) && fixes.map(\.time) == gpx.map(\.time))
    }

    /// Errors inside a KMZ name the document (`FILE.kmz/doc.kml:LINE`); archives that are not
    /// KMZ or not readable say why; NetworkLinks leaving the archive are counted, not followed,
    /// and a link cycle reads each document once.
    @Test func kmzProblems() throws {
        func zip(_ entries: [(String, String)]) -> Data {
            // A stored-entries ZIP (APPNOTE 6.3.10 §4.3), enough to hold test documents.
            var out: [UInt8] = [], central: [UInt8] = []
            func le16(_ v: Int) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
            func le32(_ v: UInt32) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 24 & 0xFF)] }
            for (name, text) in entries {
                let n = Array(name.utf8), d = Array(text.utf8), crc = ZipArchive.crc32(d), offset = UInt32(out.count)
                let common = le16(20) + le16(0x800) + le16(0) + le16(0) + le16(0) + le32(crc) + le32(UInt32(d.count)) + le32(UInt32(d.count)) + le16(n.count) + le16(0)
                out += [0x50, 0x4B, 3, 4] + common + n + d
                central += [0x50, 0x4B, 1, 2] + le16(20) + common + le16(0) + le16(0) + le16(0) + le32(0) + le32(offset) + n
            }
            let cdOffset = UInt32(out.count)
            out += central + [0x50, 0x4B, 5, 6] + le16(0) + le16(0) + le16(entries.count) + le16(entries.count) + le32(UInt32(central.count)) + le32(cdOffset) + le16(0)
            return Data(out)
        }
        func read(_ d: Data) -> Result<([Fix], TraceReadSummary), TraceFormatError> {
            var fixes: [Fix] = []
            do { let s = try KMLReader.read(data: d, source: "t.kmz", onFix: { fixes.append($0) }); return .success((fixes, s)) }
            catch let e as TraceFormatError { return .failure(e) } catch { return .failure(TraceFormatError(source: "?", line: nil, message: "\(error)")) }
        }
        let head = "<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Document>\n"
        let placemark = "<Placemark><TimeStamp><when>2026-05-16T14:00:00Z</when></TimeStamp><Point><coordinates>14.4,50.1</coordinates></Point></Placemark>\n"
        let bad = "<Placemark><TimeStamp><when>2026-05-16T14:00:00Z</when></TimeStamp><Point><coordinates>14.4,95</coordinates></Point></Placemark>\n"
        func link(_ href: String) -> String { "<NetworkLink><Link><href>\(href)</href></Link></NetworkLink>\n" }
        // A bad value in a linked document: the error names the archive, the document and its line.
        if case .failure(let e) = read(zip([("doc.kml", head + link("layers/a.kml") + "</Document></kml>"), ("layers/a.kml", head + placemark + bad + "</Document></kml>")])) {
            #expect(e.source == "t.kmz/layers/a.kml" && e.line == 3 && e.message.contains("latitude 95"), "\(e)")
        } else { Issue.record("bad latitude accepted") }
        // Links: relative (../), to http, to a missing entry, a cycle back to doc.kml.
        let r = read(zip([("doc.kml", head + placemark + link("layers/a.kml") + link("https://example.com/x.kml") + link("missing.kml") + "</Document></kml>"),
                          ("layers/a.kml", head + placemark + link("../doc.kml") + link("b.kml#id") + "</Document></kml>"),
                          ("layers/b.kml", head + placemark + "</Document></kml>")]))
        if case .success(let (fixes, s)) = r {
            #expect(fixes.count == 3 && s.fixes == 3 && s.ignoredRecords == 2, "\(s)")
        } else { Issue.record("\(r)") }
        // No .kml entry; not a ZIP after its first bytes; an entry's CRC-32 wrong.
        if case .failure(let e) = read(zip([("images/a.png", "x"), ("notes.txt", "y")])) {
            #expect(e.description == "t.kmz: KMZ archive without a .kml document (entries: images/a.png, notes.txt)")
        } else { Issue.record("accepted") }
        if case .failure(let e) = read(Data([0x50, 0x4B, 3, 4] + Array(repeating: 0, count: 40))) {
            #expect(e.description.hasPrefix("t.kmz: KMZ archive: ") && e.description.contains("end-of-central-directory"), "\(e)")
        } else { Issue.record("accepted") }
        var corrupt = [UInt8](zip([("doc.kml", head + placemark + "</Document></kml>")]))
        corrupt[30 + 7 + 60] ^= 0x20   // one byte of the stored document
        if case .failure(let e) = read(Data(corrupt)) {
            #expect(e.description.hasPrefix("t.kmz: KMZ archive: ") && e.description.contains("CRC-32"), "\(e)")
        } else { Issue.record("accepted") }
        #expect(KMLReader.archivePath("../x.kml", relativeTo: "doc.kml") == nil)
        #expect(KMLReader.archivePath("./b%20c.kml", relativeTo: "layers/a.kml") == "layers/b c.kml")
        #expect(KMLReader.archivePath("file:///etc/x.kml", relativeTo: "doc.kml") == nil && KMLReader.archivePath("/x.kml", relativeTo: "doc.kml") == nil)
    }

    /// The KMZ fixtures under the seeded mutations (as ``mutants()``): read with valid fixes,
    /// or refused with a TraceFormatError naming the mutant — never a trap.
    @Test func kmzMutants() throws {
        try Self.mutantRun(["walk.gpsbabel-track.kmz", "walk.libkml-track-points.kmz", "stops.python.kmz"], seed: 0x4B4D5A)
    }
}
