import Foundation

// RINEX 2.10 / 2.11 observation files (W. Gurtner, L. Estey: RINEX Version 2.11, 2007; the
// unofficial 2.12 only for its QZSS `J` and BeiDou `C` satellite letters). The differences from
// RINEX 3 that matter here:
//
// - one list of two-character observation types for all systems (`# / TYPES OF OBSERV`,
//   `C1 P1 L1 D1 S1 C2 P2 L2 …`), each mapped to the RINEX 3 signal it means for each system
//   (``RinexObservationFile/version2Signal(_:system:types:)``);
// - epoch lines without the `>` marker: a two-digit year, the flag, the satellite count and up to
//   12 satellites per line (continuation lines for more), then for each satellite
//   ⌈types / 5⌉ lines of 5 values each (F14.3 + LLI + signal strength digit);
// - a blank satellite system letter means GPS; no GLONASS slot/channel table (channels come
//   from the navigation data: ``RinexObservationFile/assignGlonassChannels(_:)``);
// - event flag 4 may bring new header records, a new `# / TYPES OF OBSERV` among them, which
//   applies from the next epoch on; flag 6 (cycle slips) repeats the satellite-line layout.

extension RinexObservationFile {
    /// The RINEX 3 observation code (`C1C`, `L2W`, …) a RINEX 2 type (`C1`, `P2`, `L2`, …) means
    /// for satellites of `system`, nil when the type has no signal in that system (a Galileo
    /// `P1`, a GLONASS `C5`).
    ///
    /// RINEX 2.11 (§4, table A1) names code types by band only; the attributes follow RINEX 3.04
    /// table 4 as RTKLIB and teqc map them: `C1` C/A (`1C`; Galileo E1 `1X`), `P1`/`P2` P(Y)
    /// (GPS `1W`/`2W`, GLONASS `1P`/`2P`), `C2` L2C (GPS/QZSS `2X`, GLONASS `2C`), bands 5, 6, 7, 8
    /// `X` (BeiDou of RINEX 2.12: bands 2, 6, 7 as `I`). Phase, Doppler and signal strength of a
    /// band go with its C/A-type code (`C1`, or `P1` when the file has no `C1`) in band 1, and with
    /// its P code (`P2`, or `C2` when the file has no `P2`) in band 2, as in geodetic receivers'
    /// files. `types` is the header's whole list (for those last two rules).
    public static func version2Signal(_ type: String, system: GNSSSystem, types: [String]) -> String? {
        let u = Array(type.utf8)
        guard u.count == 2, let kindByte = u.first, let bandByte = u.last else { return nil }
        let kind = Character(UnicodeScalar(kindByte))
        let band = Character(UnicodeScalar(bandByte))
        guard "CPLDS".contains(kind) else { return nil }
        let code: Character = kind == "P" ? "C" : kind
        // Which code a band's phase/Doppler/strength belongs to.
        func carrierAttribute(band1: Bool) -> Character? {
            switch system {
            case .gps:
                if band1 { return types.contains("C1") || !types.contains("P1") ? "C" : "W" }
                return types.contains("P2") || !types.contains("C2") ? "W" : "X"
            case .glonass:
                if band1 { return types.contains("C1") || !types.contains("P1") ? "C" : "P" }
                return types.contains("P2") || !types.contains("C2") ? "P" : "C"
            case .galileo: return band1 ? "X" : nil
            case .qzss: return band1 ? "C" : "X"
            case .sbas: return band1 ? "C" : nil
            case .beidou: return band1 ? nil : "I"
            case .navic: return nil
            }
        }
        var attribute: Character?
        switch (band, kind) {
        case ("1", "P"): attribute = system == .gps ? "W" : system == .glonass ? "P" : nil
        case ("2", "P"): attribute = system == .gps ? "W" : system == .glonass ? "P" : nil
        case ("1", "C"):
            switch system {
            case .gps, .glonass, .qzss, .sbas: attribute = "C"
            case .galileo: attribute = "X"
            default: attribute = nil
            }
        case ("2", "C"):
            switch system {
            case .gps, .qzss: attribute = "X"
            case .glonass: attribute = "C"
            case .beidou: attribute = "I"
            default: attribute = nil
            }
        case ("1", _): attribute = carrierAttribute(band1: true)
        case ("2", _): attribute = carrierAttribute(band1: false)
        case ("5", _): attribute = [.gps, .galileo, .qzss, .sbas].contains(system) ? "X" : nil
        case ("6", _): attribute = system == .galileo || system == .qzss ? "X" : system == .beidou ? "I" : nil
        case ("7", _): attribute = system == .galileo ? "X" : system == .beidou ? "I" : nil
        case ("8", _): attribute = system == .galileo ? "X" : nil
        default: attribute = nil
        }
        guard let a = attribute else { return nil }
        return "\(code)\(band)\(a)"
    }

