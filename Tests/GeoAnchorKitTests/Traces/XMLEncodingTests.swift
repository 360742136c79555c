import Foundation
import Testing
@testable import GeoAnchorKit

/// Which XML documents skip the UTF-8 scan (`XMLInputCheck.declaresOtherEncoding`): only those
/// libxml2 converts to UTF-8 itself. A document declaring `UTF-16` while being 8-bit text, or an
/// encoding name that is not one (the OSM fuzz target's crash: `encoding="UTF-\u{8F}…8"`), is read
/// by libxml2 without conversion, and an invalid UTF-8 byte in an element or attribute name then
/// trapped inside Foundation's XMLParser (the whole process stopped). Now such bytes are a
/// TraceFormatError naming the line; a real windows-1250 document (Czech place names) is still
/// converted — reference: the name as written, "Český Krumlov".
@Suite("XML encodings")
struct XMLEncodingTests {

    /// A GPX/KML/OSM document with `declaration` and an invalid UTF-8 byte (0xC8) starting an
    /// attribute name on line 2.
    static func document(_ declaration: [UInt8], root: String) -> Data {
        var d = Data("<?xml version=\"1.0\" encoding=\"".utf8) + Data(declaration) + Data("\"?>\n".utf8)
        switch root {
        case "gpx": d += Data("<gpx version=\"1.1\"><wpt ".utf8) + Data([0xC8]) + Data("lat=\"50\" lon=\"14\"/></gpx>\n".utf8)
        case "kml": d += Data("<kml><Placemark ".utf8) + Data([0xC8]) + Data("id=\"a\"><Point><coordinates>14,50</coordinates></Point></Placemark></kml>\n".utf8)
        default: d += Data("<osm version=\"0.6\"><node id=\"1\" ".utf8) + Data([0xC8]) + Data("lat=\"50\" lon=\"14\"/></osm>\n".utf8)
        }
        return d
    }

    /// Reads `d` with the reader of `root` (gpx, kml, tcx, osm) — the four XML readers share
    /// the checks these tests exercise.
    static func read(_ d: Data, as root: String) throws {
        switch root {
        case "gpx": _ = try GPXReader.read(data: d, source: "t", onFix: { _ in })
        case "kml": _ = try KMLReader.read(data: d, source: "t", onFix: { _ in })
        case "tcx": _ = try TCXReader.read(data: d, source: "t", onFix: { _ in })
        default: _ = try OSMReader.read(data: d, source: "t")
        }
    }

