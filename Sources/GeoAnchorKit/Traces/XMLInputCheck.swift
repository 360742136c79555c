import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Checks made on an XML document (GPX, KML, TCX, OSM) before Foundation's `XMLParser` sees it,
/// in one pass over a file: markup the parser expands or crashes on (``RefusedMarkupScanner``),
/// an unbounded DOCTYPE (``refuseLongDoctype(_:complete:source:format:)``) and invalid UTF-8.
///
/// **Invalid UTF-8.** On Linux, swift-corelibs-foundation's `XMLParser` traps (stops the whole
/// process) when libxml2 hands it an element or attribute name that is not valid UTF-8 — one
/// byte such as `0xC3` at the end of a tag name is enough. A document that is UTF-8 (declared so,
/// or declaring no encoding: XML's default) is therefore scanned first, and a malformed byte
/// sequence is a ``TraceFormatError`` naming its line. Documents declaring another encoding
/// (`ISO-8859-1`, `UTF-16` …) are converted to UTF-8 by libxml2 itself and are not scanned.
enum XMLInputCheck {
    /// A document's format for the messages, and its root element (where a DOCTYPE must end).
    typealias Format = (name: String, root: String)
    static let gpx: Format = ("GPX", "gpx")
    static let kml: Format = ("KML", "kml")
    static let tcx: Format = ("TCX", "TrainingCenterDatabase")
    static let osm: Format = ("OSM XML", "osm")

    /// How far into a document the DOCTYPE is looked for (1 MiB): a document type declaration
    /// must come before the root element, and GPX and KML need none.
    static let doctypeScanLimit = 1 << 20

    /// Refuses a DOCTYPE that does not end within the first ``doctypeScanLimit`` bytes (the
    /// root element not seen there): GPX, KML, TCX and OSM XML need none, and an unbounded one is
    /// no GPS file. The declarations a DOCTYPE may hold are refused by ``RefusedMarkupScanner``
    /// wherever they stand.
    /// - Parameter prefix: the first ``doctypeScanLimit`` bytes of the file (or all of it).
    /// - Parameter complete: whether `prefix` is the whole file.
    /// - Parameter format: the document's format and root element (GPX `gpx`, KML `kml`), for
    ///   the message and the end of the DOCTYPE.
    static func refuseLongDoctype(_ prefix: Data, complete: Bool, source: String, format: Format) throws(TraceFormatError) {
        guard !complete, let doctype = prefix.firstRange(of: Data("<!DOCTYPE".utf8)) else { return }
        if prefix[doctype.upperBound...].firstRange(of: Data("<\(format.root)".utf8)) == nil {
            throw TraceFormatError(source: source, line: nil,
                message: "the DOCTYPE declaration is longer than \(doctypeScanLimit) bytes (\(format.name) needs none)")
        }
    }

    /// Bytes read per chunk when scanning a file: the first chunk is the DOCTYPE scan's prefix.
    static let chunkSize = doctypeScanLimit

    /// Whether libxml2 converts the document to UTF-8 itself, so it needs no UTF-8 scan: a
    /// UTF-16/32 byte-order mark or UTF-16 text without one (`<` with a zero byte beside it), or
    /// an XML declaration naming a legacy encoding libxml2 converts through iconv — single-byte
    /// (ISO-8859-*, Latin-*, Windows-125*/CP*, KOI8-*, Mac, IBM code pages, ASCII) or East Asian
    /// (Shift_JIS, EUC-*, GB*, Big5, ISO-2022-*). Any other declaration is scanned as UTF-8: a
    /// document declaring UTF-16 without being UTF-16, or an unknown name, is read by libxml2
    /// as UTF-8 without conversion, and an invalid byte in a name then trapped in `XMLParser`
    /// (found by the OSM fuzz target: `encoding="UTF-\u{8F}…"`, and `encoding="UTF-16"` on
    /// 8-bit text). The declaration must be well-formed (`<?xml version="1.x" encoding="NAME"`)
    /// and, on Linux, iconv must know the name exactly — a name that merely starts like one
    /// (`mac-8`, `windows-bUTF…`, found by the KML and TCX fuzz targets) is not converted by
    /// libxml2 either, and trapped the same way.
    static func declaresOtherEncoding(_ prefix: Data) -> Bool {
        let b = [UInt8](prefix.prefix(256))
        if b.starts(with: [0xFF, 0xFE]) || b.starts(with: [0xFE, 0xFF]) || b.starts(with: [0, 0]) { return true }
        if b.count >= 2, (b[0] == 0x3C && b[1] == 0) || (b[0] == 0 && b[1] == 0x3C) { return true }
        guard let name = declaredEncodingName(b) else { return false }
        return Self.convertedEncodingPrefixes.contains { name.lowercased().hasPrefix($0) } && iconvConverts(name)
    }

