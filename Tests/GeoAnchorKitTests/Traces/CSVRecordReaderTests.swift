import Foundation
import Testing
@testable import GeoAnchorKit

@Suite("CSV tokenizer")
struct CSVRecordReaderTests {
    /// Every record as strings with the line where it starts.
    func records(_ bytes: [UInt8]) throws -> [(Int, [String])] {
        var out: [(Int, [String])] = []
        try CSVRecordReader(ByteLineReader(data: Data(bytes), source: "t.csv")).forEachRecord { f, line in
            out.append((line, (0..<f.count).map { String(decoding: f[$0], as: UTF8.self) }))
        }
        return out
    }
    func records(_ s: String) throws -> [(Int, [String])] { try records(Array(s.utf8)) }

    /// Reference: RFC 4180 §2 and what Python's csv.writer writes (dialect 'excel':
    /// `\r\n`, minimal quoting) for rows [a,b], ["x,y", "say ""hi"""], ["two\nlines", 3].
    @Test func rfc4180AndLineEnds() throws {
        let body = "a,b\r\n\"x,y\",\"say \"\"hi\"\"\"\r\n\"two\r\nlines\",3\r\n"
        let expected: [(Int, [String])] = [(1, ["a", "b"]), (2, ["x,y", "say \"hi\""]), (3, ["two\nlines", "3"])]
        for text in [body, body.replacingOccurrences(of: "\r\n", with: "\n"), body.replacingOccurrences(of: "\r\n", with: "\r"),
                     body + "\r\n\r\n  \r\n"] {
            let r = try records(text)
            #expect(r.count == 3)
            for (got, want) in zip(r, expected) { #expect(got.0 == want.0 && got.1 == want.1, "\(text.debugDescription)") }
        }
        // BOM + CRLF (Excel "CSV UTF-8"): the BOM is not part of the first header name.
        let bom = try records([0xEF, 0xBB, 0xBF] + Array(body.utf8))
        #expect(bom.first?.1 == ["a", "b"])
    }

    /// A spreadsheet's CSV in a decimal-comma locale (Excel/LibreOffice "CSV" in Czech or
    /// German: `;` between fields, `50,087`): semicolon fields, numeric fields with a point,
    /// text fields (and quoted `;`) untouched. A header with a comma keeps the comma dialect.
    @Test func semicolonDialect() throws {
        let text = "id;lat;lon;note\r\nHrad, brána;50,087;-14,42e0;\"a;b\"\r\n7;1,5;  2,25 ;1,2,3\r\n"
        let r = try records(text)
        #expect(r.map(\.1) == [["id", "lat", "lon", "note"], ["Hrad, brána", "50.087", "-14.42e0", "a;b"], ["7", "1.5", "  2.25 ", "1,2,3"]])
        // Numbers it does not touch: no digit before or after the comma, two commas, a letter.
        for (field, kept) in [(",5", ",5"), ("5,", "5,"), ("1,5x", "1,5x"), ("1,5e", "1,5e"), ("12,5e-3", "12.5e-3"), ("-0,0", "-0.0")] {
            var b = Array(field.utf8)
            CSVRecordReader.decimalCommaToPoint(&b, from: 0)
            #expect(String(decoding: b, as: UTF8.self) == kept, "\(field)")
        }
        // Comma headers stay comma CSV even with semicolons in the data or in a quoted name.
        #expect(try records("a,\"b;c\"\n1;2,3\n").map(\.1) == [["a", "b;c"], ["1;2", "3"]])
        let reader = CSVRecordReader(ByteLineReader(data: Data("a;b\n1,5;2\n".utf8), source: "t.csv"))
        reader.detectsSemicolonDialect = false
        var rows: [[String]] = []
        try reader.forEachRecord { f, _ in rows.append((0..<f.count).map { String(decoding: f[$0], as: UTF8.self) }) }
        #expect(rows == [["a;b"], ["1", "5;2"]] && !reader.isSemicolonDialect)
    }

    /// A record's line is where it starts; the record after a two-line field starts on line 4.
    @Test func lineNumbersAndErrors() throws {
        let r = try records("h\n\"1\n2\"\n# comment\n5\n")
        #expect(r.map(\.0) == [1, 2, 5])
        #expect(throws: TraceFormatError.self) { try records("h\n1\n\"open,2\n3\n") }
        do { _ = try records("h\n1\n\"open,2\n3\n") } catch let e as TraceFormatError {
            #expect(e.line == 3 && e.message.contains("unterminated"))
        }
    }

    /// Strict numbers. Reference: the syntax documented on ``CSVRecordReader`` (decimal digits,
    /// '.', exponent, sign) — Swift's `Double(String)` accepts `0x10` (= 16) and stops at a NUL.
    @Test(arguments: [("12.5", 12.5), ("+3", 3), ("-0.5e-3", -0.0005), (".5", 0.5), (" 7 ", 7), ("1E+2", 100)])
    func acceptsDecimal(text: String, value: Double) throws {
        var s = text
        #expect(s.withUTF8 { CSVFields.number($0) } == .success(value))
    }

    @Test(arguments: ["0x10", "1\u{0}2", "nan", "inf", "-Infinity", "1,5", "1.2.3", "1e", "--1", "12abc", "١٢"])
    func rejectsNonDecimal(text: String) throws {
        var s = text
        let r = s.withUTF8 { CSVFields.number($0) }
        guard case .failure(let e) = r else { Issue.record("\(text.debugDescription) accepted as \(r)"); return }
        #expect(!e.description.contains("\u{0}"), "control bytes are shown escaped")
    }

    @Test func emptyFieldIsNil() {
        var s = "  "
        #expect(s.withUTF8 { CSVFields.number($0) } == .success(nil))
    }

    /// The trace reader goes through the same tokenizer: Python-style CRLF + BOM + quoted header.
    @Test func traceReaderSharesTheTokenizer() throws {
        let text = "\u{FEFF}\"time\",latitude,longitude,altitude\r\n2026-05-16T08:30:00Z,49.96,14.39,380\r\n\r\n"
        var fixes: [Fix] = []
        _ = try CSVTraceReader.read(ByteLineReader(data: Data(text.utf8), source: "t.csv")) { fixes.append($0) }
        #expect(fixes.count == 1 && fixes[0].height == 380 && fixes[0].verticalReference == .meanSeaLevel)
        #expect(throws: TraceFormatError.self) {
            _ = try CSVTraceReader.read(ByteLineReader(data: Data("time,latitude,longitude\n0,0x10,1\n".utf8), source: "t.csv")) { _ in }
        }
    }
}

