import Foundation

/// A streaming NMEA 0183 decoder: feed it one line at a time, collect merged ``Fix`` values.
///
/// Understood sentences (any two-letter talker: GP, GN, GL, GA, GB, BD, GQ, …): **GGA**, **RMC**,
/// **GNS** (position, quality, satellites, HDOP, height), **GLL** (position), **GSA** (fix mode, PDOP/HDOP/VDOP),
/// **GST** (error statistics → accuracy), **VTG** (course, speed), **HDT** (true heading),
/// **ZDA** (date). Other sentences (GSV, proprietary `$P…`, AIS `!…`) are counted in
/// ``TraceReadSummary/ignoredRecords``. Lines starting with `#` are comments (gpsd logs).
/// Android GnssLogger's `NMEA,<sentence>,<unix ms>` wrapper is unwrapped; the wrapper time
/// supplies the date when the sentences carry none.
///
/// **Epochs.** Sentences with the same UTC time of day form one epoch; untimed sentences (GSA,
/// VTG, HDT) join the current epoch. An epoch becomes a fix when the next epoch starts (or at
/// ``finish(into:)``), so a GGA and the RMC after it share one fix, and the RMC date is carried
/// to the GGA. Epochs without a date (GGA before any RMC/ZDA) are held back until a date
/// arrives; a change to an earlier time of day after the last dated epoch means midnight
/// passed. Epochs that report no fix (GGA quality 0, RMC status V, GNS mode N) produce no fix and
/// are counted as ignored records.
///
/// **Heights.** GGA/GNS give the height above mean sea level (field 9) and the geoid separation
/// N (field 11). The fix keeps both: `height` = MSL height with `verticalReference = .meanSeaLevel`
/// and `geoidSeparation` = N, so ``Fix/ellipsoidalHeight`` = H + N. Receivers that put the
/// ellipsoidal height in field 9 and report N = 0 (the GSDC 2020 chipset files) thereby also get
/// the right ellipsoidal height.
///
/// **Accuracy.** GST gives 1σ latitude/longitude/altitude errors; the fix's
/// `horizontalAccuracy` is √(σ_lat² + σ_lon²) (DRMS: 63–68 % of a 2-D Gaussian's mass lies
/// within it, the CoreLocation/Android convention) and `verticalAccuracy` is σ_alt.
///
/// **Validation.** A `*hh` checksum that does not match is an error, and so is a sentence
/// without a checksum after sentences with one (a truncated line); so are unparsable numbers,
/// latitude > 90° or minutes ≥ 60, longitude > 180°, hemisphere letters other than N/S/E/W,
/// impossible times and dates, and text that is not a sentence. Each error names the value and
/// the line; with ``TraceReadConfiguration/skipInvalid`` the line is skipped and counted.
public struct NMEAParser: Sendable {
    /// Name used in error messages.
    public let source: String
    public var options: TraceReadConfiguration
    /// Counts so far.
    public private(set) var summary = TraceReadSummary()

    /// Knots to m/s (1 kn = 1852 m / 3600 s, exact by definition).
    public static let metersPerSecondPerKnot = 1852.0 / 3600.0

    // Field boundaries of the current sentence (reused; no per-line allocation).
    private var fs = [Int](repeating: 0, count: 48)
    private var fe = [Int](repeating: 0, count: 48)
    private var nFields = 0

    private struct Epoch: Sendable {
        var tod: Int            // milliseconds of the UTC day
        var line: Int
        var lat: Double? = nil, lon: Double? = nil
        var positionFromGGA = false
        var ggaQuality: Int? = nil
        var rmcValid: Bool? = nil
        var gnsValid: Bool? = nil
        var gsaMode: Int? = nil
        var satellites: Int? = nil
        var hdop: Double? = nil, vdop: Double? = nil, pdop: Double? = nil
        var altitude: Double? = nil, separation: Double? = nil
        var speed: Double? = nil, course: Double? = nil, speedFromRMC = false
        var heading: Double? = nil
        var hAcc: Double? = nil, vAcc: Double? = nil
        var day: Int? = nil     // days since 1970 (RMC/ZDA)
        var wrapperMs: Int? = nil
        init(tod: Int, line: Int) { self.tod = tod; self.line = line }
    }

