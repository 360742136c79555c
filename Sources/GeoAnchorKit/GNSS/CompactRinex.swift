import Foundation

/// Compact RINEX (Hatanaka compression: CRINEX 1.0 for RINEX 2, 3.0 for RINEX 3 and 4), the
/// form IGS, CDDIS, EUREF and national CORS archives distribute station observations in
/// (`ssss0010.21d`, `…_MO.crx`, usually also gzip-compressed). Restored to RINEX text in pure
/// Swift, then read by ``RinexObservationFile`` like any RINEX file (errors in the restored
/// text name it `FILE (restored RINEX)`).
///
/// The format (Y. Hatanaka, "A Compression Format and Tools for GNSS Observation Data",
/// Bulletin of the GSI 55, 2008): the RINEX header unchanged; each epoch line as a character
/// difference from the previous one (a space keeps the character, `&` makes it a space; an
/// initialisation line starting with `&` in CRINEX 1 or `>` in CRINEX 3 is given whole) with
/// all satellites on it; a receiver clock line; then per satellite one line of values in units
/// of the last printed digit (0.001), each either `n&value` (a new arc of difference order n) or
/// the n-th order difference from the arc's previous values, blank when not observed, followed
/// by the LLI and signal strength characters as a character difference. Event records (flags
/// 2–5) are copied as they are.
public enum CompactRinex {
    /// The most RINEX text restored: 2 GiB (a day of 1 Hz multi-GNSS data is a few hundred MB).
    public static let maximumRestoredSize = 1 << 31

    /// True when `firstLine` is a Compact RINEX header (`CRINEX VERS   / TYPE`).
    public static func looksLike(firstLine: String) -> Bool {
        firstLine.count >= 61 && firstLine.dropFirst(60).hasPrefix("CRINEX VERS")
    }

    /// Restores the RINEX text of a Compact RINEX file.
    /// - Throws: ``TraceFormatError`` naming the Compact RINEX line: a header that is not
    ///   CRINEX 1.0 or 3.0, a difference without its arc or epoch to apply to, a number that is
    ///   not an integer or overflows, a value too large for RINEX's F14.3, a truncated file.
    public static func restore(_ reader: ByteLineReader) throws(TraceFormatError) -> Data {
        var r = Restorer(source: reader.source)
        try forEachFixedWidthLine(reader) { (l: FixedWidthLine) throws(TraceFormatError) in try r.line(l) }
        try r.finish()
        return Data(r.out)
    }

    /// One satellite's state: each type's arc (order, values of orders 0…n) and its flags.
    struct Arc { var order: Int; var level: Int; var d: [Int64] }

    struct Restorer {
        let source: String
        var out: [UInt8] = []
        var lineNumber = 0
        var crinexVersion = 0           // 1 or 3, from the first line
        var rinexVersion = 0.0
        var inHeader = true
        var headerLine = 0
        // Observation types: RINEX 2 one count; RINEX 3 per system letter.
        var types2 = 0
        var types3: [UInt8: Int] = [:]
        var pendingTypes: (system: UInt8, remaining: Int)? = nil
        // Epoch state.
        var epoch: [UInt8]? = nil       // the previous epoch line, restored
        enum Expect { case epoch, clock, satellites(index: Int), special(remaining: Int) }
        var expect = Expect.epoch
        var satellites: [[UInt8]] = []  // this epoch's satellites (3 bytes each)
        var arcs: [[UInt8]: [Arc?]] = [:]
        var flags: [[UInt8]: [UInt8]] = [:]
        var seenThisEpoch: Set<[UInt8]> = []

        init(source: String) { self.source = source }

        func error(_ m: String) -> TraceFormatError { TraceFormatError(source: source, line: lineNumber, message: m) }

        mutating func emit(_ bytes: some Collection<UInt8>) throws(TraceFormatError) {
            out.append(contentsOf: bytes)
            out.append(10)
            guard out.count <= CompactRinex.maximumRestoredSize else {
                throw error("restored RINEX text exceeds \(CompactRinex.maximumRestoredSize) bytes")
            }
        }

