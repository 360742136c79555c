import Foundation

/// Which Android location provider's fixes a GnssLogger log yields.
public enum GnssLoggerProvider: String, Sendable, Hashable, CaseIterable {
    /// `Fix,GPS,…`: the GNSS chipset's own fix (`LocationManager.GPS_PROVIDER`).
    case gps
    /// `Fix,FLP,…`: the fused location provider (GNSS + Wi-Fi + cell + sensors).
    case fused
    /// `Fix,NLP,…`: the network location provider (Wi-Fi/cell).
    case network
    /// Every provider, interleaved in file order.
    case all

    /// The provider named in a `Fix` record (`GPS`, `FLP`, `NLP`; also `gps`, `fused`,
    /// `network`, case-insensitive); nil for anything else.
    public init?(recordName s: String) {
        switch s.lowercased() {
        case "gps": self = .gps
        case "flp", "fused": self = .fused
        case "nlp", "network": self = .network
        default: return nil
        }
    }
}

/// Streaming reader for Android **GnssLogger** logs (Google's GnssLogger app, versions 2 and
/// later; also the GSDC 2021–2023 `*_GnssLog.txt` / `gnss_log.txt` files).
///
/// A log is a text file of comma-separated records, one per line, whose first field names the
/// record type. Lines starting with `#` are comments; the header lines `# <Type>,<col>,<col>,…`
/// name each type's columns, and the reader takes the columns **by those names** (case-insensitive)
/// wherever a header names them, else from the default layouts below (the layouts of
/// GnssLogger v2.0 and v3.0, which agree on the leading columns):
///
/// - `Fix,Provider,LatitudeDegrees,LongitudeDegrees,AltitudeMeters,SpeedMps,AccuracyMeters,
///   BearingDegrees,UnixTimeMillis,SpeedAccuracyMps,BearingAccuracyDegrees[,elapsedRealtimeNanos,
///   VerticalAccuracyMeters,MockLocation,NumberOfUsedSignals,VerticalSpeedAccuracyMps,SolutionType]`
///   → a ``Fix``: `AltitudeMeters` is Android `Location.getAltitude()`, a height above the
///   **WGS84 ellipsoid** (`verticalReference = .ellipsoid`); `AccuracyMeters` the 68 % horizontal
///   radius (`horizontalAccuracy`); `VerticalAccuracyMeters` the 68 % vertical half-interval;
///   `SpeedMps`/`BearingDegrees` speed (m/s) and course (degrees from true north);
///   `UnixTimeMillis` the UTC time. Empty fields are nil. GnssLogger 1.4's (2016) header names
///   `Latitude`, `Longitude`, `Altitude`, `Speed`, `Accuracy`, `(UTC)TimeInMs` are read as the
///   same columns. Only the providers selected by
///   ``TraceReadConfiguration/provider`` are delivered; the others are counted in
///   ``TraceReadSummary/otherProviderFixes``.
/// - `Accel|Gyro|Mag,utcTimeMillis,elapsedRealtimeNanos,X,Y,Z` → ``SensorSample``s of kind
///   `.accelerometer` (m/s²), `.gyroscope` (rad/s), `.magnetometer` (µT, Android-calibrated).
/// - `UncalAccel|UncalGyro|UncalMag,utcTimeMillis,elapsedRealtimeNanos,X,Y,Z,BiasX,BiasY,BiasZ`
///   → `.uncalibratedAccelerometer`/`.uncalibratedGyroscope`/`.uncalibratedMagnetometer`
///   samples with the phone's bias estimate in ``SensorSample/bias``.
/// - `Raw` (GNSS measurements) records are checked for their time field and counted in
///   ``TraceReadSummary/rawMeasurements`` (processing them is the GNSS module's job).
/// - `NMEA,<sentence>,<unix ms>` records: when the log has no `Fix` record at all
///   (``FixSource/nmea``) its fixes come from these sentences through ``NMEAParser``;
///   otherwise they are counted as ignored records (the `Fix` records are the phone's own answer).
/// - Other types (`Status`, `Agc`, `Nav`, `OrientationDeg`, `GameRotationVector`, …) are counted
///   in ``TraceReadSummary/ignoredRecords``.
///
/// **Validation.** Every `Fix` and sensor record is checked whichever provider is selected
/// (numbers in the strict syntax of ``ByteParsing/decimal(_:fortranExponent:)``, latitude in [−90, 90], longitude
/// in [−180, 180], accuracies and speeds ≥ 0, field count equal to the header's): a bad record is a
/// ``TraceFormatError`` naming the file, line and value, or skipped and counted with
/// ``TraceReadConfiguration/skipInvalid``. Lines whose fields are all empty (a lone `,`, as in the GSDC
/// 2021 sample) count as blank.
public enum GnssLoggerReader {
    /// Where a log's position fixes come from.
    public enum FixSource: String, Sendable, Hashable {
        /// The `Fix` records (the phone's location providers).
        case fixRecords
        /// The wrapped `NMEA` sentences (logs recorded without `Fix` records).
        case nmea
    }

