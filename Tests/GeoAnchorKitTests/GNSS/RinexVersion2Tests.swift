import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport

/// RINEX 2.11 observation files (``RinexObservationFile`` with ``RinexVersion2ObservationParser``)
/// on files RTKLIB 2.4.3's convbin wrote and on a file written by hand from the RINEX 2.11
/// document (scripts/dev/rinex2_fixtures.sh). References: the RINEX 3.03 file the first was
/// converted from (the same values to the millimeter and 0.001 cycle, both printed F14.3);
/// RTKLIB's own RINEX 3.04 reading of the second (its mapping of the two-character types to
/// RINEX 3 signals, and the values); the hand-written file's lines read by eye.
@Suite("RINEX 2 observations")
struct RinexVersion2Tests {
    static let dir = SharedData.repositoryRoot.appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/GNSS")
    static func read(_ name: String) throws -> RinexObservationFile {
        try RinexObservationFile.read(contentsOf: dir.appendingPathComponent(name))
    }

    struct Key: Hashable { var sat: SatelliteID; var signal: String }
    struct Values: Equatable { var pr, phase, doppler, cn0, frequency: Double? }
    static func table(_ e: GNSSEpoch, signal: (GNSSObservation) -> String = { $0.signal }) -> [Key: Values] {
        var t: [Key: Values] = [:]
        for o in e.observations {
            t[Key(sat: o.satellite, signal: signal(o))] = Values(pr: o.pseudorange, phase: o.carrierPhase, doppler: o.doppler, cn0: o.cn0, frequency: o.frequency)
        }
        return t
    }

    /// Types `L1 L2 C1 P1 C2 P2 D1 S1 S2` (two lines per satellite) as RTKLIB maps them: the same
    /// signals (`C1W`, `C2W`, `L2W`, `C2X`, GLONASS `C1P`, Galileo `C1X`, …) and values, epoch
    /// by epoch; after event flag 4 the new list (`C5`, `L5`) applies.
    @Test func geodeticTypesAsRTKLIBReadsThem() throws {
        let v2 = try Self.read("geodetic.211.99o")
        let rtk = try Self.read("geodetic.rtklib304.99o")
        #expect(v2.version == 2.11 && rtk.version == 3.04)
        // RTKLIB also turns the flag-6 cycle-slip record into an epoch; RINEX 2.11 §5.3 makes
        // its values slip counts, not observations: that epoch is not compared.
        #expect(v2.epochs.count == 3 && rtk.epochs.count == 4)
        var compared = 0
        for e in v2.epochs {
            let r = try #require(rtk.epochs.first { abs($0.time - e.time) < 1e-7 }, "epoch \(e.time)")
            let a = Self.table(e), b = Self.table(r)
            #expect(a == b, "epoch at line \(e.line)")
            compared += a.count
        }
        #expect(compared == 72) // satellite × signal records of the three epochs
        for sys: GNSSSystem in [.gps, .glonass, .galileo] {
            // RTKLIB lists the types of both lists; ours are the list in force at the end.
            #expect(Set(v2.observationTypes[sys] ?? []).isSubset(of: Set(rtk.observationTypes[sys] ?? [])), "\(sys)")
        }
    }

