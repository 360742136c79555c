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
///
/// **Courses** (`.fit` course files from Garmin Connect, Ride with GPS, Komoot or GPSBabel: a
/// route to follow) have `course_point` messages — the places a device announces in "Up Ahead" —
/// read by ``coursePoints(url:options:)`` as the stops of a tour or a route; their `record`s are
/// the path (``lines(url:options:)``).
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
        return try read(data: ByteLineReader.contents(of: url), source: url.path, options: options, onFix: onFix)
    }

    /// Reads FIT bytes in memory; `source` names them in errors.
    public static func read(data: Data, source: String, options: TraceReadConfiguration = TraceReadConfiguration(),
                            onFix: (Fix) throws -> Void) throws -> TraceReadSummary {
        try options.check(source: source)
        var summary = TraceReadSummary()
        try messages(data, source: source) { m, offset in
            switch m.global {
            case 20:
                guard let fix = try record(m, offset: offset, source: source, options: options, summary: &summary) else { return }
                try onFix(fix)
                summary.fixes += 1
            case 32: summary.waypoints += 1
            default: break
            }
        }
        return summary
    }

    /// The course points (`course_point`, global message 32) of a FIT file, in file order:
    /// `name` (field 6, whitespace trimmed; nil when empty), `timestamp` (field 1; optional),
    /// `position_lat`/`position_long` (2, 3) and `type` (5, as the FIT profile names it:
    /// `generic`, `summit`, `water`, `left`, `slight_right`, `toilet`, …; its number for one the
    /// profile does not name — ``GPXWaypoint/type``, with ``GPXWaypoint/isTurnInstruction`` for the
    /// turn cues). FIT course points have no altitude. A course point without a position (FIT's
    /// invalid value) is an error, as is one outside the ranges of a fix, unless
    /// ``TraceReadConfiguration/skipInvalid`` (then left out).
    /// - Throws: ``TraceFormatError`` naming the byte offset.
    public static func coursePoints(url: URL, options: TraceReadConfiguration = TraceReadConfiguration()) throws(TraceFormatError) -> [GPXWaypoint] {
        try TraceReader.typedReaderError(source: url.path) {
            try options.check(source: url.path)
            return try coursePoints(data: ByteLineReader.contents(of: url), source: url.path, options: options)
        }
    }

    /// ``coursePoints(url:options:)`` of FIT bytes in memory; `source` names them in errors.
    static func coursePoints(data: Data, source: String, options: TraceReadConfiguration) throws -> [GPXWaypoint] {
        var out: [GPXWaypoint] = []
        var summary = TraceReadSummary()
        try messages(data, source: source) { m, offset in
                guard m.global == 32 else { return }
                func fail(_ message: String) throws {
                    let e = TraceFormatError(source: source, line: nil, message: "at byte \(offset): course_point: \(message)")
                    if options.skipInvalid { summary.skip(e) } else { throw e }
                }
                guard let la = m.signed(2), let lo = m.signed(3) else { return try fail("no position") }
                let time = m.unsigned(1, invalid: 0xFFFF_FFFF).map { epoch + Double($0) }
                let p = Fix(time: time ?? 0, latitude: semicircles(la), longitude: semicircles(lo))
                if let problem = p.validationProblem { return try fail(problem) }
                let name = m.strings[6]?.trimmingCharacters(in: .whitespacesAndNewlines)
                out.append(GPXWaypoint(latitude: p.latitude, longitude: p.longitude, time: time,
                                       name: name?.isEmpty == false ? name : nil,
                                       type: m.unsigned(5, invalid: 0xFF).map { coursePointTypeName(Int($0)) }))
        }
        return out
    }

    /// The file's path: the `record` messages with a position, as one line per FIT file (a
    /// course has one; chained files give one line each), with their altitude as an MSL height
    /// where given (else 0 m above the ellipsoid: a horizontal position). Times are not needed.
    /// Files without positioned records give no line.
    /// - Throws: ``TraceFormatError`` naming the byte offset of a bad record or structure.
    public static func lines(url: URL, options: TraceReadConfiguration = TraceReadConfiguration()) throws(TraceFormatError) -> [[GeodeticCoordinate]] {
        try linePoints(url: url, options: options).map { $0.map(\.coordinate) }
    }

    /// The points of ``lines(url:options:)`` with whether each has an altitude.
    static func linePoints(url: URL, options: TraceReadConfiguration) throws(TraceFormatError) -> [[(coordinate: GeodeticCoordinate, hasHeight: Bool)]] {
        var lines: [[(coordinate: GeodeticCoordinate, hasHeight: Bool)]] = []
        _ = try TraceReader.typedReaderError(source: url.path) {
            try options.check(source: url.path)
            var summary = TraceReadSummary()
            var file = -1
            try messages(ByteLineReader.contents(of: url), source: url.path) { m, offset in
                if m.fileIndex != file { file = m.fileIndex; lines.append([]) }
                guard m.global == 20, let la = m.signed(0), let lo = m.signed(1) else { return }
                let h = altitude(m)
                let p = Fix(time: m.timestamp.map { epoch + Double($0) } ?? 0, latitude: semicircles(la), longitude: semicircles(lo))
                if let problem = p.validationProblem {
                    let e = TraceFormatError(source: url.path, line: nil, message: "at byte \(offset): record: \(problem)")
                    if options.skipInvalid { summary.skip(e); return }
                    throw e
                }
                lines[lines.count - 1].append((h.map { GeodeticCoordinate(latitude: p.latitude, longitude: p.longitude, altitude: $0) }
                                              ?? GeodeticCoordinate(latitude: p.latitude, longitude: p.longitude), h != nil))
            }
        }
        return lines.filter { !$0.isEmpty }
    }

    static func semicircles(_ v: Int32) -> Double { Double(v) * 180 / 2_147_483_648 }

    /// A record's `enhanced_altitude` (78) or `altitude` (2), m MSL (scale 5, offset 500).
    static func altitude(_ m: Message) -> Double? {
        (m.unsigned(78, invalid: 0xFFFF_FFFF) ?? m.unsigned(2, invalid: 0xFFFF)).map { (Double($0) - 2500) / 5 }
    }

    /// A `record` message (global 20) as a fix: nil (counted) without a position or a time; a
    /// fix out of range throws (or with skipInvalid is counted and nil).
    static func record(_ m: Message, offset: Int, source: String, options: TraceReadConfiguration,
                       summary: inout TraceReadSummary) throws -> Fix? {
        guard let la = m.signed(0), let lo = m.signed(1) else { summary.ignoredRecords += 1; return nil }
        guard let t = m.timestamp else { summary.ignoredRecords += 1; summary.untimedPoints += 1; return nil }
        var fix = Fix(time: epoch + Double(t), latitude: semicircles(la), longitude: semicircles(lo))
        if let h = altitude(m) { fix.height = h; fix.verticalReference = .meanSeaLevel }
        fix.speed = (m.unsigned(73, invalid: 0xFFFF_FFFF) ?? m.unsigned(6, invalid: 0xFFFF)).map { Double($0) / 1000 }
        if let problem = fix.validationProblem {
            let e = TraceFormatError(source: source, line: nil, message: "at byte \(offset): record: \(problem)")
            if options.skipInvalid { summary.skip(e); return nil }
            throw e
        }
        return fix
    }

    /// The FIT profile's names of the `course_point` types (0…53); a number without a name is
    /// given as its digits.
    static func coursePointTypeName(_ v: Int) -> String {
        let names = ["generic", "summit", "valley", "water", "food", "danger", "left", "right", "straight", "first_aid",
                     "fourth_category", "third_category", "second_category", "first_category", "hors_category", "sprint",
                     "left_fork", "right_fork", "middle_fork", "slight_left", "sharp_left", "slight_right", "sharp_right",
                     "u_turn", "segment_start", "segment_end", "", "campsite", "aid_station", "rest_area", "general_distance",
                     "service", "energy_gel", "sports_drink", "mile_marker", "checkpoint", "shelter", "meeting_spot",
                     "overlook", "toilet", "shower", "gear", "sharp_curve", "steep_incline", "tunnel", "bridge", "obstacle",
                     "crossing", "store", "transition", "navaid", "transport", "alert", "info"]
        return v < names.count && !names[v].isEmpty ? names[v] : String(v)
    }

    /// One data message: its global number, the first element of each numeric field (raw, FIT
    /// invalid values included), its string fields, and its time (field 253 or a compressed
    /// header); `fileIndex` counts chained files.
    struct Message {
        var global: UInt16
        var fileIndex: Int
        var numbers: [UInt8: (value: UInt64, width: Int)] = [:]
        var strings: [UInt8: String] = [:]
        var timestamp: UInt32?

        func unsigned(_ field: UInt8, invalid: UInt64) -> UInt64? {
            guard let v = numbers[field]?.value, v != invalid else { return nil }
            return v
        }
        /// A 32-bit signed field (semicircles), nil for FIT's invalid 0x7FFFFFFF.
        func signed(_ field: UInt8) -> Int32? {
            guard let n = numbers[field], n.width == 4, n.value != 0x7FFF_FFFF else { return nil }
            return Int32(truncatingIfNeeded: n.value)
        }
    }

    /// Every data message of the file and of files chained after it, with its byte offset.
    static func messages(_ data: Data, source: String, _ body: (Message, Int) throws -> Void) throws {
        let b = [UInt8](data)
        var start = 0
        var index = 0
        repeat {
            start = try readFile(b, from: start, fileIndex: index, source: source, body)
            index += 1
        } while start < b.count
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
    static func readFile(_ b: [UInt8], from start: Int, fileIndex: Int, source: String,
                         _ body: (Message, Int) throws -> Void) throws -> Int {
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
            func unsigned(_ f: Field, _ p: Int) -> (value: UInt64, width: Int)? {
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
                return (v, width)
            }
            var message = Message(global: def.global, fileIndex: fileIndex)
            var p = at
            for f in def.fields {
                defer { p += f.size }
                if f.baseType & 0x1F == 7 {
                    // A string: UTF-8, ends at the first NUL (or the field's end).
                    let bytes = b[p..<(p + f.size)]
                    let text = bytes.prefix { $0 != 0 }
                    message.strings[f.number] = String(decoding: text, as: UTF8.self)
                    continue
                }
                if let v = unsigned(f, p) { message.numbers[f.number] = v }
            }
            if let v = message.unsigned(253, invalid: 0xFFFF_FFFF) { message.timestamp = UInt32(truncatingIfNeeded: v) }
            at += size
            if let c = compressedOffset, let last = lastTimestamp {
                // Compressed header: the low 5 bits of the time, rolling over from the last timestamp.
                // (Wrapping: a corrupt timestamp near 2³² must not trap; the fix's time check refuses it.)
                let base = last & ~0x1F
                message.timestamp = c >= (last & 0x1F) ? base &+ c : base &+ c &+ 0x20
            } else if compressedOffset != nil {
                throw fail(recordStart, "compressed-timestamp header before any timestamp")
            }
            if let t = message.timestamp { lastTimestamp = t }
            try body(message, recordStart)
        }
        return end + 2
    }
}
