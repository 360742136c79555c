import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport

/// GPSLogger for Android's CSV log (scripts/dev/gpslogger_fixtures.py: the header and value
/// formats of GPSLogger's CSVFileLogger, newer 24-column and older 18-column versions, written
/// from traces/zavist-tour.raw.csv's first 20 fixes with three network rows and a quoted
/// annotation). References: Python's csv module reading the same files (gpslogger.ref.json),
/// and the project trace the rows came from.
@Suite("GPSLogger CSV")
struct GPSLoggerCSVTests {
    static let dir = GeoJSONTests.other

    struct Row: Decodable {
        var provider: String, time: Double, lat: Double, lon: Double
        var elevation: Double?, geoidheight: Double?, accuracy: Double?, bearing: Double?, speed: Double?
        var satellites: Int?, hdop: Double?
    }

    static func reference(_ name: String) throws -> [Row] {
        try JSONDecoder().decode([String: [Row]].self, from: Data(contentsOf: dir.appendingPathComponent("gpslogger.ref.json")))[name] ?? []
    }

    static func read(_ name: String, _ provider: GnssLoggerProvider = .gps) throws -> ([Fix], TraceReadSummary) {
        var fixes: [Fix] = []
        let s = try TraceReader.read(url: dir.appendingPathComponent(name), options: TraceReadConfiguration(provider: provider),
                                     onFix: { fixes.append($0) })
        return (fixes, s)
    }

    /// Every selected row is a fix with Python's values exactly (both parse the same decimal
    /// strings to the nearest double; the time is timestamp_ms / 1000, or the ISO `time` in the
    /// older file): elevation as an ellipsoidal height, geoidheight as N, accuracy, bearing as
    /// course, speed, satellites, hdop. The default provider takes the 20 gps rows and counts
    /// the 3 network rows; `.network` takes those; `.all` every row in file order.
    @Test(arguments: [("gpslogger.csv", GnssLoggerProvider.gps, 20, 3), ("gpslogger.csv", .network, 3, 20),
                      ("gpslogger.csv", .all, 23, 0), ("gpslogger-v1.csv", .gps, 5, 0)])
    func rowsAsPythonReadsThem(file: String, provider: GnssLoggerProvider, fixes expected: Int, others: Int) throws {
        let ref = try Self.reference(file).filter { provider == .all || GnssLoggerProvider(recordName: $0.provider) == provider }
        let (fixes, s) = try Self.read(file, provider)
        #expect(fixes.count == expected && ref.count == expected && s.otherProviderFixes == others)
        for (f, r) in zip(fixes, ref) {
            #expect(f.time == r.time && f.latitude == r.lat && f.longitude == r.lon)
            #expect(f.height == r.elevation && f.verticalReference == .ellipsoid && f.geoidSeparation == r.geoidheight)
            #expect(f.horizontalAccuracy == r.accuracy && f.course == r.bearing && f.speed == r.speed)
            #expect(f.satellites == r.satellites && f.hdop == r.hdop)
        }
    }

    /// The fixes are the project trace's: positions exact, times exact, ellipsoidal heights =
    /// altitude + geoid_separation within the float32 rounding GPSLogger's altitude goes
    /// through (2⁻¹⁷ × 374 m ≈ 3e-5 m).
    @Test func theTraceTheyCameFrom() throws {
        let (fixes, _) = try Self.read("gpslogger.csv")
        let trace = Array(try TraceReader.load(url: SharedData.repositoryRoot.appendingPathComponent("traces/zavist-tour.raw.csv")).fixes.prefix(20))
        #expect(fixes.count == trace.count)
        for (f, t) in zip(fixes, trace) {
            #expect(f.time == t.time && f.latitude == t.latitude && f.longitude == t.longitude)
            #expect(abs(f.height! - (t.height! + t.geoidSeparation!)) < 4e-5)
        }
    }

    /// A bad value names its column and line.
    @Test func badValues() throws {
        var text = try String(contentsOf: Self.dir.appendingPathComponent("gpslogger.csv"), encoding: .utf8)
        text = text.replacingOccurrences(of: "49.95667234", with: "49.9566x234")
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gpslogger-\(UUID().uuidString).csv")
        try Data(text.utf8).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect { _ = try TraceReader.read(url: url, onFix: { _ in }) } throws: { e in
            let e = e as? TraceFormatError
            return e?.line == 4 && e?.message == "lat '49.9566x234' is not a number"
        }
    }

    /// Seeded mutations (as GNSSReaderFuzzTests): fixes within their ranges, or a
    /// TraceFormatError naming the mutant — never a trap.
    @Test func mutants() throws {
        try GNSSReaderFuzzTests.expectMutantsReadOrRefused(["gpslogger.csv", "gpslogger-v1.csv"].map { Self.dir.appendingPathComponent($0) }, seed: 0x6915, count: 150) { data, source in
            var fixes: [Fix] = []
            _ = try CSVTraceReader.read(ByteLineReader(data: data, source: source), onFix: { fixes.append($0) })
            return fixes
        }
    }
}
