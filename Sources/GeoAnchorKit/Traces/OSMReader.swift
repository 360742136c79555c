import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// The nodes and ways of an OpenStreetMap XML file (OSM API 0.6 format), as read by
/// ``OSMReader``: enough to build a walking network (``PathNetwork/openStreetMap(_:walkability:distance:)``).
public struct OSMData: Sendable {
    /// A way: its node references in order and its tags.
    public struct Way: Sendable, Hashable {
        /// The way's id (negative for objects a JOSM user created and has not uploaded).
        public var id: Int64
        /// The ids of its nodes, in order (a closed way repeats its first node last).
        public var nodes: [Int64]
        /// Its tags (`highway` → `footway`, …).
        public var tags: [String: String]
        /// The line of its `<way>` element (nil in a PBF file).
        public var line: Int?
    }

    /// Node positions by id (WGS84 degrees; OSM has no heights). A way written with inline
    /// geometry (Overpass `out geom`) adds its nodes' positions here.
    public var nodes: [Int64: GeodeticCoordinate] = [:]
    /// The tags of the nodes that have any (a bench, a viewpoint, a museum), by id.
    public var nodeTags: [Int64: [String: String]] = [:]
    /// The ways, in file order.
    public var ways: [Way] = []
    /// Relations in the file (not read: walking networks are built from ways).
    public var relations = 0
    /// Objects left out because the file marks them deleted (JOSM `action="delete"`, or
    /// `visible="false"` in history and diff output).
    public var deleted = 0

    public init() {}

    /// Adds node `id` at `p`: nil, or the refusal when the file gave that node another position
    /// before (the XML and PBF readers' one rule).
    mutating func addNode(_ id: Int64, _ p: GeodeticCoordinate) -> String? {
        guard let old = nodes.updateValue(p, forKey: id), old != p else { return nil }
        return String(format: "node %lld at (%.7f, %.7f) was given before at (%.7f, %.7f)", id, p.latitude, p.longitude, old.latitude, old.longitude)
    }
}

/// Reader for OpenStreetMap XML: what the "Export" button of openstreetmap.org, the OSM API's
/// `map` call, JOSM (`.osm`), Overpass API (`out;`, `out meta;`, `out geom;`) and osmium write.
///
/// Read: `<node id lat lon>`, `<way id>` with its `<nd ref>` (also `<nd ref lat lon>` from
/// Overpass `out geom`) and `<tag k v>`; `<relation>`s are counted, not read; `<bounds>`,
/// `<note>`, `<meta>` are ignored. Objects marked deleted (`action="delete"` or
/// `visible="false"`) are left out and counted (``OSMData/deleted``).
/// A gzip-compressed file (`.osm.gz`) is read as the plain one, and an OSM PBF file
/// (`.osm.pbf`, by content) into the same data (``OSMData/Way/line`` nil). Not read: `osmChange`
/// (`.osc`) diffs (refused: the root element is not `<osm>`), o5m.
public enum OSMReader {
    /// Reads an OSM XML or PBF file.
    /// - Throws: ``TraceFormatError`` with the line (PBF: the byte offset) of a node without a valid `id`, `lat` or
    ///   `lon` (latitude in [−90, 90], longitude in [−180, 180]), a node id given twice with
    ///   different positions, a way without a valid `id`, an `nd` without a valid `ref`; for a
    ///   document whose root is not `<osm>`, malformed XML, an entity declaration or invalid
    ///   UTF-8 (checked as GPX is, ``GPXReader``).
    public static func read(url: URL) throws(TraceFormatError) -> OSMData {
        if let h = FileHandle(forReadingAtPath: url.path) {
            let head = (try? h.read(upToCount: 16)) ?? Data()
            try? h.close()
            if OSMPBF.looksLike(head) {
                do { return try OSMPBF.read(data: Data(contentsOf: url, options: .alwaysMapped), source: url.path) } catch let e as TraceFormatError {
                    throw e
                } catch {
                    throw TraceFormatError(source: url.path, line: nil, message: "cannot read file: \(error.localizedDescription)")
                }
            }
        }
        return try TraceReader.typedReaderError(source: url.path) {
            try read(stream: XMLInputCheck.openStream(url: url, format: XMLInputCheck.osm), source: url.path)
        }
    }

    /// Reads OSM XML in memory; `source` names it in errors.
    public static func read(data: Data, source: String) throws(TraceFormatError) -> OSMData {
        if OSMPBF.looksLike(data) { return try OSMPBF.read(data: data, source: source) }
        try XMLInputCheck.check(data: data, source: source, format: XMLInputCheck.osm)
        return try TraceReader.typedReaderError(source: source) { try read(stream: InputStream(data: data), source: source) }
    }

