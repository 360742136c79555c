import ArgumentParser
import Foundation
import GeoAnchorKit

/// A CSV table with a header row, read from a file or stdin, keeping source line numbers for
/// error messages. Tokenized by the core's ``CSVRecordReader`` (the one CSV tokenizer of the
/// package, shared with the trace reader): CRLF/LF/CR line ends, a leading BOM, RFC 4180 quoted
/// fields (commas, line breaks, `""`), blank lines and `#` comment lines ignored; a spreadsheet's
/// semicolon-separated CSV with decimal commas is read too (the dialect comes from the header). A row's line
/// is the physical line where its record starts.
struct CSVTable {
    /// Name used in error messages (`<stdin>` for standard input).
    let source: String
    let header: [String]
    /// Each row's fields with its 1-based line number in the source.
    let rows: [(line: Int, fields: [String])]

    /// Reads `path`, or stdin when `path` is nil or `-`.
    static func read(path: String?) throws -> CSVTable {
        let lines: ByteLineReader
        if path == nil || path == "-" {
            lines = ByteLineReader(standardInputChunkSize: 1 << 16)
        } else {
            lines = try ByteLineReader(url: URL(fileURLWithPath: path!))
        }
        return try read(lines)
    }

    /// Parses CSV text in memory (tests).
    static func parse(text: String, source: String) throws -> CSVTable {
        try read(ByteLineReader(data: Data(text.utf8), source: source))
    }

    static func read(_ lines: ByteLineReader) throws -> CSVTable {
        let source = lines.source
        var header: [String]? = nil
        var rows: [(Int, [String])] = []
        try CSVRecordReader(lines).forEachRecord { f, line in
            var fields: [String] = []
            fields.reserveCapacity(f.count)
            for i in 0..<f.count {
                guard let s = String(validating: f[i], as: UTF8.self) else {
                    // Excel's "CSV" in Central/Western European Windows is Windows-1250/1252, not UTF-8:
                    // guessing which would misspell names (0xF8 is ř in one, ø in the other).
                    throw InputError(file: source, line: line, message: "field \(i + 1) is not UTF-8 text (a spreadsheet's legacy encoding such as Windows-1250? save it as \"CSV UTF-8\")")
                }
                fields.append(s)
            }
            if header == nil {
                header = fields.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            } else {
                rows.append((line, fields))
            }
        }
        guard let header else {
            throw InputError(file: source, line: nil, message: "empty input: a header row is required")
        }
        return CSVTable(source: source, header: header, rows: rows)
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
        guard let v = try optionalDouble(row, col, name) else {
            throw InputError(file: source, line: row.line, message: "missing value for '\(name)'")
        }
        return v
    }

    /// Parses a time field: Unix seconds or ISO 8601 UTC (as trace CSVs and the simulator's
    /// sensor, tracking and compass files write it).
    func time(_ text: String, line: Int) throws -> Double {
        let t = text.trimmingCharacters(in: .whitespaces)
        if let v = Double(t) {
            guard v.isFinite else { throw InputError(file: source, line: line, message: "time '\(t)' is not finite") }
            return v
        }
        var str = t
        switch str.withUTF8({ ByteParsing.iso8601($0) }) {
        case .success(let v): return v
        case .failure(let e): throw InputError(file: source, line: line, message: "time '\(t)': \(e.message)")
        }
    }

    /// Parses an optional number: empty field → nil; garbage → error.
    func optionalDouble(_ row: (line: Int, fields: [String]), _ col: Int?, _ name: String) throws -> Double? {
        guard let col, col < row.fields.count else { return nil }
        var s = row.fields[col]
        // The core's strict syntax: decimal digits, '.', exponent, leading sign; no hex, nan, inf or NUL.
        switch s.withUTF8({ CSVFields.number($0) }) {
        case .success(let v): return v
        case .failure(let e): throw InputError(file: source, line: row.line, message: "\(name) \(e)")
        }
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

    /// One row of numbers, then `text` fields if any. A non-finite value is never written: the
    /// caller checks its results against the input row first; reaching this is an error naming
    /// the output.
    func write(_ values: [Double], then text: [String] = []) throws {
        guard values.allSatisfy(\.isFinite) else {
            throw InputError(file: out.name, line: nil, message: "refusing to write a non-finite value (\(values.map(format).joined(separator: ",")))")
        }
        try write(values.map(format) + text)
    }

    /// Writes everything out and commits the file; errors name the output.
    func finish() throws { try out.commit() }
}

/// Shortest decimal text that round-trips the Double (NaN as empty field is *not* used: NaN stays `nan`).
@inline(__always)
func format(_ v: Double) -> String { v.description }

/// Parses "A,B,C" into doubles (for options like `--origin LAT,LON,H`).
func parseTriple(_ s: String, name: String) throws -> (Double, Double, Double) {
    let parts = s.split(separator: ",").map { p -> Double? in
        var t = String(p)
        return t.withUTF8 { ByteParsing.decimal($0) }
    }
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
