import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitSimulation
import GeoAnchorKitTestSupport

/// u-blox RXM-RAWX raw measurements (`UBXRawLog`). Fixtures: scripts/dev/ubx_raw_fixtures.py —
/// the first epochs of the GSDC 2021 Pixel 5 RINEX (../shared/data) encoded by pyubx2 1.4.0 as an
/// F9 (message version 1) and an M8 (version 0) log them. References: RTKLIB 2.4.3's decoding of
/// the same logs (convbin's RINEX 3.04, read by our RINEX reader: values to its printed
/// precision, 0.0005 m / cycles / Hz), and the RINEX the logs were made from (the L5/E5a signals
/// RTKLIB 2.4.3 does not know; float32 Doppler and whole-dB C/N0 as the protocol stores them).
@Suite("u-blox raw measurements")
struct UBXRawTests {
    static let dir = SharedData.repositoryRoot.appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/GNSS")
    static func log(_ name: String) throws -> UBXRawLog { try UBXRawLog.read(contentsOf: dir.appendingPathComponent(name)) }
    /// The signals RTKLIB 2.4.3's ubx_sig knows (others it leaves out of its RINEX).
    static let rtklibSignals: Set<String> = ["1C", "1B", "1X", "2L", "2I", "2C", "7I", "7Q"]

    @Test(arguments: [("pixel5.first30.rawx.ubx", "pixel5.first30.rawx.convbin304.rnx.gz", 30),
                      ("edge.rawx.ubx", "edge.rawx.convbin304.rnx", 5),
                      ("m8.rawx.ubx", "m8.rawx.convbin304.rnx", 3)])
    func asRTKLIBDecodesIt(ubx: String, rinex: String, epochs: Int) throws {
        let ours = try Self.log(ubx)
        let ref = try RinexObservationFile.read(contentsOf: Self.dir.appendingPathComponent(rinex))
        #expect(ours.epochs.count == epochs && ref.epochs.count == epochs && ours.messages == epochs)
        var compared = 0, phases = 0
        for (e, r) in zip(ours.epochs, ref.epochs) {
            #expect(abs(e.time - r.time) < 1e-7)   // RINEX prints the epoch to 0.1 µs
            let known = e.observations.filter { Self.rtklibSignals.contains($0.signal) }
            #expect(known.count == r.observations.count, "epoch at line \(r.line) of \(rinex)")
            for o in known {
                guard let x = r.observations.first(where: { $0.satellite == o.satellite && $0.signal == o.signal }) else {
                    Issue.record("\(o.satellite) \(o.signal) not in \(rinex) at line \(r.line)"); continue
                }
                compared += 1
                #expect(o.frequency == x.frequency)
                #expect(o.pseudorange == nil ? x.pseudorange == nil : abs(o.pseudorange! - (x.pseudorange ?? .nan)) <= 0.0005)
                #expect(o.carrierPhase == nil ? x.carrierPhase == nil : abs(o.carrierPhase! - (x.carrierPhase ?? .nan)) <= 0.0005)
                #expect(abs((o.doppler ?? .nan) - (x.doppler ?? .nan)) <= 0.0005)
                #expect(o.cn0 == x.cn0)
                if o.carrierPhase != nil {
                    phases += 1
                    #expect(o.lossOfLockIndicator == x.lossOfLockIndicator, "\(o.satellite) \(o.signal) at line \(r.line) of \(rinex)")
                }
            }
        }
        #expect(compared >= epochs * 8 && phases > 0)
        #expect(ours.glonassChannels == ref.glonassChannels)
    }

