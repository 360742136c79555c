import ArgumentParser
import Foundation
import GeoAnchorKit

struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a trace between NMEA, GPX, CSV and GeoJSON, or from KML (formats by file extension).",
        discussion: """
        Extensions: .nmea/.log/.txt (NMEA 0183, or an Android GnssLogger log — told apart by content: \
        its Fix records are the fixes, AltitudeMeters as ellipsoidal height, of the provider chosen with \
        --provider; a log without Fix records gives the fixes of its NMEA records; Accel/Gyro/Mag and \
        UncalAccel/UncalGyro/UncalMag records are sensor samples, written with --sensors; Raw records are \
        counted), .gpx (GPX 1.0/1.1 in, 1.1 out; the trace is the track points, or the route points of \
        a file without a track; waypoints are written only with --waypoints), .csv (the project's trace columns: time,latitude,longitude,altitude|ellipsoidal_height,\
        geoid_separation,horizontal_accuracy,vertical_accuracy,speed,course,heading,heading_accuracy,\
        satellites,hdop,vdop,pdop,quality; GSDC ground_truth.csv / device_gnss.csv are read too; a \
        sensors CSV has time,sensor,x,y,z and, for the uncalibrated kinds, bias_x,bias_y,bias_z; GPSBabel's unicsv too), .geojson/.json (RFC 7946 Point features; \
        LineStrings with togeojson's per-position times; ogr2ogr's GPX track points), .kml/.kmz (input only; a .kmz is unzipped, its first .kml read: \
        gx:Track and timed Point placemarks are the fixes, untimed Point placemarks the waypoints, \
        written with --waypoints), .fit (input only: Garmin FIT record messages with a position), .tcx \
        (input only: Garmin Training Center Trackpoints with a position), .ubx (input only: a u-blox \
        receiver's NAV-PVT messages with a fix, or its NMEA when it logged no NAV-PVT). \
        Any input may be gzip- or compress-compressed or zipped (.gz, .Z, a .zip holding the file; format \
        from the extension before it). Streams: \
        memory does not grow with the file (except GeoJSON input). Invalid input exits with status 2 \
        and `FILE:LINE: message`; with --skip-invalid invalid lines are skipped and counted on stderr.
        """
    )

    @Option(help: "Input trace file.")
    var input: String

    @Option(help: "Output trace file (created or replaced).")
    var output: String

    @Flag(help: "Skip invalid lines (count reported on stderr) instead of failing.")
    var skipInvalid = false

    @Option(help: "UTC date YYYY-MM-DD for NMEA input that never states one (no RMC/ZDA).")
    var date: String?

    @Option(help: "GnssLogger logs and GPSLogger CSV: whose fixes are read: gps (the chipset's fix), fused (FLP), network (NLP) or all.")
    var provider: GnssLoggerProvider = .gps

    @Option(help: "Write the sensor samples (GnssLogger Accel/Gyro/Mag and Uncal* records) to this CSV: time,sensor,x,y,z,bias_x,bias_y,bias_z.")
    var sensors: String?

    @Option(help: "GPX input: write its waypoints (points of interest, not part of the trace) to this file (.csv: name,latitude,longitude,altitude,geoid_separation,time; .geojson; .gpx).")
    var waypoints: String?

    func run() throws {
        try withInputErrors {
            let inFmt = try TraceIO.format(of: input, option: "--input")
            let outFmt = try TraceIO.outputFormat(of: output, option: "--output")
            var opts = TraceReadConfiguration(skipInvalid: skipInvalid, provider: provider)
            if let date { opts.defaultDate = try TraceIO.parseDate(date) }
            try TraceIO.checkReadable(input)
            if let sensors, try TraceIO.format(of: sensors, option: "--sensors") != .csv {
                throw InputError(file: "--sensors", line: nil, message: "'\(sensors)': sensor samples are written as .csv")
            }
            if waypoints != nil && inFmt != .gpx {
                throw InputError(file: "--waypoints", line: nil, message: "only GPX input has waypoints")
            }
            // OutputFile writes regular files atomically (a failed conversion leaves no partial
            // output), writes through symlinks and straight into devices/FIFOs, and reports every
            // write error; commits happen only after everything was read and written.
            let out = try OutputFile(path: output)
            let sensorsOut = try sensors.map { try OutputFile(path: $0) }
            var wpts: [GPXWaypoint] = []
            var fixNo = 0
            do {
                let writer = TraceWriter(format: outFmt, name: output) { try out.write($0) }
                let sensorWriter = sensorsOut.map { o in TraceWriter(format: .csv, name: sensors!) { try o.write($0) } }
                sensorWriter?.sensorBiasColumns = true
                var droppedSensors = 0
                // A writer's objection names the input file and the fix.
                let onFix: (Fix) throws -> Void = { f in
                    fixNo += 1
                    do { try writer.write(f) } catch let error as TraceFormatError {
                        // The writer's error names the output; the fix is the input's.
                        throw InputError(file: input, line: nil, message: "fix #\(fixNo) cannot be written as \(outFmt.rawValue): \(error.message)")
                    }
                }
                let onSensor: (SensorSample) throws -> Void = { smp in
                    if let sensorWriter { try sensorWriter.write(smp) }
                    else if inFmt == .csv { try writer.write(smp) }
                    else { droppedSensors += 1 }
                }
                let s: TraceReadSummary
                if inFmt == .gpx && waypoints != nil {
                    s = try GPXReader.read(url: URL(fileURLWithPath: input), options: opts, onFix: onFix, onWaypoint: { wpts.append($0) })
                } else if inFmt == .kml && waypoints != nil {
                    s = try KMLReader.read(url: URL(fileURLWithPath: input), options: opts, onFix: onFix, onWaypoint: { wpts.append($0) })
                } else {
                    s = try TraceReader.read(url: URL(fileURLWithPath: input), format: inFmt, options: opts,
                                             onFix: onFix, onSensor: onSensor)
                }
                TraceIO.reportRead(s, source: input)
                if s.fixes == 0 && s.sensorSamples == 0 { throw TraceIO.noFixesError(s, source: input) }
                try writer.finish()
                try sensorWriter?.finish()
                if let waypoints { try Self.writeWaypoints(wpts, to: waypoints) }
                try out.commit()
                try sensorsOut?.commit()
                var msg = "\(input) → \(output): \(s.fixes) fix(es)"
                if s.sensorSamples > 0 {
                    msg += sensors != nil ? ", \(s.sensorSamples) sensor sample(s) → \(sensors!)"
                        : droppedSensors > 0 ? ", \(droppedSensors) sensor sample(s) not written (use --sensors FILE)"
                        : ", \(s.sensorSamples) sensor sample(s)"
                }
                if s.rawMeasurements > 0 { msg += ", \(s.rawMeasurements) Raw GNSS measurement(s) not processed" }
                if s.segments > 1 { msg += ", \(s.segments) track segments" }
                if inFmt == .gpx && s.ignoredRecords > s.untimedPoints {
                    msg += ", \(s.ignoredRecords - s.untimedPoints) route point(s) beside a track not converted"
                }
                if s.waypoints > 0 { msg += waypoints != nil ? ", \(s.waypoints) waypoint(s) → \(waypoints!)" : ", \(s.waypoints) waypoint(s) not part of the trace (use --waypoints FILE)" }
                Stderr.print(msg)
            }
        }
    }

    /// Writes GPX waypoints as CSV, GeoJSON Point features or GPX `wpt` elements.
    static func writeWaypoints(_ w: [GPXWaypoint], to path: String) throws {
        let fmt = try TraceIO.format(of: path, option: "--waypoints")
        func num(_ v: Double?) -> String { v.map { $0.description } ?? "" }
        func time(_ t: Double?) -> String { t.map { ByteParsing.iso8601String($0) } ?? "" }
        var out = ""
        switch fmt {
        case .csv:
            func quoted(_ s: String?) -> String {
                guard let s else { return "" }
                return s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" || $0 == "\r" })
                    ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
            }
            out = "name,latitude,longitude,altitude,geoid_separation,time\n"
            for p in w {
                out += "\(quoted(p.name)),\(p.latitude),\(p.longitude),\(num(p.altitude)),\(num(p.geoidSeparation)),\(time(p.time))\n"
            }
        case .geojson:
            let features = w.map { p -> GeoJSONFeature in
                var props: [String: JSONValue] = [:]
                if let n = p.name { props["name"] = .string(n) }
                if let a = p.altitude { props["altitude"] = .number(a) }
                if let n = p.geoidSeparation { props["geoid_separation"] = .number(n) }
                if let t = p.time { props["time"] = .string(ByteParsing.iso8601String(t)) }
                return GeoJSONFeature(geometry: .point(GeoJSONPosition(longitude: p.longitude, latitude: p.latitude, height: nil)),
                                      properties: props)
            }
            let enc = JSONEncoder()
            enc.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
            out = String(decoding: try enc.encode(GeoJSONFeatureCollection(features: features)), as: UTF8.self) + "\n"
        case .gpx:
            func esc(_ s: String) -> String {
                s.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
            }
            out = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<gpx version=\"1.1\" creator=\"GeoAnchorKit\" xmlns=\"http://www.topografix.com/GPX/1/1\">\n"
            for p in w {
                out += "<wpt lat=\"\(p.latitude)\" lon=\"\(p.longitude)\">"
                if let a = p.altitude { out += "<ele>\(a)</ele>" }
                if let t = p.time { out += "<time>\(ByteParsing.iso8601String(t))</time>" }
                if let n = p.geoidSeparation { out += "<geoidheight>\(n)</geoidheight>" }
                if let n = p.name { out += "<name>\(esc(n))</name>" }
                out += "</wpt>\n"
            }
            out += "</gpx>\n"
        case .nmea, .kml, .fit, .tcx, .ubx:
            throw InputError(file: "--waypoints", line: nil, message: "'\(path)': waypoints are written as .csv, .geojson or .gpx")
        }
        try OutputFile.write(out, to: path)
    }
}