        mutating func line(_ l: FixedWidthLine) throws(TraceFormatError) {
            lineNumber = l.line
            let b = Array(l.bytes)
            if crinexVersion == 0 {
                guard CompactRinex.looksLike(firstLine: String(decoding: b, as: UTF8.self)) else {
                    throw error("not a Compact RINEX file: the first line has no 'CRINEX VERS   / TYPE' label")
                }
                let v = l.text(0, 20).trimmingCharacters(in: .whitespaces)
                switch v {
                case "1.0": crinexVersion = 1
                case "3.0": crinexVersion = 3
                default: throw error("Compact RINEX version '\(v)' is not supported (1.0 and 3.0 are)")
                }
                return
            }
            if inHeader {
                headerLine += 1
                if headerLine == 1 { return }              // CRINEX PROG / DATE
                try emit(b)
                try typesHeader(l, b)
                if l.label == "RINEX VERSION / TYPE" {
                    rinexVersion = (try l.double(0, 9, "RINEX version")) ?? 0
                    guard (crinexVersion == 1) == (rinexVersion < 3) else {
                        throw error("Compact RINEX \(crinexVersion).0 with RINEX \(rinexVersion) (CRINEX 1 is for RINEX 2, 3 for RINEX 3 and 4)")
                    }
                }
                if l.label == "END OF HEADER" {
                    inHeader = false
                    if pendingTypes != nil { throw error("header ends inside an observation type list") }
                }
                return
            }
            switch expect {
            case .epoch: try epochLine(b)
            case .clock: expect = satellites.isEmpty ? .epoch : .satellites(index: 0)   // receiver clock: not used
            case .satellites(let i): try dataLine(b, satellite: i)
            case .special(let n):
                try emit(b)
                try typesHeader(l, b)
                expect = n > 1 ? .special(remaining: n - 1) : .epoch
                if case .epoch = expect, pendingTypes != nil { throw error("event record ends inside an observation type list") }
            }
        }

        /// Keeps the number of observation types (RINEX 2: one list; RINEX 3: per system).
        mutating func typesHeader(_ l: FixedWidthLine, _ b: [UInt8]) throws(TraceFormatError) {
            let label = l.label
            if label == "# / TYPES OF OBSERV" {
                if pendingTypes == nil {
                    types2 = try l.requiredInt(0, 6, "number of observation types", in: 1...RinexObservationFile.maximumObservationTypes)
                    let onLine = Swift.min(9, types2)
                    pendingTypes = types2 > onLine ? (0, types2 - onLine) : nil
                } else if let p = pendingTypes {
                    pendingTypes = p.remaining > 9 ? (0, p.remaining - 9) : nil
                }
            } else if label == "SYS / # / OBS TYPES" {
                if let p = pendingTypes, b.first == 32 {
                    pendingTypes = p.remaining > 13 ? (p.system, p.remaining - 13) : nil
                } else {
                    let n = try l.requiredInt(3, 3, "number of observation types", in: 0...RinexObservationFile.maximumObservationTypes)
                    let sys = b.first ?? 32
                    types3[sys] = n
                    pendingTypes = n > 13 ? (sys, n - 13) : nil
                }
            }
        }

        /// Applies a character difference to `old` (space keeps, `&` blanks, else replaces).
        static func apply(_ diff: [UInt8], to old: [UInt8]) -> [UInt8] {
            var new = old
            if new.count < diff.count { new += [UInt8](repeating: 32, count: diff.count - new.count) }
            for (i, c) in diff.enumerated() {
                if c == 38 { new[i] = 32 } else if c != 32 { new[i] = c }
            }
            return new
        }