    /// Reference: the hand-written file read by eye (its lines 10–27, 54–66).
    @Test func geodeticFileByEye() throws {
        let f = try Self.read("geodetic.211.99o")
        #expect(f.markerName == "SYNT")
        #expect(f.approximatePosition == ECEFCoordinate(x: 3979316.4389, y: 1050312.2606, z: 4857066.8928))
        // Two-digit years 99 and 00 (RINEX 2.11 §6.5: 80–99 → 19xx, 00–79 → 20xx); GPS time.
        let t0 = GNSSTime.secondsSinceGPSEpoch(year: 1999, month: 12, day: 31, hour: 23, minute: 59, second: 30)
        #expect(f.epochs.map(\.time) == [t0, t0 + 30, t0 + 90])
        #expect(f.epochs.map(\.flag) == [0, 1, 0])
        #expect(f.skippedSpecialRecords == 3) // flags 4, 6, 5
        // Values the generator wrote for signals the system lacks, which RTKLIB drops too: S20's
        // L2, P1, C2, P2, S2 (SBAS has L1 C/A only) and R10's C5, L5 (GLONASS has no L5).
        #expect(f.unassignedValues == 7)
        #expect(f.version2ObservationTypes == ["C1", "L1", "D1", "S1", "P2", "L2", "C5", "L5"])
        #expect(f.observationTypes[.gps] == ["C1C", "L1C", "D1C", "S1C", "C2W", "L2W", "C5X", "L5X"])
        // 15 satellites: 12 on the epoch line, 3 on its continuation; "G 7" and " 12" are GPS.
        let e0 = f.epochs[0]
        #expect(Set(e0.observations.map(\.satellite)).count == 15)
        let sats = Set(e0.observations.map { $0.satellite.description })
        #expect(sats.isSuperset(of: ["G07", "G12", "S20", "E11", "R10"]))
        let g05 = Self.table(e0)
        let gps = { (n: Int, s: String) in Key(sat: SatelliteID(system: .gps, number: n), signal: s) }
        // Line 12: L1 -17616723.517 (strength 6), L2 15093447.304, C1 21828444.585, P1
        // 24548520.316, C2 20187478.292; line 13: P2 22090860.757, D1 -3274.296, S1 38.490, S2 46.537.
        #expect(g05[gps(5, "1C")] == Values(pr: 21828444.585, phase: -17616723.517, doppler: -3274.296, cn0: 38.490, frequency: GNSSConstants.l1Frequency))
        #expect(g05[gps(5, "1W")] == Values(pr: 24548520.316, phase: nil, doppler: nil, cn0: nil, frequency: GNSSConstants.l1Frequency))
        #expect(g05[gps(5, "2W")] == Values(pr: 22090860.757, phase: 15093447.304, doppler: nil, cn0: 46.537, frequency: GNSSConstants.l2Frequency))
        #expect(g05[gps(5, "2X")] == Values(pr: 20187478.292, phase: nil, doppler: nil, cn0: nil, frequency: GNSSConstants.l2Frequency))
        // Line 16: G12's L1 8160016.366 with LLI 1, L2 -12760245.727 with LLI 1.
        let g12 = try #require(e0.observations.first { $0.satellite == SatelliteID(system: .gps, number: 12) && $0.signal == "1C" })
        #expect(g12.carrierPhase == 8160016.366 && g12.lossOfLockIndicator == 1)
        // No channel table in RINEX 2: GLONASS has no frequency until channels are given.
        #expect(e0.observations.filter { $0.satellite.system == .glonass }.allSatisfy { $0.frequency == nil })
    }

    /// convbin's RINEX 2.11 of the first two minutes of a Pixel 6 log gives the observations of
    /// the RINEX 3.03 file it came from (GnssLogger's converter): per satellite and band the same
    /// code, phase, Doppler and C/N0 (GPS L5 `5Q` and Galileo `1C`/`5Q` become RINEX 2's
    /// attribute-less `5X`/`1X`/`5X`: compared by band), GLONASS frequencies once the RINEX 3
    /// file's channel table is given.
    @Test(.enabled(if: SharedData.shouldRun)) func pixel6AsTheRinex3ItCameFrom() throws {
        var v2 = try Self.read("pixel6.first2min.211.23o")
        let v3 = try RinexObservationFile.read(contentsOf: SharedData.url("gnss_raw/gnss_lib_py_more/pixel6.23o"))
        #expect(v2.observationTypes[.gps] == ["C1C", "L1C", "D1C", "S1C", "C5X", "L5X", "D5X", "S5X"])
        let assigned = v2.assignGlonassChannels(v3.glonassChannels)
        #expect(assigned > 0)
        #expect(v2.epochs.count == 9)
        var compared = 0
        for e in v2.epochs {
            let r = try #require(v3.epochs.first { abs($0.time - e.time) < 1e-7 })
            let a = Self.table(e) { String($0.band) }, b = Self.table(r) { String($0.band) }
            for (k, v) in a {
                #expect(b[k] == v, "\(k) at line \(e.line)")
                compared += 1
            }
            // convbin leaves out only signals without any value it writes (code-less records).
            #expect(Set(b.keys).subtracting(a.keys).allSatisfy { b[$0]?.pr == nil }, "line \(e.line)")
        }
        #expect(compared > 200)
    }