    private var pending: Epoch? = nil
    private var untimed = Epoch(tod: -1, line: 0) // GSA/VTG/HDT seen before any timed sentence
    private var hasUntimed = false
    private var lastDay: Int? = nil
    private var lastTod = 0
    private var undated: [Epoch] = []
    private var wrapperMs: Int? = nil
    private var sawChecksum = false

    /// At most this many epochs are held back waiting for a date (bounded memory).
    public static let maximumUndatedEpochs = 100_000

    public init(source: String, options: TraceReadConfiguration = TraceReadConfiguration()) {
        self.source = source
        self.options = options
    }

    /// Decodes one line. Completed fixes are appended to `out` (usually zero or one).
    /// - Throws: ``TraceFormatError`` for an invalid line unless ``TraceReadConfiguration/skipInvalid``;
    ///   on the first line, for invalid ``options`` (``TraceReadConfiguration/validate()``).
    public mutating func parse(line b: UnsafeBufferPointer<UInt8>, lineNumber: Int, into out: inout [Fix]) throws(TraceFormatError) {
        if summary.lines == 0 { try options.check(source: source) }
        summary.lines += 1
        if let msg = parseLine(b, lineNumber, &out) {
            let e = TraceFormatError(source: source, line: lineNumber, message: msg)
            if options.skipInvalid { summary.skip(e) } else { throw e }
        }
    }

    /// Convenience for tests and small inputs: decodes one line of text.
    public mutating func parse(line: String, lineNumber: Int, into out: inout [Fix]) throws(TraceFormatError) {
        var s = line
        let r: Result<Void, TraceFormatError> = s.withUTF8 { b in
            do throws(TraceFormatError) { try parse(line: b, lineNumber: lineNumber, into: &out); return .success(()) }
            catch { return .failure(error) }
        }
        try r.get()
    }

    /// Ends the input: emits the last epoch and any epochs still waiting for a date.
    /// - Throws: ``TraceFormatError`` with `isMissingDate` when fixes never got a date (no
    ///   RMC/ZDA/wrapper time and no ``TraceReadConfiguration/defaultDate``), also with `skipInvalid`;
    ///   for invalid ``options`` (``TraceReadConfiguration/validate()``: a default date outside
    ///   the years 0001–9999).
    public mutating func finish(into out: inout [Fix]) throws(TraceFormatError) {
        try options.check(source: source)
        flush(&out)
        if !undated.isEmpty {
            if let d = options.defaultDate {
                let day = Int((d / 86_400).rounded(.down))
                emitUndated(resolvedDay: day, nextTod: nil, &out)
            } else {
                // A file-level problem (the fixes are fine, the date is missing): thrown even
                // with skipInvalid, so callers can retry with a default date.
                throw TraceFormatError(source: source, line: undated[0].line,
                    message: "\(undated.count) fix(es) have a time of day but the file never states a date (no RMC or ZDA sentence); pass a default date", isMissingDate: true)
            }
        }
    }

    // MARK: - Line level

