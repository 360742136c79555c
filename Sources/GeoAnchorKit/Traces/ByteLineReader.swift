import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads a file (or stdin, or bytes in memory) in fixed-size chunks and hands out one line at a
/// time as raw bytes, without the line terminator (`\n`, `\r\n` or a lone `\r` at the end).
/// A UTF-8 byte-order mark at the start of the input is removed (Excel and Windows tools
/// write one), so every reader sees the first line's text from its first character.
///
/// Memory is bounded by the chunk size plus the longest line (capped at
/// ``maximumLineLength``), independent of the file size: this is what lets the readers stream
/// a 1 GB log. A class because it owns a file descriptor (closed in `deinit`).
public final class ByteLineReader {
    /// Lines longer than this are reported as an error (binary garbage, not a text trace).
    public static let maximumLineLength = 1 << 20
    /// Name used in error messages.
    public let source: String

    private enum Input { case fd(Int32, close: Bool); case data(Data) }
    private var input: Input
    private var buffer: UnsafeMutablePointer<UInt8>
    private var capacity: Int
    private let chunkSize: Int

    /// Opens a file for reading. A gzip-compressed file (by its first bytes, e.g. an IGS
    /// `…ORB.SP3.gz` or an archived `log.nmea.gz`), a Unix `compress` one (`.Z`, IGS archives
    /// before 2021) or a ZIP holding the file (the only one, or the one the archive's name points to: `walk.gpx.zip`,
    /// or the one a path `ARCHIVE.zip/MEMBER` names: `recording.zip/Location.csv`) is decompressed whole into
    /// memory first (at most 1 GiB of text), so every line-based reader (NMEA, CSV, GnssLogger,
    /// RINEX, SP3, clock files) reads it as the plain file.
    /// - Throws: ``TraceFormatError`` when the file cannot be opened or read, or is corrupt gzip.
    public convenience init(url: URL, chunkSize: Int = 1 << 18) throws(TraceFormatError) {
        let fd = open(url.path, O_RDONLY)
        guard fd >= 0 else {
            // `archive.zip/Member.csv`: one file of a ZIP with several (a Sensor Logger recording).
            guard let (archive, member) = Self.zipMember(url.path) else {
                throw TraceFormatError(source: url.path, line: nil, message: "cannot open file")
            }
            self.init(data: Data(try Self.decompress(url: URL(fileURLWithPath: archive), member: member)), source: url.path)
            return
        }
        var info = stat()
        if fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFDIR {
            _ = close(fd)
            throw Self.directoryError(url)
        }
        var magic: [UInt8] = [0, 0, 0, 0]
        let got = pread(fd, &magic, 4, 0)
        if got >= 2, Self.isCompressed(Array(magic.prefix(got))) {
            _ = close(fd)
            self.init(data: Data(try Self.decompress(url: url)), source: url.path)
            return
        }
        self.init(fd: fd, chunkSize: chunkSize, source: url.path)
    }

    /// "is a directory, not a file" for `url` (opening a directory succeeds; reading it fails
    /// with EISDIR, which said "read error (errno 21)").
    package static func directoryError(_ url: URL) -> TraceFormatError {
        TraceFormatError(source: url.path, line: nil, message: "is a directory, not a file")
    }

    /// Whether `url` names a directory.
    package static func isDirectory(_ url: URL) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// Reads an open file descriptor (closed when the reader goes).
    private init(fd: Int32, chunkSize: Int, source: String) {
        self.source = source
        self.input = .fd(fd, close: true)
        self.chunkSize = chunkSize
        self.capacity = chunkSize * 2
        self.buffer = .allocate(capacity: capacity)
    }

    /// The decompressed contents of `url` when it is a gzip, `compress` (`.Z`) or single-file
    /// ZIP (by its first bytes), else nil: how the whole-document readers (GPX, KML, GeoJSON,
    /// FIT, TCX) accept `walk.gpx.gz` or `walk.gpx.zip`, and how a caller that reads a file
    /// twice (to tell its kind, then to read it) decompresses it once.
    /// - Throws: ``TraceFormatError`` for an unreadable file or corrupt compressed data.
    public static func decompressedContents(of url: URL) throws(TraceFormatError) -> Data? {
        let reader = try ByteLineReader(url: url)
        if case .data(let d) = reader.input { return d }
        return nil
    }

