import Foundation

/// One signal of one satellite at one epoch: the RINEX 3 observables sharing a band and
/// attribute (`C1C`, `L1C`, `D1C`, `S1C` → signal `1C`).
public struct GNSSObservation: Sendable, Hashable {
    public var satellite: SatelliteID
    /// RINEX 3 band + attribute, e.g. `1C` (GPS L1 C/A), `5X` (L5 I+Q), `5Q` (E5a pilot).
    public var signal: String
    /// Carrier frequency, Hz (nil for a GLONASS FDMA signal whose channel the header omits).
    public var frequency: Double?
    /// Pseudorange, meters; nil when not observed (RINEX blank or 0).
    public var pseudorange: Double?
    /// Carrier phase, cycles; nil when not observed (blank, or `±0.000`, which GnssLogger
    /// converters write for an invalid accumulated delta range).
    public var carrierPhase: Double?
    /// Doppler, Hz (positive for an approaching satellite).
    public var doppler: Double?
    /// Carrier-to-noise density, dB-Hz.
    public var cn0: Double?
    /// RINEX loss-of-lock indicator bits of the phase (bit 0 lost lock, bit 1 half-cycle
    /// ambiguity), 0 when blank.
    public var lossOfLockIndicator: Int

    public init(satellite: SatelliteID, signal: String, frequency: Double?, pseudorange: Double? = nil,
                carrierPhase: Double? = nil, doppler: Double? = nil, cn0: Double? = nil, lossOfLockIndicator: Int = 0) {
        self.satellite = satellite; self.signal = signal; self.frequency = frequency
        self.pseudorange = pseudorange; self.carrierPhase = carrierPhase; self.doppler = doppler
        self.cn0 = cn0; self.lossOfLockIndicator = lossOfLockIndicator
    }

    /// The band digit of ``signal`` (`1`, `2`, `5`, `7`, …).
    public var band: Character { signal.first ?? "?" }
    /// Wavelength, m.
    public var wavelength: Double? { frequency.map { GNSSConstants.speedOfLight / $0 } }
}

/// All observations of one receiver epoch.
public struct GNSSEpoch: Sendable, Hashable {
    /// Receiver time tag as GPS time, seconds since 1980-01-06 (converted from the file's time
    /// system). Not rounded: pseudoranges refer to this exact tag.
    public var time: Double
    /// RINEX epoch flag (0 OK, 1 power failure since the previous epoch).
    public var flag: Int
    public var observations: [GNSSObservation]
    /// 1-based line of the epoch record in its file (diagnostics).
    public var line: Int

    public init(time: Double, flag: Int = 0, observations: [GNSSObservation], line: Int = 0) {
        self.time = time; self.flag = flag; self.observations = observations; self.line = line
    }
}

extension GNSSEpoch {
    /// Stores one RINEX value of kind `C`, `L`, `D` or `S` (its first letter, as a byte) in the
    /// observation of `sat`'s `signal`, which the signal's first value creates (`slot`: its
    /// index in ``observations``, −1 before). A code or strength of 0 and a phase within 0.001
    /// cycle of 0 are "not observed" (GnssLogger converters write `-0.000` for an invalid
    /// accumulated delta range); the LLI goes with the phase.
    mutating func store(_ v: Double, kind: UInt8, lli: Int, satellite sat: SatelliteID, signal: String,
                        slot: inout Int, frequency: @autoclosure () -> Double?) {
        if slot < 0 {
            slot = observations.count
            observations.append(GNSSObservation(satellite: sat, signal: signal, frequency: frequency()))
        }
        switch kind {
        case 67: if v != 0 { observations[slot].pseudorange = v }                                   // C
        case 76: if abs(v) >= 0.001 { observations[slot].carrierPhase = v }; observations[slot].lossOfLockIndicator = lli // L
        case 68: observations[slot].doppler = v                                                     // D
        case 83: if v != 0 { observations[slot].cn0 = v }                                           // S
        default: break
        }
    }
}

