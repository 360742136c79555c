import Foundation
import GeoAnchorKit
import GeoAnchorKitSimulation

extension GeoRegistrationReport {
    /// AR tracking that diverges (visual-inertial odometry running away smoothly: no step is a
    /// jump) 300 s into each walk, fast (1 m/s² for 15 s, coming back relocalised or continued
    /// from the diverged pose) or slow (0.3 m/s² for 20 s, continued), with and without the
    /// divergence check (``GeoRegistrationConfiguration/divergenceSpeed``); and the same walks undisturbed (the check's false alarms, and the windows'
    /// figures without a divergence). 48 runs a row: seeds 1–6, both scenarios, both GNSS kinds,
    /// with and without compass.
    static func divergedTracking() -> [String] {
        typealias Resumption = GeoRegistrationSimulator.Output.Resumption
        /// A runaway: acceleration m/s² for seconds, the yaw turning spin °/s.
        struct Runaway: Hashable { var acceleration: Double, seconds: Double, spin: Double }
        let fast = Runaway(acceleration: 1, seconds: 15, spin: 2), slow = Runaway(acceleration: 0.3, seconds: 20, spin: 0.1)
        let into = 300.0
        var unchecked = GeoRegistrationConfiguration()
        unchecked.divergenceSpeed = nil
        let variants: [(label: String, runaway: Runaway?, resumption: Resumption?, configuration: GeoRegistrationConfiguration)] = [
            ("undisturbed               default      ", nil, nil, GeoRegistrationConfiguration()),
            ("diverged, relocalised     without check", fast, .sameFrame, unchecked),
            ("diverged, relocalised     default      ", fast, .sameFrame, GeoRegistrationConfiguration()),
            ("diverged, continued       without check", fast, .continued, unchecked),
            ("diverged, continued       default      ", fast, .continued, GeoRegistrationConfiguration()),
            ("slow runaway, continued   without check", slow, .continued, unchecked),
            ("slow runaway, continued   default      ", slow, .continued, GeoRegistrationConfiguration())
        ]
        struct Row { var position: [Double] = [], ratio: [Double] = [], heading: [Double] = [], coverage = 1.0, detected = 0, runs = 0, delay: [Double] = [] }
        var rows = [Row](repeating: Row(), count: variants.count)
        for scenario in [TraceSimulator.Configuration.zavistTour, TraceSimulator.Configuration.cityWalk] {
            for seed in UInt64(1)...6 {
                for phone in [false, true] {
                    guard let (raw, whole) = try? GeoRegistrationEvaluation.simulate(scenario, seed: seed, phoneGNSS: phone),
                          let t0 = whole.tracking.first.map({ $0.time + into }) else { continue }
                    // A different direction per walk (degrees clockwise from the frame's nominal north).
                    let direction = Double(seed) * 97 + (phone ? 40 : 0)
                    var diverged: [Runaway: [Resumption: GeoRegistrationSimulator.Output]] = [:]
                    for runaway in [fast, slow] {
                        for r in [Resumption.sameFrame, .continued] {
                            diverged[runaway, default: [:]][r] = whole.diverged(at: t0, for: runaway.seconds, acceleration: runaway.acceleration,
                                                                                direction: direction, spin: runaway.spin, resumption: r)
                        }
                    }
                    for compass in [true, false] {
                        for (k, v) in variants.enumerated() {
                            let streams: GeoRegistrationSimulator.Output?
                            if let runaway = v.runaway, let r = v.resumption { streams = diverged[runaway]?[r] } else { streams = whole }
                            guard let streams, let end = (v.runaway == nil ? diverged[fast]?[.sameFrame] : streams)?.divergence?.end else { continue }
                            let e = GeoRegistrationEvaluation.run(raw: raw, streams: streams, useCompass: compass,
                                                                  configuration: v.configuration)
                            let during = e.p95(from: t0, to: end + 60)
                            rows[k].position.append(during.position)
                            rows[k].ratio.append(during.position / e.rawP95(from: t0, to: end + 60))
                            rows[k].heading.append(e.p95(from: end + 60, to: end + 300).heading)
                            rows[k].coverage = Swift.min(rows[k].coverage, e.metrics.within2Sigma)
                            rows[k].runs += 1
                            if e.summary.trackingDivergences > 0 { rows[k].detected += 1 }
                            if let time = e.events.lazy.compactMap({ if case let .trackingDiverged(time, _, _) = $0 { return time } else { return nil } }).first {
                                rows[k].delay.append(time - t0)
                            }
                        }
                    }
                }
            }
        }
        var lines = [String(format: "  AR tracking diverging %.0f s into the walk (odometry running away at %.0f m/s² for %.0f s, %.0f m by its end, yaw turning %.0f°/s; then",
                            into, fast.acceleration, fast.seconds, 0.5 * fast.acceleration * fast.seconds * fast.seconds, fast.spin),
                     String(format: "  relocalised in its old frame, or continued from the diverged pose; a slow runaway: %.1f m/s² for %.0f s, yaw %.1f°/s),",
                            slow.acceleration, slow.seconds, slow.spin),
                     "  48 runs a row (seeds 1–6, both scenarios, shipped and phone GNSS, with and without compass), without and with the divergence",
                     "  check (GeoRegistrationConfiguration.divergenceSpeed: the tracked velocity against the fixes' own — Doppler speed and course —,",
                     "  2 m/s, 3 fixes in a row); the same walks undisturbed.",
                     "  Position p95 from the divergence to a minute after it (mean, worst; worst as × the raw fixes' p95 then), heading p95 60–300 s",
                     "  after it (mean, worst), least |err| ≤ 2σ, runs where a divergence was detected (median seconds after it began)"]
        for (k, v) in variants.enumerated() where rows[k].runs > 0 {
            let r = rows[k], n = Double(r.runs)
            let delay = r.delay.isEmpty ? "" : String(format: " (%.0f s)", GeoRegistrationEvaluation.quantile(r.delay, 0.5))
            lines.append(String(format: "    %@  position %5.1f / %5.1f m (%5.2f × raw)  heading %5.2f° / %5.2f°  |err|≤2σ ≥ %5.1f %%  detected %2d of %d%@",
                                v.label, r.position.reduce(0, +) / n, r.position.max() ?? .nan, r.ratio.max() ?? .nan,
                                r.heading.reduce(0, +) / n, r.heading.max() ?? .nan, 100 * r.coverage, r.detected, r.runs, delay))
        }
        return lines
    }
}
