import ArgumentParser
import Foundation

/// A CSV table with a header row, read from a file or stdin, keeping source line numbers for
/// error messages. Fields are split on commas; double-quoted fields (with `""` escapes) are
/// supported. Blank lines and lines starting with `#` are ignored.
struct CSVTable {
    /// Name used in error messages (`<stdin>` for standard input).
    let source: String
    let header: [String]
    /// Each row's fields with its 1-based line number in the source.
    let rows: [(line: Int, fields: [String])]

    /// Reads `path`, or stdin when `path` is nil or `-`.
    static func read(path: String?) throws -> CSVTable {
        let source = (path == nil || path == "-") ? "<stdin>" : path!
        let data: Data
        if source == "<stdin>" {
            data = FileHandle.standardInput.readDataToEndOfFile()
        } else {
            guard let d = FileManager.default.contents(atPath: source) else {
                throw InputError(file: source, line: nil, message: "cannot read file")
            }
            data = d
        }
        guard let text = String(data: data, encoding: .utf8) else {
            throw InputError(file: source, line: nil, message: "not UTF-8 text")
        }
        return try parse(text: text, source: source)
    }

    static func parse(text: String, source: String) throws -> CSVTable {
        var header: [String]? = nil
        var rows: [(Int, [String])] = []
        var lineNo = 0
        // "\r\n" is one Character in Swift: split on it too, or CRLF files (Python csv) are one line.
        for rawLine in text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" }) {
            lineNo += 1
            var line = Substring(rawLine)
            if line.hasSuffix("\r") { line = line.dropLast() }
            if lineNo == 1, line.hasPrefix("\u{FEFF}") { line = line.dropFirst() }
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("#") { continue }
            let fields = try splitFields(line, source: source, line: lineNo)
            if header == nil {
                header = fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            } else {
                rows.append((lineNo, fields))
            }
        }
        guard let header else {
            throw InputError(file: source, line: nil, message: "empty input: a header row is required")
        }
        return CSVTable(source: source, header: header, rows: rows)
    }

    private static func splitFields(_ line: Substring, source: String, line lineNo: Int) throws -> [String] {
        if !line.contains("\"") {
            return line.split(separator: ",", omittingEmptySubsequences: false).map { String($0) }
        }
        var fields: [String] = []
        var cur = ""
        var inQuotes = false
        var it = line.makeIterator()
        var pending: Character? = nil
        while true {
            let ch: Character
            if let p = pending { ch = p; pending = nil } else if let c = it.next() { ch = c } else { break }
            if inQuotes {
                if ch == "\"" {
                    if let n = it.next() {
                        if n == "\"" { cur.append("\"") } else { inQuotes = false; pending = n }
                    } else { inQuotes = false }
                } else { cur.append(ch) }
            } else if ch == "\"" {
                inQuotes = true
            } else if ch == "," {
                fields.append(cur); cur = ""
            } else { cur.append(ch) }
        }
        if inQuotes { throw InputError(file: source, line: lineNo, message: "unterminated quoted field") }
        fields.append(cur)
        return fields
    }

    /// Index of a required column.
    func column(_ name: String) throws -> Int {
        guard let i = header.firstIndex(of: name) else {
            throw InputError(file: source, line: 1,
                             message: "missing column '\(name)' (header: \(header.joined(separator: ",")))")
        }
        return i
    }

    /// Index of an optional column.
    func optionalColumn(_ name: String) -> Int? { header.firstIndex(of: name) }

    /// Parses a required finite number from a row.
    func double(_ row: (line: Int, fields: [String]), _ col: Int, _ name: String) throws -> Double {
        guard col < row.fields.count else {
            throw InputError(file: source, line: row.line, message: "missing value for '\(name)'")
        }
        let s = row.fields[col].trimmingCharacters(in: .whitespaces)
        guard let v = Double(s), v.isFinite else {
            throw InputError(file: source, line: row.line, message: "\(name) '\(s)' is not a finite number")
        }
        return v
    }

    /// Parses an optional number: empty field → nil; garbage → error.
    func optionalDouble(_ row: (line: Int, fields: [String]), _ col: Int?, _ name: String) throws -> Double? {
        guard let col, col < row.fields.count else { return nil }
        let s = row.fields[col].trimmingCharacters(in: .whitespaces)
        if s.isEmpty { return nil }
        guard let v = Double(s), v.isFinite else {
            throw InputError(file: source, line: row.line, message: "\(name) '\(s)' is not a finite number")
        }
        return v
    }
}

/// Buffered CSV output to a file or stdout, through ``OutputFile`` (write errors are reported,
/// regular files replaced atomically by ``finish()``, FIFOs and devices written in place).
final class CSVWriter {
    private let out: OutputFile

    /// Writes to `path`, or stdout when nil or `-`.
    init(path: String?, header: [String]) throws {
        out = try OutputFile(path: path)
        try write(header)
    }

    func write(_ fields: [String]) throws {
        try out.write(fields.joined(separator: ",") + "\n")
    }

    /// One row of numbers. A non-finite value is never written: the caller checks its results
    /// against the input row first; reaching this is an error naming the output.
    func write(_ values: [Double]) throws {
        guard values.allSatisfy(\.isFinite) else {
            throw InputError(file: out.name, line: nil, message: "refusing to write a non-finite value (\(values.map(format).joined(separator: ",")))")
        }
        try write(values.map(format))
    }

    /// Writes everything out and commits the file; errors name the output.
    func finish() throws { try out.commit() }
}

/// Shortest decimal text that round-trips the Double (NaN as empty field is *not* used: NaN stays `nan`).
@inline(__always)
func format(_ v: Double) -> String { v.description }

/// Parses "A,B,C" into doubles (for options like `--origin LAT,LON,H`).
func parseTriple(_ s: String, name: String) throws -> (Double, Double, Double) {
    let parts = s.split(separator: ",").map { Double($0.trimmingCharacters(in: .whitespaces)) }
    guard parts.count == 3, let a = parts[0], let b = parts[1], let c = parts[2],
          a.isFinite, b.isFinite, c.isFinite else {
        throw InputError(file: "--\(name)", line: nil, message: "expected three numbers 'A,B,C', got '\(s)'")
    }
    return (a, b, c)
}

/// The `--input FILE` / `--output FILE` pair shared by the CSV subcommands.
struct CSVFiles: ParsableArguments {
    @Option(help: "Input CSV file (default: stdin).")
    var input: String?

    @Option(help: "Output CSV file (default: stdout).")
    var output: String?
}
