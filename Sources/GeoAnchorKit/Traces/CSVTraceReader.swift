import Foundation

/// Streaming reader for traces in CSV files with a header row of named columns.
///
/// Layouts (recognized from the header, case-insensitively; column order is free):
/// - **project trace**: `time` (ISO 8601 UTC or Unix seconds), `latitude`, `longitude`
///   (degrees), optional `altitude` (m above MSL) *or* `ellipsoidal_height` (m above WGS84),
///   optional `geoid_separation` (m, N in h = H + N), `horizontal_accuracy`,
///   `vertical_accuracy` (m, 68 %), `speed` (m/s), `course`, `heading` (degrees from true
///   north), `heading_accuracy` (degrees), `satellites`, `hdop`, `vdop`, `pdop`, `quality`
///   (NMEA GGA fix quality 0…8). GPSBabel's `unicsv` (`gpsbabel -t … -o unicsv`) reads as
///   this layout: its `Date` (`YYYY/MM/DD`) and `Time` (`HH:MM:SS[.sss]`) columns together are
///   the time, taken as UTC (GPSBabel's default; its `utc=` option writes local times without
///   saying so), `Altitude` MSL, `Speed` m/s, `Satellites`, `HDOP`, and `FIX` by GPX's names
///   (`none`, `2d`, `3d`, `dgps`, `pps`).
/// - **project sensors**: `time`, `sensor` (`magnetometer`, `accelerometer`, `gyroscope`,
///   `uncalibrated_magnetometer`, `uncalibrated_accelerometer`, `uncalibrated_gyroscope`),
///   `x`, `y`, `z` (µT, m/s², rad/s; see ``SensorKind``), optional `bias_x`, `bias_y`, `bias_z`
///   (the device's bias estimate for the uncalibrated kinds, same unit; all three or none).
/// - **GSDC 2022/2023 `ground_truth.csv`**: `UnixTimeMillis`, `LatitudeDegrees`,
///   `LongitudeDegrees`, `AltitudeMeters` (ellipsoidal), `SpeedMps`, `AccuracyMeters`,
///   `BearingDegrees`, optional `VerticalAccuracyMeters`.
/// - **GSDC 2021 ground truth**: `millisSinceGpsEpoch` (GPS time, converted to UTC with the
///   leap-second table), `latDeg`, `lngDeg`, `heightAboveWgs84EllipsoidM`, `speedMps`,
///   `courseDegree`, `hDop`, `vDop`.
/// - **GPSLogger for Android** (mendhak, `gpslogger.app`: its CSV log, header
///   `time,lat,lon,elevation,accuracy,bearing,speed,satellites,provider,hdop,vdop,pdop,geoidheight,…`,
///   newer versions adding `timestamp_ms`, `time_offset`, `distance`, …): the time from
///   `timestamp_ms` (Unix ms) where the column has a value, else `time` (ISO 8601); `elevation`
///   as Android reports it, **above the WGS84 ellipsoid** (the app's default; its "use MSL"
///   setting subtracts `geoidheight` without saying so in the file, and its altitude offset
///   setting subtracts a constant), `geoidheight` as the geoid separation, `accuracy` (Android's
///   68 % horizontal radius), `bearing` as the course, `speed` (m/s), `satellites`, DOPs. Rows
///   are filtered by `provider` as GnssLogger's `Fix` records are
///   (``TraceReadConfiguration/provider``: `gps` by default; `network` and `fused` rows counted
///   in ``TraceReadSummary/otherProviderFixes``, as is a provider Android does not name).
/// - **Sensor Logger** (tszheichoi's iOS/Android app: its recording's `Location.csv`, also
///   `LocationGps.csv`/`LocationNetwork.csv`, and the watch's `WatchLocation.csv`; header
///   `time,seconds_elapsed,…,latitude,longitude`): `time` in nanoseconds since 1970 (as a
///   double: ≤ 128 ns rounding), `altitude` above the WGS84 ellipsoid with
///   `altitudeAboveMeanSeaLevel` (iOS) giving the geoid separation — on the watch
///   `ellipsoidalAltitude` and `altitude` (MSL) —, `horizontalAccuracy`, `verticalAccuracy`,
///   `speed`, `bearing` (the watch's `course`) as the course. Negative values mean "invalid" in
///   Sensor Logger's files: such a field is absent, not an error.
/// - **GSDC `device_gnss.csv`**: one row per satellite measurement; consecutive rows with the same
///   `utcTimeMillis` form one fix at Google's weighted-least-squares position
///   `WlsPositionXEcefMeters`/`Y`/`Z` (ECEF → geodetic with ``Ellipsoid/geodetic(x:y:z:)``).
///
/// Empty optional fields are nil. Invalid values (unparsable numbers, NaN, latitude outside
/// [−90, 90], longitude outside [−180, 180], negative accuracies or speeds, impossible dates)
/// are ``TraceFormatError``s naming the column, value and line, or skipped and counted with
/// ``TraceReadConfiguration/skipInvalid``.
public enum CSVTraceReader {
    /// The error once given for a header separated by semicolons (what spreadsheets in locales
    /// with a decimal comma save as "CSV"). Such files are now read: ``CSVRecordReader``
    /// detects the dialect from the header.
    @available(*, deprecated, message: "semicolon-separated CSV with decimal commas is read (CSVRecordReader.isSemicolonDialect); nothing throws this message")
    public static let semicolonMessage = "the header is separated by ';' (a spreadsheet's CSV in a locale with decimal commas?): save it with ',' between fields and '.' as the decimal point"

