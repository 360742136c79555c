import Foundation

/// Streaming writer for traces in any ``TraceFormat``: fixes are formatted one at a time into a
/// 64 KiB buffer flushed to the destination, so memory does not depend on the trace length.
/// A class because it owns the output handle (closed by ``finish()``).
///
/// Heights per format:
/// - **CSV**: the vertical column is chosen from the first fix (`altitude` for MSL,
///   `ellipsoidal_height` otherwise) plus `geoid_separation`; later fixes in the other reference
///   are converted with their stated separation (an error if they have none).
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
    private var buffer = ""
    private var count = 0
    private var csvVertical: VerticalReference? = nil
    private var csvMode: CSVMode? = nil
    private var finished = false
    private let name: String
    private let jsonEncoder: JSONEncoder = {
        let e = JSONEncoder()
        e.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return e
    }()

    private enum CSVMode { case fixes, sensors }

    /// Writes to a file (created or truncated), or to stdout when `url` is nil.
    public init(url: URL?, format: TraceFormat) throws(TraceFormatError) {
        self.format = format
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
            if count == 0 { buffer += Self.gpxHeader }
            gpx(f)
        case .nmea: try nmea(f)
        case .geojson:
            let d: Data
            do { d = try jsonEncoder.encode(GeoJSONTrace.feature(f)) } catch {
                throw TraceFormatError(source: name, line: nil, message: "fix #\(count + 1) not written: \(error)")
            }
            buffer += count == 0 ? "{\"type\":\"FeatureCollection\",\"features\":[\n" : ",\n"
            buffer += String(decoding: d, as: UTF8.self)
        }
        count += 1
        if buffer.utf8.count >= 1 << 16 { try flush() }
    }

    /// Appends one sensor sample (CSV only: columns `time,sensor,x,y,z`).
    public func write(_ s: SensorSample) throws(TraceFormatError) {
        guard format == .csv else {
            throw TraceFormatError(source: name, line: nil, message: "sensor samples can only be written as CSV")
        }
        guard s.time >= Fix.earliestTime, s.time <= Fix.latestTime, s.x.isFinite, s.y.isFinite, s.z.isFinite else {
            throw TraceFormatError(source: name, line: nil, message: "sensor sample #\(count + 1) not written: time \(s.time) or value not finite/in range")
        }
        if csvMode == nil { csvMode = .sensors; buffer += "time,sensor,x,y,z\n" }
        guard csvMode == .sensors else {
            throw TraceFormatError(source: name, line: nil, message: "cannot mix fixes and sensor samples in one CSV")
        }
        buffer += "\(Self.timeString(s.time)),\(s.kind.rawValue),\(Self.num(s.x)),\(Self.num(s.y)),\(Self.num(s.z))\n"
        count += 1
        if buffer.utf8.count >= 1 << 16 { try flush() }
    }

    /// Writes the closing part of the document (GPX, GeoJSON), flushes and closes the output.
    /// - Throws: ``TraceFormatError`` when the destination cannot be written (full disk).
    public func finish() throws(TraceFormatError) {
        guard !finished else { return }
        switch format {
        case .gpx: buffer += (count == 0 ? Self.gpxHeader : "") + "</trkseg></trk>\n</gpx>\n"
        case .geojson: buffer += count == 0 ? "{\"type\":\"FeatureCollection\",\"features\":[]}\n" : "\n]}\n"
        case .csv: if csvMode == nil { buffer += Self.csvHeader(.ellipsoid) }
        case .nmea: break
        }
        finished = true
        try flush()
        do { try onFinish() } catch { throw TraceFormatError(source: name, line: nil, message: "cannot write: \(error.localizedDescription)") }
    }

    private func flush() throws(TraceFormatError) {
        guard !buffer.isEmpty else { return }
        defer { buffer.removeAll(keepingCapacity: true) }
        do { try sink(Data(buffer.utf8)) } catch let e as TraceFormatError { throw e } catch {
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
        if csvVertical == nil { csvVertical = f.height == nil ? .ellipsoid : f.verticalReference; buffer += Self.csvHeader(csvVertical!)
            if !extraCSVColumns.isEmpty { buffer.removeLast(); buffer += "," + extraCSVColumns.joined(separator: ",") + "\n" } }
        var h: Double? = nil
        if let fh = f.height {
            if f.verticalReference == csvVertical { h = fh }
            else if let n = f.geoidSeparation { h = csvVertical == .ellipsoid ? fh + n : fh - n }
            else {
                throw TraceFormatError(source: name, line: count + 2,
                    message: "fix at \(Self.timeString(f.time)) has a \(f.verticalReference.rawValue) height but the file uses \(csvVertical!.rawValue) and no geoid separation is known")
            }
        }
        var row = Self.timeString(f.time) + "," + Self.num(f.latitude) + "," + Self.num(f.longitude) + ","
        row += Self.num(h) + "," + Self.num(f.geoidSeparation) + "," + Self.num(f.horizontalAccuracy) + ","
        row += Self.num(f.verticalAccuracy) + "," + Self.num(f.speed) + "," + Self.num(f.course) + ","
        row += Self.num(f.heading) + "," + Self.num(f.headingAccuracy) + "," + (f.satellites.map(String.init) ?? "") + ","
        row += Self.num(f.hdop) + "," + Self.num(f.vdop) + "," + Self.num(f.pdop) + "," + (f.quality.map { String($0.rawValue) } ?? "")
        for i in extraCSVColumns.indices { row += "," + (i < pendingExtra.count ? pendingExtra[i] : "") }
        buffer += row + "\n"
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

    private func gpx(_ f: Fix) {
        var s = "<trkpt lat=\"\(Self.num(f.latitude))\" lon=\"\(Self.num(f.longitude))\">"
        if let (h, n) = Self.mslAndSeparation(f) {
            s += "<ele>\(Self.num(h))</ele>"
            s += "<time>\(Self.timeString(f.time))</time>"
            if let n { s += "<geoidheight>\(Self.num(n))</geoidheight>" }
        } else {
            s += "<time>\(Self.timeString(f.time))</time>"
        }
        if let q = f.quality {
            switch q {
            case .invalid: s += "<fix>none</fix>"
            case .differential, .rtkFixed, .rtkFloat: s += "<fix>dgps</fix>"
            case .pps: s += "<fix>pps</fix>"
            default: s += "<fix>3d</fix>"
            }
        }
        if let v = f.satellites { s += "<sat>\(v)</sat>" }
        if let v = f.hdop { s += "<hdop>\(Self.num(v))</hdop>" }
        if let v = f.vdop { s += "<vdop>\(Self.num(v))</vdop>" }
        if let v = f.pdop { s += "<pdop>\(Self.num(v))</pdop>" }
        if f.speed != nil || f.course != nil || f.horizontalAccuracy != nil || f.verticalAccuracy != nil || f.heading != nil {
            s += "<extensions>"
            if f.speed != nil || f.course != nil {
                s += "<gpxtpx:TrackPointExtension>"
                if let v = f.speed { s += "<gpxtpx:speed>\(Self.num(v))</gpxtpx:speed>" }
                if let v = f.course { s += "<gpxtpx:course>\(Self.num(v))</gpxtpx:course>" }
                s += "</gpxtpx:TrackPointExtension>"
            }
            if let v = f.horizontalAccuracy { s += "<gak:hacc>\(Self.num(v))</gak:hacc>" }
            if let v = f.verticalAccuracy { s += "<gak:vacc>\(Self.num(v))</gak:vacc>" }
            if let v = f.heading { s += "<gak:heading>\(Self.num(v))</gak:heading>" }
            s += "</extensions>"
        }
        s += "</trkpt>\n"
        buffer += s
    }

    // MARK: NMEA

    /// Years NMEA RMC's two-digit year can carry unambiguously (readers map 80…99 to 19xx, 00…79 to 20xx).
    public static let nmeaYears = 1980...2079

    private func nmea(_ f: Fix) throws(TraceFormatError) {
        // f.time is within the years 0001…9999 (validated), so these conversions cannot trap.
        let ms = Int((f.time * 1000).rounded())
        let days = Int((Double(ms) / 86_400_000).rounded(.down))
        let tod = ms - days * 86_400_000
        let (y, mo, d) = ByteParsing.civilFromDays(days)
        guard Self.nmeaYears.contains(y) else {
            throw TraceFormatError(source: name, line: nil,
                message: "fix #\(count + 1) at \(Self.timeString(f.time)): NMEA's two-digit year only covers \(Self.nmeaYears.lowerBound)…\(Self.nmeaYears.upperBound)")
        }
        let time = String(format: "%02d%02d%02d.%03d", tod / 3_600_000, (tod / 60_000) % 60, (tod / 1000) % 60, tod % 1000)
        let lat = Self.ddmm(abs(f.latitude), degreeDigits: 2) + (f.latitude < 0 ? ",S" : ",N")
        let lon = Self.ddmm(abs(f.longitude), degreeDigits: 3) + (f.longitude < 0 ? ",W" : ",E")
        var alt = ",M,,M"
        if let (h, n) = Self.mslAndSeparation(f) {
            alt = String(format: "%.3f,M,", h) + (n.map { String(format: "%.3f", $0) } ?? "") + ",M"
        }
        let q = f.quality?.rawValue ?? 1
        let sats = f.satellites.map { String(format: "%02d", $0) } ?? ""
        let hdop = f.hdop.map { String(format: "%.2f", $0) } ?? ""
        buffer += Self.sentence("GPGGA,\(time),\(lat),\(lon),\(q),\(sats),\(hdop),\(alt),,")
        let knots = f.speed.map { String(format: "%.3f", $0 / NMEAParser.metersPerSecondPerKnot) } ?? ""
        let course = f.course.map { String(format: "%.2f", $0) } ?? ""
        let date = String(format: "%02d%02d%02d", d, mo, y % 100)
        buffer += Self.sentence("GPRMC,\(time),\(q == 0 ? "V" : "A"),\(lat),\(lon),\(knots),\(course),\(date),,,A")
        if f.horizontalAccuracy != nil || f.verticalAccuracy != nil {
            // σ_lat = σ_lon = hAcc/√2 so that √(σ_lat² + σ_lon²) = hAcc (the reader's DRMS rule).
            let s = f.horizontalAccuracy.map { String(format: "%.3f", $0 / 2.0.squareRoot()) } ?? ""
            let v = f.verticalAccuracy.map { String(format: "%.3f", $0) } ?? ""
            buffer += Self.sentence("GPGST,\(time),,,,,\(s),\(s),\(v)")
        }
        if let h = f.heading { buffer += Self.sentence(String(format: "GPHDT,%.2f,T", h)) }
    }

    static func ddmm(_ deg: Double, degreeDigits: Int) -> String {
        // Work in units of 1e-7 minutes to round once and carry into the degrees.
        let total = (deg * 60 * 10_000_000).rounded()
        let units = Int64(total)
        let perDeg: Int64 = 60 * 10_000_000
        let d = units / perDeg
        let rem = units % perDeg
        let minInt = rem / 10_000_000, minFrac = rem % 10_000_000
        return String(format: "%0\(degreeDigits)lld%02lld.%07lld", d, minInt, minFrac)
    }

    static func sentence(_ body: String) -> String {
        var x: UInt8 = 0
        for c in body.utf8 { x ^= c }
        return "$" + body + "*" + String(format: "%02X", x) + "\r\n"
    }
}