    /// Tells by content whether `url` is a GnssLogger log and where its fixes come from: nil
    /// for a plain NMEA file (its first record is a `$…` sentence) or an unreadable one.
    /// Reads the file up to its first `Fix` record (the whole file when there is none).
    public static func fixSource(of url: URL) -> FixSource? {
        guard let lines = try? ByteLineReader(url: url) else { return nil }
        return fixSource(of: lines)
    }

    /// ``fixSource(of:)-(URL)`` on a reader (consumed up to the first `Fix` record).
    static func fixSource(of lines: ByteLineReader) -> FixSource? {
        let sniff = Sniffer()
        _ = try? lines.forEachLine { b, _ in try sniff.line(b) }
        guard sniff.isLogger else { return nil }
        return sniff.hasFix ? .fixRecords : .nmea
    }

    private struct StopScan: Error {}

    private final class Sniffer {
        var isLogger = false, hasFix = false
        func line(_ b: UnsafeBufferPointer<UInt8>) throws {
            var s = 0
            while s < b.count, b[s] == 32 || b[s] == 9 { s += 1 }
            guard s < b.count else { return }
            if b[s] == 35 { // '#': "# Version: v3…" / "# Fix,Provider,…" mark a GnssLogger header
                if !isLogger, let name = headerType(b, s + 1) { isLogger = knownTypes.contains(name) || name == "Version" }
                return
            }
            if b[s] == 36 || b[s] == 33 { if !isLogger { throw StopScan() }; return } // '$' '!' plain NMEA
            let name = recordType(b, s)
            if name == "Fix" { isLogger = true; hasFix = true; throw StopScan() }
            if !name.isEmpty { isLogger = true }
        }
    }

    /// Reads a log. `fixSource` nil: decided from the file (``fixSource(of:)``).
    public static func read(url: URL, fixSource: FixSource? = nil, options: TraceReadConfiguration = TraceReadConfiguration(),
                            onFix: (Fix) throws -> Void,
                            onSensor: (SensorSample) throws -> Void = { _ in }) throws -> TraceReadSummary {
        let src = fixSource ?? Self.fixSource(of: url) ?? .fixRecords
        return try read(try ByteLineReader(url: url), fixSource: src, options: options, onFix: onFix, onSensor: onSensor)
    }

    /// Reads a log from a line reader (a file, stdin or bytes in memory).
    public static func read(_ reader: ByteLineReader, fixSource: FixSource, options: TraceReadConfiguration = TraceReadConfiguration(),
                            onFix: (Fix) throws -> Void,
                            onSensor: (SensorSample) throws -> Void = { _ in }) throws -> TraceReadSummary {
        try options.check(source: reader.source)
        let state = ReadState(source: reader.source, fixSource: fixSource, options: options)
        let lineCount = try reader.forEachLine { b, lineNo in
            try state.line(b, lineNo, onFix: onFix, onSensor: onSensor)
        }
        return try state.finish(lines: lineCount, onFix: onFix)
    }