    /// The recognized layouts.
    public enum Layout: String, Sendable, Hashable {
        case project, sensors, gsdcGroundTruth, gsdc2021GroundTruth, gsdcDeviceGNSS
        /// GPSLogger for Android's CSV log.
        case gpsLogger
        /// Sensor Logger's location file.
        case sensorLogger
    }

    /// GPS − UTC in seconds from each date (Unix seconds) on: the leap seconds since 1980-01-06
    /// (IERS Bulletin C; the last one was 2017-01-01, GPS − UTC = 18 s).
    static let gpsLeapSeconds: [(utc: Double, leap: Double)] = [
        (362_793_600, 1), (394_329_600, 2), (425_865_600, 3), (489_024_000, 4), (567_993_600, 5),
        (631_152_000, 6), (662_688_000, 7), (709_948_800, 8), (741_484_800, 9), (773_020_800, 10),
        (820_454_400, 11), (867_715_200, 12), (915_148_800, 13), (1_136_073_600, 14),
        (1_230_768_000, 15), (1_341_100_800, 16), (1_435_708_800, 17), (1_483_228_800, 18),
    ]

    /// UTC (Unix seconds) of a GPS time given in seconds since the GPS epoch 1980-01-06.
    public static func utcFromGPS(seconds gps: Double) -> Double {
        let approx = gps + 315_964_800
        var leap = 0.0
        for (t, l) in gpsLeapSeconds where approx - l >= t { leap = l }
        return approx - leap
    }

