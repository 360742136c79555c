import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif

/// Reader for KML 2.2 (Google Earth, Google My Maps, GPSBabel, GDAL), built on Foundation's
/// `XMLParser` like ``GPXReader``, and for KMZ: a ZIP archive (what Google My Maps and Google
/// Earth export by default) whose first `.kml` entry is the document (KML 2.2 §"KMZ"; usually
/// `doc.kml`), recognised by its content, whatever the extension. The archive is unzipped in
/// pure Swift (stored and deflated entries, CRC-32 checked, at most ``maximumKMZSize`` bytes
/// of archive and of document); errors in the document name it as `FILE.kmz/doc.kml:LINE`.
///
/// **What is what** (the semantics Google Earth gives these elements):
/// - Fixes: every `gx:Track` (Google Earth's and most tracking apps' recorded track: `<when>`
///   and `<gx:coord>lon lat alt</gx:coord>` in pairs, in order; also inside `gx:MultiTrack`),
///   and every `Placemark` with a time and a `Point`: a `<TimeStamp><when>` (GPSBabel, LIBKML),
///   or GDAL's KML driver's `<SimpleData name="time">` (with `name="ele"` as the altitude).
/// - Waypoints (points of interest, never fixes: the stops of a tour planned in My Maps):
///   `Placemark`s with a `Point` and no time, as ``GPXWaypoint`` (the placemark's `<name>`,
///   the altitude). Counted in ``TraceReadSummary/waypoints``.
/// - Lines: every `LineString` (also inside `MultiGeometry`), e.g. a planned path
///   (``lines(url:options:)``). As a trace they have no times: their positions are counted in
///   ``TraceReadSummary/untimedPoints``. Other geometries (`Polygon`, `Model`) are counted in
///   ``TraceReadSummary/ignoredRecords``.
/// - Areas: every `Polygon` (also inside `MultiGeometry`) — a site's area drawn in My Maps or
///   Google Earth, a tour's zone (``areas(url:options:)``, ``KMLArea``): its `outerBoundaryIs`
///   ring first, then its `innerBoundaryIs` rings (holes). A ring whose last position is not its
///   first is closed (Google Earth draws it closed); a ring needs 3 distinct positions.
///
/// **Coordinates**: `lon,lat[,alt]` tuples separated by white space (`gx:coord`: spaces inside a
/// tuple). A fix's altitude is meters above mean sea level (KML 2.2's `absolute` mode, and what
/// GPSBabel, GDAL and GPS apps record also under the default `clampToGround`); with
/// `altitudeMode` `relativeToGround`, `relativeToSeaFloor` or `clampToSeaFloor` it is a height
/// over the terrain, not a height this library can use, and is left out. A waypoint keeps its
/// altitude only under an explicit `absolute`: under KML's default `clampToGround` the altitude
/// is ignored (Google My Maps writes `,0` for every place), so the stop has no height and takes
/// the path's where it is snapped (``RouteStop/hasHeight``). Times are ISO 8601
/// date-times (`<when>`); latitudes in [−90, 90], longitudes in [−180, 180]. A bad value is a
/// ``TraceFormatError`` naming the line of its element, or, with
/// ``TraceReadConfiguration/skipInvalid``, the placemark is skipped and counted.
public enum KMLReader {
    /// Reads a KML file's fixes (and, when `onWaypoint` is given, its waypoints), in document order.
    /// - Throws: ``TraceFormatError`` for a file that is not KML or a bad value (with its line);
    ///   whatever the callbacks throw.
    public static func read(url: URL, options: TraceReadConfiguration = TraceReadConfiguration(),
                            onFix: (Fix) throws -> Void,
                            onWaypoint: ((GPXWaypoint) throws -> Void)? = nil) throws -> TraceReadSummary {
        try read(url: url, options: options, onFix: onFix, onWaypoint: onWaypoint, onLine: nil)
    }

