import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitSimulation
import GeoAnchorKitTestSupport

/// ``TCXReader`` on GPSBabel 1.8.0's TCX and on an activity written as Garmin Connect exports
/// one (scripts/dev/tcx_fixtures.sh). References: the GPX GPSBabel converted to TCX, and
/// GPSBabel's own reading of the activity (activity.gpsbabel.gpx).
@Suite("TCX reader")
struct TCXReaderTests {
    static let dir = GeoJSONTests.other

    static func read(_ name: String, _ options: TraceReadConfiguration = TraceReadConfiguration()) throws -> ([Fix], TraceReadSummary) {
        var fixes: [Fix] = []
        let s = try TraceReader.read(url: dir.appendingPathComponent(name), options: options, onFix: { fixes.append($0) })
        return (fixes, s)
    }

    /// The activity's two positioned trackpoints as GPSBabel reads them (its GPX keeps 9
    /// decimals: 5e-10°), the indoor one (no Position) counted; the ActivityExtension speeds
    /// (1.5, 1.3 m/s: the file's own values) kept.
    @Test func garminConnectActivity() throws {
        let (fixes, s) = try Self.read("activity.tcx")
        let (ref, _) = try Self.read("activity.gpsbabel.gpx")
        #expect(fixes.count == 2 && ref.count == 2 && s.ignoredRecords == 1 && s.untimedPoints == 0)
        for (a, b) in zip(fixes, ref) {
            #expect(a.time == b.time && abs(a.latitude - b.latitude) < 6e-10 && abs(a.longitude - b.longitude) < 6e-10)
            #expect(a.height == b.height && a.verticalReference == .meanSeaLevel)
        }
        #expect(fixes.map(\.speed) == [1.5, 1.3])
    }

    /// GPSBabel's TCX (a Course) keeps walk.gpx's fixes: times exact, positions to its 7
    /// decimals (5e-8°), elevations to its 0.1 m.
    @Test func gpsBabelCourse() throws {
        let (fixes, _) = try Self.read("walk.gpsbabel.tcx")
        let gpx = try GPSBabelTraceTests.gpx()
        #expect(fixes.count == gpx.count && fixes.count == 5)
        for (a, b) in zip(fixes, gpx) {
            #expect(a.time == b.time && abs(a.latitude - b.latitude) <= 5e-8 && abs(a.longitude - b.longitude) <= 5e-8)
            #expect(abs((a.height ?? .nan) - (b.height ?? .nan)) <= 0.05)
        }
    }

    /// Bad values name their line; skipInvalid skips and counts the trackpoint; a document of
    /// another kind says what it is not; an untimed course point is counted.
    @Test func problems() throws {
        func doc(_ points: String) -> Data {
            Data("<TrainingCenterDatabase xmlns=\"http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2\"><Courses><Course><Track>\n\(points)</Track></Course></Courses></TrainingCenterDatabase>".utf8)
        }
        let good = "<Trackpoint><Time>2026-05-16T12:00:00Z</Time><Position><LatitudeDegrees>50</LatitudeDegrees><LongitudeDegrees>14</LongitudeDegrees></Position></Trackpoint>\n"
        let bad = "<Trackpoint><Time>2026-05-16T12:00:01Z</Time><Position><LatitudeDegrees>95</LatitudeDegrees><LongitudeDegrees>14</LongitudeDegrees></Position></Trackpoint>\n"
        let badNumber = "<Trackpoint><Time>2026-05-16T12:00:01Z</Time><Position><LatitudeDegrees>5O</LatitudeDegrees><LongitudeDegrees>14</LongitudeDegrees></Position></Trackpoint>\n"
        let untimed = "<Trackpoint><Position><LatitudeDegrees>50</LatitudeDegrees><LongitudeDegrees>14</LongitudeDegrees></Position></Trackpoint>\n"
        func run(_ d: Data, _ o: TraceReadConfiguration = TraceReadConfiguration()) -> Result<TraceReadSummary, TraceFormatError> {
            do { return .success(try TCXReader.read(data: d, source: "t.tcx", options: o, onFix: { _ in })) }
            catch let e as TraceFormatError { return .failure(e) } catch { return .failure(TraceFormatError(source: "?", line: nil, message: "\(error)")) }
        }
        if case .failure(let e) = run(doc(good + bad)) { #expect(e.line == 3 && e.message.contains("latitude 95"), "\(e)") } else { Issue.record("accepted") }
        if case .failure(let e) = run(doc(badNumber)) { #expect(e.line == 2 && e.message == "LatitudeDegrees '5O' is not a finite number", "\(e)") } else { Issue.record("accepted") }
        if case .success(let s) = run(doc(good + bad + untimed), TraceReadConfiguration(skipInvalid: true)) {
            #expect(s.fixes == 1 && s.skippedLines == 1 && s.untimedPoints == 1)
        } else { Issue.record("refused") }
        if case .failure(let e) = run(Data("<gpx version=\"1.1\"></gpx>".utf8)) { #expect(e.message.contains("not a TCX document")) } else { Issue.record("accepted") }
        #expect(TraceFormat(pathExtension: "TCX") == .tcx && !TraceFormat.writable.contains(.tcx))
    }

    /// Seeded mutations (as GNSSReaderFuzzTests): each mutant reads with valid fixes or is
    /// refused with a TraceFormatError naming it — never a trap.
    @Test func mutants() throws {
        try GNSSReaderFuzzTests.expectMutantsReadOrRefused(["activity.tcx", "walk.gpsbabel.tcx"].map { Self.dir.appendingPathComponent($0) },
                                                           seed: 0x7C7, count: 80) { data, source in
            var fixes: [Fix] = []
            _ = try TCXReader.read(data: data, source: source, onFix: { fixes.append($0) })
            return fixes
        }
    }
}
