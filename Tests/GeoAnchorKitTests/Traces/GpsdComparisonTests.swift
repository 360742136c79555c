import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport

/// Decoded fixes vs gpsd's expected output (`.chk`) for its NMEA regression logs.
///
/// Reference: gpsd's own decoding (TPV records of the `.chk` files, SOURCES.md: "gpsd's
/// interpretation, not ground truth"). For each TPV with `time` and `lat`/`lon`, the last TPV
/// at that time is compared with our fix at the same time. Tolerances: 1e-8° in latitude and
/// longitude (gpsd prints 9 decimals; NMEA gives ≤ 1e-7 minutes), 0.001 m in MSL altitude
/// (gpsd prints 3 decimals). Corrupt lines (which gpsd also discards) are skipped.
///
/// gpsd's regression output moves old dates forward by whole GPS week-number rollovers
/// (1024 weeks = 619,315,200 s; its heuristic keeps dates after its build date: the 2005 Garmin
/// log comes out as 2024, the 2010 TomTom as 2030). We match a TPV at time t with our fix at
/// t − k·1024 weeks, k ∈ {0, 1, 2}, and report k.
@Suite("gpsd regression logs", .enabled(if: SharedData.shouldRun))
struct GpsdComparisonTests {
    struct TPV { var time: Double; var lat: Double; var lon: Double; var altMSL: Double? }

    /// TPV positions gpsd reports without a time (e.g. Garmin simulator-mode epochs, GGA
    /// quality 8 with RMC status V): checked as a set against our positions.
    static func untimedPositions(_ chk: String) -> [(Double, Double)] {
        chk.split(whereSeparator: \.isNewline).compactMap { line in
            guard line.hasPrefix("{\"class\":\"TPV\""),
                  let obj = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  obj["time"] == nil, let lat = obj["lat"] as? Double, let lon = obj["lon"] as? Double else { return nil }
            return (lat, lon)
        }
    }

    static func tpvs(_ chk: String) -> [Double: TPV] {
        var out: [Double: TPV] = [:]
        for line in chk.split(whereSeparator: \.isNewline) where line.hasPrefix("{\"class\":\"TPV\"") {
            guard let obj = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let ts = obj["time"] as? String, let lat = obj["lat"] as? Double, let lon = obj["lon"] as? Double else { continue }
            var s = ts
            guard case .success(let t) = s.withUTF8({ ByteParsing.iso8601($0) }) else { continue }
            out[t] = TPV(time: t, lat: lat, lon: lon, altMSL: (obj["altMSL"] as? Double) ?? (obj["alt"] as? Double))
        }
        return out
    }

    /// Logs where gpsd's times come from its own week-rollover / century logic rather than the
    /// sentences, so no time matches (documented in the report, not asserted).
    static let logs = [
        "GPSmap-76S", "beidou-gb", "bu353-glonass", "garmin-geko201", "garmin25lp",
        "gp-320fw-2019-04-06-overflow", "gp-320fw-2019-04-07-coldboot", "haicom-305N", "hemi", "mt3339",
        "neo-m8n", "nokia-ld-4w", "rst39", "sirfstarv-nmea", "tomtom-mkII", "ublox-zed-f9p-nmea",
    ]

    @Test(arguments: logs)
    func agreesWithGpsd(log: String) throws {
        let base = "nmea/gpsd_test_daemon/\(log).log"
        let chk = try SharedData.text(base + ".chk")
        let expected = Self.tpvs(chk)
        var ours: [Double: Fix] = [:]
        _ = try TraceReader.read(url: SharedData.url(base), format: .nmea, options: TraceReadConfiguration(skipInvalid: true)) {
            ours[$0.time] = $0
        }
        var matched = 0, unmatched: [Double] = [], maxDeg = 0.0, maxAlt = 0.0, rollovers = Set<Int>()
        let week1024 = 619_315_200.0
        for (t, e) in expected {
            guard let k = (0...2).first(where: { ours[t - Double($0) * week1024] != nil }) else { unmatched.append(t); continue }
            rollovers.insert(k)
            let f = ours[t - Double(k) * week1024]!
            matched += 1
            maxDeg = max(maxDeg, abs(f.latitude - e.lat), abs(f.longitude - e.lon))
            if let a = e.altMSL, let h = f.height { maxAlt = max(maxAlt, abs(h - a)) }
        }
        print("gpsd \(log): gpsd TPV times \(expected.count), ours \(ours.count), matched \(matched) (rollovers \(rollovers.sorted())), max |Δ°| \(maxDeg), max |Δalt| \(maxAlt) m, unmatched \(unmatched.sorted().prefix(3).map { ByteParsing.iso8601String($0) })")
        #expect(maxDeg <= 1e-8, "\(log)")
        for (lat, lon) in Self.untimedPositions(chk) {
            #expect(ours.values.contains { abs($0.latitude - lat) <= 1e-8 && abs($0.longitude - lon) <= 1e-8 },
                    "\(log): gpsd position \(lat), \(lon) not among ours")
        }
        #expect(maxAlt <= 1e-3, "\(log)")
        if Self.expectedUnmatched[log] == nil {
            #expect(unmatched.isEmpty, "\(log): \(unmatched.count) gpsd fixes without ours")
        }
    }

    /// Logs where some gpsd fixes have no counterpart in ours, and why.
    static let expectedUnmatched: [String: String] = [:]
}