    /// The whole contents of a file read at once (FIT, UBX, GeoJSON), decompressed when it is a
    /// gzip, compress or single-file ZIP, or the member an `ARCHIVE.zip/MEMBER` path names
    /// (``decompressedContents(of:)``).
    /// - Throws: ``TraceFormatError`` "cannot read file", "is a directory, not a file", or for
    ///   corrupt compressed data.
    static func contents(of url: URL) throws(TraceFormatError) -> Data {
        if let unpacked = try decompressedContents(of: url) { return unpacked }
        do { return try Data(contentsOf: url) } catch {
            throw TraceFormatError(source: url.path, line: nil, message: "cannot read file")
        }
    }

    /// True when `magic` (a file's first bytes) starts a gzip, `compress` or ZIP file.
    static func isCompressed(_ magic: [UInt8]) -> Bool {
        Gzip.looksLike(magic) || UnixCompress.looksLike(magic) || ZipArchive.looksLike(magic)
    }

    /// The decompressed text of a gzip, `compress` or ZIP file. A ZIP must hold one file (or one
    /// whose extension is the one before `.zip` in the archive's name: `walk.gpx.zip` → its
    /// `.gpx`), or the one `member` names: several otherwise are refused, naming them.
    static func decompress(url: URL, member: String? = nil) throws(TraceFormatError) -> [UInt8] {
        let compressed: Data
        do { compressed = try Data(contentsOf: url) } catch {
            throw TraceFormatError(source: url.path, line: nil, message: "cannot read file: \(error.localizedDescription)")
        }
        return try decompress(compressed, url: url, member: member)
    }

