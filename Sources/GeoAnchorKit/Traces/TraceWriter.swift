import Foundation

/// Streaming writer for traces in any ``TraceFormat``: fixes are formatted one at a time into a
/// 64 KiB buffer flushed to the destination, so memory does not depend on the trace length.
/// A class because it owns the output handle (closed by ``finish()``).
///
/// Heights per format:
/// - **CSV**: the vertical column is chosen from the first fix **that has a height** (`altitude`
///   for MSL, `ellipsoidal_height` otherwise) plus `geoid_separation`: rows before it (fixes
///   without a height, written with an empty cell) are held until it arrives, up to 1 MiB of
///   rows, after which — or when the trace has no height at all — the column is
///   `ellipsoidal_height`. Fixes without a height always get an empty cell; later fixes in the
///   other reference are converted with their stated separation (an error if they have none).
/// - **GPX**: `<ele>` is MSL; an ellipsoidal height with separation N is written as `ele = h − N`,
///   `geoidheight = N`; without N as `ele = h`, `geoidheight = 0` (the convention of the GSDC
///   chipset NMEA files), so reading it back gives the same ellipsoidal height.
/// - **NMEA**: GGA altitude/separation fields, same rule as GPX. Each fix becomes GGA + RMC
///   (+ GST for accuracies, + HDT for a heading), latitude/longitude with 7 decimals of minutes
///   (≈ 0.2 mm), time with milliseconds.
/// - **GeoJSON**: see ``GeoJSONTrace``.
public final class TraceWriter {
    public let format: TraceFormat
    private let sink: (Data) throws -> Void
    private let onFinish: () throws -> Void
    private var buffer: [UInt8] = []
    private var count = 0
    private var csvVertical: VerticalReference? = nil
    /// CSV rows written before the height column is known (fixes without a height).
    private var csvPending: [UInt8] = []
    private var csvMode: CSVMode? = nil
    private var finished = false
    private let name: String

    private enum CSVMode { case fixes, sensors }

    /// Writes to a file (created or truncated), or to stdout when `url` is nil.
    public init(url: URL?, format: TraceFormat) throws(TraceFormatError) {
        self.format = format
        if !TraceFormat.writable.contains(format) { throw Self.notWritten(format, url?.path ?? "<stdout>") }
        if let url {
            guard FileManager.default.createFile(atPath: url.path, contents: nil),
                  let h = FileHandle(forWritingAtPath: url.path) else {
                throw TraceFormatError(source: url.path, line: nil, message: "cannot create output file")
            }
            sink = { try h.write(contentsOf: $0) }
            onFinish = { try h.close() }
            name = url.path
        } else {
            let h = FileHandle.standardOutput
            sink = { try h.write(contentsOf: $0) }
            onFinish = {}
            name = "<stdout>"
        }
        buffer.reserveCapacity(1 << 16)
    }

    /// Writes through a closure (tests, network streams, geobench's checked output); an error
    /// the closure throws ends the write as a ``TraceFormatError`` naming `name`.
    public init(format: TraceFormat, name: String = "<sink>", sink: @escaping (Data) throws -> Void) {
        self.format = format
        self.sink = sink
        self.onFinish = {}
        self.name = name
    }

    deinit { if !finished { try? flush(); try? onFinish() } }

    /// Names of extra CSV columns written after the standard ones (set before the first fix;
    /// other formats ignore them). Values come from ``write(_:extra:)``.
    public var extraCSVColumns: [String] = []
    private var pendingExtra: [String] = []

    /// Appends one fix with values for ``extraCSVColumns`` (CSV only; missing values are empty).
    public func write(_ f: Fix, extra: [String]) throws(TraceFormatError) {
        pendingExtra = extra
        defer { pendingExtra = [] }
        try write(f)
    }

    /// The extra cells of the current row (`,value` per extra column), then its newline.
    private func endCSVRow(into out: inout [UInt8]) {
        for i in extraCSVColumns.indices {
            out.append(44)
            if i < pendingExtra.count { out.append(contentsOf: pendingExtra[i].utf8) }
        }
        out.append(10)
    }

