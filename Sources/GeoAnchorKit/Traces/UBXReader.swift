import Foundation

/// Reader for u-blox UBX logs (`.ubx`: what u-center, RTKLIB's str2str and most u-blox loggers
/// record from an M8, M9, F9P or X20 receiver — the usual RTK ground truth of phone GNSS
/// studies). Binary; read whole, in pure Swift, per the u-blox interface descriptions (UBX frame:
/// `0xB5 0x62`, class, id, little-endian length, payload, 8-bit Fletcher checksum).
///
/// **Fixes** are the `NAV-PVT` messages (class 0x01, id 0x07; payload 92 bytes, 84 in protocol
/// versions before 15) with a fix: `gnssFixOK` set, `fixType` 2 (2D), 3 (3D) or 4 (GNSS + dead
/// reckoning), `validDate` and `validTime` set and `invalidLlh` clear. Their time is the UTC
/// date and time fields plus `nano` (ns, may be negative); position `lat`/`lon` (1e-7°);
/// `height` above the WGS84 ellipsoid with `hMSL` giving the geoid separation (mm); `hAcc`,
/// `vAcc` (mm: u-blox's accuracy estimates, taken as the 68 % values); `gSpeed` (mm/s),
/// `headMot` (1e-5°) as the course; `numSV`; `pDOP` (0.01); the quality from `carrSoln` (RTK
/// fixed, RTK float), else `diffSoln` (differential), else GPS (dead-reckoning-only fixes,
/// `fixType` 1, are not fixes). NAV-PVTs without a fix are counted in
/// ``TraceReadSummary/ignoredRecords``; other UBX messages (NAV-SAT, RXM-RAWX, …) are read
/// past — the raw measurements of RXM-RAWX are ``UBXRawLog``'s.
///
/// u-blox receivers interleave NMEA sentences with UBX, the same fixes again: they are read
/// past too, and when the log has no NAV-PVT at all they are its fixes (through ``NMEAParser``). A frame whose
/// checksum does not match, or a log cut inside a frame, is a ``TraceFormatError`` naming the
/// byte offset — or, with ``TraceReadConfiguration/skipInvalid``, skipped and counted.
public enum UBXReader {
    /// Reads a UBX log's fixes.
    /// - Throws: ``TraceFormatError`` naming the byte offset; whatever `onFix` throws.
    public static func read(url: URL, options: TraceReadConfiguration = TraceReadConfiguration(),
                            onFix: (Fix) throws -> Void) throws -> TraceReadSummary {
        try options.check(source: url.path)
        return try read(data: ByteLineReader.contents(of: url), source: url.path, options: options, onFix: onFix)
    }

    /// Reads UBX bytes in memory; `source` names them in errors.
    public static func read(data: Data, source: String, options: TraceReadConfiguration = TraceReadConfiguration(),
                            onFix: (Fix) throws -> Void) throws -> TraceReadSummary {
        try options.check(source: source)
        let b = [UInt8](data)
        var summary = TraceReadSummary()
        var navPVT = 0
        var nmea: [(text: [UInt8], offset: Int)] = []
        func fail(_ at: Int, _ m: String) throws {
            let e = TraceFormatError(source: source, line: nil, message: "at byte \(at): \(m)")
            if options.skipInvalid { summary.skip(e) } else { throw e }
        }
        try scan(b, fail: { at, m, _ in try fail(at, m) }, text: { nmea.append(($0, $1)) }) { frame in
            guard frame.cls == 0x01, frame.id == 0x07 else { return }
            navPVT += 1
            guard frame.length >= 84 else { try fail(frame.offset, "NAV-PVT of \(frame.length) bytes (84 or 92 expected)"); return }
            switch navPVTFix(b, frame.payload, frame.length) {
            case .none: summary.ignoredRecords += 1
            case .invalid(let m): try fail(frame.offset, "NAV-PVT: " + m)
            case .fix(let f):
                try onFix(f)
                summary.fixes += 1
            }
        }
        if navPVT == 0 && !nmea.isEmpty {
            // A log of NMEA sentences (NAV-PVT not enabled): those are the fixes.
            var parser = NMEAParser(source: source, options: options)
            var out: [Fix] = []
            for (k, s) in nmea.enumerated() {
                try s.text.withUnsafeBufferPointer { try parser.parse(line: $0, lineNumber: k + 1, into: &out) }
                for f in out { try onFix(f); summary.fixes += 1 }
                out.removeAll(keepingCapacity: true)
            }
            try parser.finish(into: &out)
            for f in out { try onFix(f); summary.fixes += 1 }
        }
        return summary
    }

    /// One UBX frame whose checksum matched: class, id, the payload's first byte index and
    /// length, and the frame's byte offset in the log.
    struct Frame { let cls: UInt8, id: UInt8, payload: Int, length: Int, offset: Int }

    /// What ``scan(_:fail:text:frame:)`` met: a frame whose checksum does not match (the walk goes
    /// on), or a log cut inside a frame (the walk ends).
    enum Damage { case checksum, truncated }

    /// The little-endian fields (U1, U2, U4, I4, R4, R8) of a payload starting at byte `p` of `b`,
    /// by their offset in the payload.
    struct Fields {
        let b: [UInt8], p: Int
        func u1(_ o: Int) -> Int { Int(b[p + o]) }
        func u2(_ o: Int) -> Int { Int(b[p + o]) | Int(b[p + o + 1]) << 8 }
        func u4(_ o: Int) -> Int { u2(o) | u2(o + 2) << 16 }
        func i4(_ o: Int) -> Int { Int(Int32(truncatingIfNeeded: UInt32(u4(o)))) }
        func r4(_ o: Int) -> Double { Double(Float(bitPattern: UInt32(u4(o)))) }
        func r8(_ o: Int) -> Double { Double(bitPattern: UInt64(u4(o)) | UInt64(u4(o + 4)) << 32) }
    }

