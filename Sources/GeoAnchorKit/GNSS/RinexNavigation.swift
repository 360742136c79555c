import Foundation

/// A RINEX 2.1x / 3.0x / 4.0x navigation file: Keplerian broadcast ephemerides of GPS, QZSS,
/// Galileo and BeiDou, GLONASS FDMA state vectors (``GlonassEphemeris``, integrated per the ICD),
/// and the GPS Klobuchar coefficients of the header (`ION ALPHA`/`ION BETA` in RINEX 2,
/// `IONOSPHERIC CORR GPSA/GPSB` in RINEX 3).
///
/// SBAS and NavIC records are recognised and counted in ``skippedRecords`` but not used; RINEX 4
/// records other than `EPH` (`STO`, `EOP`, `ION`) are skipped and counted the same way.
public struct RinexNavigationFile: Sendable {
    public var version: Double
    /// Ephemerides per satellite, sorted by reference time.
    public var ephemerides: [SatelliteID: [BroadcastEphemeris]]
    /// GLONASS state-vector ephemerides per satellite, sorted by reference time.
    public var glonassEphemerides: [SatelliteID: [GlonassEphemeris]] = [:]
    public var klobuchar: KlobucharCoefficients?
    /// Records read but not used, per kind (e.g. `S` for SBAS, `unusable R` for a GLONASS record
    /// with an impossible position, velocity, acceleration, clock or channel).
    public var skippedRecords: [String: Int]

    public init(version: Double = 3, ephemerides: [SatelliteID: [BroadcastEphemeris]] = [:],
                klobuchar: KlobucharCoefficients? = nil, skippedRecords: [String: Int] = [:]) {
        self.version = version; self.ephemerides = ephemerides; self.klobuchar = klobuchar; self.skippedRecords = skippedRecords
    }

    /// Number of ephemerides (Keplerian and GLONASS).
    public var count: Int {
        ephemerides.values.reduce(0) { $0 + $1.count } + glonassEphemerides.values.reduce(0) { $0 + $1.count }
    }

    /// The FDMA frequency channel of each GLONASS slot, from its latest ephemeris (RINEX 2
    /// observation files have no slot/channel table: ``RinexObservationFile/assignGlonassChannels(_:)``).
    public var glonassChannels: [Int: Int] {
        var out: [Int: Int] = [:]
        for (sat, list) in glonassEphemerides { if let last = list.last { out[sat.number] = last.frequencyChannel } }
        return out
    }

    /// Largest |t − t_b| (s) for which a GLONASS state vector is used: the ICD's 15 min, plus the
    /// same 5 min grace the Keplerian lookup allows.
    public static let glonassValidity = 15.0 * 60 + 300

    /// The healthy GLONASS ephemeris of `sat` whose reference time is nearest to `t` (GPS time),
    /// within ``glonassValidity``; nil when none.
    public func glonassEphemeris(for sat: SatelliteID, at t: Double) -> GlonassEphemeris? {
        guard let list = glonassEphemerides[sat],
              let i = Self.nearest(in: list, to: t, healthy: { $0.health == 0 }, referenceTime: { $0.referenceTime },
                                   validity: { _ in Self.glonassValidity }) else { return nil }
        return list[i]
    }

    /// Index of the healthy record of `list` whose reference time is nearest to `t` and within
    /// that record's validity (s either side); nil when none. By index: one copy of the chosen
    /// record, not one per candidate (this runs for every measurement).
    @inline(__always)
    static func nearest<E>(in list: [E], to t: Double, healthy: (E) -> Bool, referenceTime: (E) -> Double,
                           validity: (E) -> Double) -> Int? {
        var best = -1
        var bestAge = Double.infinity
        for i in list.indices where healthy(list[i]) {
            let age = abs(t - referenceTime(list[i]))
            if age < bestAge && age <= validity(list[i]) { best = i; bestAge = age }
        }
        return best >= 0 ? best : nil
    }

    /// The healthy ephemeris of `sat` whose reference time is nearest to `t` (GPS time), within
    /// its fit interval (half of it either side, + 5 min grace); nil when none.
    public func ephemeris(for sat: SatelliteID, at t: Double) -> BroadcastEphemeris? {
        guard let list = ephemerides[sat],
              let i = Self.nearest(in: list, to: t, healthy: { $0.health == 0 }, referenceTime: { $0.ephemerisReferenceTime },
                                   validity: { $0.fitInterval / 2 + 300 }) else { return nil }
        return list[i]
    }