    /// Reads all rows, calling `onFix` / `onSensor` as they are decoded. Records are tokenized
    /// by ``CSVRecordReader`` (CRLF/LF/CR line ends, BOM, RFC 4180 quoting); errors name the
    /// line where the record starts.
    public static func read(_ reader: ByteLineReader, options: TraceReadConfiguration = TraceReadConfiguration(),
                            onFix: (Fix) throws -> Void,
                            onSensor: (SensorSample) throws -> Void = { _ in }) throws -> TraceReadSummary {
        try options.check(source: reader.source)
        var summary = TraceReadSummary()
        var cols: Columns? = nil
        var pendingDevice: (ms: Int, fix: Fix?, line: Int)? = nil
        let source = reader.source
        func fail(_ line: Int, _ msg: String) throws {
            let e = TraceFormatError(source: source, line: line, message: msg)
            if options.skipInvalid { summary.skip(e) } else { throw e }
        }
        let records = CSVRecordReader(reader)
        let lineCount = try records.forEachRecord { fields, lineNo in
            guard let c = cols else {
                cols = try Columns(header: fields.strings.map { $0.lowercased() }, source: source)
                return
            }
            guard fields.count == c.header.count else {
                // A short row is usually a truncated file; a long one a stray comma.
                try fail(lineNo, "row has \(fields.count) field(s), the header has \(c.header.count)")
                return
            }
            do {
                switch c.layout {
                case .sensors:
                    try onSensor(try c.sensor(fields))
                    summary.sensorSamples += 1
                case .gsdcDeviceGNSS:
                    let (ms, fix) = try c.deviceRow(fields)
                    if let p = pendingDevice, p.ms != ms {
                        if let f = p.fix { try onFix(f); summary.fixes += 1 } else { summary.ignoredRecords += 1 }
                        pendingDevice = nil
                    }
                    if pendingDevice == nil { pendingDevice = (ms, fix, lineNo) }
                    else if pendingDevice!.fix == nil { pendingDevice!.fix = fix }
                default:
                    if let f = try c.fix(fields) {
                        if c.isSelected(fields, options.provider) { try onFix(f); summary.fixes += 1 } else { summary.otherProviderFixes += 1 }
                    } else { summary.ignoredRecords += 1 }
                }
            } catch let e as RowError {
                try fail(lineNo, e.message)
            }
        }
        summary.lines = lineCount
        if let p = pendingDevice {
            if let f = p.fix { try onFix(f); summary.fixes += 1 } else { summary.ignoredRecords += 1 }
        }
        if cols == nil { throw TraceFormatError(source: source, line: nil, message: "empty file: a CSV header row is required") }
        return summary
    }

    struct RowError: Error { var message: String }

    /// Column indices for one layout.
    struct Columns {
        let layout: Layout
        let header: [String]
        var time: Int? = nil, timeMillis: Int? = nil, gpsMillis: Int? = nil
        var lat: Int? = nil, lon: Int? = nil
        var altitude: Int? = nil, ellipsoidal: Int? = nil, separation: Int? = nil
        var hAcc: Int? = nil, vAcc: Int? = nil, speed: Int? = nil, course: Int? = nil
        var heading: Int? = nil, headingAcc: Int? = nil, sats: Int? = nil
        var hdop: Int? = nil, vdop: Int? = nil, pdop: Int? = nil
        var messageType: Int? = nil, quality: Int? = nil, date: Int? = nil, fixName: Int? = nil
        var sensor: Int? = nil, x: Int? = nil, y: Int? = nil, z: Int? = nil
        var biasX: Int? = nil, biasY: Int? = nil, biasZ: Int? = nil
        var provider: Int? = nil