    /// Opens, checks (options, entity declarations, UTF-8) and reads a file (a KMZ unzipped first).
    static func read(url: URL, options: TraceReadConfiguration, onFix: (Fix) throws -> Void,
                     onWaypoint: ((GPXWaypoint) throws -> Void)?, onLine: (([Fix]) -> Void)?,
                     onArea: ((KMLArea) -> Void)? = nil, onPlacedObject: ((KMLPlacedObject) -> Void)? = nil) throws -> TraceReadSummary {
        try options.check(source: url.path)
        let stream: InputStream
        switch try input(url: url) {
        case .archive(let archive):
            return try readKMZ(archive: archive, source: url.path, options: options, onFix: onFix, onWaypoint: onWaypoint, onLine: onLine,
                               onArea: onArea, onPlacedObject: onPlacedObject)
        case .member(let document):
            try XMLInputCheck.check(data: document, source: url.path, format: XMLInputCheck.kml)
            stream = InputStream(data: document)
        case .file:
            stream = try XMLInputCheck.openStream(url: url, format: XMLInputCheck.kml)
        }
        return try read(stream: stream, source: url.path, options: options,
                        onFix: onFix, onWaypoint: onWaypoint, onLine: onLine, onArea: onArea, onPlacedObject: onPlacedObject)
    }

    /// Reads KML (or KMZ) from bytes in memory; `source` names it in errors.
    public static func read(data: Data, source: String, options: TraceReadConfiguration = TraceReadConfiguration(),
                            onFix: (Fix) throws -> Void,
                            onWaypoint: ((GPXWaypoint) throws -> Void)? = nil) throws -> TraceReadSummary {
        try options.check(source: source)
        if ZipArchive.looksLike(data.prefix(4)) {
            return try readKMZ(archive: data, source: source, options: options, onFix: onFix, onWaypoint: onWaypoint, onLine: nil)
        }
        try XMLInputCheck.check(data: data, source: source, format: XMLInputCheck.kml)
        return try read(stream: InputStream(data: data), source: source, options: options, onFix: onFix, onWaypoint: onWaypoint, onLine: nil)
    }

    /// The largest KMZ archive read, and the largest document unzipped from one: 256 MiB each
    /// (a day of 1 Hz track is a few MB of KML; the cap keeps a corrupted or hostile archive from
    /// exhausting memory).
    public static let maximumKMZSize = ZipArchive.defaultSizeLimit

    /// The most documents read from one KMZ (its root and those it links to).
    static let maximumKMZDocuments = 256

    /// What a KML path names: a KMZ (a ZIP archive, by its first bytes), a member of a ZIP
    /// archive (`bundle.zip/doc.kml` — or `bundle.zip/site.kmz`, itself a KMZ), or a plain (or
    /// gzip-compressed) KML file.
    enum Input { case archive(Data), member(Data), file }

    /// ``Input`` of `url`, reading an archive's bytes (a KMZ's, or a ZIP member's) once.
    static func input(url: URL) throws(TraceFormatError) -> Input {
        guard let h = FileHandle(forReadingAtPath: url.path) else {
            if ByteLineReader.zipMember(url.path) != nil, let member = try ByteLineReader.decompressedContents(of: url) {
                guard member.count <= maximumKMZSize else {
                    throw TraceFormatError(source: url.path, line: nil, message: "KMZ archive of \(member.count) bytes is larger than the \(maximumKMZSize) bytes read")
                }
                return ZipArchive.looksLike(member.prefix(4)) ? .archive(member) : .member(member)
            }
            throw TraceFormatError(source: url.path, line: nil, message: "cannot open file")
        }
        let head = (try? h.read(upToCount: 4)) ?? Data()
        let size = (try? h.seekToEnd()) ?? 0
        try? h.close()
        guard ZipArchive.looksLike(head) else { return .file }
        guard size <= UInt64(maximumKMZSize) else {
            throw TraceFormatError(source: url.path, line: nil, message: "KMZ archive of \(size) bytes is larger than the \(maximumKMZSize) bytes read")
        }
        do { return .archive(try Data(contentsOf: url)) } catch {
            throw TraceFormatError(source: url.path, line: nil, message: "cannot read file: \(error.localizedDescription)")
        }
    }

