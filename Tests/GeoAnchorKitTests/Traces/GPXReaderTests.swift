import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport

@Suite("GPX reader")
struct GPXReaderTests {
    func read(_ text: String, options: TraceReadConfiguration = TraceReadConfiguration()) throws -> [Fix] {
        var out: [Fix] = []
        _ = try GPXReader.read(data: Data(text.utf8), source: "t.gpx", options: options, onFix: { out.append($0) })
        return out
    }

    /// GPX 1.1 track point with Garmin TrackPointExtension v2 speed/course and GPX fields.
    /// Reference: the values written in the document (exact decimal parsing).
    @Test func fieldsAndExtensions() throws {
        let f = try read("""
        <?xml version="1.0"?>
        <gpx version="1.1" xmlns="http://www.topografix.com/GPX/1/1" xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2">
        <trk><trkseg>
        <trkpt lat="49.96" lon="14.39"><ele>380.5</ele><time>2026-05-16T08:30:00.250Z</time><geoidheight>45.6</geoidheight>
          <fix>dgps</fix><sat>9</sat><hdop>0.9</hdop><vdop>1.1</vdop><pdop>1.4</pdop>
          <extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>1.35</gpxtpx:speed><gpxtpx:course>271</gpxtpx:course></gpxtpx:TrackPointExtension></extensions>
        </trkpt></trkseg></trk></gpx>
        """)
        #expect(f.count == 1)
        #expect(f[0].latitude == 49.96 && f[0].longitude == 14.39)
        #expect(f[0].height == 380.5 && f[0].verticalReference == .meanSeaLevel && f[0].geoidSeparation == 45.6)
        #expect(f[0].time == 1_778_920_200.25)   // 2026-05-16T08:30:00Z = 1778920200 (date -u -d … +%s)
        #expect(f[0].quality == .differential && f[0].satellites == 9 && f[0].hdop == 0.9 && f[0].pdop == 1.4)
        #expect(f[0].speed == 1.35 && f[0].course == 271)
    }

    /// gpxpy fixtures: GPX 1.0 `<speed>` (track_with_speed.gpx: 1.2, 2.2, 3.2 m/s) and all GPX 1.0
    /// fields (gpx1.0_with_all_fields.gpx, the trkpt at 10.1, −20.2: ele 11.1, geoidheight 13,
    /// sat 100, hdop 101, vdop 102, pdop 103). route.gpx (55 rtept, no `<time>` anywhere, grep)
    /// delivers its points only through `onUntimedPoint`.
    @Test(.enabled(if: SharedData.shouldRun)) func gpxpyFixtures() throws {
        var speed: [Fix] = []
        _ = try GPXReader.read(url: SharedData.url("gpx/gpxpy_test_files/track_with_speed.gpx"), onFix: { speed.append($0) })
        #expect(speed.map(\.speed) == [1.2, 2.2, 3.2])
        var all: [Fix] = []
        _ = try GPXReader.read(url: SharedData.url("gpx/gpxpy_test_files/gpx1.0_with_all_fields.gpx"), onFix: { all.append($0) })
        let p = try #require(all.first { $0.latitude == 10.1 && $0.longitude == -20.2 })
        #expect(p.height == 11.1 && p.geoidSeparation == 13 && p.satellites == 100)
        #expect(p.hdop == 101 && p.vdop == 102 && p.pdop == 103 && p.quality == .gps)
        var untimed = 0
        let s = try GPXReader.read(url: SharedData.url("gpx/gpxpy_test_files/route.gpx"),
                                   onFix: { _ in Issue.record("untimed point delivered as a fix") }, onUntimedPoint: { _ in untimed += 1 })
        #expect(untimed == 55 && s.fixes == 55)
        let ignored = try GPXReader.read(url: SharedData.url("gpx/gpxpy_test_files/route.gpx"), onFix: { _ in })
        #expect(ignored.fixes == 0 && ignored.ignoredRecords == 55 && ignored.untimedPoints == 55)
        #expect(s.untimedPoints == 0) // taken by onUntimedPoint: not "unused"
        // cerknicko-without-times.gpx: 296 <trkpt>, 5 of them with <time> (grep; the 6th <time>
        // is the document's own, line 8), 7 waypoints.
        let partly = try GPXReader.read(url: SharedData.url("gpx/gpxpy_test_files/cerknicko-without-times.gpx"), onFix: { _ in })
        #expect(partly.fixes == 5 && partly.untimedPoints == 291 && partly.waypoints == 7)
    }