    /// The encoding name of a well-formed XML declaration at the start of `b` (after an optional
    /// UTF-8 byte-order mark): `<?xml` S `version` Eq `'1.`digits`'` S `encoding` Eq quoted
    /// EncName (`[A-Za-z] ([A-Za-z0-9._] | '-')*`), quotes either kind; nil otherwise.
    static func declaredEncodingName(_ b: [UInt8]) -> String? {
        var i = b.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        func skipSpaces() -> Bool { let s = i; while i < b.count && isSpace(b[i]) { i += 1 }; return i > s }
        func literal(_ s: String) -> Bool {
            let u = Array(s.utf8)
            guard b.count - i >= u.count, Array(b[i..<(i + u.count)]) == u else { return false }
            i += u.count; return true
        }
        func equals() -> Bool { _ = skipSpaces(); guard literal("=") else { return false }; _ = skipSpaces(); return true }
        func quoted(_ valid: (UInt8, Int) -> Bool) -> [UInt8]? {
            guard i < b.count, b[i] == 0x22 || b[i] == 0x27 else { return nil }
            let q = b[i]; i += 1
            let start = i
            while i < b.count && b[i] != q { guard valid(b[i], i - start) else { return nil }; i += 1 }
            guard i < b.count, i > start else { return nil }
            defer { i += 1 }
            return Array(b[start..<i])
        }
        func isLetter(_ c: UInt8) -> Bool { (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) }
        func isDigit(_ c: UInt8) -> Bool { (0x30...0x39).contains(c) }
        guard literal("<?xml"), skipSpaces(), literal("version"), equals(),
              let version = quoted({ c, k in k < 2 ? c == Array("1.".utf8)[k] : isDigit(c) }), version.count >= 3,
              skipSpaces(), literal("encoding"), equals(),
              let name = quoted({ c, k in k == 0 ? isLetter(c) : isLetter(c) || isDigit(c) || c == 0x2E || c == 0x5F || c == 0x2D })
        else { return nil }
        return String(decoding: name, as: UTF8.self)
    }

    /// XML white space (`S`: space, tab, CR, LF).
    static func isSpace(_ c: UInt8) -> Bool { c == 0x20 || c == 0x09 || c == 0x0D || c == 0x0A }

    /// Whether iconv — through which libxml2 converts legacy encodings — knows `name` (always
    /// true off Linux, where `XMLParser` has no such trap).
    static func iconvConverts(_ name: String) -> Bool {
        #if os(Linux)
        guard let cd = iconv_open("UTF-8", name), cd != iconv_t(bitPattern: -1) else { return false }
        iconv_close(cd)
        return true
        #else
        return true
        #endif
    }

    /// Lowercased prefixes of the encoding names libxml2 converts (through iconv) into UTF-8.
    static let convertedEncodingPrefixes = ["iso-8859", "iso8859", "iso_8859", "latin", "l1", "windows-", "cp", "koi8",
                                            "us-ascii", "ascii", "mac", "ibm", "shift_jis", "shift-jis", "sjis", "euc-",
                                            "gb2312", "gbk", "gb18030", "big5", "iso-2022"]

    /// Incremental UTF-8 validation (RFC 3629: no overlongs, no surrogates, ≤ U+10FFFF), with
    /// the line of the first malformed sequence.
    struct Validator {
        var line = 1
        /// Continuation bytes still expected, and the allowed range of the next one.
        var pending = 0
        var low: UInt8 = 0x80, high: UInt8 = 0xBF

        /// Feeds bytes; returns the line of the first invalid byte, nil while valid.
        mutating func feed(_ bytes: UnsafeRawBufferPointer) -> Int? {
            for c in bytes {
                if pending > 0 {
                    guard c >= low && c <= high else { return line }
                    pending -= 1; low = 0x80; high = 0xBF
                    continue
                }
                switch c {
                case 0x0A: line += 1
                case 0x00...0x7F: break
                case 0xC2...0xDF: pending = 1
                case 0xE0: pending = 2; low = 0xA0
                case 0xE1...0xEC, 0xEE, 0xEF: pending = 2
                case 0xED: pending = 2; high = 0x9F
                case 0xF0: pending = 3; low = 0x90
                case 0xF1...0xF3: pending = 3
                case 0xF4: pending = 3; high = 0x8F
                default: return line
                }
            }
            return nil
        }

