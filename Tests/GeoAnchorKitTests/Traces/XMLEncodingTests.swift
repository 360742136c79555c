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

    @Test(arguments: ["gpx", "kml", "osm"])
    func misdeclaredEncodingsAreScanned(root: String) throws {
        let names: [[UInt8]] = [Array("UTF-16".utf8), Array("UTF-".utf8) + [UInt8](repeating: 0x8F, count: 40) + Array("8".utf8),
                                Array("FOO".utf8), Array("UTF-8x".utf8)]
        for name in names {
            let d = Self.document(name, root: root)
            func read() throws {
                switch root {
                case "gpx": _ = try GPXReader.read(data: d, source: "t.gpx", onFix: { _ in })
                case "kml": _ = try KMLReader.read(data: d, source: "t.kml", onFix: { _ in })
                default: _ = try OSMReader.read(data: d, source: "t.osm")
                }
            }
            #expect { try read() } throws: { e in
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
            #expect {
                switch root {
                case "gpx": _ = try GPXReader.read(data: d, source: "t.gpx", onFix: { _ in })
                case "kml": _ = try KMLReader.read(data: d, source: "t.kml", onFix: { _ in })
                default: _ = try OSMReader.read(data: d, source: "t.osm")
                }
            } throws: { e in
                (e as? TraceFormatError).map { $0.message.hasPrefix("not valid UTF-8") && $0.line == 2 } ?? false
            }
        }
        #expect(XMLInputCheck.declaredEncodingName(Array(#"<?xml version='1.1'  encoding = "Shift_JIS" ?>"#.utf8)) == "Shift_JIS")
        #expect(XMLInputCheck.declaresOtherEncoding(Data(#"<?xml version="1.0" encoding="windows-1250"?>"#.utf8)))
        #expect(XMLInputCheck.declaresOtherEncoding(Data(#"<?xml version="1.0" encoding="ISO-8859-2"?>"#.utf8)))
        #expect(!XMLInputCheck.declaresOtherEncoding(Data(#"<?xml version="1.0" encoding="mac-8"?>"#.utf8)))
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