    /// Returns an error message, or nil when the line was fine (or ignorable).
    private mutating func parseLine(_ line: UnsafeBufferPointer<UInt8>, _ lineNo: Int, _ out: inout [Fix]) -> String? {
        var s = 0, n = line.count
        while n > s, line[n - 1] == 32 || line[n - 1] == 9 || line[n - 1] == 13 || line[n - 1] == 0 { n -= 1 }
        while s < n, line[s] == 32 || line[s] == 9 { s += 1 }
        if s == n { return nil }                       // blank
        let c0 = line[s]
        if c0 == 35 { return nil }                     // '#' comment
        if c0 == 33 { summary.ignoredRecords += 1; return nil } // '!' AIS encapsulation
        var wrapped: Int? = nil
        if c0 != 36 {                                  // not '$'
            // Android GnssLogger: NMEA,<sentence>,<unix ms>
            if n - s > 5, line[s] == 78, line[s + 1] == 77, line[s + 2] == 69, line[s + 3] == 65, line[s + 4] == 44 {
                s += 5
                guard s < n, line[s] == 36 else { return "GnssLogger NMEA record without a '$' sentence" }
                // Find the last comma: the unix milliseconds follow it.
                var k = n - 1
                while k > s, line[k] != 44 { k -= 1 }
                guard k > s, let ms = ByteParsing.unsigned(UnsafeBufferPointer(rebasing: line[(k + 1)..<n])) else {
                    return "GnssLogger NMEA record without a trailing unix-milliseconds field"
                }
                wrapped = ms
                n = k
            } else if gnssLoggerRecord(line, s, n) != nil {
                summary.ignoredRecords += 1
                return nil
            } else {
                return "not an NMEA sentence (expected '$'): \(preview(line, s, n))"
            }
        }
        // Checksum.
        var star = -1
        var x: UInt8 = 0
        var i = s + 1
        while i < n {
            let c = line[i]
            if c == 42 { star = i; break }
            if c < 32 || c > 126 { return "non-printable byte 0x\(String(c, radix: 16)) in sentence" }
            x ^= c
            i += 1
        }
        var bodyEnd = n
        if star >= 0 {
            guard star + 3 == n, let hi = hexValue(line[star + 1]), let lo = hexValue(line[star + 2]) else {
                return "malformed checksum '\(preview(line, star, n))' (expected *hh at the end)"
            }
            let given = hi << 4 | lo
            if given != x {
                return "checksum mismatch: sentence says \(hex2(given)), computed \(hex2(x))"
            }
            bodyEnd = star
        } else if options.requireChecksum {
            return "sentence has no checksum"
        } else if sawChecksum {
            // Receivers checksum all or nothing: a lone unchecksummed sentence after
            // checksummed ones is almost always a truncated line.
            return "sentence has no checksum although earlier ones do (truncated line?)"
        }
        if star >= 0 { sawChecksum = true }
        if let w = wrapped { wrapperMs = w }
        // Split fields.
        nFields = 0
        var fstart = s + 1
        var j = s + 1
        while j <= bodyEnd {
            if j == bodyEnd || line[j] == 44 {
                if nFields == fs.count { return "too many fields (more than \(fs.count))" }
                fs[nFields] = fstart; fe[nFields] = j; nFields += 1
                fstart = j + 1
            }
            j += 1
        }
        let addrLen = fe[0] - fs[0]
        guard addrLen >= 3 else { return "sentence address '\(preview(line, fs[0], fe[0]))' is too short" }
        let a = fs[0]
        if line[a] == 80 { summary.ignoredRecords += 1; return nil } // proprietary $P…
        guard addrLen == 5 else { summary.ignoredRecords += 1; return nil }
        let t0 = line[a + 2], t1 = line[a + 3], t2 = line[a + 4]
        switch (t0, t1, t2) {
        case (71, 71, 65): return gga(line, lineNo, &out)            // GGA
        case (82, 77, 67): return rmc(line, lineNo, &out)            // RMC
        case (71, 78, 83): return gns(line, lineNo, &out)            // GNS
        case (71, 83, 65): return gsa(line, lineNo)                  // GSA
        case (71, 83, 84): return gst(line, lineNo, &out)            // GST
        case (86, 84, 71): return vtg(line, lineNo)                  // VTG
        case (72, 68, 84): return hdt(line, lineNo)                  // HDT
        case (90, 68, 65): return zda(line, lineNo, &out)            // ZDA
        case (71, 76, 76): return gll(line, lineNo, &out)            // GLL
        default: summary.ignoredRecords += 1; return nil
        }
    }

    private static let gnssLoggerRecords: Set<String> = [
        "Raw", "Fix", "Status", "Accel", "Gyro", "Mag", "UncalAccel", "UncalGyro", "UncalMag",
        "OrientationDeg", "Agc", "GameRotationVector", "RotationVector", "Nav", "Pressure",
    ]

