import Foundation

/// Why a ZIP archive, one of its entries or a DEFLATE stream cannot be read: the message names
/// the offending value (a method number, a CRC, an offset, a size). Prints as
/// `entry 'NAME': message` when it is about one entry, else as the message.
package struct ZipError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong, naming the value (without the entry name).
    package var message: String
    /// The entry's name when the problem is about one entry, else nil.
    package var entry: String?

    /// An error with `message`, about `entry` when given.
    package init(_ message: String, entry: String? = nil) {
        self.message = message
        self.entry = entry
    }

    /// `entry 'NAME': message`, or the message alone.
    package var description: String {
        if let entry { return "entry '\(entry)': \(message)" }
        return message
    }
}

extension ZipError: DescribedError {}

/// A ZIP archive held in memory (PKWARE's APPNOTE.TXT 6.3.10), read far enough to list its entries
/// and extract stored (method 0) and deflated (method 8) ones, as a KMZ file needs: in pure
/// Swift, with the ``Inflate`` decoder and a CRC-32 check of every extracted entry.
///
/// Supported: an archive comment, ZIP64 (end-of-central-directory record and locator, ZIP64
/// extra fields for sizes and offsets), data descriptors (the central directory's sizes and CRC
/// are used), data prepended to the archive (self-extracting stubs: offsets are corrected as
/// Info-ZIP and Python's zipfile do), UTF-8 names (flag bit 11, the Info-ZIP Unicode Path extra
/// field, or names that are valid UTF-8) and CP437 names. Not supported, with a ``ZipError``
/// naming it: other compression methods (bzip2, LZMA, Zstandard, Deflate64, …), encryption
/// (ZipCrypto or AES) and archives spanning several disks.
///
/// Nothing read from the file is trusted: every offset and size is checked against the data's
/// length with overflow-checked arithmetic, so corrupt or hostile input throws and never traps,
/// and an entry's output is capped (``defaultSizeLimit``) against zip bombs.
package struct ZipArchive: Sendable {
    /// The default cap on one entry's uncompressed size: 256 MiB.
    package static let defaultSizeLimit = 256 << 20

    /// One member of the archive, as its central-directory record describes it.
    package struct Entry: Sendable, Hashable {
        /// The name (a path with `/` separators; directories end with `/`), decoded as UTF-8 when
        /// flag bit 11 is set, an Info-ZIP Unicode Path extra field gives it, or the bytes are
        /// valid UTF-8; else as CP437 (the ZIP default).
        package var name: String
        /// The name's bytes as stored in the central directory.
        package var rawName: [UInt8]
        /// Compression method: 0 stored, 8 deflate (the two this reader extracts), 12 bzip2,
        /// 14 LZMA, 93 Zstandard, 99 AES encryption, ….
        package var method: Int
        /// General-purpose bit flags (bit 0 encrypted, bit 3 data descriptor, bit 11 UTF-8).
        package var flags: UInt16
        /// CRC-32 (IEEE) of the uncompressed bytes, as stored.
        package var crc32: UInt32
        /// Size of the stored (compressed) bytes.
        package var compressedSize: Int
        /// Size of the uncompressed bytes.
        package var uncompressedSize: Int
        /// Byte offset of the entry's local header in the archive data (corrected for data
        /// prepended to the archive).
        package var localHeaderOffset: Int

        /// True for a directory entry (its name ends with `/`).
        package var isDirectory: Bool { name.hasSuffix("/") }
        /// True when flag bit 0 (encrypted) is set.
        package var isEncrypted: Bool { flags & 1 != 0 }
    }

    /// The entries in central-directory order.
    package let entries: [Entry]
    /// The archive comment (UTF-8 when valid, else CP437); empty when there is none.
    package let comment: String
    /// The whole archive.
    private let bytes: [UInt8]

    /// Reads the central directory of an archive in memory.
    /// - Throws: ``ZipError`` when the data is not a ZIP archive (no end-of-central-directory
    ///   record) or its directory is truncated or inconsistent.
    package init(data: Data) throws(ZipError) {
        try self.init(bytes: [UInt8](data))
    }

    /// Reads the central directory of an archive in memory.
    /// - Throws: ``ZipError`` when the bytes are not a ZIP archive (no end-of-central-directory
    ///   record) or its directory is truncated or inconsistent.
    package init(bytes: [UInt8]) throws(ZipError) {
        self.bytes = bytes
        let r = Reader(bytes: bytes)
        let directory = try r.endOfCentralDirectory()
        comment = Self.decodeName(directory.comment, utf8: false)
        entries = try r.centralDirectory(directory)
    }

    /// True when `prefix` (the first bytes of a file; 4 are enough) starts like a ZIP archive:
    /// a local file header (`PK\u{3}\u{4}`) or the end record of an empty archive (`PK\u{5}\u{6}`).
    package static func looksLike<Bytes: Collection<UInt8>>(_ prefix: Bytes) -> Bool {
        let p = Array(prefix.prefix(4))
        return p == [0x50, 0x4B, 0x03, 0x04] || p == [0x50, 0x4B, 0x05, 0x06]
    }

    /// The first entry whose name is `name` (exactly), or nil.
    package func entry(named name: String) -> Entry? {
        entries.first { $0.name == name }
    }

    /// The first file entry (not a directory) whose name ends with `.` + `pathExtension`,
    /// compared case-insensitively (`kml` finds `doc.kml` and `Doc.KML`): a KMZ's document is
    /// the first `.kml` entry. Nil when there is none.
    package func firstEntry(withExtension pathExtension: String) -> Entry? {
        let suffix = "." + pathExtension.lowercased()
        return entries.first { !$0.isDirectory && $0.name.lowercased().hasSuffix(suffix) }
    }

    /// The uncompressed bytes of `entry`.
    ///
    /// - Parameters:
    ///   - entry: one of ``entries``.
    ///   - limit: the largest uncompressed size accepted, in bytes (default
    ///     ``defaultSizeLimit``, 256 MiB): a zip-bomb guard.
    /// - Throws: ``ZipError`` naming the entry when it is encrypted, uses a method other than
    ///   stored (0) or deflate (8), is larger than `limit`, its local header or data lie outside
    ///   the archive, its DEFLATE stream is corrupt, or the result's CRC-32 or size does not
    ///   match the stored one.
    package func data(for entry: Entry, limit: Int = ZipArchive.defaultSizeLimit) throws(ZipError) -> [UInt8] {
        do throws(ZipError) {
            return try extract(entry, limit: limit)
        } catch {
            throw ZipError(error.message, entry: entry.name)
        }
    }

    /// ``data(for:limit:)`` with messages that do not name the entry yet.
    private func extract(_ entry: Entry, limit: Int) throws(ZipError) -> [UInt8] {
        if entry.method == 99 {
            throw ZipError("is AES-encrypted (compression method 99); encrypted entries are not supported")
        }
        if entry.isEncrypted {
            throw ZipError("is encrypted (general-purpose flag bit 0); encrypted entries are not supported")
        }
        guard entry.method == 0 || entry.method == 8 else {
            throw ZipError("compression method \(entry.method)\(Self.methodName(entry.method)) is not supported (stored and deflate are)")
        }
        guard entry.uncompressedSize <= limit else {
            throw ZipError("uncompressed size of \(entry.uncompressedSize) bytes exceeds the limit of \(limit) bytes")
        }
        let r = Reader(bytes: bytes)
        let header = entry.localHeaderOffset
        guard header >= 0, header <= bytes.count - 30 else {
            throw ZipError("local header offset \(header) lies outside the \(bytes.count)-byte archive")
        }
        guard try r.u32(header) == 0x0403_4B50 else {
            throw ZipError("no local file header signature at offset \(header)")
        }
        let localFlags = UInt16(try r.u16(header + 6))
        if localFlags & 1 != 0 {
            throw ZipError("is encrypted (general-purpose flag bit 0 in the local header); encrypted entries are not supported")
        }
        // The local header's own name and extra lengths (they may differ from the directory's).
        let nameLength = try r.u16(header + 26), extraLength = try r.u16(header + 28)
        let start = header + 30 + nameLength + extraLength   // ≤ count + 2 × 65,535: no overflow
        guard start <= bytes.count, entry.compressedSize <= bytes.count - start else {
            throw ZipError("\(entry.compressedSize) bytes of data at offset \(start) run past the end of the \(bytes.count)-byte archive")
        }
        let stored = bytes[start..<(start + entry.compressedSize)]
        let out: [UInt8]
        if entry.method == 0 {
            guard entry.compressedSize == entry.uncompressedSize else {
                throw ZipError("stored entry has compressed size \(entry.compressedSize) but uncompressed size \(entry.uncompressedSize)")
            }
            out = Array(stored)
        } else {
            out = try Inflate.decompress(stored, expectedSize: entry.uncompressedSize, limit: limit)
        }
        let crc = Self.crc32(out)
        guard crc == entry.crc32 else {
            throw ZipError("CRC-32 0x\(Self.hex(crc)) does not match the stored 0x\(Self.hex(entry.crc32))")
        }
        return out
    }

    // MARK: - CRC-32

    /// CRC-32 lookup tables for slicing-by-8 (IEEE 802.3, reflected polynomial 0xEDB88320):
    /// entries `256 k + n` give the CRC of byte `n` followed by `k` zero bytes.
    private static let crcTables: [UInt32] = {
        var t = [UInt32](repeating: 0, count: 8 * 256)
        for n in 0..<256 {
            var c = UInt32(n)
            for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
            t[n] = c
        }
        for k in 1..<8 {
            for n in 0..<256 {
                let prev = t[(k - 1) * 256 + n]
                t[k * 256 + n] = (prev >> 8) ^ t[Int(prev & 0xFF)]
            }
        }
        return t
    }()

    /// The CRC-32 (IEEE 802.3, as in ZIP, gzip and PNG; polynomial 0xEDB88320, reflected, initial
    /// and final XOR 0xFFFFFFFF) of `bytes`, continuing from `crc` (the CRC of the preceding
    /// bytes; 0 to start). The check value of `"123456789"` is 0xCBF43926. About 1 GB/s.
    package static func crc32<Bytes: Collection<UInt8>>(_ bytes: Bytes, continuing crc: UInt32 = 0) -> UInt32 {
        if let c = bytes.withContiguousStorageIfAvailable({ crc32(buffer: $0, continuing: crc) }) { return c }
        return Array(bytes).withUnsafeBufferPointer { crc32(buffer: $0, continuing: crc) }
    }

    /// ``crc32(_:continuing:)`` on bytes in memory (slicing-by-8).
    private static func crc32(buffer: UnsafeBufferPointer<UInt8>, continuing crc: UInt32) -> UInt32 {
        crcTables.withUnsafeBufferPointer { t in
            var c = ~crc
            var i = 0
            let n = buffer.count
            while n - i >= 8 {
                let b = buffer
                c ^= UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24
                c = t[7 * 256 + Int(c & 0xFF)] ^ t[6 * 256 + Int((c >> 8) & 0xFF)]
                    ^ t[5 * 256 + Int((c >> 16) & 0xFF)] ^ t[4 * 256 + Int(c >> 24)]
                    ^ t[3 * 256 + Int(b[i + 4])] ^ t[2 * 256 + Int(b[i + 5])]
                    ^ t[256 + Int(b[i + 6])] ^ t[Int(b[i + 7])]
                i += 8
            }
            while i < n {
                c = t[Int((c ^ UInt32(buffer[i])) & 0xFF)] ^ (c >> 8)
                i += 1
            }
            return ~c
        }
    }

    // MARK: - Names and messages

    /// Code points of CP437 bytes 0x80…0xFF (bytes below 0x80 are ASCII).
    private static let cp437High: [UInt16] = [
        0x00C7, 0x00FC, 0x00E9, 0x00E2, 0x00E4, 0x00E0, 0x00E5, 0x00E7, 0x00EA, 0x00EB, 0x00E8, 0x00EF, 0x00EE, 0x00EC, 0x00C4, 0x00C5,
        0x00C9, 0x00E6, 0x00C6, 0x00F4, 0x00F6, 0x00F2, 0x00FB, 0x00F9, 0x00FF, 0x00D6, 0x00DC, 0x00A2, 0x00A3, 0x00A5, 0x20A7, 0x0192,
        0x00E1, 0x00ED, 0x00F3, 0x00FA, 0x00F1, 0x00D1, 0x00AA, 0x00BA, 0x00BF, 0x2310, 0x00AC, 0x00BD, 0x00BC, 0x00A1, 0x00AB, 0x00BB,
        0x2591, 0x2592, 0x2593, 0x2502, 0x2524, 0x2561, 0x2562, 0x2556, 0x2555, 0x2563, 0x2551, 0x2557, 0x255D, 0x255C, 0x255B, 0x2510,
        0x2514, 0x2534, 0x252C, 0x251C, 0x2500, 0x253C, 0x255E, 0x255F, 0x255A, 0x2554, 0x2569, 0x2566, 0x2560, 0x2550, 0x256C, 0x2567,
        0x2568, 0x2564, 0x2565, 0x2559, 0x2558, 0x2552, 0x2553, 0x256B, 0x256A, 0x2518, 0x250C, 0x2588, 0x2584, 0x258C, 0x2590, 0x2580,
        0x03B1, 0x00DF, 0x0393, 0x03C0, 0x03A3, 0x03C3, 0x00B5, 0x03C4, 0x03A6, 0x0398, 0x03A9, 0x03B4, 0x221E, 0x03C6, 0x03B5, 0x2229,
        0x2261, 0x00B1, 0x2265, 0x2264, 0x2320, 0x2321, 0x00F7, 0x2248, 0x00B0, 0x2219, 0x00B7, 0x221A, 0x207F, 0x00B2, 0x25A0, 0x00A0,
    ]

    /// `bytes` as UTF-8 when `utf8` is set (flag bit 11; invalid sequences become U+FFFD) or
    /// they are valid UTF-8, else as CP437.
    static func decodeName(_ bytes: [UInt8], utf8: Bool) -> String {
        let s = String(decoding: bytes, as: UTF8.self)
        if utf8 || s.utf8.elementsEqual(bytes) { return s }   // valid UTF-8: no U+FFFD substituted
        var out = String.UnicodeScalarView()
        for b in bytes {
            out.append(b < 0x80 ? Unicode.Scalar(b) : Unicode.Scalar(cp437High[Int(b) - 0x80]) ?? "?")
        }
        return String(out)
    }

    /// ` (bzip2)` for a known method number, else empty.
    private static func methodName(_ method: Int) -> String {
        let names: [Int: String] = [1: "Shrink", 2: "Reduce", 3: "Reduce", 4: "Reduce", 5: "Reduce", 6: "Implode",
                                    9: "Deflate64", 10: "PKWARE DCL Implode", 12: "bzip2", 14: "LZMA", 16: "IBM z/OS CMPSC",
                                    18: "IBM TERSE", 19: "IBM LZ77", 93: "Zstandard", 94: "MP3", 95: "xz", 96: "JPEG",
                                    97: "WavPack", 98: "PPMd"]
        return names[method].map { " (\($0))" } ?? ""
    }

    /// Eight lowercase hex digits.
    static func hex(_ v: UInt32) -> String {
        let s = String(v, radix: 16)
        return String(repeating: "0", count: 8 - s.count) + s
    }

    // MARK: - Reading the directory

    /// What the end-of-central-directory records say.
    private struct Directory {
        /// Where the central directory starts in the data, and its size, in bytes.
        var start: Int
        var size: Int
        /// Entry count the end record states.
        var count: Int
        /// The archive comment's bytes.
        var comment: [UInt8]
        /// True when a ZIP64 end record gave the count, size and offset.
        var isZip64: Bool
        /// Add to every stated offset to get the offset in the data (nonzero when data was
        /// prepended to the archive).
        var shift: Int
    }

    /// Bounds-checked little-endian field reads.
    private struct Reader {
        let bytes: [UInt8]

        /// Throws unless `n` bytes at `at` lie inside the data.
        func check(_ at: Int, _ n: Int) throws(ZipError) {
            guard at >= 0, at <= bytes.count - n else {
                throw ZipError("truncated archive: a \(n)-byte field at offset \(at) runs past the end of the \(bytes.count)-byte data")
            }
        }
        /// The little-endian 16-bit field at `at`.
        func u16(_ at: Int) throws(ZipError) -> Int {
            try check(at, 2)
            return Int(bytes[at]) | Int(bytes[at + 1]) << 8
        }
        /// The little-endian 32-bit field at `at`.
        func u32(_ at: Int) throws(ZipError) -> UInt32 {
            try check(at, 4)
            return UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
        /// The little-endian 64-bit field at `at`.
        func u64(_ at: Int) throws(ZipError) -> UInt64 {
            UInt64(try u32(at)) | UInt64(try u32(at + 4)) << 32
        }
        /// The 64-bit size or offset at `at` as an `Int`; values beyond `Int.max` throw.
        func int64(_ at: Int, _ what: String) throws(ZipError) -> Int {
            let v = try u64(at)
            guard let i = Int(exactly: v) else { throw ZipError("\(what) \(v) is too large") }
            return i
        }

        /// Finds the end-of-central-directory record (searching backwards over the last
        /// 65,557 bytes: the 22-byte record and a comment of up to 65,535 bytes) and, when a
        /// ZIP64 locator precedes it, the ZIP64 end record.
        func endOfCentralDirectory() throws(ZipError) -> Directory {
            let n = bytes.count
            guard n >= 22 else {
                throw ZipError("not a ZIP archive: \(n) bytes, too short for an end-of-central-directory record")
            }
            var eocd: Int?
            var fallback: Int?
            var i = n - 22
            let lowest = Swift.max(0, n - 65_557)
            while i >= lowest {
                if bytes[i] == 0x50, bytes[i + 1] == 0x4B, bytes[i + 2] == 0x05, bytes[i + 3] == 0x06 {
                    let commentLength = Int(bytes[i + 20]) | Int(bytes[i + 21]) << 8
                    if i + 22 + commentLength == n { eocd = i; break }
                    if fallback == nil, i + 22 + commentLength <= n { fallback = i }   // junk after the comment
                }
                i -= 1
            }
            guard let e = eocd ?? fallback else {
                throw ZipError("not a ZIP archive: no end-of-central-directory record in the last \(n - lowest) bytes")
            }
            let commentLength = try u16(e + 20)
            let comment = Array(bytes[(e + 22)..<(e + 22 + commentLength)])
            var count = try u16(e + 10)
            var size = Int(try u32(e + 12))
            var offset = Int(try u32(e + 16))
            var end = e          // where the central directory (plus ZIP64 records) should end
            var isZip64 = false
            // ZIP64 end-of-central-directory locator: 20 bytes just before the end record.
            if e >= 20, try u32(e - 20) == 0x0706_4B50 {
                let disks = try u32(e - 20 + 16)
                guard disks <= 1 else { throw ZipError("archives spanning several disks are not supported (\(disks) disks)") }
                let locator = e - 20
                // The record is where the locator says, or (data prepended) just before it.
                var record = -1
                let stated = try u64(locator + 8)
                if let s = Int(exactly: stated), s <= locator - 56, try u32(s) == 0x0606_4B50 {
                    record = s
                } else if locator >= 56, try u32(locator - 56) == 0x0606_4B50 {
                    record = locator - 56
                }
                guard record >= 0 else {
                    throw ZipError("ZIP64 end-of-central-directory record not found (the locator gives offset \(stated))")
                }
                count = try int64(record + 32, "ZIP64 entry count")
                size = try int64(record + 40, "ZIP64 central-directory size")
                offset = try int64(record + 48, "ZIP64 central-directory offset")
                end = record
                isZip64 = true
            }
            // The directory normally sits at its stated offset. When it does not but ends where the
            // end records start, data was prepended to the archive (a self-extractor stub): every
            // stated offset is then off by the same amount (Info-ZIP and Python's zipfile agree).
            guard size <= end else {
                throw ZipError("central directory of \(size) bytes does not fit before its end record at offset \(end)")
            }
            let adjacent = end - size
            let start: Int
            func isHeader(_ at: Int) -> Bool { size == 0 || (try? u32(at)) == 0x0201_4B50 }
            if offset <= adjacent, isHeader(offset) {
                start = offset
            } else if isHeader(adjacent) {
                start = adjacent
            } else {
                throw ZipError("no central directory at offset \(offset) (nor at \(adjacent), before the end record)")
            }
            return Directory(start: start, size: size, count: count, comment: comment, isZip64: isZip64, shift: start - offset)
        }

        /// Reads the central directory's file headers.
        func centralDirectory(_ d: Directory) throws(ZipError) -> [Entry] {
            var entries: [Entry] = []
            entries.reserveCapacity(Swift.min(d.count, d.size / 46))
            var p = d.start
            let end = d.start + d.size
            let shift = d.shift
            while p < end {
                guard p <= end - 46 else {
                    throw ZipError("central directory: \(end - p) stray bytes at offset \(p), too short for a file header")
                }
                guard try u32(p) == 0x0201_4B50 else {
                    throw ZipError("central directory: no file header signature at offset \(p)")
                }
                let flags = UInt16(try u16(p + 8))
                let method = try u16(p + 10)
                let crc = try u32(p + 16)
                var compressed = Int(try u32(p + 20))
                var uncompressed = Int(try u32(p + 24))
                let nameLength = try u16(p + 28), extraLength = try u16(p + 30), commentLength = try u16(p + 32)
                var offset = Int(try u32(p + 42))
                let next = p + 46 + nameLength + extraLength + commentLength
                guard next <= end else {
                    throw ZipError("central directory: the file header at offset \(p) runs past the directory's end at \(end)")
                }
                let rawName = Array(bytes[(p + 46)..<(p + 46 + nameLength)])
                var name = ZipArchive.decodeName(rawName, utf8: flags & 0x800 != 0)
                // Extra fields: ZIP64 sizes and offset, Info-ZIP Unicode Path.
                var q = p + 46 + nameLength
                let extraEnd = q + extraLength
                while q + 4 <= extraEnd {
                    let id = try u16(q), length = try u16(q + 2)
                    let body = q + 4
                    guard length <= extraEnd - body else { break }   // a malformed tail: ignored, as zip tools do
                    if id == 0x0001 {
                        var f = body
                        func field(_ what: String) throws(ZipError) -> Int {
                            guard f + 8 <= body + length else {
                                throw ZipError("central directory: the ZIP64 extra field of '\(name)' lacks the \(what)")
                            }
                            defer { f += 8 }
                            return try int64(f, "ZIP64 \(what) of '\(name)'")
                        }
                        if uncompressed == 0xFFFF_FFFF { uncompressed = try field("uncompressed size") }
                        if compressed == 0xFFFF_FFFF { compressed = try field("compressed size") }
                        if offset == 0xFFFF_FFFF { offset = try field("local header offset") }
                    } else if id == 0x7075, length >= 5, bytes[body] == 1,
                              try u32(body + 1) == ZipArchive.crc32(rawName) {
                        let utf8 = Array(bytes[(body + 5)..<(body + length)])
                        let s = String(decoding: utf8, as: UTF8.self)
                        if s.utf8.elementsEqual(utf8) { name = s }
                    }
                    q = body + length
                }
                let (local, overflow) = offset.addingReportingOverflow(shift)
                guard !overflow, local >= 0, local < bytes.count else {
                    throw ZipError("central directory: local header offset \(offset) of '\(name)' lies outside the \(bytes.count)-byte archive")
                }
                entries.append(Entry(name: name, rawName: rawName, method: method, flags: flags, crc32: crc,
                                     compressedSize: compressed, uncompressedSize: uncompressed, localHeaderOffset: local))
                p = next
            }
            // Writers without ZIP64 store the count modulo 65,536.
            guard entries.count == d.count || (!d.isZip64 && entries.count % 65_536 == d.count) else {
                throw ZipError("central directory holds \(entries.count) entries, its end record says \(d.count)")
            }
            return entries
        }
    }
}
