import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitSimulation
import GeoAnchorKitTestSupport

/// Every raw-GNSS reader fed seeded random mutations of real files (issue 19: "every reader
/// fuzzed with truncated and corrupted files: no trap, no hang, typed errors"). A mutant must
/// either read, or throw a `TraceFormatError` whose message starts with the file's name; what
/// reads is then run through the processor (WLS) or the ephemeris lookup, whose outputs must be
/// finite numbers. A trap anywhere fails the whole test process, so passing means none occurred.
@Suite("GNSS readers under fuzzing", .enabled(if: SharedData.shouldRun))
struct GNSSReaderFuzzTests {
    /// Mutations per reader and the seed: fixed, so a failure reproduces.
    static let mutantsPerReader = 120
    static let seed: UInt64 = 0x19_F022

    /// About the first `maxLines` lines of a shared file (small mutants keep the test quick), cut
    /// before the last line at or before `maxLines` for which `recordStart` holds, so that the
    /// unmutated excerpt is a complete file.
    func base(_ path: String, maxLines: Int, recordStart: (Substring) -> Bool = { _ in true }) throws -> [UInt8] {
        let text = try SharedData.text(path)
        let all = text.split(separator: "\n", omittingEmptySubsequences: false)
        var end = min(maxLines, all.count)
        while end > 1, end < all.count, !recordStart(all[end]) { end -= 1 }
        return Array((all.prefix(end).joined(separator: "\n") + "\n").utf8)
    }

    /// One random mutation: a byte replaced by a troublesome one, a range deleted, a line
    /// duplicated or swapped, a truncation, or an extreme number inserted.
    static func mutate(_ bytes: [UInt8], _ rng: inout SeededRandom) -> [UInt8] {
        var b = bytes
        guard !b.isEmpty else { return b }
        func index() -> Int { Int(rng.next() % UInt64(b.count)) }
        let troublesome: [UInt8] = Array("09-+.DEe \n\r\t,x".utf8) + [0, 0xFF, 0xC3]
        let extremes = ["1e308", "-99999999999999999999", "NaN", "inf", "-0.000", "9999999999.999", "4294967296", "-1"]
        let rounds = 1 + Int(rng.next() % 3)
        for _ in 0..<rounds where !b.isEmpty {
            switch rng.next() % 6 {
            case 0:
                b[index()] = troublesome[Int(rng.next() % UInt64(troublesome.count))]
            case 1:
                let i = index(), n = 1 + Int(rng.next() % 200)
                b.removeSubrange(i..<min(b.count, i + n))
            case 2, 3:
                var lines = b.split(separator: 10, omittingEmptySubsequences: false).map(Array.init)
                guard lines.count > 2 else { break }
                let i = Int(rng.next() % UInt64(lines.count)), j = Int(rng.next() % UInt64(lines.count))
                if rng.next() % 2 == 0 { lines.insert(lines[i], at: j) } else { lines.swapAt(i, j) }
                b = Array(lines.joined(separator: [10]))
            case 4:
                b = Array(b.prefix(index()))
            default:
                let e = Array(extremes[Int(rng.next() % UInt64(extremes.count))].utf8)
                let i = index()
                b.replaceSubrange(i..<min(b.count, i + e.count), with: e)
            }
        }
        return b
    }

    /// `count` seeded mutants of each file through `read` (named `FILE#k`): each reads — every
    /// fix it gives valid (``Fix/validationProblem`` nil) — or is refused with a
    /// `TraceFormatError` naming it; both outcomes must occur (the mutations reach the checks, and
    /// a reader refusing everything would also "pass"). A trap fails the whole test process.
    static func expectMutantsReadOrRefused(_ files: [URL], seed: UInt64, count: Int,
                                           read: (Data, String) throws -> [Fix]) throws {
        var rng = SeededRandom(seed: seed)
        var ok = 0, refused = 0
        for url in files {
            let bytes = Array(try Data(contentsOf: url))
            for k in 0..<count {
                let source = "\(url.lastPathComponent)#\(k)"
                do {
                    let fixes = try read(Data(mutate(bytes, &rng)), source)
                    #expect(fixes.allSatisfy { $0.validationProblem == nil }, "\(source)")
                    ok += 1
                } catch let e as TraceFormatError {
                    #expect(e.description.hasPrefix(source), "\(e)")
                    refused += 1
                }
            }
        }
        #expect(ok > 0 && refused > 0 && ok + refused == count * files.count, "read \(ok), refused \(refused)")
    }

    /// Runs `read` on every mutant; counts outcomes; a thrown error must be a located
    /// `TraceFormatError` naming `source`.
    func fuzz<T>(_ name: String, _ bytes: [UInt8], _ read: (Data, String) throws(TraceFormatError) -> T,
                 use: (T) -> Void) -> (read: Int, refused: Int) {
        var rng = SeededRandom(seed: Self.seed &+ UInt64(name.utf8.count))
        var ok = 0, refused = 0
        for k in 0..<Self.mutantsPerReader {
            let m = Self.mutate(bytes, &rng)
            let source = "\(name)#\(k)"
            do {
                let v = try read(Data(m), source)
                ok += 1
                use(v)
            } catch {
                refused += 1
                #expect(error.description.hasPrefix(source), "\(error.description)")
            }
        }
        return (ok, refused)
    }