        /// The line of a sequence cut off by the end of the document, nil when complete.
        var unfinished: Int? { pending > 0 ? line : nil }
    }

    static func error(_ source: String, _ line: Int, _ format: String) -> TraceFormatError {
        TraceFormatError(source: source, line: line,
                         message: "not valid UTF-8 (\(format) is read as UTF-8 unless its XML declaration names an encoding converted to it, e.g. encoding=\"ISO-8859-1\" or \"windows-1250\"; declare the one it is in)")
    }

    /// A checked stream over a file for `XMLParser`: its decompressed text for a gzip, compress
    /// or single-file ZIP file (``ByteLineReader/decompressedContents(of:)``), else the file
    /// itself — each checked first (``check(data:source:format:)``, ``check(url:format:)``).
    /// - Throws: ``TraceFormatError`` "cannot open file", or the check's.
    static func openStream(url: URL, format: Format) throws(TraceFormatError) -> InputStream {
        if let text = try ByteLineReader.decompressedContents(of: url) {   // walk.gpx.gz, doc.kml.gz, site.zip/doc.kml
            try check(data: text, source: url.path, format: format)
            return InputStream(data: text)
        }
        if ByteLineReader.isDirectory(url) { throw ByteLineReader.directoryError(url) }
        guard let stream = InputStream(url: url), FileManager.default.isReadableFile(atPath: url.path) else {
            throw TraceFormatError(source: url.path, line: nil, message: "cannot open file")
        }
        try check(url: url, format: format)
        return stream
    }

    /// Checks a document in memory (in ``chunkSize`` slices, as a file is read).
    static func check(data: Data, source: String, format: Format) throws(TraceFormatError) {
        var offset = data.startIndex
        try check(source: source, format: format) {
            let end = data.index(offset, offsetBy: Swift.min(chunkSize, data.endIndex - offset))
            defer { offset = end }
            return data[offset..<end]
        }
    }

    /// Checks a file, reading it once in chunks (memory does not grow with the file). An
    /// unreadable file is left to the reader to report.
    static func check(url: URL, format: Format) throws(TraceFormatError) {
        guard let h = try? FileHandle(forReadingFrom: url) else { return }
        defer { try? h.close() }
        try check(source: url.path, format: format) { (try? h.read(upToCount: chunkSize)) ?? Data() }
    }

    /// The one check of a document given as consecutive chunks (`next` returns an empty chunk at
    /// the end; the first is at most ``chunkSize`` bytes, the DOCTYPE scan's prefix): refused
    /// markup anywhere, a DOCTYPE longer than the first chunk, UTF-8 unless the document declares
    /// an encoding libxml2 converts.
    static func check(source: String, format: Format, next: () -> Data) throws(TraceFormatError) {
        var chunk = next()
        var markup = RefusedMarkupScanner(prefix: chunk)
        var v: Validator? = declaresOtherEncoding(chunk) ? nil : Validator()
        var first = true
        while !chunk.isEmpty {
            let following = next()
            if let found = chunk.withUnsafeBytes({ markup.feed($0) }) { throw scanError(source, found, format) }
            if first { try refuseLongDoctype(chunk, complete: following.isEmpty, source: source, format: format); first = false }
            if v != nil, let bad = chunk.withUnsafeBytes({ v!.feed($0) }) { throw error(source, bad, format.name) }
            chunk = following
        }
        if let bad = v?.unfinished { throw error(source, bad, format.name) }
    }

    /// The error for what ``RefusedMarkupScanner`` found: an instruction without data, or a
    /// declaration (`!ENTITY` …).
    static func scanError(_ source: String, _ found: (line: Int, target: String), _ format: Format) -> TraceFormatError {
        let message: String
        switch found.target {
        case "!ENTITY": message = "XML entity declarations are not accepted in \(format.name) (an entity can expand a small file into gigabytes)"
        case "!ATTLIST", "!NOTATION":
            message = "XML \(found.target == "!ATTLIST" ? "attribute-list" : "notation") declarations are not accepted in \(format.name) (the XML parser on Linux crashes on some; \(format.name) needs none)"
        default: message = "a processing instruction without data, <?\(found.target)?>, is not accepted (the XML parser on Linux crashes on one); remove it or give it data"
        }
        return TraceFormatError(source: source, line: found.line, message: message)
    }