    /// Against the Pixel 5 RINEX the log was made from: every signal (L5 → `5Q`, E5a → `5Q`, as
    /// the protocol names the pilot the converter called `5X`), code and phase as written (R8),
    /// Doppler within float32's rounding, C/N0 rounded to the whole dB-Hz of `cno` (U1).
    @Test(.enabled(if: SharedData.shouldRun)) func theRinexItCameFrom() throws {
        let ours = try Self.log("pixel5.first30.rawx.ubx")
        let source = try RinexObservationFile.read(contentsOf: SharedData.url("gnss_raw/gsdc2021_mtv1_pixel5_part1/Pixel5_GnssLog_part1.21o"))
        var matched = 0, l5 = 0
        for (e, s) in zip(ours.epochs, source.epochs.prefix(30)) {
            #expect(abs(e.time - s.time) < 1e-6)
            let wanted = s.observations.filter { $0.satellite.system != .glonass || source.glonassChannels[$0.satellite.number] != nil }
            #expect(e.observations.count == wanted.count, "epoch at line \(s.line)")
            for w in wanted {
                let signal = w.signal == "5X" ? "5Q" : w.signal
                guard let o = e.observations.first(where: { $0.satellite == w.satellite && $0.signal == signal }) else {
                    Issue.record("\(w.satellite) \(w.signal) at line \(s.line) missing"); continue
                }
                matched += 1
                if o.band == "5" { l5 += 1 }
                #expect(o.frequency == w.frequency && o.pseudorange == w.pseudorange && o.carrierPhase == w.carrierPhase)
                #expect(abs((o.doppler ?? .nan) - (w.doppler ?? .nan)) <= abs(w.doppler ?? 0) * 0x1p-24)
                #expect(o.cn0 == w.cn0.map { $0.rounded(.toNearestOrEven) })   // as the script's Python round()
            }
        }
        #expect(matched > 300 && l5 > 20)
    }

    /// Positions: the log solved with the drive's navigation file equals the RINEX it came from
    /// solved the same way once that RINEX carries what the protocol stores (C/N0 in whole dB-Hz,
    /// float32 Doppler, `5Q` for `5X`, GLONASS satellites with a channel): 30/30 epochs, the
    /// same fixes to 1 mm. (Without that, C/N0's rounding alone moves the weights: ≤ 1.1 m.)
    @Test(.enabled(if: SharedData.shouldRun)) func positionsAsFromTheRinex() throws {
        let dir = "gnss_raw/gsdc2021_mtv1_pixel5_part1/"
        let source = try RinexObservationFile.read(contentsOf: SharedData.url(dir + "Pixel5_GnssLog_part1.21o"))
        let nav = try RinexNavigationFile.read(contentsOf: SharedData.url(dir + "hour1180.21n"))
        let processor = GNSSProcessor(ephemerides: SatelliteEphemerides(navigation: nav))
        let stored = source.epochs.prefix(30).map { e in
            var e = e
            e.observations = e.observations.compactMap { o in
                guard o.satellite.system != .glonass || source.glonassChannels[o.satellite.number] != nil else { return nil }
                var o = o
                if o.signal == "5X" { o.signal = "5Q" }
                o.cn0 = o.cn0.map { $0.rounded(.toNearestOrEven) }
                o.doppler = o.doppler.map { Double(Float($0)) }
                return o
            }
            return e
        }
        let a = processor.run(try Self.log("pixel5.first30.rawx.ubx").epochs, mode: .wls)
        let b = processor.run(stored, mode: .wls)
        #expect(a.statistics.epochsSolved == 30 && b.statistics.epochsSolved == 30)
        for (x, y) in zip(a.fixes, b.fixes) {
            #expect(abs(x.time - y.time) < 1e-6)
            let origin = GeodeticCoordinate(latitude: y.latitude, longitude: y.longitude, ellipsoidalHeight: y.height ?? 0)
            let d = try LocalTangentFrame(origin: origin).enu(latitude: x.latitude, longitude: x.longitude, ellipsoidalHeight: x.height ?? 0)
            let distance: Double = (d.east * d.east + d.north * d.north + d.up * d.up).squareRoot()
            #expect(distance < 1e-3)
        }
    }