    /// The state of one read (a class so the line callback can update it in place).
    final class ReadState {
        let source: String
        let fixSource: FixSource
        let options: TraceReadConfiguration
        var summary = TraceReadSummary()
        var nmea: NMEAParser
        var nmeaOut: [Fix] = []
        var headers: [String: [String: Int]] = [:]
        var headerCounts: [String: Int] = [:]
        var fixColumns = FixColumns(header: nil)
        var sensorColumns: [String: SensorColumns] = [:]
        var bounds: [Int] = []
        var anyRecord = false

        init(source: String, fixSource: FixSource, options: TraceReadConfiguration) {
            self.source = source; self.fixSource = fixSource; self.options = options
            nmea = NMEAParser(source: source, options: options)
            bounds.reserveCapacity(80)
        }

        func fail(_ line: Int, _ msg: String) throws {
            let e = TraceFormatError(source: source, line: line, message: msg)
            if options.skipInvalid { summary.skip(e) } else { throw e }
        }

        func header(_ b: UnsafeBufferPointer<UInt8>, _ s: Int) {
            // "# Type,Col,Col,…": the columns of one record type.
            guard let name = GnssLoggerReader.headerType(b, s + 1) else { return }
            var cols: [String: Int] = [:]
            let fields = String(decoding: UnsafeBufferPointer(rebasing: b[(s + 1)...]), as: UTF8.self)
                .split(separator: ",", omittingEmptySubsequences: false)
            for (i, f) in fields.enumerated() where i > 0 {
                let key = f.trimmingCharacters(in: .whitespaces).lowercased()
                if !key.isEmpty && cols[key] == nil { cols[key] = i }
            }
            headers[name] = cols
            headerCounts[name] = fields.count
            if name == "Fix" { fixColumns = FixColumns(header: cols) }
            if let layout = SensorLayout.all[name] { sensorColumns[name] = SensorColumns(layout, header: cols) }
        }

        func line(_ b: UnsafeBufferPointer<UInt8>, _ lineNo: Int,
                  onFix: (Fix) throws -> Void, onSensor: (SensorSample) throws -> Void) throws {
            var s = 0
            while s < b.count, b[s] == 32 || b[s] == 9 { s += 1 }
            guard s < b.count else { return }
            if b[s] == 35 { header(b, s); return }
            // Field boundaries (GnssLogger never quotes).
            bounds.removeAll(keepingCapacity: true)
            var a = s
            var allEmpty = true
            for i in s..<b.count where b[i] == 44 {
                bounds.append(a); bounds.append(i)
                if i > a { allEmpty = false }
                a = i + 1
            }
            var end = b.count
            while end > a, b[end - 1] == 32 || b[end - 1] == 9 || b[end - 1] == 13 { end -= 1 }
            bounds.append(a); bounds.append(end)
            if end > a { allEmpty = false }
            if allEmpty { return }
            anyRecord = true
            let record = Record(bytes: b, bounds: bounds)
            let type = GnssLoggerReader.recordType(b, s)
            if type == "NMEA" {
                if fixSource == .nmea {
                    try nmea.parse(line: b, lineNumber: lineNo, into: &nmeaOut)
                    for f in nmeaOut { try onFix(f); summary.fixes += 1 }
                    nmeaOut.removeAll(keepingCapacity: true)
                } else {
                    summary.ignoredRecords += 1
                }
                return
            }
            if let expected = headerCounts[type], record.count != expected,
               type == "Fix" || type == "Raw" || SensorLayout.all[type] != nil {
                try fail(lineNo, "\(type) record has \(record.count) field(s), its header line has \(expected)")
                return
            }
            do {
                switch type {
                case "Fix":
                    let (provider, fix) = try fixColumns.fix(record)
                    if fixSource == .nmea {
                        summary.ignoredRecords += 1
                    } else if options.provider == .all || provider == options.provider {
                        try onFix(fix); summary.fixes += 1
                    } else {
                        summary.otherProviderFixes += 1
                    }
                case "Raw":
                    let t = headers["Raw"]?["utctimemillis"] ?? 1
                    guard case .success(let v?) = CSVFields.number(record[t]), v >= 0 else {
                        throw RowError(message: "Raw record: utcTimeMillis '\(record.string(t).prefix(40))' is not a time")
                    }
                    summary.rawMeasurements += 1
                default:
                    if let layout = SensorLayout.all[type] {
                        let cols = sensorColumns[type] ?? SensorColumns(layout, header: nil)
                        try onSensor(try cols.sample(record))
                        summary.sensorSamples += 1
                    } else if type.isEmpty || !type.utf8.allSatisfy({ ($0 >= 65 && $0 <= 90) || ($0 >= 97 && $0 <= 122) || ($0 >= 48 && $0 <= 57) }) {
                        throw RowError(message: "not a GnssLogger record: '\(record.string(0).prefix(40))'")
                    } else {
                        summary.ignoredRecords += 1
                    }
                }
            } catch let e as RowError {
                try fail(lineNo, e.message)
            }
        }

