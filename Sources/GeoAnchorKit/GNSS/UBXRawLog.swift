import Foundation

/// The raw measurements of a u-blox receiver's log (`UBX-RXM-RAWX`, class 0x02 id 0x15: what
/// an M8T, F9P, F9T or X20 records for post-processing) turned into ``GNSSEpoch``s — the same
/// epochs a RINEX observation file gives, for ``GNSSProcessor`` and `geobench gnss`.
///
/// Read per the u-blox interface descriptions (M8 protocol § 32.18.4, ZED-F9P § 3.18.4):
/// - the epoch's time is GPS time, `week` · 604,800 s + `rcvTow` (s, not rounded: the
///   measurements refer to this exact tag); `recStat` bit 1 (`clkReset`: the receiver clock
///   was reset, code and phase jumped) gives the epoch flag 1 as RINEX's "power failure";
///   an epoch with week 0 (the receiver does not know the time yet) is left out and counted
///   (`week_unknown`);
/// - per measurement `prMes` (m) is the pseudorange when `trkStat` bit 0 (`prValid`) is set,
///   `cpMes` (cycles) the carrier phase when bit 1 (`cpValid`) is set and `cpStdev` is not 15
///   ("invalid"), `doMes` (Hz, positive for an approaching satellite, as RINEX) the Doppler,
///   `cno` (dB-Hz) the signal strength (0: none);
/// - the RINEX loss-of-lock bits of the phase: bit 0 when `locktime` is 0, smaller than the
///   same signal's previous `locktime`, or `subHalfCyc` changed (a slip, as RTKLIB decodes
///   it) — at this epoch or at one since the signal's last valid phase, whose arc it broke;
///   bit 1 when `halfCyc` (bit 2: the half-cycle ambiguity is resolved) is clear;
/// - `gnssId`/`svId` name the satellite (GPS, SBAS `svId` 120–158 as S20–S58, Galileo,
///   BeiDou, QZSS 1–10 as J01–J10, GLONASS 1–32, NavIC); GLONASS `freqId` − 7 is the FDMA
///   channel (collected in ``glonassChannels``); `svId` 255 (a GLONASS satellite not yet
///   identified) and IMES (`gnssId` 4) are counted, not used;
/// - `sigId` names the signal as RINEX 3 does (message version 1 and later): GPS 0 L1C/A `1C`,
///   3 L2CL `2L`, 4 L2CM `2S`, 6 L5I `5I`, 7 L5Q `5Q`; SBAS 0 `1C`; Galileo 0 E1C `1C`, 1 E1B `1B`,
///   3 E5aI `5I`, 4 E5aQ `5Q`, 5 E5bI `7I`, 6 E5bQ `7Q`; BeiDou 0/1 B1I `2I`, 2/3 B2I `7I`,
///   5 B1C pilot `1P`, 6 B1C data `1D`, 7 B2a pilot `5P`, 8 B2a data `5D`; QZSS 0 L1C/A `1C`,
///   1 L1S `1Z`, 4 L2CM `2S`, 5 L2CL `2L`, 8 L5I `5I`, 9 L5Q `5Q`; GLONASS 0 L1OF `1C`, 2 L2OF `2C`;
///   NavIC 0 L5A `5A`. Version 0 (M8 firmware before protocol 17; the byte is reserved) is L1
///   only: `1C`, Galileo `1X` (E1 B+C), BeiDou `2I`. Other ids are counted (`signal`), not used.
///
/// The receiver's own standard deviations (`prStdev`, `cpStdev`, `doStdev`) are not carried:
/// ``GNSSObservation`` has no place for them (RINEX has none either), so positioning weights
/// the code by elevation and C/N0 as it does for a RINEX file.
///
/// The log's broadcast navigation (`RXM-SFRBX`, class 0x02 id 0x13) of GPS and QZSS (LNAV) is
/// decoded into ``navigation``: ephemerides and the Klobuchar coefficients, so a log with its
/// subframes is positioned on its own. Other systems' subframes (Galileo I/NAV, GLONASS strings,
/// BeiDou D1/D2) are counted (`sfrbx_not_decoded`): give a RINEX navigation file or SP3 orbits
/// for them. Other messages (NAV-PVT, NMEA, …) are read past.
public struct UBXRawLog: Sendable {
    public var epochs: [GNSSEpoch]
    /// GLONASS FDMA channel per slot, from the measurements' `freqId` (the last one seen).
    public var glonassChannels: [Int: Int]
    /// GPS and QZSS ephemerides and Klobuchar coefficients from the log's RXM-SFRBX subframes
    /// (empty without them).
    public var navigation: RinexNavigationFile
    /// RXM-RAWX messages read (epochs, including those left out).
    public var messages: Int
    /// Measurements read (each a satellite's signal at an epoch).
    public var measurements: Int
    /// Measurements (or their parts) and epochs not used, by reason: `signal` (a `sigId` or
    /// `gnssId` not listed above, IMES), `glonass_slot_unknown` (`svId` 255),
    /// `pseudorange_invalid` (`prValid` clear: the Doppler and phase are kept),
    /// `week_unknown` (an epoch with week 0), `frame` (a frame skipped for its checksum with
    /// `skipInvalidFrames`); subframes: `sfrbx_parity` (a GPS/QZSS subframe failing its parity),
    /// `sfrbx_not_decoded` (other systems), `sfrbx_unusable_ephemeris` (values the RINEX
    /// reader's checks refuse).
    public var skipped: [String: Int]

