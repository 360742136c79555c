import ArgumentParser
import Foundation
import GeoAnchorKit

struct ConvertCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "convert",
        abstract: "Convert a trace between NMEA, GPX, CSV and GeoJSON (formats by file extension).",
        discussion: """
        Extensions: .nmea/.log/.txt (NMEA 0183; GnssLogger NMEA records too), .gpx (GPX 1.0/1.1 in, \
        1.1 out), .csv (the project's trace columns: time,latitude,longitude,altitude|ellipsoidal_height,\
        geoid_separation,horizontal_accuracy,vertical_accuracy,speed,course,heading,heading_accuracy,\
        satellites,hdop,vdop,pdop,quality; GSDC ground_truth.csv / device_gnss.csv are read too; a \
        sensors CSV has time,sensor,x,y,z), .geojson/.json (RFC 7946 Point features). Streams: \
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

    func run() throws {
        try withInputErrors {
            let inFmt = try TraceIO.format(of: input, option: "--input")
            let outFmt = try TraceIO.format(of: output, option: "--output")
            var opts = TraceReadOptions(skipInvalid: skipInvalid)
            if let date { opts.defaultDate = try TraceIO.parseDate(date) }
            guard FileManager.default.isReadableFile(atPath: input) else {
                throw InputError(file: input, line: nil, message: "cannot read file")
            }
            // OutputFile writes a regular file atomically: a failed conversion leaves no partial output.
            var summary = TraceReadSummary()
            try TraceOutput.write(to: output, format: outFmt) { writer in
                summary = try TraceReader.read(url: URL(fileURLWithPath: input), format: inFmt, options: opts,
                                               onFix: { try writer.write($0) }, onSensor: { try writer.write($0) })
                TraceIO.reportSkipped(summary, source: input)
                if summary.fixes == 0 && summary.sensorSamples == 0 {
                    throw InputError(file: input, line: nil, message: "no fixes found (\(summary.ignoredRecords) record(s) without a position fix)")
                }
            }
            let s = summary
            Stderr.print("\(input) → \(output): \(s.fixes) fix(es)\(s.sensorSamples > 0 ? ", \(s.sensorSamples) sensor sample(s)" : "")")
        }
    }
}
