import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitSimulation
import GeoAnchorKitTestSupport

/// ``FITReader`` on GPSBabel 1.8.0's FIT and on a file written from the FIT protocol
/// (scripts/dev/fit_fixtures.sh). Reference: fitdecode 0.11's decoding of each (the `.ref.json`
/// beside it: timestamps, semicircles, m, m/s), with Garmin's FIT SDK checking the files'
/// integrity; and the GPX GPSBabel converted.
@Suite("FIT reader")
struct FITReaderTests {
    static let dir = SharedData.repositoryRoot.appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/Traces/FIT")

    struct Reference: Decodable {
        struct Record: Decodable { var timestamp: Double; var position_lat: Double?; var position_long: Double?; var altitude: Double?; var speed: Double? }
        var parts: [[Record]]
    }

    static func reference(_ name: String) throws -> [Reference.Record] {
        try JSONDecoder().decode(Reference.self, from: Data(contentsOf: dir.appendingPathComponent(name + ".ref.json"))).parts.flatMap { $0 }
    }

    static func read(_ name: String) throws -> ([Fix], TraceReadSummary) {
        var fixes: [Fix] = []
        let s = try TraceReader.read(url: dir.appendingPathComponent(name), onFix: { fixes.append($0) })
        return (fixes, s)
    }

    /// Every record with a position is a fix with the reference's time, position (1e-12° of
    /// the semicircles' conversion), MSL altitude (1e-9 m) and speed; the record without a
    /// position is counted, not a fix. Covers big-endian definitions, a developer field,
    /// compressed timestamps (one rolling over the 32-s window) and a chained second file.
    @Test(arguments: ["features", "walk.gpsbabel"]) func recordsAsTheReferenceDecodes(name: String) throws {
        let ref = try Self.reference(name)
        let (fixes, s) = try Self.read(name + ".fit")
        let positioned = ref.filter { $0.position_lat != nil && $0.position_long != nil }
        #expect(fixes.count == positioned.count && fixes.count >= 4)
        #expect(s.fixes == fixes.count && s.ignoredRecords == ref.count - positioned.count)
        for (f, r) in zip(fixes, positioned) {
            #expect(f.time == FITReader.epoch + r.timestamp)
            #expect(abs(f.latitude - r.position_lat! * 180 / 2_147_483_648) < 1e-12)
            #expect(abs(f.longitude - r.position_long! * 180 / 2_147_483_648) < 1e-12)
            #expect(f.verticalReference == (r.altitude == nil ? f.verticalReference : .meanSeaLevel))
            #expect(abs((f.height ?? .nan) - (r.altitude ?? .nan)) < 1e-9 || (f.height == nil && r.altitude == nil))
            #expect(f.speed.map { abs($0 - (r.speed ?? .nan)) < 1e-12 } ?? (r.speed == nil))
        }
    }

    /// GPSBabel's FIT keeps the GPX's fixes: times exact, positions within FIT's semicircle
    /// resolution (8.4e-8°) of GPSBabel's 7-decimal rounding, heights within its 0.2 m
    /// quantisation (plus GPSBabel's own rounding).
    @Test func gpsBabelFITIsTheGPX() throws {
        let (fixes, _) = try Self.read("walk.gpsbabel.fit")
        let gpx = try GPSBabelTraceTests.gpx()
        #expect(fixes.count == gpx.count)
        for (a, b) in zip(fixes, gpx) {
            #expect(a.time == b.time)
            #expect(abs(a.latitude - b.latitude) < 2e-7 && abs(a.longitude - b.longitude) < 2e-7)
            #expect(abs((a.height ?? .nan) - (b.height ?? .nan)) <= 0.3)
        }
    }

    /// Problems name the byte offset; the CRC is checked; a FIT output is refused.
    @Test func problems() throws {
        let bytes = Array(try Data(contentsOf: Self.dir.appendingPathComponent("features.fit")))
        func refusal(_ b: [UInt8]) -> String {
            do { _ = try FITReader.read(data: Data(b), source: "f.fit", onFix: { _ in }); return "read" } catch { return "\(error)" }
        }
        #expect(refusal(bytes) == "read")
        #expect(refusal(Array(bytes.prefix(10))) == "f.fit: at byte 0: not a FIT file: 10 bytes, shorter than a FIT header")
        #expect(refusal(Array("hello, this is not FIT at all".utf8)) == "f.fit: at byte 0: not a FIT file (no '.FIT' signature in a 12- or 14-byte header)")
        var flipped = bytes; flipped[40] ^= 0x01
        #expect(refusal(flipped).contains("does not match the data's"))
        #expect(refusal(Array(bytes.prefix(100))).contains("truncated?"))
        // A compressed timestamp rolling over past 2³² (a corrupt last timestamp 0xFFFFFFF0 with
        // offset 0x05 < 0x10): no trap; the record's time wraps and is read.
        var fit: [UInt8] = [12, 0x10, 0, 0, 0, 0, 0, 0] + Array(".FIT".utf8)
        fit += [0x40, 0, 0, 20, 0, 3, 253, 4, 0x86, 0, 4, 0x85, 1, 4, 0x85]        // record: timestamp, lat, long
        fit += [0x00, 0xF0, 0xFF, 0xFF, 0xFF, 0, 0, 0, 0, 0, 0, 0, 0]             // t = 0xFFFFFFF0 at 0°, 0°
        fit += [0x40 | 1, 0, 0, 20, 0, 2, 0, 4, 0x85, 1, 4, 0x85]                  // local 1: lat, long only
        fit += [0x80 | (1 << 5) | 0x05, 0, 0, 0, 0, 0, 0, 0, 0]                   // compressed: offset 5
        let size = fit.count - 12
        fit[4] = UInt8(size & 0xFF); fit[5] = UInt8(size >> 8)
        let crc = FITReader.crc16(fit[...])
        fit += [UInt8(crc & 0xFF), UInt8(crc >> 8)]
        var times: [Double] = []
        _ = try FITReader.read(data: Data(fit), source: "wrap.fit", onFix: { times.append($0.time) })
        #expect(times == [FITReader.epoch + 4_294_967_280, FITReader.epoch + 5])
        #expect(throws: TraceFormatError.self) { _ = try TraceWriter(url: nil, format: .fit) }
        #expect(TraceFormat(pathExtension: "FIT") == .fit && !TraceFormat.writable.contains(.fit))
    }

    /// Seeded mutations (as GNSSReaderFuzzTests): read with valid fixes, or refused with a
    /// TraceFormatError naming the mutant — never a trap. (CRC-checked files refuse most.)
    @Test func mutants() throws {
        try GNSSReaderFuzzTests.expectMutantsReadOrRefused(["features.fit", "walk.gpsbabel.fit"].map { Self.dir.appendingPathComponent($0) },
                                                           seed: 0xF17, count: 150) { data, source in
            var fixes: [Fix] = []
            _ = try FITReader.read(data: data, source: source, onFix: { fixes.append($0) })
            return fixes
        }
    }
}
