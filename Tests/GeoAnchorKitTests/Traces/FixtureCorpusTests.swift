import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport

/// Every GPX and NMEA fixture in ../shared/data either parses or fails with a
/// `FILE:LINE: message` error; gpsd's decoded output agrees with ours.
@Suite("Trace fixture corpus", .enabled(if: SharedData.shouldRun))
struct FixtureCorpusTests {
    static func files(_ folder: String, _ exts: Set<String>) -> [String] {
        let base = SharedData.url(folder)
        guard let e = FileManager.default.enumerator(atPath: base.path) else { return [] }
        return e.compactMap { $0 as? String }.filter { exts.contains(($0 as NSString).pathExtension.lowercased()) }
            .sorted().map { folder + "/" + $0 }
    }

    /// Fixtures that must fail, with the reason each is known to be bad (SOURCES.md caveats and
    /// the fixture names). Everything else must parse.
    static let expectedFailures: [String: String] = [
        "gpx/georust_gpx_fixtures/badcharacter.xml": "malformed XML",
        "nmea/gnss_lib_py_fixtures/nmea_w_wrong_checksum.nmea": "checksum mismatch",
        "nmea/pynmea2/data.log": "not an NMEA sentence",                      // line 4 is "foobar"
        "gpx/georust_gpx_fixtures/with_accuracy.gpx": "<fix> 'something_not_in_the_spec'", // not in the GPX fixType enum
        "nmea/gpsd_test_daemon/garmin-geko201.log": "malformed checksum",      // "$GPBOD,,T,,M,,*" (no hex digits)
        "nmea/gpsd_test_daemon/gp-320fw-2019-04-07-coldboot.log": "checksum mismatch", // truncated RMC "…,N,4,02.3*05"
        "nmea/gpsd_test_daemon/tomtom-mkII.log": "not an NMEA sentence",       // a stray "r" before "$GPRMC"
    ]

    @Test func everyFixtureParsesOrFailsClearly() throws {
        var report: [String] = []
        let all = Self.files("gpx", ["gpx", "xml"]) + Self.files("nmea", ["log", "nmea"])
        #expect(all.count >= 40)
        for rel in all {
            let url = SharedData.url(rel)
            let format: TraceFormat = rel.hasPrefix("gpx") ? .gpx : .nmea
            do {
                var n = 0
                let s: TraceReadSummary
                if format == .gpx {
                    s = try GPXReader.read(url: url, onFix: { _ in n += 1 }, onUntimedPoint: { _ in n += 1 })
                } else {
                    s = try TraceReader.read(url: url, format: .nmea, onFix: { _ in n += 1 })
                }
                report.append("\(rel): \(n) points, \(s.ignoredRecords) ignored")
                if let why = Self.expectedFailures[rel] { Issue.record("\(rel) parsed but should fail (\(why))") }
            } catch let e as TraceFormatError {
                report.append("\(rel): ERROR \(e)")
                // The message names the file, and for line-oriented formats the line.
                #expect(e.description.hasPrefix(url.path + ":"), "\(e)")
                if format == .nmea { #expect(e.line != nil, "\(e)") }
                if let why = Self.expectedFailures[rel] {
                    #expect(e.message.contains(why), "\(rel): \(e.message)")
                } else {
                    Issue.record("\(rel) failed unexpectedly: \(e)")
                }
            }
        }
        print(report.joined(separator: "\n"))
    }

    /// With skipInvalid, each line-level failure above becomes a skipped-line count and the rest
    /// of the file is read (badcharacter.xml is not well-formed XML: structural, still an error;
    /// pynmea2/data.log has no RMC, so a default date is given).
    @Test func skipInvalidReadsTheRest() throws {
        for (rel, _) in Self.expectedFailures where rel != "gpx/georust_gpx_fixtures/badcharacter.xml" {
            var n = 0
            let s = try TraceReader.read(url: SharedData.url(rel), format: rel.hasPrefix("gpx") ? .gpx : .nmea,
                                         options: TraceReadConfiguration(skipInvalid: true, defaultDate: 0), onFix: { _ in n += 1 })
            #expect(s.skippedLines >= 1, "\(rel)")
            #expect(n + s.ignoredRecords + s.skippedLines >= 2, "\(rel)")
        }
    }
}