    /// Every field of the two ephemerides equal to `tolerance` of its size (RINEX prints 12 digits).
    static func expectSameEphemeris(_ a: BroadcastEphemeris, _ b: BroadcastEphemeris, _ what: String,
                                    sourceLocation: SourceLocation = #_sourceLocation) {
        let pairs: [(String, Double, Double)] = [
            ("toc", a.clockReferenceTime, b.clockReferenceTime), ("toe", a.ephemerisReferenceTime, b.ephemerisReferenceTime),
            ("af0", a.af0, b.af0), ("af1", a.af1, b.af1), ("af2", a.af2, b.af2), ("iode", a.iode, b.iode), ("crs", a.crs, b.crs),
            ("deltaN", a.deltaN, b.deltaN), ("m0", a.m0, b.m0), ("cuc", a.cuc, b.cuc), ("e", a.eccentricity, b.eccentricity),
            ("cus", a.cus, b.cus), ("sqrtA", a.sqrtA, b.sqrtA), ("cic", a.cic, b.cic), ("omega0", a.omega0, b.omega0),
            ("cis", a.cis, b.cis), ("i0", a.i0, b.i0), ("crc", a.crc, b.crc), ("omega", a.omega, b.omega),
            ("omegaDot", a.omegaDot, b.omegaDot), ("iDot", a.iDot, b.iDot), ("health", a.health, b.health),
            ("tgd", a.groupDelay, b.groupDelay), ("fit", a.fitInterval, b.fitInterval)]
        for (name, x, y) in pairs {
            #expect(abs(x - y) <= 1e-11 * max(abs(x), abs(y)) + 1e-300, "\(what) \(name): \(x) vs \(y)", sourceLocation: sourceLocation)
        }
    }

    /// The log's RXM-SFRBX subframes (GPS LNAV, encoded by the script from the drive's RINEX
    /// navigation file) decode as RTKLIB 2.4.3 decodes them (convbin's navigation file: every
    /// field to its 12 printed digits, the Klobuchar coefficients to their 4).
    @Test func navigationAsRTKLIBDecodesIt() throws {
        let log = try Self.log("pixel5.first30.rawx.ubx")
        let rtklib = try RinexNavigationFile.read(contentsOf: Self.dir.appendingPathComponent("pixel5.first30.rawx.convbin304.nav"))
        #expect(log.navigation.ephemerides.count == 8 && rtklib.ephemerides.count == 8)
        #expect(Set(log.navigation.ephemerides.keys) == Set(rtklib.ephemerides.keys))
        for (sat, list) in log.navigation.ephemerides {
            guard let ours = list.first, list.count == 1, let theirs = rtklib.ephemerides[sat]?.first else { Issue.record("\(sat)"); continue }
            Self.expectSameEphemeris(ours, theirs, "\(sat)")
        }
        let k = try #require(log.navigation.klobuchar), r = try #require(rtklib.klobuchar)
        for i in 0..<4 {
            #expect(abs(k.alpha[i] - r.alpha[i]) <= 5e-4 * abs(r.alpha[i]) && abs(k.beta[i] - r.beta[i]) <= 5e-4 * abs(r.beta[i]))
        }
        #expect(log.skipped["sfrbx_parity"] == nil && log.skipped["sfrbx_unusable_ephemeris"] == nil)
    }