    /// True when `head` (a log's first bytes) is u-blox binary: it holds a complete UBX frame
    /// whose checksum matches (any message: a log may start with NAV or MON messages and log its
    /// first RXM-RAWX later), or an RXM-RAWX frame header. ``read(data:source:skipInvalidFrames:)``
    /// then says when the log has no RXM-RAWX at all.
    public static func looksLike(_ head: Data) -> Bool {
        let b = [UInt8](head)
        guard b.count >= 4 else { return false }
        for k in 0..<(b.count - 3) where b[k] == 0xB5 && b[k + 1] == 0x62 {
            if b[k + 2] == 0x02 && b[k + 3] == 0x15 { return true }
            guard k + 6 <= b.count else { continue }
            let length = Int(b[k + 4]) | Int(b[k + 5]) << 8, end = k + 6 + length
            guard end + 2 <= b.count else { continue }
            if UBXReader.checksum(b, frameAt: k, length: length) == (b[end], b[end + 1]) { return true }
        }
        return false
    }

    /// Reads a log. With `skipInvalidFrames` a frame whose checksum does not match is skipped
    /// and counted (`frame`) instead of refusing the log (a serial link's lost bytes).
    /// - Throws: ``TraceFormatError`` naming the byte offset of a broken frame, a malformed
    ///   RXM-RAWX or an epoch that does not come after the previous one; for a log without any
    ///   RXM-RAWX message (naming the messages it holds: a NAV-PVT log is a trace, not raw
    ///   measurements).
    public static func read(contentsOf url: URL, skipInvalidFrames: Bool = false) throws(TraceFormatError) -> UBXRawLog {
        try read(data: ByteLineReader.contents(of: url), source: url.path, skipInvalidFrames: skipInvalidFrames)
    }