/// A RINEX 2.10/2.11 or 3.0x/4.0x observation file (mixed or single system).
///
/// Reads every system and observable the header declares (code `C`, phase `L`, Doppler `D`,
/// signal strength `S`), LLI bits, epoch flags (event records 2–5 are skipped and counted,
/// cycle-slip records 6 too), the GLONASS slot/frequency table and the time system of
/// `TIME OF FIRST OBS`. Epoch times are converted to GPS time explicitly (a GLONASS-time file
/// is UTC(SU) + 3 h, shifted with the leap-second table).
///
/// RINEX 2 files (two-digit years, one list of two-character types for all systems) are read
/// into the same RINEX 3 signals: each type is mapped per system by
/// ``version2Signal(_:system:types:)`` (`C1` → `C1C`, `P2` → `C2W`, `L2` → `L2W`, Galileo `C5`
/// → `C5X`, …), a blank satellite letter is GPS, a new type list after event flag 4 applies from
/// the next epoch on. RINEX 2 has no GLONASS channel table: give the navigation file's channels
/// with ``assignGlonassChannels(_:)``, else GLONASS observations have no frequency. The
/// wavelength factors of `WAVELENGTH FACT L1/2` (half-cycle phase of 1990s squaring receivers)
/// are not applied.
public struct RinexObservationFile: Sendable {
    public var version: Double
    /// Observation types per system, in file order (`C1C`, `L1C`, …).
    public var observationTypes: [GNSSSystem: [String]]
    /// GLONASS frequency channel per slot (`GLONASS SLOT / FRQ #`).
    public var glonassChannels: [Int: Int]
    /// Time system of the epochs (from `TIME OF FIRST OBS`; GPS when absent, per RINEX 3 for GPS
    /// and mixed files).
    public var timeSystem: GNSSTimeSystem
    /// `APPROX POSITION XYZ` (ECEF m), nil when 0,0,0 or absent.
    public var approximatePosition: ECEFCoordinate?
    /// `MARKER NAME`.
    public var markerName: String
    public var epochs: [GNSSEpoch]
    /// Epoch records that were not observations (flags 2–6), counted, not used.
    public var skippedSpecialRecords: Int
    /// RINEX 2 only: the header's observation types (`C1`, `L1`, `P2`, …) in file order (the
    /// last list, when event flag 4 changed it); empty for RINEX 3/4.
    public var version2ObservationTypes: [String] = []
    /// RINEX 2 only: values in a column whose type has no signal in the satellite's system (a
    /// `P1` value of a Galileo satellite), counted, not used (``version2Signal(_:system:types:)``).
    public var unassignedValues = 0

    /// Upper bounds that keep a corrupted header from allocating without limit.
    public static let maximumSatellitesPerEpoch = 999
    public static let maximumObservationTypes = 200

    /// Reads a file.
    /// - Throws: ``TraceFormatError`` (`FILE:LINE: message`) for anything malformed, truncated
    ///   or unsupported.
    public static func read(contentsOf url: URL) throws(TraceFormatError) -> RinexObservationFile {
        try read(ByteLineReader(url: url))
    }

    /// Reads bytes in memory; `source` names them in errors.
    public static func read(data: Data, source: String) throws(TraceFormatError) -> RinexObservationFile {
        try read(ByteLineReader(data: data, source: source))
    }

    /// A RINEX file, or a Compact RINEX (Hatanaka) file restored first (``CompactRinex``; its
    /// restored text is named `SOURCE (restored RINEX)` in errors).
    static func read(_ reader: ByteLineReader) throws(TraceFormatError) -> RinexObservationFile {
        let head = try ByteLineReader.firstLine(of: reader)
        if CompactRinex.looksLike(firstLine: head) {
            let text = try CompactRinex.restore(reader)
            return try parse(ByteLineReader(data: text, source: reader.source + " (restored RINEX)"))
        }
        return try parse(reader)
    }