    /// `path` as `ARCHIVE.zip/MEMBER` when it names no file but a prefix ending in `.zip` (any
    /// case) is one: the archive's path and the member's name (GDAL's `/vsizip/` naming). Nil
    /// otherwise.
    package static func zipMember(_ path: String) -> (archive: String, member: String)? {
        var search = path.endIndex
        while let r = path.range(of: ".zip/", options: [.backwards, .caseInsensitive], range: path.startIndex..<search) {
            let archive = String(path[..<r.upperBound].dropLast())
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: archive, isDirectory: &isDirectory), !isDirectory.boolValue {
                let member = String(path[r.upperBound...])
                return member.isEmpty ? nil : (archive, member)
            }
            search = r.lowerBound
        }
        return nil
    }

    /// ``decompress(url:)`` of bytes already read from `url` (its name picks a ZIP's member, or
    /// `member` names it: the member of that name, else the one whose last path component it is).
    static func decompress(_ compressed: Data, url: URL, member: String? = nil) throws(TraceFormatError) -> [UInt8] {
        do {
            let magic = Array(compressed.prefix(4))
            if Gzip.looksLike(magic) { return try Gzip.decompress(compressed) }
            if UnixCompress.looksLike(magic) { return try UnixCompress.decompress(compressed) }
            let zip = try ZipArchive(data: compressed)
            let files = zip.entries.filter { !$0.isDirectory }
            if let member {
                let named = files.filter { $0.name == member }
                let byLast = files.filter { ($0.name as NSString).lastPathComponent == member }
                guard let entry = named.first ?? (byLast.count == 1 ? byLast.first : nil) else {
                    let names = files.prefix(12).map(\.name).joined(separator: ", ")
                    throw TraceFormatError(source: url.path, line: nil,
                        message: "ZIP archive has \(byLast.count > 1 ? "several files named" : "no file") '\(member)' (\(files.count) files: \(names)\(files.count > 12 ? ", …" : ""))")
                }
                return try zip.data(for: entry, limit: Gzip.defaultSizeLimit)
            }
            var chosen = files.count == 1 ? files.first : nil
            if chosen == nil {
                let inner = url.deletingPathExtension().pathExtension
                let matching = files.filter { !inner.isEmpty && ($0.name as NSString).pathExtension.lowercased() == inner.lowercased() }
                if matching.count == 1 { chosen = matching.first }
            }
            guard let entry = chosen else {
                let names = files.prefix(6).map(\.name).joined(separator: ", ")
                throw TraceFormatError(source: url.path, line: nil,
                    message: "ZIP archive with \(files.count) files (\(names)\(files.count > 6 ? ", …" : "")): name the one to read as \(url.path)/\(files.first?.name ?? "MEMBER"), name the archive FILE.EXT.zip after it, or unzip it")
            }
            return try zip.data(for: entry, limit: Gzip.defaultSizeLimit)
        } catch let e as ZipError {
            throw TraceFormatError(source: url.path, line: nil, message: e.description)
        } catch let e as TraceFormatError {
            throw e
        } catch {
            throw TraceFormatError(source: url.path, line: nil, message: "\(error)")
        }
    }

    /// The first line of `reader`'s input (at most 4 KiB, without its line end), without
    /// consuming anything: for telling file kinds apart before reading. Empty for standard input.
    static func firstLine(of reader: ByteLineReader) throws(TraceFormatError) -> String {
        var bytes: [UInt8]
        switch reader.input {
        case .data(let d): bytes = Array(d.prefix(4096))
        case .fd(let fd, let owned):
            guard owned else { return "" }
            bytes = [UInt8](repeating: 0, count: 4096)
            let n = pread(fd, &bytes, bytes.count, 0)
            bytes = Array(bytes.prefix(Swift.max(n, 0)))
        }
        return String(decoding: bytes.prefix { $0 != 10 && $0 != 13 }, as: UTF8.self)
    }

    /// Reads standard input.
    public init(standardInputChunkSize chunkSize: Int = 1 << 18) {
        self.source = "<stdin>"
        self.input = .fd(0, close: false)
        self.chunkSize = chunkSize
        self.capacity = chunkSize * 2
        self.buffer = .allocate(capacity: capacity)
    }

    /// Reads bytes already in memory (tests, network payloads).
    public init(data: Data, source: String) {
        self.source = source
        self.input = .data(data)
        self.chunkSize = max(data.count, 1)
        self.capacity = max(data.count, 1)
        self.buffer = .allocate(capacity: capacity)
    }

    deinit {
        buffer.deallocate()
        if case .fd(let fd, true) = input { _ = close(fd) }
    }

    /// Calls `body` for every line with its bytes (valid only during the call) and its 1-based
    /// line number. Returns the number of lines.
    /// - Throws: whatever `body` throws; ``TraceFormatError`` for read errors and over-long lines.
    @discardableResult
    public func forEachLine(_ body: (UnsafeBufferPointer<UInt8>, Int) throws -> Void) throws -> Int {
        var lineNo = 0
        var start = 0   // start of the unprocessed bytes in buffer
        var end = 0     // end of valid bytes in buffer
        var dataDone = false
        var atEOF = false
        var skipLF = false // a chunk ended in "\r": drop a "\n" that begins the next chunk
        while !atEOF {
            // Compact and refill.
            if start > 0 {
                if end > start { buffer.update(from: buffer + start, count: end - start) }
                end -= start; start = 0
            }
            if end + chunkSize > capacity {
                guard end < Self.maximumLineLength else {
                    throw TraceFormatError(source: source, line: lineNo + 1,
                        message: "line longer than \(Self.maximumLineLength) bytes (binary data?)")
                }
                let newCap = max(capacity * 2, end + chunkSize)
                let nb = UnsafeMutablePointer<UInt8>.allocate(capacity: newCap)
                nb.update(from: buffer, count: end)
                buffer.deallocate()
                buffer = nb; capacity = newCap
            }
            var n = 0
            switch input {
            case .fd(let fd, _):
                repeat { n = read(fd, buffer + end, chunkSize) } while n < 0 && errno == EINTR
                if n < 0 { throw TraceFormatError(source: source, line: nil, message: "read error: \(String(cString: strerror(errno)))") }
            case .data(let d):
                if !dataDone {
                    d.withUnsafeBytes { raw in
                        if let b = raw.bindMemory(to: UInt8.self).baseAddress { (buffer + end).update(from: b, count: d.count) }
                    }
                    n = d.count; dataDone = true
                }
            }
            if n == 0 { atEOF = true }
            end += n
            // Split complete lines.
            var i = start
            if skipLF, i < end, buffer[i] == 10 { i += 1; start = i }
            skipLF = false
            while i < end {
                let c = buffer[i]
                if c == 10 || c == 13 {
                    lineNo += 1
                    try body(Self.line(buffer + start, i - start, lineNo), lineNo)
                    if c == 13 {
                        if i + 1 < end { if buffer[i + 1] == 10 { i += 1 } } else { skipLF = true }
                    }
                    i += 1
                    start = i
                } else {
                    i += 1
                }
            }
            if atEOF && start < end {
                lineNo += 1
                try body(Self.line(buffer + start, end - start, lineNo), lineNo)
                start = end
            }
        }
        return lineNo
    }

    /// The line's bytes, without a UTF-8 byte-order mark (EF BB BF) at the start of line 1.
    @inline(__always)
    private static func line(_ p: UnsafeMutablePointer<UInt8>, _ count: Int, _ lineNo: Int) -> UnsafeBufferPointer<UInt8> {
        if lineNo == 1, count >= 3, p[0] == 0xEF, p[1] == 0xBB, p[2] == 0xBF {
            return UnsafeBufferPointer(start: p + 3, count: count - 3)
        }
        return UnsafeBufferPointer(start: p, count: count)
    }
}
