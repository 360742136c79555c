import ArgumentParser
import Foundation
import GeoAnchorKit
import GeoAnchorKitSimulation

struct SimulateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "simulate",
        abstract: "Generate a deterministic simulated pedestrian trace with ground truth.",
        discussion: """
        Scenarios: zavist-tour (Závist oppidum, ≈ 49.96 N 14.39 E), city-walk (Prague Old Town). \
        The same scenario and --seed always give identical files. Outputs (format by extension): \
        --raw the phone's fixes (MSL altitude + geoid separation, horizontal/vertical accuracy, \
        speed, course), --truth the true track (ellipsoidal height, speed, course, device heading), \
        --sensors a CSV time,sensor,x,y,z (magnetometer µT with hard/soft iron, accelerometer m/s², \
        gyroscope rad/s; device axes), --pois a GeoJSON with the path and the stops. \
        --lateral-wander σ makes the walker stray from the drawn path (Gauss–Markov, σ meters, \
        correlation 30 s; default 0 = exactly on the line, as the shipped traces), for testing \
        path-aided filtering (`geobench filter --path`) against a walker who is not on the line. \
        --tracking FILE.csv / --compass FILE.csv also write an AR-tracking stream (time,x,y,z,yaw; \
        ARKit gravity frame, 10 Hz, scale error 1-2 %, yaw drift, one relocalisation jump) and a \
        compass stream (time,heading,heading_accuracy; 2 Hz, bias, disturbance episodes) for \
        `geobench align` (GeoRegistrationSimulator, seeded by --seed).
        """
    )

    @Option(help: "Scenario: zavist-tour or city-walk.")
    var scenario: String

    @Option(help: "Random seed (unsigned 64-bit).")
    var seed: UInt64 = 1

    @Option(help: "Raw (phone) fixes output file.")
    var raw: String

    @Option(help: "Ground-truth output file.")
    var truth: String

    @Option(help: "Sensor CSV output file (optional).")
    var sensors: String?

    @Option(help: "GeoJSON with the path and stops (optional).")
    var pois: String?

    @Option(help: "Sensor duration in seconds from the start (default: the scenario's).")
    var sensorDuration: Double?

    @Option(help: "σ (m) of the walker's sideways distance from the drawn path (default 0).")
    var lateralWander: Double = 0

    @Option(help: "AR tracking CSV output (time,x,y,z,yaw) for `geobench align` (optional).")
    var tracking: String?

    @Option(help: "Compass CSV output (time,heading,heading_accuracy) for `geobench align` (optional).")
    var compass: String?

    func run() throws {
        try withInputErrors {
            guard var config = TraceSimulator.Configuration.scenarios[scenario] else {
                throw InputError(file: "--scenario", line: nil,
                    message: "unknown scenario '\(scenario)' (known: \(TraceSimulator.Configuration.scenarios.keys.sorted().joined(separator: ", ")))")
            }
            if let d = sensorDuration {
                guard d >= 0, d.isFinite else { throw InputError(file: "--sensor-duration", line: nil, message: "\(d) must be ≥ 0") }
                config.sensors.duration = d
            }
            guard lateralWander >= 0, lateralWander.isFinite else {
                throw InputError(file: "--lateral-wander", line: nil, message: "\(lateralWander) must be ≥ 0 m")
            }
            config.lateralWander = lateralWander
            let out = try TraceSimulator(config: config, seed: seed).run()
            try write(out.raw, to: raw, option: "--raw")
            try write(out.truth, to: truth, option: "--truth")
            if let sensors {
                try TraceOutput.write(to: sensors, format: .csv) { w in for s in out.sensors { try w.write(s) } }
            }
            if let pois {
                let o = try OutputFile(path: pois)
                try o.write(try config.geoJSON.encoded(pretty: true) + Data("\n".utf8))
                try o.commit()
            }
            if tracking != nil || compass != nil {
                let streams = GeoRegistrationSimulator(seed: seed).run(truth: out.truth)
                if let tracking { try AlignCommand.write(tracking: streams.tracking, to: tracking) }
                if let compass { try AlignCommand.write(compass: streams.compass, to: compass) }
            }
            Stderr.print("\(scenario) seed \(seed): \(out.truth.count) truth epochs, \(out.raw.count) raw fixes, \(out.sensors.count) sensor samples, \(out.visits.count) stops")
        }
    }

    func write(_ fixes: [Fix], to path: String, option: String) throws {
        let fmt = try TraceIO.outputFormat(of: path, option: option)
        try TraceOutput.write(to: path, format: fmt) { w in for f in fixes { try w.write(f) } }
    }
}