        init(header: [String], source: String) throws {
            self.header = header
            func idx(_ n: String) -> Int? { header.firstIndex(of: n.lowercased()) }
            func need(_ n: String) throws -> Int {
                guard let i = idx(n) else {
                    throw TraceFormatError(source: source, line: 1,
                        message: "missing column '\(n)' (header: \(header.joined(separator: ",")))")
                }
                return i
            }
            if idx("wlspositionxecefmeters") != nil {
                layout = .gsdcDeviceGNSS
                timeMillis = try need("utcTimeMillis")
                x = try need("WlsPositionXEcefMeters"); y = try need("WlsPositionYEcefMeters"); z = try need("WlsPositionZEcefMeters")
            } else if idx("unixtimemillis") != nil {
                layout = .gsdcGroundTruth
                timeMillis = idx("unixtimemillis")
                lat = try need("LatitudeDegrees"); lon = try need("LongitudeDegrees")
                ellipsoidal = idx("altitudemeters"); speed = idx("speedmps"); hAcc = idx("accuracymeters")
                course = idx("bearingdegrees"); vAcc = idx("verticalaccuracymeters"); messageType = idx("messagetype")
            } else if idx("millissincegpsepoch") != nil {
                if idx("latDeg") == nil && idx("xSatPosM") != nil {
                    // A 2021 _derived.csv: raw measurements, no positions.
                    throw TraceFormatError(source: source, line: 1,
                        message: "a GSDC 2021 _derived.csv holds raw GNSS measurements, not positions: solve them with `geobench gnss` (GSDCDeviceGNSS)")
                }
                layout = .gsdc2021GroundTruth
                gpsMillis = idx("millissincegpsepoch")
                lat = try need("latDeg"); lon = try need("lngDeg")
                ellipsoidal = idx("heightabovewgs84ellipsoidm"); speed = idx("speedmps"); course = idx("coursedegree")
                hdop = idx("hdop"); vdop = idx("vdop")
            } else if idx("sensor") != nil {
                layout = .sensors
                time = try need("time"); sensor = idx("sensor")
                x = try need("x"); y = try need("y"); z = try need("z")
                biasX = idx("bias_x"); biasY = idx("bias_y"); biasZ = idx("bias_z")
            } else if idx("seconds_elapsed") != nil && idx("latitude") != nil {
                layout = .sensorLogger
                time = try need("time"); lat = try need("latitude"); lon = try need("longitude")
                if let e = idx("ellipsoidalaltitude") {
                    // The watch: `altitude` is MSL there.
                    ellipsoidal = e; altitude = idx("altitude")
                } else {
                    ellipsoidal = idx("altitude"); altitude = idx("altitudeabovemeansealevel")
                }
                hAcc = idx("horizontalaccuracy"); vAcc = idx("verticalaccuracy"); speed = idx("speed")
                course = idx("bearing") ?? idx("course")
            } else if idx("lat") != nil && idx("lon") != nil && idx("provider") != nil && idx("latitude") == nil {
                layout = .gpsLogger
                time = try need("time"); timeMillis = idx("timestamp_ms")
                lat = idx("lat"); lon = idx("lon")
                ellipsoidal = idx("elevation"); separation = idx("geoidheight")
                hAcc = idx("accuracy"); speed = idx("speed"); course = idx("bearing")
                sats = idx("satellites"); hdop = idx("hdop"); vdop = idx("vdop"); pdop = idx("pdop")
                provider = idx("provider")
            } else {
                layout = .project
                time = try need("time"); lat = try need("latitude"); lon = try need("longitude")
                altitude = idx("altitude"); ellipsoidal = idx("ellipsoidal_height"); separation = idx("geoid_separation")
                hAcc = idx("horizontal_accuracy"); vAcc = idx("vertical_accuracy"); speed = idx("speed")
                course = idx("course"); heading = idx("heading"); headingAcc = idx("heading_accuracy")
                sats = idx("satellites"); hdop = idx("hdop"); vdop = idx("vdop"); pdop = idx("pdop"); quality = idx("quality")
                // GPSBabel's unicsv: the UTC date and time of day in two columns, GPX's fix names.
                date = idx("date"); fixName = idx("fix")
                if altitude != nil && ellipsoidal != nil {
                    throw TraceFormatError(source: source, line: 1,
                        message: "both 'altitude' (MSL) and 'ellipsoidal_height' columns: give one vertical reference")
                }
            }
        }

        func raw(_ f: CSVFields, _ i: Int?) -> String? {
            guard let i, i < f.count else { return nil }
            let s = f.string(i)
            return s.isEmpty ? nil : s
        }

        func number(_ f: CSVFields, _ i: Int?) throws -> Double? {
            guard let i else { return nil }
            switch f.number(i) {
            case .success(let v): return v
            case .failure(let e): throw RowError(message: "\(header[i]) \(e)")
            }
        }

