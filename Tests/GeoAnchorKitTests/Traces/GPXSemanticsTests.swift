import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport

/// What a GPX trace is, as gpxpy and GPSBabel users expect: the track points; waypoints apart.
@Suite("GPX trace semantics")
struct GPXSemanticsTests {
    /// Reference: cerknicko-jezero.gpx (gpxpy test file) holds 7 `<wpt>` before one track of 8
    /// segments with 296 `<trkpt>`, all with `<time>` and `<ele>` (counted with grep/regex in
    /// the test itself). The trace is exactly the track points in order; the waypoints come
    /// only through onWaypoint.
    @Test(.enabled(if: SharedData.shouldRun)) func cerknickoTrackAndWaypoints() throws {
        let path = "gpx/gpxpy_test_files/cerknicko-jezero.gpx"
        let text = try SharedData.text(path)
        let trkpt = try Regex(#"<trkpt lat="([-0-9.]+)" lon="([-0-9.]+)""#)
        let expected = text.matches(of: trkpt).map { (Double(String($0.output[1].substring!))!, Double(String($0.output[2].substring!))!) }
        #expect(expected.count == 296)
        var fixes: [Fix] = [], waypoints: [GPXWaypoint] = []
        let s = try GPXReader.read(url: SharedData.url(path), onFix: { fixes.append($0) }, onWaypoint: { waypoints.append($0) })
        #expect(fixes.count == expected.count)
        #expect(zip(fixes, expected).allSatisfy { $0.latitude == $1.0 && $0.longitude == $1.1 })
        #expect(fixes.allSatisfy { $0.height != nil && $0.verticalReference == .meanSeaLevel })
        #expect(s.segments == text.components(separatedBy: "<trkseg>").count - 1)
        #expect(waypoints.count == text.components(separatedBy: "<wpt ").count - 1 && waypoints.count == 7)
        #expect(s.waypoints == 7)
        #expect(try GPXReader.waypoints(url: SharedData.url(path)) == waypoints)
    }

    /// A GPX as a walking path (`GPXReader.lines`, for `PathConstraint`): each track segment a
    /// line, else each route; times not needed. Reference: the files' own text — the
    /// `<trkpt`/`<rtept` coordinates matched by a regex within each `<trkseg>` / `<rte>` block,
    /// in order — for gpxpy's untimed cerknicko (8 segments, 296 points), gpxpy's route.gpx
    /// (one route, no track) and a CalTopo export (two segments).
    @Test(.enabled(if: SharedData.shouldRun),
          arguments: ["gpx/gpxpy_test_files/cerknicko-without-times.gpx", "gpx/gpxpy_test_files/route.gpx",
                      "gpx/georust_gpx_fixtures/caltopo-export.gpx"])
    func linesForAPath(_ path: String) throws {
        let text = try SharedData.text(path)
        let hasTrack = text.contains("<trkpt")
        let blocks = text.components(separatedBy: hasTrack ? "<trkseg" : "<rte>").dropFirst()
        let point = try Regex(hasTrack ? #"<trkpt\s+lat="([-0-9.]+)"\s+lon="([-0-9.]+)""# : #"<rtept\s+lat="([-0-9.]+)"\s+lon="([-0-9.]+)""#)
        let expected = blocks.map { b in b.matches(of: point).map { (Double(String($0.output[1].substring!))!, Double(String($0.output[2].substring!))!) } }
            .filter { !$0.isEmpty }
        #expect(!expected.isEmpty)
        let lines = try GPXReader.lines(url: SharedData.url(path))
        #expect(lines.map(\.count) == expected.map(\.count), "\(lines.map(\.count)) vs \(expected.map(\.count))")
        for (l, e) in zip(lines, expected) {
            #expect(zip(l, e).allSatisfy { $0.latitude == $1.0 && $0.longitude == $1.1 })
        }
        let constraint = try PathConstraint(lines: lines)
        #expect(constraint.lines.count == expected.count)
    }

    /// Every writer takes a trace whose first point has no `<ele>` and later ones do (and the
    /// reverse): the missing height is an empty cell/absent element, the CSV height column
    /// follows the first fix that has a height. Round trip through each format keeps which
    /// fixes have a height.
    @Test(arguments: TraceFormat.writable) func firstPointWithoutElevation(format: TraceFormat) throws {
        let gpx = """
        <?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">
        <wpt lat="1" lon="2"><name>no ele, no time</name></wpt>
        <trk><trkseg>
        <trkpt lat="49.96" lon="14.39"><time>2026-05-16T08:30:00Z</time></trkpt>
        <trkpt lat="49.961" lon="14.391"><ele>380.5</ele><time>2026-05-16T08:30:01Z</time></trkpt>
        </trkseg><trkseg>
        <trkpt lat="49.962" lon="14.392"><time>2026-05-16T08:30:05Z</time></trkpt>
        </trkseg></trk></gpx>
        """
        var fixes: [Fix] = []
        let s = try GPXReader.read(data: Data(gpx.utf8), source: "t.gpx", onFix: { fixes.append($0) })
        #expect(fixes.map(\.height) == [nil, 380.5, nil] && s.segments == 2 && s.waypoints == 1)
        var out = Data()
        let w = TraceWriter(format: format) { out.append($0) }
        for f in fixes { try w.write(f) }
        try w.finish()
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gak-\(UUID().uuidString).\(format.rawValue)")
        try out.write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let back = try TraceReader.load(url: url, format: format, options: TraceReadConfiguration(defaultDate: 1_778_889_600)).fixes
        #expect(back.count == 3)
        #expect(back.map { $0.height != nil } == [false, true, false], "\(format)")
        if format == .csv { #expect(String(decoding: out, as: UTF8.self).hasPrefix("time,latitude,longitude,altitude,")) }
    }

    /// A GPX file with only a route: the route points are the trace (held to the end of the
    /// document, since a track could follow); with a track they are not.
    @Test func routeWithoutTrack() throws {
        let gpx = """
        <?xml version="1.0"?><gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1">
        <rte><rtept lat="1" lon="2"><time>2026-05-16T08:30:00Z</time></rtept><rtept lat="1.1" lon="2"><time>2026-05-16T08:30:01Z</time></rtept></rte>
        </gpx>
        """
        var fixes: [Fix] = []
        _ = try GPXReader.read(data: Data(gpx.utf8), source: "r.gpx", onFix: { fixes.append($0) })
        #expect(fixes.map(\.latitude) == [1, 1.1])
        // With a track the route is not part of the trace.
        let both = gpx.replacingOccurrences(of: "</gpx>", with: "<trk><trkseg><trkpt lat=\"5\" lon=\"6\"><time>2026-05-16T09:00:00Z</time></trkpt></trkseg></trk></gpx>")
        fixes = []
        let s = try GPXReader.read(data: Data(both.utf8), source: "b.gpx", onFix: { fixes.append($0) })
        #expect(fixes.map(\.latitude) == [5] && s.ignoredRecords == 2)
    }

    /// Strict numbers in GPX too: hex and NUL are not coordinates or elevations.
    @Test func strictNumbers() {
        for bad in [#"<trkpt lat="0x10" lon="1"><time>2026-05-16T08:30:00Z</time></trkpt>"#,
                    #"<trkpt lat="1" lon="1"><ele>nan</ele><time>2026-05-16T08:30:00Z</time></trkpt>"#] {
            let gpx = "<?xml version=\"1.0\"?><gpx version=\"1.1\"><trk><trkseg>\(bad)</trkseg></trk></gpx>"
            #expect(throws: TraceFormatError.self) {
                _ = try GPXReader.read(data: Data(gpx.utf8), source: "s.gpx", onFix: { _ in })
            }
        }
    }
}
