import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport

/// Readers on the real files in ../shared/data/gnss_raw (provenance in SOURCES.md) and on
/// truncated / corrupted variants, which must give `FILE:LINE: message` errors, never a trap.
@Suite("GNSS readers", .enabled(if: SharedData.shouldRun))
struct GNSSReaderTests {
    static let obsPath = "gnss_raw/gsdc2021_mtv1_pixel5_part1/Pixel5_GnssLog_part1.21o"
    static let navPath = "gnss_raw/gsdc2021_mtv1_pixel5_part1/hour1180.21n"
    static let sp3Path = "gnss_raw/orbits_2021_118/COD0MGXFIN_20211180000_01D_05M_ORB.SP3"

    func data(_ p: String) throws -> Data {
        guard let d = FileManager.default.contents(atPath: SharedData.url(p).path) else {
            Issue.record("shared reference data missing: \(p)"); throw CancellationError()
        }
        return d
    }

    /// Reference: the file's own text (header lines 10–14, first epoch lines 16–30) read by eye.
    @Test func pixel5ObservationFile() throws {
        let f = try RinexObservationFile.read(contentsOf: SharedData.url(Self.obsPath))
        #expect(f.version == 3.03)
        #expect(f.timeSystem == .gps)
        #expect(f.observationTypes[.gps] == ["C1C", "L1C", "D1C", "S1C", "C5X", "L5X", "D5X", "S5X"])
        #expect(f.glonassChannels == [5: 1, 9: -2, 12: -1, 20: 2, 21: 4, 22: -3])
        // SOURCES.md: header + the first 794 epochs.
        #expect(f.epochs.count == 794)
        let e0 = f.epochs[0]
        // 2021-04-28 22:19:22.4299102 GPS time, no leap seconds applied (the file is GPS time).
        let expected = GNSSTime.secondsSinceGPSEpoch(year: 2021, month: 4, day: 28, hour: 22, minute: 19, second: 22.4299102)
        #expect(abs(e0.time - expected) < 1e-6)
        #expect(Set(e0.observations.map(\.satellite)).count == 14)
        let g05 = try #require(e0.observations.first { $0.satellite.description == "G05" && $0.signal == "1C" })
        #expect(g05.pseudorange == 23738869.070)
        #expect(g05.carrierPhase == -16670.847)
        #expect(g05.cn0 == 33.4)
        // "-0.000" phase with LLI 2 (half-cycle) is invalid: no phase.
        let g06 = try #require(e0.observations.first { $0.satellite.description == "G06" && $0.signal == "1C" })
        #expect(g06.carrierPhase == nil)
        #expect(g06.lossOfLockIndicator == 2)
        // R09: phase and Doppler but no pseudorange.
        let r09 = try #require(e0.observations.first { $0.satellite.description == "R09" })
        #expect(r09.pseudorange == nil && r09.doppler == -4254.100)
        #expect(r09.frequency == GNSSConstants.glonassG1(channel: -2))
        // UTC of the first epoch: GPS − UTC = 18 s in 2021 (IERS Bulletin C); rounded to the ms.
        #expect(abs(GNSSTime.unixUTC(gpsTime: e0.time) - (1_619_648_344.4299102)) < 1e-6)
    }

    /// Reference: header lines 4–5 and the first record of hour1180.21n read by eye.
    @Test func rinex2NavigationFile() throws {
        let n = try RinexNavigationFile.read(contentsOf: SharedData.url(Self.navPath))
        #expect(n.version == 2)
        let k = try #require(n.klobuchar)
        #expect(k.alpha[0] == 0.9313e-08 && k.beta[3] == -0.3277e+06)
        let g1 = try #require(n.ephemerides[SatelliteID(system: .gps, number: 1)]?.first)
        #expect(g1.af0 == 0.704637262970e-03)
        #expect(g1.sqrtA == 0.515369399834e+04)
        // t_oe 259200 s of GPS week 2155.
        #expect(g1.ephemerisReferenceTime == 2155 * 604_800 + 259_200)
        #expect(n.count > 100)
    }

    @Test func sp3File() throws {
        let o = try PreciseOrbit.read(contentsOf: SharedData.url(Self.sp3Path))
        #expect(o.timeSystem == .gps)
        // SOURCES.md: 116 satellites, 18:00–24:00 at 5 min.
        #expect(o.positions.count == 116)
        #expect(o.times[1] - o.times[0] == 300)
        #expect(Set(o.positions.keys.map(\.system)) == [.gps, .glonass, .galileo, .beidou, .qzss])
    }

    /// Lagrange interpolation reproduces the tabulated epochs exactly and, at the midpoint
    /// between epochs, agrees with interpolation from a file with every other epoch removed to
    /// a few centimetres (order 9 at 5 vs 10 min).
    @Test func sp3InterpolationSelfConsistency() throws {
        let o = try PreciseOrbit.read(contentsOf: SharedData.url(Self.sp3Path))
        let g = SatelliteID(system: .gps, number: 5)
        let i = 30
        let exact = try #require(o.positions[g]?[i])
        let s = try #require(o.state(of: g, at: o.times[i]))
        #expect(gnssNorm(s.position - exact) < 1e-4)
        var thin = o
        thin.times = stride(from: 0, to: o.times.count, by: 2).map { o.times[$0] }
        thin.positions[g] = stride(from: 0, to: o.times.count, by: 2).map { o.positions[g]![$0] }
        thin.clocks[g] = stride(from: 0, to: o.times.count, by: 2).map { o.clocks[g]![$0] }
        let t = o.times[31] // a tabulated epoch missing from the thinned file
        let a = try #require(thin.state(of: g, at: t))
        #expect(gnssNorm(a.position - o.positions[g]![31]) < 0.05)
    }

