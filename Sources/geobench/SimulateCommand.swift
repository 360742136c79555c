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
        `geobench align` (GeoRegistrationSimulator, seeded by --seed). --pause-at S --pause D \
        interrupts that tracking (an app in the background): no tracking row and no compass reading \
        for D seconds from S seconds after the start, the session coming back per --resumption: \
        new-frame (default; origin and yaw 0 where the device is then, as ARKit resetTracking), \
        continued (the old frame continued from the pose it had) or same-frame (relocalised); \
        --announce-resumption adds the column event (reset or relocalized on the first row after \
        the pause), which `align` reads. --diverge-at S makes that tracking run away S seconds after \
        the start (visual-inertial odometry diverging: 1 m/s² for 15 s, 112 m by its end, yaw turning \
        2°/s, rows at the usual rate; then relocalised in its old frame), which `align` detects \
        (tracking_divergences). --gnss picks the raw fixes' error model: shipped (default; \
        the scenario's own, slow error 1.6 m per axis, τ 90 s, as traces/), phone (ADVIO-like: 2.5 m, \
        τ 15 s, 1.1 m white) or persistent (the phone's error budget with 65 % of its variance lasting \
        minutes, τ 600 s, as the GSDC drives' errors against their SPAN references do).
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

    @Option(help: "Interrupt the tracking this many seconds after the start (with --pause).")
    var pauseAt: Double?

    @Option(help: "Length of the tracking interruption, seconds (with --pause-at).")
    var pause: Double?

    @Option(help: "How the session comes back after the pause: new-frame (default), continued or same-frame.")
    var resumption: String?

    @Flag(help: "Mark the first tracking row after the pause in a column event (reset or relocalized).")
    var announceResumption = false

    @Option(help: "Make the --tracking stream diverge this many seconds after the start (1 m/s² for 15 s, yaw 2°/s, then relocalised).")
    var divergeAt: Double?

    @Option(help: "Error model of the --tracking stream: modern (default; scale 1–2 %, yaw drift 0.2–0.6°/min) or older (ADVIO's iPhone 6s: scale 4–14 %, yaw drift 0.65–1.9°/min; align --tracking-noise older).")
    var trackingModel = "modern"

    @Option(help: "GNSS error model of the raw fixes: shipped (default), phone or persistent.")
    var gnss = "shipped"

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
            switch gnss {
            case "shipped": break
            case "phone": config.gnss = GeoRegistrationSimulator.phoneGNSS(config.gnss)
            case "persistent": config.gnss = GeoRegistrationSimulator.persistentGNSS(config.gnss)
            default: throw InputError(file: "--gnss", line: nil, message: "unknown GNSS model '\(gnss)' (known: shipped, phone, persistent)")
            }
            // Checked before anything is written.
            let trackingErrors: GeoRegistrationSimulator.TrackingModel
            switch trackingModel {
            case "modern": trackingErrors = .init()
            case "older": trackingErrors = .olderPhone
            default: throw InputError(file: "--tracking-model", line: nil, message: "unknown tracking model '\(trackingModel)' (known: modern, older)")
            }
            if trackingModel != "modern" && tracking == nil {
                throw InputError(file: "--tracking-model", line: nil, message: "'\(trackingModel)' needs --tracking (it is the AR tracking stream's error model)")
            }
            let interruption = try pauseOptions()
            if interruption != nil && tracking == nil && compass == nil {
                throw InputError(file: "--pause-at", line: nil, message: "a pause needs --tracking (it interrupts the AR tracking stream)")
            }
            if let d = divergeAt {
                guard tracking != nil else {
                    throw InputError(file: "--diverge-at", line: nil, message: "a divergence needs --tracking (it is the AR tracking stream's)")
                }
                guard d.isFinite, d >= 0 else { throw InputError(file: "--diverge-at", line: nil, message: "'\(d)' is not a time in seconds ≥ 0") }
            }
            let out = try TraceSimulator(config: config, seed: seed).run()
            // The AR streams (and a pause or divergence that does not fit the walk, exit 2) before
            // any file is written.
            var streams: GeoRegistrationSimulator.Output?
            var event: (time: Double, name: String)?
            if tracking != nil || compass != nil {
                var simulator = GeoRegistrationSimulator(seed: seed)
                simulator.tracking = trackingErrors
                var s = simulator.run(truth: out.truth)
                if let (at, length, kind) = interruption, let t0 = s.tracking.first?.time {
                    guard let paused = s.interrupted(at: t0 + at, for: length, resumption: kind), let i = paused.interruption else {
                        throw InputError(file: "--pause-at", line: nil, message: "no tracking after a \(length) s pause at \(at) s (the walk is shorter)")
                    }
                    s = paused
                    if announceResumption { event = (i.end, kind == .sameFrame ? "relocalized" : "reset") }
                }
                if let d = divergeAt, let t0 = s.tracking.first?.time {
                    guard let diverged = s.diverged(at: t0 + d, for: 15, acceleration: 1, direction: 60, spin: 2, resumption: .sameFrame) else {
                        throw InputError(file: "--diverge-at", line: nil, message: "no tracking 15 s after \(d) s (the walk is shorter)")
                    }
                    s = diverged
                }
                streams = s
            }
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
            if let streams {
                if let tracking { try AlignCommand.write(tracking: streams.tracking, event: event, to: tracking) }
                if let compass { try AlignCommand.write(compass: streams.compass, to: compass) }
            }
            Stderr.print("\(scenario) seed \(seed): \(out.truth.count) truth epochs, \(out.raw.count) raw fixes, \(out.sensors.count) sensor samples, \(out.visits.count) stops")
        }
    }

    /// `--pause-at`, `--pause`, `--resumption`, `--announce-resumption` checked together: nil
    /// without a pause.
    func pauseOptions() throws -> (at: Double, length: Double, resumption: GeoRegistrationSimulator.Output.Resumption)? {
        guard let pauseAt, let pause else {
            if pauseAt != nil || pause != nil {
                throw InputError(file: pauseAt == nil ? "--pause" : "--pause-at", line: nil, message: "--pause-at and --pause go together")
            }
            if resumption != nil || announceResumption {
                throw InputError(file: resumption != nil ? "--resumption" : "--announce-resumption", line: nil, message: "needs --pause-at and --pause")
            }
            return nil
        }
        guard pauseAt >= 0, pauseAt.isFinite else { throw InputError(file: "--pause-at", line: nil, message: "\(pauseAt) must be ≥ 0 s") }
        guard pause > 0, pause.isFinite else { throw InputError(file: "--pause", line: nil, message: "\(pause) must be > 0 s") }
        let kinds: [String: GeoRegistrationSimulator.Output.Resumption] = ["new-frame": .newFrame, "continued": .continued, "same-frame": .sameFrame]
        guard let kind = kinds[resumption ?? "new-frame"] else {
            throw InputError(file: "--resumption", line: nil, message: "unknown resumption '\(resumption ?? "")' (known: new-frame, continued, same-frame)")
        }
        return (pauseAt, pause, kind)
    }

    func write(_ fixes: [Fix], to path: String, option: String) throws {
        let fmt = try TraceIO.outputFormat(of: path, option: option)
        try TraceOutput.write(to: path, format: fmt) { w in for f in fixes { try w.write(f) } }
    }
}
