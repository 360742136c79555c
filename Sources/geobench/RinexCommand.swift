import ArgumentParser
import Foundation
import GeoAnchorKit

/// `geobench rinex`: raw measurements (GnssLogger, u-blox UBX, RINEX 2/3/4, Compact RINEX) to a
/// RINEX 3.04 observation file, for the GNSS tools that read RINEX (RTKLIB, gnss-lib-py, PPP
/// services) — the library's ``RinexObservationWriter``.
struct RinexCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rinex",
        abstract: "Write raw GNSS measurements (GnssLogger, u-blox RXM-RAWX, RINEX 2/3/4) as a RINEX 3.04 observation file.",
        discussion: """
        --input is what `gnss --input` reads, except a GSDC device_gnss.csv (its corrected \
        pseudoranges are not observations): an Android GnssLogger log with Raw records, a u-blox \
        UBX log with RXM-RAWX messages, or a RINEX 2.1x/3.0x/4.0x (or Compact RINEX) observation \
        file — kind by content, gzip/compress/ZIP opened. --nav (repeatable) gives a RINEX 2 \
        file's GLONASS channels. The output (--output FILE, or stdout) is RINEX 3.04, mixed \
        systems, GPS time: per system each signal's code, phase, Doppler and C/N0 that occur, the \
        phase's loss-of-lock digit, epoch flag 1 after a receiver clock jump, GLONASS channels \
        from the measurements' frequencies; --marker names the marker (default: the input's file \
        name). Values RINEX's F14.3 cannot hold are left blank and counted on stderr.

        --json prints one object on stdout: input, output, epochs, satellite_records, \
        unrepresentable, epochs_left_out. Invalid input exits with status 2 and `FILE:LINE: message`.
        """
    )

    @Option(help: "GnssLogger log with Raw records, u-blox UBX log with RXM-RAWX, or RINEX/Compact RINEX observation file.")
    var input: String

    @Option(help: "RINEX navigation file (repeatable): GLONASS channels for a RINEX 2 --input.")
    var nav: [String] = []

    @Option(help: "Output RINEX 3.04 observation file (default: stdout).")
    var output: String?

    @Option(help: "MARKER NAME (default: the input's file name without its extensions).")
    var marker: String?

    @Flag(help: "Print counts as JSON on stdout (needs --output).")
    var json = false

    func run() throws {
        try withInputErrors {
            if json && (output == nil || output == "-") {
                throw InputError(file: "--json", line: nil, message: "needs --output FILE (the RINEX text goes to stdout otherwise)")
            }
            let inputFile = try GnssCommand.GNSSInputFile(path: input)
            if GSDCDeviceGNSS.looksLike(firstLine: inputFile.firstLine) {
                throw InputError(file: input, line: 1, message: "a GSDC device_gnss.csv holds corrected pseudoranges, not observations: it has no RINEX form")
            }
            var channels: [Int: Int] = [:]
            for p in nav {
                let n = try RinexNavigationFile.read(contentsOf: URL(fileURLWithPath: p))
                channels.merge(n.glonassChannels) { a, _ in a }
            }
            let epochs = try GnssCommand.loadObservations(inputFile, glonassChannels: channels).epochs
            var header = RinexObservationWriter.Header()
            header.markerName = marker ?? String(URL(fileURLWithPath: input).lastPathComponent.prefix { $0 != "." })
            header.program = "geobench"
            header.comments = ["from " + URL(fileURLWithPath: input).lastPathComponent]
            let r = RinexObservationWriter.text(epochs: epochs, glonassChannels: channels, header: header)
            try OutputFile.write(r.text, to: output)
            if r.unrepresentable > 0 || r.epochsLeftOut > 0 {
                Stderr.print("\(input): \(r.unrepresentable) value(s) RINEX's F14.3 cannot hold (or satellite numbers beyond 99) left out, \(r.epochsLeftOut) epoch(s) without a writable time or with more than 999 satellites left out")
            }
            if json {
                let o: [String: Any] = ["input": input, "output": output ?? "-", "epochs": r.epochs, "satellite_records": r.satelliteRecords,
                                        "unrepresentable": r.unrepresentable, "epochs_left_out": r.epochsLeftOut]
                let d = try JSONSerialization.data(withJSONObject: o, options: [.sortedKeys])
                print(String(decoding: d, as: UTF8.self))
            } else if output != nil && output != "-" {
                Stderr.print("\(input) → \(output!): \(r.epochs) epochs, \(r.satelliteRecords) satellite records")
            }
        }
    }
}
