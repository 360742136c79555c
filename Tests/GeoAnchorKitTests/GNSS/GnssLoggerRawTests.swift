import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport

/// GnssLogger `Raw` records: Google's two 2016 static demo logs (gps-measurement-tools, with
/// their GPS nav files). Reference: Google's ProcessGnssMeasScript.m names the site as about
/// 37.422578, −122.081678, −28 m ("a few-metre reference", SOURCES.md), and the phone's own `Fix`
/// records in the same logs.
@Suite("GnssLogger Raw", .enabled(if: SharedData.shouldRun))
struct GnssLoggerRawTests {
    static let dir = "gnss_raw/google_gps_measurement_tools/"
    static let site = (latitude: 37.422578, longitude: -122.081678, height: -28.0)

    func distanceToSite(_ lat: Double, _ lon: Double) -> Double {
        let dn = (lat - Self.site.latitude) * .pi / 180 * 6_356_000
        let de = (lon - Self.site.longitude) * .pi / 180 * 6_378_000 * cos(Self.site.latitude * .pi / 180)
        return (dn * dn + de * de).squareRoot()
    }

    /// The phone's `Fix` positions of a log, read here with a plain split (the library's Fix
    /// reader is another component): median horizontal distance to the site.
    func phoneFixMedian(_ name: String) throws -> Double {
        let text = try SharedData.text(Self.dir + name)
        var d: [Double] = []
        for line in text.split(separator: "\n") where line.hasPrefix("Fix,") {
            let f = line.split(separator: ",")
            if f.count > 3, let la = Double(f[2]), let lo = Double(f[3]) { d.append(distanceToSite(la, lo)) }
        }
        return ErrorStatistics(d).p50
    }

    /// First record of the 2016-06-30 log, by hand: t_Rx = TimeNanos − FullBiasNanos =
    /// 72076939000000 + 1151285108458178048 ns; time of week = that mod 604800 s =
    /// 422785.397178048 s; pseudorange = (422785397178048 − 422785326362991) ns × c = 21 229 820.0 m.
    @Test func pseudorangeOfFirstRecordByHand() throws {
        let log = try GnssLoggerRawLog.read(contentsOf: SharedData.url(Self.dir + "pseudoranges_log_2016_06_30_21_26_07.txt"))
        #expect(log.records == 1379)
        let e0 = try #require(log.epochs.first)
        let g2 = try #require(e0.observations.first { $0.satellite == SatelliteID(system: .gps, number: 2) })
        let expected = Double(422_785_397_178_048 - 422_785_326_362_991) * 1e-9 * GNSSConstants.speedOfLight
        #expect(abs(try #require(g2.pseudorange) - expected) < 1e-3)
        // Doppler = −rate / λ_L1.
        #expect(abs(try #require(g2.doppler) - 384.09503173828125 / (GNSSConstants.speedOfLight / GNSSConstants.l1Frequency)) < 1e-9)
        #expect(g2.cn0 == 31.6)
        // 1151357185.397178048 s after the GPS epoch, GPS − UTC = 17 s in 2016: Unix 1467321968.397178 UTC
        // (the log's first Fix is stamped 1467321969000 ms).
        #expect(abs(GNSSTime.unixUTC(gpsTime: e0.time) - 1_467_321_968.397178) < 1e-5)
    }

    /// Static positions against the site. Measured when written: 2016-06-30 (no carrier phase)
    /// WLS median 8.1 m, filter 2.7 m; 2016-08-22 (with ADR) WLS 5.6 m, filter 0.95 m; the
    /// phone's Fix median is ≈ 4.4 m. Thresholds: measured + ≈ 20 %; the filter must not be
    /// worse than the phone's own Fix (issue 19), the WLS may be (6–8 GPS satellites, no smoothing).
    @Test(arguments: [
        ("pseudoranges_log_2016_06_30_21_26_07.txt", "hour1820.16n", 10.0, 3.3),
        ("pseudoranges_log_2016_08_22_14_45_50.txt", "hour2350.16n", 7.0, 1.2),
    ])
    func staticDemoLogs(log: String, nav: String, wlsMedian: Double, filterMedian: Double) throws {
        let raw = try GnssLoggerRawLog.read(contentsOf: SharedData.url(Self.dir + log))
        let n = try RinexNavigationFile.read(contentsOf: SharedData.url(Self.dir + nav))
        let p = GNSSProcessor(ephemerides: SatelliteEphemerides(navigation: n))
        let wls = p.run(raw.epochs, mode: .wls), flt = p.run(raw.epochs, mode: .filter)
        let w = ErrorStatistics(wls.fixes.map { distanceToSite($0.latitude, $0.longitude) })
        let f = ErrorStatistics(flt.fixes.map { distanceToSite($0.latitude, $0.longitude) })
        let phone = try phoneFixMedian(log)
        #expect(w.p50 <= wlsMedian, "WLS median \(w.p50) m")
        #expect(f.p50 <= filterMedian, "filter median \(f.p50) m")
        #expect(f.p50 <= phone, "filter median \(f.p50) m vs phone Fix \(phone) m")
        #expect(Double(wls.statistics.epochsSolved) >= 0.95 * Double(raw.epochs.count))
        // Heights: ellipsoidal, the site is −28 m; ±10 m for a phone.
        let h = ErrorStatistics(flt.fixes.compactMap { $0.height.map { $0 - Self.site.height } })
        #expect(h.p50 < 10)
    }