    /// Gives GLONASS observations without a carrier frequency (RINEX 2 files, which have no
    /// slot/channel table; RINEX 3 files whose table omits a slot) the frequency of their
    /// slot's FDMA channel, from the navigation data (``RinexNavigationFile/glonassChannels``).
    /// Observations of slots `channels` lacks keep a nil frequency (counted by the positioning
    /// as `unknown_frequency`). Returns how many observations got a frequency.
    @discardableResult
    public mutating func assignGlonassChannels(_ channels: [Int: Int]) -> Int {
        var assigned = 0
        for (slot, ch) in channels where glonassChannels[slot] == nil { glonassChannels[slot] = ch }
        for e in epochs.indices {
            for o in epochs[e].observations.indices {
                let obs = epochs[e].observations[o]
                guard obs.satellite.system == .glonass, obs.frequency == nil,
                      let ch = glonassChannels[obs.satellite.number],
                      let f = Self.frequency(obs.satellite, signal: obs.signal, channels: [obs.satellite.number: ch]) else { continue }
                epochs[e].observations[o].frequency = f
                assigned += 1
            }
        }
        return assigned
    }
}

/// The body and header state of a RINEX 2 observation file being read; fed line by line after
/// the version line by ``RinexObservationFile``'s reader.
struct RinexVersion2ObservationParser {
    /// One header type's meaning per system: the RINEX 3 signal and kind, or nil (no signal).
    /// `first`: the first column of the same signal (one observation per signal and satellite).
    private struct Column { var signal: String; var kind: UInt8; var frequency: Double?; var first: Int }

    private enum State {
        case header
        case epoch                                        // expecting an epoch line
        case satelliteList(remaining: Int, flag: Int)     // continuation lines of the satellite list
        case data(satellite: Int, line: Int)              // data lines of the current epoch
        case special(remaining: Int, flag4: Bool)         // event records (flags 2–5)
        case slips(remaining: Int)                        // flag 6 data lines to skip
    }

    private var state = State.header
    private let fileSystem: Character
    private var explicitTimeSystem = false
    private var types: [String] = []
    private var pendingTypeCount = 0
    private var columns: [GNSSSystem: [Column?]] = [:]
    private var linesPerSatellite = 1
    private var current: GNSSEpoch? = nil
    private var satellites: [SatelliteID] = []
    private var expectedSatellites = 0
    private var slot: [Int] = []
    private var epochLine = 0
    /// Systems whose satellites a RINEX 2 file can carry (2.11: G R E S; 2.12: J C too).
    private static let systems: [GNSSSystem] = [.gps, .glonass, .galileo, .sbas, .qzss, .beidou]

    init(firstLine l: FixedWidthLine) {
        fileSystem = l.text(40, 1).first ?? " "
    }

    mutating func consume(_ l: FixedWidthLine, into f: inout RinexObservationFile) throws(TraceFormatError) {
        switch state {
        case .header: try header(l, into: &f)
        case .epoch: try epoch(l, into: &f)
        case .satelliteList(let remaining, let flag): try satelliteList(l, remaining: remaining, flag: flag)
        case .data(let s, let line): try data(l, satellite: s, line: line, into: &f)
        case .special(let remaining, let flag4):
            if flag4 && l.label == "# / TYPES OF OBSERV" { try typesLine(l, into: &f); if pendingTypeCount == 0 { try planColumns(l, into: &f) } }
            state = remaining > 1 ? .special(remaining: remaining - 1, flag4: flag4) : .epoch
            if case .epoch = state, pendingTypeCount > 0 { throw l.error("event record ends inside '# / TYPES OF OBSERV'") }
        case .slips(let remaining): state = remaining > 1 ? .slips(remaining: remaining - 1) : .epoch
        }
    }

    /// Checks the end of the file: inside the header, an epoch, or an event record is an error.
    mutating func finish(into f: inout RinexObservationFile, lastLine: Int, source: String) throws(TraceFormatError) {
        switch state {
        case .header:
            throw TraceFormatError(source: source, line: lastLine, message: "file ends inside the header (no 'END OF HEADER')")
        case .epoch: break
        case .satelliteList, .data:
            throw TraceFormatError(source: source, line: lastLine, message: "file ends inside the epoch of line \(epochLine): satellite line(s) missing")
        case .special, .slips:
            throw TraceFormatError(source: source, line: lastLine, message: "file ends inside the event record of line \(epochLine)")
        }
        if let e = current { f.epochs.append(e); current = nil }
    }

