import Foundation

/// Unix `compress` files (`.Z`, adaptive LZW): how IGS and CDDIS archived observations, orbits
/// and navigation files until 2020 (`igs21553.sp3.Z`, `brdc1180.20n.Z`, `ssss0010.20d.Z`).
/// Decompressed whole, in pure Swift, exactly as (N)compress 4.2 reads them: codes of 9 bits
/// growing to the header's maximum (9–16), block mode's CLEAR code, and the codes read in
/// groups of eight of one width (a width change or CLEAR skips to the end of the group).
/// Nothing traps on a corrupt file: a ``ZipError`` names the problem and the code's position.
package enum UnixCompress {
    /// True when `prefix` starts with compress's magic bytes `1f 9d`.
    package static func looksLike<Bytes: Collection<UInt8>>(_ prefix: Bytes) -> Bool {
        var i = prefix.makeIterator()
        return i.next() == 0x1F && i.next() == 0x9D
    }

    /// The decompressed contents of a `.Z` file.
    /// - Throws: ``ZipError`` for a bad header, a code that refers past the dictionary, or more
    ///   than `limit` bytes of output.
    package static func decompress(_ data: Data, limit: Int = Gzip.defaultSizeLimit) throws(ZipError) -> [UInt8] {
        let b = [UInt8](data)
        guard b.count >= 3, looksLike(b) else { throw ZipError("not a compress (.Z) file: no 1f 9d signature") }
        let flags = b[2]
        let maxBits = Int(flags & 0x1F)
        let blockMode = flags & 0x80 != 0
        guard (9...16).contains(maxBits) else { throw ZipError("compress (.Z) header: maximum code width \(maxBits) bits is not in 9...16") }
        guard flags & 0x60 == 0 else { throw ZipError("compress (.Z) header: reserved flag bits set (0x\(String(flags, radix: 16)))") }
        let maxMaxCode = 1 << maxBits
        var prefix = [UInt16](repeating: 0, count: maxMaxCode)
        var suffix = [UInt8](repeating: 0, count: maxMaxCode)
        for i in 0..<256 { suffix[i] = UInt8(i) }
        var out: [UInt8] = []
        out.reserveCapacity(Swift.min(limit, b.count * 3))
        var stack: [UInt8] = []
        var bits = 9
        var maxCode = (1 << bits) - 1
        var free = blockMode ? 257 : 256
        var old = -1
        var last: UInt8 = 0
        let total = b.count * 8
        var pos = 24, segment = 24               // bit positions; a segment: codes of one width
        /// Skips to the end of the current group of eight codes (relative to the segment start).
        func align() {
            let g = bits * 8
            let used = pos - segment
            pos = segment + (used + g - 1) / g * g
            segment = pos
        }
        while true {
            if free > maxCode && bits < maxBits {
                align()
                bits += 1
                maxCode = bits == maxBits ? maxMaxCode : (1 << bits) - 1
            }
            guard pos + bits <= total else { break }
            // Read `bits` (≤ 16) bits, least significant first: at most 3 bytes from `pos`.
            let i = pos >> 3
            var w = UInt32(b[i])
            if i + 1 < b.count { w |= UInt32(b[i + 1]) << 8 }
            if i + 2 < b.count { w |= UInt32(b[i + 2]) << 16 }
            var code = Int((w >> UInt32(pos & 7)) & UInt32((1 << bits) - 1))
            pos += bits
            if old < 0 {
                guard code < 256 else { throw ZipError("compress (.Z) data: first code \(code) is not a literal") }
                last = UInt8(code); old = code
                out.append(last)
                continue
            }
            if code == 256 && blockMode {
                align()
                bits = 9; maxCode = (1 << bits) - 1
                free = 256                       // (N)compress: the next code adds the unused entry 256
                continue
            }
            let incoming = code
            stack.removeAll(keepingCapacity: true)
            if code >= free {
                guard code == free else {
                    throw ZipError("compress (.Z) data: code \(code) at bit \(pos - bits) is beyond the dictionary (\(free) entries)")
                }
                stack.append(last)
                code = old
            }
            while code >= 256 {
                stack.append(suffix[code])
                code = Int(prefix[code])
            }
            last = UInt8(code)
            stack.append(last)
            guard out.count + stack.count <= limit else { throw ZipError("decompressed data exceeds the limit of \(limit) bytes") }
            out.append(contentsOf: stack.reversed())
            if free < maxMaxCode {
                prefix[free] = UInt16(old); suffix[free] = last
                free += 1
            }
            old = incoming
        }
        return out
    }
}