    func expectFinite(_ fixes: [Fix], _ what: String) {
        for f in fixes {
            #expect(f.latitude.isFinite && f.longitude.isFinite && f.time.isFinite, "\(what): non-finite fix")
        }
    }

    @Test func everyReaderRefusesOrReadsMutants() throws {
        let drive = "gnss_raw/gsdc2021_mtv1_pixel5_part1/"
        let nav = try RinexNavigationFile.read(contentsOf: SharedData.url(drive + "hour1180.21n"))
        let sp3Path = "gnss_raw/orbits_2021_118/COD0MGXFIN_20211180000_01D_05M_ORB.SP3"
        var gps = GNSSSolverConfiguration(); gps.systems = [.gps]
        let processor = GNSSProcessor(ephemerides: SatelliteEphemerides(navigation: nav), configuration: gps)
        var outcomes: [String: (read: Int, refused: Int)] = [:]

        outcomes["obs"] = fuzz("obs", try base(drive + "Pixel5_GnssLog_part1.21o", maxLines: 420, recordStart: { $0.hasPrefix(">") }), RinexObservationFile.read(data:source:)) { f in
            expectFinite(processor.run(f.epochs, mode: .wls).fixes, "obs")
        }
        let rinex2 = SharedData.repositoryRoot.appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/GNSS/geodetic.211.99o")
        outcomes["obs_rinex2"] = fuzz("obs_rinex2", Array(try Data(contentsOf: rinex2)), RinexObservationFile.read(data:source:)) { f in
            for e in f.epochs { #expect(e.time.isFinite && e.observations.allSatisfy { $0.pseudorange?.isFinite ?? true }, "obs_rinex2") }
        }
        outcomes["nav"] = fuzz("nav", try base(drive + "hour1180.21n", maxLines: 240, recordStart: { !$0.hasPrefix("   ") }), RinexNavigationFile.read(data:source:)) { n in
            let e = SatelliteEphemerides(navigation: n)
            for sat in n.ephemerides.keys {
                for t in [n.ephemerides[sat]!.first!.ephemerisReferenceTime, .nan, 1e12] {
                    if let s = e.state(of: sat, transmissionTime: t) {
                        #expect(s.position.x.isFinite || !t.isFinite, "nav: \(sat)")
                    }
                }
            }
        }
        outcomes["glonass"] = fuzz("glonass", Array(GlonassEphemerisTests.rinex2.utf8), RinexNavigationFile.read(data:source:)) { n in
            for (sat, list) in n.glonassEphemerides {
                if let s = list.first?.state(at: list.first!.referenceTime + 600) {
                    #expect(s.position.x.isFinite && s.velocity.z.isFinite, "glonass: \(sat)")
                }
            }
        }
        outcomes["sp3"] = fuzz("sp3", try base(sp3Path, maxLines: 400, recordStart: { $0.hasPrefix("*") }), PreciseOrbit.read(data:source:)) { o in
            let e = SatelliteEphemerides(precise: o)
            for sat in o.positions.keys.prefix(5) {
                for t in o.times.prefix(3) { _ = e.state(of: sat, transmissionTime: t + 100) }
            }
        }
        outcomes["clk"] = fuzz("clk", try base("gnss_raw/orbits_2021_118/grg21553.clk", maxLines: 400), PreciseClock.read(data:source:)) { c in
            _ = c.samples.count
        }
        let loggerPath = "gnss_raw/google_gps_measurement_tools/pseudoranges_log_2016_06_30_21_26_07.txt"
        let nav2016 = try RinexNavigationFile.read(contentsOf: SharedData.url("gnss_raw/google_gps_measurement_tools/hour1820.16n"))
        let p2016 = GNSSProcessor(ephemerides: SatelliteEphemerides(navigation: nav2016), configuration: gps)
        outcomes["gnsslogger"] = fuzz("gnsslogger", try base(loggerPath, maxLines: 400), GnssLoggerRawLog.read(data:source:)) { log in
            expectFinite(p2016.run(log.epochs, mode: .wls).fixes, "gnsslogger")
        }
        let devicePath = "gnss_traces/gnss_lib_py_samples/google_decimeter_2022/device_gnss.csv"
        let deviceProcessor = GNSSProcessor(ephemerides: SatelliteEphemerides(), configuration: GSDCDeviceGNSS.solverConfiguration)
        outcomes["device_gnss"] = fuzz("device_gnss", try base(devicePath, maxLines: 240), GSDCDeviceGNSS.read(data:source:)) { d in
            expectFinite(deviceProcessor.run(d, mode: .wls).fixes, "device_gnss")
        }
        outcomes["derived_2021"] = fuzz("derived_2021", try base("gnss_raw/gnss_lib_py_more/Pixel4_derived_clkdiscnt.csv", maxLines: 240),
                                        GSDCDeviceGNSS.read(data:source:)) { d in
            expectFinite(deviceProcessor.run(d, mode: .wls).fixes, "derived_2021")
        }
        // Both outcomes occur for every reader: the mutations reach the parsers' checks, and
        // not every mutant is refused (a reader refusing everything would also "pass").
        for (name, o) in outcomes.sorted(by: { $0.key < $1.key }) {
            #expect(o.read + o.refused == Self.mutantsPerReader)
            #expect(o.refused > 0, "\(name): no mutant refused")
            #expect(o.read > 0, "\(name): every mutant refused")
        }
    }
}