    /// GLONASS channels from a navigation file's GLONASS records: the slot's FDMA channel
    /// (RINEX 2.11 GLONASS navigation, line 3 of each record, read by eye in
    /// ``GlonassEphemerisTests/rinex2``) gives each signal its frequency (ICD: 1602 + 0.5625 k MHz,
    /// 1246 + 0.4375 k MHz).
    @Test func glonassChannelsFromNavigation() throws {
        var f = try Self.read("geodetic.211.99o")
        let nav = try RinexNavigationFile.read(data: Data(GlonassEphemerisTests.rinex2.utf8), source: "brdc1370.20g")
        let channels = nav.glonassChannels
        #expect(channels == [1: 1, 2: -4])
        // R01 from the navigation file, R10 from a table, R02 left out: it keeps no frequency.
        let n = f.assignGlonassChannels([1: try #require(channels[1]), 10: -7])
        let r = f.epochs.flatMap(\.observations).filter { $0.satellite.system == .glonass }
        for o in r {
            switch (o.satellite.number, o.band) {
            case (1, "1"): #expect(o.frequency == GNSSConstants.glonassG1(channel: 1))
            case (1, "2"): #expect(o.frequency == GNSSConstants.glonassG2(channel: 1))
            case (10, "1"): #expect(o.frequency == GNSSConstants.glonassG1(channel: -7))
            case (10, "2"): #expect(o.frequency == GNSSConstants.glonassG2(channel: -7))
            default: #expect(o.frequency == nil, "\(o.satellite) \(o.signal)")
            }
        }
        #expect(n == r.filter { $0.frequency != nil }.count && n > 0)
        #expect(f.glonassChannels == [1: 1, 10: -7])
    }

    /// Each type's signal per system (RINEX 2.11 table A1 + RINEX 3.04 table 4); the band's
    /// phase follows its C/A code, or its P code when the file has no C/A code (and in band 2
    /// the reverse).
    @Test func typeMapping() {
        let all = ["C1", "P1", "L1", "C2", "P2", "L2"]
        func m(_ t: String, _ s: GNSSSystem, _ types: [String] = all) -> String? { RinexObservationFile.version2Signal(t, system: s, types: types) }
        #expect(m("L1", .gps) == "L1C" && m("L2", .gps) == "L2W" && m("C2", .gps) == "C2X")
        #expect(m("L1", .gps, ["P1", "L1", "P2", "L2"]) == "L1W")
        #expect(m("L2", .gps, ["C1", "L1", "C2", "L2"]) == "L2X")
        #expect(m("P1", .glonass) == "C1P" && m("L2", .glonass) == "L2P" && m("C2", .glonass) == "C2C")
        #expect(m("C1", .galileo) == "C1X" && m("P1", .galileo) == nil && m("L7", .galileo) == "L7X")
        #expect(m("C5", .glonass) == nil && m("C5", .sbas) == "C5X" && m("S8", .galileo) == "S8X")
        #expect(m("C2", .beidou) == "C2I" && m("C1", .beidou) == nil)
        #expect(m("X1", .gps) == nil && m("C3", .gps) == nil && m("C", .gps) == nil)
    }

    /// Malformed RINEX 2 files: `FILE:LINE: message` naming the value, never a partial read.
    @Test func malformedFiles() throws {
        let text = try String(contentsOf: Self.dir.appendingPathComponent("geodetic.211.99o"), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        func refusal(_ edit: (inout [String]) -> Void) -> String {
            var l = lines
            edit(&l)
            do { _ = try RinexObservationFile.read(data: Data((l.joined(separator: "\n") + "\n").utf8), source: "g.99o"); return "read" }
            catch { return error.description }
        }
        // Line numbers are 1-based: the header is lines 1–9, the first epoch line 10.
        #expect(refusal { $0 = Array($0.prefix(20)) } == "g.99o:20: file ends inside the epoch of line 10: satellite line(s) missing")
        #expect(refusal { $0.remove(at: 10) }.hasPrefix("g.99o:11: epoch at line 10 lists 15 satellites, but this line is not a continuation"))
        #expect(refusal { $0[5] = $0[5].replacingOccurrences(of: "    S2#", with: "    X2#") }
                == "g.99o:6: observation type 'X2' is not a RINEX 2 type (C/P/L/D/S + band 1, 2, 5, 6, 7 or 8)")
        #expect(refusal { $0[5] = "    10" + $0[5].dropFirst(6) } == "g.99o:7: '# / TYPES OF OBSERV' announced 1 more type(s) than it lists")
        #expect(refusal { $0[9] = $0[9].replacingOccurrences(of: "G13", with: "T13") } == "g.99o:10: satellite 'T13' (4 of 15) is not a satellite")
        #expect(refusal { $0[9] = String($0[9].prefix(28)) + "9" + $0[9].dropFirst(29) } == "g.99o:10: epoch flag '9' is not an integer in 0...6")
        #expect(refusal { $0[11] = $0[11].replacingOccurrences(of: "21828444.585", with: "21828444.5x5") } == "g.99o:12: G05 C1 '21828444.5x5' is not a number")
        #expect(refusal { $0[9] = " 99 13" + $0[9].dropFirst(6) } == "g.99o:10: month '13' is not an integer in 1...12")
        // The flag-4 record (line 49) announces 2 records; its type list (line 51) is cut short.
        #expect(refusal { $0[50] = "    10" + $0[50].dropFirst(6) } == "g.99o:51: '# / TYPES OF OBSERV' field 9 is blank, 2 type(s) still to come")
        #expect(refusal { $0[50] = "    12" + $0[50].dropFirst(6).prefix(48) + "    D5" + $0[50].dropFirst(60) } == "g.99o:51: event record ends inside '# / TYPES OF OBSERV'")
        #expect(refusal { $0 = Array($0.prefix(50)) } == "g.99o:50: file ends inside the event record of line 49")
        #expect(refusal { $0 = Array($0.prefix(8)) } == "g.99o:8: file ends inside the header (no 'END OF HEADER')")
        #expect(refusal { $0[0] = "     1.0 " + $0[0].dropFirst(9) } == "g.99o:1: RINEX observation version 1.0 is not supported")
        #expect(refusal { _ in } == "read")
    }
}