    /// Reads a KMZ: its first `.kml` entry (in the central directory's order, KML 2.2's rule),
    /// then, in order, the archive's documents it links to with `NetworkLink`s (relative
    /// `href`s: GDAL's LIBKML driver writes each layer as `layers/NAME.kml` linked from
    /// `doc.kml`), each once, resolved against the linking document's folder. Links to anything
    /// outside the archive (`http://…`, a missing entry) are not followed: counted in
    /// ``TraceReadSummary/ignoredRecords``. Errors name the document: `FILE.kmz/doc.kml:LINE`.
    static func readKMZ(archive: Data, source: String, options: TraceReadConfiguration, onFix: (Fix) throws -> Void,
                        onWaypoint: ((GPXWaypoint) throws -> Void)?, onLine: (([Fix]) -> Void)?,
                        onArea: ((KMLArea) -> Void)? = nil, onPlacedObject: ((KMLPlacedObject) -> Void)? = nil) throws -> TraceReadSummary {
        let zip: ZipArchive
        do { zip = try ZipArchive(data: archive) } catch {
            throw TraceFormatError(source: source, line: nil, message: "KMZ archive: \(error)")
        }
        guard let root = zip.firstEntry(withExtension: "kml") else {
            let names = zip.entries.prefix(8).map(\.name).joined(separator: ", ")
            throw TraceFormatError(source: source, line: nil,
                message: "KMZ archive without a .kml document (entries: \(names.isEmpty ? "none" : names)\(zip.entries.count > 8 ? ", …" : ""))")
        }
        var total = TraceReadSummary()
        var queue = [root.name], seen: Set<String> = [root.name]
        var next = 0
        while next < queue.count {
            let name = queue[next]
            next += 1
            let documentSource = source + "/" + name
            guard let entry = zip.entry(named: name) else { continue }
            let bytes: [UInt8]
            do { bytes = try zip.data(for: entry, limit: maximumKMZSize) } catch {
                throw TraceFormatError(source: source, line: nil, message: "KMZ archive: \(error)")
            }
            let data = Data(bytes)
            try XMLInputCheck.check(data: data, source: documentSource, format: XMLInputCheck.kml)
            var links: [String] = []
            let s = try read(stream: InputStream(data: data), source: documentSource, options: options, onFix: onFix,
                             onWaypoint: onWaypoint, onLine: onLine, onArea: onArea, onPlacedObject: onPlacedObject, networkLinks: &links)
            total.add(s)
            for href in links {
                guard let target = archivePath(href, relativeTo: name), zip.entry(named: target) != nil,
                      queue.count < maximumKMZDocuments else {
                    total.ignoredRecords += 1
                    continue
                }
                if seen.insert(target).inserted { queue.append(target) }
            }
        }
        return total
    }

    /// An `href` as a path inside the archive, relative to the folder of the document `base`;
    /// nil for a URL with a scheme (`http:`, `file:`), an absolute path or one leaving the archive.
    static func archivePath(_ href: String, relativeTo base: String) -> String? {
        var h = href
        if let hash = h.firstIndex(of: "#") { h = String(h[..<hash]) }   // `doc.kml#id`: the document
        guard !h.isEmpty, !h.hasPrefix("/"), !h.contains("://"), !h.lowercased().hasPrefix("file:") else { return nil }
        h = h.removingPercentEncoding ?? h
        var parts = base.split(separator: "/").dropLast().map(String.init)
        for p in h.split(separator: "/") {
            switch p {
            case ".": continue
            case "..": guard !parts.isEmpty else { return nil }; parts.removeLast()
            default: parts.append(String(p))
            }
        }
        return parts.joined(separator: "/")
    }

    /// The waypoints (untimed `Point` placemarks) of a KML file, in document order — the stops
    /// of a tour planned in Google My Maps or Google Earth.
    public static func waypoints(url: URL, options: TraceReadConfiguration = TraceReadConfiguration()) throws(TraceFormatError) -> [GPXWaypoint] {
        var out: [GPXWaypoint] = []
        _ = try TraceReader.typedReaderError(source: url.path) {
            try read(url: url, options: options, onFix: { _ in }, onWaypoint: { out.append($0) })
        }
        return out
    }