    @Test(arguments: [
        (#"<gpx><trk><trkseg><trkpt lat="95" lon="1"><time>2020-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>"#, "latitude 95.0"),
        (#"<gpx><trk><trkseg><trkpt lat="45" lon="1"><time>2020-02-30T00:00:00Z</time></trkpt></trkseg></trk></gpx>"#, "impossible date"),
        (#"<gpx><trk><trkseg><trkpt lat="45" lon="abc"><time>2020-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>"#, "lon 'abc'"),
        (#"<gpx><trk><trkseg><trkpt lat="45" lon="1"><ele>NaN</ele><time>2020-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>"#, "not a finite number"),
        (#"<gpx><trk><trkseg><trkpt lat="45" lon="1"><time>2020-01-01T00:00:00Z</time></trkpt></trkseg>"#, "truncated"),
        ("", "not a GPX document"),
        (#"<kml></kml>"#, "not a GPX document"),
    ])
    func badInput(text: String, expected: String) {
        do {
            _ = try read(text)
            Issue.record("accepted \(text)")
        } catch let e as TraceFormatError {
            #expect(e.message.contains(expected), "\(e)")
            #expect(e.description.hasPrefix("t.gpx"))
        } catch { Issue.record("untyped error \(error)") }
    }

    /// With skipInvalid an invalid point is skipped and counted, the others delivered.
    @Test func skipInvalid() throws {
        var out: [Fix] = []
        let s = try GPXReader.read(data: Data(#"""
        <gpx><trk><trkseg>
        <trkpt lat="95" lon="1"><time>2020-01-01T00:00:00Z</time></trkpt>
        <trkpt lat="45" lon="1"><time>2020-01-01T00:00:01Z</time></trkpt>
        </trkseg></trk></gpx>
        """#.utf8), source: "t.gpx", options: TraceReadConfiguration(skipInvalid: true), onFix: { out.append($0) })
        #expect(out.count == 1 && s.skippedLines == 1 && s.firstSkipped.first?.line == 2)
    }
}

extension GPXReaderTests {
    /// The trap found by fuzzing the KML reader: a byte that is not UTF-8 in an element or
    /// attribute name (`<trk\xC3>`) stopped the whole process inside Foundation's XMLParser on
    /// Linux. Now it is a TraceFormatError naming the line, from a file and from memory; the
    /// same bytes in a document declaring ISO-8859-1 are Latin-1 text and read (é in a name).
    @Test func invalidUTF8IsAnErrorNotATrap() throws {
        func doc(_ body: [UInt8], encoding: String? = nil) -> Data {
            let decl = "<?xml version=\"1.0\"" + (encoding.map { " encoding=\"\($0)\"" } ?? "") + "?>\n<gpx version=\"1.1\">\n"
            return Data(Array(decl.utf8) + body + Array("\n</gpx>\n".utf8))
        }
        let bad: [[UInt8]] = [Array("<trk".utf8) + [0xC3] + Array("><trkseg></trkseg></trk>".utf8),
                              Array("<wpt lat=\"1\" lon=\"2\" x".utf8) + [0xC3] + Array("=\"1\"></wpt>".utf8),
                              Array("<wpt lat=\"1\" lon=\"2\"><name>".utf8) + [0xED, 0xA0, 0x80] + Array("</name></wpt>".utf8)]
        for b in bad {
            #expect {
                _ = try GPXReader.read(data: doc(b), source: "bad.gpx", onFix: { _ in })
            } throws: { e in
                (e as? TraceFormatError).map { $0.line == 3 && $0.message.hasPrefix("not valid UTF-8") } == true
            }
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("bad-\(UUID().uuidString).gpx")
            try doc(b).write(to: url)
            defer { try? FileManager.default.removeItem(at: url) }
            #expect(throws: TraceFormatError.self) { _ = try GPXReader.read(url: url, onFix: { _ in }) }
        }
        let latin1 = Array("<wpt lat=\"1\" lon=\"2\"><name>Caf".utf8) + [0xE9] + Array("</name></wpt>".utf8)
        var names: [String?] = []
        _ = try GPXReader.read(data: doc(latin1, encoding: "ISO-8859-1"), source: "l.gpx", onFix: { _ in }, onWaypoint: { names.append($0.name) })
        #expect(names == ["Café"])
    }
}
