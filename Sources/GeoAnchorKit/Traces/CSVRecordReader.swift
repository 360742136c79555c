import Foundation

/// One CSV record's fields as raw bytes (quotes removed, `""` unescaped). Valid only inside the
/// ``CSVRecordReader/forEachRecord(_:)`` callback that receives it.
public struct CSVFields {
    @usableFromInline let base: UnsafePointer<UInt8>?
    @usableFromInline let bounds: UnsafePointer<Int>
    /// Number of fields (≥ 1).
    public let count: Int

    @usableFromInline init(base: UnsafePointer<UInt8>?, bounds: UnsafePointer<Int>, count: Int) {
        self.base = base; self.bounds = bounds; self.count = count
    }

    /// The bytes of field `i` (0-based); an empty buffer when `i` is out of range.
    @inlinable
    public subscript(_ i: Int) -> UnsafeBufferPointer<UInt8> {
        guard i >= 0, i < count, let base else { return UnsafeBufferPointer(start: nil, count: 0) }
        let a = bounds[2 * i], b = bounds[2 * i + 1]
        return UnsafeBufferPointer(start: base + a, count: b - a)
    }

    /// Field `i` as a string (invalid UTF-8 replaced by U+FFFD), with spaces and tabs around it removed.
    public func string(_ i: Int) -> String {
        let b = self[i]
        var s = 0, e = b.count
        while s < e, b[s] == 32 || b[s] == 9 { s += 1 }
        while e > s, b[e - 1] == 32 || b[e - 1] == 9 { e -= 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: b[s..<e]), as: UTF8.self)
    }

    /// Field `i` parsed with the strict number syntax of ``ByteParsing/decimal(_:fortranExponent:)``: nil for an
    /// empty (or all-blank) field, ``CSVNumberError`` for anything else that is not a finite decimal number.
    public func number(_ i: Int) -> Result<Double?, CSVNumberError> { Self.number(self[i]) }

    /// The strict number syntax of ``number(_:)`` applied to any bytes.
    public static func number(_ b: UnsafeBufferPointer<UInt8>) -> Result<Double?, CSVNumberError> {
        if let v = ByteParsing.decimal(b) { return .success(v) }
        var s = 0, e = b.count
        while s < e, b[s] == 32 || b[s] == 9 { s += 1 }
        while e > s, b[e - 1] == 32 || b[e - 1] == 9 { e -= 1 }
        if s == e { return .success(nil) }
        return .failure(CSVNumberError(text: String(decoding: UnsafeBufferPointer(rebasing: b[s..<e]), as: UTF8.self)))
    }

    /// All fields as strings (trimmed as in ``string(_:)``).
    public var strings: [String] { (0..<count).map(string) }
}

/// A field that should hold a number but does not; ``description`` says why, naming the text.
public struct CSVNumberError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The field's text (trimmed).
    public var text: String
    public var description: String {
        let low = text.lowercased()
        if ["nan", "-nan", "+nan", "inf", "-inf", "+inf", "infinity", "-infinity", "+infinity"].contains(low) {
            return "'\(text)' is not a finite number"
        }
        let shown = text.unicodeScalars.map { $0.value < 32 || $0.value == 127 ? "\\u{\(String($0.value, radix: 16))}" : String($0) }
            .joined().prefix(40)
        return "'\(shown)' is not a number"
    }
}