    private func gnssLoggerRecord(_ line: UnsafeBufferPointer<UInt8>, _ s: Int, _ n: Int) -> String? {
        var k = s
        while k < n, k - s < 24, line[k] != 44 { k += 1 }
        guard k < n, line[k] == 44 else { return nil }
        let name = String(decoding: UnsafeBufferPointer(rebasing: line[s..<k]), as: UTF8.self)
        return Self.gnssLoggerRecords.contains(name) ? name : nil
    }

    // MARK: - Fields

    @inline(__always)
    private func field(_ line: UnsafeBufferPointer<UInt8>, _ k: Int) -> UnsafeBufferPointer<UInt8> {
        guard k < nFields else { return UnsafeBufferPointer(start: nil, count: 0) }
        return UnsafeBufferPointer(rebasing: line[fs[k]..<fe[k]])
    }

    @inline(__always)
    private func isEmpty(_ line: UnsafeBufferPointer<UInt8>, _ k: Int) -> Bool { k >= nFields || fs[k] == fe[k] }

    /// Optional number: empty → nil (.success), garbage → failure message.
    private func number(_ line: UnsafeBufferPointer<UInt8>, _ k: Int, _ name: String) -> Result<Double?, FieldError> {
        if isEmpty(line, k) { return .success(nil) }
        guard let v = ByteParsing.decimal(field(line, k)) else {
            return .failure(FieldError("\(name) '\(text(line, k))' is not a number"))
        }
        return .success(v)
    }

    private struct FieldError: Error { var message: String; init(_ m: String) { message = m } }

    private func text(_ line: UnsafeBufferPointer<UInt8>, _ k: Int) -> String {
        String(decoding: field(line, k).prefix(40), as: UTF8.self)
    }

    /// Time of day `hhmmss[.sss]` → milliseconds.
    private func timeOfDay(_ line: UnsafeBufferPointer<UInt8>, _ k: Int) -> Result<Int?, FieldError> {
        if isEmpty(line, k) { return .success(nil) }
        let f = field(line, k)
        guard f.count >= 6 else { return .failure(FieldError("time '\(text(line, k))' is not hhmmss")) }
        for q in 0..<6 where !(f[q] >= 48 && f[q] <= 57) {
            return .failure(FieldError("time '\(text(line, k))' is not hhmmss"))
        }
        @inline(__always) func d(_ q: Int) -> Int { Int(f[q] &- 48) }
        let hh = d(0) * 10 + d(1), mm = d(2) * 10 + d(3), ss = d(4) * 10 + d(5)
        guard hh < 24, mm < 60, ss <= 60 else { return .failure(FieldError("impossible time of day '\(text(line, k))'")) }
        var ms = 0
        if f.count > 6 {
            guard f[6] == 46 else { return .failure(FieldError("time '\(text(line, k))' is not hhmmss.sss")) }
            var scale = 100
            for q in 7..<f.count {
                let c = f[q]
                guard c >= 48, c <= 57 else { return .failure(FieldError("time '\(text(line, k))' is not hhmmss.sss")) }
                if scale >= 1 { ms += Int(c - 48) * scale } else if scale == 0, c >= 53 { ms += 1 } // round at the 4th digit
                scale /= 10
                if scale == 0 && q + 1 < f.count { scale = 0 }
            }
        }
        return .success(((hh * 60 + mm) * 60 + ss) * 1000 + ms)
    }

    /// `ddmm.mmmm` + hemisphere → signed degrees.
    private func angle(_ line: UnsafeBufferPointer<UInt8>, _ k: Int, latitude: Bool) -> Result<Double?, FieldError> {
        let name = latitude ? "latitude" : "longitude"
        if isEmpty(line, k) && isEmpty(line, k + 1) { return .success(nil) }
        guard let v = ByteParsing.decimal(field(line, k)), v >= 0 else {
            return .failure(FieldError("\(name) '\(text(line, k))' is not ddmm.mmmm"))
        }
        let deg = (v / 100).rounded(.down)
        let minutes = v - deg * 100
        guard minutes < 60 else { return .failure(FieldError("\(name) '\(text(line, k))' has minutes ≥ 60")) }
        var value = deg + minutes / 60
        guard value <= (latitude ? 90 : 180) else {
            return .failure(FieldError("\(name) \(value) is outside [\(latitude ? "-90, 90" : "-180, 180")]"))
        }
        let h = field(line, k + 1)
        guard h.count == 1 else { return .failure(FieldError("\(name) hemisphere '\(text(line, k + 1))' is not \(latitude ? "N/S" : "E/W")")) }
        switch (latitude, h[0]) {
        case (true, 78), (false, 69): break
        case (true, 83), (false, 87): value = -value
        default: return .failure(FieldError("\(name) hemisphere '\(text(line, k + 1))' is not \(latitude ? "N/S" : "E/W")"))
        }
        return .success(value)
    }

