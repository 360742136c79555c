import Foundation

/// One line of a fixed-column text format (RINEX, SP3), with typed field access. Columns are
/// 0-based here; the formats' documents count from 1. Fields past the end of a short line read
/// as blank, as RINEX allows trailing blanks to be dropped. The bytes are borrowed from the
/// line reader: a value is valid only inside the callback that receives it (no copy per line).
struct FixedWidthLine {
    let bytes: UnsafeBufferPointer<UInt8>
    let source: String
    let line: Int

    init(_ b: UnsafeBufferPointer<UInt8>, source: String, line: Int) {
        bytes = b; self.source = source; self.line = line
    }

    var count: Int { bytes.count }

    func error(_ message: String) -> TraceFormatError { TraceFormatError(source: source, line: line, message: message) }

    /// Raw text of columns [start, start+width), trailing part may be missing.
    func text(_ start: Int, _ width: Int) -> Substring {
        guard start < bytes.count else { return "" }
        let end = min(bytes.count, start + width)
        return Substring(String(decoding: bytes[start..<end], as: UTF8.self))
    }

    /// The header label (RINEX columns 61–80), trimmed.
    var label: String { text(60, 20).trimmingCharacters(in: .whitespaces) }

    func isBlank(_ start: Int, _ width: Int) -> Bool {
        guard start < bytes.count else { return true }
        for i in start..<min(bytes.count, start + width) where bytes[i] != 32 { return false }
        return true
    }

    /// The `RINEX VERSION / TYPE` line: version (columns 1–9) within `versions` and the file
    /// type letter (column 21) among `types`; `kind` names the file kind in errors.
    func rinexVersion(_ versions: Range<Double>, types: String, kind: String) throws(TraceFormatError) -> (version: Double, type: Character) {
        guard label == "RINEX VERSION / TYPE" else {
            throw error("not a RINEX file: the first line has no 'RINEX VERSION / TYPE' label")
        }
        let v = try requiredDouble(0, 9, "RINEX version")
        let t = text(20, 1).first ?? " "
        guard types.contains(t) else { throw error("RINEX file type '\(t)' is not \(kind)") }
        guard versions.contains(v) else { throw error("RINEX \(kind) version \(v) is not supported") }
        return (v, t)
    }

    /// A real number in columns [start, start+width); nil when blank. Fortran `D` exponents are
    /// accepted. Throws naming the field when the text is not a finite number.
    func double(_ start: Int, _ width: Int, _ what: @autoclosure () -> String) throws(TraceFormatError) -> Double? {
        guard start < bytes.count else { return nil }
        let end = min(bytes.count, start + width)
        // One pass: ByteParsing.decimal with `D`/`d` as exponent letters (Fortran output).
        let v = ByteParsing.decimal(UnsafeBufferPointer(rebasing: bytes[start..<end]), fortranExponent: true)
        if v == nil && !isBlank(start, width) {
            throw error("\(what()) '\(text(start, width).trimmingCharacters(in: .whitespaces))' is not a number")
        }
        return v
    }

    /// Like ``double(_:_:_:)`` but a blank field is an error too.
    func requiredDouble(_ start: Int, _ width: Int, _ what: @autoclosure () -> String) throws(TraceFormatError) -> Double {
        guard let v = try double(start, width, what()) else { throw error("\(what()) is missing") }
        return v
    }

    /// An integer in [lo, hi]; nil when blank. Parsed from the bytes (no String on the hot path).
    func int(_ start: Int, _ width: Int, _ what: @autoclosure () -> String, in range: ClosedRange<Int>) throws(TraceFormatError) -> Int? {
        var i = start
        let end = min(bytes.count, start + width)
        while i < end, bytes[i] == 32 { i += 1 }
        if i >= end { return nil }
        var negative = false
        if bytes[i] == 45 { negative = true; i += 1 } else if bytes[i] == 43 { i += 1 }
        var v = 0, digits = 0
        while i < end, bytes[i] >= 48, bytes[i] <= 57, digits < 12 { v = v * 10 + Int(bytes[i] - 48); digits += 1; i += 1 }
        var j = i
        while j < end, bytes[j] == 32 { j += 1 }
        if negative { v = -v }
        guard digits > 0, j == end, range.contains(v) else {
            let t = text(start, width).trimmingCharacters(in: .whitespaces)
            throw error("\(what()) '\(t)' is not an integer in \(range.lowerBound)...\(range.upperBound)")
        }
        return v
    }

    /// A satellite written as `Snn` (system letter + 2 digits, blank allowed for the tens) at
    /// `start`; nil when it is not one.
    func satellite(_ start: Int) -> SatelliteID? {
        guard start + 3 <= bytes.count, let sys = GNSSSystem(rawValue: Character(UnicodeScalar(bytes[start]))) else { return nil }
        let a = bytes[start + 1], b = bytes[start + 2]
        guard b >= 48, b <= 57, a == 32 || (a >= 48 && a <= 57) else { return nil }
        let n = (a == 32 ? 0 : Int(a - 48) * 10) + Int(b - 48)
        return n >= 1 ? SatelliteID(system: sys, number: n) : nil
    }

    func requiredInt(_ start: Int, _ width: Int, _ what: @autoclosure () -> String, in range: ClosedRange<Int>) throws(TraceFormatError) -> Int {
        guard let v = try int(start, width, what(), in: range) else { throw error("\(what()) is missing") }
        return v
    }

    /// Reads `yyyy mm dd hh mm ss.s` style fields at the given column starts and widths and
    /// validates the calendar; returns seconds since 1980-01-06 in the file's own time scale.
    func calendar(year: (Int, Int), month: (Int, Int), day: (Int, Int), hour: (Int, Int), minute: (Int, Int),
                  second: (Int, Int), twoDigitYear: Bool = false) throws(TraceFormatError) -> Double {
        var y = try requiredInt(year.0, year.1, "year", in: 0...2200)
        if twoDigitYear { y += y < 80 ? 2000 : 1900 }
        guard y >= 1980 else { throw error("year \(y) is before the GPS epoch") }
        let mo = try requiredInt(month.0, month.1, "month", in: 1...12)
        let d = try requiredInt(day.0, day.1, "day", in: 1...ByteParsing.daysInMonth(year: y, month: mo))
        let h = try requiredInt(hour.0, hour.1, "hour", in: 0...24)
        let mi = try requiredInt(minute.0, minute.1, "minute", in: 0...59)
        let s = try requiredDouble(second.0, second.1, "second")
        guard s >= 0, s < 61 else { throw error("second \(s) is outside [0, 61)") }
        return GNSSTime.secondsSinceGPSEpoch(year: y, month: mo, day: d, hour: h, minute: mi, second: s)
    }
}

/// Reads every line of a text file into ``FixedWidthLine``s via ``ByteLineReader`` (bounded line
/// length), calling `body` for each.
func forEachFixedWidthLine(url: URL, _ body: (FixedWidthLine) throws(TraceFormatError) -> Void) throws(TraceFormatError) {
    let reader = try ByteLineReader(url: url)
    try forEachFixedWidthLine(reader, body)
}

func forEachFixedWidthLine(_ reader: ByteLineReader, _ body: (FixedWidthLine) throws(TraceFormatError) -> Void) throws(TraceFormatError) {
    let source = reader.source
    do {
        try reader.forEachLine { b, n in try body(FixedWidthLine(b, source: source, line: n)) }
    } catch let e as TraceFormatError {
        throw e
    } catch {
        throw TraceFormatError(source: source, line: nil, message: "\(error)")
    }
}
