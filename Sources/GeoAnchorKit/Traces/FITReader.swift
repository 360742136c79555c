import Foundation

/// Reader for FIT (Garmin's Flexible and Interoperable Data Transfer): what Garmin, Wahoo,
/// Suunto and Coros watches and bike computers record, and what Strava and Garmin Connect give
/// as the original file. Binary; read whole, in pure Swift.
///
/// **Fixes** are the `record` messages (global message 20) with a position: `timestamp` (field
/// 253, seconds since 1989-12-31 00:00 UTC; also from compressed-timestamp headers),
/// `position_lat`/`position_long` (fields 0, 1: semicircles, 180°/2³¹ ≈ 8.4e-8° resolution),
/// `enhanced_altitude` (78) or `altitude` (2) as meters above mean sea level (scale 5, offset
/// 500: 0.2 m resolution; what Garmin devices record, GPS or barometric), `enhanced_speed` (73)
/// or `speed` (6, m/s). Records without a position (heart rate only, a lost signal: the FIT
/// invalid value) are counted in ``TraceReadSummary/ignoredRecords``; other messages (file id,
/// laps, events, sessions, device info) are read past. Definition messages of either byte
/// order, developer fields, compressed timestamps and chained FIT files are handled; the file's
/// CRC-16 is checked. A problem is a ``TraceFormatError`` naming the byte offset (a binary file
/// has no lines).
public enum FITReader {
    /// FIT's epoch, 1989-12-31 00:00:00 UTC, in Unix seconds.
    public static let epoch: Double = 631_065_600

    /// Reads a FIT file's fixes.
    /// - Throws: ``TraceFormatError`` for a file that is not FIT, is truncated or corrupt
    ///   (the offset named), or a fix out of range (unless ``TraceReadConfiguration/skipInvalid``);
    ///   whatever `onFix` throws.
    public static func read(url: URL, options: TraceReadConfiguration = TraceReadConfiguration(),
                            onFix: (Fix) throws -> Void) throws -> TraceReadSummary {
        try options.check(source: url.path)
        let data: Data
        if let unpacked = try ByteLineReader.decompressedContents(of: url) { data = unpacked } else {
            do { data = try Data(contentsOf: url) } catch {
                throw TraceFormatError(source: url.path, line: nil, message: "cannot read file")
            }
        }
        return try read(data: data, source: url.path, options: options, onFix: onFix)
    }

    /// Reads FIT bytes in memory; `source` names them in errors.
    public static func read(data: Data, source: String, options: TraceReadConfiguration = TraceReadConfiguration(),
                            onFix: (Fix) throws -> Void) throws -> TraceReadSummary {
        try options.check(source: source)
        let b = [UInt8](data)
        var summary = TraceReadSummary()
        var start = 0
        repeat {
            start = try readFile(b, from: start, source: source, options: options, summary: &summary, onFix: onFix)
        } while start < b.count
        return summary
    }

    /// One field of a definition: its number, size in bytes and base type.
    struct Field { var number: UInt8; var size: Int; var baseType: UInt8 }
    struct Definition { var global: UInt16; var bigEndian: Bool; var fields: [Field]; var developerBytes: Int }

    /// CRC-16 as FIT computes it (the reflected 0xA001 polynomial, CRC-16/ARC).
    static func crc16(_ b: ArraySlice<UInt8>) -> UInt16 {
        var crc: UInt16 = 0
        for byte in b {
            crc ^= UInt16(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xA001 : crc >> 1 }
        }
        return crc
    }

