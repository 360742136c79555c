import Foundation

/// The trace file formats GeoAnchorKit reads and writes.
public enum TraceFormat: String, Sendable, Hashable, CaseIterable {
    /// KML (`.kml`, or zipped as `.kmz`) is read (``KMLReader``), not written: write GPX, which
    /// Google Earth opens too. FIT (`.fit`, Garmin's binary activity files, ``FITReader``) and
    /// TCX (`.tcx`, Garmin Training Center XML, ``TCXReader``) are read, not written; so are
    /// u-blox UBX logs (`.ubx`, ``UBXReader``).
    case nmea, gpx, csv, geojson, kml, fit, tcx, ubx

    /// The formats ``TraceWriter`` writes (all but KML, FIT, TCX and UBX).
    public static let writable: [TraceFormat] = allCases.filter { ![.kml, .fit, .tcx, .ubx].contains($0) }

    /// The format implied by a file name's extension (`.nmea`/`.log`/`.txt` → NMEA, which
    /// includes Android GnssLogger logs, told apart by content; `.gpx`,
    /// `.csv`, `.geojson`/`.json`, `.kml`/`.kmz` — a KMZ is a zipped KML, unzipped by
    /// ``KMLReader`` —, `.fit`, `.tcx`), case-insensitive; nil for anything else (`gz` too: see
    /// ``init(fileName:)``).
    public init?(pathExtension ext: String) {
        switch ext.lowercased() {
        case "nmea", "log", "txt": self = .nmea
        case "gpx", "xml": self = .gpx
        case "csv": self = .csv
        case "geojson", "json": self = .geojson
        case "kml", "kmz": self = .kml
        case "fit": self = .fit
        case "tcx": self = .tcx
        case "ubx": self = .ubx
        default: return nil
        }
    }

    /// The format of a file name: by its extension, or for a compressed file (`walk.nmea.gz`,
    /// `track.gpx.gz`, `log.nmea.Z`, `walk.gpx.zip`) by the extension before `.gz`/`.Z`/`.zip`
    /// (the readers decompress gzip, compress and single-file ZIP by content). Nil when neither
    /// is known.
    public init?(fileName: String) {
        self.init(pathExtension: Self.formatExtension(ofFileName: fileName))
    }

    /// Extensions of the compressed files the readers open by content (gzip, compress, ZIP),
    /// lowercased; no writer writes them.
    public static let compressionExtensions: Set<String> = ["gz", "z", "zip"]

    /// The extension that names a file's format, lowercased: its last one, or for a compressed
    /// file the one before (`walk.gpx.gz` → `gpx`; `a.gz` → empty).
    public static func formatExtension(ofFileName fileName: String) -> String {
        let name = fileName as NSString
        let ext = name.pathExtension.lowercased()
        return compressionExtensions.contains(ext) ? (name.deletingPathExtension as NSString).pathExtension.lowercased() : ext
    }
}