        mutating func epochLine(_ b: [UInt8]) throws(TraceFormatError) {
            let initial: UInt8 = crinexVersion == 1 ? 38 : 62   // '&' or '>'
            var line: [UInt8]
            if b.first == initial {
                line = b
                if crinexVersion == 1 { line[0] = 32 }
            } else {
                if b.isEmpty { return }                  // a blank line between epochs (end of file)
                guard let prev = epoch else {
                    throw error("epoch line is a difference but there is no previous epoch to apply it to (an initialisation line starts with '\(Character(UnicodeScalar(initial)))')")
                }
                line = Self.apply(b, to: prev)
            }
            // Columns: CRINEX 1 flag 29, count 30–32, satellites from 33; CRINEX 3 flag 32,
            // count 33–35, satellites from 42 (1-based).
            let (flagAt, countAt, satAt) = crinexVersion == 1 ? (28, 29, 32) : (31, 32, 41)
            let text = String(decoding: line, as: UTF8.self)
            func field(_ a: Int, _ n: Int) -> String {
                guard a < line.count else { return "" }
                return String(decoding: line[a..<Swift.min(line.count, a + n)], as: UTF8.self).trimmingCharacters(in: .whitespaces)
            }
            guard let flag = Int(field(flagAt, 1)), (0...6).contains(flag) else {
                throw error("epoch flag '\(field(flagAt, 1))' is not an integer in 0...6 (restored epoch line '\(text.prefix(40))')")
            }
            guard let n = Int(field(countAt, 3)), (0...RinexObservationFile.maximumSatellitesPerEpoch).contains(n) else {
                throw error("number of satellites '\(field(countAt, 3))' is not an integer in 0...\(RinexObservationFile.maximumSatellitesPerEpoch)")
            }
            if (2...5).contains(flag) {
                // Event records: the line as written, the records copied; the next epoch is whole.
                try emit(crinexVersion == 1 ? Array(line.prefix(32)) : Array(line.prefix(35)))
                epoch = nil
                expect = n > 0 ? .special(remaining: n) : .epoch
                return
            }
            epoch = line
            satellites = []
            for k in 0..<n {
                let a = satAt + 3 * k
                guard a + 3 <= line.count else { throw error("epoch line lists \(k) of its \(n) satellites") }
                satellites.append(Array(line[a..<(a + 3)]))
            }
            // Arcs of satellites absent from this epoch end (the compressor restarts them).
            let present = Set(satellites)
            for key in arcs.keys where !present.contains(key) { arcs[key] = nil; flags[key] = nil }
            if crinexVersion == 1 {
                try emit(line.prefix(32) + Array(line.count > 32 ? line[32..<Swift.min(line.count, satAt + 36)] : []))
                var k = 12
                while k < n {
                    let a = satAt + 3 * k
                    try emit([UInt8](repeating: 32, count: 32) + line[a..<Swift.min(line.count, a + 36)])
                    k += 12
                }
            } else {
                try emit(line.prefix(35))
            }
            expect = .clock
        }

        mutating func dataLine(_ b: [UInt8], satellite i: Int) throws(TraceFormatError) {
            let sat = satellites[i]
            let count: Int
            if crinexVersion == 1 { count = types2 } else {
                guard let c = types3[sat[0]] else {
                    throw error("satellite \(String(decoding: sat, as: UTF8.self)): system has no 'SYS / # / OBS TYPES' in the header")
                }
                count = c
            }
            var satArcs = arcs[sat] ?? [Arc?](repeating: nil, count: count)
            if satArcs.count != count { satArcs = [Arc?](repeating: nil, count: count) }
            var values = [Int64?](repeating: nil, count: count)
            // Fields separated by one space; missing trailing fields are blank; the rest is flags.
            var at = 0
            for k in 0..<count {
                let start = at
                while at < b.count, b[at] != 32 { at += 1 }
                let fieldBytes = b[start..<at]
                if at < b.count { at += 1 }          // the separator
                if fieldBytes.isEmpty { satArcs[k] = nil; continue }
                values[k] = try value(fieldBytes, arc: &satArcs[k], type: k)
            }
            let flagDiff = at < b.count ? Array(b[at...]) : []
            var f = flags[sat] ?? []
            f = Self.apply(flagDiff, to: f)
            if f.count < 2 * count { f += [UInt8](repeating: 32, count: 2 * count - f.count) }
            arcs[sat] = satArcs
            flags[sat] = f
            // RINEX text: RINEX 3 `Snn` + 16 columns per type; RINEX 2 five types per line.
            var text: [UInt8] = crinexVersion == 1 ? [] : sat
            for k in 0..<count {
                text += try Self.f14_3(values[k], lineError: error)
                text += [f[2 * k], f[2 * k + 1]]
                if crinexVersion == 1 && (k % 5 == 4 || k == count - 1) {
                    while text.last == 32 { text.removeLast() }
                    try emit(text)
                    text = []
                }
            }
            if crinexVersion != 1 {
                while text.last == 32 { text.removeLast() }
                try emit(text)
            }
            expect = i + 1 < satellites.count ? .satellites(index: i + 1) : .epoch
        }