@Suite("Byte-order mark")
struct ByteOrderMarkTests {
    /// A UTF-8 BOM before the first NMEA sentence or GnssLogger header is not part of the line.
    @Test func nmeaAndGnssLoggerWithBOM() throws {
        let gga = "$GPGGA,083000.00,4957.6000,N,01423.4000,E,1,08,0.9,380.5,M,45.6,M,,*"
        var x: UInt8 = 0
        for c in gga.dropFirst().dropLast().utf8 { x ^= c }
        let nmea = "\u{FEFF}" + gga + String(format: "%02X", x) + "\r\n"
        let f = try NMEAReader.fixes(from: nmea, options: TraceReadConfiguration(defaultDate: 1_778_889_600))
        #expect(f.count == 1 && f[0].height == 380.5)
        let log = "\u{FEFF}# Fix,Provider,LatitudeDegrees,LongitudeDegrees,AltitudeMeters,SpeedMps,AccuracyMeters,BearingDegrees,UnixTimeMillis\r\nFix,GPS,49.96,14.39,420,0,3,,1000\r\n"
        var g: [Fix] = []
        _ = try GnssLoggerReader.read(ByteLineReader(data: Data(log.utf8), source: "b.txt"), fixSource: .fixRecords) { g.append($0) }
        #expect(g.count == 1 && g[0].ellipsoidalHeight == 420)
    }
}