        func finish(lines: Int, onFix: (Fix) throws -> Void) throws -> TraceReadSummary {
            if !anyRecord { throw TraceFormatError(source: source, line: nil, message: "empty file: no GnssLogger records") }
            if fixSource == .nmea {
                do { try nmea.finish(into: &nmeaOut) } catch {   // typed: TraceFormatError
                    if options.skipInvalid { summary.skip(error) } else { throw error }
                }
                for f in nmeaOut { try onFix(f); summary.fixes += 1 }
                let n = nmea.summary
                summary.ignoredRecords += n.ignoredRecords
                summary.skippedLines += n.skippedLines
                summary.firstSkipped = Array((summary.firstSkipped + n.firstSkipped).prefix(10))
            }
            summary.lines = lines
            return summary
        }
    }

    struct RowError: Error { var message: String }

    /// The record type: bytes from `s` up to the first comma.
    static func recordType(_ b: UnsafeBufferPointer<UInt8>, _ s: Int) -> String {
        var k = s
        while k < b.count, b[k] != 44 { k += 1 }
        return String(decoding: UnsafeBufferPointer(rebasing: b[s..<k]), as: UTF8.self).trimmingCharacters(in: .whitespaces)
    }

    /// The type named by a `# Type,Col,…` header line (or `Version` for `# Version: …`), nil for
    /// other comments.
    static func headerType(_ b: UnsafeBufferPointer<UInt8>, _ from: Int) -> String? {
        var s = from
        while s < b.count, b[s] == 32 || b[s] == 9 { s += 1 }
        var k = s
        while k < b.count, (b[k] >= 65 && b[k] <= 90) || (b[k] >= 97 && b[k] <= 122) { k += 1 }
        guard k > s, k < b.count else { return nil }
        let name = String(decoding: UnsafeBufferPointer(rebasing: b[s..<k]), as: UTF8.self)
        if b[k] == 58 && name == "Version" { return name }
        return b[k] == 44 ? name : nil
    }

    /// Record types whose `# Type,…` header line marks a file as a GnssLogger log.
    static let knownTypes: Set<String> = [
        "Fix", "Raw", "Status", "Nav", "Agc", "OrientationDeg", "NMEA",
        "Accel", "Gyro", "Mag", "UncalAccel", "UncalGyro", "UncalMag", "GameRotationVector", "RotationVector",
    ]