    private mutating func header(_ l: FixedWidthLine, into f: inout RinexObservationFile) throws(TraceFormatError) {
        if pendingTypeCount > 0 && l.label != "# / TYPES OF OBSERV" {
            throw l.error("'# / TYPES OF OBSERV' announced \(pendingTypeCount) more type(s) than it lists")
        }
        switch l.label {
        case "END OF HEADER":
            guard !types.isEmpty else { throw l.error("header declares no '# / TYPES OF OBSERV'") }
            if !explicitTimeSystem {
                // RINEX 2.11 §5.1: GPS time unless the file is GLONASS-only (UTC-based GLONASS
                // time) or Galileo-only.
                switch fileSystem {
                case "R": f.timeSystem = .glonass
                case "E": f.timeSystem = .galileo
                default: break
                }
            }
            try planColumns(l, into: &f)
            state = .epoch
        case "# / TYPES OF OBSERV":
            try typesLine(l, into: &f)
        case "TIME OF FIRST OBS":
            if try RinexObservationFile.commonHeaderLine(l, into: &f) { explicitTimeSystem = true }
        default:
            _ = try RinexObservationFile.commonHeaderLine(l, into: &f)
        }
    }

    private mutating func typesLine(_ l: FixedWidthLine, into f: inout RinexObservationFile) throws(TraceFormatError) {
        if pendingTypeCount == 0 {
            pendingTypeCount = try l.requiredInt(0, 6, "number of observation types", in: 1...RinexObservationFile.maximumObservationTypes)
            types = []
        } else if !l.isBlank(0, 6) {
            throw l.error("'# / TYPES OF OBSERV' starts again with \(pendingTypeCount) type(s) of the previous line still missing")
        }
        for k in 0..<9 where pendingTypeCount > 0 {
            let t = l.text(10 + 6 * k, 2).trimmingCharacters(in: .whitespaces)
            if t.isEmpty { throw l.error("'# / TYPES OF OBSERV' field \(k + 1) is blank, \(pendingTypeCount) type(s) still to come") }
            guard t.count == 2, let kind = t.first, "CPLDS".contains(kind), let band = t.last, "125678".contains(band) else {
                throw l.error("observation type '\(t)' is not a RINEX 2 type (C/P/L/D/S + band 1, 2, 5, 6, 7 or 8)")
            }
            guard !types.contains(t) else { throw l.error("observation type '\(t)' is listed twice") }
            types.append(t)
            pendingTypeCount -= 1
        }
        f.version2ObservationTypes = types
    }

    /// Maps the header's types to each system's RINEX 3 signals (``RinexObservationFile/observationTypes``).
    private mutating func planColumns(_ l: FixedWidthLine, into f: inout RinexObservationFile) throws(TraceFormatError) {
        f.observationTypes = [:]
        columns = [:]
        for sys in Self.systems {
            var cols: [Column?] = []
            var codes: [String] = []
            for t in types {
                guard let code = RinexObservationFile.version2Signal(t, system: sys, types: types) else { cols.append(nil); continue }
                let signal = String(code.dropFirst())
                // Two RINEX 2 types for one RINEX 3 code (`C1` and `P1` of Galileo do not occur;
                // a file listing e.g. `L1` twice is refused above).
                guard !codes.contains(code) else { throw l.error("observation types \(types) give \(sys) two '\(code)' columns") }
                codes.append(code)
                let first = cols.firstIndex { $0?.signal == signal } ?? cols.count
                cols.append(Column(signal: signal, kind: code.utf8.first ?? 0,
                                   frequency: sys == .glonass ? nil : RinexObservationFile.frequency(SatelliteID(system: sys, number: 1), signal: signal, channels: [:]),
                                   first: first))
            }
            columns[sys] = cols
            if !codes.isEmpty { f.observationTypes[sys] = codes }
        }
        linesPerSatellite = (types.count + 4) / 5
        slot = [Int](repeating: -1, count: types.count)
    }

