import Foundation
import Testing
@testable import GeoAnchorKit

/// The writers' hand-written formatting against the plain paths it replaced.
@Suite("Trace writer fast paths")
struct TraceWriterFastPathTests {
    /// Reference: `String(format: "%.<d>f")` (C printf, exact decimal rounding), on 200 000 values
    /// of all magnitudes and signs plus ties and near-ties; identical text required.
    @Test func fixedMatchesPrintf() {
        var rng = SplitMix64(seed: 13)
        var values: [Double] = [0, -0.0, 0.5, 1.5, 2.5, -0.0005, 0.0005, 0.125, 0.375, 1.0005, 2.675, 1e-9, -1e-9,
                                999.9995, 999_999_999_999.9, 1e15, 1e300, .infinity, -.infinity, .nan]
        for _ in 0..<200_000 {
            let u = Double(rng.next() >> 11) / Double(1 << 53)
            let e = Double(rng.next() % 16) - 6
            let v = (u - 0.5) * 2 * pow(10, e)
            values.append(v)
            values.append((v * 1000).rounded() / 1000 + 0.0005) // near-ties at the third decimal
        }
        for v in values {
            for d in [0, 2, 3, 6] {
                let want = String(format: "%.\(d)f", v)
                let got = TraceWriter.fixed(v, d)
                if got != want { Issue.record("\(v) %.\(d)f: \(got) vs printf \(want)"); return }
            }
        }
    }

    /// Reference: `JSONEncoder` (sorted keys, no escaped slashes) of ``GeoJSONTrace/feature(_:)``,
    /// the writer's previous path; fixes with every optional field present or absent.
    @Test func geoJSONMatchesEncoder() throws {
        var rng = SplitMix64(seed: 7)
        func r(_ scale: Double) -> Double { (Double(rng.next() >> 11) / Double(1 << 53) - 0.3) * scale }
        func maybe(_ v: Double) -> Double? { rng.next() % 3 == 0 ? nil : v }
        let enc = JSONEncoder()
        enc.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        for i in 0..<3000 {
            var f = Fix(time: 1.7e9 + r(1e6), latitude: r(180).clamped(-90, 90), longitude: r(360).clamped(-180, 180))
            f.height = maybe(i % 7 == 0 ? 380 : r(1000))
            f.verticalReference = rng.next() % 2 == 0 ? .ellipsoid : .meanSeaLevel
            f.geoidSeparation = maybe(r(100)); f.horizontalAccuracy = maybe(abs(r(30))); f.verticalAccuracy = maybe(4)
            f.speed = maybe(abs(r(10))); f.course = maybe(abs(r(359))); f.heading = maybe(abs(r(359)))
            f.headingAccuracy = maybe(5); f.satellites = rng.next() % 2 == 0 ? nil : Int(rng.next() % 40)
            f.hdop = maybe(0.9); f.vdop = maybe(1.25); f.pdop = maybe(abs(r(3))); f.quality = rng.next() % 2 == 0 ? nil : .rtkFixed
            var out = Data()
            let w = TraceWriter(format: .geojson) { out.append($0) }
            try w.write(f)
            try w.finish()
            let want = "{\"type\":\"FeatureCollection\",\"features\":[\n"
                + String(decoding: try enc.encode(GeoJSONTrace.feature(f)), as: UTF8.self) + "\n]}\n"
            #expect(String(decoding: out, as: UTF8.self) == want)
        }
    }

    /// Reference: the `<trkpt>` the previous String-interpolation writer produced for this fix
    /// (copied from its output), byte for byte.
    @Test func gpxTrackPoint() throws {
        let f = Fix(time: 1_778_920_200.25, latitude: 49.96, longitude: -14.5, height: 380.5, verticalReference: .meanSeaLevel,
                    geoidSeparation: 45.6, horizontalAccuracy: 3, verticalAccuracy: 4.5, speed: 1.25, course: 90,
                    heading: 91.5, quality: .rtkFixed, satellites: 9, hdop: 0.9, vdop: 1.1, pdop: 1.4)
        var out: [UInt8] = []
        TraceWriter.gpx(f, into: &out)
        #expect(String(decoding: out, as: UTF8.self) == "<trkpt lat=\"49.96\" lon=\"-14.5\"><ele>380.5</ele><time>2026-05-16T08:30:00.250Z</time><geoidheight>45.6</geoidheight><fix>dgps</fix><sat>9</sat><hdop>0.9</hdop><vdop>1.1</vdop><pdop>1.4</pdop><extensions><gpxtpx:TrackPointExtension><gpxtpx:speed>1.25</gpxtpx:speed><gpxtpx:course>90.0</gpxtpx:course></gpxtpx:TrackPointExtension><gak:hacc>3.0</gak:hacc><gak:vacc>4.5</gak:vacc><gak:heading>91.5</gak:heading></extensions></trkpt>\n")
        var bare: [UInt8] = []
        TraceWriter.gpx(Fix(time: 0, latitude: 1, longitude: 2), into: &bare)
        #expect(String(decoding: bare, as: UTF8.self) == "<trkpt lat=\"1.0\" lon=\"2.0\"><time>1970-01-01T00:00:00.000Z</time></trkpt>\n")
    }

    @Test func digits() {
        for (v, w) in [(0, 2), (7, 2), (123, 2), (5, 7), (1_234_567, 3), (Int.max / 10, 1)] {
            var s = ""
            TraceWriter.digits(&s, v, w)
            #expect(s == String(format: "%0\(w)ld", v))
        }
    }
}

private extension Double {
    func clamped(_ a: Double, _ b: Double) -> Double { Swift.min(Swift.max(self, a), b) }
}