    /// The areas (`Polygon` placemarks) of a KML file, in document order: one ``KMLArea`` per
    /// placemark with its name and polygons (several in a `MultiGeometry`); heights left out.
    /// - Throws: ``TraceFormatError`` naming the line of a bad coordinate or of a ring with
    ///   fewer than 3 distinct positions, or for a document that is not KML.
    public static func areas(url: URL, options: TraceReadConfiguration = TraceReadConfiguration()) throws(TraceFormatError) -> [KMLArea] {
        var out: [KMLArea] = []
        _ = try TraceReader.typedReaderError(source: url.path) {
            try read(url: url, options: options, onFix: { _ in }, onWaypoint: nil, onLine: nil, onArea: { out.append($0) })
        }
        return out
    }

    /// Every untimed `Point` placemark and every `Model`, with altitude modes as written (for
    /// ``GeoAnchor/anchors(kml:options:)``).
    static func placedObjects(url: URL, options: TraceReadConfiguration) throws(TraceFormatError) -> [KMLPlacedObject] {
        var out: [KMLPlacedObject] = []
        _ = try TraceReader.typedReaderError(source: url.path) {
            try read(url: url, options: options, onFix: { _ in }, onWaypoint: nil, onLine: nil, onPlacedObject: { out.append($0) })
        }
        return out
    }

    /// The `LineString`s of a KML file, in document order (a planned path; heights left out).
    public static func lines(url: URL, options: TraceReadConfiguration = TraceReadConfiguration()) throws(TraceFormatError) -> [[GeodeticCoordinate]] {
        var out: [[GeodeticCoordinate]] = []
        _ = try TraceReader.typedReaderError(source: url.path) {
            try read(url: url, options: options, onFix: { _ in }, onWaypoint: nil, onLine: { line in
                out.append(line.map { GeodeticCoordinate(latitude: $0.latitude, longitude: $0.longitude) })
            })
        }
        return out
    }

    static func read(stream: InputStream, source: String, options: TraceReadConfiguration,
                     onFix: (Fix) throws -> Void, onWaypoint: ((GPXWaypoint) throws -> Void)?,
                     onLine: (([Fix]) -> Void)?, onArea: ((KMLArea) -> Void)? = nil, onPlacedObject: ((KMLPlacedObject) -> Void)? = nil,
                     networkLinks: UnsafeMutablePointer<[String]>? = nil) throws -> TraceReadSummary {
        try withoutActuallyEscaping(onFix) { onFix in
            try withoutActuallyEscaping(onWaypoint ?? { _ in }) { waypoint in
                let d = Delegate(source: source, options: options, onFix: onFix, onWaypoint: onWaypoint == nil ? nil : waypoint)
                d.onLine = onLine
                d.onArea = onArea
                d.onPlacedObject = onPlacedObject
                try XMLInputCheck.parse(stream, source: source, format: XMLInputCheck.kml, delegate: d)
                guard d.sawKML else {
                    throw TraceFormatError(source: source, line: nil, message: "not a KML document (no <kml> root element)")
                }
                if let networkLinks { networkLinks.pointee = d.networkLinks } else { d.summary.ignoredRecords += d.networkLinks.count }
                return d.summary
            }
        }
    }

    /// One placemark's content, emitted at its end.
    private struct Placemark {
        var line = 0
        var name: String?
        var when: String?
        var points: [(Double, Double, Double?)] = []
        var lines: [[(Double, Double, Double?)]] = []
        var tracks: [(whens: [(String, Int)], coords: [(String, Int)], useAltitude: Bool)] = []
        var other = 0
        /// GDAL's KML driver: the GPX fields as `<SimpleData name="time">` / `name="ele"`.
        var extendedTime: (String, Int)?
        var extendedAltitude: Double?
        /// Per point: whether its altitude mode was explicitly `absolute`.
        var pointAbsolute: [Bool] = []
        /// Polygons: rings of `lon,lat[,alt]` tuples, the outer ring first.
        var polygons: [[[(Double, Double, Double?)]]] = []
        /// Each Point's `altitudeMode` as written (nil: KML's default, clampToGround).
        var pointModes: [String?] = []
        /// Each Point's altitude as written, whatever its mode.
        var pointAltitudes: [Double?] = []
        /// `Model`s: location, altitude mode, orientation, scale, link, line.
        var models: [KMLModel] = []
        var invalid: (line: Int, message: String)?
    }