    private mutating func epoch(_ l: FixedWidthLine, into f: inout RinexObservationFile) throws(TraceFormatError) {
        if l.count == 0 || l.isBlank(0, l.count) { return } // blank lines between epochs
        if let e = current { f.epochs.append(e); current = nil }
        epochLine = l.line
        let flag = try l.requiredInt(28, 1, "epoch flag", in: 0...6)
        let n = try l.requiredInt(29, 3, "number of satellites", in: 0...RinexObservationFile.maximumSatellitesPerEpoch)
        if (2...5).contains(flag) {
            f.skippedSpecialRecords += 1
            state = n > 0 ? .special(remaining: n, flag4: flag == 4) : .epoch
            return
        }
        let t = try l.calendar(year: (1, 2), month: (4, 2), day: (7, 2), hour: (10, 2), minute: (13, 2), second: (15, 11), twoDigitYear: true)
        if flag == 6 { f.skippedSpecialRecords += 1 } else {
            current = GNSSEpoch(time: f.timeSystem.toGPS(t), flag: flag, observations: [], line: l.line)
            current!.observations.reserveCapacity(n * 2)
        }
        satellites.removeAll(keepingCapacity: true)
        expectedSatellites = n
        try satelliteList(l, remaining: n, flag: flag)
    }

    /// Reads up to 12 satellites from columns 33–68 of an epoch line or its continuation.
    private mutating func satelliteList(_ l: FixedWidthLine, remaining: Int, flag: Int) throws(TraceFormatError) {
        if case .satelliteList = state, !l.isBlank(0, 32) {
            throw l.error("epoch at line \(epochLine) lists \(expectedSatellites) satellites, but this line is not a continuation of its satellite list")
        }
        let take = min(12, remaining)
        for k in 0..<take {
            let st = 32 + 3 * k
            guard let sat = Self.satellite(l, st) else {
                throw l.error("satellite '\(l.text(st, 3))' (\(satellites.count + 1) of \(expectedSatellites)) is not a satellite")
            }
            guard columns[sat.system] != nil else { throw l.error("satellite \(sat): system \(sat.system.rawValue) is not a RINEX 2 system") }
            satellites.append(sat)
        }
        if remaining > 12 {
            state = .satelliteList(remaining: remaining - 12, flag: flag)
        } else if satellites.isEmpty {
            state = .epoch
        } else if flag == 6 {
            state = .slips(remaining: satellites.count * linesPerSatellite)
        } else {
            state = .data(satellite: 0, line: 0)
        }
    }

    /// `s` + `nn` at `start`, a blank system letter meaning GPS (RINEX 2.11 §5.1).
    private static func satellite(_ l: FixedWidthLine, _ start: Int) -> SatelliteID? {
        guard start + 3 <= l.count else { return nil }
        let s = l.bytes[start], a = l.bytes[start + 1], b = l.bytes[start + 2]
        let sys: GNSSSystem
        if s == 32 { sys = .gps } else if let g = GNSSSystem(rawValue: Character(UnicodeScalar(s))) { sys = g } else { return nil }
        guard b >= 48, b <= 57, a == 32 || (a >= 48 && a <= 57) else { return nil }
        let n = (a == 32 ? 0 : Int(a - 48) * 10) + Int(b - 48)
        return n >= 1 ? SatelliteID(system: sys, number: n) : nil
    }

    private mutating func data(_ l: FixedWidthLine, satellite s: Int, line: Int, into f: inout RinexObservationFile) throws(TraceFormatError) {
        let sat = satellites[s]
        let cols = columns[sat.system] ?? []
        if line == 0 { for k in slot.indices { slot[k] = -1 } }
        let first = 5 * line
        for k in first..<min(first + 5, types.count) {
            let st = 16 * (k - first)
            guard st < l.count else { break }
            guard let v = try l.double(st, 14, "\(sat) \(types[k])") else { continue }
            let lli = (try l.int(st + 14, 1, "LLI of \(sat) \(types[k])", in: 0...9)) ?? 0
            _ = try l.int(st + 15, 1, "signal strength of \(sat) \(types[k])", in: 0...9)
            guard let c = cols[k] else { f.unassignedValues += 1; continue }
            // One observation per RINEX 3 signal: the first value of that signal creates it.
            current!.store(v, kind: c.kind, lli: lli, satellite: sat, signal: c.signal, slot: &slot[c.first],
                           frequency: sat.system == .glonass
                               ? RinexObservationFile.frequency(sat, signal: c.signal, channels: f.glonassChannels) : c.frequency)
        }
        if line + 1 < linesPerSatellite {
            state = .data(satellite: s, line: line + 1)
        } else if s + 1 < satellites.count {
            state = .data(satellite: s + 1, line: 0)
        } else {
            state = .epoch
        }
    }
}