        func required(_ f: CSVFields, _ i: Int?) throws -> Double {
            guard let v = try number(f, i) else { throw RowError(message: "missing value for '\(header[i!])'") }
            return v
        }

        func nonNegative(_ f: CSVFields, _ i: Int?) throws -> Double? {
            guard let v = try number(f, i) else { return nil }
            guard v >= 0 else { throw RowError(message: "\(header[i!]) \(v) is negative") }
            return v
        }

        func direction(_ f: CSVFields, _ i: Int?) throws -> Double? {
            try number(f, i).map(Angle.normalizeHeading)
        }

        func timeValue(_ f: CSVFields) throws -> Double {
            if layout == .sensorLogger { return try required(f, time) / 1e9 }
            // GPSLogger's timestamp_ms is empty in rows of older versions appended to: `time` then.
            if let i = timeMillis, layout != .gpsLogger || raw(f, i) != nil { return try required(f, i) / 1000 }
            if let i = gpsMillis { return CSVTraceReader.utcFromGPS(seconds: try required(f, i) / 1000) }
            guard let ti = time, raw(f, ti) != nil else { throw RowError(message: "missing value for 'time'") }
            if let di = date {
                // unicsv: `2026/05/16` (or `2026-05-16`) and `14:00:00.250`, UTC.
                guard let d = raw(f, di) else { throw RowError(message: "missing value for 'date'") }
                var s = d.replacingOccurrences(of: "/", with: "-") + "T" + f.string(ti)
                switch s.withUTF8({ ByteParsing.iso8601($0) }) {
                case .success(let t): return t
                case .failure(let e): throw RowError(message: "date '\(d.prefix(20))' and time '\(f.string(ti).prefix(20))': \(e.message)")
                }
            }
            if let v = ByteParsing.decimal(f[ti]) { return v }
            let s = f.string(ti)
            switch ByteParsing.iso8601(f[ti]) {
            case .success(let t): return t
            case .failure(let e): throw RowError(message: "time '\(s.prefix(40))': \(e.message)")
            }
        }

        /// A Sensor Logger location row: heights (ellipsoidal, with the MSL altitude giving N),
        /// accuracies, speed and course, each absent when Sensor Logger marks it invalid (< 0).
        func sensorLoggerFix(_ f: CSVFields, _ base: Fix) throws -> Fix {
            var fix = base
            func valid(_ i: Int?) throws -> Double? { try number(f, i).flatMap { $0 < 0 ? nil : $0 } }
            if let h = try number(f, ellipsoidal) {
                fix.height = h; fix.verticalReference = .ellipsoid
                fix.geoidSeparation = try number(f, altitude).map { h - $0 }
            } else if let h = try number(f, altitude) {
                fix.height = h; fix.verticalReference = .meanSeaLevel
            }
            fix.horizontalAccuracy = try valid(hAcc)
            fix.verticalAccuracy = try valid(vAcc)
            fix.speed = try valid(speed)
            fix.course = try valid(course).map(Angle.normalizeHeading)
            if let problem = fix.validationProblem { throw RowError(message: problem) }
            return fix
        }

        /// Whether a row's `provider` (GPSLogger) is the one `selected`; true for layouts
        /// without a provider column.
        func isSelected(_ f: CSVFields, _ selected: GnssLoggerProvider) -> Bool {
            guard provider != nil, selected != .all else { return true }
            return raw(f, provider).flatMap(GnssLoggerProvider.init(recordName:)) == selected
        }

        func position(_ f: CSVFields) throws -> (Double, Double) {
            let la = try required(f, lat), lo = try required(f, lon)
            guard abs(la) <= 90 else { throw RowError(message: "latitude \(la) is outside [-90, 90]") }
            guard abs(lo) <= 180 else { throw RowError(message: "longitude \(lo) is outside [-180, 180]") }
            return (la, lo)
        }