    private final class Delegate: NSObject, TraceXMLDelegate {
        let source: String
        let options: TraceReadConfiguration
        let onFix: (Fix) throws -> Void
        let onWaypoint: ((GPXWaypoint) throws -> Void)?
        var onLine: (([Fix]) -> Void)?
        var onArea: ((KMLArea) -> Void)?
        var onPlacedObject: ((KMLPlacedObject) -> Void)?
        /// The altitude mode written in the geometry being read (nil: none written).
        var modeName: String?
        /// Text of the Model child being read (Location, Orientation, Scale, Link fields).
        var model: KMLModel?
        /// The `href`s of the document's `NetworkLink`s (`<Link>` or KML 2.0's `<Url>`), in order.
        var networkLinks: [String] = []
        var summary = TraceReadSummary()
        var callbackError: (any Error)?
        var formatError: TraceFormatError?
        var sawKML = false
        var stack: [String] = []
        var openElements: Int { stack.count }
        var text = ""
        var placemark: Placemark?
        /// The altitude mode of the geometry being read (its `altitudeMode` child).
        var useAltitude = true
        /// Whether the geometry being read says `altitudeMode` `absolute` (or gx's `absolute`).
        var absolute = false

        init(source: String, options: TraceReadConfiguration, onFix: @escaping (Fix) throws -> Void,
             onWaypoint: ((GPXWaypoint) throws -> Void)?) {
            self.source = source; self.options = options; self.onFix = onFix; self.onWaypoint = onWaypoint
        }


        func parser(_ parser: XMLParser, didStartElement elementName: String, namespaceURI: String?,
                    qualifiedName qName: String?, attributes: [String: String] = [:]) {
            let name = XMLInputCheck.localName(elementName)
            if stack.isEmpty && name == "kml" { sawKML = true }
            stack.append(name)
            text = ""
            switch name {
            case "Placemark": placemark = Placemark(line: parser.lineNumber)
            case "Point", "LineString", "Track": useAltitude = true; absolute = false; modeName = nil
                if name == "Track" { placemark?.tracks.append(([], [], true)) }
            case "Polygon": placemark?.other += 1; placemark?.polygons.append([])
            case "Model":
                placemark?.other += 1
                model = KMLModel(line: parser.lineNumber)
                modeName = nil
            case "SimpleData", "Data": dataName = attributes["name"]
            default: break
            }
        }

        /// The `name` attribute of the `SimpleData`/`Data` element being read.
        var dataName: String?

        func parser(_ parser: XMLParser, foundCharacters string: String) { text += string }
        func parser(_ parser: XMLParser, foundCDATA CDATABlock: Data) { text += String(decoding: CDATABlock, as: UTF8.self) }

