import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport

@Suite("NMEA 0183 parser")
struct NMEAParserTests {
    /// Reference: hand decoding by the NMEA 0183 field definitions (ddmm.mmmm → dd + mm/60;
    /// knots × 1852/3600; ddmmyy date). Sentences from the GSDC SPAN file (whose RMC checksums are wrong) with the checksums of
    /// gnss_lib_py's `nmea_w_correct_checksum.nmea` fixture. Tolerance 1e-12° (rounding only).
    @Test func ggaRmcEpochMerged() throws {
        let text = """
        $GPGGA,220134.00,3725.4168121,N,12205.6498009,W,1,14,1.0,2.70,M,-32.64,M,,*53
        $GPRMC,220134.00,A,3725.417,N,12205.650,W,0.0,192.8,140520,,,A*4C
        $GPGGA,220134.10,3725.4168119,N,12205.6498010,W,1,14,1.0,2.70,M,-32.64,M,,*51
        $GPRMC,220134.10,A,3725.417,N,12205.650,W,0.0,192.8,140520,,,A*4D
        """
        let fixes = try NMEAReader.fixes(from: text)
        #expect(fixes.count == 2)
        let f = fixes[0]
        #expect(abs(f.latitude - (37 + 25.4168121 / 60)) < 1e-12)       // GGA's 7 decimals, not RMC's 3
        #expect(abs(f.longitude + (122 + 5.6498009 / 60)) < 1e-12)
        // 2020-05-14 22:01:34 UTC = 1589493694 (date command: date -u -d @1589493694).
        #expect(f.time == 1_589_493_694)
        #expect(abs(fixes[1].time - 1_589_493_694.1) < 1e-6)
        #expect(f.height == 2.70 && f.verticalReference == .meanSeaLevel && f.geoidSeparation == -32.64)
        #expect(abs(f.ellipsoidalHeight! - (2.70 - 32.64)) < 1e-12)
        #expect(f.quality == .gps && f.satellites == 14 && f.hdop == 1.0)
        #expect(f.speed == 0 && f.course == 192.8)
    }

    /// The GGA precedes the RMC carrying the date; the first epoch gets the date too, and a
    /// GGA-only epoch after midnight rolls the date forward.
    @Test func dateCarriedAndMidnight() throws {
        let text = """
        $GPGGA,235959.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,
        $GPRMC,235959.00,A,4807.038,N,01131.000,E,022.4,084.4,230394,003.1,W
        $GPGGA,000000.00,4807.038,N,01131.000,E,1,08,0.9,545.4,M,46.9,M,,
        """
        let fixes = try NMEAReader.fixes(from: text)
        #expect(fixes.count == 2)
        // 1994-03-23T23:59:59Z = 764467199 (Unix), next second is 1994-03-24T00:00:00Z.
        #expect(fixes[0].time == 764_467_199)
        #expect(fixes[1].time == 764_467_200)
        #expect(abs(fixes[0].speed! - 22.4 * 1852 / 3600) < 1e-12)
        #expect(abs(fixes[0].ellipsoidalHeight! - (545.4 + 46.9)) < 1e-9)
    }

    /// Any talker; GNS, GSA, GST, VTG, HDT, ZDA merged into one fix. Values from NMEA 0183
    /// v4.10 examples; accuracy = √(σlat² + σlon²) (documented DRMS convention).
    @Test func otherSentences() throws {
        let text = """
        $GNZDA,120000.00,21,11,2026,00,00
        $GNGNS,120000.00,4957.6000,N,01423.4000,E,AAN,12,0.8,300.0,45.3,,
        $GNGSA,A,3,01,02,03,04,,,,,,,,,1.5,0.8,1.2
        $GNGST,120000.00,1.0,2.0,1.0,30.0,3.0,4.0,5.0
        $GNVTG,90.0,T,,M,2.0,N,3.6,K,A
        $GPHDT,123.5,T
        """
        let fixes = try NMEAReader.fixes(from: text)
        #expect(fixes.count == 1)
        let f = fixes[0]
        #expect(abs(f.latitude - (49 + 57.6 / 60)) < 1e-12 && abs(f.longitude - (14 + 23.4 / 60)) < 1e-12)
        #expect(f.time == Double(ByteParsing.daysFromCivil(year: 2026, month: 11, day: 21)) * 86_400 + 43_200)
        #expect(f.pdop == 1.5 && f.hdop == 0.8 && f.vdop == 1.2)
        #expect(f.horizontalAccuracy == 5 && f.verticalAccuracy == 5)
        #expect(f.course == 90 && abs(f.speed! - 1) < 1e-12 && f.heading == 123.5)
        #expect(abs(f.ellipsoidalHeight! - 345.3) < 1e-9)
    }

    /// GnssLogger wrapper: the sentence inside `NMEA,…,<unix ms>` is decoded; first lines of
    /// gnss_lib_py's android/nmea/pixel6.nmea (7 Nov 2023 23:42:57 UTC = 1699400577 s).
    @Test func gnssLoggerWrapper() throws {
        let text = """
        NMEA,$GPGGA,234257.00,3725.590397,N,12210.422534,W,1,24,0.4,51.9,M,-28.4,M,,*63,1699400577561
        NMEA,$GPRMC,234257.00,A,3725.590397,N,12210.422534,W,000.0,,071123,,,A*65,1699400577566
        """
        let fixes = try NMEAReader.fixes(from: text)
        #expect(fixes.count == 1)
        #expect(fixes[0].time == 1_699_400_577)
        // GGA-only wrapped sentence: the date comes from the wrapper time.
        let g = try NMEAReader.fixes(from: "NMEA,$GPGGA,234257.00,3725.590397,N,12210.422534,W,1,24,0.4,51.9,M,-28.4,M,,*63,1699400577561")
        #expect(g.count == 1 && g[0].time == 1_699_400_577)
    }

