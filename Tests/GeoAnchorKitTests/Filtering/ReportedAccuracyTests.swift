import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport
@testable import GeoAnchorKitSimulation

/// The filters' reported accuracy (``PositionFilter/Configuration/correlatedErrorShare``,
/// ``HeadingFilter/Configuration/correlatedErrorShare``): never claims to have averaged out GNSS
/// or compass error that lasts minutes.
@Suite("Reported accuracy of the filters")
struct ReportedAccuracyTests {
    // A device standing still for 10 min, fixes each second stating 5 m (σ 3.30 m per axis),
    // whose error is a random walk around a 3 m offset (seeded): after 600 fixes the model's
    // covariance has shrunk far below one fix's, so the reported σ is the floor exactly.
    // Reference: the definition, √(κ_c) × the latest accepted fix's σ (tolerance 1e-12 relative,
    // rounding). Without the floor (κ_c = 0) it is below half of that (measured 1.12 m vs 2.57 m),
    // so the floor is what is tested.
    @Test("a still device: reported σ stays at the correlated share of the fix's")
    func stillDeviceFloor() throws {
        var rng = SeededRandom(seed: 42)
        let frame = try LocalTangentFrame(origin: GeodeticCoordinate(latitude: 50, longitude: 14, ellipsoidalHeight: 0))
        var fixes: [Fix] = []
        var be = 3.0, bn = 0.0
        for k in 0..<600 {
            be += 0.05 * rng.gaussian(); bn += 0.05 * rng.gaussian()
            let g = frame.geodetic(east: be + rng.gaussian(), north: bn + rng.gaussian(), up: 0)
            fixes.append(Fix(time: 1_780_000_000 + Double(k), latitude: g.latitude, longitude: g.longitude,
                             ellipsoidalHeight: 0, horizontalAccuracy: 5))
        }
        let c = PositionFilter.Configuration.adaptive
        let fixSigma = 5 * c.horizontalSigmaPerAccuracy
        let floor = (c.correlatedErrorShare * fixSigma * fixSigma).squareRoot()
        let t = PositionFilter.track(fixes, configuration: c, smooth: true)
        let last = try #require(t.filteredLocal.last)
        #expect(last.status == .updated)
        #expect(abs(last.correlatedSigma - floor) <= 1e-12 * floor, "\(last.correlatedSigma) vs \(floor)")
        #expect(abs(last.horizontalSigma - floor) <= 1e-12 * floor, "\(last.horizontalSigma) vs \(floor)")
        let smoothed = try #require(t.smoothedLocal)
        #expect(smoothed.allSatisfy { $0.horizontalSigma >= $0.correlatedSigma && $0.correlatedSigma > 0 })
        // The filtered fix's 68 % radius is the same σ in the input's convention.
        let f = try #require(t.filtered.last)
        #expect(abs(f.horizontalAccuracy - floor / c.horizontalSigmaPerAccuracy) <= 1e-9)

        var none = c
        none.correlatedErrorShare = 0
        let u = try #require(PositionFilter.track(fixes, configuration: none).filteredLocal.last)
        #expect(u.correlatedSigma == 0)
        #expect(u.horizontalSigma < 0.5 * floor, "without the floor \(u.horizontalSigma) m")
        // Only the reported σ changes, not the estimate.
        #expect(u.east == last.east && u.north == last.north)
    }