        func parser(_ parser: XMLParser, didEndElement elementName: String, namespaceURI: String?, qualifiedName qName: String?) {
            let name = XMLInputCheck.localName(elementName)
            defer { if !stack.isEmpty { stack.removeLast() }; text = "" }
            if name == "href", stack.contains("NetworkLink") {
                networkLinks.append(text.trimmingCharacters(in: .whitespacesAndNewlines))
                return
            }
            guard placemark != nil else { return }
            let parent = stack.count >= 2 ? stack[stack.count - 2] : ""
            let value = text.trimmingCharacters(in: .whitespacesAndNewlines)
            let line = parser.lineNumber
            switch name {
            case "name" where parent == "Placemark": placemark!.name = value
            case "when" where parent == "TimeStamp": placemark!.when = value
            case "when" where parent == "Track": placemark!.tracks[placemark!.tracks.count - 1].whens.append((value, line))
            case "coord" where parent == "Track": placemark!.tracks[placemark!.tracks.count - 1].coords.append((value, line))
            case "SimpleData" where dataName == "time", "value" where parent == "Data" && dataName == "time":
                if !value.isEmpty { placemark!.extendedTime = (value, line) }
            case "SimpleData" where dataName == "ele", "value" where parent == "Data" && dataName == "ele":
                if !value.isEmpty {
                    var str = value
                    guard let v = str.withUTF8({ ByteParsing.decimal($0) }) else { invalid(line, "ele '\(value.prefix(40))' is not a finite number"); return }
                    placemark!.extendedAltitude = v
                }
            case "altitudeMode" where parent == "Model":
                model?.altitudeMode = value
            case "longitude" where parent == "Location", "latitude" where parent == "Location", "altitude" where parent == "Location",
                 "heading" where parent == "Orientation", "tilt" where parent == "Orientation", "roll" where parent == "Orientation",
                 "x" where parent == "Scale", "y" where parent == "Scale", "z" where parent == "Scale":
                guard model != nil, !value.isEmpty else { return }
                var str = value
                guard let v = str.withUTF8({ ByteParsing.decimal($0) }) else { invalid(line, "Model \(name) '\(value.prefix(40))' is not a finite number"); return }
                model!.values[parent + "." + name] = v
            case "href" where parent == "Link" && stack.contains("Model"):
                model?.href = value
            case "Model":
                if var m = model { m.name = placemark!.name; placemark!.models.append(m) }
                model = nil
            case "altitudeMode":
                modeName = value
                useAltitude = !["relativeToGround", "relativeToSeaFloor", "clampToSeaFloor"].contains(value)
                absolute = value == "absolute"
                if parent == "Track", !placemark!.tracks.isEmpty { placemark!.tracks[placemark!.tracks.count - 1].useAltitude = useAltitude }
            case "coordinates" where parent == "Point" || parent == "LineString":
                guard let tuples = parse(value, line: line, separator: ",") else { return }
                if parent == "Point" {
                    guard tuples.count == 1 else { invalid(line, "a Point has \(tuples.count) coordinate tuples"); return }
                    placemark!.points.append(tuples[0])
                } else {
                    placemark!.lines.append(tuples)
                }
            case "coordinates" where parent == "LinearRing" && stack.contains("Polygon"):
                guard var ring = parse(value, line: line, separator: ","), !placemark!.polygons.isEmpty else { return }
                if let f = ring.first, let l = ring.last, f.0 != l.0 || f.1 != l.1 { ring.append(f) }
                var distinct: [(Double, Double)] = []
                for c in ring where !distinct.contains(where: { $0 == (c.0, c.1) }) { distinct.append((c.0, c.1)) }
                guard distinct.count >= 3 else { invalid(line, "a Polygon ring has \(distinct.count) distinct position(s), an area needs 3"); return }
                let k = placemark!.polygons.count - 1
                if stack.contains("outerBoundaryIs") { placemark!.polygons[k].insert(ring, at: 0) } else { placemark!.polygons[k].append(ring) }
            case "Point", "LineString":
                if name == "Point" { placemark!.pointAltitudes.append(placemark!.points.last?.2) }
                // The altitude mode comes after the coordinates in KML's schema: apply it now.
                if !useAltitude {
                    if name == "Point", !placemark!.points.isEmpty { placemark!.points[placemark!.points.count - 1].2 = nil }
                    if name == "LineString", !placemark!.lines.isEmpty {
                        placemark!.lines[placemark!.lines.count - 1] = placemark!.lines[placemark!.lines.count - 1].map { ($0.0, $0.1, nil) }
                    }
                }
                if name == "Point" { placemark!.pointAbsolute.append(absolute); placemark!.pointModes.append(modeName) }
                useAltitude = true; absolute = false
            case "Placemark":
                let p = placemark!
                placemark = nil
                emit(p, parser)
            default: break
            }
        }

        /// The last problem found, for the placemark being read and for `emit`.
        var lastError: (line: Int, message: String)?

        func invalid(_ line: Int, _ message: String) {
            lastError = (line, message)
            if placemark != nil && placemark!.invalid == nil { placemark!.invalid = (line, message) }
        }