    /// One record's fields (byte ranges into the line).
    struct Record {
        let bytes: UnsafeBufferPointer<UInt8>
        let bounds: [Int]
        var count: Int { bounds.count / 2 }
        subscript(_ i: Int) -> UnsafeBufferPointer<UInt8> {
            guard i >= 0, i < count else { return UnsafeBufferPointer(start: nil, count: 0) }
            return UnsafeBufferPointer(rebasing: bytes[bounds[2 * i]..<bounds[2 * i + 1]])
        }
        func string(_ i: Int) -> String {
            String(decoding: self[i], as: UTF8.self).trimmingCharacters(in: .whitespaces)
        }
        /// A number or nil (empty); an error naming the column otherwise.
        func number(_ i: Int?, _ name: String) throws -> Double? {
            guard let i else { return nil }
            switch CSVFields.number(self[i]) {
            case .success(let v): return v
            case .failure(let e): throw RowError(message: "\(name) \(e)")
            }
        }
        func required(_ i: Int?, _ name: String) throws -> Double {
            guard i != nil else { throw RowError(message: "the record's header line has no \(name) column") }
            guard let v = try number(i, name) else { throw RowError(message: "missing value for \(name)") }
            return v
        }
        func nonNegative(_ i: Int?, _ name: String) throws -> Double? {
            guard let v = try number(i, name) else { return nil }
            guard v >= 0 else { throw RowError(message: "\(name) \(v) is negative") }
            return v
        }
        func millis(_ i: Int?, _ name: String) throws -> Double {
            let v = try required(i, name)
            guard v >= 0, v < 1e14 else { throw RowError(message: "\(name) \(v) is not a Unix time in milliseconds") }
            return v / 1000
        }
    }

    /// Column indices of a `Fix` record.
    struct FixColumns {
        static let defaultNames = ["Provider", "LatitudeDegrees", "LongitudeDegrees", "AltitudeMeters", "SpeedMps",
                                   "AccuracyMeters", "BearingDegrees", "UnixTimeMillis", "SpeedAccuracyMps",
                                   "BearingAccuracyDegrees", "elapsedRealtimeNanos", "VerticalAccuracyMeters",
                                   "MockLocation", "NumberOfUsedSignals", "VerticalSpeedAccuracyMps", "SolutionType"]
        /// Index of each named column (1-based field index: field 0 is the record type).
        var index: [String: Int] = [:]

        /// GnssLogger 1.4 (2016: `# Fix,Provider,Latitude,Longitude,Altitude,Speed,Accuracy,(UTC)TimeInMs`)
        /// names for the same quantities.
        static let legacyNames = ["latitudedegrees": "latitude", "longitudedegrees": "longitude",
                                  "altitudemeters": "altitude", "speedmps": "speed", "accuracymeters": "accuracy",
                                  "unixtimemillis": "(utc)timeinms"]

        init(header: [String: Int]?) {
            for (k, n) in Self.defaultNames.enumerated() {
                let key = n.lowercased()
                if let header {
                    if let i = header[key] ?? Self.legacyNames[key].flatMap({ header[$0] }) { index[key] = i }
                } else { index[key] = k + 1 }
            }
        }

        func i(_ name: String) -> Int? { index[name.lowercased()] }

        func fix(_ r: Record) throws -> (GnssLoggerProvider?, Fix) {
            let providerText = i("Provider").map(r.string) ?? ""
            let provider = GnssLoggerProvider(recordName: providerText)
            guard provider != nil || !providerText.isEmpty else { throw RowError(message: "Fix record without a provider") }
            let t = try r.millis(i("UnixTimeMillis"), "UnixTimeMillis")
            let lat = try r.required(i("LatitudeDegrees"), "LatitudeDegrees")
            let lon = try r.required(i("LongitudeDegrees"), "LongitudeDegrees")
            guard abs(lat) <= 90 else { throw RowError(message: "LatitudeDegrees \(lat) is outside [-90, 90]") }
            guard abs(lon) <= 180 else { throw RowError(message: "LongitudeDegrees \(lon) is outside [-180, 180]") }
            var f = Fix(time: t, latitude: lat, longitude: lon)
            if let h = try r.number(i("AltitudeMeters"), "AltitudeMeters") { f.height = h; f.verticalReference = .ellipsoid }
            f.speed = try r.nonNegative(i("SpeedMps"), "SpeedMps")
            f.horizontalAccuracy = try r.nonNegative(i("AccuracyMeters"), "AccuracyMeters")
            f.course = try r.number(i("BearingDegrees"), "BearingDegrees").map(Angle.normalizeHeading)
            f.verticalAccuracy = try r.nonNegative(i("VerticalAccuracyMeters"), "VerticalAccuracyMeters")
            // Validated although not carried by Fix (nothing in a record goes unchecked).
            for name in ["SpeedAccuracyMps", "BearingAccuracyDegrees", "VerticalSpeedAccuracyMps", "NumberOfUsedSignals", "elapsedRealtimeNanos"] {
                _ = try r.nonNegative(i(name), name)
            }
            if let m = try r.number(i("MockLocation"), "MockLocation"), m != 0 && m != 1 {
                throw RowError(message: "MockLocation \(m) is not 0 or 1")
            }
            return (provider, f)
        }
    }