/// The one CSV tokenizer of the package: streams records from a ``ByteLineReader``.
///
/// Accepts what spreadsheets, Python's `csv` module and RFC 4180 write:
/// - line ends `\r\n`, `\n` or a lone `\r` (mixed too); a leading UTF-8 byte-order mark
///   (removed by ``ByteLineReader``);
/// - fields separated by commas; a field that *starts* with `"` is quoted: it may contain
///   commas, line breaks (each stored as `\n`) and doubled quotes `""` (one `"`); text after its
///   closing quote is kept literally (as Python's `csv` does); a `"` inside an unquoted field is
///   an ordinary character;
/// - blank lines (only spaces/tabs) anywhere, including trailing ones, are skipped, and so are
///   lines whose first non-blank character is `#` (comments) when ``skipsComments`` is true;
/// - what spreadsheets in decimal-comma locales (Czech, German, French, …) save as "CSV": when
///   the first record (the header) has semicolons and no comma outside quotes, fields are
///   separated by `;` and a field that is a number with a decimal comma (`50,087`, `-1,5e3`;
///   blanks around it allowed) reads as the same number with a `.` (``isSemicolonDialect``).
///   Other fields are left as they are (`Hrad, brána` keeps its comma).
///
/// Every record is reported with the **physical line where it starts** (1-based), which is the
/// line an error message names. Memory is bounded by the longest record
/// (``ByteLineReader/maximumLineLength``); a quoted field still open at the end of the file is an
/// error naming the line where it opened.
///
/// Numbers inside fields are not interpreted here; ``CSVFields/number(_:)-method`` and
/// ``ByteParsing/decimal(_:fortranExponent:)`` apply the strict syntax (decimal digits, one optional `.`, an
/// optional exponent, an optional leading `+` or `-`; no hex, no `nan`/`inf`, no NUL or other
/// control bytes, no thousands separators).
public final class CSVRecordReader {
    /// Name used in error messages (the input file).
    public var source: String { lines.source }
    /// Whether `#` lines are comments (default true).
    public var skipsComments: Bool
    /// Whether the first record may switch the reader to the semicolon dialect (default true).
    public var detectsSemicolonDialect = true
    /// True once the first record was found separated by `;` (a decimal-comma spreadsheet's
    /// CSV): fields split at `;`, decimal commas of numeric fields read as `.`.
    public private(set) var isSemicolonDialect = false
    private var sawFirstRecord = false

    private let lines: ByteLineReader
    private var bounds: UnsafeMutablePointer<Int>
    private var boundsCapacity: Int
    private var record: [UInt8] = []

    public init(_ lines: ByteLineReader, skipsComments: Bool = true) {
        self.lines = lines
        self.skipsComments = skipsComments
        boundsCapacity = 64
        bounds = .allocate(capacity: boundsCapacity)
    }

    deinit { bounds.deallocate() }

    private func ensureBounds(_ fields: Int) {
        guard 2 * fields > boundsCapacity else { return }
        let cap = max(boundsCapacity * 2, 2 * fields)
        let nb = UnsafeMutablePointer<Int>.allocate(capacity: cap)
        nb.update(from: bounds, count: boundsCapacity)
        bounds.deallocate()
        bounds = nb; boundsCapacity = cap
    }