    /// Finds the markup refused before parsing, anywhere in a document, in one pass over its
    /// bytes fed in chunks: entity, attribute-list and notation declarations, and a processing
    /// instruction without data.
    ///
    /// **Entities.** An internal entity referenced many times (or entities nesting other
    /// entities, the "billion laughs") makes the XML parser expand gigabytes from a file of
    /// kilobytes; `XMLParser` has no expansion budget that works on every platform. GPX, KML,
    /// TCX and OSM XML define no entities of their own and GPS devices and GPSBabel write none,
    /// so `<!ENTITY` is refused; the five predefined entities (`&amp;` …) are fine. External
    /// entities are never resolved (`shouldResolveExternalEntities = false`).
    ///
    /// **Attribute lists and notations.** libxml2 hands `XMLParser` a null pointer for an
    /// attribute without a default (`#IMPLIED`, `#REQUIRED`) or a notation without a public
    /// identifier, and swift-corelibs-foundation crashes on it (a segmentation fault, the whole
    /// process: a 50-byte GPX `<!DOCTYPE gpx [<!ATTLIST gpx a CDATA #IMPLIED>]><gpx/>`
    /// stopped `geobench`). None of the formats needs either.
    ///
    /// **Instructions without data** (`<?name?>`). libxml2 hands such an instruction's data to
    /// `XMLParser` as a null pointer, on which swift-corelibs-foundation crashes (a segmentation
    /// fault: the whole process) — found by the TCX fuzz target, a 5-byte file `<?t?>` stopped
    /// `geobench convert`. The text is refused even inside a comment or CDATA section: after a
    /// malformed declaration or comment, libxml2's error recovery reaches instructions a
    /// well-formedness-minded scan would skip (the fuzz target's second find), and a literal
    /// `<?name?>` in a GPS file's comment is rarer than a crash is bad. UTF-16 and UTF-32
    /// documents (by their byte-order mark or a zero byte beside the first `<`) are read as
    /// code units; other encodings byte by byte (ASCII-compatible: `<`, `?` and `>` are never
    /// part of a multibyte character in them).
    struct RefusedMarkupScanner {
        enum State { case text, lt, piStart, piTarget, piTargetQuestion, bang }
        /// The declarations refused, found anywhere (a search of the first MiB's DOCTYPE alone
        /// missed one after a 1 MiB prolog comment, and all of them in UTF-16 text). Reported
        /// with a `!` target.
        static let declarations = ["ENTITY", "ATTLIST", "NOTATION"].map { Array($0.utf8) }
        var state = State.text
        var line = 1
        var target: [UInt8] = []
        /// Bytes per code unit (1, 2 or 4), big-endian or not, and the unit being assembled.
        let width: Int, bigEndian: Bool
        var unit: UInt32 = 0, unitBytes = 0

        init(prefix: Data) {
            let b = [UInt8](prefix.prefix(4))
            if b.starts(with: [0, 0, 0xFE, 0xFF]) || (b.count == 4 && b[0] == 0 && b[1] == 0 && b[2] == 0 && b[3] == 0x3C) { width = 4; bigEndian = true }
            else if b.starts(with: [0xFF, 0xFE, 0, 0]) || b.starts(with: [0x3C, 0, 0, 0]) { width = 4; bigEndian = false }
            else if b.starts(with: [0xFE, 0xFF]) || b.starts(with: [0, 0x3C]) { width = 2; bigEndian = true }
            else if b.starts(with: [0xFF, 0xFE]) || b.starts(with: [0x3C, 0]) { width = 2; bigEndian = false }
            else { width = 1; bigEndian = false }
        }

        /// Feeds bytes; returns the line and target (`!ENTITY` … for a declaration) of the first
        /// refused markup, nil if none yet.
        mutating func feed(_ bytes: UnsafeRawBufferPointer) -> (line: Int, target: String)? {
            for byte in bytes {
                if width == 1 {
                    if let found = step(byte) { return found }
                    continue
                }
                unit = bigEndian ? unit << 8 | UInt32(byte) : unit | UInt32(byte) << (8 * UInt32(unitBytes))
                unitBytes += 1
                guard unitBytes == width else { continue }
                let c: UInt8 = unit < 0x80 ? UInt8(unit) : 0x80   // any non-ASCII character is a name character here
                unit = 0; unitBytes = 0
                if let found = step(c) { return found }
            }
            return nil
        }