    /// Truncated / corrupted logs: typed errors or fewer epochs, never a trap.
    @Test func corruptedLogs() throws {
        let text = try SharedData.text(Self.dir + "pseudoranges_log_2016_06_30_21_26_07.txt")
        let bad = text.replacingOccurrences(of: "422785326362991", with: "4227853x6362991")
        do { _ = try GnssLoggerRawLog.read(data: Data(bad.utf8), source: "bad.txt"); Issue.record("accepted a corrupted record") } catch {
            #expect(error.description.hasPrefix("bad.txt:"))
            #expect(error.description.contains("ReceivedSvTimeNanos '4227853x6362991' is not an integer"))
        }
        let noHeader = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.joined(separator: "\n")
        #expect(throws: TraceFormatError.self) { try GnssLoggerRawLog.read(data: Data(noHeader.utf8), source: "nh.txt") }
        let d = Data(text.utf8)
        for frac in stride(from: 0.0, to: 1.0, by: 0.05) {
            _ = try? GnssLoggerRawLog.read(data: d.prefix(Int(Double(d.count) * frac)), source: "t.txt")
        }
    }

    /// `log` with `field` set to `value` in the first `count` records of GPS satellite `svid`.
    static func edited(_ log: String, svid: Int, field: String, value: String, count: Int) -> String {
        var header: [String] = []
        var left = count
        return log.split(separator: "\n", omittingEmptySubsequences: false).map { line -> String in
            if line.hasPrefix("# Raw,") { header = line.dropFirst(2).split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }; return String(line) }
            guard left > 0, line.hasPrefix("Raw,"), let si = header.firstIndex(of: "Svid"), let fi = header.firstIndex(of: field),
                  let ci = header.firstIndex(of: "ConstellationType") else { return String(line) }
            var f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard f.count > Swift.max(si, fi, ci), Int(f[si].trimmingCharacters(in: .whitespaces)) == svid, f[ci] == "1" else { return String(line) }
            f[fi] = value
            left -= 1
            return f.joined(separator: ",")
        }.joined(separator: "\n")
    }

    /// Absurd but finite values (found by a sweep of the public API): ReceivedSvTimeNanos
    /// −9.2e18 and a receiver time near Int64.max trapped (Int64 overflow); an accumulated delta
    /// range of 1e300 on two epochs, or a carrier frequency of 1e-300 Hz, made the filter's state
    /// NaN for good (198 of 200 resp. 194 of 223 fixes NaN). Now typed errors naming the line, or
    /// the value is counted unusable and the filter's fixes stay finite, with a median error
    /// within the clean log's bound (1.2 m, ``staticDemoLogs``; reference: the surveyed site).
    @Test func absurdValuesNeitherTrapNorPoison() throws {
        let log = try SharedData.text(Self.dir + "pseudoranges_log_2016_08_22_14_45_50.txt")
        for (field, value, message) in [("ReceivedSvTimeNanos", "-9223372036854775000", "ReceivedSvTimeNanos"),
                                        ("TimeNanos", "9223372036854775000", "GPS time"), ("TimeNanos", "4000000000000000000", "beyond GPS time")] {
            let bad = Self.edited(log, svid: 2, field: field, value: value, count: 1)
            #expect(throws: TraceFormatError.self) { try GnssLoggerRawLog.read(data: Data(bad.utf8), source: "bad.txt") }
            do { _ = try GnssLoggerRawLog.read(data: Data(bad.utf8), source: "bad.txt") } catch {
                #expect(error.description.hasPrefix("bad.txt:") && error.description.contains(message), "\(error)")
            }
        }
        let n = try RinexNavigationFile.read(contentsOf: SharedData.url(Self.dir + "hour2350.16n"))
        let p = GNSSProcessor(ephemerides: SatelliteEphemerides(navigation: n))
        for (field, value, reason, count) in [("AccumulatedDeltaRangeMeters", "1e300", "accumulated_delta_range", 2),
                                              ("CarrierFrequencyHz", "1e-300", "carrier_frequency", 1)] {
            let bad = Self.edited(log, svid: 2, field: field, value: value, count: count)
            let raw = try GnssLoggerRawLog.read(data: Data(bad.utf8), source: "bad.txt")
            #expect(raw.skipped[reason] == count)
            let flt = p.run(raw.epochs, mode: .filter)
            #expect(!flt.fixes.isEmpty && flt.fixes.allSatisfy { $0.latitude.isFinite && $0.longitude.isFinite })
            let f = ErrorStatistics(flt.fixes.map { distanceToSite($0.latitude, $0.longitude) })
            #expect(f.p50 <= 1.2, "filter median \(f.p50) m with \(field) \(value)")
        }
    }
}