        /// `lon,lat[,alt]` tuples (separated by white space); nil after recording the problem.
        func parse(_ s: String, line: Int, separator: Character) -> [(Double, Double, Double?)]? {
            var out: [(Double, Double, Double?)] = []
            for tuple in s.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r" }) {
                guard let t = coordinate(tuple.split(separator: separator, omittingEmptySubsequences: false), line: line) else { return nil }
                out.append(t)
            }
            if out.isEmpty { invalid(line, "empty coordinates"); return nil }
            return out
        }

        func coordinate(_ parts: [Substring], line: Int) -> (Double, Double, Double?)? {
            guard parts.count == 2 || parts.count == 3 else {
                invalid(line, "coordinate '\(parts.joined(separator: ",").prefix(60))' is not lon,lat[,alt]"); return nil
            }
            var v: [Double] = []
            for p in parts {
                var str = String(p)
                guard let d = str.withUTF8({ ByteParsing.decimal($0) }) else {
                    invalid(line, "coordinate value '\(p.prefix(40))' is not a finite number"); return nil
                }
                v.append(d)
            }
            guard abs(v[1]) <= 90 else { invalid(line, "latitude \(v[1]) is outside [-90, 90]"); return nil }
            guard abs(v[0]) <= 180 else { invalid(line, "longitude \(v[0]) is outside [-180, 180]"); return nil }
            return (v[0], v[1], v.count == 3 ? v[2] : nil)
        }

        func time(_ s: String, line: Int) -> Double? {
            var str = ByteParsing.ogrDateTime(s) ?? s
            switch str.withUTF8({ ByteParsing.iso8601($0) }) {
            case .success(let t): return t
            case .failure(let e): invalid(line, "<when> '\(s.prefix(40))': \(e.message)"); return nil
            }
        }

        func fix(_ t: Double, _ c: (Double, Double, Double?)) -> Fix {
            var f = Fix(time: t, latitude: c.1, longitude: c.0)
            if let h = c.2 { f.height = h; f.verticalReference = .meanSeaLevel }
            return f
        }

        func emit(_ p0: Placemark, _ parser: XMLParser) {
            var p = p0
            // Resolve times first so that a bad one refuses the whole placemark.
            var trackFixes: [Fix] = []
            for tr in p.tracks {
                guard tr.whens.count == tr.coords.count else {
                    p.invalid = p.invalid ?? (p.line, "gx:Track has \(tr.whens.count) <when> and \(tr.coords.count) <gx:coord> (one of each per position)")
                    break
                }
                for ((w, wl), (c, cl)) in zip(tr.whens, tr.coords) {
                    guard let t = time(w, line: wl) else { p.invalid = p.invalid ?? lastError; break }
                    guard var xyz = coordinate(c.split(separator: " ", omittingEmptySubsequences: true), line: cl) else {
                        p.invalid = p.invalid ?? lastError; break
                    }
                    if !tr.useAltitude { xyz.2 = nil }
                    trackFixes.append(fix(t, xyz))
                }
            }
            var stampTime: Double? = nil
            if let (w, wl) = p.when.map({ ($0, p.line) }) ?? p.extendedTime, !p.points.isEmpty {
                stampTime = time(w, line: wl)
                if stampTime == nil { p.invalid = p.invalid ?? lastError }
            }
            if let a = p.extendedAltitude {
                // GDAL's `ele` (the GPX elevation it came from) is the height: GDAL's LIBKML
                // driver writes the Point itself as `lon,lat,0` under clampToGround. An explicit
                // `absolute` Point altitude stays.
                p.points = p.points.enumerated().map { k, c in
                    (c.0, c.1, k < p.pointAbsolute.count && p.pointAbsolute[k] && c.2 != nil ? c.2 : a)
                }
            }
            if let bad = p.invalid { return reject(line: bad.line, bad.message, parser) }
            if let problem = trackFixes.lazy.compactMap(\.validationProblem).first {
                return reject(line: p.line, "placemark: " + problem, parser)
            }
            do {
                for f in trackFixes { try onFix(f); summary.fixes += 1 }
                for (k, c) in p.points.enumerated() {
                    if let t = stampTime { try onFix(fix(t, c)); summary.fixes += 1 } else {
                        summary.waypoints += 1
                        // A point of interest is on the ground unless it says `absolute` (KML's
                        // default clampToGround ignores the altitude: My Maps writes 0 there).
                        let absolute = k < p.pointAbsolute.count && p.pointAbsolute[k]
                        try onWaypoint?(GPXWaypoint(latitude: c.1, longitude: c.0, altitude: absolute ? c.2 : nil, name: p.name))
                    }
                }
                for l in p.lines {
                    summary.untimedPoints += l.count
                    onLine?(l.map { Fix(time: 0, latitude: $0.1, longitude: $0.0) })
                }
                if !p.lines.isEmpty { summary.ignoredRecords += 1 }
                if let onPlacedObject, stampTime == nil {
                    for (k, c) in p.points.enumerated() {
                        var o = KMLPlacedObject(name: p.name, longitude: c.0, latitude: c.1,
                                                altitude: k < p.pointAltitudes.count ? p.pointAltitudes[k] : c.2,
                                                altitudeMode: k < p.pointModes.count ? p.pointModes[k] : nil, model: nil, line: p.line)
                        o.source = source
                        onPlacedObject(o)
                    }
                    for m in p.models {
                        var o = KMLPlacedObject(name: p.name, model: m, line: m.line)
                        o.source = source
                        onPlacedObject(o)
                    }
                }
                let polygons = p.polygons.filter { !$0.isEmpty }
                if !polygons.isEmpty {
                    onArea?(KMLArea(name: p.name, polygons: polygons.map { rings in
                        rings.map { ring in ring.map { GeodeticCoordinate(latitude: $0.1, longitude: $0.0) } }
                    }))
                }
                if p.points.isEmpty && p.lines.isEmpty && p.tracks.isEmpty { summary.ignoredRecords += 1 }
            } catch {
                callbackError = error
                parser.abortParsing()
            }
        }

    }
}

