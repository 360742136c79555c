import Foundation
import Testing
@testable import GeoAnchorKit

@Suite("Trace writers")
struct TraceWriterTests {
    static let fixes: [Fix] = [
        Fix(time: 1_795_262_400.125, latitude: 49.9612345678, longitude: 14.3912345678, height: 380.25,
            verticalReference: .meanSeaLevel, geoidSeparation: 45.5, horizontalAccuracy: 4.2, verticalAccuracy: 6,
            speed: 1.3, course: 87.5, heading: 92.25, quality: .gps, satellites: 11, hdop: 0.9, vdop: 1.4, pdop: 1.7),
        Fix(time: 1_795_262_401.125, latitude: -33.5, longitude: -70.75, height: 12.5, verticalReference: .ellipsoid,
            geoidSeparation: 20.75),
    ]

    func roundTrip(_ format: TraceFormat) throws -> [Fix] {
        var data = Data()
        let w = TraceWriter(format: format) { data.append($0) }
        for f in Self.fixes { try w.write(f) }
        try w.finish()
        switch format {
        case .nmea: return try NMEAReader.fixes(from: String(decoding: data, as: UTF8.self))
        case .csv:
            var out: [Fix] = []
            _ = try CSVTraceReader.read(ByteLineReader(data: data, source: "w.csv"), onFix: { out.append($0) })
            return out
        case .gpx:
            var out: [Fix] = []
            _ = try GPXReader.read(data: data, source: "w.gpx", onFix: { out.append($0) })
            return out
        case .geojson:
            var out: [Fix] = []
            _ = try GeoJSONTrace.fixes(from: try GeoJSONFeatureCollection.decode(data), source: "w", onFix: { out.append($0) })
            return out
        case .kml, .fit, .tcx, .ubx:
            Issue.record("\(format) is not written (TraceFormat.writable)")
            return []
        }
    }

    /// Write → read round trip per format. Reference: the input values. Tolerances are the
    /// formats' resolutions: NMEA 1e-7 minutes (≈ 1.7e-9°), 1 mm heights, 1 ms times, speed
    /// 0.001 kn; CSV/GPX/GeoJSON shortest round-trip decimals (exact), times 1 ms.
    @Test(arguments: TraceFormat.writable)
    func roundTrip(format: TraceFormat) throws {
        let out = try roundTrip(format)
        #expect(out.count == 2, "\(format)")
        guard out.count == 2 else { return }
        for (a, b) in zip(Self.fixes, out) {
            #expect(abs(a.time - b.time) <= 1e-3)
            #expect(abs(a.latitude - b.latitude) <= 2e-9 && abs(a.longitude - b.longitude) <= 2e-9)
            #expect(abs(a.ellipsoidalHeight! - b.ellipsoidalHeight!) <= 1e-3, "\(format) \(a.ellipsoidalHeight!) \(b.ellipsoidalHeight!)")
        }
        let f = out[0]
        #expect(abs(f.speed! - 1.3) < 1e-3 && abs(f.course! - 87.5) < 1e-2, "\(format)")
        #expect(abs(f.horizontalAccuracy! - 4.2) < 2e-3 && abs(f.verticalAccuracy! - 6) < 1e-3, "\(format)")
        #expect(abs(f.heading! - 92.25) < 1e-2, "\(format)")
        if format != .gpx { #expect(f.quality == .gps) }
        #expect(f.satellites == 11 || format == .nmea && f.satellites == 11)
    }

    /// A CSV has one vertical column: a fix in the other reference without N is an error
    /// naming the fix, not a silently wrong height.
    @Test func csvMixedReferences() throws {
        let w = TraceWriter(format: .csv) { _ in }
        try w.write(Self.fixes[0])
        #expect(throws: TraceFormatError.self) {
            try w.write(Fix(time: 0, latitude: 0, longitude: 0, height: 1, verticalReference: .ellipsoid))
        }
    }

    /// NMEA output is valid 0183: checksums verified by the strict reader, ddmm carry at 60'.
    @Test func nmeaMinuteCarry() {
        // 0.99999999999° = 59.9999999994' rounds to 60.0000000' → carried to 01°00.0000000'.
        #expect(TraceWriter.ddmm(0.99999999999, degreeDigits: 2) == "0100.0000000")
        #expect(TraceWriter.ddmm(14.5, degreeDigits: 3) == "01430.0000000")
    }
}