    @Test(arguments: ["gpx", "kml", "osm"])
    func misdeclaredEncodingsAreScanned(root: String) throws {
        let names: [[UInt8]] = [Array("UTF-16".utf8), Array("UTF-".utf8) + [UInt8](repeating: 0x8F, count: 40) + Array("8".utf8),
                                Array("FOO".utf8), Array("UTF-8x".utf8)]
        for name in names {
            let d = Self.document(name, root: root)
            #expect { try Self.read(d, as: root) } throws: { e in
                guard let e = e as? TraceFormatError else { return false }
                return e.message.hasPrefix("not valid UTF-8") && e.line == (name.contains(0x8F) ? 1 : 2)   // the bad name itself is on line 1
            }
        }
    }

    /// Declarations that only look like a converted encoding — found by the KML and TCX fuzz
    /// targets (`Fuzz/`): a name that starts like one iconv knows (`mac-8`, `windows-bUTF…`), or
    /// a malformed declaration around a real name. libxml2 reads them unconverted; an invalid byte
    /// in a name then trapped `XMLParser` (the whole process). Now they are scanned as UTF-8 and
    /// refused naming the line; names iconv knows still skip the scan.
    @Test(arguments: ["gpx", "kml", "osm"])
    func lookalikeEncodingsAreScanned(root: String) throws {
        let declarations = [#"<?xml version="1.0" encoding="mac-8"?>"#, #"<?xml version="1.0" encoding="windows-bUTFaining"?>"#,
                            #"<?xml versioibm3.0" encoding="windows-1250"?>"#, #"<?xml version="2.0" encoding="ISO-8859-1"?>"#,
                            #"<?xml version="1.0" encoding="latin-forty"?>"#]
        for decl in declarations {
            var d = Data((decl + "\n").utf8)
            d += Self.document([], root: root).drop { $0 != 0x0A }.dropFirst()
            #expect { try Self.read(d, as: root) } throws: { e in
                (e as? TraceFormatError).map { $0.message.hasPrefix("not valid UTF-8") && $0.line == 2 } ?? false
            }
        }
        #expect(XMLInputCheck.declaredEncodingName(Array(#"<?xml version='1.1'  encoding = "Shift_JIS" ?>"#.utf8)) == "Shift_JIS")
        #expect(XMLInputCheck.declaresOtherEncoding(Data(#"<?xml version="1.0" encoding="windows-1250"?>"#.utf8)))
        #expect(XMLInputCheck.declaresOtherEncoding(Data(#"<?xml version="1.0" encoding="ISO-8859-2"?>"#.utf8)))
        #expect(!XMLInputCheck.declaresOtherEncoding(Data(#"<?xml version="1.0" encoding="mac-8"?>"#.utf8)))
    }

    /// A processing instruction without data (`<?t?>`, legal XML) made libxml2 hand `XMLParser`
    /// a null pointer, on which it crashed — a segmentation fault, the whole process (found by
    /// the TCX fuzz target: the 5-byte file `<?t?>`). Refused before parsing, naming its line,
    /// wherever it stands (prolog, content, after the root, UTF-16, in a file past the first
    /// 1 MiB chunk, after a malformed declaration — the fuzz target's second find — and even in
    /// a comment or CDATA section, which libxml2's error recovery may not respect); instructions
    /// with data are parsed as before.
    @Test(arguments: ["gpx", "kml", "tcx", "osm"])
    func emptyProcessingInstructionsAreRefused(root: String) throws {
        let open = ["gpx": #"<gpx version="1.1">"#, "kml": "<kml>", "tcx": "<TrainingCenterDatabase>", "osm": #"<osm version="0.6">"#][root]!
        let close = ["gpx": "</gpx>", "kml": "</kml>", "tcx": "</TrainingCenterDatabase>", "osm": "</osm>"][root]!
        func read(_ d: Data) throws { try Self.read(d, as: root) }
        func refused(_ d: Data, line: Int, target: String = "t") {
            #expect { try read(d) } throws: { e in
                guard let e = e as? TraceFormatError else { return false }
                return e.line == line && e.message.hasPrefix("a processing instruction without data, <?\(target)?>")
            }
        }
        refused(Data("<?t?>".utf8), line: 1)
        refused(Data("<?xml version=\"1.0\"?>\n<?xml-stylesheet?>\n\(open)\(close)\n".utf8), line: 2, target: "xml-stylesheet")
        refused(Data("<?xml version=\"1.0\"?>\n\(open)\n\n<?t?>\(close)\n".utf8), line: 4)
        refused(Data("\(open)\(close)\n<!-- a -- b --><?t?>".utf8), line: 2)
        var utf16 = Data([0xFF, 0xFE])
        for u in "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<?t?>\n\(open)\(close)\n".utf16 { utf16 += Data([UInt8(u & 0xFF), UInt8(u >> 8)]) }
        refused(utf16, line: 2)
        refused(Data("<?xml version=\"1.0\" encodm x=\"y\">\n\(open)\n<?e?>\(close)\n".utf8), line: 3, target: "e")
        refused(Data("<?xml version=\"1.0\"?>\n\(open)<!--\n <?t?> -->\(close)\n".utf8), line: 3)
        // Instructions with data (xml-stylesheet, p) and near misses (`<? t?>`, `<?t ?>`) are fine.
        let fine = "<?xml version=\"1.0\"?>\n<?xml-stylesheet href=\"a.xsl\"?><?t ?>\(open)<!--<? t?>--><?p data?>\(close)\n"
        #expect(throws: Never.self) { try read(Data(fine.utf8)) }
        // A file read in 1 MiB chunks, the instruction straddling the first chunk's end.
        if root == "gpx" {
            var text = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\">\n"
            text += String(repeating: " ", count: XMLInputCheck.chunkSize - text.utf8.count - 2) + "<?t?></gpx>\n"
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("pi-\(UUID().uuidString).gpx")
            defer { try? FileManager.default.removeItem(at: url) }
            try Data(text.utf8).write(to: url)
            #expect { _ = try GPXReader.read(url: url, onFix: { _ in }) } throws: { e in
                (e as? TraceFormatError)?.line == 3 && (e as? TraceFormatError)?.source == url.path
            }
        }
    }

    /// Attribute-list and notation declarations in a DOCTYPE: libxml2 hands `XMLParser` a null
    /// default value (`#IMPLIED`, `#REQUIRED`) or public identifier, and it crashed — a
    /// segmentation fault, the whole process (found by probing the DTD callbacks after the fuzz
    /// targets' finds). Refused before parsing, naming the line; an element declaration is fine.
    @Test(arguments: ["gpx", "kml", "tcx", "osm"])
    func dtdDeclarationsThatCrashedAreRefused(root: String) throws {
        let tag = ["gpx": "gpx", "kml": "kml", "tcx": "TrainingCenterDatabase", "osm": "osm"][root]!
        func read(_ text: String) throws { try read(Data(text.utf8)) }
        func read(_ d: Data) throws { try Self.read(d, as: root) }
        for (decl, word) in [("<!ATTLIST \(tag) a CDATA #IMPLIED>", "attribute-list"), ("<!ATTLIST \(tag) a CDATA #REQUIRED>", "attribute-list"),
                             ("<!NOTATION n SYSTEM \"\">", "notation"), ("<!NOTATION n PUBLIC \"p\">", "notation")] {
            #expect { try read("<?xml version=\"1.0\"?>\n<!DOCTYPE \(tag) [\n\(decl)\n]>\n<\(tag)/>\n") } throws: { e in
                (e as? TraceFormatError).map { $0.line == 3 && $0.message.hasPrefix("XML \(word) declarations are not accepted") } ?? false
            }
        }
        // Where a search of the first MiB's DOCTYPE could not see them: UTF-16 text, and a DOCTYPE
        // after a prolog comment longer than the 1 MiB scan (both crashed before).
        var utf16 = Data([0xFE, 0xFF])
        for u in "<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<!DOCTYPE \(tag) [<!ATTLIST \(tag) a CDATA #IMPLIED>]><\(tag)/>".utf16 {
            utf16 += Data([UInt8(u >> 8), UInt8(u & 0xFF)])
        }
        #expect { try read(utf16) } throws: { e in
            (e as? TraceFormatError).map { $0.line == 2 && $0.message.hasPrefix("XML attribute-list declarations are not accepted") } ?? false
        }
        if root == "gpx" {
            let long = "<?xml version=\"1.0\"?>\n<!--" + String(repeating: "x", count: XMLInputCheck.doctypeScanLimit) + "-->\n<!DOCTYPE gpx [<!NOTATION n SYSTEM \"\">]><gpx/>"
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("dtd-\(UUID().uuidString).gpx")
            defer { try? FileManager.default.removeItem(at: url) }
            try Data(long.utf8).write(to: url)
            #expect { _ = try GPXReader.read(url: url, onFix: { _ in }) } throws: { e in
                (e as? TraceFormatError).map { $0.line == 3 && $0.message.hasPrefix("XML notation declarations are not accepted") } ?? false
            }
            #expect { try read(long) } throws: { e in (e as? TraceFormatError)?.line == 3 }
        }
        // An element declaration reaches no such callback.
        do { try read("<!DOCTYPE \(tag) [<!ELEMENT \(tag) ANY>]><\(tag)/>") } catch let e as TraceFormatError {
            #expect(!e.message.contains("declarations are not accepted"), "\(e)")
        }
    }

    /// A document in memory (a decompressed .gpx.gz) and the same bytes in a file pass the one
    /// chunked check alike: the same error (message and line) or none, for problems in the first
    /// and in the second 1 MiB chunk, a DOCTYPE longer than the first chunk, and a file of exactly
    /// one chunk with an unclosed DOCTYPE (complete: left to the parser). Reference: the
    /// expected line of each problem as written below.
    @Test func memoryAndFileAreCheckedAlike() throws {
        let size = XMLInputCheck.chunkSize
        func padded(_ head: String, to length: Int, _ tail: Data) -> Data {
            var d = Data(head.utf8)
            d += Data(repeating: 0x20, count: Swift.max(0, length - d.count - tail.count))
            return d + tail
        }
        let open = "<?xml version=\"1.0\"?>\n<gpx version=\"1.1\">\n<!--"
        let cases: [(name: String, data: Data, line: Int?)] = [
            ("valid, two chunks", padded(open, to: size + 100, Data("-->\n</gpx>\n".utf8)), nil),
            ("<?t?> in chunk 2", padded(open, to: size + 100, Data("-->\n<?t?></gpx>\n".utf8)), 4),
            ("bad UTF-8 in chunk 2", padded(open, to: size + 100, Data("-->\n".utf8) + Data([0xC8]) + Data("</gpx>\n".utf8)), 4),
            ("bad UTF-8 in chunk 1", Data("<?xml version=\"1.0\"?>\n<gpx ".utf8) + Data([0xC8]) + Data("a=\"1\"/>\n".utf8), 2),
            ("<!ENTITY after 1 MiB", padded("<?xml version=\"1.0\"?>\n<!--", to: size + 100, Data("-->\n<!DOCTYPE gpx [<!ENTITY e \"x\">]><gpx/>".utf8)), 3),
            ("long DOCTYPE", padded("<?xml version=\"1.0\"?>\n<!DOCTYPE gpx [<!--", to: size + 100, Data("-->]><gpx/>".utf8)), nil),
            ("one chunk exactly, DOCTYPE unclosed", padded("<?xml version=\"1.0\"?>\n<!DOCTYPE gpx [<!--", to: size, Data()), nil),
        ]
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("chunks-\(UUID().uuidString).gpx")
        defer { try? FileManager.default.removeItem(at: url) }
        for c in cases {
            try c.data.write(to: url)
            var memory: TraceFormatError?, file: TraceFormatError?
            do { try XMLInputCheck.check(data: c.data, source: url.path, format: XMLInputCheck.gpx) } catch { memory = error }
            do { try XMLInputCheck.check(url: url, format: XMLInputCheck.gpx) } catch { file = error }
            #expect(memory == file, "\(c.name): in memory \(String(describing: memory)), file \(String(describing: file))")
            if let line = c.line { #expect(memory?.line == line, "\(c.name): \(String(describing: memory))") }
            if c.name == "long DOCTYPE" { #expect(memory?.message.contains("DOCTYPE declaration is longer") == true, "\(String(describing: memory))") }
            if c.name.hasPrefix("valid") || c.name.hasPrefix("one chunk") { #expect(memory == nil, "\(c.name): \(String(describing: memory))") }
        }
        #expect(cases[6].data.count == size)
    }

    @Test func windows1250IsConverted() throws {
        var d = Data("<?xml version=\"1.0\" encoding=\"windows-1250\"?>\n<gpx version=\"1.1\"><wpt lat=\"48.81\" lon=\"14.31\"><name>".utf8)
        d += Data([0xC8]) + Data("esk".utf8) + Data([0xFD]) + Data(" Krumlov</name></wpt></gpx>\n".utf8)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cp1250-\(UUID().uuidString).gpx")
        defer { try? FileManager.default.removeItem(at: url) }
        try d.write(to: url)
        #expect(try GPXReader.waypoints(url: url).map(\.name) == ["Český Krumlov"])
    }
}
