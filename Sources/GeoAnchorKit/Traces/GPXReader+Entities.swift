import Foundation

extension GPXReader {
    /// How far into a GPX file the DOCTYPE is looked for (1 MiB): a document type declaration
    /// must come before the root element, and GPX needs none.
    static let doctypeScanLimit = 1 << 20

    /// Refuses XML entity declarations before parsing.
    ///
    /// An internal entity referenced many times (or entities nesting other entities, the "billion
    /// laughs") makes the XML parser expand gigabytes from a file of kilobytes; `XMLParser` has no
    /// expansion budget that works on every platform. GPX (1.0, 1.1) defines no entities of its own
    /// and GPS devices and GPSBabel write none, so a `<!ENTITY` in the DOCTYPE's internal subset is
    /// a ``TraceFormatError``; a DOCTYPE without one (or the five predefined entities `&amp;` …)
    /// is accepted. External entities are never resolved (`shouldResolveExternalEntities = false`).
    /// - Parameter prefix: the first ``doctypeScanLimit`` bytes of the file (or all of it).
    /// - Parameter complete: whether `prefix` is the whole file.
    /// - Parameter format: the document's format and root element (GPX `gpx`, KML `kml`), for
    ///   the messages and the end of the DOCTYPE.
    static func refuseEntityDeclarations(_ prefix: Data, complete: Bool, source: String,
                                         format: (name: String, root: String) = ("GPX", "gpx")) throws(TraceFormatError) {
        guard let doctype = prefix.firstRange(of: Data("<!DOCTYPE".utf8)) else { return }
        let rest = prefix[doctype.upperBound...]
        if let e = rest.firstRange(of: Data("<!ENTITY".utf8)) {
            let line = prefix[..<e.lowerBound].reduce(into: 1) { n, b in if b == 10 { n += 1 } }
            throw TraceFormatError(source: source, line: line,
                message: "XML entity declarations are not accepted in \(format.name) (an entity can expand a small file into gigabytes)")
        }
        // The DOCTYPE may continue past the scanned prefix: without having seen the root element
        // we cannot tell that it declares no entity.
        if !complete && rest.firstRange(of: Data("<\(format.root)".utf8)) == nil {
            throw TraceFormatError(source: source, line: nil,
                message: "the DOCTYPE declaration is longer than \(doctypeScanLimit) bytes (\(format.name) needs none)")
        }
    }

    /// ``refuseEntityDeclarations(_:complete:source:)`` on the start of a file.
    static func refuseEntityDeclarations(url: URL, format: (name: String, root: String) = ("GPX", "gpx")) throws(TraceFormatError) {
        guard let h = try? FileHandle(forReadingFrom: url) else { return } // the reader reports unreadable files
        defer { try? h.close() }
        let prefix = (try? h.read(upToCount: doctypeScanLimit)) ?? Data()
        try refuseEntityDeclarations(prefix, complete: prefix.count < doctypeScanLimit, source: url.path, format: format)
    }
}