    /// Merges another file's records (several daily or hourly files).
    public mutating func merge(_ other: RinexNavigationFile) {
        for (s, l) in other.ephemerides {
            ephemerides[s, default: []] += l
            ephemerides[s]!.sort { $0.ephemerisReferenceTime < $1.ephemerisReferenceTime }
        }
        for (s, l) in other.glonassEphemerides {
            glonassEphemerides[s, default: []] += l
            glonassEphemerides[s]!.sort { $0.referenceTime < $1.referenceTime }
        }
        if klobuchar == nil { klobuchar = other.klobuchar }
        for (k, v) in other.skippedRecords { skippedRecords[k, default: 0] += v }
    }

    /// True when the first line is a RINEX navigation header.
    public static func looksLike(firstLine: String) -> Bool {
        guard firstLine.count >= 61, firstLine.dropFirst(60).hasPrefix("RINEX VERSION / TYPE") else { return false }
        let t = firstLine.dropFirst(20).first
        return t == "N" || t == "G" || t == "H"
    }

    public static func read(contentsOf url: URL) throws(TraceFormatError) -> RinexNavigationFile {
        try parse(ByteLineReader(url: url))
    }

    public static func read(data: Data, source: String) throws(TraceFormatError) -> RinexNavigationFile {
        try parse(ByteLineReader(data: data, source: source))
    }

    /// Four Klobuchar coefficients of a header line from column `start` (12 columns each), each
    /// within its broadcast range `limits`; a typed error names the one that is not.
    private static func klobuchar(_ l: FixedWidthLine, start: Int, name: String, limits: SIMD4<Double>) throws(TraceFormatError) -> SIMD4<Double> {
        var c = SIMD4<Double>()
        for k in 0..<4 {
            c[k] = try l.requiredDouble(start + 12 * k, 12, "\(name) coefficient \(k)")
            guard Swift.abs(c[k]) <= limits[k] else {
                throw l.error("\(name) coefficient \(k) \(c[k]) is beyond any broadcast value (±\(limits[k]))")
            }
        }
        return c
    }

