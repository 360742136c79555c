import ArgumentParser
import Foundation
import GeoAnchorKit

struct CalibrateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "calibrate",
        abstract: "Magnetometer hard/soft-iron calibration from an ellipsoid fit.",
        discussion: """
        Input CSV columns: mx,my,mz (raw magnetometer, µT) — or an IMU logger's names such as \
        x-io's "Magnetometer X (uT)" / "Accelerometer X (g)", mag_x, magnetic_field_x (a unit in \
        the header, µT, nT, mG or G, is converted to µT); optional ax,ay,az (accelerometer, \
        any unit, specific force pointing up) and time (Unix seconds or ISO 8601 UTC). A sensors CSV \
        (time,sensor,x,y,z[,bias_x,bias_y,bias_z], e.g. from `geobench convert log.txt --sensors`) is \
        taken too: its uncalibrated_magnetometer rows (Android's raw field, hard iron included) when \
        there are any, else its magnetometer rows. Sensor Logger's Magnetometer.csv or \
        MagnetometerUncalibrated.csv (time in ns, seconds_elapsed, z, y, x in µT) is read by its \
        columns; the file name says the sensor (its Accelerometer.csv has the same columns). With the accelerometer, the \
        text output also reports the spread of the measured dip angle after calibration (an \
        independent check: the true dip is constant).

        --json prints one JSON object with exactly these keys: offset ([x, y, z] hard-iron \
        offset, µT), soft_iron ([[3]×3] symmetric matrix W, det W = 1, calibrated = \
        W·(raw − offset)), field_strength (µT, radius of the calibrated sphere), residual_rms \
        (µT), coverage (0…1, fraction of 72 equal-area sphere cells hit by calibrated \
        directions), quality ("good" | "fair" | "poor"), samples (samples used in the fit). \
        Without --json a readable summary with the reasons for the verdict is printed.

        Too few samples (< 12), rotation about a single axis, or data that neither an ellipsoid \
        nor a sphere (hard iron only, W = I, flagged) fits are refused: exit status 2 with the \
        reason on stderr.
        """
    )

    @Option(help: "Input CSV file (default: stdin).")
    var input: String?

    @Flag(help: "Print the result as JSON (keys: offset, soft_iron, field_strength, residual_rms, coverage, quality, samples).")
    var json = false

    @Option(help: "Sensor range in µT: samples with any |component| ≥ this are clipped and excluded (default: detect).")
    var saturationLimit: Double?

    @Option(help: "Expected field strength in µT (e.g. WMM total intensity / 1000) for the quality check.")
    var expectedField: Double?

    func run() throws {
        try withInputErrors {
            let table = try CSVTable.read(path: input)
            var rows = table.rows
            let names: [String]
            // Sensor Logger's per-sensor file: its time is in nanoseconds (checked as seconds / 1e9).
            let sensorLogger = table.optionalColumn("sensor") == nil && Self.isSensorLoggerAxes(table)
            if let sc = table.optionalColumn("sensor") {
                // A sensors CSV: the magnetometer rows; the raw (uncalibrated) ones when present.
                func kind(_ r: (line: Int, fields: [String])) -> String {
                    sc < r.fields.count ? r.fields[sc].trimmingCharacters(in: .whitespaces).lowercased() : ""
                }
                let raw = SensorKind.uncalibratedMagnetometer.rawValue
                let want = rows.contains { kind($0) == raw } ? raw : SensorKind.magnetometer.rawValue
                rows = rows.filter { kind($0) == want }
                names = ["x", "y", "z"]
            } else if sensorLogger {
                // Sensor Logger's per-sensor file (time,seconds_elapsed,z,y,x): the sensor is in
                // the file's name, the unit µT for its magnetometers.
                let file = ((input ?? "") as NSString).lastPathComponent
                guard file.lowercased().contains("magnetometer") else {
                    throw InputError(file: table.source, line: 1, message: "a Sensor Logger file (time,seconds_elapsed,z,y,x) names its sensor in "
                                     + "the file name: give Magnetometer.csv or MagnetometerUncalibrated.csv (µT), not '\(file.isEmpty ? "stdin" : file)'")
                }
                names = ["x", "y", "z"]
            } else {
                names = ["mx", "my", "mz"]
            }
            // mx,my,mz or an IMU logger's long names (x-io's "Magnetometer X (uT)"), in µT.
            let named = names[0] == "x" ? nil : try Self.axisColumns(table, Self.magnetometerNames, units: Self.magneticUnits)
            let mc: [Int] = try named.map { $0.columns.map { $0! } } ?? names.map { try table.column($0) }
            let scale = named?.scale ?? 1
            let ac = names[0] == "x" ? [nil, nil, nil]
                : (try Self.axisColumns(table, Self.accelerometerNames, units: nil)?.columns ?? ["ax", "ay", "az"].map { table.optionalColumn($0) })
            let hasAccel = ac.allSatisfy { $0 != nil }
            if !hasAccel && ac.contains(where: { $0 != nil }) {
                throw InputError(file: table.source, line: 1, message: "accelerometer needs all of ax,ay,az")
            }
            let tc = table.optionalColumn("time")
            var x = [Double](), y = [Double](), z = [Double](), acc = [SIMD3<Double>]()
            for row in rows {
                x.append(scale * (try table.double(row, mc[0], table.header[mc[0]])))
                y.append(scale * (try table.double(row, mc[1], table.header[mc[1]])))
                z.append(scale * (try table.double(row, mc[2], table.header[mc[2]])))
                if hasAccel {
                    acc.append(SIMD3(try table.double(row, ac[0]!, "ax"), try table.double(row, ac[1]!, "ay"),
                                     try table.double(row, ac[2]!, "az")))
                }
                if let tc {
                    guard tc < row.fields.count else { throw InputError(file: table.source, line: row.line, message: "missing value for 'time'") }
                    if sensorLogger {
                        let t = try table.double(row, tc, "time") / 1e9
                        guard t.isFinite, t >= Fix.earliestTime, t <= Fix.latestTime else { throw InputError(file: table.source, line: row.line, message: "time \(row.fields[tc]) ns is outside the years 0001…9999") }
                    } else {
                        _ = try table.time(row.fields[tc], line: row.line)
                    }
                }
            }
            let options = MagnetometerCalibrator.Configuration(saturationLimit: saturationLimit, expectedFieldStrength: expectedField)
            // Name the option, not the input file, when a value is out of range.
            try located("--saturation-limit") { try MagnetometerCalibrator.Configuration(saturationLimit: saturationLimit).validate() }
            try located("--expected-field") { try MagnetometerCalibrator.Configuration(expectedFieldStrength: expectedField).validate() }
            let cal: MagnetometerCalibration
            cal = try located(table.source, context: "cannot calibrate") {
                try x.withUnsafeBufferPointer { px in
                    try y.withUnsafeBufferPointer { py in
                        try z.withUnsafeBufferPointer { pz in try MagnetometerCalibrator.fit(x: px, y: py, z: pz, options: options) }
                    }
                }
            }
            if json {
                print(Self.json(cal))
            } else {
                for line in Self.summary(cal, raw: (x, y, z), accelerometer: acc) { print(line) }
            }
        }
    }

    /// Whether the table is one of Sensor Logger's per-sensor files: `time`,
    /// `seconds_elapsed`, `x`, `y`, `z` (in the app's order z, y, x).
    static func isSensorLoggerAxes(_ table: CSVTable) -> Bool {
        ["time", "seconds_elapsed", "x", "y", "z"].allSatisfy { table.optionalColumn($0) != nil }
    }

    /// Spellings of the magnetometer's x axis (y and z alike), compared with a header name
    /// lowercased, its unit in parentheses or brackets removed, and only letters and digits kept.
    static let magnetometerNames = ["mx", "magx", "magnetometerx", "magneticfieldx", "magfieldx"]
    static let accelerometerNames = ["ax", "accx", "accelx", "accelerometerx", "accelerationx"]
    /// Magnetic units a header may state, as factors to µT.
    static let magneticUnits: [String: Double] = ["ut": 1, "µt": 1, "μt": 1, "microtesla": 1, "nt": 1e-3,
                                                  "mg": 0.1, "milligauss": 0.1, "g": 100, "gauss": 100]

    /// The x, y, z columns of one sensor under any of `spellings` (for x; y and z by the same
    /// spelling), and the factor of the unit stated in the header (`units` nil: any unit,
    /// as for the accelerometer, whose direction alone is used). nil when no spelling matches.
    /// - Throws: ``InputError`` for a unit not in `units`, or two axes in different units.
    static func axisColumns(_ table: CSVTable, _ spellings: [String], units: [String: Double]?) throws -> (columns: [Int?], scale: Double)? {
        func split(_ h: String) -> (name: String, unit: String?) {
            var name = h, unit: String? = nil
            if let open = h.firstIndex(where: { $0 == "(" || $0 == "[" }), let close = h.lastIndex(where: { $0 == ")" || $0 == "]" }), open < close {
                unit = String(h[h.index(after: open)..<close]).trimmingCharacters(in: .whitespaces).lowercased()
                name = String(h[..<open])
            }
            return (String(name.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) }), unit)
        }
        let parsed = table.header.map(split)
        for x in spellings {
            let axes = ["x", "y", "z"].map { a in String(x.dropLast()) + a }
            let cols = axes.map { a in parsed.firstIndex { $0.name == a } }
            guard cols.allSatisfy({ $0 != nil }) else { continue }
            guard let units else { return (cols, 1) }
            let stated = cols.map { parsed[$0!].unit }
            guard Set(stated.map { $0 ?? "" }).count == 1 else {
                throw InputError(file: table.source, line: 1, message: "magnetometer axes in different units: \(stated.map { $0 ?? "none" })")
            }
            guard let u = stated[0] else { return (cols, 1) }
            guard let f = units[u] else {
                throw InputError(file: table.source, line: 1, message: "magnetometer unit '\(u)' is not µT, nT, mG or G (header '\(table.header[cols[0]!])')")
            }
            return (cols, f)
        }
        return nil
    }

    static func json(_ c: MagnetometerCalibration) -> String {
        func n(_ v: Double) -> String { v.isFinite ? "\(v)" : "null" }
        let w = c.softIron.rows.map { "[" + $0.map(n).joined(separator: ", ") + "]" }.joined(separator: ", ")
        return """
        {"offset": [\(n(c.offset.x)), \(n(c.offset.y)), \(n(c.offset.z))], "soft_iron": [\(w)], \
        "field_strength": \(n(c.fieldStrength)), "residual_rms": \(n(c.residualRMS)), \
        "coverage": \(n(c.coverage)), "quality": "\(c.quality.rawValue)", "samples": \(c.samples)}
        """
    }

    static func summary(_ c: MagnetometerCalibration, raw: ([Double], [Double], [Double]),
                        accelerometer: [SIMD3<Double>]) -> [String] {
        var out = [
            String(format: "offset (µT):        %.3f %.3f %.3f", c.offset.x, c.offset.y, c.offset.z),
            "soft iron W:        " + c.softIron.rows.map { $0.map { String(format: "%.5f", $0) }.joined(separator: " ") }.joined(separator: " | "),
            String(format: "field strength:     %.3f µT", c.fieldStrength),
            String(format: "residual RMS:       %.3f µT (%.2f %% of the field)", c.residualRMS, 100 * c.residualRMS / c.fieldStrength),
            String(format: "coverage:           %.2f", c.coverage),
            "samples:            \(c.samples)",
            "quality:            \(c.quality.rawValue)",
        ]
        for issue in c.issues { out.append("  - \(issue)") }
        if !accelerometer.isEmpty, let dip = dipStatistics(c, raw: raw, accelerometer: accelerometer) {
            out.append(String(format: "dip angle:          %.2f° ± %.2f° (raw: ± %.2f°)", dip.mean, dip.sd, dip.rawSD))
        }
        return out
    }

    /// Mean and standard deviation of the angle between field and horizontal, calibrated and raw.
    static func dipStatistics(_ c: MagnetometerCalibration, raw: ([Double], [Double], [Double]),
                              accelerometer: [SIMD3<Double>]) -> (mean: Double, sd: Double, rawSD: Double)? {
        func dip(_ m: SIMD3<Double>, _ a: SIMD3<Double>) -> Double? {
            let an = (a * a).sum().squareRoot(), mn = (m * m).sum().squareRoot()
            guard an > 0, mn > 0 else { return nil }
            return asin(max(-1, min(1, -(m * a).sum() / (an * mn)))) * 180 / .pi
        }
        var cal: [Double] = [], unc: [Double] = []
        for i in accelerometer.indices {
            let m = SIMD3(raw.0[i], raw.1[i], raw.2[i])
            if let d = dip(c.calibrate(m), accelerometer[i]) { cal.append(d) }
            if let d = dip(m, accelerometer[i]) { unc.append(d) }
        }
        guard cal.count > 1 else { return nil }
        func stats(_ a: [Double]) -> (Double, Double) {
            let m = a.reduce(0, +) / Double(a.count)
            return (m, (a.map { ($0 - m) * ($0 - m) }.reduce(0, +) / Double(a.count - 1)).squareRoot())
        }
        let (m, s) = stats(cal)
        return (m, s, stats(unc).1)
    }
}
