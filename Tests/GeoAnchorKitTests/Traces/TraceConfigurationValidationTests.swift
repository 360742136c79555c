import Foundation
import Testing
@testable import GeoAnchorKit

/// ``TrackAccuracy/Configuration/validate()`` and ``TraceReadConfiguration/validate()``: each
/// value refused by name outside its documented range; every reader refuses invalid options
/// first. Reference: the documented ranges (errors compared exactly).
@Suite("Trace configuration validation")
struct TraceConfigurationValidationTests {
    @Test func defaultsAndDocumentedValuesPass() throws {
        typealias C = TrackAccuracy.Configuration
        try C().validate()
        try C(timeOffset: -0.05).validate()
        try C(timeOffset: 18, maximumGap: 0, minimumSpeedForTrack: 1e300).validate()
        let span = Fix.latestTime - Fix.earliestTime
        try C(timeOffset: -span, maximumGap: span).validate()
        try TraceReadConfiguration().validate()
        try TraceReadConfiguration(defaultDate: 1_778_889_600).validate()
        try TraceReadConfiguration(defaultDate: Fix.earliestTime).validate()
        try TraceReadConfiguration(defaultDate: Fix.latestTime).validate()
    }

    /// Before: minimumSpeedForTrack 0 made the along/cross-track errors of a reference at rest NaN.
    @Test func accuracyFieldsOutOfRangeAreNamed() {
        typealias C = TrackAccuracy.Configuration
        let cases: [(String, C, GeoAnchorError)] = [
            ("timeOffset NaN", C(timeOffset: .nan), .nonFinite(name: "timeOffset", value: .nan)),
            ("timeOffset 1e15", C(timeOffset: 1e15), .outOfRange(name: "timeOffset", value: 1e15, allowed: C.timeOffsetRange)),
            ("timeOffset -1e15", C(timeOffset: -1e15), .outOfRange(name: "timeOffset", value: -1e15, allowed: C.timeOffsetRange)),
            ("maximumGap -1", C(maximumGap: -1), .outOfRange(name: "maximumGap", value: -1, allowed: C.maximumGapRange)),
            ("maximumGap ∞", C(maximumGap: .infinity), .nonFinite(name: "maximumGap", value: .infinity)),
            ("maximumGap 1e15", C(maximumGap: 1e15), .outOfRange(name: "maximumGap", value: 1e15, allowed: C.maximumGapRange)),
            ("minimumSpeedForTrack 0", C(minimumSpeedForTrack: 0), .outOfRange(name: "minimumSpeedForTrack", value: 0, allowed: C.minimumSpeedRange)),
            ("minimumSpeedForTrack NaN", C(minimumSpeedForTrack: .nan), .nonFinite(name: "minimumSpeedForTrack", value: .nan)),
        ]
        for (label, c, expected) in cases {
            expectRefused(label, expected) { () throws(GeoAnchorError) in try c.validate() }
        }
    }

    /// `evaluate` cannot throw: invalid options stop it (a programmer error) instead of NaN errors.
    @Test func evaluateStopsOnInvalidOptions() async {
        await #expect(processExitsWith: .failure) {
            let fix = Fix(time: 0, latitude: 50, longitude: 14)
            _ = TrackAccuracy.evaluate(trace: [fix], reference: ReferenceTrack([fix]), options: .init(minimumSpeedForTrack: 0))
        }
    }

    /// A default date out of range: before, NaN or 1e300 trapped the NMEA reader converting it to
    /// a day number. Now every reader refuses the options first, naming the value.
    @Test func readersRefuseAnInvalidDefaultDate() throws {
        let range = TraceReadConfiguration.defaultDateRange
        let cases: [(Double, GeoAnchorError)] = [
            (.nan, .nonFinite(name: "defaultDate", value: .nan)),
            (1e300, .outOfRange(name: "defaultDate", value: 1e300, allowed: range)),
            (-1e12, .outOfRange(name: "defaultDate", value: -1e12, allowed: range)),
        ]
        // An NMEA file without a date: the default date is what the reader would use.
        let nmea = "$GPGGA,123519,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,*47\n"
        let csv = "time,latitude,longitude\n0,50,14\n"
        let gpx = #"<?xml version="1.0"?><gpx version="1.1" creator="t"><trk><trkseg><trkpt lat="50" lon="14"><time>2020-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>"#
        for (date, expected) in cases {
            let options = TraceReadConfiguration(defaultDate: date)
            expectRefused("validate \(date)", expected) { () throws(GeoAnchorError) in try options.validate() }
            let message = "options: \(expected)"
            let readers: [(String, String, () throws -> Void)] = [
                ("nmea", "<nmea>", { _ = try NMEAReader.fixes(from: nmea, options: options) }),
                ("csv", "t.csv", { _ = try CSVTraceReader.read(ByteLineReader(data: Data(csv.utf8), source: "t.csv"), options: options) { _ in } }),
                ("gpx", "t.gpx", { _ = try GPXReader.read(data: Data(gpx.utf8), source: "t.gpx", options: options, onFix: { _ in }) }),
                ("geojson", "t.geojson", {
                    _ = try GeoJSONTrace.fixes(from: GeoJSONTrace.featureCollection([Fix(time: 0, latitude: 50, longitude: 14)]),
                                               source: "t.geojson", options: options) { _ in }
                }),
                ("parser", "p.nmea", {
                    var p = NMEAParser(source: "p.nmea", options: options)
                    var out: [Fix] = []
                    try p.parse(line: nmea.trimmingCharacters(in: .newlines), lineNumber: 1, into: &out)
                }),
            ]
            for (name, source, read) in readers {
                do {
                    try read()
                    Issue.record("\(name), \(date): accepted")
                } catch let e as TraceFormatError {
                    // NaN prints as "nan" on both sides, so the message compares exactly.
                    #expect(e == TraceFormatError(source: source, line: nil, message: message), "\(name): \(e)")
                } catch {
                    Issue.record("\(name), \(date): \(error)")
                }
            }
        }
    }
}