        /// A field's value (0.001 units): `n&v` starts an arc of order n, else the n-th order
        /// difference is integrated (orders rise to n over the arc's first epochs).
        func value(_ field: ArraySlice<UInt8>, arc: inout Arc?, type k: Int) throws(TraceFormatError) -> Int64 {
            if let amp = field.firstIndex(of: 38) {
                guard amp - field.startIndex == 1, let order = Int(String(decoding: field[field.startIndex..<amp], as: UTF8.self)),
                      (0...9).contains(order) else {
                    throw error("'\(String(decoding: field, as: UTF8.self))' (type \(k + 1)) is not an arc start n&value with n in 0...9")
                }
                guard let v = Int64(String(decoding: field[(amp + 1)...], as: UTF8.self)) else {
                    throw error("'\(String(decoding: field, as: UTF8.self))' (type \(k + 1)) is not an integer")
                }
                arc = Arc(order: order, level: 0, d: [v] + [Int64](repeating: 0, count: order))
                return v
            }
            guard let x = Int64(String(decoding: field, as: UTF8.self)) else {
                throw error("'\(String(decoding: field, as: UTF8.self))' (type \(k + 1)) is not an integer")
            }
            guard var a = arc else {
                throw error("difference '\(String(decoding: field, as: UTF8.self))' (type \(k + 1)) without an arc started before it")
            }
            if a.level < a.order { a.level += 1 }
            // The new highest difference, then each lower order is the previous one plus it.
            a.d[a.level] = x
            for j in stride(from: a.level - 1, through: 0, by: -1) {
                let (s, o) = a.d[j].addingReportingOverflow(a.d[j + 1])
                guard !o else { throw error("value of type \(k + 1) overflows integrating its differences") }
                a.d[j] = s
            }
            arc = a
            return a.d[0]
        }

        /// `F14.3` of a value in 0.001 units (blank when nil).
        static func f14_3(_ v: Int64?, lineError: (String) -> TraceFormatError) throws(TraceFormatError) -> [UInt8] {
            guard let v else { return [UInt8](repeating: 32, count: 14) }
            let m = v.magnitude
            let s = (v < 0 ? "-" : "") + "\(m / 1000)." + String("00\(m % 1000)".suffix(3))
            guard s.utf8.count <= 14 else { throw lineError("value \(s) does not fit RINEX's F14.3") }
            return [UInt8](repeating: 32, count: 14 - s.utf8.count) + Array(s.utf8)
        }

        func finish() throws(TraceFormatError) {
            if crinexVersion == 0 { throw TraceFormatError(source: source, line: nil, message: "empty file") }
            if inHeader { throw TraceFormatError(source: source, line: lineNumber, message: "file ends inside the header (no 'END OF HEADER')") }
            switch expect {
            case .epoch: break
            case .clock, .satellites: throw TraceFormatError(source: source, line: lineNumber, message: "file ends inside an epoch (satellite lines missing)")
            case .special: throw TraceFormatError(source: source, line: lineNumber, message: "file ends inside an event record")
            }
        }
    }
}
