import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitSimulation
import GeoAnchorKitTestSupport

/// Courses — a tour planned in another app, its stops as course points — in TCX and FIT
/// (scripts/dev/course_fixtures.sh): ``TCXReader/coursePoints(url:options:)``,
/// ``FITReader/coursePoints(url:options:)``, their `lines`, and the tours, routes and path
/// networks made of them. References: fitdecode 0.11's decoding of each FIT's course points
/// (`*.course.json`), GPSBabel 1.8.0's reading of the TCX (`course.gpsbabel.gpx`), and the GPX
/// (`course.gpx`: traces/zavist-tour.tour.geojson's stops and path) GPSBabel made the FIT and
/// TCX courses from.
@Suite("Course points (TCX, FIT)")
struct CoursePointTests {
    static let other = GeoJSONTests.other
    static let fit = FITReaderTests.dir

    struct Reference: Decodable {
        var name: String?
        var type: TypeValue?
        var position_lat: Double
        var position_long: Double
        var timestamp: Double?
        /// fitdecode gives a type the profile names as its name, another as its number.
        enum TypeValue: Decodable, Equatable {
            case name(String), number(Int)
            init(from decoder: any Decoder) throws {
                let c = try decoder.singleValueContainer()
                if let n = try? c.decode(Int.self) { self = .number(n) } else { self = .name(try c.decode(String.self)) }
            }
            var text: String { switch self { case .name(let s): s; case .number(let n): String(n) } }
        }
    }

    static func reference(_ name: String) throws -> [Reference] {
        try JSONDecoder().decode([Reference].self, from: Data(contentsOf: fit.appendingPathComponent(name + ".course.json")))
    }

    static func gpxWaypoints(_ name: String) throws -> [GPXWaypoint] {
        try GPXReader.waypoints(url: other.appendingPathComponent(name))
    }

    /// Each FIT course point as fitdecode decodes it: name (UTF-8, NUL-terminated; none when
    /// the field is absent), type name (its number where the profile names none: 26), position
    /// (1e-12° of the semicircles' conversion), time (FIT seconds + epoch; none when invalid or
    /// absent) — through a big-endian definition without name or time too.
    @Test(arguments: ["course_points", "course.gpsbabel"]) func fitCoursePointsAsTheReferenceDecodes(name: String) throws {
        let ref = try Self.reference(name)
        let points = try FITReader.coursePoints(url: Self.fit.appendingPathComponent(name + ".fit"))
        #expect(points.count == ref.count && points.count >= 4)
        for (p, r) in zip(points, ref) {
            #expect(p.name == r.name && p.type == r.type?.text)
            #expect(abs(p.latitude - r.position_lat * 180 / 2_147_483_648) < 1e-12)
            #expect(abs(p.longitude - r.position_long * 180 / 2_147_483_648) < 1e-12)
            #expect(p.time == r.timestamp.map { FITReader.epoch + $0 })
            #expect(p.altitude == nil)
        }
        // Counted as waypoints, never fixes, by the trace reader.
        let s = try FITReader.read(url: Self.fit.appendingPathComponent(name + ".fit"), onFix: { _ in })
        #expect(s.waypoints == ref.count)
    }

    /// A GPX waypoint's type is its `<type>`, else its `<sym>` (GPSBabel's GPX of a TCX course
    /// keeps each course point's PointType there), so a course converted to GPX keeps its turn
    /// cues apart too.
    @Test func gpxWaypointTypes() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("types-\(UUID().uuidString).gpx")
        try Data(#"<gpx version="1.1"><wpt lat="50" lon="14"><name>A</name><sym>Flag, Blue</sym><type>Castle</type></wpt><wpt lat="50" lon="14.1"><sym>Left</sym></wpt><wpt lat="50" lon="14.2"/></gpx>"#.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let w = try GPXReader.waypoints(url: url)
        #expect(w.map(\.type) == ["Castle", "Left", nil] && w.map(\.isTurnInstruction) == [false, true, false])
    }

    /// Turn cues are told apart by type: the protocol-built file's left, slight_left and u_turn
    /// are turn instructions; generic, summit, toilet and the unnamed 26 are not.
    @Test func turnInstructions() throws {
        let points = try FITReader.coursePoints(url: Self.fit.appendingPathComponent("course_points.fit"))
        #expect(points.map(\.isTurnInstruction) == [false, true, false, true, false, true, false])
        let tcx = try TCXReader.coursePoints(url: Self.other.appendingPathComponent("course.tcx"))
        #expect(tcx.map(\.isTurnInstruction) == [false, true, false, false, false])
        #expect(GPXWaypoint(latitude: 0, longitude: 0, type: "SHARP_RIGHT").isTurnInstruction)
        #expect(!GPXWaypoint(latitude: 0, longitude: 0).isTurnInstruction)
    }