    // MARK: - Epochs

    /// Starts or continues the epoch at `tod`.
    private mutating func epoch(tod: Int, line: Int, _ out: inout [Fix]) {
        if pending?.tod == tod { return }
        flush(&out)
        var e = Epoch(tod: tod, line: line)
        e.wrapperMs = wrapperMs
        if hasUntimed { merge(untimed, into: &e); hasUntimed = false; untimed = Epoch(tod: -1, line: 0) }
        pending = e
    }

    private func merge(_ u: Epoch, into e: inout Epoch) {
        if e.gsaMode == nil { e.gsaMode = u.gsaMode }
        if e.pdop == nil { e.pdop = u.pdop }
        if e.hdop == nil { e.hdop = u.hdop }
        if e.vdop == nil { e.vdop = u.vdop }
        if e.course == nil { e.course = u.course }
        if e.speed == nil { e.speed = u.speed }
        if e.heading == nil { e.heading = u.heading }
    }

    /// The epoch untimed sentences attach to.
    private mutating func withCurrent(_ body: (inout Epoch) -> Void) {
        if pending != nil { body(&pending!) } else { body(&untimed); hasUntimed = true }
    }

    private mutating func flush(_ out: inout [Fix]) {
        guard let e = pending else { return }
        pending = nil
        let valid: Bool
        if let q = e.ggaQuality { valid = q > 0 }
        else if let g = e.gnsValid { valid = g }
        else if let r = e.rmcValid { valid = r }
        else { valid = false }
        guard valid, e.lat != nil, e.lon != nil else { summary.ignoredRecords += 1; return }
        var day: Int? = e.day
        if day == nil, let w = e.wrapperMs {
            // The wrapper's unix time is within seconds of the fix: pick the day that puts the
            // time of day closest to it.
            let d0 = Int((Double(w) / 86_400_000).rounded(.down))
            var best = d0, bestDiff = Int.max
            for d in (d0 - 1)...(d0 + 1) {
                let diff = abs(d * 86_400_000 + e.tod - w)
                if diff < bestDiff { bestDiff = diff; best = d }
            }
            day = best
        }
        if day == nil, let ld = lastDay {
            day = e.tod + 43_200_000 < lastTod ? ld + 1 : ld // went back > 12 h: midnight passed
        }
        guard let resolved = day else {
            if undated.count >= Self.maximumUndatedEpochs {
                summary.skip(TraceFormatError(source: source, line: e.line,
                    message: "more than \(Self.maximumUndatedEpochs) fixes before any date; dropped"))
                return
            }
            undated.append(e)
            return
        }
        if !undated.isEmpty { emitUndated(resolvedDay: resolved, nextTod: e.tod, &out) }
        lastDay = resolved; lastTod = e.tod
        out.append(makeFix(e, day: resolved))
    }

    /// Dates held-back epochs backwards from the first dated one.
    private mutating func emitUndated(resolvedDay: Int, nextTod: Int?, _ out: inout [Fix]) {
        var days = [Int](repeating: resolvedDay, count: undated.count)
        var d = resolvedDay
        var next = nextTod
        for k in stride(from: undated.count - 1, through: 0, by: -1) {
            if let nt = next, undated[k].tod > nt + 43_200_000 { d -= 1 } // crossed midnight going back
            days[k] = d
            next = undated[k].tod
        }
        for k in 0..<undated.count { out.append(makeFix(undated[k], day: days[k])) }
        if nextTod == nil, let last = undated.last { lastDay = days[days.count - 1]; lastTod = last.tod }
        undated.removeAll(keepingCapacity: false)
    }