/// Entry points that read a trace file of any supported format, streaming.
///
/// NMEA and CSV are read in 256 KiB chunks, GPX through `XMLParser` on an input stream, so
/// memory stays bounded for arbitrarily long logs when the caller consumes fixes in the
/// callbacks. GeoJSON is a single JSON document and is decoded whole (RFC 7946 has no streaming
/// form); keep GeoJSON for tours and small traces.
public enum TraceReader {
    /// Reads `url`, calling `onFix` for every fix and `onSensor` for every sensor sample, in
    /// file order.
    /// - Parameters:
    ///   - url: the file.
    ///   - format: nil to infer from the extension.
    ///   - options: invalid-record handling, NMEA checksums and date, GnssLogger provider.
    ///   - onFix: called for every fix, in file order.
    ///   - onSensor: called for every sensor sample, in file order.
    /// - Throws: ``TraceFormatError`` (`FILE:LINE: message`) for invalid `options`
    ///   (``TraceReadConfiguration/validate()``, checked first), unreadable or invalid input;
    ///   whatever the callbacks throw (so this entry point cannot name one error type; the
    ///   callback-free ``load(url:format:options:)`` throws `TraceFormatError` only).
    @discardableResult
    public static func read(url: URL, format: TraceFormat? = nil, options: TraceReadConfiguration = TraceReadConfiguration(),
                            onFix: (Fix) throws -> Void,
                            onSensor: (SensorSample) throws -> Void = { _ in }) throws -> TraceReadSummary {
        try options.check(source: url.path)
        guard let fmt = format ?? TraceFormat(fileName: url.lastPathComponent) else {
            throw TraceFormatError(source: url.path, line: nil,
                message: "unknown trace format '.\(url.pathExtension)' (expected .nmea, .gpx, .csv, .geojson, .kml, .kmz, .fit, .tcx or .ubx)")
        }
        switch fmt {
        case .nmea:
            // Android GnssLogger logs share the .txt extension: told apart by content, which for a
            // compressed log is decompressed once for both passes.
            let text = try ByteLineReader.decompressedContents(of: url)
            func lines() throws(TraceFormatError) -> ByteLineReader {
                if let text { return ByteLineReader(data: text, source: url.path) }
                return try ByteLineReader(url: url)
            }
            if let src = GnssLoggerReader.fixSource(of: try lines()) {
                return try GnssLoggerReader.read(try lines(), fixSource: src, options: options, onFix: onFix, onSensor: onSensor)
            }
            return try NMEAReader.read(try lines(), options: options, onFix: onFix)
        case .csv: return try CSVTraceReader.read(try ByteLineReader(url: url), options: options, onFix: onFix, onSensor: onSensor)
        case .gpx: return try GPXReader.read(url: url, options: options, onFix: onFix)
        case .geojson:
            let fc = try GeoJSONFeatureCollection.read(contentsOf: url)
            return try GeoJSONTrace.fixes(from: fc, source: url.path, options: options, onFix: onFix)
        case .kml: return try KMLReader.read(url: url, options: options, onFix: onFix)
        case .fit: return try FITReader.read(url: url, options: options, onFix: onFix)
        case .tcx: return try TCXReader.read(url: url, options: options, onFix: onFix)
        case .ubx: return try UBXReader.read(url: url, options: options, onFix: onFix)
        }
    }

    /// Reads a whole file into a ``Trace`` (fixes and sensor samples).
    /// - Throws: ``TraceFormatError`` (`FILE:LINE: message`) for unreadable or invalid input.
    public static func load(url: URL, format: TraceFormat? = nil,
                            options: TraceReadConfiguration = TraceReadConfiguration()) throws(TraceFormatError) -> Trace {
        var t = Trace(name: url.lastPathComponent)
        _ = try typedReaderError(source: url.path) {
            try read(url: url, format: format, options: options, onFix: { t.fixes.append($0) }, onSensor: { t.sensors.append($0) })
        }
        return t
    }

    /// Runs a reader whose callbacks do not throw: its only error is a ``TraceFormatError``.
    static func typedReaderError<T>(source: String, _ body: () throws -> T) throws(TraceFormatError) -> T {
        do { return try body() } catch let e as TraceFormatError { throw e } catch {
            // Not reached (the readers throw TraceFormatError, the callbacks nothing); kept typed.
            throw TraceFormatError(source: source, line: nil, message: "\(error)")
        }
    }
}

/// Streaming NMEA file reading on top of ``NMEAParser``.
public enum NMEAReader {
    /// Reads every line, calling `onFix` for each completed fix.
    public static func read(_ reader: ByteLineReader, options: TraceReadConfiguration = TraceReadConfiguration(),
                            onFix: (Fix) throws -> Void) throws -> TraceReadSummary {
        try options.check(source: reader.source)
        var parser = NMEAParser(source: reader.source, options: options)
        var out: [Fix] = []
        out.reserveCapacity(16)
        var any = false
        var delivered = 0
        try reader.forEachLine { b, n in
            if !any { for c in b where c != 32 && c != 9 && c != 13 { any = true; break } }
            try parser.parse(line: b, lineNumber: n, into: &out)
            if !out.isEmpty { for f in out { try onFix(f) }; delivered += out.count; out.removeAll(keepingCapacity: true) }
        }
        if !any { throw TraceFormatError(source: reader.source, line: nil, message: "empty file: no NMEA sentences") }
        try parser.finish(into: &out)
        for f in out { try onFix(f) }
        var s = parser.summary
        s.fixes = delivered + out.count
        return s
    }

    /// Decodes NMEA text in memory (tests, small inputs).
    public static func fixes(from text: String, source: String = "<nmea>",
                             options: TraceReadConfiguration = TraceReadConfiguration()) throws(TraceFormatError) -> [Fix] {
        var all: [Fix] = []
        _ = try TraceReader.typedReaderError(source: source) {
            try read(ByteLineReader(data: Data(text.utf8), source: source), options: options) { all.append($0) }
        }
        return all
    }
}
