import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport

@Suite("CSV trace reader")
struct CSVTraceReaderTests {
    func read(_ text: String, options: TraceReadConfiguration = TraceReadConfiguration()) throws -> (Trace, TraceReadSummary) {
        var t = Trace()
        let s = try CSVTraceReader.read(ByteLineReader(data: Data(text.utf8), source: "t.csv"), options: options,
                                        onFix: { t.fixes.append($0) }, onSensor: { t.sensors.append($0) })
        return (t, s)
    }

    /// Project layout: ISO 8601 and Unix-seconds times, MSL altitude. Reference: the values
    /// written in the text; 2026-11-21T12:00:00Z = 1795262400 (`date -u -d 2026-11-21T12:00:00Z +%s`).
    @Test func projectLayout() throws {
        let (t, s) = try read("""
        time,latitude,longitude,altitude,geoid_separation,horizontal_accuracy,speed,course,heading,heading_accuracy
        2026-11-21T12:00:00Z,49.96,14.39,380.5,45.6,4.5,1.3,-10,370,12
        1795262401.5,49.9601,14.3901,,,,,,,
        """)
        #expect(s.fixes == 2)
        #expect(t.fixes[0].time == 1_795_262_400)
        #expect(t.fixes[1].time == 1_795_262_401.5)
        #expect(t.fixes[0].verticalReference == .meanSeaLevel && t.fixes[0].ellipsoidalHeight == 380.5 + 45.6)
        #expect(t.fixes[0].course == 350 && t.fixes[0].heading == 10)
        #expect(t.fixes[1].height == nil && t.fixes[1].speed == nil)
    }

    @Test(arguments: [
        ("2026-11-21T12:00:00Z,95,14.39", "latitude 95.0 is outside"),
        ("2026-11-21T12:00:00Z,49,190", "longitude 190.0 is outside"),
        ("2026-02-30T12:00:00Z,49,14", "impossible date 2026-2-30"),
        ("2026-11-21T12:00:00Z,NaN,14", "not a finite number"),
        ("2026-11-21T12:00:00Z,49.0,abc", "longitude 'abc' is not a number"),
        ("2026-11-21T12:00:00Z,49.0", "row has 2 field(s), the header has 3"),
        ("2026-11-21T12:00:00Z,49.0,14,", "row has 4 field(s)"),
    ])
    func badRows(row: String, expected: String) throws {
        let text = "time,latitude,longitude\n2026-11-21T11:59:59Z,49,14\n\(row)\n"
        do {
            _ = try read(text)
            Issue.record("accepted \(row)")
        } catch let e as TraceFormatError {
            #expect(e.line == 3 && e.message.contains(expected), "\(e)")
        }
        let (t, s) = try read(text, options: TraceReadConfiguration(skipInvalid: true))
        #expect(t.fixes.count == 1 && s.skippedLines == 1)
    }

    @Test func emptyAndMissingColumns() {
        #expect(throws: TraceFormatError.self) { try read("") }
        #expect(throws: TraceFormatError.self) { try read("time,lat,lon\n1,2,3\n") }
    }

    @Test func sensors() throws {
        let (t, _) = try read("time,sensor,x,y,z\n1.0,magnetometer,20,-3,-40\n1.01,gyroscope,0.01,0,0\n")
        #expect(t.sensors.count == 2 && t.sensors[0].kind == .magnetometer && t.sensors[1].x == 0.01)
    }

    /// GSDC 2022 ground_truth.csv: first row 37.395817, −122.102916, AltitudeMeters −4.488
    /// (ellipsoidal per SOURCES.md), UnixTimeMillis 1619735725999 — read as written.
    @Test(.enabled(if: SharedData.shouldRun)) func gsdcGroundTruth() throws {
        let t = try TraceReader.load(url: SharedData.url("gnss_traces/gnss_lib_py_samples/google_decimeter_2022/ground_truth.csv"))
        #expect(t.fixes.count > 100)
        let f = t.fixes[0]
        #expect(f.latitude == 37.395817 && f.longitude == -122.102916)
        #expect(f.verticalReference == .ellipsoid && f.height == -4.488)
        #expect(f.time == 1_619_735_725.999)
        // The NaN-altitude fixture parses with heights absent.
        let n = try TraceReader.load(url: SharedData.url("gnss_traces/gnss_lib_py_samples/google_decimeter_2022/alt_nan_ground_truth.csv"))
        #expect(n.fixes.count > 0 && n.fixes.allSatisfy { $0.height == nil })
    }

    /// GSDC 2021 ground truth: GPS milliseconds → UTC with 18 leap seconds. Reference: the same
    /// drive's SPAN NMEA starts at 2020-05-14T22:01:34Z (SOURCES.md); 1273529463442 ms GPS =
    /// 1589494245.442 UTC (315964800 + 1273529463.442 − 18, hand arithmetic).
    @Test(.enabled(if: SharedData.shouldRun)) func gsdc2021GroundTruth() throws {
        let t = try TraceReader.load(url: SharedData.url("gnss_traces/gnss_lib_py_samples/google_decimeter_2021/Pixel4_ground_truth.csv"))
        #expect(t.fixes.count == 199)
        #expect(abs(t.fixes[0].time - 1_589_494_245.442) < 1e-6)
        #expect(t.fixes[0].latitude == 37.4235759540 && t.fixes[0].hdop == 1.10)
    }

    /// device_gnss.csv: one fix per epoch from the WLS ECEF position; reference: geodetic of
    /// the first row's ECEF (−2696236.766, −4297680.734, 3852385.341) ≈ 37.3959 N, −122.103 E
    /// by the closed-form Vermeille inverse (the Geodesy tests check it against PROJ), and the
    /// ground truth of the same drive (first GT fix 37.395817, −122.102916) within 20 m.
    @Test(.enabled(if: SharedData.shouldRun)) func deviceGNSS() throws {
        let t = try TraceReader.load(url: SharedData.url("gnss_traces/gnss_lib_py_samples/google_decimeter_2022/device_gnss.csv"))
        #expect(t.fixes.count > 1)
        let times = t.fixes.map(\.time)
        #expect(Set(times).count == times.count)
        let f = t.fixes[0]
        #expect(abs(f.latitude - 37.395817) < 2e-4 && abs(f.longitude + 122.102916) < 2e-4)
    }
}