        func fix(_ f: CSVFields) throws -> Fix? {
            if let m = raw(f, messageType), m != "Fix" { return nil }
            let t = try timeValue(f)
            let (la, lo) = try position(f)
            var fix = Fix(time: t, latitude: la, longitude: lo)
            if layout == .sensorLogger { return try sensorLoggerFix(f, fix) }
            if let h = try number(f, altitude) {
                fix.height = h; fix.verticalReference = .meanSeaLevel
                fix.geoidSeparation = try number(f, separation)
            } else if let h = try number(f, ellipsoidal) {
                fix.height = h; fix.verticalReference = .ellipsoid
                fix.geoidSeparation = try number(f, separation)
            }
            fix.horizontalAccuracy = try nonNegative(f, hAcc)
            fix.verticalAccuracy = try nonNegative(f, vAcc)
            fix.speed = try nonNegative(f, speed)
            fix.course = try direction(f, course)
            fix.heading = try direction(f, heading)
            fix.headingAccuracy = try nonNegative(f, headingAcc)
            if let s = try nonNegative(f, sats) { fix.satellites = try checked(s, "satellites", 0...Fix.maximumSatellites) }
            fix.hdop = try nonNegative(f, hdop)
            fix.vdop = try nonNegative(f, vdop)
            fix.pdop = try nonNegative(f, pdop)
            if let name = raw(f, fixName) {
                guard let q = FixQuality(gpxFix: name) else { throw RowError(message: "fix '\(name.prefix(20))' is not none, 2d, 3d, dgps or pps") }
                fix.quality = q
            }
            if let q = try number(f, quality) {
                guard let fq = FixQuality(rawValue: try checked(q, "quality", 0...8)) else {
                    throw RowError(message: "quality \(q) is not an NMEA GGA fix quality 0…8")
                }
                fix.quality = fq
            }
            if let problem = fix.validationProblem { throw RowError(message: problem) }
            return fix
        }

        func sensor(_ f: CSVFields) throws -> SensorSample {
            let t = try timeValue(f)
            guard Fix.isUsableTime(t) else { throw RowError(message: "time \(t) s is outside the years 0001…9999") }
            guard let name = raw(f, sensor), let kind = SensorKind(rawValue: name.lowercased()) else {
                throw RowError(message: "sensor '\(raw(f, sensor) ?? "")' is not one of \(SensorKind.allCases.map(\.rawValue).joined(separator: ", "))")
            }
            var bias: SIMD3<Double>? = nil
            let b = [try number(f, biasX), try number(f, biasY), try number(f, biasZ)]
            if let bx = b[0], let by = b[1], let bz = b[2] { bias = SIMD3(bx, by, bz) }
            else if b.contains(where: { $0 != nil }) { throw RowError(message: "bias_x, bias_y, bias_z: give all three or none") }
            return SensorSample(time: t, kind: kind, x: try required(f, x), y: try required(f, y), z: try required(f, z), bias: bias)
        }

        func deviceRow(_ f: CSVFields) throws -> (Int, Fix?) {
            let msValue = try required(f, timeMillis)
            let ms = try checked(msValue, header[timeMillis!], Int(Fix.earliestTime * 1000)...Int(Fix.latestTime * 1000))
            guard let px = try number(f, x), let py = try number(f, y), let pz = try number(f, z) else {
                return (ms, nil) // epoch without a WLS solution
            }
            let g = Ellipsoid.wgs84.geodetic(x: px, y: py, z: pz)
            let fix = Fix(time: msValue / 1000, latitude: g.latitude, longitude: g.longitude,
                          height: g.ellipsoidalHeight, verticalReference: .ellipsoid)
            if let problem = fix.validationProblem { throw RowError(message: problem) }
            return (ms, fix)
        }

        /// A whole number from input as an Int in `range` (never a trap), else a row error.
        func checked(_ v: Double, _ name: String, _ range: ClosedRange<Int>) throws -> Int {
            do { return try Int(checking: v, name, in: range, rounding: nil) } catch { throw RowError(message: error.description) }
        }
    }
}