    /// Appends one fix.
    /// - Throws: ``TraceFormatError`` for a fix the format cannot represent (CSV: a height in
    ///   the other vertical reference without a geoid separation; sensors and fixes mixed in one CSV;
    ///   NMEA: a year outside 1980…2079, which two-digit RMC years cannot tell apart), for a fix
    ///   the readers would reject (``Fix/validationProblem``: non-finite or negative accuracy, time
    ///   outside the years 0001…9999 …), or when the destination cannot be written.
    public func write(_ f: Fix) throws(TraceFormatError) {
        if let problem = f.validationProblem {
            throw TraceFormatError(source: name, line: nil, message: "fix #\(count + 1) not written: \(problem)")
        }
        switch format {
        case .csv: try csvFix(f)
        case .gpx:
            if count == 0 { buffer.append(contentsOf: Self.gpxHeader.utf8) }
            Self.gpx(f, into: &buffer)
        case .nmea:
            // f.time is within the years 0001…9999 (validated above), so this cannot trap.
            let y = ByteParsing.civilFromDays(Int((f.time / 86_400).rounded(.down))).0
            guard Self.nmeaYears.contains(y) else {
                throw TraceFormatError(source: name, line: nil,
                    message: "fix #\(count + 1) at \(Self.timeString(f.time)): NMEA's two-digit year only covers \(Self.nmeaYears.lowerBound)…\(Self.nmeaYears.upperBound)")
            }
            Self.nmea(f, into: &buffer)
        case .geojson:
            buffer.append(contentsOf: (count == 0 ? "{\"type\":\"FeatureCollection\",\"features\":[\n" : ",\n").utf8)
            Self.geojson(f, into: &buffer)
        case .kml, .fit, .tcx, .ubx: throw Self.notWritten(format, name)
        }
        count += 1
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// KML is read, not written (its altitudes are above mean sea level, with nowhere to carry a
    /// geoid separation: an ellipsoidal height could not be written honestly); FIT, TCX and UBX are read only.
    static func notWritten(_ format: TraceFormat, _ name: String) -> TraceFormatError {
        TraceFormatError(source: name, line: nil, message: format == .kml
            ? "KML output is not supported: write GPX (Google Earth opens it) or GeoJSON"
            : "\(format.rawValue.uppercased()) output is not supported: write GPX, GeoJSON, CSV or NMEA")
    }

    /// Years NMEA RMC's two-digit year can carry unambiguously (readers map 80…99 to 19xx, 00…79 to 20xx).
    public static let nmeaYears = 1980...2079

    /// Whether a sensors CSV gets the columns `bias_x,bias_y,bias_z` (the device's bias estimate
    /// of the `uncalibrated…` kinds, empty for the others). Set before the first sample; when
    /// false the columns are added anyway if the first sample has a bias.
    public var sensorBiasColumns = false

    /// Appends one sensor sample (CSV only: columns `time,sensor,x,y,z`, plus
    /// `bias_x,bias_y,bias_z` per ``sensorBiasColumns``).
    /// - Throws: ``TraceFormatError`` for a non-CSV format, fixes and samples mixed, or a sample
    ///   with a bias after a header written without bias columns.
    public func write(_ s: SensorSample) throws(TraceFormatError) {
        guard format == .csv else {
            throw TraceFormatError(source: name, line: nil, message: "sensor samples can only be written as CSV")
        }
        guard Fix.isUsableTime(s.time), s.x.isFinite, s.y.isFinite, s.z.isFinite,
              s.bias.map({ $0.x.isFinite && $0.y.isFinite && $0.z.isFinite }) ?? true else {
            throw TraceFormatError(source: name, line: nil, message: "sensor sample #\(count + 1) not written: time \(s.time) or value not finite/in range")
        }
        if csvMode == nil {
            csvMode = .sensors
            if s.bias != nil { sensorBiasColumns = true }
            buffer.append(contentsOf: (sensorBiasColumns ? "time,sensor,x,y,z,bias_x,bias_y,bias_z\n" : "time,sensor,x,y,z\n").utf8)
        }
        guard csvMode == .sensors else {
            throw TraceFormatError(source: name, line: nil, message: "cannot mix fixes and sensor samples in one CSV")
        }
        var row = "\(Self.timeString(s.time)),\(s.kind.rawValue),\(Self.num(s.x)),\(Self.num(s.y)),\(Self.num(s.z))"
        if sensorBiasColumns {
            if let b = s.bias { row += ",\(Self.num(b.x)),\(Self.num(b.y)),\(Self.num(b.z))\n" } else { row += ",,,\n" }
        } else if s.bias != nil {
            throw TraceFormatError(source: name, line: count + 2,
                message: "\(s.kind.rawValue) sample has a bias estimate but the CSV was started without bias columns (set sensorBiasColumns)")
        } else {
            row += "\n"
        }
        buffer.append(contentsOf: row.utf8)
        count += 1
        if buffer.count >= 1 << 16 { try flush() }
    }

    /// Writes the closing part of the document (GPX, GeoJSON), flushes and closes the output.
    /// - Throws: ``TraceFormatError`` when the destination cannot be written (full disk).
    public func finish() throws(TraceFormatError) {
        guard !finished else { return }
        switch format {
        case .gpx: buffer.append(contentsOf: ((count == 0 ? Self.gpxHeader : "") + "</trkseg></trk>\n</gpx>\n").utf8)
        case .geojson: buffer.append(contentsOf: (count == 0 ? "{\"type\":\"FeatureCollection\",\"features\":[]}\n" : "\n]}\n").utf8)
        case .csv:
            if csvMode == nil { buffer.append(contentsOf: Self.csvHeader(.ellipsoid).utf8) }
            else if csvMode == .fixes && csvVertical == nil { commitCSVHeader(.ellipsoid) }
        case .nmea, .kml, .fit, .tcx, .ubx: break
        }
        finished = true
        try flush()
        do { try onFinish() } catch { throw TraceFormatError(source: name, line: nil, message: "cannot write: \(error.localizedDescription)") }
    }

    private func flush() throws(TraceFormatError) {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        do { try sink(Data(buffer)) } catch let e as TraceFormatError { throw e } catch {
            throw TraceFormatError(source: name, line: nil, message: "cannot write: \(error.localizedDescription)")
        }
    }

    // MARK: - Formatting

    static func num(_ v: Double) -> String { v.description }
    static func num(_ v: Double?) -> String { v.map { $0.description } ?? "" }
    static func timeString(_ t: Double) -> String { ByteParsing.iso8601String(t, fractionDigits: 3) }

    static func csvHeader(_ v: VerticalReference) -> String {
        "time,latitude,longitude,\(v == .meanSeaLevel ? "altitude" : "ellipsoidal_height"),geoid_separation,horizontal_accuracy,vertical_accuracy,speed,course,heading,heading_accuracy,satellites,hdop,vdop,pdop,quality\n"
    }

    private func csvFix(_ f: Fix) throws(TraceFormatError) {
        if csvMode == nil { csvMode = .fixes }
        guard csvMode == .fixes else {
            throw TraceFormatError(source: name, line: nil, message: "cannot mix fixes and sensor samples in one CSV")
        }
        if csvVertical == nil, f.height != nil { commitCSVHeader(f.verticalReference) }
        var h: Double? = nil
        if let fh = f.height, let csvVertical {
            if f.verticalReference == csvVertical { h = fh }
            else if let n = f.geoidSeparation { h = csvVertical == .ellipsoid ? fh + n : fh - n }
            else {
                throw TraceFormatError(source: name, line: count + 2,
                    message: "fix at \(Self.timeString(f.time)) has a \(f.verticalReference.rawValue) height but the file uses \(csvVertical.rawValue) and no geoid separation is known")
            }
        }
        if csvVertical == nil {
            Self.csvRow(f, height: h, into: &csvPending)
            endCSVRow(into: &csvPending)
            if csvPending.count >= 1 << 20 { commitCSVHeader(.ellipsoid) }
        } else {
            Self.csvRow(f, height: h, into: &buffer)
            endCSVRow(into: &buffer)
        }
    }

    /// One CSV row in the column order of ``csvHeader(_:)``, empty cells for absent values,
    /// without its line end (``endCSVRow(into:)`` adds the extra cells and the newline).
    static func csvRow(_ f: Fix, height h: Double?, into out: inout [UInt8]) {
        func num(_ v: Double?) { if let v { out.append(contentsOf: v.description.utf8) }; out.append(44) }
        out.append(contentsOf: timeString(f.time).utf8); out.append(44)
        num(f.latitude); num(f.longitude); num(h); num(f.geoidSeparation); num(f.horizontalAccuracy)
        num(f.verticalAccuracy); num(f.speed); num(f.course); num(f.heading); num(f.headingAccuracy)
        if let v = f.satellites { out.append(contentsOf: String(v).utf8) }
        out.append(44)
        num(f.hdop); num(f.vdop); num(f.pdop)
        if let q = f.quality { out.append(contentsOf: String(q.rawValue).utf8) }
    }

    /// Fixes the CSV height column and writes the header and the rows held back so far.
    private func commitCSVHeader(_ v: VerticalReference) {
        csvVertical = v
        var header = Self.csvHeader(v)
        if !extraCSVColumns.isEmpty { header.removeLast(); header += "," + extraCSVColumns.joined(separator: ",") + "\n" }
        buffer.append(contentsOf: header.utf8)
        buffer.append(contentsOf: csvPending)
        csvPending = []
    }

    /// (MSL height, separation) for GPX/NMEA.
    static func mslAndSeparation(_ f: Fix) -> (Double, Double?)? {
        guard let h = f.height else { return nil }
        switch f.verticalReference {
        case .meanSeaLevel: return (h, f.geoidSeparation)
        case .ellipsoid:
            if let n = f.geoidSeparation { return (h - n, n) }
            return (h, 0)
        }
    }

    static let gpxHeader = """
    <?xml version="1.0" encoding="UTF-8"?>
    <gpx version="1.1" creator="GeoAnchorKit" xmlns="http://www.topografix.com/GPX/1/1" \
    xmlns:gpxtpx="http://www.garmin.com/xmlschemas/TrackPointExtension/v2" xmlns:gak="urn:geoanchorkit:gpx:1">
    <trk><trkseg>

    """

    /// One `<trkpt>`, written straight into the output bytes (numbers as `Double.description`).
    static func gpx(_ f: Fix, into out: inout [UInt8]) {
        func put(_ s: StaticString) { s.withUTF8Buffer { out.append(contentsOf: $0) } }
        func num(_ v: Double) { out.append(contentsOf: v.description.utf8) }
        func element(_ open: StaticString, _ v: Double?, _ close: StaticString) {
            guard let v else { return }
            put(open); num(v); put(close)
        }
        put("<trkpt lat=\""); num(f.latitude); put("\" lon=\""); num(f.longitude); put("\">")
        let height = mslAndSeparation(f)
        if let (h, _) = height { element("<ele>", h, "</ele>") }
        put("<time>"); out.append(contentsOf: timeString(f.time).utf8); put("</time>")
        if let (_, n) = height { element("<geoidheight>", n, "</geoidheight>") }
        if let q = f.quality {
            switch q {
            case .invalid: put("<fix>none</fix>")
            case .differential, .rtkFixed, .rtkFloat: put("<fix>dgps</fix>")
            case .pps: put("<fix>pps</fix>")
            default: put("<fix>3d</fix>")
            }
        }
        if let v = f.satellites { put("<sat>"); out.append(contentsOf: String(v).utf8); put("</sat>") }
        element("<hdop>", f.hdop, "</hdop>")
        element("<vdop>", f.vdop, "</vdop>")
        element("<pdop>", f.pdop, "</pdop>")
        if f.speed != nil || f.course != nil || f.horizontalAccuracy != nil || f.verticalAccuracy != nil || f.heading != nil {
            put("<extensions>")
            if f.speed != nil || f.course != nil {
                put("<gpxtpx:TrackPointExtension>")
                element("<gpxtpx:speed>", f.speed, "</gpxtpx:speed>")
                element("<gpxtpx:course>", f.course, "</gpxtpx:course>")
                put("</gpxtpx:TrackPointExtension>")
            }
            element("<gak:hacc>", f.horizontalAccuracy, "</gak:hacc>")
            element("<gak:vacc>", f.verticalAccuracy, "</gak:vacc>")
            element("<gak:heading>", f.heading, "</gak:heading>")
            put("</extensions>")
        }
        put("</trkpt>\n")
    }

    // MARK: GeoJSON

    /// One Point feature, byte-identical to `JSONEncoder` (sorted keys, no escaped slashes) of
    /// ``GeoJSONTrace/feature(_:)`` — checked in TraceWriterFastPathTests — written straight into
    /// the output bytes instead of through a dictionary and an encoder per fix (that was 10× the
    /// cost of a CSV row).
    static func geojson(_ f: Fix, into out: inout [UInt8]) {
        func put(_ s: StaticString) { s.withUTF8Buffer { out.append(contentsOf: $0) } }
        put("{\"geometry\":{\"coordinates\":[")
        appendJSON(&out, f.longitude); out.append(44); appendJSON(&out, f.latitude)
        if let h = f.ellipsoidalHeight { out.append(44); appendJSON(&out, h) }
        put("],\"type\":\"Point\"},\"properties\":{")
        // Keys in sorted order, as JSONEncoder's .sortedKeys writes them; a comma before every
        // member but the first (the byte before is then the properties' '{').
        func num(_ k: StaticString, _ v: Double?) {
            guard let v else { return }
            if out.last != 123 { out.append(44) }
            put(k); appendJSON(&out, v)
        }
        num("\"altitude\":", f.verticalReference == .meanSeaLevel ? f.height : nil)
        num("\"course\":", f.course)
        num("\"geoid_separation\":", f.geoidSeparation)
        num("\"hdop\":", f.hdop)
        num("\"heading\":", f.heading)
        num("\"heading_accuracy\":", f.headingAccuracy)
        num("\"horizontal_accuracy\":", f.horizontalAccuracy)
        num("\"pdop\":", f.pdop)
        num("\"quality\":", f.quality.map { Double($0.rawValue) })
        num("\"satellites\":", f.satellites.map(Double.init))
        num("\"speed\":", f.speed)
        if out.last != 123 { out.append(44) }
        put("\"time\":\""); out.append(contentsOf: timeString(f.time).utf8); out.append(34)
        num("\"vdop\":", f.vdop)
        num("\"vertical_accuracy\":", f.verticalAccuracy)
        put("},\"type\":\"Feature\"}")
    }

    /// A number as JSONEncoder writes it: Swift's shortest round-trip text without a trailing `.0`.
    static func appendJSON(_ out: inout [UInt8], _ v: Double) {
        var d = v.description
        d.withUTF8 { b in
            let n = b.count
            if n >= 2, b[n - 1] == 48, b[n - 2] == 46 {
                out.append(contentsOf: UnsafeBufferPointer(rebasing: b[0..<(n - 2)]))
            } else {
                out.append(contentsOf: b)
            }
        }
    }

    static func json(_ v: Double) -> String {
        var b: [UInt8] = []
        appendJSON(&b, v)
        return String(decoding: b, as: UTF8.self)
    }

    // MARK: NMEA

    /// GGA + RMC (+ GST, + HDT) for one fix, written straight into the output bytes.
    static func nmea(_ f: Fix, into out: inout [UInt8]) {
        func put(_ s: StaticString) { s.withUTF8Buffer { out.append(contentsOf: $0) } }
        let ms = Int((f.time * 1000).rounded())
        let days = Int((Double(ms) / 86_400_000).rounded(.down))
        let tod = ms - days * 86_400_000
        let (y, mo, d) = ByteParsing.civilFromDays(days)
        let q = f.quality?.rawValue ?? 1
        func time() {
            appendDigits(&out, tod / 3_600_000, 2); appendDigits(&out, (tod / 60_000) % 60, 2)
            appendDigits(&out, (tod / 1000) % 60, 2); out.append(46); appendDigits(&out, tod % 1000, 3)
        }
        func position() {
            appendDDMM(&out, abs(f.latitude), degreeDigits: 2); put(f.latitude < 0 ? ",S," : ",N,")
            appendDDMM(&out, abs(f.longitude), degreeDigits: 3); put(f.longitude < 0 ? ",W" : ",E")
        }
        func fixed(_ v: Double?, _ decimals: Int) { if let v { appendFixed(&out, v, decimals) } }
        // GGA
        var start = out.count
        put("$GPGGA,"); time(); out.append(44); position(); out.append(44)
        appendDigits(&out, q, 1); out.append(44)
        if let v = f.satellites {
            if v >= 0 { appendDigits(&out, v, 2) } else { out.append(contentsOf: String(format: "%02d", v).utf8) }
        }
        out.append(44); fixed(f.hdop, 2); out.append(44)
        if let (h, n) = mslAndSeparation(f) {
            appendFixed(&out, h, 3); put(",M,"); fixed(n, 3); put(",M")
        } else {
            put(",M,,M")
        }
        put(",,"); endSentence(&out, start)
        // RMC
        start = out.count
        put("$GPRMC,"); time(); put(q == 0 ? ",V," : ",A,"); position(); out.append(44)
        fixed(f.speed.map { $0 / NMEAParser.metersPerSecondPerKnot }, 3); out.append(44)
        fixed(f.course, 2); out.append(44)
        appendDigits(&out, d, 2); appendDigits(&out, mo, 2); appendDigits(&out, ((y % 100) + 100) % 100, 2)
        put(",,,A"); endSentence(&out, start)
        if f.horizontalAccuracy != nil || f.verticalAccuracy != nil {
            // σ_lat = σ_lon = hAcc/√2 so that √(σ_lat² + σ_lon²) = hAcc (the reader's DRMS rule).
            start = out.count
            put("$GPGST,"); time(); put(",,,,,")
            let sigma = f.horizontalAccuracy.map { $0 / 2.0.squareRoot() }
            fixed(sigma, 3); out.append(44); fixed(sigma, 3); out.append(44); fixed(f.verticalAccuracy, 3)
            endSentence(&out, start)
        }
        if let h = f.heading {
            start = out.count
            put("$GPHDT,"); appendFixed(&out, h, 2); put(",T"); endSentence(&out, start)
        }
    }

    /// Appends `*hh\r\n`, the XOR of the bytes between the `$` at `start` and the end.
    static func endSentence(_ out: inout [UInt8], _ start: Int) {
        var x: UInt8 = 0
        for i in (start + 1)..<out.count { x ^= out[i] }
        out.append(42); out.append(hexDigits[Int(x >> 4)]); out.append(hexDigits[Int(x & 15)]); out.append(13); out.append(10)
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    /// Appends `v` (≥ 0) in decimal with at least `width` digits, zero-padded (`%0wd`).
    static func appendDigits(_ out: inout [UInt8], _ v: Int, _ width: Int) {
        var tmp: (UInt64, UInt64, UInt64) = (0x3030_3030_3030_3030, 0x3030_3030_3030_3030, 0x3030_3030_3030_3030)
        withUnsafeMutableBytes(of: &tmp) { b in
            var v = v, i = 24
            repeat { i -= 1; b[i] = UInt8(48 + v % 10); v /= 10 } while v > 0 && i > 0
            let from = min(i, 24 - min(width, 24))
            out.append(contentsOf: UnsafeRawBufferPointer(rebasing: b[from..<24]))
        }
    }

    static func digits(_ s: inout String, _ v: Int, _ width: Int) {
        var b: [UInt8] = []
        appendDigits(&b, v, width)
        s += String(decoding: b, as: UTF8.self)
    }

    /// `String(format: "%.<decimals>f", v)` (0…6 decimals) without Foundation's formatter: the
    /// scaled value is rounded to an integer and printed; values whose scaled fraction lies within
    /// 1e-6 of a half (where the double rounding of `v × 10^d` could differ from printf's exact
    /// decimal rounding), huge or non-finite values go through `String(format:)`. Equality with
    /// `String(format:)` is checked in TraceWriterFastPathTests.
    static func appendFixed(_ out: inout [UInt8], _ v: Double, _ decimals: Int) {
        let scale = powersOfTen[decimals]
        let x = abs(v) * scale
        let r = x.rounded(.toNearestOrEven)
        guard x < 1e15, abs(abs(x - r) - 0.5) > 1e-6 else {
            out.append(contentsOf: String(format: "%.\(decimals)f", v).utf8)
            return
        }
        let n = Int(r)
        let p = Int(scale)
        if v.sign == .minus { out.append(45) }
        appendDigits(&out, n / p, 1)
        if decimals > 0 { out.append(46); appendDigits(&out, n % p, decimals) }
    }

    static func fixed(_ v: Double, _ decimals: Int) -> String {
        var b: [UInt8] = []
        appendFixed(&b, v, decimals)
        return String(decoding: b, as: UTF8.self)
    }

    private static let powersOfTen: [Double] = [1, 10, 100, 1000, 10_000, 100_000, 1_000_000]

    /// Degrees and minutes with 7 decimals (`DDMM.mmmmmmm`), rounded once in units of 1e-7 minute.
    static func appendDDMM(_ out: inout [UInt8], _ deg: Double, degreeDigits: Int) {
        let units = Int64((deg * 60 * 10_000_000).rounded())
        let perDeg: Int64 = 60 * 10_000_000
        let d = units / perDeg, rem = units % perDeg
        appendDigits(&out, Int(d), degreeDigits); appendDigits(&out, Int(rem / 10_000_000), 2)
        out.append(46); appendDigits(&out, Int(rem % 10_000_000), 7)
    }

    static func ddmm(_ deg: Double, degreeDigits: Int) -> String {
        var b: [UInt8] = []
        appendDDMM(&b, deg, degreeDigits: degreeDigits)
        return String(decoding: b, as: UTF8.self)
    }
}
