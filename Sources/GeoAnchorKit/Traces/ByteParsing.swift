import Foundation

/// Allocation-free parsing of numbers, dates and times from ASCII bytes, shared by the trace
/// readers' hot loops.
///
/// - Accuracy: ``decimal(_:fortranExponent:)`` is correctly rounded (identical to `Double(String)`) for inputs
///   with at most 15 significant digits and a decimal exponent in [−22, 22] — the mantissa and
///   the power of ten are then exact doubles and one IEEE division or multiplication rounds
///   once (Clinger 1990, "How to read floating point numbers accurately"). Longer inputs fall
///   back to `Double(String)`. Checked against `Double(String)` in ByteParsingDecimalTests.
public enum ByteParsing {
    @usableFromInline static let powersOfTen: [Double] = (0...22).map { pow(10.0, Double($0)) }

    /// Parses a decimal number (`-12.5`, `+3`, `.5`, `1e-3`, `1.58957E+12`). Returns nil for an
    /// empty field, anything that is not a number, and non-finite values (`nan`, `inf`). With
    /// `fortranExponent`, `D`/`d` also introduce the exponent (`0.5153D+04`, RINEX and SP3).
    @inlinable
    public static func decimal(_ b: UnsafeBufferPointer<UInt8>, fortranExponent: Bool = false) -> Double? {
        var i = 0, n = b.count
        // Trim spaces.
        while i < n, b[i] == 32 || b[i] == 9 { i += 1 }
        while n > i, b[n - 1] == 32 || b[n - 1] == 9 { n -= 1 }
        if i == n { return nil }
        var negative = false
        if b[i] == 45 { negative = true; i += 1 } else if b[i] == 43 { i += 1 }
        var mantissa: UInt64 = 0
        var digits = 0, significant = 0, fracDigits = 0
        var seenDot = false, tooMany = false
        while i < n {
            let c = b[i]
            if c >= 48 && c <= 57 {
                digits += 1
                if significant > 0 || c != 48 { significant += 1 }
                if significant <= 15 {
                    mantissa = mantissa &* 10 &+ UInt64(c &- 48)
                    if seenDot { fracDigits += 1 }
                } else {
                    tooMany = true
                    if !seenDot { fracDigits -= 1 } // an integer digit dropped: scale up
                }
            } else if c == 46 && !seenDot {
                seenDot = true
            } else { break }
            i += 1
        }
        guard digits > 0 else { return nil }
        var exp10 = -fracDigits
        if i < n {
            guard b[i] == 101 || b[i] == 69 || (fortranExponent && (b[i] == 100 || b[i] == 68)) else { return nil } // e E (d D)
            i += 1
            var eneg = false
            if i < n, b[i] == 45 { eneg = true; i += 1 } else if i < n, b[i] == 43 { i += 1 }
            var e = 0, ed = 0
            while i < n, b[i] >= 48, b[i] <= 57 { e = min(e * 10 + Int(b[i] - 48), 100_000); ed += 1; i += 1 }
            guard ed > 0, i == n else { return nil }
            exp10 += eneg ? -e : e
        }
        if tooMany || exp10 < -22 || exp10 > 22 {
            var s = String(decoding: UnsafeBufferPointer(rebasing: b[0..<n]), as: UTF8.self)
                .trimmingCharacters(in: .whitespaces)
            if fortranExponent { s = s.replacingOccurrences(of: "D", with: "E").replacingOccurrences(of: "d", with: "e") }
            guard let v = Double(s), v.isFinite else { return nil }
            return v
        }
        var v = Double(mantissa)
        if exp10 < 0 { v /= powersOfTen[-exp10] } else if exp10 > 0 { v *= powersOfTen[exp10] }
        return negative ? -v : v
    }

    /// Parses an unsigned decimal integer of at most 18 digits; nil otherwise.
    @inlinable
    public static func unsigned(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !b.isEmpty, b.count <= 18 else { return nil }
        var v = 0
        for c in b {
            guard c >= 48 && c <= 57 else { return nil }
            v = v * 10 + Int(c - 48)
        }
        return v
    }

    /// Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's `days_from_civil`).
    @inlinable
    public static func daysFromCivil(year: Int, month: Int, day: Int) -> Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    /// (year, month, day) of a day count since 1970-01-01 (Hinnant's `civil_from_days`).
    @inlinable
    public static func civilFromDays(_ z0: Int) -> (year: Int, month: Int, day: Int) {
        let z = z0 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        return (yoe + era * 400 + (m <= 2 ? 1 : 0), m, d)
    }