    /// Against the navigation file the subframes were made from: the same records (12 digits),
    /// and positions: the log solved with its own navigation equals it solved with the file
    /// (GPS, WLS: 30/30 epochs within 1 mm — the file's printed digits and its 4-digit Klobuchar).
    @Test(.enabled(if: SharedData.shouldRun)) func navigationAsTheFileItCameFrom() throws {
        let log = try Self.log("pixel5.first30.rawx.ubx")
        let file = try RinexNavigationFile.read(contentsOf: SharedData.url("gnss_raw/gsdc2021_mtv1_pixel5_part1/hour1180.21n"))
        for (sat, list) in log.navigation.ephemerides {
            for e in list {
                guard let r = file.ephemerides[sat]?.first(where: { $0.ephemerisReferenceTime == e.ephemerisReferenceTime && $0.iode == e.iode }) else {
                    Issue.record("\(sat) toe \(e.ephemerisReferenceTime) not in the file"); continue
                }
                Self.expectSameEphemeris(e, r, "\(sat)")
            }
        }
        var config = GNSSSolverConfiguration()
        config.systems = [.gps]
        let own = GNSSProcessor(ephemerides: SatelliteEphemerides(navigation: log.navigation), configuration: config).run(log.epochs, mode: .wls)
        let withFile = GNSSProcessor(ephemerides: SatelliteEphemerides(navigation: file), configuration: config).run(log.epochs, mode: .wls)
        #expect(own.statistics.epochsSolved == 30 && withFile.statistics.epochsSolved == 30)
        for (x, y) in zip(own.fixes, withFile.fixes) {
            let d = try LocalTangentFrame(origin: GeodeticCoordinate(latitude: y.latitude, longitude: y.longitude, ellipsoidalHeight: y.height ?? 0))
                .enu(latitude: x.latitude, longitude: x.longitude, ellipsoidalHeight: x.height ?? 0)
            let horizontal: Double = (d.east * d.east + d.north * d.north).squareRoot()
            #expect(horizontal < 1e-3)
        }
    }