    /// GPSBabel's FIT course keeps course.gpx: its waypoints are the course points (names cut
    /// to FIT's 16-byte field by GPSBabel: "Rampart viewpoi"; positions within the semicircle
    /// resolution 8.4e-8° plus GPX's rounding; times exact; type generic), its track the
    /// path line (heights within FIT's 0.2 m).
    @Test func gpsBabelFITCourseIsTheGPX() throws {
        let url = Self.fit.appendingPathComponent("course.gpsbabel.fit")
        let points = try FITReader.coursePoints(url: url)
        let wpts = try Self.gpxWaypoints("course.gpx")
        #expect(points.count == wpts.count && points.count == 4)
        for (p, w) in zip(points, wpts) {
            #expect(p.name == String(w.name!.utf8.prefix(15))! && p.type == "generic" && p.time == w.time)
            #expect(abs(p.latitude - w.latitude) < 1e-7 && abs(p.longitude - w.longitude) < 1e-7)
        }
        let lines = try FITReader.lines(url: url)
        let track = try GPXReader.lines(url: Self.other.appendingPathComponent("course.gpx"))
        var heights: [Fix] = []
        _ = try GPXReader.read(url: Self.other.appendingPathComponent("course.gpx"), onFix: { heights.append($0) })
        #expect(lines.count == 1 && lines[0].count == track[0].count && track[0].count == 11)
        for (a, (b, h)) in zip(lines[0], zip(track[0], heights)) {
            #expect(abs(a.latitude - b.latitude) < 1e-7 && abs(a.longitude - b.longitude) < 1e-7)
            #expect(abs(a.height - h.height!) <= 0.2 && a.verticalReference == .meanSeaLevel)
        }
    }

    /// TCX course points as GPSBabel reads them (its GPX of course.tcx, less the LAP001
    /// waypoint it makes of the lap's start): positions (its 9 decimals), times, altitudes (none
    /// for the Water point), PointType as its `<sym>`; the point with an empty Name has none
    /// (GPSBabel invents WPT006). The course's Track is the path line (course.gpx's track).
    @Test func tcxCoursePointsAsGPSBabelReadsThem() throws {
        let points = try TCXReader.coursePoints(url: Self.other.appendingPathComponent("course.tcx"))
        let ref = try Self.gpxWaypoints("course.gpsbabel.gpx").filter { $0.name != "LAP001" }
        let syms = try String(contentsOf: Self.other.appendingPathComponent("course.gpsbabel.gpx"), encoding: .utf8)
            .components(separatedBy: "<sym>").dropFirst().map { String($0.prefix { $0 != "<" }) }
        #expect(points.count == 5 && ref.count == 5 && syms.count == 5)
        for (k, (p, r)) in zip(points, ref).enumerated() {
            #expect(abs(p.latitude - r.latitude) < 5e-10 && abs(p.longitude - r.longitude) < 5e-10)
            #expect(p.time == r.time && p.altitude == r.altitude && p.type == syms[k] && r.type == syms[k])
            #expect(p.name == (k == 4 ? nil : r.name), "\(p.name ?? "nil") vs \(r.name ?? "nil")")
        }
        #expect(points[3].altitude == nil)
        let lines = try TCXReader.lines(url: Self.other.appendingPathComponent("course.tcx"))
        let track = try GPXReader.lines(url: Self.other.appendingPathComponent("course.gpx"))
        #expect(lines.count == 1 && lines[0].count == 11)
        for (a, b) in zip(lines[0], track[0]) { #expect(abs(a.latitude - b.latitude) < 5e-8 && abs(a.longitude - b.longitude) < 5e-8) }
        // Counted as waypoints by the trace reader; the trackpoints stay the fixes.
        var fixes = 0
        let s = try TCXReader.read(url: Self.other.appendingPathComponent("course.tcx"), onFix: { _ in fixes += 1 })
        #expect(s.waypoints == 5 && fixes == 11)
    }

    /// The FIT and TCX courses as path networks walk the stops as the GPX does: the same order,
    /// distance within 0.5 m (the files' coordinate rounding: 1e-7° ≈ 1 cm per vertex) and
    /// heights within FIT's 0.2 m quantisation per vertex (TCX keeps the 0.1 m of the GPX).
    @Test func courseNetworksRouteAsTheGPX() throws {
        let gpx = try PathNetwork(gpx: Self.other.appendingPathComponent("course.gpx"))
        let tcx = try PathNetwork(tcx: Self.other.appendingPathComponent("course.tcx"))
        let fit = try PathNetwork(fit: Self.fit.appendingPathComponent("course.gpsbabel.fit"))
        #expect(gpx.hasHeights && tcx.hasHeights && fit.hasHeights)
        let stops = try RouteStop.stops(waypoints: Self.gpxWaypoints("course.gpx").map {
            GPXWaypoint(latitude: $0.latitude, longitude: $0.longitude, name: $0.name)
        })
        let reference = try RoutePlanner.plan(RouteProblem(stops: stops), network: gpx)
        for net in [tcx, fit] {
            let plan = try RoutePlanner.plan(RouteProblem(stops: stops), network: net)
            #expect(plan.order == reference.order)
            #expect(abs(plan.estimate.distance - reference.estimate.distance) < 0.5, "\(plan.estimate.distance) vs \(reference.estimate.distance)")
            #expect(abs(plan.estimate.ascent - reference.estimate.ascent) < 0.5, "\(plan.estimate.ascent) vs \(reference.estimate.ascent)")
        }
    }

    /// Bad course points name where they are: a TCX CoursePoint without a Position (its line),
    /// a FIT course_point whose position is FIT's invalid value (its byte offset); with
    /// skipInvalid they are left out and counted. A TCX track with some altitudes missing is
    /// refused as a network with heights, naming the track and point.
    @Test func problems() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("course-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let tcx = dir.appendingPathComponent("c.tcx")
        try Data("""
        <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2"><Courses><Course>
        <Track><Trackpoint><Position><LatitudeDegrees>50</LatitudeDegrees><LongitudeDegrees>14</LongitudeDegrees></Position><AltitudeMeters>300</AltitudeMeters></Trackpoint>
        <Trackpoint><Position><LatitudeDegrees>50.001</LatitudeDegrees><LongitudeDegrees>14</LongitudeDegrees></Position></Trackpoint></Track>
        <CoursePoint><Name>Ok</Name><Position><LatitudeDegrees>50</LatitudeDegrees><LongitudeDegrees>14</LongitudeDegrees></Position><PointType>Generic</PointType></CoursePoint>
        <CoursePoint><Name>Lost</Name><PointType>Generic</PointType></CoursePoint>
        </Course></Courses></TrainingCenterDatabase>
        """.utf8).write(to: tcx)
        #expect { _ = try TCXReader.coursePoints(url: tcx) } throws: { e in
            let e = e as? TraceFormatError
            return e?.line == 5 && e?.message == "CoursePoint without a Position"
        }
        let skipped = try TCXReader.coursePoints(url: tcx, options: TraceReadConfiguration(skipInvalid: true))
        #expect(skipped.map(\.name) == ["Ok"] && skipped[0].time == nil)
        // Lines are read from a file whose every point is valid (a bad course point is an error
        // whatever is read, as in GPX).
        let track = dir.appendingPathComponent("t.tcx")
        try Data(String(decoding: try Data(contentsOf: tcx), as: UTF8.self)
            .replacingOccurrences(of: "<CoursePoint><Name>Lost</Name><PointType>Generic</PointType></CoursePoint>", with: "").utf8).write(to: track)
        #expect { _ = try PathNetwork(tcx: track) } throws: { e in
            guard case .malformedInput(_, _, let reason) = e as? RoutingError else { return false }
            return reason == "Track 1, point 2 has no AltitudeMeters, the first point has one; give every path point an elevation or none"
        }