    private func makeFix(_ e: Epoch, day: Int) -> Fix {
        var q: FixQuality? = nil
        if let g = e.ggaQuality { q = FixQuality(rawValue: g) }
        return Fix(time: Double(day) * 86_400 + Double(e.tod) / 1000,
                   latitude: e.lat!, longitude: e.lon!,
                   height: e.altitude, verticalReference: .meanSeaLevel, geoidSeparation: e.separation,
                   horizontalAccuracy: e.hAcc, verticalAccuracy: e.vAcc,
                   speed: e.speed, course: e.course, heading: e.heading, headingAccuracy: nil,
                   quality: q, satellites: e.satellites, hdop: e.hdop, vdop: e.vdop, pdop: e.pdop)
    }

    // MARK: - Sentences

    private mutating func gga(_ l: UnsafeBufferPointer<UInt8>, _ lineNo: Int, _ out: inout [Fix]) -> String? {
        do throws(FieldError) {
            guard let tod = try timeOfDay(l, 1).get() else { summary.ignoredRecords += 1; return nil }
            let lat = try angle(l, 2, latitude: true).get()
            let lon = try angle(l, 4, latitude: false).get()
            var quality: Int? = nil
            if !isEmpty(l, 6) {
                guard let q = ByteParsing.unsigned(field(l, 6)) else { throw FieldError("fix quality '\(text(l, 6))' is not an integer") }
                quality = q
            }
            let sats = isEmpty(l, 7) ? nil : ByteParsing.unsigned(field(l, 7))
            if !isEmpty(l, 7) && sats == nil { throw FieldError("satellite count '\(text(l, 7))' is not an integer") }
            let hdop = try number(l, 8, "HDOP").get()
            let alt = try number(l, 9, "altitude").get()
            let sep = try number(l, 11, "geoid separation").get()
            if (lat == nil) != (lon == nil) { throw FieldError("latitude and longitude must both be present or both empty") }
            epoch(tod: tod, line: lineNo, &out)
            pending!.ggaQuality = quality ?? 0
            if let lat, let lon { pending!.lat = lat; pending!.lon = lon; pending!.positionFromGGA = true }
            if let sats { pending!.satellites = sats }
            if let hdop { pending!.hdop = hdop }
            if let alt { pending!.altitude = alt }
            if let sep { pending!.separation = sep }
            return nil
        } catch { return error.message }
    }

    private mutating func gns(_ l: UnsafeBufferPointer<UInt8>, _ lineNo: Int, _ out: inout [Fix]) -> String? {
        do throws(FieldError) {
            guard let tod = try timeOfDay(l, 1).get() else { summary.ignoredRecords += 1; return nil }
            let lat = try angle(l, 2, latitude: true).get()
            let lon = try angle(l, 4, latitude: false).get()
            let mode = field(l, 6)
            var anyFix = false
            for c in mode where c != 78 && c != 86 { anyFix = true } // not N (no fix) / V (invalid, NMEA 4.1)
            let sats = isEmpty(l, 7) ? nil : ByteParsing.unsigned(field(l, 7))
            let hdop = try number(l, 8, "HDOP").get()
            let alt = try number(l, 9, "altitude").get()
            let sep = try number(l, 10, "geoid separation").get()
            epoch(tod: tod, line: lineNo, &out)
            pending!.gnsValid = anyFix
            if let lat, let lon, !pending!.positionFromGGA { pending!.lat = lat; pending!.lon = lon; pending!.positionFromGGA = true }
            if let sats, pending!.satellites == nil { pending!.satellites = sats }
            if let hdop, pending!.hdop == nil { pending!.hdop = hdop }
            if let alt, pending!.altitude == nil { pending!.altitude = alt }
            if let sep, pending!.separation == nil { pending!.separation = sep }
            return nil
        } catch { return error.message }
    }