    /// Calls `body` with every non-blank, non-comment record and the physical line where it
    /// starts. Returns the number of physical lines read.
    /// - Throws: ``TraceFormatError`` for read errors, over-long records and an unterminated
    ///   quoted field; whatever `body` throws.
    @discardableResult
    public func forEachRecord(_ body: (CSVFields, Int) throws -> Void) throws -> Int {
        var open = false          // inside a quoted field that continues on the next line
        var startLine = 0
        var nFields = 0
        var fieldStart = 0
        let source = lines.source
        let lineCount = try lines.forEachLine { line, lineNo in
            if !open {
                // Blank and comment lines.
                var s = 0
                while s < line.count, line[s] == 32 || line[s] == 9 { s += 1 }
                if s == line.count { return }
                if skipsComments && line[s] == 35 { return }
                if !sawFirstRecord {
                    sawFirstRecord = true
                    if detectsSemicolonDialect { isSemicolonDialect = Self.isSemicolonHeader(line) }
                }
                // Fast path: no quote on the line → fields are slices of the line itself.
                if !isSemicolonDialect && !line.contains(34) {
                    var n = 0
                    var a = 0
                    for i in 0..<line.count where line[i] == 44 {
                        ensureBounds(n + 1); bounds[2 * n] = a; bounds[2 * n + 1] = i; n += 1; a = i + 1
                    }
                    ensureBounds(n + 1); bounds[2 * n] = a; bounds[2 * n + 1] = line.count; n += 1
                    try body(CSVFields(base: line.baseAddress, bounds: bounds, count: n), lineNo)
                    return
                }
                record.removeAll(keepingCapacity: true)
                startLine = lineNo
                nFields = 0
                fieldStart = 0
            } else {
                record.append(10) // the line break inside the quoted field
                guard record.count + line.count <= ByteLineReader.maximumLineLength else {
                    throw TraceFormatError(source: source, line: startLine,
                        message: "quoted field longer than \(ByteLineReader.maximumLineLength) bytes (unterminated quote?)")
                }
            }
            // Quoted path: unescape into `record`.
            var i = 0
            let n = line.count
            var inQuotes = open
            var atFieldStart = !open
            let delimiter: UInt8 = isSemicolonDialect ? 59 : 44
            while i < n {
                let c = line[i]
                if inQuotes {
                    if c == 34 {
                        if i + 1 < n, line[i + 1] == 34 { record.append(34); i += 2; continue }
                        inQuotes = false
                    } else {
                        record.append(c)
                    }
                } else if c == delimiter {
                    if isSemicolonDialect { Self.decimalCommaToPoint(&record, from: fieldStart) }
                    ensureBounds(nFields + 1)
                    bounds[2 * nFields] = fieldStart; bounds[2 * nFields + 1] = record.count; nFields += 1
                    fieldStart = record.count
                    atFieldStart = true
                    i += 1
                    continue
                } else if c == 34 && atFieldStart {
                    inQuotes = true
                } else {
                    record.append(c)
                }
                atFieldStart = false
                i += 1
            }
            open = inQuotes
            if open { return }
            if isSemicolonDialect { Self.decimalCommaToPoint(&record, from: fieldStart) }
            ensureBounds(nFields + 1)
            bounds[2 * nFields] = fieldStart; bounds[2 * nFields + 1] = record.count; nFields += 1
            try record.withUnsafeBufferPointer { r in
                try body(CSVFields(base: r.baseAddress, bounds: bounds, count: nFields), startLine)
            }
        }
        if open {
            throw TraceFormatError(source: source, line: startLine, message: "unterminated quoted field (the file ends inside quotes)")
        }
        return lineCount
    }

    /// True when `line` (a header) has a `;` and no `,` outside double quotes.
    static func isSemicolonHeader(_ line: UnsafeBufferPointer<UInt8>) -> Bool {
        var inQuotes = false, semicolons = 0
        for c in line {
            if c == 34 { inQuotes.toggle(); continue }
            if inQuotes { continue }
            if c == 44 { return false }
            if c == 59 { semicolons += 1 }
        }
        return semicolons > 0
    }

    /// Rewrites `record[from...]` in place when it is a number with a decimal comma
    /// (`[blanks][sign]digits,digits[e[sign]digits][blanks]`): the comma becomes a point.
    static func decimalCommaToPoint(_ record: inout [UInt8], from start: Int) {
        var i = start
        let n = record.count
        func digits() -> Int { let a = i; while i < n, record[i] >= 48, record[i] <= 57 { i += 1 }; return i - a }
        while i < n, record[i] == 32 || record[i] == 9 { i += 1 }
        if i < n, record[i] == 43 || record[i] == 45 { i += 1 }
        guard digits() > 0, i < n, record[i] == 44 else { return }
        let comma = i
        i += 1
        guard digits() > 0 else { return }
        if i < n, record[i] == 101 || record[i] == 69 {
            i += 1
            if i < n, record[i] == 43 || record[i] == 45 { i += 1 }
            guard digits() > 0 else { return }
        }
        while i < n, record[i] == 32 || record[i] == 9 { i += 1 }
        guard i == n else { return }
        record[comma] = 46
    }
}