    /// LNAV parity (IS-GPS-200 table 20-XIV): a subframe with one bit flipped is refused; the same
    /// subframe with its data bits still inverted by D30* (as transmitted) reads the same.
    @Test func lnavParity() throws {
        let bytes = [UInt8](try Data(contentsOf: Self.dir.appendingPathComponent("pixel5.first30.rawx.ubx")))
        // The first RXM-SFRBX frame (class 0x02, id 0x13) and its ten words.
        var at = 0
        while !(bytes[at] == 0xB5 && bytes[at + 1] == 0x62 && bytes[at + 2] == 0x02 && bytes[at + 3] == 0x13) {
            at += 8 + (Int(bytes[at + 4]) | Int(bytes[at + 5]) << 8)
        }
        let words = (0..<10).map { k in (0..<4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + 14 + 4 * k + $1]) << (8 * UInt32($1)) } }
        let upright = try #require(UBXRawLog.lnavWords(words))
        var flipped = words
        flipped[4] ^= 1 << 12
        #expect(UBXRawLog.lnavWords(flipped) == nil)
        var transmitted = words
        for k in 1..<10 where words[k - 1] & 1 == 1 { transmitted[k] ^= 0xFF_FFFF << 6 }
        #expect(transmitted != words && UBXRawLog.lnavWords(transmitted) == upright)
    }

    /// What a receiver also writes (edge.rawx.ubx, see the script): each case decoded as the
    /// protocol says, counted where it is not used.
    @Test func receiverCases() throws {
        let log = try Self.log("edge.rawx.ubx")
        #expect(log.epochs.map(\.flag) == [0, 0, 1, 0, 0])                 // clkReset at epoch 2
        #expect(log.skipped["glonass_slot_unknown"] == 5 && log.skipped["signal"] == 10)   // svId 255; IMES + GPS sigId 2
        let noCode = log.epochs.flatMap(\.observations).filter { $0.pseudorange == nil }
        #expect(log.skipped["pseudorange_invalid"] == noCode.count)
        func obs(_ epoch: Int, _ sat: String, _ signal: String) -> GNSSObservation? {
            log.epochs[epoch].observations.first { $0.satellite.description == sat && $0.signal == signal }
        }
        #expect(obs(1, "G06", "1C").map { $0.pseudorange == nil && $0.doppler != nil } == true)     // prValid clear
        #expect(obs(1, "G12", "1C").map { $0.carrierPhase == nil && $0.pseudorange != nil } == true) // cpValid clear
        #expect(obs(3, "G05", "1C").map { $0.carrierPhase != nil && $0.lossOfLockIndicator == 1 } == true) // locktime 0
        let e15 = log.epochs.indices.compactMap { obs($0, "E15", "1C") }.filter { $0.carrierPhase != nil }
        #expect(e15.count == 4 && e15.allSatisfy { $0.lossOfLockIndicator & 2 == 2 })          // halfCyc clear
        for (sat, signal, f) in [("E30", "7Q", GNSSConstants.e5bFrequency), ("C21", "2I", GNSSConstants.b1iFrequency),
                                 ("C21", "5P", GNSSConstants.l5Frequency), ("J02", "1C", GNSSConstants.l1Frequency)] {
            #expect(log.epochs.allSatisfy { e in e.observations.contains { $0.satellite.description == sat && $0.signal == signal && $0.frequency == f } },
                    "\(sat) \(signal)")
        }
        let m8 = try Self.log("m8.rawx.ubx")
        #expect(Set(m8.epochs.flatMap(\.observations).map { "\($0.satellite.system.rawValue)\($0.signal)" }) == ["G1C", "R1C", "E1X"])
        #expect(m8.glonassChannels == [9: -2, 21: 4])
    }

    /// Detection by content is any u-blox binary log, not only one starting with RXM-RAWX: the
    /// NAV-PVT + NAV-DOP log of a rover (Traces/Other/rover.ubx, pyubx2) is u-blox, and reading
    /// raw measurements from it says it has none and what it has (before: "not a RINEX
    /// observation file…"); the same log's 8 KiB of NAV messages followed by the RXM-RAWX log
    /// (its first RAWX beyond the 4 KiB detection window) is found and read like the RAWX log.
    @Test func detectionBeyondTheFirstRAWX() throws {
        let rover = try Data(contentsOf: SharedData.repositoryRoot.appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/Traces/Other/rover.ubx"))
        #expect(UBXRawLog.looksLike(rover.prefix(4096)))
        #expect { _ = try UBXRawLog.read(data: rover, source: "rover.ubx") } throws: { e in
            (e as? TraceFormatError)?.message.contains("a u-blox log without RXM-RAWX messages (it holds 30 NAV-DOP, 30 NAV-PVT)") == true
        }
        let rawx = try Data(contentsOf: Self.dir.appendingPathComponent("m8.rawx.ubx"))
        let late = rover + rawx
        #expect(late.prefix(4096).range(of: Data([0xB5, 0x62, 0x02, 0x15])) == nil)
        #expect(UBXRawLog.looksLike(late.prefix(4096)))
        let a = try UBXRawLog.read(data: late, source: "late"), b = try UBXRawLog.read(data: rawx, source: "m8")
        #expect(a.epochs == b.epochs && a.messages == 3)
        #expect(!UBXRawLog.looksLike(Data("$GNGGA,083000.00,4957.398468,N\r\n".utf8)))
    }

    /// Malformed logs are refused naming the byte offset; a bad checksum with
    /// `skipInvalidFrames` is skipped and counted; detection by content.
    @Test func problems() throws {
        let good = [UInt8](try Data(contentsOf: Self.dir.appendingPathComponent("m8.rawx.ubx")))
        #expect(UBXRawLog.looksLike(Data(good.prefix(4096))) && !UBXRawLog.looksLike(Data("$GPGGA,1".utf8)))
        // The frames: sync, class, id, length, payload, checksum.
        var frames: [Int] = []
        var at = 0
        while at + 6 <= good.count { frames.append(at); at += 8 + Int(good[at + 4]) | Int(good[at + 5]) << 8 }
        #expect(frames.count == 3)
        func refusal(_ edit: (inout [UInt8]) -> Void, skip: Bool = false) -> String {
            var b = good
            edit(&b)
            do {
                let l = try UBXRawLog.read(data: Data(b), source: "m8.ubx", skipInvalidFrames: skip)
                return "read \(l.epochs.count)" + l.skipped.sorted { $0.key < $1.key }.map { " \($0.key)=\($0.value)" }.joined()
            }
            catch { return error.description }
        }
        func recheck(_ b: inout [UInt8], _ f: Int) {
            let n = Int(b[f + 4]) | Int(b[f + 5]) << 8
            var a: UInt8 = 0, c: UInt8 = 0
            for k in (f + 2)..<(f + 6 + n) { a &+= b[k]; c &+= a }
            b[f + 6 + n] = a; b[f + 7 + n] = c
        }
        let second = frames[1], p = second + 6
        #expect(refusal { $0[p + 3] ^= 1 }.hasPrefix("m8.ubx: at byte \(second): UBX checksum"))
        #expect(refusal({ $0[p + 3] ^= 1 }, skip: true) == "read 2 frame=1 pseudorange_invalid=2")   // R09 has no code in two of the three epochs
        #expect(refusal { $0[p + 11] &+= 1; recheck(&$0, second) }.hasPrefix("m8.ubx: at byte \(second): RXM-RAWX of "))
        #expect(refusal { b in
            for k in 0..<8 { b[p + k] = withUnsafeBytes(of: (700_000.0).bitPattern.littleEndian) { Array($0) }[k] }
            recheck(&b, second)
        } == "m8.ubx: at byte \(second): RXM-RAWX rcvTow 700000.0 s is not a time of week")
        #expect(refusal { b in
            // The second epoch's time set 1 s before the first's.
            let tow0 = (0..<8).reduce(UInt64(0)) { $0 | UInt64(b[frames[0] + 6 + $1]) << (8 * $1) }
            let earlier = (Double(bitPattern: tow0) - 1).bitPattern
            for k in 0..<8 { b[p + k] = UInt8(truncatingIfNeeded: earlier >> (8 * k)) }
            recheck(&b, second)
        }.hasPrefix("m8.ubx: at byte \(second): RXM-RAWX epoch (week 2155, "))
        #expect(refusal { b in
            for k in 0..<8 { b[p + 16 + k] = UInt8(truncatingIfNeeded: Double.nan.bitPattern >> (8 * k)) }
            recheck(&b, second)
        }.hasPrefix("m8.ubx: at byte \(second): RXM-RAWX measurement 1 ("))
        #expect(refusal { b in b[p + 8] = 0; b[p + 9] = 0; recheck(&b, second) } == "read 2 pseudorange_invalid=2 week_unknown=1")
        #expect(refusal { $0 = Array($0.prefix(second + 100)) }.hasPrefix("m8.ubx: at byte \(second): log ends inside a UBX frame"))
        #expect(refusal { _ in } == "read 3 pseudorange_invalid=2")   // two measurements with prValid clear
        // Loss of lock from the third epoch's locktime: a measurement whose phase goes on (LLI 0)
        // gets bit 0 when its locktime is 0, smaller than before, or subHalfCyc changes.
        let third = frames[2], q = third + 6
        let decoded = try UBXRawLog.read(data: Data(good), source: "m8.ubx")
        let k = try #require((0..<Int(good[q + 11])).first { k in
            decoded.epochs[2].observations.contains { $0.satellite.number == Int(good[q + 16 + 32 * k + 21]) && $0.carrierPhase != nil && $0.lossOfLockIndicator == 0 }
                && good[q + 16 + 32 * k + 20] == 0
        })
        let m = q + 16 + 32 * k
        func lli(_ edit: (inout [UInt8]) -> Void) throws -> Int? {
            var b = good
            edit(&b)
            recheck(&b, third)
            return try UBXRawLog.read(data: Data(b), source: "m8.ubx").epochs[2].observations
                .first { $0.satellite == SatelliteID(system: .gps, number: Int(good[m + 21])) }?.lossOfLockIndicator
        }
        #expect(try lli { _ in } == 0)
        #expect(try lli { $0[m + 24] = 0; $0[m + 25] = 0 } == 1)
        #expect(try lli { $0[m + 24] = 1; $0[m + 25] = 0 } == 1)
        #expect(try lli { $0[m + 30] |= 8 } == 1)
        #expect(try lli { $0[m + 30] &= ~4 } == 2)
    }

    /// Seeded mutations of the payloads with the checksums made right again (so the damage
    /// reaches the decoder, not only the checksum test), and plain byte mutations: each reads or
    /// is refused with a TraceFormatError naming it — never a trap.
    @Test func mutants() throws {
        let bytes = [UInt8](try Data(contentsOf: Self.dir.appendingPathComponent("edge.rawx.ubx")))
        var rng = SeededRandom(seed: 0x15)
        var read = 0, refused = 0
        for k in 0..<300 {
            var b = bytes
            for _ in 0..<(1 + Int(rng.next() % 6)) {
                let i = Int(rng.next() % UInt64(b.count))
                b[i] = UInt8(truncatingIfNeeded: rng.next())
            }
            // Checksums recomputed over each frame as its (possibly damaged) length says.
            var at = 0
            while at + 8 <= b.count, b[at] == 0xB5, b[at + 1] == 0x62 {
                let n = Int(b[at + 4]) | Int(b[at + 5]) << 8
                guard at + 8 + n <= b.count else { break }
                var a: UInt8 = 0, c: UInt8 = 0
                for j in (at + 2)..<(at + 6 + n) { a &+= b[j]; c &+= a }
                b[at + 6 + n] = a; b[at + 7 + n] = c
                at += 8 + n
            }
            let source = "edge#\(k)"
            do {
                let log = try UBXRawLog.read(data: Data(b), source: source)
                #expect(log.epochs.allSatisfy { $0.time.isFinite && $0.observations.allSatisfy { o in o.frequency.map { $0 > 1e9 && $0 < 2e9 } ?? true } })
                read += 1
            } catch {
                #expect(error.description.hasPrefix(source))
                refused += 1
            }
        }
        #expect(read > 0 && refused > 0)
        // The subframes: bits flipped inside RXM-SFRBX payloads (checksums made right): parity
        // refuses most; what passes is decoded through the RINEX reader's checks — never a trap.
        let nav = [UInt8](try Data(contentsOf: Self.dir.appendingPathComponent("pixel5.first30.rawx.ubx")))
        var frames: [(Int, Int)] = []
        var at = 0
        while at + 8 <= nav.count {
            let n = Int(nav[at + 4]) | Int(nav[at + 5]) << 8
            if nav[at + 2] == 0x02 && nav[at + 3] == 0x13 { frames.append((at, n)) }
            at += 8 + n
        }
        #expect(frames.count == 8 * 3 + 1)
        var parityRefused = 0
        for k in 0..<200 {
            var b = nav
            let (f, n) = frames[Int(rng.next() % UInt64(frames.count))]
            for _ in 0..<(1 + Int(rng.next() % 3)) { b[f + 6 + 8 + Int(rng.next() % UInt64(n - 8))] ^= UInt8(1) << UInt8(rng.next() % 8) }
            var a: UInt8 = 0, c: UInt8 = 0
            for j in (f + 2)..<(f + 6 + n) { a &+= b[j]; c &+= a }
            b[f + 6 + n] = a; b[f + 7 + n] = c
            let log = try UBXRawLog.read(data: Data(b), source: "nav#\(k)")
            parityRefused += log.skipped["sfrbx_parity"] ?? 0
            #expect(log.navigation.ephemerides.values.allSatisfy { $0.allSatisfy { e in e.sqrtA > 1000 && e.eccentricity < 1 } })
        }
        #expect(parityRefused > 150)
        // Plain mutants meet the checksum test: skipped frames, or a cut log refused.
        try GNSSReaderFuzzTests.expectMutantsReadOrRefused([Self.dir.appendingPathComponent("edge.rawx.ubx")], seed: 0x2A15, count: 100) { data, source in
            _ = try UBXRawLog.read(data: data, source: source, skipInvalidFrames: true)
            return []
        }
    }
}