    /// The whole gnss_lib_py Pixel 6 GnssLogger NMEA file: 48 GGA+RMC pairs → 48 fixes, each
    /// within 1 s of its wrapper's Unix milliseconds (the logger stamps sentences as they arrive;
    /// reference: the wrapper field itself).
    @Test(.enabled(if: SharedData.shouldRun)) func pixel6GnssLogger() throws {
        let text = try SharedData.text("gnss_traces/gnss_lib_py_samples/android/nmea/pixel6.nmea")
        let fixes = try NMEAReader.fixes(from: text)
        #expect(fixes.count == 48)
        let wrapper = text.split(whereSeparator: \.isNewline).filter { $0.hasPrefix("NMEA,$GPGGA") }
            .map { Double($0.split(separator: ",").last!)! / 1000 }
        #expect(wrapper.count == 48)
        for (f, w) in zip(fixes, wrapper) { #expect(abs(f.time - w) < 1, "\(f.time) vs \(w)") }
    }

    /// Bad input: each is a typed error naming line and value; with skipInvalid it is counted.
    @Test(arguments: [
        ("$GPGGA,220134.00,3725.4168121,N,12205.6498009,W,1,14,1.0,2.70,M,-32.64,M,,*54", "checksum mismatch"),
        ("$GPGGA,220134.00,9125.0000,N,12205.6498009,W,1,14,1.0,2.70,M,-32.64,M,,", "latitude 91.41"),
        ("$GPGGA,220134.00,3775.0000,N,12205.6498009,W,1,14,1.0,2.70,M,-32.64,M,,", "minutes ≥ 60"),
        ("$GPGGA,220134.00,3725.0000,Q,12205.6498009,W,1,14,1.0,2.70,M,-32.64,M,,", "hemisphere 'Q'"),
        ("$GPGGA,250134.00,3725.0000,N,12205.6498009,W,1,14,1.0,2.70,M,-32.64,M,,", "impossible time"),
        ("$GPRMC,220134.00,A,3725.417,N,12205.650,W,0.0,192.8,300220,,,A", "impossible date '300220'"),
        ("$GPGGA,220134.00,3725.0000,N,12205.6498009,W,1,14,1.0,nan,M,-32.64,M,,", "altitude 'nan'"),
        ("\u{01}\u{02}garbage", "not an NMEA sentence"),
        ("$GPGGA,2201", "not hhmmss"),
    ])
    func badInput(line: String, expected: String) throws {
        let text = "$GPRMC,220133.00,A,3725.417,N,12205.650,W,0.0,192.8,140520,,,A\n" + line + "\n"
        try checkBad(text, expected)
    }

    /// A truncated last line (no checksum after checksummed sentences) is an error.
    @Test func truncatedLine() throws {
        try checkBad("$GPRMC,220133.00,A,3725.417,N,12205.650,W,0.0,192.8,140520,,,A*4B\n$GPGGA,220134.00,3725.4168121,N,12205.6498009,W,1,14,1.0,2.70",
                     "truncated")
    }

    func checkBad(_ text: String, _ expected: String) throws {
        do {
            _ = try NMEAReader.fixes(from: text, source: "bad.nmea")
            Issue.record("accepted: \(text)")
        } catch let e {
            #expect(e.line == 2)
            #expect(e.description.hasPrefix("bad.nmea:2: "))
            #expect(e.message.contains(expected), "\(e)")
        }
        var skipped = TraceReadSummary()
        var n = 0
        skipped = try NMEAReader.read(ByteLineReader(data: Data(text.utf8), source: "bad.nmea"),
                                      options: TraceReadConfiguration(skipInvalid: true)) { _ in n += 1 }
        #expect(skipped.skippedLines == 1)
        #expect(n == 1)
    }

    /// Empty file and a file without any date are errors, not silent empty traces.
    @Test func emptyAndUndated() throws {
        #expect(throws: TraceFormatError.self) { try NMEAReader.fixes(from: "") }
        #expect(throws: TraceFormatError.self) {
            try NMEAReader.fixes(from: "$GPGGA,220134.00,3725.0,N,12205.0,W,1,14,1.0,2.70,M,-32.64,M,,")
        }
        let withDefault = try NMEAReader.fixes(from: "$GPGGA,220134.00,3725.0,N,12205.0,W,1,14,1.0,2.70,M,-32.64,M,,",
                                               options: TraceReadConfiguration(defaultDate: 86_400 * 10))
        #expect(withDefault.map(\.time) == [86_400 * 10 + 79_294])
    }

    /// gnss_lib_py checksum fixtures: the correct file parses, the wrong-checksum file is
    /// rejected at its first line, the no-checksum file parses (and fails with requireChecksum).
    @Test(.enabled(if: SharedData.shouldRun)) func gnssLibPyChecksumFixtures() throws {
        let ok = try NMEAReader.fixes(from: try SharedData.text("nmea/gnss_lib_py_fixtures/nmea_w_correct_checksum.nmea"))
        #expect(ok.count > 0)
        let none = try SharedData.text("nmea/gnss_lib_py_fixtures/nmea_no_checksum.nmea")
        #expect(try NMEAReader.fixes(from: none).count == ok.count)
        #expect(throws: TraceFormatError.self) { try NMEAReader.fixes(from: none, options: TraceReadConfiguration(requireChecksum: true)) }
        do {
            _ = try NMEAReader.fixes(from: try SharedData.text("nmea/gnss_lib_py_fixtures/nmea_w_wrong_checksum.nmea"))
            Issue.record("wrong checksums accepted")
        } catch let e as TraceFormatError {
            #expect(e.message.contains("checksum mismatch"))
        }
    }
}