    /// The 8-bit Fletcher checksum (CK_A, CK_B) of the frame at `at` whose payload is `length`
    /// bytes: over class, id, length and payload (u-blox protocol § "UBX checksum"). The caller
    /// has checked that the frame's bytes are in `b`.
    static func checksum(_ b: [UInt8], frameAt at: Int, length: Int) -> (UInt8, UInt8) {
        var ckA: UInt8 = 0, ckB: UInt8 = 0
        for k in (at + 2)..<(at + 6 + length) { ckA &+= b[k]; ckB &+= ckA }
        return (ckA, ckB)
    }

    /// Walks a UBX log: `frame` for each frame whose Fletcher checksum matches, `text` for each
    /// line of the bytes between frames that starts with `$` (an NMEA sentence) with its
    /// offset, `fail` (byte offset, message, ``Damage``) for a frame whose checksum does not match
    /// (the walk resynchronises on the next sync word) or a log cut inside a frame (the walk ends).
    static func scan<E: Error>(_ b: [UInt8], fail: (Int, String, Damage) throws(E) -> Void, text: ([UInt8], Int) -> Void,
                               frame: (Frame) throws(E) -> Void) throws(E) {
        var at = 0
        while at < b.count {
            guard b[at] == 0xB5, at + 1 < b.count, b[at + 1] == 0x62 else {
                // Not a UBX frame: an NMEA sentence (kept), or bytes up to the next sync.
                var end = at + 1
                while end < b.count, !(b[end] == 0xB5 && end + 1 < b.count && b[end + 1] == 0x62) { end += 1 }
                if end == b.count, b[at] == 0xB5, end - at == 1 { try fail(at, "log ends inside a UBX frame header", .truncated); return }
                var start = at
                while start < end {
                    let lineEnd = b[start..<end].firstIndex { $0 == 0x0A || $0 == 0x0D } ?? end
                    if b[start] == UInt8(ascii: "$") { text(Array(b[start..<lineEnd]), start) }
                    start = lineEnd + 1
                }
                at = end
                continue
            }
            guard b.count - at >= 8 else { try fail(at, "log ends inside a UBX frame header", .truncated); return }
            let cls = b[at + 2], id = b[at + 3]
            let length = Int(b[at + 4]) | Int(b[at + 5]) << 8
            guard b.count - at - 8 >= length else {
                try fail(at, "log ends inside a UBX frame (class 0x\(hex(cls)), id 0x\(hex(id)): \(length) payload bytes announced, \(b.count - at - 8) left)", .truncated)
                return
            }
            let (ckA, ckB) = checksum(b, frameAt: at, length: length)
            guard ckA == b[at + 6 + length], ckB == b[at + 7 + length] else {
                try fail(at, "UBX checksum 0x\(hex(b[at + 6 + length]))\(hex(b[at + 7 + length])) does not match the frame's 0x\(hex(ckA))\(hex(ckB))", .checksum)
                at += 2   // resynchronise on the next sync word
                continue
            }
            try frame(Frame(cls: cls, id: id, payload: at + 6, length: length, offset: at))
            at += 8 + length
        }
    }

    enum PVT { case none, invalid(String), fix(Fix) }

    /// The fix of a NAV-PVT payload at `p`.
    static func navPVTFix(_ b: [UInt8], _ p: Int, _ length: Int) -> PVT {
        let x = Fields(b: b, p: p)
        let valid = x.u1(11), fixType = x.u1(20), flags = x.u1(21)
        let invalidLlh = length >= 92 ? x.u1(78) & 1 != 0 : false
        guard flags & 1 != 0, (2...4).contains(fixType), valid & 0x3 == 0x3, !invalidLlh else { return .none }
        let year = x.u2(4), month = x.u1(6), day = x.u1(7), hour = x.u1(8), minute = x.u1(9), second = x.u1(10), nano = x.i4(16)
        guard (1...12).contains(month), day >= 1, day <= ByteParsing.daysInMonth(year: year, month: month),
              hour < 24, minute < 60, second <= 60, abs(nano) <= 1_000_000_000 else {
            return .invalid("UTC \(year)-\(month)-\(day) \(hour):\(minute):\(second) + \(nano) ns is not a time")
        }
        let days = ByteParsing.daysFromCivil(year: year, month: month, day: day)
        let t = Double(days * 86_400 + hour * 3600 + minute * 60 + second) + Double(nano) * 1e-9
        var f = Fix(time: t, latitude: Double(x.i4(28)) * 1e-7, longitude: Double(x.i4(24)) * 1e-7)
        let h = Double(x.i4(32)) / 1000, msl = Double(x.i4(36)) / 1000
        f.height = h; f.verticalReference = .ellipsoid; f.geoidSeparation = h - msl
        f.horizontalAccuracy = Double(x.u4(40)) / 1000
        f.verticalAccuracy = Double(x.u4(44)) / 1000
        f.speed = Double(x.i4(60)) / 1000
        f.course = Angle.normalizeHeading(Double(x.i4(64)) * 1e-5)
        f.satellites = x.u1(23)
        f.pdop = Double(x.u2(76)) / 100
        switch flags >> 6 {
        case 2: f.quality = .rtkFixed
        case 1: f.quality = .rtkFloat
        default: f.quality = flags & 2 != 0 ? .differential : .gps
        }
        if let problem = f.validationProblem { return .invalid(problem) }
        return .fix(f)
    }

    static func hex(_ v: UInt8) -> String { String(format: "%02X", v) }
}