    /// The columns of one sensor record type.
    struct SensorLayout {
        let kind: SensorKind
        let values: [String]
        let bias: [String]?

        static let all: [String: SensorLayout] = [
            "Accel": SensorLayout(kind: .accelerometer, values: ["AccelXMps2", "AccelYMps2", "AccelZMps2"], bias: nil),
            "Gyro": SensorLayout(kind: .gyroscope, values: ["GyroXRadPerSec", "GyroYRadPerSec", "GyroZRadPerSec"], bias: nil),
            "Mag": SensorLayout(kind: .magnetometer, values: ["MagXMicroT", "MagYMicroT", "MagZMicroT"], bias: nil),
            "UncalAccel": SensorLayout(kind: .uncalibratedAccelerometer, values: ["UncalAccelXMps2", "UncalAccelYMps2", "UncalAccelZMps2"],
                                       bias: ["BiasXMps2", "BiasYMps2", "BiasZMps2"]),
            "UncalGyro": SensorLayout(kind: .uncalibratedGyroscope, values: ["UncalGyroXRadPerSec", "UncalGyroYRadPerSec", "UncalGyroZRadPerSec"],
                                      bias: ["DriftXRadPerSec", "DriftYRadPerSec", "DriftZRadPerSec"]),
            "UncalMag": SensorLayout(kind: .uncalibratedMagnetometer, values: ["UncalMagXMicroT", "UncalMagYMicroT", "UncalMagZMicroT"],
                                     bias: ["BiasXMicroT", "BiasYMicroT", "BiasZMicroT"]),
        ]
    }

    /// Field indices of one sensor record type: by header name where present, else the default
    /// layout `Type,utcTimeMillis,elapsedRealtimeNanos,X,Y,Z[,BiasX,BiasY,BiasZ]`.
    struct SensorColumns {
        let layout: SensorLayout
        let time: Int, values: [Int], bias: [Int]?

        init(_ layout: SensorLayout, header: [String: Int]?) {
            self.layout = layout
            func col(_ name: String, _ d: Int) -> Int { header?[name.lowercased()] ?? d }
            time = col("utcTimeMillis", 1)
            values = layout.values.enumerated().map { col($1, 3 + $0) }
            bias = layout.bias.map { $0.enumerated().map { col($1, 6 + $0) } }
        }

        func sample(_ r: Record) throws -> SensorSample {
            let t = try r.millis(time, "utcTimeMillis")
            let v = try zip(values, layout.values).map { try r.required($0, $1) }
            var b: SIMD3<Double>? = nil
            if let bias, let names = layout.bias {
                let bv = try zip(bias, names).map { try r.number($0, $1) }
                if let x = bv[0], let y = bv[1], let z = bv[2] { b = SIMD3(x, y, z) }
                else if bv.contains(where: { $0 != nil }) { throw RowError(message: "\(names.joined(separator: "/")): give all three or none") }
            }
            return SensorSample(time: t, kind: layout.kind, x: v[0], y: v[1], z: v[2], bias: b)
        }
    }
}