    /// Truncated and corrupted variants: typed errors naming the line, never a trap.
    @Test func truncatedAndCorruptedFilesGiveTypedErrors() throws {
        let obs = try data(Self.obsPath)
        let text = String(decoding: obs, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        // Cut in the middle of the first epoch (line 20 of 29).
        let cut = lines.prefix(20).joined(separator: "\n") + "\n"
        #expect(throws: TraceFormatError.self) { try RinexObservationFile.read(data: Data(cut.utf8), source: "cut.21o") }
        do { _ = try RinexObservationFile.read(data: Data(cut.utf8), source: "cut.21o") } catch {
            #expect(error.description.hasPrefix("cut.21o:20: file ends inside the epoch of line 16"))
        }
        // Corrupt a pseudorange.
        lines[16] = lines[16].replacingOccurrences(of: "23738869.070", with: "2373X869.070")
        do { _ = try RinexObservationFile.read(data: Data(lines.joined(separator: "\n").utf8), source: "bad.21o"); Issue.record("accepted a corrupted value") } catch {
            #expect(error.description.hasPrefix("bad.21o:17: G05 C1C '2373X869.070' is not a number"))
        }
        // Header only, no END OF HEADER; empty file; every prefix of the header.
        for k in [0, 1, 5, 13] {
            let t = lines.prefix(k).joined(separator: "\n")
            #expect(throws: TraceFormatError.self) { try RinexObservationFile.read(data: Data(t.utf8), source: "h.21o") }
        }
        // Byte-level truncation at many points never traps; each result is a file or a typed error.
        for frac in stride(from: 0.05, to: 1.0, by: 0.07) {
            let d = obs.prefix(Int(Double(obs.count) * frac))
            _ = try? RinexObservationFile.read(data: Data(d), source: "t.21o")
        }
        let nav = try data(Self.navPath)
        for frac in stride(from: 0.0, to: 1.0, by: 0.05) {
            let d = nav.prefix(Int(Double(nav.count) * frac))
            do { _ = try RinexNavigationFile.read(data: Data(d), source: "t.21n") } catch {
                #expect(error.description.hasPrefix("t.21n"))
            }
        }
        let navText = String(decoding: nav, as: UTF8.self).replacingOccurrences(of: "0.515369399834D+04", with: "0.5153693998Q4D+04")
        do { _ = try RinexNavigationFile.read(data: Data(navText.utf8), source: "q.21n"); Issue.record("accepted a corrupted value") } catch {
            #expect(error.description.hasPrefix("q.21n:11: G01 broadcast orbit 2 field 4"))
        }
        let sp3 = try data(Self.sp3Path)
        for frac in stride(from: 0.0, to: 1.0, by: 0.1) {
            _ = try? PreciseOrbit.read(data: Data(sp3.prefix(Int(Double(sp3.count) * frac))), source: "t.sp3")
        }
        #expect(throws: TraceFormatError.self) { try PreciseOrbit.read(data: Data("#dP2021  4 28 18  0  0.00000000 9999999 ORBIT\n".utf8), source: "big.sp3") }
    }

    /// CODE's 30 s CLK (19:30–20:30) against the clocks of CODE's own SP3 at the common 5-min
    /// epochs: the same solution, so they agree to the SP3's 1 ps printing resolution plus
    /// interpolation (tolerance 0.05 ns); and a GRG CLK file (RINEX 3.00 header layout) reads.
    @Test func clockFiles() throws {
        let clk = try PreciseClock.read(contentsOf: SharedData.url("gnss_raw/orbits_2021_118/COD0MGXFIN_20211180000_01D_30S_CLK.CLK"))
        let sp3 = try PreciseOrbit.read(contentsOf: SharedData.url(Self.sp3Path))
        var n = 0, worst = 0.0
        for (sat, c) in sp3.clocks {
            for (i, t) in sp3.times.enumerated() where !c[i].isNaN {
                guard let v = clk.clock(of: sat, at: t) else { continue }
                worst = max(worst, abs(v.offset - c[i])); n += 1
            }
        }
        #expect(n > 500)
        #expect(worst < 0.05e-9, "worst CLK vs SP3 clock difference \(worst * 1e9) ns")
        let grg = try PreciseClock.read(contentsOf: SharedData.url("gnss_raw/orbits_2021_118/grg21553.clk"))
        #expect(grg.samples[SatelliteID(system: .glonass, number: 1)]?.offsets.first == 0.786003223645E-04)
        #expect(throws: TraceFormatError.self) {
            try PreciseClock.read(data: Data("     3.00           CLOCK DATA          G                   RINEX VERSION / TYPE\n".utf8), source: "h.clk")
        }
    }

    /// RINEX 1 observation files are refused with a typed error (not silently misread); a RINEX
    /// 2 header alone is a truncated file (RINEX 2 itself: RinexVersion2Tests).
    @Test func rinex1ObservationIsRefused() throws {
        let header = "     2.11           OBSERVATION DATA    M (MIXED)           RINEX VERSION / TYPE\n"
        do { _ = try RinexObservationFile.read(data: Data(header.utf8), source: "old.16o"); Issue.record("accepted a header alone") } catch {
            #expect(error.description == "old.16o:1: file ends inside the header (no 'END OF HEADER')")
        }
        let v1 = "     1              OBSERVATION DATA    G (GPS)             RINEX VERSION / TYPE\n"
        do { _ = try RinexObservationFile.read(data: Data(v1.utf8), source: "old.90o"); Issue.record("accepted RINEX 1") } catch {
            #expect(error.description == "old.90o:1: RINEX observation version 1.0 is not supported")
        }
    }
}

/// Euclidean length (Linux has no `simd_length`).
func gnssNorm(_ v: SIMD3<Double>) -> Double { (v * v).sum().squareRoot() }