    /// Reads one FIT file (header, records, CRC) starting at `start`; returns where the next
    /// chained file starts.
    static func readFile(_ b: [UInt8], from start: Int, source: String, options: TraceReadConfiguration,
                         summary: inout TraceReadSummary, onFix: (Fix) throws -> Void) throws -> Int {
        func fail(_ at: Int, _ m: String) -> TraceFormatError { TraceFormatError(source: source, line: nil, message: "at byte \(at): \(m)") }
        guard b.count - start >= 12 else { throw fail(start, "not a FIT file: \(b.count - start) bytes, shorter than a FIT header") }
        let headerSize = Int(b[start])
        guard headerSize == 12 || headerSize == 14, b.count - start >= headerSize,
              b[start + 8] == 0x2E, b[start + 9] == 0x46, b[start + 10] == 0x49, b[start + 11] == 0x54 else {
            throw fail(start, "not a FIT file (no '.FIT' signature in a 12- or 14-byte header)")
        }
        let dataSize = Int(b[start + 4]) | Int(b[start + 5]) << 8 | Int(b[start + 6]) << 16 | Int(b[start + 7]) << 24
        let recordsStart = start + headerSize
        guard dataSize <= b.count - recordsStart - 2 else {
            throw fail(start, "the header announces \(dataSize) bytes of records, the file has \(Swift.max(0, b.count - recordsStart - 2)) before its CRC (truncated?)")
        }
        let end = recordsStart + dataSize
        let stored = UInt16(b[end]) | UInt16(b[end + 1]) << 8
        let crc = crc16(b[start..<end])
        guard stored == crc || stored == 0 else {
            throw fail(end, "file CRC 0x\(String(stored, radix: 16)) does not match the data's 0x\(String(crc, radix: 16))")
        }
        var definitions = [Definition?](repeating: nil, count: 16)
        var lastTimestamp: UInt32? = nil
        var at = recordsStart
        while at < end {
            let recordStart = at
            let header = b[at]
            at += 1
            var local: Int
            var compressedOffset: UInt32? = nil
            if header & 0x80 != 0 {
                local = Int((header >> 5) & 0x3)
                compressedOffset = UInt32(header & 0x1F)
            } else {
                local = Int(header & 0x0F)
                if header & 0x40 != 0 {
                    // Definition message.
                    guard end - at >= 5 else { throw fail(recordStart, "definition message truncated") }
                    let bigEndian = b[at + 1] == 1
                    guard b[at + 1] <= 1 else { throw fail(at + 1, "architecture \(b[at + 1]) is neither 0 (little-endian) nor 1 (big-endian)") }
                    let global = bigEndian ? UInt16(b[at + 2]) << 8 | UInt16(b[at + 3]) : UInt16(b[at + 3]) << 8 | UInt16(b[at + 2])
                    let n = Int(b[at + 4])
                    at += 5
                    guard end - at >= 3 * n else { throw fail(recordStart, "definition of \(n) fields truncated") }
                    var fields: [Field] = []
                    for k in 0..<n {
                        let size = Int(b[at + 3 * k + 1])
                        guard size > 0 else { throw fail(at + 3 * k, "field \(b[at + 3 * k]) of message \(global) has size 0") }
                        fields.append(Field(number: b[at + 3 * k], size: size, baseType: b[at + 3 * k + 2]))
                    }
                    at += 3 * n
                    var developerBytes = 0
                    if header & 0x20 != 0 {
                        guard end - at >= 1 else { throw fail(recordStart, "developer field count truncated") }
                        let m = Int(b[at])
                        at += 1
                        guard end - at >= 3 * m else { throw fail(recordStart, "definition of \(m) developer fields truncated") }
                        for k in 0..<m { developerBytes += Int(b[at + 3 * k + 1]) }
                        at += 3 * m
                    }
                    definitions[local] = Definition(global: global, bigEndian: bigEndian, fields: fields, developerBytes: developerBytes)
                    continue
                }
            }
            // Data message.
            guard let def = definitions[local] else {
                throw fail(recordStart, "data message of local type \(local) before any definition of it")
            }
            let size = def.fields.reduce(0) { $0 + $1.size } + def.developerBytes
            guard end - at >= size else { throw fail(recordStart, "data message of \(size) bytes truncated") }
            func unsigned(_ f: Field, _ p: Int) -> UInt64? {
                // First element of the field, in the definition's byte order; nil for a size that
                // is not 1, 2, 4 or 8 bytes per element of a numeric base type.
                let width: Int
                switch f.baseType & 0x1F {
                case 0, 1, 2, 10, 13: width = 1
                case 3, 4, 11: width = 2
                case 5, 6, 12: width = 4
                case 14, 15, 16: width = 8
                default: return nil
                }
                guard f.size >= width else { return nil }
                var v: UInt64 = 0
                for k in 0..<width {
                    let byte = UInt64(b[p + (def.bigEndian ? k : width - 1 - k)])
                    v = v << 8 | byte
                }
                return v
            }
            var timestamp: UInt32? = nil, lat: Int32? = nil, lon: Int32? = nil
            var altitude: Double? = nil, enhancedAltitude: Double? = nil, speed: Double? = nil, enhancedSpeed: Double? = nil
            var p = at
            for f in def.fields {
                defer { p += f.size }
                guard let v = unsigned(f, p) else { continue }
                switch f.number {
                case 253 where v != 0xFFFF_FFFF: timestamp = UInt32(truncatingIfNeeded: v)
                case 0 where def.global == 20 && v != 0x7FFF_FFFF: lat = Int32(truncatingIfNeeded: v)
                case 1 where def.global == 20 && v != 0x7FFF_FFFF: lon = Int32(truncatingIfNeeded: v)
                case 2 where def.global == 20 && v != 0xFFFF: altitude = (Double(v) - 2500) / 5
                case 78 where def.global == 20 && v != 0xFFFF_FFFF: enhancedAltitude = (Double(v) - 2500) / 5
                case 6 where def.global == 20 && v != 0xFFFF: speed = Double(v) / 1000
                case 73 where def.global == 20 && v != 0xFFFF_FFFF: enhancedSpeed = Double(v) / 1000
                default: break
                }
            }
            at += size
            if let c = compressedOffset, let last = lastTimestamp {
                // Compressed header: the low 5 bits of the time, rolling over from the last timestamp.
                // (Wrapping: a corrupt timestamp near 2³² must not trap; the fix's time check refuses it.)
                let base = last & ~0x1F
                timestamp = c >= (last & 0x1F) ? base &+ c : base &+ c &+ 0x20
            } else if compressedOffset != nil {
                throw fail(recordStart, "compressed-timestamp header before any timestamp")
            }
            if let t = timestamp { lastTimestamp = t }
            guard def.global == 20 else { continue }
            guard let la = lat, let lo = lon else { summary.ignoredRecords += 1; continue }
            guard let t = timestamp else { summary.ignoredRecords += 1; summary.untimedPoints += 1; continue }
            var fix = Fix(time: epoch + Double(t), latitude: Double(la) * 180 / 2_147_483_648, longitude: Double(lo) * 180 / 2_147_483_648)
            if let h = enhancedAltitude ?? altitude { fix.height = h; fix.verticalReference = .meanSeaLevel }
            fix.speed = enhancedSpeed ?? speed
            if let problem = fix.validationProblem {
                let e = fail(recordStart, "record: \(problem)")
                if options.skipInvalid { summary.skip(e); continue }
                throw e
            }
            try onFix(fix)
            summary.fixes += 1
        }
        return end + 2
    }
}