    private mutating func rmc(_ l: UnsafeBufferPointer<UInt8>, _ lineNo: Int, _ out: inout [Fix]) -> String? {
        do throws(FieldError) {
            guard let tod = try timeOfDay(l, 1).get() else { summary.ignoredRecords += 1; return nil }
            let status = field(l, 2)
            let valid = status.count == 1 && status[0] == 65 // 'A'
            if !(status.count == 1 && (status[0] == 65 || status[0] == 86)) {
                throw FieldError("RMC status '\(text(l, 2))' is not A or V")
            }
            let lat = try angle(l, 3, latitude: true).get()
            let lon = try angle(l, 5, latitude: false).get()
            let knots = try number(l, 7, "speed").get()
            let course = try number(l, 8, "course").get()
            var day: Int? = nil
            if !isEmpty(l, 9) {
                let f = field(l, 9)
                guard f.count == 6, let v = ByteParsing.unsigned(f) else { throw FieldError("date '\(text(l, 9))' is not ddmmyy") }
                let dd = v / 10_000, mo = (v / 100) % 100, yy = v % 100
                let year = yy < 80 ? 2000 + yy : 1900 + yy
                guard (1...12).contains(mo), dd >= 1, dd <= ByteParsing.daysInMonth(year: year, month: mo) else {
                    throw FieldError("impossible date '\(text(l, 9))' (day \(dd), month \(mo))")
                }
                day = ByteParsing.daysFromCivil(year: year, month: mo, day: dd)
            }
            if let k = knots, k < 0 { throw FieldError("speed \(k) is negative") }
            epoch(tod: tod, line: lineNo, &out)
            pending!.rmcValid = valid
            if let lat, let lon, !pending!.positionFromGGA { pending!.lat = lat; pending!.lon = lon }
            if let knots, valid { pending!.speed = knots * Self.metersPerSecondPerKnot; pending!.speedFromRMC = true }
            if let course, valid { pending!.course = Angle.normalizeHeading(course) }
            if let day { pending!.day = day }
            return nil
        } catch { return error.message }
    }

    private mutating func gll(_ l: UnsafeBufferPointer<UInt8>, _ lineNo: Int, _ out: inout [Fix]) -> String? {
        do throws(FieldError) {
            guard let tod = try timeOfDay(l, 5).get() else { summary.ignoredRecords += 1; return nil }
            let lat = try angle(l, 1, latitude: true).get()
            let lon = try angle(l, 3, latitude: false).get()
            let status = field(l, 6)
            guard status.count == 1, status[0] == 65 || status[0] == 86 else {
                throw FieldError("GLL status '\(text(l, 6))' is not A or V")
            }
            let valid = status[0] == 65 && !(field(l, 7).count == 1 && field(l, 7)[0] == 78)
            epoch(tod: tod, line: lineNo, &out)
            if pending!.rmcValid == nil { pending!.rmcValid = valid }
            if let lat, let lon, !pending!.positionFromGGA, pending!.lat == nil { pending!.lat = lat; pending!.lon = lon }
            return nil
        } catch { return error.message }
    }

    private mutating func gsa(_ l: UnsafeBufferPointer<UInt8>, _ lineNo: Int) -> String? {
        do throws(FieldError) {
            let mode = isEmpty(l, 2) ? nil : ByteParsing.unsigned(field(l, 2))
            if !isEmpty(l, 2), mode == nil || !(1...3).contains(mode!) { throw FieldError("GSA fix mode '\(text(l, 2))' is not 1, 2 or 3") }
            let pdop = try number(l, 15, "PDOP").get()
            let hdop = try number(l, 16, "HDOP").get()
            let vdop = try number(l, 17, "VDOP").get()
            withCurrent { e in
                if let mode { e.gsaMode = mode }
                if let pdop { e.pdop = pdop }
                if let hdop { e.hdop = hdop }
                if let vdop { e.vdop = vdop }
            }
            return nil
        } catch { return error.message }
    }

