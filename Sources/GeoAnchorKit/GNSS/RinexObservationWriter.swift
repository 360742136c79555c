import Foundation

/// Writes ``GNSSEpoch``s as a RINEX 3.04 observation file (mixed systems, GPS time): what
/// RTKLIB, gnss-lib-py, GAMIT, CSRS-PPP and every other GNSS tool reads — so a GnssLogger log or a
/// u-blox receiver's log (``GnssLoggerRawLog``, ``UBXRawLog``) can go on to them.
///
/// - Header: `RINEX VERSION / TYPE`, `PGM / RUN BY / DATE`, `MARKER NAME`, `OBSERVER / AGENCY`,
///   `REC # / TYPE / VERS`, `ANT # / TYPE`, `APPROX POSITION XYZ`, `ANTENNA: DELTA H/E/N`,
///   `SYS / # / OBS TYPES` (per system, each signal's `C`, `L`, `D`, `S` that occur, signals by
///   band and attribute), `SIGNAL STRENGTH UNIT` (DBHZ), `TIME OF FIRST OBS` / `LAST OBS` (GPS),
///   `SYS / PHASE SHIFT` (not known: blank), `GLONASS SLOT / FRQ #` (the channels given, and
///   those the observations' frequencies imply), `GLONASS COD/PHS/BIS` (not known: blank),
///   comments.
/// - Epochs: `>` records with the epoch flag (0, or 1 after a receiver clock jump), satellites in
///   RINEX order (G, R, E, C, J, I, S, by number), values F14.3 with the phase's loss-of-lock
///   digit; a value F14.3 cannot hold (|v| ≥ 10⁹ negative or 10¹⁰ positive) or a satellite
///   number beyond RINEX's two digits is left out and counted in ``Result/unrepresentable`` —
///   never written wrong.
///
/// Reading the text back with ``RinexObservationFile`` gives the same epochs to RINEX's
/// resolution (0.001 of each unit, 0.1 µs); RTKLIB 2.4.3 reads it (RinexObservationWriterTests).
public enum RinexObservationWriter {
    /// The header's descriptive records (all optional; RINEX's fixed widths cut longer text).
    public struct Header: Sendable, Hashable {
        public var markerName = "GeoAnchorKit"
        public var program = "GeoAnchorKit"
        public var runBy = ""
        public var observer = "", agency = ""
        public var receiverNumber = "", receiverType = "", receiverVersion = ""
        public var antennaNumber = "", antennaType = ""
        /// `APPROX POSITION XYZ` (ECEF m); zeros when nil (allowed for moving receivers).
        public var approximatePosition: ECEFCoordinate? = nil
        /// `COMMENT` lines (each cut to 60 characters).
        public var comments: [String] = []
        public init() {}
    }

    /// The text and what could not be written.
    public struct Result: Sendable, Hashable {
        public var text: String
        /// Epochs and observation records (satellite lines) written.
        public var epochs: Int, satelliteRecords: Int
        /// Values left blank because F14.3 cannot hold them, and epochs left out because their
        /// time is not finite or has more than 999 satellites.
        public var unrepresentable: Int, epochsLeftOut: Int
    }