/// A KML area: a `Placemark`'s `Polygon`s (``KMLReader/areas(url:options:)``) — a site's area
/// drawn in Google My Maps or Google Earth, made a tour's zone by
/// ``Tour/init(waypoints:path:areas:radius:)``.
public struct KMLArea: Sendable, Hashable {
    /// The placemark's `<name>`, nil when absent.
    public var name: String?
    /// Each polygon's rings (WGS84, heights left out; closed: last position = first), the outer
    /// ring first, then the holes.
    public var polygons: [[[GeodeticCoordinate]]]

    public init(name: String?, polygons: [[[GeodeticCoordinate]]]) {
        self.name = name; self.polygons = polygons
    }
}

/// A KML `Model` (KML 2.2 §10.10): a 3-D model placed at a location — what Google Earth and
/// SketchUp write for a building. Values as written; ``GeoAnchor/anchors(kml:options:)`` gives
/// their meaning.
struct KMLModel: Sendable {
    var line: Int
    var name: String?
    var altitudeMode: String?
    /// `Location.longitude`, `Orientation.heading`, `Scale.x`, … as written.
    var values: [String: Double] = [:]
    var href: String?
    init(line: Int) { self.line = line }
}

/// An untimed `Point` placemark or a `Model`, with its altitude mode as written.
struct KMLPlacedObject: Sendable {
    var name: String?
    var longitude: Double?, latitude: Double?, altitude: Double?
    var altitudeMode: String?
    var model: KMLModel?
    var line: Int
    /// The document it is in (`FILE.kmz/doc.kml` for a KMZ's).
    var source = ""

    init(name: String?, longitude: Double, latitude: Double, altitude: Double?, altitudeMode: String?, model: KMLModel?, line: Int) {
        self.name = name; self.longitude = longitude; self.latitude = latitude; self.altitude = altitude
        self.altitudeMode = altitudeMode; self.model = model; self.line = line
    }

    init(name: String?, model: KMLModel, line: Int) {
        self.name = name; self.model = model; self.line = line
        longitude = model.values["Location.longitude"]; latitude = model.values["Location.latitude"]
        altitude = model.values["Location.altitude"]; altitudeMode = model.altitudeMode
    }
}