    /// Number of days in a month of the proleptic Gregorian calendar.
    @inlinable
    public static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: return (year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Parses an ISO 8601 / RFC 3339 UTC timestamp: `YYYY-MM-DDTHH:MM:SS[.fff][Z|±HH:MM]`
    /// (a space instead of `T` is accepted; no zone means UTC). Returns seconds since 1970 or a
    /// message saying what is wrong.
    public static func iso8601(_ b: UnsafeBufferPointer<UInt8>) -> Result<Double, TimeParseError> {
        var s = 0, n = b.count
        while s < n, b[s] == 32 { s += 1 }
        while n > s, b[n - 1] == 32 { n -= 1 }
        func num(_ from: Int, _ len: Int) -> Int? {
            guard from + len <= n else { return nil }
            return unsigned(UnsafeBufferPointer(rebasing: b[from..<(from + len)]))
        }
        guard n - s >= 19, let year = num(s, 4), b[s + 4] == 45, let month = num(s + 5, 2), b[s + 7] == 45,
              let day = num(s + 8, 2), b[s + 10] == 84 || b[s + 10] == 32 || b[s + 10] == 116,
              let hh = num(s + 11, 2), b[s + 13] == 58, let mm = num(s + 14, 2), b[s + 16] == 58,
              let ss = num(s + 17, 2) else {
            return .failure(TimeParseError(message: "not an ISO 8601 time (YYYY-MM-DDTHH:MM:SSZ)"))
        }
        guard (1...12).contains(month), day >= 1, day <= daysInMonth(year: year, month: month) else {
            return .failure(TimeParseError(message: "impossible date \(year)-\(month)-\(day)"))
        }
        guard hh < 24, mm < 60, ss <= 60 else {
            return .failure(TimeParseError(message: "impossible time of day \(hh):\(mm):\(ss)"))
        }
        var i = s + 19
        var frac = 0.0
        if i < n, b[i] == 46 || b[i] == 44 {
            i += 1
            var scale = 0.1, nd = 0
            while i < n, b[i] >= 48, b[i] <= 57 { frac += Double(b[i] - 48) * scale; scale *= 0.1; i += 1; nd += 1 }
            if nd == 0 { return .failure(TimeParseError(message: "empty fraction of a second")) }
        }
        var offset = 0
        if i < n {
            if b[i] == 90 || b[i] == 122 { i += 1 } // Z
            else if b[i] == 43 || b[i] == 45 {
                let sign = b[i] == 45 ? -1 : 1
                guard let oh = num(i + 1, 2) else { return .failure(TimeParseError(message: "bad time zone offset")) }
                var om = 0
                if i + 3 < n, b[i + 3] == 58 {
                    guard let m = num(i + 4, 2) else { return .failure(TimeParseError(message: "bad time zone offset")) }
                    om = m; i += 6
                } else if let m = num(i + 3, 2) { om = m; i += 5 } else { i += 3 }
                offset = sign * (oh * 3600 + om * 60)
            }
        }
        guard i == n else { return .failure(TimeParseError(message: "unexpected text after the time")) }
        let days = daysFromCivil(year: year, month: month, day: day)
        // Seconds are integers up to here: the sum is exact; the fraction adds one rounding.
        return .success(Double(days * 86_400 + hh * 3600 + mm * 60 + ss - offset) + frac)
    }

    /// Formats seconds since 1970 as ISO 8601 UTC with `fractionDigits` decimals (0…9).
    public static func iso8601String(_ t: Double, fractionDigits: Int = 3) -> String {
        let scale = pow(10.0, Double(fractionDigits))
        let total = (t * scale).rounded()
        let whole = Int((total / scale).rounded(.down))
        let frac = Int(total - Double(whole) * scale)
        let days = Int((Double(whole) / 86_400).rounded(.down))
        let sod = whole - days * 86_400
        let (y, m, d) = civilFromDays(days)
        guard (0...9999).contains(y), (0...9).contains(fractionDigits) else {
            var s = String(format: "%04d-%02d-%02dT%02d:%02d:%02d", y, m, d, sod / 3600, (sod / 60) % 60, sod % 60)
            if fractionDigits > 0 { s += "." + String(format: "%0\(fractionDigits)d", frac) }
            return s + "Z"
        }
        // Digits written directly (String(format:) through Foundation dominated CSV writing).
        return String(unsafeUninitializedCapacity: 21 + fractionDigits) { buf in
            var i = 0
            func put(_ v: Int, _ width: Int) {
                var v = v, k = width
                while k > 0 { k -= 1; buf[i + k] = UInt8(48 + v % 10); v /= 10 }
                i += width
            }
            func char(_ c: UInt8) { buf[i] = c; i += 1 }
            put(y, 4); char(45); put(m, 2); char(45); put(d, 2); char(84)
            put(sod / 3600, 2); char(58); put((sod / 60) % 60, 2); char(58); put(sod % 60, 2)
            if fractionDigits > 0 { char(46); put(frac, fractionDigits) }
            char(90)
            return i
        }
    }

    /// Why a time did not parse.
    public struct TimeParseError: Error, Sendable, Hashable { public var message: String }
}

extension StringProtocol where SubSequence == Substring {
    /// The same as Foundation's `trimmingCharacters(in: .whitespaces)` (horizontal whitespace:
    /// tab and the Unicode space separators) without its bridging to `NSString`, which dominated
    /// CSV reading: only the ends are inspected, and an untrimmed value is returned as a slice.
    @inlinable
    func trimmingHorizontalWhitespace() -> Substring {
        @inline(__always) func isSpace(_ c: Character) -> Bool {
            if let a = c.asciiValue { return a == 32 || a == 9 }
            return c.unicodeScalars.allSatisfy { CharacterSet.whitespaces.contains($0) }
        }
        var lo = startIndex, hi = endIndex
        while lo < hi, isSpace(self[lo]) { lo = index(after: lo) }
        while hi > lo, isSpace(self[index(before: hi)]) { hi = index(before: hi) }
        return self[lo..<hi]
    }
}