    // Simulated walks (TraceSimulator zavist-tour and city-walk, seeds 1–2) whose fixes state
    // 0.86 × their true error, as phones do, with the scenarios' GNSS (τ 90 s) and with GNSS
    // whose error lasts minutes (GeoRegistrationSimulator.persistentGNSS: 65 % τ 600 s).
    // Reference: the simulator's truth; the share of epochs within each track's stated 68 %
    // radius (TrackAccuracy.withinAccuracy), mean over the 4 walks. The filtered and smoothed
    // radii must be as honest as the fixes' own within 6 points (measured at κ_c 0.6: shipped
    // raw 52 %, filtered 51 %, smoothed 66 %; persistent 48 / 44 / 57 %); without the floor the
    // filtered radius is ≥ 15 points worse than the fixes' (measured 25 % against 48 %), so the
    // test separates the two.
    @Test("on correlated GNSS the filtered radius is as honest as the fixes'")
    func honestOnCorrelatedGNSS() throws {
        let models: [(String, (TraceSimulator.GNSSErrorModel) -> TraceSimulator.GNSSErrorModel)] = [
            ("shipped", { $0 }), ("persistent", GeoRegistrationSimulator.persistentGNSS)]
        for (label, model) in models {
            var raw = 0.0, filtered = 0.0, smoothed = 0.0, unfloored = 0.0, walks = 0.0
            for var scenario in [TraceSimulator.Configuration.zavistTour, .cityWalk] {
                scenario.gnss = model(scenario.gnss)
                scenario.sensors.duration = 0
                for seed in [1, 2] as [UInt64] {
                    let out = try TraceSimulator(config: scenario, seed: seed).run()
                    let ref = ReferenceTrack(out.truth)
                    let c = FilterAccuracyComparison.evaluate(fixes: out.raw, reference: ref, configuration: .adaptive)
                    raw += try #require(c.raw.withinAccuracy)
                    filtered += try #require(c.filtered.withinAccuracy)
                    smoothed += try #require(c.smoothed.withinAccuracy)
                    if label == "persistent" {
                        var none = PositionFilter.Configuration.adaptive
                        none.correlatedErrorShare = 0
                        let u = FilterAccuracyComparison.evaluate(fixes: out.raw, reference: ref, configuration: none)
                        unfloored += try #require(u.filtered.withinAccuracy)
                    }
                    walks += 1
                }
            }
            raw /= walks; filtered /= walks; smoothed /= walks; unfloored /= walks
            #expect(filtered >= raw - 0.06, "\(label): filtered \(filtered) vs raw \(raw)")
            #expect(smoothed >= raw - 0.06, "\(label): smoothed \(smoothed) vs raw \(raw)")
            if label == "persistent" { #expect(unfloored <= raw - 0.15, "\(label): without the floor \(unfloored) vs raw \(raw)") }
        }
    }

    // Simulated walks (TraceSimulator zavist-tour and city-walk, seed 1) with
    // GeoRegistrationSimulator's compass (2 Hz: 4° bias, 4° τ 60 s slow error, 7° white, 20–60°
    // disturbance episodes, stating ≈ 12°) and its AR tracking's yaw rate as the gyro
    // (HeadingFilterComparison). Reference: the simulator's true heading. The filter's 68 %
    // half-width must hold the truth at least as often as the raw readings' own minus 10 points and
    // its 2σ at least 85 % of the time (measured raw 77 %, filter 80 %, 2σ 94 %); without the floor
    // it held 21 % (≤ 40 % required: the floor is what is tested). The filter must also be
    // better than the compass it filters (p95, measured 18.2° vs 37.6°).
    @Test("a compass with bias and disturbances: the heading filter's accuracy is honest")
    func headingFilterHonest() throws {
        var withFloor = HeadingFilterComparison(), without = HeadingFilterComparison()
        var unfloored = HeadingFilter.Configuration()
        unfloored.correlatedErrorShare = 0
        for var scenario in [TraceSimulator.Configuration.zavistTour, .cityWalk] {
            scenario.sensors.duration = 0
            let out = try TraceSimulator(config: scenario, seed: 1).run()
            let streams = GeoRegistrationSimulator(seed: 1).run(truth: out.truth)
            withFloor.add(streams)
            without.add(streams, configuration: unfloored)
        }
        let raw = try #require(withFloor.rawHonesty), filtered = try #require(withFloor.filteredHonesty)
        let twoSigma = try #require(withFloor.filteredTwoSigma), before = try #require(without.filteredHonesty)
        #expect(filtered >= raw - 0.1, "within 68 %: filter \(filtered), raw compass \(raw)")
        #expect(twoSigma >= 0.85, "within 2σ \(twoSigma)")
        #expect(before <= 0.4, "without the floor \(before)")
        let filteredP95 = withFloor.filteredStatistics.p95, rawP95 = withFloor.rawStatistics.p95
        #expect(filteredP95 < rawP95, "p95 \(filteredP95)° vs raw \(rawP95)°")
    }
}