    /// The file's text.
    /// - Parameters:
    ///   - epochs: in time order (as the readers give them).
    ///   - glonassChannels: GLONASS slot → FDMA channel for `GLONASS SLOT / FRQ #`; channels the
    ///     observations' frequencies imply are added.
    ///   - header: the descriptive records (marker, receiver, antenna, comments).
    ///   - creation: the `PGM / RUN BY / DATE` time (UTC).
    public static func text(epochs: [GNSSEpoch], glonassChannels: [Int: Int] = [:], header: Header = Header(),
                            creation: Date = Date()) -> Result {
        // Observation types per system: each signal's kinds that occur.
        var kinds: [GNSSSystem: [String: Set<Character>]] = [:]
        var channels = glonassChannels
        for e in epochs {
            for o in e.observations {
                var k = Set<Character>()
                if o.pseudorange != nil { k.insert("C") }
                if o.carrierPhase != nil { k.insert("L") }
                if o.doppler != nil { k.insert("D") }
                if o.cn0 != nil { k.insert("S") }
                guard !k.isEmpty, o.signal.count == 2, o.signal.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber) }) else { continue }
                kinds[o.satellite.system, default: [:]][o.signal, default: []].formUnion(k)
                if o.satellite.system == .glonass, channels[o.satellite.number] == nil, let f = o.frequency {
                    let k = o.band == "1" ? (f - 1_602e6) / 562.5e3 : o.band == "2" ? (f - 1_246e6) / 437.5e3 : .nan
                    if k.isFinite, abs(k - k.rounded()) < 1e-6, (-7...13).contains(k.rounded()) { channels[o.satellite.number] = Int(k.rounded()) }
                }
            }
        }
        var types: [GNSSSystem: [String]] = [:]
        for (system, signals) in kinds {
            types[system] = signals.keys.sorted().flatMap { s in ["C", "L", "D", "S"].filter { signals[s]!.contains($0) }.map { "\($0)\(s)" } }
        }
        let systems = types.keys.sorted()

        var lines: [String] = []
        func record(_ content: String, _ label: String) {
            let c = content.count > 60 ? String(content.prefix(60)) : content.padding(toLength: 60, withPad: " ", startingAt: 0)
            lines.append(c + label)
        }
        func a(_ s: String, _ width: Int) -> String {
            s.count > width ? String(s.prefix(width)) : s.padding(toLength: width, withPad: " ", startingAt: 0)
        }
        let mixed = systems.count == 1 ? "\(systems[0].rawValue)" : "M"
        record(String(format: "%9.2f", 3.04) + String(repeating: " ", count: 11) + a("OBSERVATION DATA", 20) + a(mixed, 20), "RINEX VERSION / TYPE")
        let utc = Int(creation.timeIntervalSince1970.rounded(.down))
        let (cy, cm, cd) = ByteParsing.civilFromDays(Int((Double(utc) / 86_400).rounded(.down)))
        let cs = ((utc % 86_400) + 86_400) % 86_400
        record(a(header.program, 20) + a(header.runBy, 20)
               + String(format: "%04d%02d%02d %02d%02d%02d UTC", cy, cm, cd, cs / 3600, cs / 60 % 60, cs % 60), "PGM / RUN BY / DATE")
        for c in header.comments { record(a(c, 60), "COMMENT") }
        record(a(header.markerName, 60), "MARKER NAME")
        record(a(header.observer, 20) + a(header.agency, 40), "OBSERVER / AGENCY")
        record(a(header.receiverNumber, 20) + a(header.receiverType, 20) + a(header.receiverVersion, 20), "REC # / TYPE / VERS")
        record(a(header.antennaNumber, 20) + a(header.antennaType, 20), "ANT # / TYPE")
        let p = header.approximatePosition
        let xyz = [p?.x ?? 0, p?.y ?? 0, p?.z ?? 0].map { $0.isFinite && abs($0) < 1e9 ? $0 : 0 }
        record(String(format: "%14.4f%14.4f%14.4f", xyz[0], xyz[1], xyz[2]), "APPROX POSITION XYZ")
        record(String(format: "%14.4f%14.4f%14.4f", 0.0, 0.0, 0.0), "ANTENNA: DELTA H/E/N")
        for s in systems {
            let list = types[s]!
            for start in stride(from: 0, to: list.count, by: 13) {
                let part = list[start..<min(start + 13, list.count)].map { " " + $0 }.joined()
                record(start == 0 ? "\(s.rawValue)  " + String(format: "%3d", list.count) + part : String(repeating: " ", count: 6) + part, "SYS / # / OBS TYPES")
            }
        }
        record("DBHZ", "SIGNAL STRENGTH UNIT")

        // Epoch times: GPS seconds → 0.1 µs ticks → calendar, once per epoch.
        typealias Calendar = (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Double)
        func calendar(_ t: Double) -> Calendar? {
            guard t.isFinite, t >= 0, t < 1e11 else { return nil }
            let ticks = Int64((t * 1e7).rounded())
            let days = Int(ticks / 864_000_000_000), rest = ticks % 864_000_000_000
            let (y, m, d) = ByteParsing.civilFromDays(days + ByteParsing.daysFromCivil(year: 1980, month: 1, day: 6))
            return (y, m, d, Int(rest / 36_000_000_000), Int(rest / 600_000_000 % 60), Double(rest % 600_000_000) / 1e7)
        }
        let written: [(epoch: GNSSEpoch, time: Calendar)] = epochs.compactMap { e in
            guard let c = calendar(e.time), Set(e.observations.map(\.satellite)).count <= 999 else { return nil }
            return (e, c)
        }
        if let first = written.first?.time, let last = written.last?.time {
            func obsTime(_ c: Calendar) -> String {
                String(format: "%6d%6d%6d%6d%6d%13.7f     GPS", c.year, c.month, c.day, c.hour, c.minute, c.second)
            }
            record(obsTime(first), "TIME OF FIRST OBS")
            record(obsTime(last), "TIME OF LAST OBS")
        }
        for s in systems {
            for t in types[s]! where t.hasPrefix("L") { record("\(s.rawValue) \(t)", "SYS / PHASE SHIFT") }
        }
        if systems.contains(.glonass) || !glonassChannels.isEmpty {
            let slots = channels.keys.sorted()
            let entries = slots.map { "R" + String(format: "%02d %2d", $0, channels[$0]!) }
            if entries.isEmpty { record(String(format: "%3d", 0), "GLONASS SLOT / FRQ #") }
            for start in stride(from: 0, to: entries.count, by: 8) {
                let part = entries[start..<min(start + 8, entries.count)].map { $0 + " " }.joined()
                record((start == 0 ? String(format: "%3d ", entries.count) : "    ") + part, "GLONASS SLOT / FRQ #")
            }
            // Code-phase biases not known: the four signals with blank values (4(1X,A3,1X,F8.3)).
            record(["C1C", "C1P", "C2C", "C2P"].map { " \($0)" + String(repeating: " ", count: 9) }.joined(), "GLONASS COD/PHS/BIS")
        }
        record("", "END OF HEADER")

        var result = Result(text: "", epochs: 0, satelliteRecords: 0, unrepresentable: 0, epochsLeftOut: epochs.count - written.count)
        func f14(_ v: Double?) -> String {
            guard let v else { return String(repeating: " ", count: 14) }
            let s = String(format: "%14.3f", v)
            guard v.isFinite, s.count == 14 else { result.unrepresentable += 1; return String(repeating: " ", count: 14) }
            return s
        }
        for (e, time) in written {
            var bySatellite: [SatelliteID: [String: GNSSObservation]] = [:]
            for o in e.observations where types[o.satellite.system] != nil
                && (o.pseudorange != nil || o.carrierPhase != nil || o.doppler != nil || o.cn0 != nil) {
                guard (1...99).contains(o.satellite.number) else { result.unrepresentable += 1; continue }   // RINEX numbers are two digits
                bySatellite[o.satellite, default: [:]][o.signal] = o
            }
            let sats = bySatellite.keys.sorted()
            lines.append(String(format: "> %04d %02d %02d %02d %02d %10.7f  %d%3d", time.year, time.month, time.day, time.hour, time.minute,
                                time.second, min(max(e.flag, 0), 6), sats.count))
            for sat in sats {
                var line = "\(sat.system.rawValue)" + String(format: "%02d", sat.number)
                for t in types[sat.system]! {
                    let o = bySatellite[sat]![String(t.dropFirst())]
                    switch t.first {
                    case "C": line += f14(o?.pseudorange) + "  "
                    case "L":
                        let value = f14(o?.carrierPhase)
                        let lli = o.map { $0.carrierPhase != nil && (1...9).contains($0.lossOfLockIndicator) ? "\($0.lossOfLockIndicator)" : " " } ?? " "
                        line += value + (value.trimmingCharacters(in: .whitespaces).isEmpty ? " " : lli) + " "
                    case "D": line += f14(o?.doppler) + "  "
                    default: line += f14(o?.cn0) + "  "
                    }
                }
                while line.last == " " { line.removeLast() }
                lines.append(line)
                result.satelliteRecords += 1
            }
            result.epochs += 1
        }
        result.text = lines.joined(separator: "\n") + "\n"
        return result
    }
}