    /// True when the first line looks like a RINEX observation header, or a Compact RINEX
    /// (Hatanaka) one (used to detect input kinds).
    public static func looksLike(firstLine: String) -> Bool {
        (firstLine.count >= 61 && firstLine.dropFirst(60).hasPrefix("RINEX VERSION / TYPE")
            && firstLine.dropFirst(20).first == "O") || CompactRinex.looksLike(firstLine: firstLine)
    }

    private static func parse(_ reader: ByteLineReader) throws(TraceFormatError) -> RinexObservationFile {
        var f = RinexObservationFile(version: 0, observationTypes: [:], glonassChannels: [:], timeSystem: .gps,
                                     approximatePosition: nil, markerName: "", epochs: [], skippedSpecialRecords: 0)
        var inHeader = true
        var sawVersion = false
        var pendingTypes: (GNSSSystem, Int)? = nil
        var pendingGlonass = 0
        var explicitTimeSystem = false
        var version2: RinexVersion2ObservationParser? = nil
        // Epoch state
        var current: GNSSEpoch? = nil
        var remaining = 0      // satellite lines still expected for `current`
        var skipLines = 0      // special-record lines to skip
        var lastLine = 0
        var epochLine = 0
        // Per system: each observation type's signal, kind letter and the position of the first
        // type of the same signal (so one record per signal is built without string compares).
        // Also each signal's carrier frequency where it does not depend on the satellite (all but
        // GLONASS FDMA), so the satellite lines need no lookup per signal.
        var plans: [GNSSSystem: [(signal: String, kind: UInt8, first: Int, frequency: Double?)]] = [:]
        // Scratch for the satellite lines: the observation index per signal (by plan position of
        // its first type), reused line after line.
        var slot: [Int] = []
        let source = reader.source

        func finishEpoch() {
            if let e = current { f.epochs.append(e) }
            current = nil
        }

        try forEachFixedWidthLine(reader) { (l: FixedWidthLine) throws(TraceFormatError) in
            lastLine = l.line
            if version2 != nil { try version2!.consume(l, into: &f); return }
            if inHeader {
                let label = l.label
                if !sawVersion {
                    let v = try l.rinexVersion(2..<5, types: "O", kind: "observation").version
                    f.version = v; sawVersion = true
                    if v < 3 { version2 = RinexVersion2ObservationParser(firstLine: l) }
                    return
                }
                switch label {
                case "END OF HEADER":
                    inHeader = false
                    guard !f.observationTypes.isEmpty else { throw l.error("header declares no 'SYS / # / OBS TYPES'") }
                    if !explicitTimeSystem, f.observationTypes.keys.count == 1, let only = f.observationTypes.keys.first {
                        // RINEX 3.04 §5.4: a single-system file defaults to that system's time.
                        switch only {
                        case .glonass: f.timeSystem = .glonass
                        case .galileo: f.timeSystem = .galileo
                        case .beidou: f.timeSystem = .beidou
                        case .qzss: f.timeSystem = .qzss
                        default: break
                        }
                    }
                    for (sys, types) in f.observationTypes {
                        let signals = types.map { String($0.dropFirst()) }
                        plans[sys] = types.indices.map { i in
                            (signals[i], types[i].utf8.first ?? 0, signals.firstIndex(of: signals[i])!,
                             sys == .glonass ? nil : frequency(SatelliteID(system: sys, number: 1), signal: signals[i], channels: [:]))
                        }
                        slot = [Int](repeating: -1, count: max(slot.count, types.count))
                    }
                case "SYS / # / OBS TYPES":
                    let sysText = l.text(0, 1)
                    var sys: GNSSSystem
                    var count: Int
                    if sysText == " " || sysText.isEmpty {
                        guard let p = pendingTypes else { throw l.error("continuation of 'SYS / # / OBS TYPES' without a first line") }
                        (sys, count) = p
                    } else {
                        guard let s = sysText.first.flatMap(GNSSSystem.init(rawValue:)) else {
                            throw l.error("unknown satellite system '\(sysText)'")
                        }
                        sys = s
                        count = try l.requiredInt(3, 3, "number of observation types", in: 0...maximumObservationTypes)
                        f.observationTypes[sys] = []
                    }
                    for k in 0..<13 {
                        guard (f.observationTypes[sys]?.count ?? 0) < count else { break }
                        let t = l.text(7 + 4 * k, 3).trimmingCharacters(in: .whitespaces)
                        guard t.count == 3, let kind = t.first, "CLDSX".contains(kind) else {
                            throw l.error("observation type '\(t)' is not a RINEX 3 code (C/L/D/S + band + attribute)")
                        }
                        f.observationTypes[sys, default: []].append(t)
                    }
                    let have = f.observationTypes[sys]?.count ?? 0
                    pendingTypes = have < count ? (sys, count) : nil
                case "GLONASS SLOT / FRQ #":
                    // Token-based: RINEX 3 says I3,1X,8(A3,1X,I2,1X) but converters (Google's
                    // GNSSToRINEXV3) shift the columns by one.
                    var tokens = l.text(0, 60).split(separator: " ")
                    if pendingGlonass == 0 {
                        guard let first = tokens.first, let n = Int(first), (0...64).contains(n) else {
                            throw l.error("number of GLONASS slots '\(tokens.first ?? "")' is not an integer in 0...64")
                        }
                        pendingGlonass = n
                        tokens.removeFirst()
                    }
                    guard tokens.count % 2 == 0 else { throw l.error("GLONASS slot/frequency list is not slot/channel pairs") }
                    for k in stride(from: 0, to: tokens.count, by: 2) where pendingGlonass > 0 {
                        guard let sat = SatelliteID(tokens[k]), sat.system == .glonass else {
                            throw l.error("'\(tokens[k])' is not a GLONASS slot")
                        }
                        guard let ch = Int(tokens[k + 1]), (-7...13).contains(ch) else {
                            throw l.error("GLONASS channel '\(tokens[k + 1])' of \(sat) is not an integer in -7...13")
                        }
                        f.glonassChannels[sat.number] = ch
                        pendingGlonass -= 1
                    }
                default:
                    if try commonHeaderLine(l, into: &f) { explicitTimeSystem = true }
                }
                return
            }
            // Body.
            if skipLines > 0 { skipLines -= 1; return }
            if l.bytes.first == 62 { // '>'
                if remaining > 0 {
                    throw l.error("epoch at line \(epochLine) announced \(remaining) more satellite line(s) than it has")
                }
                finishEpoch()
                epochLine = l.line
                let flag = try l.requiredInt(31, 1, "epoch flag", in: 0...6)
                let n = try l.requiredInt(32, 3, "number of satellites", in: 0...maximumSatellitesPerEpoch)
                if flag >= 2 && flag <= 5 { skipLines = n; f.skippedSpecialRecords += 1; return }
                if flag == 6 { skipLines = n; f.skippedSpecialRecords += 1; return }
                let t = try l.calendar(year: (2, 4), month: (7, 2), day: (10, 2), hour: (13, 2), minute: (16, 2), second: (18, 11))
                current = GNSSEpoch(time: f.timeSystem.toGPS(t), flag: flag, observations: [], line: l.line)
                current!.observations.reserveCapacity(n * 2)
                remaining = n
                return
            }
            guard remaining > 0, current != nil else {
                if l.isBlank(0, l.count) { return }
                throw l.error("satellite record outside an epoch (expected a '>' epoch line)")
            }
            remaining -= 1
            guard let sat = l.satellite(0) else { throw l.error("'\(l.text(0, 3))' is not a satellite") }
            guard let plan = plans[sat.system] else {
                throw l.error("satellite \(sat): system \(sat.system.rawValue) has no 'SYS / # / OBS TYPES' in the header")
            }
            // The satellite's observations are appended to the epoch in place (signals in plan order).
            for k in 0..<plan.count { slot[k] = -1 }
            for k in plan.indices {
                let st = 3 + 16 * k
                guard st < l.count else { break }
                let p = plan[k]
                guard let v = try l.double(st, 14, "\(sat) \(Character(UnicodeScalar(p.kind)))\(p.signal)") else { continue }
                let lli = (try l.int(st + 14, 1, "LLI of \(sat)", in: 0...9)) ?? 0
                current!.store(v, kind: p.kind, lli: lli, satellite: sat, signal: p.signal, slot: &slot[p.first],
                               frequency: sat.system == .glonass ? frequency(sat, signal: p.signal, channels: f.glonassChannels) : p.frequency)
            }
        }
        if var v2 = version2 {
            try v2.finish(into: &f, lastLine: lastLine, source: source)
            return f
        }
        if inHeader { throw TraceFormatError(source: source, line: lastLine == 0 ? nil : lastLine, message: sawVersion ? "file ends inside the header (no 'END OF HEADER')" : "empty file") }
        if remaining > 0 {
            throw TraceFormatError(source: source, line: lastLine, message: "file ends inside the epoch of line \(epochLine): \(remaining) satellite line(s) missing")
        }
        if skipLines > 0 {
            throw TraceFormatError(source: source, line: lastLine, message: "file ends inside a special record: \(skipLines) line(s) missing")
        }
        finishEpoch()
        return f
    }

