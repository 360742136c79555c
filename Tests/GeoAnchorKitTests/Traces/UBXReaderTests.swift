import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport

/// ``UBXReader`` on a u-blox log written by pyubx2 (scripts/dev/ubx_fixtures.py: NAV-PVT, NAV-DOP
/// and NMEA interleaved as an F9P logs them, from traces/zavist-tour.raw.csv's first 30 fixes).
/// References: pyubx2's own decoding of the log (rover.ref.json) and the project trace.
@Suite("UBX reader")
struct UBXReaderTests {
    static let dir = GeoJSONTests.other

    struct PVT: Decodable {
        var year: Int, month: Int, day: Int, hour: Int, min: Int, second: Int, nano: Int
        var validDate: Int, validTime: Int, fixType: Int, gnssFixOk: Int, diffSoln: Int, carrSoln: Int, numSV: Int
        var lat: Double, lon: Double, height: Double, hMSL: Double, hAcc: Double, vAcc: Double, gSpeed: Double, headMot: Double, pDOP: Double
    }

    /// Every NAV-PVT with a fix and a valid time is a fix with pyubx2's values: UTC + nano
    /// (1e-9 s of the double sum), lat/lon (1e-12°: pyubx2 scales by 1e-7 too), the ellipsoidal
    /// height and N = height − hMSL (mm → m), hAcc/vAcc, gSpeed, headMot, numSV, pDOP, the
    /// quality from carrSoln/diffSoln; the two without (no fix, no valid time) are counted. The
    /// interleaved NAV-DOP and NMEA (the same fixes again) are read past.
    @Test func navPVTAsPyUBX2DecodesIt() throws {
        let ref = try JSONDecoder().decode([PVT].self, from: Data(contentsOf: Self.dir.appendingPathComponent("rover.ref.json")))
        var fixes: [Fix] = []
        let s = try TraceReader.read(url: Self.dir.appendingPathComponent("rover.ubx"), onFix: { fixes.append($0) })
        let usable = ref.filter { $0.gnssFixOk == 1 && $0.fixType >= 2 && $0.validTime == 1 && $0.validDate == 1 }
        #expect(ref.count == 30 && usable.count == 28 && fixes.count == 28)
        #expect(s.fixes == 28 && s.ignoredRecords == 2)
        for (f, r) in zip(fixes, usable) {
            let days = ByteParsing.daysFromCivil(year: r.year, month: r.month, day: r.day)
            #expect(abs(f.time - (Double(days * 86_400 + r.hour * 3600 + r.min * 60 + r.second) + Double(r.nano) * 1e-9)) < 1e-9)
            #expect(abs(f.latitude - r.lat) < 1e-12 && abs(f.longitude - r.lon) < 1e-12)
            #expect(f.height == r.height / 1000 && f.verticalReference == .ellipsoid && abs(f.geoidSeparation! - (r.height - r.hMSL) / 1000) < 1e-9)
            #expect(f.horizontalAccuracy == r.hAcc / 1000 && f.verticalAccuracy == r.vAcc / 1000)
            #expect(f.speed == r.gSpeed / 1000 && abs(f.course! - r.headMot) < 1e-9 && f.satellites == r.numSV && f.pdop == r.pDOP)
            #expect(f.quality == (r.carrSoln == 2 ? .rtkFixed : r.carrSoln == 1 ? .rtkFloat : r.diffSoln == 1 ? .differential : .gps))
        }
    }

    /// The fixes are the trace's, positions within the 1e-7° the log keeps (pyubx2 truncates),
    /// MSL heights (h − N) within 1 mm, times within the ±12 µs the log adds.
    @Test func theTraceTheyCameFrom() throws {
        let fixes = try TraceReader.load(url: Self.dir.appendingPathComponent("rover.ubx")).fixes
        let trace = Array(try TraceReader.load(url: SharedData.repositoryRoot.appendingPathComponent("traces/zavist-tour.raw.csv")).fixes.prefix(30))
        let kept = trace.enumerated().filter { $0.offset != 3 && $0.offset != 7 }.map(\.element)
        #expect(fixes.count == kept.count)
        for (f, t) in zip(fixes, kept) {
            #expect(abs(f.time - t.time) <= 12e-6 + 1e-9 && abs(f.latitude - t.latitude) < 1.01e-7 && abs(f.longitude - t.longitude) < 1.01e-7)
            #expect(abs(f.height! - f.geoidSeparation! - t.height!) < 1e-3)
        }
    }

    /// A log of NMEA only (NAV-PVT disabled) gives its NMEA fixes — the trace's 30, to the
    /// sentences' 6 decimals of minutes (1e-8° · 60 / 60 ≈ 2e-8°).
    @Test func nmeaOnlyLog() throws {
        let fixes = try TraceReader.load(url: Self.dir.appendingPathComponent("nmea-only.ubx")).fixes
        let trace = Array(try TraceReader.load(url: SharedData.repositoryRoot.appendingPathComponent("traces/zavist-tour.raw.csv")).fixes.prefix(30))
        #expect(fixes.count == 30)
        for (f, t) in zip(fixes, trace) { #expect(f.time == t.time && abs(f.latitude - t.latitude) < 2e-8) }
    }

    /// A frame with a wrong checksum names its byte offset (skipInvalid: skipped, counted, the
    /// reader resynchronises on the next frame); a log cut inside a frame says so; UBX output is
    /// refused by name; mutants read or are refused, never trap.
    @Test func problems() throws {
        var b = [UInt8](try Data(contentsOf: Self.dir.appendingPathComponent("rover.ubx")))
        // The first NAV-PVT follows the first NAV-DOP (8 + 18 bytes): damage its latitude.
        let pvt = 8 + 18
        #expect(b[pvt] == 0xB5 && b[pvt + 2] == 0x01 && b[pvt + 3] == 0x07)
        b[pvt + 6 + 28] ^= 0x55
        func read(_ bytes: [UInt8], _ o: TraceReadConfiguration = TraceReadConfiguration()) throws -> ([Fix], TraceReadSummary) {
            var fixes: [Fix] = []
            let s = try UBXReader.read(data: Data(bytes), source: "r.ubx", options: o, onFix: { fixes.append($0) })
            return (fixes, s)
        }
        #expect { _ = try read(b) } throws: { e in
            (e as? TraceFormatError)?.message.hasPrefix("at byte \(pvt): UBX checksum") == true
        }
        let (kept, s) = try read(b, TraceReadConfiguration(skipInvalid: true))
        #expect(kept.count == 27 && s.skippedLines == 1)
        let cut = Array(try Data(contentsOf: Self.dir.appendingPathComponent("rover.ubx")).prefix(pvt + 50))
        #expect { _ = try read(cut) } throws: { e in
            (e as? TraceFormatError)?.message == "at byte \(pvt): log ends inside a UBX frame (class 0x01, id 0x07: 92 payload bytes announced, 42 left)"
        }
        #expect(TraceFormat(fileName: "rover.UBX") == .ubx && !TraceFormat.writable.contains(.ubx))
        try GNSSReaderFuzzTests.expectMutantsReadOrRefused([Self.dir.appendingPathComponent("rover.ubx")], seed: 0x0B5, count: 150) { data, source in
            var fixes: [Fix] = []
            _ = try UBXReader.read(data: data, source: source, onFix: { fixes.append($0) })
            return fixes
        }
    }
}