        mutating func step(_ c: UInt8) -> (line: Int, target: String)? {
            if c == 0x0A { line += 1 }
            switch state {
            case .text, .lt:
                state = c == 0x3C ? .lt : (state == .lt && c == 0x3F) ? .piStart : (state == .lt && c == 0x21) ? .bang : .text
                if state == .piStart || state == .bang { target.removeAll(keepingCapacity: true) }
            case .bang:
                target.append(c)
                if Self.declarations.contains(target) { return (line, "!" + String(decoding: target, as: UTF8.self)) }
                if !Self.declarations.contains(where: { $0.starts(with: target) }) { state = c == 0x3C ? .lt : .text }
            case .piStart, .piTarget:
                let space = XMLInputCheck.isSpace(c)
                if c == 0x3F && state == .piTarget { state = .piTargetQuestion }
                else if c == 0x3C { state = .lt }
                else if space || c == 0x3E || c == 0x3F { state = .text }
                else { state = .piTarget; if target.count < 40 { target.append(c) } }
            case .piTargetQuestion:
                if c == 0x3E { return (line, String(decoding: target, as: UTF8.self)) }
                state = c == 0x3C ? .lt : .text
            }
            return nil
        }
    }
}

/// An `XMLParser` delegate of a trace reader: what stopped the parse, if anything.
protocol TraceXMLDelegate: XMLParserDelegate {
    /// An error thrown by the caller's callback (rethrown as is).
    var callbackError: (any Error)? { get }
    /// A bad value or structure the delegate found (with its line).
    var formatError: TraceFormatError? { get set }
    /// What the read found so far (skipped records counted here).
    var summary: TraceReadSummary { get set }
    /// Names the document in errors.
    var source: String { get }
    var options: TraceReadConfiguration { get }
    /// Elements started and not yet ended: above 0 after a parse, the document was cut short
    /// (libxml2 reports no error for a stream that ends inside the root element).
    var openElements: Int { get }
}

extension TraceXMLDelegate {
    /// A bad value at `line`: with ``TraceReadConfiguration/skipInvalid`` skipped and counted,
    /// else the read's error (`parser` stops).
    func reject(line: Int?, _ message: String, _ parser: XMLParser?) {
        let e = TraceFormatError(source: source, line: line, message: message)
        if options.skipInvalid { summary.skip(e) } else { formatError = e; parser?.abortParsing() }
    }
}

extension XMLInputCheck {
    /// An element's name without its namespace prefix (`gx:Track` → `Track`, `ns3:TPX` → `TPX`),
    /// as the KML and TCX readers match them (parsing keeps prefixes).
    static func localName(_ q: String) -> String {
        guard let c = q.lastIndex(of: ":") else { return q }
        return String(q[q.index(after: c)...])
    }

    /// Parses `stream` with `delegate` (namespace prefixes kept, external entities never
    /// resolved): the GPX, KML, TCX and OSM readers' one parse. Throws the delegate's callback or
    /// format error, else "malformed XML" with the parser's message and line, or when the
    /// document ends inside its root element (`format`'s root: a truncated download). Returns
    /// the line the parser ended on.
    @discardableResult
    static func parse(_ stream: InputStream, source: String, format: Format, delegate: some TraceXMLDelegate,
                      configure: (XMLParser) -> Void = { _ in }) throws -> Int {
        let parser = XMLParser(stream: stream)
        parser.shouldProcessNamespaces = false
        parser.shouldResolveExternalEntities = false
        parser.delegate = delegate
        configure(parser)
        let ok = parser.parse()
        if let e = delegate.callbackError { throw e }
        if let e = delegate.formatError { throw e }
        if !ok {
            var msg = "malformed XML"
            if let err = parser.parserError { msg += ": " + (err as NSError).localizedDescription }
            throw TraceFormatError(source: source, line: parser.lineNumber > 0 ? parser.lineNumber : nil, message: msg)
        }
        if delegate.openElements > 0 {
            throw TraceFormatError(source: source, line: parser.lineNumber > 0 ? parser.lineNumber : nil,
                                   message: "malformed XML: the document ends before </\(format.root)> (truncated file?)")
        }
        return parser.lineNumber
    }
}
