import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport

/// Traces GPSBabel 1.8.0 wrote from the GPX of our own simulated walk
/// (scripts/dev/gdal_gpsbabel_fixtures.sh). Reference: that GPX, read by GPXReader, at the
/// precision each format keeps.
@Suite("Traces written by GPSBabel")
struct GPSBabelTraceTests {
    static let dir = GeoJSONTests.other

    static func gpx() throws -> [Fix] {
        var out: [Fix] = []
        _ = try GPXReader.read(url: dir.appendingPathComponent("walk.gpx"), onFix: { out.append($0) })
        return out
    }

    static func read(_ name: String, _ options: TraceReadConfiguration = TraceReadConfiguration()) throws -> [Fix] {
        var out: [Fix] = []
        _ = try TraceReader.read(url: dir.appendingPathComponent(name), options: options, onFix: { out.append($0) })
        return out
    }

    /// unicsv (`-t -o unicsv`): Date and Time columns are the UTC time (exact), positions to
    /// GPSBabel's 6 decimals (≤ 5e-7°), `Altitude` to 0.1 m as MSL, `Satellites`, `HDOP` and
    /// `FIX` "3d" as a GPS fix.
    @Test func unicsv() throws {
        let ref = try Self.gpx(), fixes = try Self.read("walk.gpsbabel-unicsv.csv")
        #expect(fixes.count == ref.count && ref.count == 5)
        for (a, b) in zip(fixes, ref) {
            #expect(a.time == b.time)
            #expect(abs(a.latitude - b.latitude) <= 5e-7 && abs(a.longitude - b.longitude) <= 5e-7)
            #expect(a.verticalReference == .meanSeaLevel && abs(a.height! - b.height!) <= 0.05)
            #expect(a.satellites == b.satellites && a.hdop == b.hdop && a.quality == .gps)
        }
    }

    /// NMEA (`-o nmea`): RMC dates the GGA epochs; positions to 0.001′ (≤ 1e-3/60° ≈ 1.9 m),
    /// MSL altitude and geoid separation as written (3 and 1 decimals).
    @Test func nmea() throws {
        let ref = try Self.gpx(), fixes = try Self.read("walk.gpsbabel.nmea")
        #expect(fixes.count == 5)
        for (a, b) in zip(fixes, ref) {
            #expect(a.time == b.time)
            #expect(abs(a.latitude - b.latitude) <= 1e-3 / 60 && abs(a.longitude - b.longitude) <= 1e-3 / 60)
            #expect(abs(a.height! - b.height!) <= 5e-4 && a.geoidSeparation == b.geoidSeparation)
            #expect(a.satellites == b.satellites && a.hdop == b.hdop)
        }
    }

    /// A unicsv row whose date is not a date names both fields and the line.
    @Test func badDate() throws {
        let text = "No,Latitude,Longitude,Date,Time\n1,50,14,2026/13/16,14:00:00\n"
        #expect {
            _ = try CSVTraceReader.read(ByteLineReader(data: Data(text.utf8), source: "u.csv"), onFix: { _ in })
        } throws: { e in
            guard let e = e as? TraceFormatError else { return false }
            return e.line == 2 && e.message.contains("date '2026/13/16' and time '14:00:00'")
        }
    }
}

extension GPSBabelTraceTests {
    /// What a spreadsheet in a Czech or German locale saves as CSV (`;` between fields,
    /// decimal commas, BOM, CRLF; Python's csv module with `delimiter=";"`,
    /// scripts/dev/csv_line_end_fixtures.py) reads as the trace it came from: the first 5 fixes
    /// of traces/city-walk.raw.csv, exactly.
    @Test func semicolonCSVReadsAsTheTrace() throws {
        let root = SharedData.repositoryRoot
        var semicolon: [Fix] = [], original: [Fix] = []
        _ = try TraceReader.read(url: root.appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/CSV/trace.semicolon.csv"), onFix: { semicolon.append($0) })
        _ = try TraceReader.read(url: root.appendingPathComponent("traces/city-walk.raw.csv"), onFix: { if original.count < 5 { original.append($0) } })
        #expect(semicolon.count == 5 && semicolon == original)
    }
}