    /// Reads a log in memory; `source` names it in errors.
    public static func read(data: Data, source: String, skipInvalidFrames: Bool = false) throws(TraceFormatError) -> UBXRawLog {
        let b = [UInt8](data)
        var log = UBXRawLog(epochs: [], glonassChannels: [:], navigation: RinexNavigationFile(), messages: 0, measurements: 0, skipped: [:])
        var subframes: [LNAVSubframe] = []
        var lock: [Key: (locktime: Int, halfSubtracted: Bool, slipPending: Bool)] = [:]
        var others: [String: Int] = [:]   // frames of other messages, by name (said when there is no RXM-RAWX)
        func error(_ at: Int, _ m: String) -> TraceFormatError {
            TraceFormatError(source: source, line: nil, message: "at byte \(at): \(m)")
        }
        try UBXReader.scan(b, fail: { (at, m, damage) throws(TraceFormatError) in
            guard skipInvalidFrames, damage == .checksum else { throw error(at, m) }
            log.skipped["frame", default: 0] += 1
        }, text: { _, _ in }) { (frame) throws(TraceFormatError) in
            if frame.cls == 0x02, frame.id == 0x13 {
                // RXM-SFRBX: gnssId, svId, sigId, freqId, numWords, chn, version, reserved, words.
                let x = UBXReader.Fields(b: b, p: frame.payload)
                guard frame.length >= 8, frame.length == 8 + 4 * x.u1(4) else {
                    throw error(frame.offset, "RXM-SFRBX of \(frame.length) bytes (8 + 4 per word expected)")
                }
                let gnss = x.u1(0), sv = x.u1(1)
                guard (gnss == 0 && (1...32).contains(sv)) || (gnss == 5 && (1...10).contains(sv)) else {
                    log.skipped["sfrbx_not_decoded", default: 0] += 1; return
                }
                let words = (0..<x.u1(4)).map { UInt32(x.u4(8 + 4 * $0)) }
                guard let data = Self.lnavWords(words) else { log.skipped["sfrbx_parity", default: 0] += 1; return }
                subframes.append(LNAVSubframe(satellite: SatelliteID(system: gnss == 0 ? .gps : .qzss, number: sv), words: data))
                return
            }
            guard frame.cls == 0x02, frame.id == 0x15 else { others[Self.messageName(frame.cls, frame.id), default: 0] += 1; return }
            log.messages += 1
            let x = UBXReader.Fields(b: b, p: frame.payload)
            guard frame.length >= 16 else { throw error(frame.offset, "RXM-RAWX of \(frame.length) bytes (16 + 32 per measurement expected)") }
            let count = x.u1(11)
            guard frame.length == 16 + 32 * count else {
                throw error(frame.offset, "RXM-RAWX of \(frame.length) bytes announces \(count) measurements (\(16 + 32 * count) bytes)")
            }
            let tow = x.r8(0), week = x.u2(8), recStat = x.u1(12), version = x.u1(13)
            guard tow.isFinite, tow >= 0, tow < 604_800 else { throw error(frame.offset, "RXM-RAWX rcvTow \(tow) s is not a time of week") }
            guard week > 0 else { log.skipped["week_unknown", default: 0] += 1; return }
            let time = Double(week) * GNSSTime.secondsPerWeek + tow
            if let last = log.epochs.last, time <= last.time {
                throw error(frame.offset, String(format: "RXM-RAWX epoch (week %d, %.7f s) does not come after the previous one (%.7f s earlier or the same)", week, tow, last.time - time))
            }
            var epoch = GNSSEpoch(time: time, flag: recStat & 2 != 0 ? 1 : 0, observations: [], line: 0)
            epoch.observations.reserveCapacity(count)
            for k in 0..<count {
                let m = 16 + 32 * k
                log.measurements += 1
                let gnss = x.u1(m + 20), sv = x.u1(m + 21), sigId = x.u1(m + 22), freqId = x.u1(m + 23)
                guard let (satellite, signal) = Self.signal(gnss: gnss, sv: sv, sigId: version >= 1 ? sigId : nil) else {
                    log.skipped[gnss == 6 && sv == 255 ? "glonass_slot_unknown" : "signal", default: 0] += 1
                    continue
                }
                if satellite.system == .glonass, freqId <= 13 { log.glonassChannels[satellite.number] = freqId - 7 }
                let trk = x.u1(m + 30), locktime = x.u2(m + 24), cpStdev = x.u1(m + 28) & 15, cn0 = x.u1(m + 26)
                // GLONASS: the channel of this measurement (a one-entry table); others need none.
                let channels: [Int: Int] = satellite.system == .glonass && freqId <= 13 ? [satellite.number: freqId - 7] : [:]
                var o = GNSSObservation(satellite: satellite, signal: signal,
                                        frequency: RinexObservationFile.frequency(satellite, signal: signal, channels: channels))
                let pr = x.r8(m), cp = x.r8(m + 8), dop = x.r4(m + 16)
                guard pr.isFinite, cp.isFinite, dop.isFinite else {
                    throw error(frame.offset, "RXM-RAWX measurement \(k + 1) (\(satellite) \(signal)) is not a number")
                }
                if trk & 1 != 0 { o.pseudorange = pr } else { log.skipped["pseudorange_invalid", default: 0] += 1 }
                o.doppler = dop
                if cn0 > 0 { o.cn0 = Double(cn0) }
                let key = Key(satellite: satellite, signal: signal)
                let halfSubtracted = trk & 8 != 0
                let previous = lock[key]
                // A slip seen while the phase is not valid breaks the arc the next valid phase is on.
                let slip = locktime == 0 || (previous.map { locktime < $0.locktime || halfSubtracted != $0.halfSubtracted || $0.slipPending } ?? false)
                let phaseValid = trk & 2 != 0 && cpStdev != 15
                lock[key] = (locktime, halfSubtracted, slip && !phaseValid)
                if phaseValid {
                    o.carrierPhase = cp
                    o.lossOfLockIndicator = (slip ? 1 : 0) | (trk & 4 == 0 ? 2 : 0)
                }
                epoch.observations.append(o)
            }
            log.epochs.append(epoch)
        }
        guard log.messages > 0 else {
            let held = others.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.value) \($0.key)" }.joined(separator: ", ")
            throw TraceFormatError(source: source, line: nil, message: "a u-blox log without RXM-RAWX messages"
                + (held.isEmpty ? "" : " (it holds \(held))")
                + ": raw measurements need RXM-RAWX enabled in the receiver (u-center: CFG-MSGOUT-UBX_RXM_RAWX); its NAV-PVT fixes are a trace (geobench convert/accuracy/filter)")
        }
        if let first = log.epochs.first, !subframes.isEmpty {
            log.navigation = Self.navigation(subframes, week: Int(first.time / GNSSTime.secondsPerWeek), time: first.time, skipped: &log.skipped)
        }
        return log
    }

    struct Key: Hashable { let satellite: SatelliteID, signal: String }

    /// `NAV-PVT` for a message the logs commonly hold, else `UBX 0x01 0x07`.
    static func messageName(_ cls: UInt8, _ id: UInt8) -> String {
        let names: [UInt16: String] = [0x0107: "NAV-PVT", 0x0135: "NAV-SAT", 0x0122: "NAV-CLOCK", 0x0103: "NAV-STATUS",
                                       0x0104: "NAV-DOP", 0x0102: "NAV-POSLLH", 0x0112: "NAV-VELNED", 0x0143: "NAV-SIG",
                                       0x0213: "RXM-SFRBX", 0x0A09: "MON-HW", 0x0A04: "MON-VER", 0x0501: "ACK-ACK"]
        return names[UInt16(cls) << 8 | UInt16(id)] ?? "UBX 0x\(UBXReader.hex(cls)) 0x\(UBXReader.hex(id))"
    }

    /// The satellite and RINEX 3 signal of a measurement (`sigId` nil: message version 0).
    static func signal(gnss: Int, sv: Int, sigId: Int?) -> (SatelliteID, String)? {
        let system: GNSSSystem, number: Int
        switch gnss {
        case 0 where (1...32).contains(sv): system = .gps; number = sv
        case 1 where (120...158).contains(sv): system = .sbas; number = sv - 100
        case 2 where (1...36).contains(sv): system = .galileo; number = sv
        case 3 where (1...63).contains(sv): system = .beidou; number = sv
        case 5 where (1...10).contains(sv): system = .qzss; number = sv
        case 6 where (1...32).contains(sv): system = .glonass; number = sv
        case 7 where (1...14).contains(sv): system = .navic; number = sv
        default: return nil
        }
        let signal: String?
        if let sigId {
            switch (system, sigId) {
            case (.gps, 0), (.sbas, 0), (.qzss, 0), (.glonass, 0), (.galileo, 0): signal = "1C"
            case (.gps, 3), (.qzss, 5): signal = "2L"
            case (.gps, 4), (.qzss, 4): signal = "2S"
            case (.gps, 6), (.galileo, 3), (.qzss, 8): signal = "5I"
            case (.gps, 7), (.galileo, 4), (.qzss, 9): signal = "5Q"
            case (.galileo, 1): signal = "1B"
            case (.galileo, 5): signal = "7I"
            case (.galileo, 6): signal = "7Q"
            case (.beidou, 0), (.beidou, 1): signal = "2I"
            case (.beidou, 2), (.beidou, 3): signal = "7I"
            case (.beidou, 5): signal = "1P"
            case (.beidou, 6): signal = "1D"
            case (.beidou, 7): signal = "5P"
            case (.beidou, 8): signal = "5D"
            case (.qzss, 1): signal = "1Z"
            case (.glonass, 2): signal = "2C"
            case (.navic, 0): signal = "5A"
            default: signal = nil
            }
        } else {
            switch system {
            case .galileo: signal = "1X"
            case .beidou: signal = "2I"
            case .navic: signal = nil
            default: signal = "1C"
            }
        }
        return signal.map { (SatelliteID(system: system, number: number), $0) }
    }
}