    private static func parse(_ reader: ByteLineReader) throws(TraceFormatError) -> RinexNavigationFile {
        var f = RinexNavigationFile()
        var inHeader = true, sawVersion = false
        var defaultSystem = GNSSSystem.gps
        var alpha: SIMD4<Double>? = nil, beta: SIMD4<Double>? = nil
        // Current record.
        var sat: SatelliteID? = nil
        var toc = 0.0
        var values: [Double] = []
        var linesLeft = 0
        var recordLine = 0
        var skipUntilNextRecord = false
        var lastLine = 0
        let source = reader.source

        func finishRecord() {
            guard let s = sat else { return }
            if s.system == .glonass {
                if let e = GlonassEphemeris.fromRinex(s, referenceTime: toc, values) {
                    f.glonassEphemerides[s, default: []].append(e)
                } else {
                    f.skippedRecords["unusable R", default: 0] += 1
                }
                sat = nil
                return
            }
            if let e = BroadcastEphemeris.fromRinex(s, toc: toc, values) {
                f.ephemerides[s, default: []].append(e)
            } else {
                f.skippedRecords["unusable \(s.system.rawValue)", default: 0] += 1
            }
            sat = nil
        }

        try forEachFixedWidthLine(reader) { (l: FixedWidthLine) throws(TraceFormatError) in
            lastLine = l.line
            if inHeader {
                let label = l.label
                if !sawVersion {
                    let (v, typeLetter) = try l.rinexVersion(2..<5, types: "NGH", kind: "navigation")
                    let type = String(typeLetter)
                    if v < 3 {
                        if type == "G" { defaultSystem = .glonass } else if type == "H" { defaultSystem = .sbas }
                    }
                    f.version = v; sawVersion = true
                    return
                }
                switch label {
                case "END OF HEADER":
                    inHeader = false
                    if let a = alpha, let b = beta { f.klobuchar = KlobucharCoefficients(alpha: a, beta: b) }
                case "ION ALPHA", "ION BETA":
                    let isAlpha = label == "ION ALPHA"
                    let c = try klobuchar(l, start: 2, name: label, limits: isAlpha ? KlobucharCoefficients.alphaLimits : KlobucharCoefficients.betaLimits)
                    if isAlpha { alpha = c } else { beta = c }
                case "IONOSPHERIC CORR":
                    let kind = l.text(0, 4)
                    guard kind == "GPSA" || kind == "GPSB" else { return }
                    let isAlpha = kind == "GPSA"
                    let c = try klobuchar(l, start: 5, name: String(kind), limits: isAlpha ? KlobucharCoefficients.alphaLimits : KlobucharCoefficients.betaLimits)
                    if isAlpha { alpha = c } else { beta = c }
                default: break
                }
                return
            }
            if l.isBlank(0, l.count) { return }
            if f.version >= 4 && l.bytes.first == 62 { // '>' record header (RINEX 4)
                if linesLeft > 0 { throw l.error("record of line \(recordLine) has \(linesLeft) line(s) missing") }
                finishRecord()
                let type = l.text(2, 3)
                if type != "EPH" { skipUntilNextRecord = true; f.skippedRecords[String(type), default: 0] += 1; return }
                let msg = l.text(10, 4).trimmingCharacters(in: .whitespaces)
                let s0 = l.text(6, 1)
                let usable = s0 == "R" ? msg == "FDMA" : ["LNAV", "INAV", "FNAV", "D1", "D2"].contains(msg)
                if !usable || s0 == "S" || s0 == "I" {
                    skipUntilNextRecord = true; f.skippedRecords["\(s0) \(msg)", default: 0] += 1; return
                }
                skipUntilNextRecord = false
                return
            }
            if skipUntilNextRecord { return }
            let rinex2 = f.version < 3
            if linesLeft == 0 {
                finishRecord()
                recordLine = l.line
                // First line of a record.
                let s: SatelliteID?
                if rinex2 {
                    s = SatelliteID(l.text(0, 2), defaultSystem: defaultSystem)
                } else {
                    s = SatelliteID(l.text(0, 3))
                }
                guard let s else { throw l.error("'\(l.text(0, rinex2 ? 2 : 3))' is not a satellite (expected a navigation record)") }
                let orbitLines: Int
                switch s.system {
                case .glonass, .sbas: orbitLines = f.version >= 3.05 && s.system == .glonass ? 4 : 3
                default: orbitLines = 7
                }
                if s.system == .sbas || s.system == .navic {
                    f.skippedRecords[String(s.system.rawValue), default: 0] += 1
                    linesLeft = orbitLines
                    sat = nil
                    values = []
                    // Mark as skipped by leaving sat nil; the lines are consumed below.
                    return
                }
                let t: Double
                let start: Int
                if rinex2 {
                    t = try l.calendar(year: (3, 2), month: (6, 2), day: (9, 2), hour: (12, 2), minute: (15, 2), second: (17, 5), twoDigitYear: true)
                    start = 22
                } else {
                    t = try l.calendar(year: (4, 4), month: (9, 2), day: (12, 2), hour: (15, 2), minute: (18, 2), second: (21, 2))
                    start = 23
                }
                // Epochs are in the system's own time: BDT for BeiDou, UTC for GLONASS (RINEX 2.11
                // and 3 both say so), GPS time for the others.
                switch s.system {
                case .beidou: toc = t + 14
                case .glonass: toc = GNSSTimeSystem.utc.toGPS(t)
                default: toc = t
                }
                values = []
                values.reserveCapacity(31)
                for k in 0..<3 { values.append(try l.requiredDouble(start + 19 * k, 19, "\(s) clock parameter \(k)")) }
                sat = s
                linesLeft = orbitLines
                return
            }
            linesLeft -= 1
            guard let s = sat else { return } // a skipped GLONASS/SBAS record
            let start = rinex2 ? 3 : 4
            let lineIndex = values.count / 4 + 1
            for k in 0..<4 {
                // Spare and unused fields may be blank (the fit interval, the last line's spares,
                // Galileo's and BeiDou's spare in orbit 5: IGS and DLR merged files leave it empty).
                let v = try l.double(start + 19 * k, 19, "\(s) broadcast orbit \(lineIndex) field \(k + 1)")
                // Required: the numbers the ephemeris uses; GLONASS's 3 clock + 12 orbit numbers.
                let required = s.system == .glonass ? values.count < 15 : BroadcastEphemeris.isRequiredRinexValue(values.count)
                if v == nil && required { throw l.error("\(s) broadcast orbit \(lineIndex) field \(k + 1) is missing") }
                values.append(v ?? 0)
            }
        }
        if inHeader { throw TraceFormatError(source: source, line: lastLine == 0 ? nil : lastLine, message: sawVersion ? "file ends inside the header (no 'END OF HEADER')" : "empty file") }
        if linesLeft > 0 {
            throw TraceFormatError(source: source, line: lastLine, message: "file ends inside the record of line \(recordLine): \(linesLeft) line(s) missing")
        }
        finishRecord()
        for k in f.ephemerides.keys { f.ephemerides[k]!.sort { $0.ephemerisReferenceTime < $1.ephemerisReferenceTime } }
        for k in f.glonassEphemerides.keys { f.glonassEphemerides[k]!.sort { $0.referenceTime < $1.referenceTime } }
        return f
    }
}