    private mutating func gst(_ l: UnsafeBufferPointer<UInt8>, _ lineNo: Int, _ out: inout [Fix]) -> String? {
        do throws(FieldError) {
            guard let tod = try timeOfDay(l, 1).get() else { summary.ignoredRecords += 1; return nil }
            let sLat = try number(l, 6, "latitude error").get()
            let sLon = try number(l, 7, "longitude error").get()
            let sAlt = try number(l, 8, "altitude error").get()
            for (v, n) in [(sLat, "latitude error"), (sLon, "longitude error"), (sAlt, "altitude error")] {
                if let v, v < 0 { throw FieldError("\(n) \(v) is negative") }
            }
            epoch(tod: tod, line: lineNo, &out)
            if let sLat, let sLon { pending!.hAcc = (sLat * sLat + sLon * sLon).squareRoot() }
            if let sAlt { pending!.vAcc = sAlt }
            return nil
        } catch { return error.message }
    }

    private mutating func vtg(_ l: UnsafeBufferPointer<UInt8>, _ lineNo: Int) -> String? {
        do throws(FieldError) {
            let course = try number(l, 1, "course").get()
            // NMEA 2.3+: "c,T,c,M,s,N,s,K,m"; speed in km/h in field 7.
            let kmh = try number(l, 7, "speed").get()
            if let k = kmh, k < 0 { throw FieldError("speed \(k) is negative") }
            withCurrent { e in
                if let course, e.course == nil { e.course = Angle.normalizeHeading(course) }
                if let kmh, !e.speedFromRMC { e.speed = kmh / 3.6 }
            }
            return nil
        } catch { return error.message }
    }

    private mutating func hdt(_ l: UnsafeBufferPointer<UInt8>, _ lineNo: Int) -> String? {
        do throws(FieldError) {
            guard let h = try number(l, 1, "heading").get() else { summary.ignoredRecords += 1; return nil }
            guard h >= 0, h <= 360 else { throw FieldError("heading \(h) is outside [0, 360]") }
            withCurrent { e in e.heading = Angle.normalizeHeading(h) }
            return nil
        } catch { return error.message }
    }

    private mutating func zda(_ l: UnsafeBufferPointer<UInt8>, _ lineNo: Int, _ out: inout [Fix]) -> String? {
        do throws(FieldError) {
            guard let tod = try timeOfDay(l, 1).get() else { summary.ignoredRecords += 1; return nil }
            guard !isEmpty(l, 2), !isEmpty(l, 3), !isEmpty(l, 4) else { summary.ignoredRecords += 1; return nil }
            guard let dd = ByteParsing.unsigned(field(l, 2)), let mo = ByteParsing.unsigned(field(l, 3)),
                  let yy = ByteParsing.unsigned(field(l, 4)) else {
                throw FieldError("ZDA date '\(text(l, 2))/\(text(l, 3))/\(text(l, 4))' is not numeric")
            }
            guard (1...12).contains(mo), dd >= 1, dd <= ByteParsing.daysInMonth(year: yy, month: mo), yy >= 1980 else {
                throw FieldError("impossible ZDA date \(yy)-\(mo)-\(dd)")
            }
            epoch(tod: tod, line: lineNo, &out)
            pending!.day = ByteParsing.daysFromCivil(year: yy, month: mo, day: dd)
            return nil
        } catch { return error.message }
    }

    // MARK: - Helpers

    @inline(__always)
    private func hexValue(_ c: UInt8) -> UInt8? {
        switch c {
        case 48...57: return c - 48
        case 65...70: return c - 55
        case 97...102: return c - 87
        default: return nil
        }
    }

    private func hex2(_ v: UInt8) -> String {
        let s = String(v, radix: 16, uppercase: true)
        return s.count == 1 ? "0" + s : s
    }

    private func preview(_ line: UnsafeBufferPointer<UInt8>, _ s: Int, _ n: Int) -> String {
        let bytes = line[s..<min(n, s + 40)]
        var out = ""
        for c in bytes { out += (c >= 32 && c < 127) ? String(UnicodeScalar(c)) : "\\x" + hex2(c) }
        return out + (n - s > 40 ? "…" : "")
    }
}
