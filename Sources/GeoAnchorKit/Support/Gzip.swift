import Foundation

/// gzip files (RFC 1952): how IGS and CDDIS distribute precise orbits, clocks and navigation
/// files (`…ORB.SP3.gz`, `…CLK.gz`, `brdc1180.21n.gz`), and how long NMEA or CSV logs are
/// archived. Decompressed whole, in pure Swift, with ``Inflate``.
///
/// Every member of a multi-member file (`cat a.gz b.gz`) is decompressed in order; each
/// member's header (optional extra field, name, comment, header CRC) is skipped and its
/// trailer checked: the CRC-32 and the size modulo 2³² of its data. Nothing traps on a corrupt
/// file: a ``ZipError`` names the problem and the byte offset.
package enum Gzip {
    /// The most decompressed bytes accepted by default: 1 GiB (a day of 1 Hz multi-GNSS RINEX
    /// observations is a few hundred MB; the cap stops a corrupted or hostile file).
    package static let defaultSizeLimit = 1 << 30

    /// True when `prefix` starts with gzip's magic bytes `1f 8b`.
    package static func looksLike<Bytes: Collection<UInt8>>(_ prefix: Bytes) -> Bool {
        var i = prefix.makeIterator()
        return i.next() == 0x1F && i.next() == 0x8B
    }

    /// The decompressed contents of a gzip file (all members, concatenated).
    /// - Throws: ``ZipError`` for a header that is not gzip's or uses another method than
    ///   deflate, a corrupt or truncated stream, a CRC-32 or size mismatch, or more than `limit`
    ///   bytes of output.
    package static func decompress(_ data: Data, limit: Int = defaultSizeLimit) throws(ZipError) -> [UInt8] {
        let result = data.withUnsafeBytes { raw in
            Result { () throws(ZipError) -> [UInt8] in try decompress(buffer: raw.bindMemory(to: UInt8.self), limit: limit) }
        }
        return try result.get()
    }

    package static func decompress(buffer b: UnsafeBufferPointer<UInt8>, limit: Int) throws(ZipError) -> [UInt8] {
        var out: [UInt8] = []
        var at = 0
        repeat {
            let start = at
            func need(_ n: Int, _ what: String) throws(ZipError) {
                guard n <= b.count - at else { throw ZipError("gzip member at byte \(start) is truncated in its \(what)") }
            }
            guard b.count - at >= 2, b[at] == 0x1F, b[at + 1] == 0x8B else {
                let shown = b[at..<Swift.min(b.count, at + 2)].map { String($0, radix: 16) }.joined(separator: " ")
                throw ZipError("not gzip data at byte \(at) (bytes \(shown), expected 1f 8b)")
            }
            try need(10, "header")
            guard b[at + 2] == 8 else { throw ZipError("gzip member at byte \(start): compression method \(b[at + 2]) is not deflate (8)") }
            let flags = b[at + 3]
            guard flags & 0xE0 == 0 else { throw ZipError("gzip member at byte \(start): reserved flag bits set (0x\(String(flags, radix: 16)))") }
            at += 10
            if flags & 4 != 0 {                                    // FEXTRA
                try need(2, "extra field length")
                let n = Int(b[at]) | Int(b[at + 1]) << 8
                at += 2
                try need(n, "extra field")
                at += n
            }
            for bit: UInt8 in [8, 16] where flags & bit != 0 {    // FNAME, FCOMMENT: zero-terminated
                while true {
                    try need(1, bit == 8 ? "file name" : "comment")
                    at += 1
                    if b[at - 1] == 0 { break }
                }
            }
            if flags & 2 != 0 { try need(2, "header CRC"); at += 2 } // FHCRC
            let room = limit - out.count
            let member: (output: [UInt8], consumed: Int)
            do {
                member = try Inflate.decompressPrefix(buffer: UnsafeBufferPointer(rebasing: b[at...]), limit: room)
            } catch {
                throw ZipError("gzip member at byte \(start): \(error.message)")
            }
            at += member.consumed
            try need(8, "trailer (CRC-32 and size)")
            func le32(_ i: Int) -> UInt32 { UInt32(b[i]) | UInt32(b[i + 1]) << 8 | UInt32(b[i + 2]) << 16 | UInt32(b[i + 3]) << 24 }
            let crc = ZipArchive.crc32(member.output), stored = le32(at)
            guard crc == stored else {
                throw ZipError("gzip member at byte \(start): CRC-32 \(ZipArchive.hex(crc)) of the data does not match the stored \(ZipArchive.hex(stored))")
            }
            let size = le32(at + 4)
            guard UInt32(truncatingIfNeeded: member.output.count) == size else {
                throw ZipError("gzip member at byte \(start): \(member.output.count) bytes decompressed, the trailer says \(size) (mod 2³²)")
            }
            at += 8
            out += member.output
            // Trailing zero bytes (tape-block padding some tools write) end the file.
        } while at < b.count && !(b[at...].allSatisfy { $0 == 0 })
        return out
    }
}
