import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport

/// Android GnssLogger logs from gnss_lib_py's and Google's test data (../shared/data/gnss_traces).
@Suite("GnssLogger reader", .enabled(if: SharedData.shouldRun))
struct GnssLoggerReaderTests {
    static let pixel6 = "gnss_traces/gnss_lib_py_samples/android/measurements/pixel6.txt"
    static let pixel4 = "gnss_traces/gnss_lib_py_samples/google_decimeter_2021/Pixel4_GnssLog.txt"

    func read(_ path: String, _ options: TraceReadConfiguration = TraceReadConfiguration()) throws -> (Trace, TraceReadSummary) {
        var t = Trace()
        let s = try TraceReader.read(url: SharedData.url(path), options: options,
                                     onFix: { t.fixes.append($0) }, onSensor: { t.sensors.append($0) })
        return (t, s)
    }

    /// The log's own `Fix,<provider>,…` lines split on commas (independent of the reader):
    /// (lat, lon, altitude, accuracy, unix ms).
    func fixLines(_ path: String, provider: String) throws -> [[String]] {
        try SharedData.text(path).split(whereSeparator: \.isNewline)
            .filter { $0.hasPrefix("Fix,\(provider),") }
            .map { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    /// Reference: the log's text (grep: 94 `Fix,GPS`, 95 `Fix,FLP`, 54 `Fix,NLP`); values equal
    /// `Double(String)` of the fields exactly; AltitudeMeters is ellipsoidal (Android Location).
    @Test func pixel6Providers() throws {
        for (provider, name, count) in [(GnssLoggerProvider.gps, "GPS", 94), (.fused, "FLP", 95), (.network, "NLP", 54)] {
            let (t, s) = try read(Self.pixel6, TraceReadConfiguration(provider: provider))
            let lines = try fixLines(Self.pixel6, provider: name)
            #expect(t.fixes.count == count && lines.count == count)
            #expect(s.otherProviderFixes == 243 - count)
            #expect(s.rawMeasurements == 930)
            for (f, l) in zip(t.fixes, lines) {
                #expect(f.latitude == Double(l[2]) && f.longitude == Double(l[3]))
                #expect(f.height == Double(l[4]) && f.verticalReference == .ellipsoid && f.ellipsoidalHeight == Double(l[4]))
                #expect(f.horizontalAccuracy == Double(l[6]))
                #expect(f.time == Double(l[8])! / 1000)
                #expect(f.verticalAccuracy == (l[12].isEmpty ? nil : Double(l[12])))
            }
        }
        #expect(try read(Self.pixel6, TraceReadConfiguration(provider: .all)).0.fixes.count == 243)
    }

    /// Reference: pixel6.txt has 10 UncalAccel, 10 UncalGyro, 10 UncalMag lines (grep); the first
    /// UncalMag line is `-68.1492,-103.2242,-155.2694` with bias `-79.950134,-76.57953,-113.967804`.
    @Test func uncalibratedSensorsKeepTheirBias() throws {
        let (t, s) = try read(Self.pixel6)
        #expect(s.sensorSamples == 30 && t.sensors.count == 30)
        for k in [SensorKind.uncalibratedAccelerometer, .uncalibratedGyroscope, .uncalibratedMagnetometer] {
            #expect(t.samples(of: k).count == 10)
        }
        #expect(t.sensors.allSatisfy { $0.bias != nil })
        let m = try #require(t.samples(of: .uncalibratedMagnetometer).first)
        #expect(m.x == -68.1492 && m.y == -103.2242 && m.z == -155.2694)
        #expect(m.bias == SIMD3(-79.950134, -76.57953, -113.967804))
        #expect(m.time == 1_699_400_609.588)
    }

    /// Reference: Pixel4_GnssLog.txt line 88 is `Fix,NLP,…,-29co.199999,…` (malformed on purpose by
    /// the GSDC 2021 authors); it fails whichever provider is selected; skipped, the GPS fixes of
    /// lines 90–91 remain. Sensors: 22 Accel, 22 Gyro, 7 Mag lines (grep), v2 header names.
    @Test func pixel4MalformedFix() throws {
        for p in GnssLoggerProvider.allCases {
            do {
                _ = try read(Self.pixel4, TraceReadConfiguration(provider: p))
                Issue.record("malformed Fix accepted with provider \(p)")
            } catch let e as TraceFormatError {
                #expect(e.line == 88 && e.source.hasSuffix("Pixel4_GnssLog.txt") && e.message.contains("-29co.199999"))
            }
        }
        let (t, s) = try read(Self.pixel4, TraceReadConfiguration(skipInvalid: true))
        #expect(s.skippedLines == 1 && t.fixes.count == 2)
        #expect(t.fixes.map(\.height) == [-32.830566, -32.829407])
        #expect(t.samples(of: .accelerometer).count == 22 && t.samples(of: .gyroscope).count == 22 && t.samples(of: .magnetometer).count == 7)
        #expect(t.sensors.allSatisfy { $0.bias == nil })
    }

    /// The GSDC 2023 gnss_log.txt sample holds only Raw and Mag records (no Fix, no NMEA):
    /// no fixes, 180 Raw counted, 1 magnetometer sample. gnss_lib_py's all_sensors.txt: one
    /// record of each sensor type.
    @Test func otherLogs() throws {
        let (t, s) = try read("gnss_traces/gnss_lib_py_samples/google_decimeter_2023/2023-09-07-18-59-us-ca/pixel7pro/gnss_log.txt")
        #expect(t.fixes.isEmpty && s.rawMeasurements == 180 && t.sensors.count == 1)
        let (a, _) = try read("gnss_traces/gnss_lib_py_samples/android/measurements/all_sensors.txt")
        #expect(Set(a.sensors.map(\.kind)) == Set(SensorKind.allCases))
    }

    /// GnssLogger 1.4 (2016, Google's gps-measurement-tools samples): the header names the Fix
    /// columns `Latitude,Longitude,Altitude,Speed,Accuracy,(UTC)TimeInMs`. Reference: the files'
    /// own lines (grep: 216 and 207 `Fix,gps` records; the first of the August log is
    /// `Fix,gps,37.422604,-122.081709,-19.820693,0.000000,4.000000,1471902355999`), exact.
    @Test func gnssLogger14Fixes() throws {
        let dir = "gnss_raw/google_gps_measurement_tools/"
        let (june, _) = try read(dir + "pseudoranges_log_2016_06_30_21_26_07.txt")
        let (august, s) = try read(dir + "pseudoranges_log_2016_08_22_14_45_50.txt")
        #expect(june.fixes.count == 216 && august.fixes.count == 207 && s.rawMeasurements > 0)
        let f = try #require(august.fixes.first)
        #expect(f.time == 1_471_902_355.999 && f.latitude == 37.422604 && f.longitude == -122.081709)
        #expect(f.height == -19.820693 && f.verticalReference == .ellipsoid && f.speed == 0 && f.horizontalAccuracy == 4)
        // A header without the time column: the error says so (not "missing value").
        let text = "# Fix,Provider,Latitude,Longitude\nFix,gps,37.4,-122.0\n"
        #expect {
            _ = try GnssLoggerReader.read(ByteLineReader(data: Data(text.utf8), source: "x.txt"), fixSource: .fixRecords, onFix: { _ in })
        } throws: { e in
            (e as? TraceFormatError)?.message.contains("header line has no UnixTimeMillis column") == true
        }
    }

    /// Content decides: a GnssLogger file with only NMEA records gives the NMEA fixes (the
    /// pixel6.nmea sample), a log with Fix records the Fix records, a plain NMEA file is NMEA.
    @Test func detectionByContent() throws {
        #expect(GnssLoggerReader.fixSource(of: SharedData.url(Self.pixel6)) == .fixRecords)
        #expect(GnssLoggerReader.fixSource(of: SharedData.url("gnss_traces/gnss_lib_py_samples/android/nmea/pixel6.nmea")) == .nmea)
        #expect(GnssLoggerReader.fixSource(of: SharedData.url("gnss_traces/gsdc2020_AILocAR/2020-05-14-US-MTV-1/Pixel4_chipset.nmea")) == nil)
        let nmeaText = try SharedData.text("gnss_traces/gnss_lib_py_samples/android/nmea/pixel6.nmea")
        var direct: [Fix] = []
        var parser = NMEAParser(source: "x")
        for (i, l) in nmeaText.split(whereSeparator: \.isNewline).enumerated() {
            var line = String(l)
            try line.withUTF8 { try parser.parse(line: $0, lineNumber: i + 1, into: &direct) }
        }
        try parser.finish(into: &direct)
        let (t, _) = try read("gnss_traces/gnss_lib_py_samples/android/nmea/pixel6.nmea")
        #expect(!t.fixes.isEmpty && t.fixes == direct)
    }

    /// Headers decide the columns: a log whose Fix header puts UnixTimeMillis first is read by name;
    /// without any header the v2 default layout applies.
    @Test func columnsByHeaderName() throws {
        let byName = "# Fix,UnixTimeMillis,Provider,LongitudeDegrees,LatitudeDegrees,AccuracyMeters\nFix,1000,GPS,14.39,49.96,3.5\n"
        var f: [Fix] = []
        _ = try GnssLoggerReader.read(ByteLineReader(data: Data(byName.utf8), source: "h.txt"), fixSource: .fixRecords) { f.append($0) }
        #expect(f == [Fix(time: 1, latitude: 49.96, longitude: 14.39, horizontalAccuracy: 3.5)])
        let noHeader = "Fix,GPS,49.96,14.39,300.5,1.5,4,90,2000,0.1,5\nAccel,2000,123,0.1,0.2,9.8\n"
        var g: [Fix] = [], s: [SensorSample] = []
        _ = try GnssLoggerReader.read(ByteLineReader(data: Data(noHeader.utf8), source: "d.txt"), fixSource: .fixRecords,
                                      onFix: { g.append($0) }, onSensor: { s.append($0) })
        #expect(g == [Fix(time: 2, latitude: 49.96, longitude: 14.39, height: 300.5, verticalReference: .ellipsoid,
                          horizontalAccuracy: 4, speed: 1.5, course: 90)])
        #expect(s == [SensorSample(time: 2, kind: .accelerometer, x: 0.1, y: 0.2, z: 9.8)])
        for bad in ["Fix,GPS,91,14,0,0,1,0,1000,0,0\n", "Fix,GPS,49,14,0,-1,1,0,1000,0,0\n", "Fix,GPS,49,0x10,0,0,1,0,1000,0,0\n",
                    "Accel,1000,1,nan,0,0\n", "Fix,,49,14,0,0,1,0,1000,0,0\n"] {
            #expect(throws: TraceFormatError.self, "\(bad)") {
                _ = try GnssLoggerReader.read(ByteLineReader(data: Data(bad.utf8), source: "b.txt"), fixSource: .fixRecords) { _ in }
            }
        }
    }
}
