import Foundation
import Testing
@testable import GeoAnchorKit

/// Geo-registration against simulator truth (independent reference: the ground truth of
/// `TraceSimulator` + `GeoRegistrationSimulator`, which the estimator never sees).
@Suite("Anchoring: geo-registration")
struct GeoRegistrationTests {
    /// One simulated walk: the scenario with phone-like GNSS (ADVIO figures: slow error 2.5 m per
    /// axis, τ 15 s, outliers and canyons as the scenario has them), AR tracking and compass.
    static func walk(_ name: String, seed: UInt64, phoneGNSS: Bool = true, compass: Bool = true,
                     configuration: GeoRegistrationConfiguration = GeoRegistrationConfiguration()) -> GeoRegistrationEvaluation {
        var config = TraceSimulator.Config.scenarios[name]!
        if phoneGNSS { config.gnss = GeoRegistrationSimulator.phoneGNSS(config.gnss) }
        config.sensors.duration = 0
        let out = TraceSimulator(config: config, seed: seed).run()
        let streams = GeoRegistrationSimulator(seed: seed &+ 1000).run(truth: out.truth)
        return GeoRegistrationEvaluation.run(raw: out.raw, streams: streams, useCompass: compass, configuration: configuration)
    }

    @Test func devMetrics() {
        for (name, seed) in [("zavist-tour", UInt64(1)), ("city-walk", 2), ("zavist-tour", 3), ("city-walk", 4)] {
            for compass in [true, false] {
                var c = GeoRegistrationConfiguration()
                let env = ProcessInfo.processInfo.environment
                if let v = env["GCT"].flatMap(Double.init) { c.gnssCorrelationTime = v }
                if let v = env["GCF"].flatMap(Double.init) { c.gnssCorrelatedFraction = v }
                if let v = env["YAWM"].flatMap(Double.init) { c.trackingYawNoisePerRootMeter = v }
                if let v = env["YAWS"].flatMap(Double.init) { c.trackingYawNoisePerRootSecond = v }
                if let v = env["OMEGA"].flatMap(Double.init) { c.yawDriftRateNoise = v }
                if let v = env["POSN"].flatMap(Double.init) { c.trackingPositionNoise = v }
                if let v = env["SCALEN"].flatMap(Double.init) { c.scaleNoisePerRootMeter = v }
                if ProcessInfo.processInfo.environment["NOSMOOTH"] != nil {
                    c.stillRotationRate = 1000; c.stillTranslationRate = 1000; c.movingRotationRate = 1000; c.movingTranslationRate = 1000
                }
                let e = Self.walk(name, seed: seed, compass: compass, configuration: c)
                let big = e.samples.filter { ($0.stillAnchorSpeed ?? 0) > 1 }
                if env["VERBOSE"] != nil { print("big still speeds", big.count, big.prefix(5).map { ($0.time, $0.stillAnchorSpeed!) })
                print("events", e.events.prefix(12)) }
                if ProcessInfo.processInfo.environment["SERIES"] != nil {
                    for smp in e.samples where Int(smp.time * 10) % 100 == 0 && abs(smp.headingError) > 3 {
                        print(name, compass, String(format: "t %.0f walked %.0f err %.2f sigma %.2f pos %.1f", smp.time - e.samples[0].time, smp.walked, smp.headingError, smp.headingSigma, smp.positionError), smp.compassError ?? 0)
                    }
                }
                let m = e.metrics
                print(name, seed, compass, String(format: "h100 %.2f f50 %.2f c50 %.2f pos %.2f raw %.2f (%.2f) 2s %.3f still %.2f", m.headingP95After100, m.headingP95First50, m.compassP95First50, m.positionP95, m.rawP95, m.positionP95 / m.rawP95, m.within2Sigma, m.stillSpeedP95), e.summary.fixesGated, e.summary.compassGated, e.summary.trackingJumps, e.events.count)
            }
        }
    }
}