    /// The header records RINEX 2 and 3 write alike: `TIME OF FIRST OBS` (its time system),
    /// `APPROX POSITION XYZ`, `MARKER NAME`. Returns true when the line stated a time system.
    static func commonHeaderLine(_ l: FixedWidthLine, into f: inout RinexObservationFile) throws(TraceFormatError) -> Bool {
        switch l.label {
        case "TIME OF FIRST OBS":
            let ts = l.text(48, 3).trimmingCharacters(in: .whitespaces)
            if !ts.isEmpty {
                guard let t = GNSSTimeSystem(rawValue: ts) else { throw l.error("unknown time system '\(ts)'") }
                f.timeSystem = t
                return true
            }
        case "APPROX POSITION XYZ":
            let x = try l.double(0, 14, "X") ?? 0, y = try l.double(14, 14, "Y") ?? 0, z = try l.double(28, 14, "Z") ?? 0
            if x != 0 || y != 0 || z != 0 { f.approximatePosition = ECEFCoordinate(x: x, y: y, z: z) }
        case "MARKER NAME":
            f.markerName = l.text(0, 60).trimmingCharacters(in: .whitespaces)
        default: break
        }
        return false
    }

    /// Carrier frequency of a RINEX 3 signal (RINEX 3.04 table 10), nil when unknown.
    public static func frequency(_ sat: SatelliteID, signal: String, channels: [Int: Int]) -> Double? {
        guard let band = signal.first else { return nil }
        switch (sat.system, band) {
        case (.gps, "1"), (.qzss, "1"), (.galileo, "1"), (.sbas, "1"), (.beidou, "1"): return GNSSConstants.l1Frequency
        case (.gps, "2"), (.qzss, "2"): return GNSSConstants.l2Frequency
        case (.gps, "5"), (.qzss, "5"), (.galileo, "5"), (.sbas, "5"), (.beidou, "5"), (.navic, "5"): return GNSSConstants.l5Frequency
        case (.galileo, "7"), (.beidou, "7"): return GNSSConstants.e5bFrequency
        case (.galileo, "8"), (.beidou, "8"): return 1_191.795e6
        case (.galileo, "6"), (.qzss, "6"): return 1_278.75e6
        case (.beidou, "2"): return GNSSConstants.b1iFrequency
        case (.beidou, "6"): return 1_268.52e6
        case (.glonass, "1"): return channels[sat.number].map { GNSSConstants.glonassG1(channel: $0) }
        case (.glonass, "2"): return channels[sat.number].map { GNSSConstants.glonassG2(channel: $0) }
        default: return nil
        }
    }
}