    static func read(stream: InputStream, source: String) throws -> OSMData {
        let d = Delegate(source: source)
        try XMLInputCheck.parse(stream, source: source, format: XMLInputCheck.osm, delegate: d)
        guard d.sawRoot else {
            throw TraceFormatError(source: source, line: nil, message: "not an OpenStreetMap XML document (no <osm> root element)")
        }
        return d.data
    }

    private final class Delegate: NSObject, TraceXMLDelegate {
        let source: String
        let options = TraceReadConfiguration()
        var summary = TraceReadSummary()
        var callbackError: (any Error)?
        var formatError: TraceFormatError?
        var sawRoot = false
        var depth = 0
        var openElements: Int { depth }
        var data = OSMData()
        /// The way being read.
        var way: OSMData.Way?
        /// The node being read (its tags follow).
        var node: Int64?
        /// Whether the element being read (node, way, relation) is deleted: its children skipped.
        var skipping = false

        init(source: String) { self.source = source }

        func fail(_ parser: XMLParser, _ message: String) {
            guard formatError == nil else { return }
            formatError = TraceFormatError(source: source, line: parser.lineNumber, message: message)
            parser.abortParsing()
        }

        func id(_ attributes: [String: String], _ key: String, _ element: String, _ parser: XMLParser) -> Int64? {
            guard let s = attributes[key], let v = Int64(s) else {
                fail(parser, "<\(element)> " + (attributes[key].map { "\(key) '\($0.prefix(40))' is not an integer" } ?? "without \(key)"))
                return nil
            }
            return v
        }

        /// The position of a node or inline `nd`, checked.
        func position(_ attributes: [String: String], _ element: String, _ parser: XMLParser) -> GeodeticCoordinate? {
            guard let las = attributes["lat"], let los = attributes["lon"] else {
                fail(parser, "<\(element)> without lat and lon"); return nil
            }
            var a = las, b = los
            guard let la = a.withUTF8({ ByteParsing.decimal($0) }), (-90...90).contains(la) else {
                fail(parser, "<\(element)> lat '\(las.prefix(40))' is not a latitude in [-90, 90]"); return nil
            }
            guard let lo = b.withUTF8({ ByteParsing.decimal($0) }), (-180...180).contains(lo) else {
                fail(parser, "<\(element)> lon '\(los.prefix(40))' is not a longitude in [-180, 180]"); return nil
            }
            return GeodeticCoordinate(latitude: la, longitude: lo)
        }

        func addNode(_ id: Int64, _ p: GeodeticCoordinate, _ parser: XMLParser) {
            if let conflict = data.addNode(id, p) { fail(parser, conflict) }
        }

        static func isDeleted(_ attributes: [String: String]) -> Bool {
            attributes["action"] == "delete" || attributes["visible"] == "false"
        }

        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes: [String: String] = [:]) {
            depth += 1
            if depth == 1 {
                if elementName == "osm" { sawRoot = true } else {
                    fail(parser, "not an OpenStreetMap XML document: the root element is <\(elementName.prefix(40))>, not <osm>"
                         + (elementName == "osmChange" ? " (an osmChange diff holds changes, not a map)" : ""))
                }
                return
            }
            guard depth == 2 || way != nil || node != nil || skipping else { return }
            switch elementName {
            case "node" where depth == 2:
                if Self.isDeleted(attributes) { data.deleted += 1; skipping = true; return }
                guard let i = id(attributes, "id", "node", parser), let p = position(attributes, "node", parser) else { return }
                addNode(i, p, parser)
                node = i
            case "way" where depth == 2:
                if Self.isDeleted(attributes) { data.deleted += 1; skipping = true; return }
                guard let i = id(attributes, "id", "way", parser) else { return }
                way = OSMData.Way(id: i, nodes: [], tags: [:], line: parser.lineNumber)
            case "relation" where depth == 2:
                if Self.isDeleted(attributes) { data.deleted += 1; skipping = true; return }
                data.relations += 1
            case "nd" where way != nil:
                guard let r = id(attributes, "ref", "nd", parser) else { return }
                if attributes["lat"] != nil || attributes["lon"] != nil {
                    guard let p = position(attributes, "nd", parser) else { return }
                    addNode(r, p, parser)
                }
                way!.nodes.append(r)
            case "tag" where way != nil || node != nil:
                guard let k = attributes["k"], let v = attributes["v"] else { fail(parser, "<tag> without k and v"); return }
                if let node { data.nodeTags[node, default: [:]][k] = v } else { way!.tags[k] = v }
            default: break
            }
        }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            defer { depth -= 1 }
            guard depth == 2 else { return }
            skipping = false
            node = nil
            if elementName == "way", let w = way { data.ways.append(w); way = nil }
        }
    }
}