        var bytes = [UInt8](try Data(contentsOf: Self.fit.appendingPathComponent("course_points.fit")))
        // The first course_point's latitude (little-endian, after message_index and timestamp)
        // set to FIT's invalid 0x7FFFFFFF, and the file CRC set to 0 (FIT: "not computed").
        let ref = try Self.reference("course_points")
        let lat = Int32(ref[0].position_lat)
        let le = withUnsafeBytes(of: lat.littleEndian, Array.init)
        let at = try #require((0..<(bytes.count - 4)).first { Array(bytes[$0..<($0 + 4)]) == le })
        bytes.replaceSubrange(at..<(at + 4), with: [0xFF, 0xFF, 0xFF, 0x7F])
        bytes[bytes.count - 2] = 0; bytes[bytes.count - 1] = 0
        let bad = dir.appendingPathComponent("bad.fit")
        try Data(bytes).write(to: bad)
        #expect { _ = try FITReader.coursePoints(url: bad) } throws: { e in
            let e = e as? TraceFormatError
            return e?.message.hasSuffix("course_point: no position") == true && e?.message.hasPrefix("at byte ") == true
        }
        let rest = try FITReader.coursePoints(url: bad, options: TraceReadConfiguration(skipInvalid: true))
        #expect(rest.count == ref.count - 1 && rest[0].type == "left")
    }

    /// Seeded mutations of the course files (as GNSSReaderFuzzTests): course points within the
    /// ranges of a fix, or a TraceFormatError naming the mutant — never a trap. The FIT mutants'
    /// CRC is set to 0 ("not computed") so that the parser, not the CRC, meets the damage.
    @Test func mutants() throws {
        func check(_ read: @escaping (Data, String) throws -> [GPXWaypoint]) -> (Data, String) throws -> [Fix] {
            { data, source in try read(data, source).map { Fix(time: $0.time ?? 0, latitude: $0.latitude, longitude: $0.longitude) } }
        }
        try GNSSReaderFuzzTests.expectMutantsReadOrRefused([Self.other.appendingPathComponent("course.tcx")], seed: 0xC0, count: 80,
                                                           read: check { try TCXReader.coursePoints(data: $0, source: $1, options: TraceReadConfiguration()) })
        try GNSSReaderFuzzTests.expectMutantsReadOrRefused(["course_points.fit", "course.gpsbabel.fit"].map { Self.fit.appendingPathComponent($0) },
                                                           seed: 0xC1, count: 150, read: check { data, source in
            var b = [UInt8](data)
            if b.count >= 2 { b[b.count - 2] = 0; b[b.count - 1] = 0 }
            return try FITReader.coursePoints(data: Data(b), source: source, options: TraceReadConfiguration())
        })
    }
}
