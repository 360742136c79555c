import Foundation
import Testing
@testable import GeoAnchorKit
@testable import GeoAnchorKitSimulation

/// Geo-registration against simulator truth. Independent reference: the ground truth of
/// `TraceSimulator` (the walk, GNSS errors) and `GeoRegistrationSimulator` (AR tracking drift,
/// scale error and jump; compass bias and disturbances), which the estimator never sees.
@Suite("Anchoring: geo-registration")
struct GeoRegistrationTests {
    /// One simulated walk (≈ 2 km, 4–5 dwell stops): the scenario with phone-like GNSS (ADVIO
    /// figures: slow error 2.5 m per axis decorrelating in 15 s, 1.1 m white; outliers and canyons
    /// as the scenario has them), AR tracking (1–2 % scale, yaw drift, one 2–4 m jump) and compass
    /// (σ ≈ 9°, bias, 20–60° disturbance episodes).
    /// `shippedGNSS`: the scenario's own GNSS model instead (slow error 1.6 m per axis, τ 90 s).
    static func walk(_ name: String, seed: UInt64, compass: Bool, shippedGNSS: Bool = false,
                     configuration: GeoRegistrationConfiguration = GeoRegistrationConfiguration()) throws -> GeoRegistrationEvaluation {
        try GeoRegistrationEvaluation.walk(TraceSimulator.Configuration.scenarios[name]!, seed: seed, phoneGNSS: !shippedGNSS,
                                           useCompass: compass, configurations: [configuration])[0]
    }

    static let walks: [(String, UInt64)] = [("zavist-tour", 1), ("city-walk", 2), ("zavist-tour", 3), ("city-walk", 4)]

    /// Targets with compass, per walk. Tolerances: measured values (README table) plus margin;
    /// issue 12 asks heading p95 ≤ 1.5° after 100 m, which three of these walks reach (measured
    /// 0.72–3.11°; city-walk seed 2's canyons spoil it): the bound here is 3.5°, the honest figure.
    @Test(arguments: walks) func withCompass(_ name: String, _ seed: UInt64) throws {
        let e = try Self.walk(name, seed: seed, compass: true)
        let m = e.metrics
        #expect(m.headingP95After100 <= 3.5, "heading p95 after 100 m \(m.headingP95After100)°")
        // First 50 m never worse than the compass alone (p95 of |error| over the same samples).
        #expect(m.headingP95First50 <= m.compassP95First50, "first 50 m: fused \(m.headingP95First50)° vs compass \(m.compassP95First50)°")
        // Device position p95 ≤ 0.6 × the raw fixes' p95 (issue target).
        #expect(m.positionP95 <= 0.6 * m.rawP95, "position p95 \(m.positionP95) m vs raw \(m.rawP95) m")
        // Honest uncertainty (issue target): |error| ≤ 2σ at ≥ 90 % of times, σ as reported (the
        // filter's σ × headingSigmaInflation 1.3; with the filter's own σ 0.87–1.0, the 0.87 in
        // city-walk seed 2's canyon where multipath pulls position and heading together).
        #expect(m.within2Sigma >= 0.9, "within 2σ: \(m.within2Sigma)")
        // Standing still, an anchor 50 m away moves ≤ 0.5 m/s (p95; issue target).
        #expect(m.stillSpeedP95 <= 0.5, "still anchor speed p95 \(m.stillSpeedP95) m/s")
        // The one relocalisation jump is detected.
        #expect(e.summary.trackingJumps >= 1)
        // The reported compass bias against the simulated bias + slow error (reference: the
        // simulator's truth, which the estimator never sees), after 100 m: p95 measured
        // 3.9–5.1° (the slow error alone, i.e. assuming no bias: p95 ≈ 14°), bound 6.5°; its σ
        // honest, |error| ≤ 2σ at 98.2–99.5 % of times, bound 90 %.
        let bias = e.samples.filter { $0.walked >= 100 }.compactMap { x in x.compassBiasError.map { ($0, x.compassBiasSigma ?? 0) } }
        #expect(bias.count > 1000)
        let biasP95 = GeoRegistrationEvaluation.quantile(bias.map { Swift.abs($0.0) }, 0.95)
        let biasWithin = Double(bias.filter { Swift.abs($0.0) <= 2 * $0.1 }.count) / Double(Swift.max(bias.count, 1))
        #expect(biasP95 <= 6.5, "compass bias p95 \(biasP95)°")
        #expect(biasWithin >= 0.9, "compass bias within 2σ \(biasWithin)")
    }

    /// The GNSS error's long-lived part (``GeoRegistrationConfiguration/gnssLongShare``): GNSS
    /// whose slow error outlasts the 20 s the short part assumes (the scenarios' own model, τ 90 s;
    /// twelve walks, seeds 1–6 of both scenarios, with compass) against the one-timescale model
    /// (share 0). Reference: simulator truth. Measured: position p95 / raw mean 0.505 against
    /// 0.519 (≤ 0.6 on 9 walks against 8), heading p95 after 100 m mean 1.50° against 1.51°,
    /// |err| ≤ 2σ ≥ 0.94 on every walk. Bounds: the mean ratio lower by ≥ 0.01, the target met on
    /// at least as many walks, coverage ≥ 0.9 on each.
    @Test func longGNSSErrorPart() throws {
        var one = GeoRegistrationConfiguration()
        one.gnssLongShare = 0
        var ratios = (two: [Double](), one: [Double]())
        for name in ["zavist-tour", "city-walk"] {
            for seed in UInt64(1)...6 {
                let e = try GeoRegistrationEvaluation.walk(TraceSimulator.Configuration.scenarios[name]!, seed: seed, phoneGNSS: false,
                                                           useCompass: true, configurations: [GeoRegistrationConfiguration(), one])
                let two = e[0].metrics, single = e[1].metrics
                ratios.two.append(two.positionP95 / two.rawP95)
                ratios.one.append(single.positionP95 / single.rawP95)
                #expect(two.within2Sigma >= 0.9, "\(name) seed \(seed): within 2σ \(two.within2Sigma)")
            }
        }
        let mean = (two: ratios.two.reduce(0, +) / 12, one: ratios.one.reduce(0, +) / 12)
        #expect(mean.two <= mean.one - 0.01, "position p95 / raw, mean: \(mean.two) against \(mean.one) with one timescale")
        #expect(ratios.two.filter { $0 <= 0.6 }.count >= ratios.one.filter { $0 <= 0.6 }.count)
    }

    /// What limits the heading is the canyons (README, Limits; the report's “degraded reception”
    /// lines): the city walks of seeds 1–6 (phone GNSS, compass) with their canyon stretches in
    /// open sky meet the issue's 1.5° each (report, 24 walks: worst 1.18°), and their mean is
    /// lower by more than 0.3° than the same walks with canyons (report: 0.99° vs 1.57° over 24).
    /// Reference: the simulator's truth; bounds the issue's target and half the measured gap.
    @Test func canyonsLimitTheHeading() throws {
        var open = TraceSimulator.Configuration.cityWalk
        open.canyons = []
        var means = (canyons: 0.0, open: 0.0)
        for seed in UInt64(1)...6 {
            let withCanyons = try GeoRegistrationEvaluation.walk(.cityWalk, seed: seed, phoneGNSS: true, useCompass: true,
                                                                 configurations: [GeoRegistrationConfiguration()])[0].metrics
            let inOpenSky = try GeoRegistrationEvaluation.walk(open, seed: seed, phoneGNSS: true, useCompass: true,
                                                               configurations: [GeoRegistrationConfiguration()])[0].metrics
            #expect(inOpenSky.headingP95After100 <= 1.5, "seed \(seed): open sky \(inOpenSky.headingP95After100)°")
            means.canyons += withCanyons.headingP95After100 / 6
            means.open += inOpenSky.headingP95After100 / 6
        }
        #expect(means.open <= means.canyons - 0.3, "mean heading p95 after 100 m: open sky \(means.open)° vs canyons \(means.canyons)°")
    }

    /// Magnetometer-free: the heading comes from the walk alone (Procrustes start, then the EKF).
    /// Issue target ≤ 2.0° after 100 m; measured 0.83–3.26° (fix courses carry most of it), bound 3.5°.
    @Test(arguments: walks) func withoutCompass(_ name: String, _ seed: UInt64) throws {
        let e = try Self.walk(name, seed: seed, compass: false)
        let m = e.metrics
        #expect(m.headingP95After100 <= 3.5, "heading p95 after 100 m \(m.headingP95After100)°")
        #expect(m.positionP95 <= 0.6 * m.rawP95, "position p95 \(m.positionP95) m vs raw \(m.rawP95) m")
        #expect(m.within2Sigma >= 0.9, "within 2σ: \(m.within2Sigma)")
        #expect(e.summary.compassUsed == 0)
        #expect(e.events.contains { if case .headingInitialized = $0 { return true } else { return false } })
    }

    /// A tour that rides a tram or bus between two walks (`TraceSimulator.walkRideWalk`: 5 min
    /// walk, 10 min ride at 8–14 m/s with stops and turns, walk on) with AR tracking throughout:
    /// the ride is motion, not relocalisations. With an absolute speed limit for jumps every frame
    /// of the ride was one (≈ 3,500 per ride, position p95 25–69 m against the raw fixes' 4–5 m,
    /// heading 4–12°; seeds 1–4). First do no harm — reference: the simulator's truth; bounds:
    /// position p95 ≤ the raw fixes' p95 (measured 0.70–0.73 × here, 0.61–0.92 × on seeds 1–4),
    /// heading p95 after 100 m ≤ 2.5° (0.86–1.06° here, 0.9–1.7° on seeds 1–4), |error| ≤ 2σ at
    /// ≥ 90 % (100 % here), and only the simulated relocalisation counted as a jump.
    @Test(arguments: [UInt64(5), 6]) func vehicleRideIsMotion(_ seed: UInt64) throws {
        let (truth, raw) = TraceSimulator.walkRideWalk(seed: seed)
        let streams = GeoRegistrationSimulator(seed: seed &+ 1000).run(truth: truth)
        for compass in [true, false] {
            let e = GeoRegistrationEvaluation.run(raw: raw, streams: streams, useCompass: compass)
            let m = e.metrics
            #expect(m.positionP95 <= m.rawP95, "position p95 \(m.positionP95) m vs raw \(m.rawP95) m")
            #expect(m.headingP95After100 <= 2.5, "heading p95 after 100 m \(m.headingP95After100)°")
            #expect(m.within2Sigma >= 0.9, "within 2σ: \(m.within2Sigma)")
            #expect(e.summary.trackingJumps == 1, "jumps: \(e.summary.trackingJumps)")
        }
    }

    /// Jump detection from the tracking alone (reference: the construction): at 1 Hz a walk at
    /// 1.3 m/s with a 90° corner (departure 1.8 m) and at 10 Hz a vehicle braking from 14 m/s at
    /// 1.2 m/s² and turning at 5 m/s² are motion; a 3 m sideways relocalisation is one jump at
    /// either rate, and only it; a frozen pose is two jumps, not a hundred. (A speed threshold of
    /// 5 m/s × dt let the 1 Hz jump pass: 3 m + the 1.3 m step.)
    @Test func jumpsAreDepartureFromTrackedMotion() throws {
        func jumps(rate: Double, _ position: (Double) -> SIMD2<Double>) throws -> [Double] {
            var reg = GeoRegistration(convention: .enu)
            for k in 0...Int(120 * rate) {
                let t = Double(k) / rate, p = position(t)
                try reg.update(tracking: ARTrackingSample(time: t, position: SIMD3(p.x, p.y, 0), yaw: 0))
            }
            return reg.events.compactMap { if case .trackingJump(let t, _, false) = $0 { return t } else { return nil } }
        }
        // On foot at 1 Hz: north 60 s, then east (a corner at t = 60), a 3 m jump west at t = 90.
        let walk: (Double) -> SIMD2<Double> = { t in
            let n = 1.3 * Swift.min(t, 60), e = 1.3 * Swift.max(0, t - 60)
            return SIMD2(e - (t >= 90 ? 3 : 0), n)
        }
        #expect(try jumps(rate: 1, walk) == [90])
        #expect(try jumps(rate: 10, walk) == [90])
        // A tram at 10 Hz: 14 m/s east for 20 s, a quarter turn north on a 40 m radius (4.9 m/s²
        // centripetal), then braking at 1.2 m/s² to a stop — no jumps.
        let tram: (Double) -> SIMD2<Double> = { t in
            let r = 40.0, v = 14.0, turn = Double.pi / 2 * r / v
            if t < 20 { return SIMD2(v * t, 0) }
            if t < 20 + turn { let a = v / r * (t - 20); return SIMD2(280 + r * Foundation.sin(a), r - r * Foundation.cos(a)) }
            let tb = Swift.min(t - 20 - turn, v / 1.2)
            return SIMD2(280 + r, r + v * tb - 0.6 * tb * tb)
        }
        #expect(try jumps(rate: 10, tram).isEmpty)
        // Tracking that freezes (ARKit holds the pose while tracking is limited) on a bicycle at
        // 6.6 m/s for 10 s, then resumes: the freeze and the resumption are a jump each, and the
        // frozen steps are not — they are judged by their own velocity, not the pre-freeze one
        // (by which each of the hundred would have been a jump).
        let freeze: (Double) -> SIMD2<Double> = { t in SIMD2(6.6 * (t < 30 ? t : t < 40 ? 30 : t - 10), 0) }
        #expect(try jumps(rate: 10, freeze).map { ($0 * 10).rounded() / 10 } == [30.1, 40.1])
    }

    /// A GNSS dropout with no compass: the estimate coasts on the tracking, and its heading σ
    /// must grow as the filter's own yaw model says (reference: the configured yaw random walk
    /// over the coasted time and distance, √(σ₀² + q) — a lower bound, drift-rate uncertainty
    /// adds to it; × the reported-σ inflation), not keep the value of the last fix (which it did
    /// while the covariance was propagated only at measurements).
    @Test func sigmaGrowsWhileCoasting() throws {
        var reg = GeoRegistration()
        let frame = try LocalTangentFrame(origin: GeodeticCoordinate(latitude: 50, longitude: 14, ellipsoidalHeight: 300))
        var rng = SeededRandom(seed: 9)
        var before: GeoRegistrationEstimate?
        for k in 0...4000 {
            let t = 1_000_000 + Double(k) * 0.1
            let d = Double(k) * 0.13   // 1.3 m/s: north 130 m, then east
            let e = d <= 130 ? 0 : d - 130, n = Swift.min(d, 130)
            try reg.update(tracking: ARTrackingSample(time: t, position: SIMD3(e, 0, -n), yaw: d <= 130 ? 0 : 90))
            // Fixes for the first 200 s, then none (a dropout of 200 s).
            if k % 10 == 0 && k <= 2000 {
                let g = frame.geodetic(east: e + rng.gaussian(), north: n + rng.gaussian(), up: 0)
                try reg.update(fix: Fix(time: t, latitude: g.latitude, longitude: g.longitude, ellipsoidalHeight: g.ellipsoidalHeight,
                                        horizontalAccuracy: 1.5))
            }
            if k == 2000 { before = reg.estimate }
        }
        let start = try #require(before), end = try #require(reg.estimate)
        let c = GeoRegistrationConfiguration()
        let walked = 2000 * 0.13, seconds = 200.0
        let q = c.trackingYawNoisePerRootMeter * c.trackingYawNoisePerRootMeter * walked
            + c.trackingYawNoisePerRootSecond * c.trackingYawNoisePerRootSecond * seconds
        let own0 = start.headingSigma / c.headingSigmaInflation
        let expected = (own0 * own0 + q).squareRoot() * c.headingSigmaInflation
        #expect(end.headingSigma >= expected - 1e-9, "heading σ \(start.headingSigma)° → \(end.headingSigma)°, at least \(expected)°")
        #expect(end.horizontalAccuracy > start.horizontalAccuracy + 1, "horizontal accuracy \(start.horizontalAccuracy) → \(end.horizontalAccuracy) m")
    }

    /// Fixes whose reported accuracy is 0.37 × what it should be (the simulator's log-mean −1
    /// instead of −0.15; phones under multipath report like this): the accuracy check widens them
    /// and says so (maximum factor ≥ 1.5), which keeps |heading error| ≤ 2σ at ≥ 90 % (reference:
    /// simulator truth); taken at face value the σ is overconfident. Honest accuracies are not
    /// widened at all (no false alarm). Measured (city-walk 3, zavist-tour 4): widened × 2.3 and
    /// × 2.3; within 2σ 100 % and 98.3 % (90.4 % and 90.1 % unchecked); heading p95 after 100 m
    /// 1.68° and 1.75° (2.52°, 1.76°); position 0.29 and 0.48 × raw (0.41, 0.53); the honest fixes'
    /// largest factor 1.0 on both.
    @Test(arguments: [("city-walk", UInt64(3)), ("zavist-tour", 4)]) func optimisticAccuraciesAreWidened(_ name: String, _ seed: UInt64) throws {
        var config = TraceSimulator.Configuration.scenarios[name]!
        config.gnss = GeoRegistrationSimulator.phoneGNSS(config.gnss)
        config.sensors.duration = 0
        let honest = try TraceSimulator(config: config, seed: seed).run()
        config.gnss.reportedLogMean = -1
        let optimistic = try TraceSimulator(config: config, seed: seed).run()
        let streams = GeoRegistrationSimulator(seed: seed &+ 1000).run(truth: honest.truth)
        var off = GeoRegistrationConfiguration()
        off.fixAccuracyAdaptationTime = nil
        let checked = GeoRegistrationEvaluation.run(raw: optimistic.raw, streams: streams, useCompass: true)
        let unchecked = GeoRegistrationEvaluation.run(raw: optimistic.raw, streams: streams, useCompass: true, configuration: off)
        let plain = GeoRegistrationEvaluation.run(raw: honest.raw, streams: streams, useCompass: true)
        #expect(checked.summary.maximumFixAccuracyScale >= 1.5, "widened by \(checked.summary.maximumFixAccuracyScale)")
        #expect(checked.metrics.within2Sigma >= 0.9, "within 2σ: \(checked.metrics.within2Sigma)")
        #expect(unchecked.metrics.within2Sigma < checked.metrics.within2Sigma)
        #expect(plain.summary.maximumFixAccuracyScale == 1, "honest accuracies widened by \(plain.summary.maximumFixAccuracyScale)")
    }

    /// The reported 68 % horizontal radius against the truth (simulator; the share of times the
    /// position error was within it, 0.68 honest): city-walk seed 3 with the scenario's own GNSS
    /// (streams seed 1003), whose slow error the filter's timescales partly average "out", 0.60
    /// without ``GeoRegistrationConfiguration/gnssPersistentShare``, 0.69 with 0.25, 0.75 with 0.4; the
    /// position itself is the same (only the reported accuracy has the floor). Bounds: 0.55–0.90,
    /// and ≥ 0.05 above the run without; positions identical.
    @Test func reportedPositionAccuracyKeepsThePersistentGNSSError() throws {
        var noFloor = GeoRegistrationConfiguration()
        noFloor.gnssPersistentShare = 0
        let runs = try GeoRegistrationEvaluation.walk(.cityWalk, seed: 3, phoneGNSS: false, useCompass: true,
                                                      configurations: [GeoRegistrationConfiguration(), noFloor])
        let (e, f) = (runs[0], runs[1])
        #expect(e.positionWithin68 >= 0.55 && e.positionWithin68 <= 0.9, "within the 68 % radius \(e.positionWithin68)")
        #expect(f.positionWithin68 <= e.positionWithin68 - 0.05, "without the floor \(f.positionWithin68)")
        #expect(e.samples.map(\.positionError) == f.samples.map(\.positionError))
    }

    /// GNSS whose error lasts minutes (``GeoRegistrationSimulator/persistentGNSS(_:)``: 65 % of the
    /// variance with τ 600 s, as real phones' errors against SPAN references), four walks (seeds 1–2,
    /// both scenarios, with compass; reference: simulator truth). Fusion cannot average such an
    /// error out (position p95 0.39–0.83 × raw here) and must not claim to: first do no harm
    /// (position p95 ≤ raw), |heading error| ≤ 2σ at ≥ 90 % (99.4–100 %), and the stated 68 % radius
    /// holds the truth on average over the walks at least 45 % of the time — measured 48 % (each
    /// walk 18–89 %: a persistent error is nearly one draw per walk, so it is the mean over walks a
    /// user meets; 44 % with the earlier ``GeoRegistrationConfiguration/gnssPersistentShare`` 0.25).
    /// Below 68 % because the simulated phone states its accuracy too small (log-normal factor
    /// with ln-mean −0.15) and no check sees an error every fix shares (README: “GNSS errors that
    /// last minutes”).
    @Test func persistentGNSSErrorIsNotClaimedAveragedOut() throws {
        var within68: [Double] = []
        for var scenario in [TraceSimulator.Configuration.zavistTour, .cityWalk] {
            scenario.gnss = GeoRegistrationSimulator.persistentGNSS(scenario.gnss)
            for seed: UInt64 in [1, 2] {
                let e = try GeoRegistrationEvaluation.walk(scenario, seed: seed, phoneGNSS: false, useCompass: true,
                                                           configurations: [GeoRegistrationConfiguration()])[0]
                let m = e.metrics
                #expect(m.positionP95 <= m.rawP95, "seed \(seed): position p95 \(m.positionP95) m, raw \(m.rawP95) m")
                #expect(m.within2Sigma >= 0.9, "seed \(seed): |err| ≤ 2σ \(m.within2Sigma)")
                within68.append(e.positionWithin68)
            }
        }
        let mean = within68.reduce(0, +) / Double(within68.count)
        #expect(mean >= 0.45, "within the 68 % radius on average \(mean) (each walk \(within68))")
    }

    /// AR tracking at ADVIO's iPhone 6s magnitudes (``GeoRegistrationSimulator/TrackingModel/olderPhone``:
    /// three times the default model's yaw noise and drift, scale 4–14 % off and varying 2.5 %),
    /// in a steady session (one jump; with ADVIO's jump every 100 s or so each detected jump widens
    /// the heading σ, which hides the shortfall — the report shows both). A configuration that
    /// models a modern phone's tracking and keeps to it (``GeoRegistrationConfiguration/trackingQualityGate``
    /// nil) states a heading σ and a horizontal accuracy that are too small there;
    /// ``GeoRegistrationConfiguration/olderARTracking`` states honest ones, and so do the defaults,
    /// whose tracking quality check finds the scale error and yaw drift beyond its priors early in
    /// the walk and raises the tracking noise.
    /// Measured (reference: simulator truth; with compass): city-walk seed 2, shipped GNSS:
    /// |heading error| ≤ 2σ 79.7 (no check) → 95.3 (defaults, raised 116 s in) → 97.7 % (olderARTracking),
    /// within the 68 % radius 36 → 54 → 56 %; Závist seed 2, phone GNSS: 78.5 → 99.0 → 99.0 %
    /// (56 → 76 → 79 %; raised 73 s in). Bounds: ≥ 90 % with either, < 90 % without the check
    /// (the control), and the 68 % radius holding the truth ≥ 10 points more often.
    @Test func olderTrackingIsStatedHonestly() throws {
        var steady = GeoRegistrationSimulator.TrackingModel.olderPhone
        steady.jumpInterval = nil
        var unchecked = GeoRegistrationConfiguration()
        unchecked.trackingQualityGate = nil
        for (scenario, seed, phone) in [(TraceSimulator.Configuration.cityWalk, UInt64(2), false), (.zavistTour, 2, true)] {
            let (raw, streams) = try GeoRegistrationEvaluation.simulate(scenario, seed: seed, phoneGNSS: phone, tracking: steady)
            let modern = GeoRegistrationEvaluation.run(raw: raw, streams: streams, useCompass: true, configuration: unchecked)
            #expect(modern.metrics.within2Sigma < 0.9, "\(scenario.name), the control: |err| ≤ 2σ \(modern.metrics.within2Sigma)")
            #expect(modern.summary.trackingNoiseRaisedAt == nil)
            for (label, c) in [("defaults", GeoRegistrationConfiguration()), ("olderARTracking", .olderARTracking)] {
                let e = GeoRegistrationEvaluation.run(raw: raw, streams: streams, useCompass: true, configuration: c)
                #expect(e.metrics.within2Sigma >= 0.9, "\(scenario.name), \(label): |err| ≤ 2σ \(e.metrics.within2Sigma)")
                #expect(e.positionWithin68 >= modern.positionWithin68 + 0.1,
                        "\(scenario.name), \(label): within the 68 % radius \(modern.positionWithin68) → \(e.positionWithin68)")
            }
        }
    }

    /// What the tracking quality check found holds for the rest of the session: after a clock
    /// reset (a fix from the future, then later inputs: the estimator restarts) and an announced
    /// tracking reset the noise stays raised and the event is not made again. Walk: city-walk seed 2,
    /// shipped GNSS, ADVIO-magnitude tracking in a steady session, with compass (trips 116 s in:
    /// ``trackingQualityCheckTripsOnlyOnOlderTracking``); the fix from the future comes 300 s in, the reset at 600 s.
    @Test func trackingQualityFindingOutlastsResets() throws {
        var steady = GeoRegistrationSimulator.TrackingModel.olderPhone
        steady.jumpInterval = nil
        let (raw, streams) = try GeoRegistrationEvaluation.simulate(.cityWalk, seed: 2, phoneGNSS: false, tracking: steady)
        let t0 = try #require(streams.tracking.first?.time)
        var reg = GeoRegistration(convention: .arkitGravity(sessionHeading: 0))
        var fi = 0, ci = 0, injected = false, reset = false
        for t in streams.tracking {
            if !injected && t.time >= t0 + 300 {
                #expect(reg.isTrackingNoiseRaised)
                try reg.update(fix: Fix(time: t.time + 1e6, latitude: 49.9566, longitude: 14.3868, horizontalAccuracy: 5))
                injected = true
            }
            if !reset && t.time >= t0 + 600 { reg.trackingDidReset(); reset = true }
            try reg.update(tracking: t, fixes: raw, fixCursor: &fi, compass: streams.compass, compassCursor: &ci)
        }
        #expect(reg.summary.clockResets == 1 && reg.summary.trackingInterruptions >= 1)
        #expect(reg.isTrackingNoiseRaised)
        let raised = reg.events.filter { if case .trackingNoiseRaised = $0 { return true } else { return false } }
        #expect(raised.count == 1, "\(raised)")
        if let at = reg.summary.trackingNoiseRaisedAt { #expect(at < t0 + 300, "raised at \(at - t0) s") } else { Issue.record("no trackingNoiseRaisedAt") }
    }

    /// The tracking quality check (``GeoRegistrationConfiguration/trackingQualityGate``) trips on
    /// older tracking and says so, and leaves modern tracking alone. On older tracking (city-walk
    /// seed 2, shipped GNSS, steady session, with compass) the summary and one event say when, with
    /// the estimated scale error and drift. Reference for the scale: the walk's true length over its
    /// tracked length (steps over 1 m, the jump, left out), −11.4 %; measured: raised 116 s in at
    /// an estimate of −6.1 % (still converging), drift −0.03°/min. Bounds: the event once, its scale
    /// error of the reference's sign and beyond the 4 % no modern phone reaches (they are 1–2 % off).
    /// On the two modern walks of the report's 48 that came nearest to the gate (city-walk seed 5
    /// phone GNSS, its scale estimated −4.7 ± 1.1 % at 400 m; seed 1 shipped, drift −1.02 ±
    /// 0.36°/min), no compass: nothing raised, and the output is the same, to the bit, as without
    /// the check.
    @Test func trackingQualityCheckTripsOnlyOnOlderTracking() throws {
        var steady = GeoRegistrationSimulator.TrackingModel.olderPhone
        steady.jumpInterval = nil
        var unchecked = GeoRegistrationConfiguration()
        unchecked.trackingQualityGate = nil
        let (raw, streams) = try GeoRegistrationEvaluation.simulate(.cityWalk, seed: 2, phoneGNSS: false, tracking: steady)
        let older = GeoRegistrationEvaluation.run(raw: raw, streams: streams, useCompass: true)
        let t = try #require(older.summary.trackingNoiseRaisedAt)
        let raised = older.events.compactMap { e -> (Double, Double, Double)? in
            if case let .trackingNoiseRaised(time, scale, drift) = e { return (time, scale, drift) } else { return nil }
        }
        #expect(raised.count == 1 && raised.first?.0 == t)
        let frame = try LocalTangentFrame(origin: try #require(streams.truePositions.first))
        let truth = streams.truePositions.map { frame.enu(latitude: $0.latitude, longitude: $0.longitude, ellipsoidalHeight: 0) }
        var trueLength = 0.0, trackedLength = 0.0
        for k in 1..<streams.tracking.count {
            let d = streams.tracking[k].position - streams.tracking[k - 1].position
            let tracked = (d.x * d.x + d.z * d.z).squareRoot()
            guard tracked <= 1 else { continue }
            trackedLength += tracked
            trueLength += hypot(truth[k].east - truth[k - 1].east, truth[k].north - truth[k - 1].north)
        }
        let reference = trueLength / trackedLength - 1
        #expect(reference < -0.04, "reference scale error \(reference)")
        if let (_, scale, _) = raised.first { #expect(scale < -0.04, "scale error \(scale), reference \(reference)") }
        for (seed, phone) in [(UInt64(5), true), (1, false)] {
            let (raw, streams) = try GeoRegistrationEvaluation.simulate(.cityWalk, seed: seed, phoneGNSS: phone)
            let checked = GeoRegistrationEvaluation.run(raw: raw, streams: streams, useCompass: false)
            let plain = GeoRegistrationEvaluation.run(raw: raw, streams: streams, useCompass: false, configuration: unchecked)
            #expect(checked.summary.trackingNoiseRaisedAt == nil, "seed \(seed)")
            #expect(checked.summary == plain.summary && checked.samples.map(\.headingError) == plain.samples.map(\.headingError)
                    && checked.samples.map(\.horizontalAccuracy) == plain.samples.map(\.horizontalAccuracy), "seed \(seed)")
        }
    }

    /// The older-phone tracking model jumps throughout the walk (``GeoRegistrationSimulator/TrackingModel/jumpInterval``
    /// 100 s: ADVIO saw 2–4 jumps per 5 minutes), the default model once at 40–70 % of it, and the
    /// estimator detects them as tracking jumps. Reference: the simulator's own jump times.
    /// Measured (city-walk seed 2, 28.6 min: 17.2 expected): 19 jumps simulated, 20 detected. Bounds: jumps within the Poisson 4σ range of duration /
    /// 100 s; detected within ±20 % (a GNSS-detected jump may add one, a jump during a step may hide).
    @Test func olderPhoneTrackingJumpsThroughoutTheWalk() throws {
        let (raw, older) = try GeoRegistrationEvaluation.simulate(.cityWalk, seed: 2, phoneGNSS: false, tracking: .olderPhone)
        let (_, modern) = try GeoRegistrationEvaluation.simulate(.cityWalk, seed: 2, phoneGNSS: false)
        let t0 = try #require(older.tracking.first?.time), t1 = try #require(older.tracking.last?.time)
        let expected = (t1 - t0) / 100
        #expect(Swift.abs(Double(older.jumpTimes.count) - expected) <= 4 * expected.squareRoot(), "\(older.jumpTimes.count) jumps, expected \(expected)")
        #expect(older.jumpTime == older.jumpTimes.first)
        #expect(modern.jumpTimes.count == 1 && modern.jumpTime == modern.jumpTimes.first)
        if let j = modern.jumpTime { #expect(j >= t0 + 0.4 * (t1 - t0) - 1 && j <= t0 + 0.7 * (t1 - t0) + 1) }
        let detected = GeoRegistrationEvaluation.run(raw: raw, streams: older, useCompass: true, configuration: .olderARTracking).summary.trackingJumps
        #expect(Swift.abs(Double(detected - older.jumpTimes.count)) <= 0.2 * Double(older.jumpTimes.count), "detected \(detected) of \(older.jumpTimes.count)")
    }

    /// Map aiding where the GNSS error lasts minutes: the path is a reference that error does not
    /// share, so it removes what no averaging can. Two city walks (seeds 2–3; persistent GNSS, the
    /// walker straying σ 1.5 m, with compass; reference: simulator truth) with the tour path drawn
    /// ±2 m (stated as mapSigma 2 m): position p95 6.98 → 5.02 m (0.53 → 0.38 × raw) and 12.79 →
    /// 7.78 m (0.84 → 0.51 × raw), |err| ≤ 2σ 95.9 / 96.8 %. Bounds: each walk's position p95 with
    /// the path ≤ 0.85 × without; |err| ≤ 2σ ≥ 90 %.
    @Test func pathRemovesPersistentGNSSError() throws {
        var scenario = TraceSimulator.Configuration.cityWalk
        scenario.gnss = GeoRegistrationSimulator.persistentGNSS(scenario.gnss)
        scenario.lateralWander = 1.5
        for seed: UInt64 in [2, 3] {
            let (raw, streams) = try GeoRegistrationEvaluation.simulate(scenario, seed: seed, phoneGNSS: false)
            let path = try GeoRegistrationEvaluation.drawnPath(of: scenario, vertexError: 2, crossTrackSigma: 1.5, mapSigma: 2, seed: seed)
            let without = GeoRegistrationEvaluation.run(raw: raw, streams: streams, useCompass: true).metrics
            let with = GeoRegistrationEvaluation.run(raw: raw, streams: streams, useCompass: true, path: path).metrics
            #expect(with.positionP95 <= 0.85 * without.positionP95, "seed \(seed): position p95 \(with.positionP95) m with the path, \(without.positionP95) m without")
            #expect(with.within2Sigma >= 0.9, "seed \(seed): |err| ≤ 2σ \(with.within2Sigma)")
        }
    }

    /// Fixes whose reported accuracy is 2.6 × what it should be (the simulator's log-mean +0.8
    /// instead of −0.15; NMEA with only an HDOP, a WLS solver's σ): the accuracy check narrows
    /// them (factor on σ down to its floor 0.5), and the position gains over taking them as
    /// reported (reference: simulator truth). Honest accuracies are not narrowed at all (no false
    /// alarm: the 48-walk tables are the same bit for bit with and without narrowing). Measured
    /// (``GeoRegistrationEvaluation/simulate(_:seed:phoneGNSS:)``, seed 3): city-walk position
    /// 0.281 × raw (0.282 only widened), heading p95 1.09° (1.12°); zavist-tour 0.519 × (0.522),
    /// 1.13° (1.09°); |err| ≤ 2σ 100 % on all four — on these walks the gain is small (with the
    /// tracking streams seeded 3 instead of 1003 it was 0.45 / 0.40 × against 0.48 / 0.48 ×).
    /// Bounds: narrowed ≤ 0.7; position better than only widened; heading ≤ only widened + 0.2°;
    /// coverage ≥ 90 %.
    @Test(arguments: ["city-walk", "zavist-tour"]) func pessimisticAccuraciesAreNarrowed(_ name: String) throws {
        var config = TraceSimulator.Configuration.scenarios[name]!
        let honest = try GeoRegistrationEvaluation.simulate(config, seed: 3, phoneGNSS: true)
        config.gnss.reportedLogMean = 0.8
        let (pessimistic, streams) = try GeoRegistrationEvaluation.simulate(config, seed: 3, phoneGNSS: true)
        var widenOnly = GeoRegistrationConfiguration()
        widenOnly.fixAccuracyNarrowingTolerance = nil
        let narrowed = GeoRegistrationEvaluation.run(raw: pessimistic, streams: streams, useCompass: true)
        let widened = GeoRegistrationEvaluation.run(raw: pessimistic, streams: streams, useCompass: true, configuration: widenOnly)
        let plain = GeoRegistrationEvaluation.run(raw: honest.raw, streams: honest.streams, useCompass: true)
        let (n, w) = (narrowed.metrics, widened.metrics)
        #expect(narrowed.summary.minimumFixAccuracyScale <= 0.7, "narrowed only to × \(narrowed.summary.minimumFixAccuracyScale)")
        #expect(n.positionP95 < w.positionP95, "position p95 \(n.positionP95) m narrowed, \(w.positionP95) m only widened")
        #expect(n.headingP95After100 <= w.headingP95After100 + 0.2, "heading p95 \(n.headingP95After100)° narrowed, \(w.headingP95After100)° only widened")
        #expect(n.within2Sigma >= 0.9, "within 2σ: \(n.within2Sigma)")
        #expect(plain.summary.minimumFixAccuracyScale == 1, "honest accuracies narrowed to \(plain.summary.minimumFixAccuracyScale)")
    }

    /// A synthetic L-shaped walk (130 m north, then east, 1.3 m/s, tracking 10 Hz, fixes 1 Hz
    /// with 1 m white noise) in a session whose −z pointed at `psi`; `compass(t, trueHeading)`
    /// may return a reading per second.
    static func lWalk(psi: Double, steps: Int = 2000, compass: ((Double, Double) -> CompassReading?)? = nil,
                      each: ((inout GeoRegistration, Double) throws -> Void)? = nil) throws -> GeoRegistration {
        var reg = GeoRegistration()
        let frame = try LocalTangentFrame(origin: GeodeticCoordinate(latitude: 50, longitude: 14, ellipsoidalHeight: 300))
        var rng = SeededRandom(seed: 7)
        let (s, c) = Angle.sincos(degrees: psi)
        for k in 0...steps {
            let t = 1_000_000 + Double(k) * 0.1
            let d = Double(k) * 0.13
            let e = d <= 130 ? 0 : d - 130, n = Swift.min(d, 130)
            // Session coordinates: R(−ψ) of the true ENU (x = right, −z = forward).
            let se = c * e - s * n, sn = s * e + c * n
            let heading = d <= 130 ? 0.0 : 90.0
            try reg.update(tracking: ARTrackingSample(time: t, position: SIMD3(se, 0, -sn), yaw: heading - psi))
            if k % 10 == 0 {
                let g = frame.geodetic(east: e + rng.gaussian(), north: n + rng.gaussian(), up: 0)
                try reg.update(fix: Fix(time: t, latitude: g.latitude, longitude: g.longitude, ellipsoidalHeight: g.ellipsoidalHeight,
                                        horizontalAccuracy: 1.5))
                if let r = compass?(t, heading) { try reg.update(compass: r) }
            }
            try each?(&reg, t)
        }
        return reg
    }

    /// The heading offset of a session whose −z pointed at 70° must come out as 70° (reference:
    /// the construction), tolerance 0.5° after 260 m with 1 m white fix noise, no compass.
    @Test func recoversKnownOffset() throws {
        let reg = try Self.lWalk(psi: 70)
        let est = try #require(reg.estimate)
        #expect(abs(Angle.difference(from: 70, to: est.frameHeading)) <= 0.5, "frame heading \(est.frameHeading)")
        #expect(abs(Angle.difference(from: 90, to: est.heading)) <= 0.5)
        #expect(est.headingSigma < 2 && est.headingSigma > 0)
        #expect(est.isHeadingFromTrack)
    }

    /// The estimate reports the compass's bias once the walk has fixed the heading. Reference:
    /// the construction — readings = true heading + 8° + white noise σ 5° (the compass reads 8°
    /// clockwise); tolerance 2σ of the reported σ, which must be below 3° (the bias is a
    /// Gauss–Markov state with τ 60 s, so about 60 readings inform it). Without a compass the
    /// estimate has no bias (nil), not the prior's 0.
    @Test func reportsTheCompassBias() throws {
        var rng = SeededRandom(seed: 11)
        var firstWithBias: Double?
        let reg = try Self.lWalk(psi: 70, steps: 2600, compass: { t, h in
            CompassReading(time: t, heading: Angle.normalizeHeading(h + 8 + 5 * rng.gaussian()), headingAccuracy: 8)
        }, each: { reg, t in
            if firstWithBias == nil, reg.estimate?.compassBias != nil { firstWithBias = t }
        })
        let est = try #require(reg.estimate)
        let bias = try #require(est.compassBias), sigma = try #require(est.compassBiasSigma)
        #expect(est.isHeadingFromTrack)
        #expect(sigma > 0 && sigma < 3, "σ \(sigma)°")
        #expect(abs(bias - 8) <= 2 * sigma, "bias \(bias)° ± \(sigma)°, constructed 8°")
        #expect(firstWithBias != nil)
        let noCompass = try #require(try Self.lWalk(psi: 70).estimate)
        #expect(noCompass.compassBias == nil && noCompass.compassBiasSigma == nil)
        // A landmark correction alone informs it too (corrected = observed + offset: offset −8°).
        var reg2 = try Self.lWalk(psi: 70)
        let correction = LandmarkHeadingOffset(offset: -8, standardError: 1, formalStandardError: 1, reducedChiSquare: .nan, sightings: [])
        try reg2.update(compassCorrection: correction, time: 1_000_000 + 200.05)
        let withLandmark = try #require(reg2.estimate)
        #expect(abs(try #require(withLandmark.compassBias) - 8) < 1.5)
    }

    /// A compass disturbance (40° for 30 s, ramped like a passing car) after the walk has fixed
    /// the heading must not drag it: the frame heading moves ≤ 1° (reference: the construction,
    /// true offset 70°) and the disturbed readings are counted as gated.
    @Test func disturbedCompassDoesNotDragHeading() throws {
        var rng = SeededRandom(seed: 3)
        var before: Double?
        let reg = try Self.lWalk(psi: 70, steps: 2600, compass: { t, h in
            let k = (t - 1_000_000) / 0.1
            let disturbance = k >= 2200 && k < 2500 ? 40.0 * Swift.min(1, (k - 2200) / 30) : 0
            return CompassReading(time: t, heading: Angle.normalizeHeading(h + 2 + 5 * rng.gaussian() + disturbance), headingAccuracy: 10)
        }, each: { reg, t in
            if abs(t - (1_000_000 + 219.9)) < 1e-6 { before = reg.estimate?.frameHeading }
        })
        let b = try #require(before)
        let after = try #require(reg.estimate).frameHeading
        #expect(abs(Angle.difference(from: b, to: after)) <= 1, "before \(b)°, after \(after)°")
        #expect(abs(Angle.difference(from: 70, to: after)) <= 1)
        #expect(reg.summary.compassGated >= 20, "gated \(reg.summary.compassGated)")
    }

    /// A relocalisation that turns the session frame by 10° (and moves it 3 m) halfway up a
    /// straight 260 m walk north: the device did not turn, so its tracked yaw's step is the
    /// frame's rotation. Reference: the construction (frame heading 70° before, 80° after).
    /// Tolerances: 1° one second after the jump with the default yaw continuity (σ ≈ 1.4° at
    /// 10 Hz); without it (`jumpYawContinuitySigma = nil`) the heading only becomes uncertain and
    /// is still > 5° off one second later — the test sees the difference.
    @Test func jumpTurnsFrameNotDevice() throws {
        func run(_ configuration: GeoRegistrationConfiguration) throws -> (justAfter: Double, end: Double, jumps: Int) {
            var reg = GeoRegistration(configuration: configuration)
            let frame = try LocalTangentFrame(origin: GeodeticCoordinate(latitude: 50, longitude: 14, ellipsoidalHeight: 300))
            var rng = SeededRandom(seed: 11)
            var psi = 70.0, offset = SIMD2<Double>(0, 0)
            var justAfter = Double.nan
            for k in 0...2000 {
                let t = 1_000_000 + Double(k) * 0.1
                let n = Double(k) * 0.13
                if k == 1000 {
                    // Session coordinates before and after must differ by the 3 m jump only.
                    let (s0, c0) = Angle.sincos(degrees: psi), (s1, c1) = Angle.sincos(degrees: psi + 10)
                    let before = SIMD2(-s0 * n, c0 * n) + offset, after = SIMD2(-s1 * n, c1 * n)
                    offset = before - after + SIMD2(3, 0)
                    psi += 10
                }
                let (s, c) = Angle.sincos(degrees: psi)
                let q = SIMD2(-s * n, c * n) + offset   // R(−ψ) of (0, n): session (x, nominal north)
                try reg.update(tracking: ARTrackingSample(time: t, position: SIMD3(q.x, 0, -q.y), yaw: 0 - psi))
                if k % 10 == 0 {
                    let g = frame.geodetic(east: rng.gaussian(), north: n + rng.gaussian(), up: 0)
                    try reg.update(fix: Fix(time: t, latitude: g.latitude, longitude: g.longitude,
                                            ellipsoidalHeight: g.ellipsoidalHeight, horizontalAccuracy: 1.5))
                }
                if k == 1010 { justAfter = try #require(reg.estimate).frameHeading }
            }
            return (justAfter, try #require(reg.estimate).frameHeading, reg.summary.trackingJumps)
        }
        let continuity = try run(GeoRegistrationConfiguration())
        #expect(continuity.jumps == 1)
        #expect(abs(Angle.difference(from: 80, to: continuity.justAfter)) <= 1, "just after: \(continuity.justAfter)°")
        #expect(abs(Angle.difference(from: 80, to: continuity.end)) <= 1, "end: \(continuity.end)°")
        var without = GeoRegistrationConfiguration()
        without.jumpYawContinuitySigma = nil
        let relearn = try run(without)
        #expect(abs(Angle.difference(from: 80, to: relearn.justAfter)) > 5, "without continuity, just after: \(relearn.justAfter)°")
        // A non-finite σ in the configuration means "off", never a NaN covariance.
        var broken = GeoRegistrationConfiguration()
        broken.jumpYawRateSigma = .nan
        let guarded = try run(broken)
        #expect(guarded.justAfter == relearn.justAfter && guarded.end.isFinite)
    }

    /// Standing still after 195 m walked with 4 m fixes (reported heading σ ≈ 2.4°), a compass
    /// 20° off for 60 s (ramped in and out over 3 s: many readings inside the 3σ gate) must not
    /// drag the heading: ≤ 1° (reference: the construction, frame heading 70°), and less than
    /// without the robust weighting (`compassRobustThreshold = nil`; measured 0.28° against
    /// 0.38°), so the test sees the weighting.
    @Test func standingDisturbanceBarelyMovesHeading() throws {
        func run(_ configuration: GeoRegistrationConfiguration) throws -> (before: Double, after: Double) {
            var reg = GeoRegistration(configuration: configuration)
            let frame = try LocalTangentFrame(origin: GeodeticCoordinate(latitude: 50, longitude: 14, ellipsoidalHeight: 300))
            var rng = SeededRandom(seed: 5)
            let psi = 70.0, (s, c) = Angle.sincos(degrees: psi)
            var before = Double.nan
            for k in 0...2600 {
                let t = 1_000_000 + Double(k) * 0.1
                let n = Swift.min(Double(k), 1500) * 0.13       // 195 m north, then standing still
                try reg.update(tracking: ARTrackingSample(time: t, position: SIMD3(-s * n, 0, -c * n), yaw: 0 - psi))
                if k % 10 == 0 {
                    let g = frame.geodetic(east: 4 * rng.gaussian(), north: n + 4 * rng.gaussian(), up: 0)
                    try reg.update(fix: Fix(time: t, latitude: g.latitude, longitude: g.longitude,
                                            ellipsoidalHeight: g.ellipsoidalHeight, horizontalAccuracy: 6))
                }
                if k % 5 == 0 {
                    let since = Double(k - 1800) / 10, until = Double(2400 - k) / 10
                    let disturbance = k >= 1800 && k < 2400 ? 20 * Swift.min(1, since / 3, until / 3) : 0
                    try reg.update(compass: CompassReading(time: t, heading: Angle.normalizeHeading(2 + 5 * rng.gaussian() + disturbance),
                                                           headingAccuracy: 10))
                }
                if k == 1799 { before = try #require(reg.estimate).frameHeading }
            }
            return (before, try #require(reg.estimate).frameHeading)
        }
        let robust = try run(GeoRegistrationConfiguration())
        var plain = GeoRegistrationConfiguration()
        plain.compassRobustThreshold = nil
        let full = try run(plain)
        let moved = abs(Angle.difference(from: robust.before, to: robust.after))
        let movedPlain = abs(Angle.difference(from: full.before, to: full.after))
        print("standing disturbance: heading moved \(moved)° robust, \(movedPlain)° without")
        #expect(moved <= 1, "robust: \(robust.before)° → \(robust.after)°")
        #expect(moved < movedPlain, "robust \(moved)° vs plain \(movedPlain)°")
        #expect(abs(Angle.difference(from: 70, to: robust.after)) <= 1.5)
    }

    /// A landmark sighting agreeing with the truth keeps the heading; the sighting count shows it.
    /// Reference: the construction (a landmark 500 m due east of the corner, device pointing at it).
    @Test func landmarkSighting() throws {
        var reg = try Self.lWalk(psi: 70)
        let frame = try LocalTangentFrame(origin: GeodeticCoordinate(latitude: 50, longitude: 14, ellipsoidalHeight: 300))
        let state = try #require(reg.rawState)
        // The device faces east (true heading 90°): a landmark 500 m straight ahead.
        let g = frame.geodetic(east: state.east + 500, north: state.north, up: 0)
        try reg.update(sighting: GeodeticCoordinate(latitude: g.latitude, longitude: g.longitude), pointingAccuracy: 0.5, time: 1_000_200)
        #expect(reg.summary.landmarksUsed == 1)
        #expect(abs(Angle.difference(from: 70, to: try #require(reg.estimate).frameHeading)) <= 0.5)
    }

    @Test func rejectsBadInput() {
        var reg = GeoRegistration()
        #expect(throws: GeoAnchorError.self) { try reg.update(tracking: ARTrackingSample(time: 1, position: SIMD3(.nan, 0, 0), yaw: 0)) }
        #expect(throws: Never.self) { try reg.update(tracking: ARTrackingSample(time: 2, position: .zero, yaw: 0)) }
        #expect(throws: GeoAnchorError.self) { try reg.update(tracking: ARTrackingSample(time: 1, position: .zero, yaw: 0)) }
        // Finite but no walk: 1e308 m would overflow the squares (NaN estimates ever after).
        #expect(throws: GeoAnchorError.self) { try reg.update(tracking: ARTrackingSample(time: 2, position: SIMD3(0, 1e308, 0), yaw: 0)) }
        #expect(throws: Never.self) { try reg.update(tracking: ARTrackingSample(time: 2, position: SIMD3(0, 9e6, 0), yaw: 0)) }
        #expect(throws: GeoAnchorError.self) { try reg.update(compass: CompassReading(time: 3, heading: 10, headingAccuracy: 0)) }
        #expect(throws: GeoAnchorError.self) { try reg.update(fix: Fix(time: 3, latitude: 95, longitude: 0, horizontalAccuracy: 3)) }
        // A fix without an accuracy or HDOP (a GPX track point) is used with the configured σ and
        // counted; with no such σ configured it is counted as gated — never silently dropped.
        var strict = reg
        strict.configuration.unreportedFixSigma = nil
        #expect(throws: Never.self) { try strict.update(fix: Fix(time: 3, latitude: 50, longitude: 14)) }
        #expect(strict.summary.fixesGated == 1 && strict.summary.fixesUsed == 0)
        #expect(throws: Never.self) { try reg.update(fix: Fix(time: 3, latitude: 50, longitude: 14)) }
        #expect(reg.summary.fixesWithoutAccuracy == 1 && reg.summary.fixesUsed == 1 && reg.summary.fixesGated == 0)
    }

    /// Accuracies that carry no information — a fix stating 1e200 m or 200 km (receivers put
    /// 9999 m or more on invalid fixes, this is beyond the 100 km limit), a compass reading
    /// stating 1e200° or 200° — are counted gated, not used. Reference: the same walk with those
    /// inputs removed, bit for bit. Before the limits, a first fix stating 1e200 m overflowed the
    /// priors: on city-walk seed 3 the final 68 % radius was 23.5 m instead of 2.0 m.
    @Test func uninformativeAccuraciesAreGated() throws {
        var config = TraceSimulator.Configuration.cityWalk
        config.sensors.duration = 0
        let out = try TraceSimulator(config: config, seed: 3).run()
        let streams = GeoRegistrationSimulator(seed: 1003).run(truth: out.truth)
        var raw = out.raw, bad = streams
        raw[0].horizontalAccuracy = 1e200
        raw[100].horizontalAccuracy = 200_000
        bad.compass[0].headingAccuracy = 1e200
        bad.compass[300].headingAccuracy = 200
        var cleanRaw = out.raw, clean = streams
        cleanRaw.removeSubrange(100...100); cleanRaw.removeFirst()
        clean.compass.remove(at: 300); clean.compass.removeFirst()
        let gated = GeoRegistrationEvaluation.run(raw: raw, streams: bad, useCompass: true)
        let reference = GeoRegistrationEvaluation.run(raw: cleanRaw, streams: clean, useCompass: true)
        #expect(gated.summary.fixesGated == reference.summary.fixesGated + 2)
        #expect(gated.summary.compassGated == reference.summary.compassGated + 2)
        #expect(gated.summary.fixesUsed == reference.summary.fixesUsed && gated.summary.compassUsed == reference.summary.compassUsed)
        // The estimates (the compass-alone baseline differs: it takes the latest reading as is).
        func estimates(_ e: GeoRegistrationEvaluation) -> [[Double]] {
            e.samples.map { [$0.time, $0.headingError, $0.headingSigma, $0.positionError, $0.heightError, $0.anchorError200] }
        }
        #expect(!gated.samples.isEmpty && estimates(gated) == estimates(reference))
    }

    /// A landmark compass correction of `offset` degrees, σ 1°.
    static func correction(_ offset: Double) -> LandmarkHeadingOffset {
        LandmarkHeadingOffset(offset: offset, standardError: 1, formalStandardError: 1, reducedChiSquare: 1, sightings: [])
    }

    /// Feeds Závist seed 1 (phone GNSS, with compass) by hand, calling `inject` once at 30 % of
    /// the tracking samples; returns the horizontal position errors (m) against truth from there on
    /// and the registration.
    static func injectedWalk(_ inject: ((inout GeoRegistration, Double) throws -> Void)?) throws -> (errors: [Double], reg: GeoRegistration) {
        var config = TraceSimulator.Configuration.zavistTour
        config.gnss = GeoRegistrationSimulator.phoneGNSS(config.gnss)
        config.sensors.duration = 0
        let out = try TraceSimulator(config: config, seed: 1).run()
        let s = GeoRegistrationSimulator(seed: 1001).run(truth: out.truth)
        let frame = try LocalTangentFrame(origin: s.truePositions[0])
        var reg = GeoRegistration()
        var fi = 0, ci = 0, errors: [Double] = []
        let at = s.tracking.count * 3 / 10
        for (i, sample) in s.tracking.enumerated() {
            if i == at, let inject { try inject(&reg, sample.time) }
            try reg.update(tracking: sample, fixes: out.raw, fixCursor: &fi, compass: s.compass, compassCursor: &ci)
            guard i >= at, let e = reg.estimate else { continue }
            let a = frame.enu(latitude: e.position.latitude, longitude: e.position.longitude, ellipsoidalHeight: 0)
            let b = frame.enu(latitude: s.truePositions[i].latitude, longitude: s.truePositions[i].longitude, ellipsoidalHeight: 0)
            errors.append(hypot(a.east - b.east, a.north - b.north))
        }
        return (errors, reg)
    }

    /// One input from the future (a corrupted clock: a fix, or a landmark correction, 10⁶ s
    /// ahead) once stopped the covariance from growing for the rest of the walk (position p95
    /// ≈ 15.5 m against 2.85 m; every estimate NaN at time 1e300, now a typed error). Now five
    /// later inputs a minute or more behind restart the estimator (`clockResets`), which
    /// re-registers from the fixes. Reference: simulator truth; bound: p95 from the injection on
    /// ≤ 1.7 × that of the undisturbed walk (measured 4.53 m against 2.85 m: the fresh estimator
    /// starts from the fixes alone), and every estimate finite.
    @Test(arguments: ["fix", "landmark"]) func inputFromTheFutureRestartsTheClock(_ kind: String) throws {
        let base = try Self.injectedWalk(nil)
        let hit = try Self.injectedWalk { reg, t in
            if kind == "fix" { try reg.update(fix: Fix(time: t + 1e6, latitude: 49.9566, longitude: 14.3868, horizontalAccuracy: 5)) }
            else { try reg.update(compassCorrection: Self.correction(3), time: t + 1e6) }
        }
        #expect(hit.reg.summary.clockResets == 1)
        #expect(hit.errors.allSatisfy { $0.isFinite })
        let p0 = GeoRegistrationEvaluation.quantile(base.errors, 0.95), p1 = GeoRegistrationEvaluation.quantile(hit.errors, 0.95)
        #expect(p1 <= 1.7 * p0, "p95 \(p1) m vs \(p0) m undisturbed")
        var reg = GeoRegistration()
        #expect(throws: GeoAnchorError.self) { try reg.update(fix: Fix(time: 1e300, latitude: 50, longitude: 14, horizontalAccuracy: 5)) }
    }

    /// Values a source may state that carry nothing or wrap: a landmark correction of 360° is one
    /// of 0° (it once pulled the walk's position p95 from 2.85 to 13 m); a geo pose whose heading
    /// accuracy is 1e200° is used without its heading (its variance was infinite: every later
    /// estimate non-finite); a first fix 1e20 m high is used horizontally (it became the frame's
    /// origin: estimates 1e14 m off). Reference: the same walk with 0°, no heading, no height;
    /// tolerance 1e-6 m (only rounding differs) resp. bit for bit.
    @Test func wrappedAndUninformativeValues() throws {
        let zero = try Self.injectedWalk { reg, t in try reg.update(compassCorrection: Self.correction(0), time: t) }
        let full = try Self.injectedWalk { reg, t in try reg.update(compassCorrection: Self.correction(360), time: t) }
        #expect(zero.errors.count == full.errors.count && zip(zero.errors, full.errors).allSatisfy { abs($0 - $1) <= 1e-6 })
        var noRegistration = GeoRegistration()
        #expect(throws: GeoAnchorError.self) {
            try noRegistration.update(compassCorrection: Self.correction(1e6), time: 0)
        }
        // A pose before the heading is known (the first input after two tracking samples).
        func poseFirst(_ headingAccuracy: Double?) throws -> GeoRegistrationEstimate? {
            var reg = GeoRegistration()
            try reg.update(tracking: ARTrackingSample(time: 0, position: .zero, yaw: 0))
            try reg.update(tracking: ARTrackingSample(time: 1, position: SIMD3(0, 0, -1), yaw: 0))
            try reg.update(geoPose: ExternalGeoPose(time: 1, position: GeodeticCoordinate(latitude: 50, longitude: 14, ellipsoidalHeight: 300),
                                                    horizontalAccuracy: 3, heading: headingAccuracy == nil ? nil : 40, headingAccuracy: headingAccuracy))
            try reg.update(compass: CompassReading(time: 1.5, heading: 42, headingAccuracy: 10))
            try reg.update(tracking: ARTrackingSample(time: 2, position: SIMD3(0, 0, -2), yaw: 0))
            return reg.estimate
        }
        let huge = try #require(try poseFirst(1e200)), none = try #require(try poseFirst(nil))
        #expect(huge.heading.isFinite && huge == none)
        var config = TraceSimulator.Configuration.zavistTour
        config.gnss = GeoRegistrationSimulator.phoneGNSS(config.gnss)
        config.sensors.duration = 0
        var raw = try TraceSimulator(config: config, seed: 1).run().raw
        raw[0].height = 1e20
        var reg = GeoRegistration()
        try reg.update(tracking: ARTrackingSample(time: raw[0].time, position: .zero, yaw: 0))
        try reg.update(fix: raw[0])
        try reg.update(compass: CompassReading(time: raw[0].time, heading: 10, headingAccuracy: 10))
        let e = try #require(reg.estimate)
        #expect(abs(e.position.latitude - raw[0].latitude) < 1e-9 && abs(e.position.height) < 1e5)
    }

    /// A configuration value out of range (a zero correlation time would divide by zero in the
    /// Gauss–Markov factor) is refused with a typed error naming it, on every measurement, until
    /// the configuration is mended; nothing is counted meanwhile.
    /// The walk of ``walk(_:seed:compass:configuration:)`` with a walker who strays from the drawn
    /// path (σ 1.5 m, τ 30 s), run without and with map aiding (`path`: the scenario's waypoints,
    /// exact or transformed by `drawn`).
    static func strayingWalk(_ name: String, seed: UInt64, compass: Bool, dropout: ClosedRange<Double>? = nil, pathSigma: Double = 1.5,
                             mapSigma: Double = 0, pathError: Double = 0, streetMapError: Double? = nil,
                             drawn: ((ENUVector) -> (east: Double, north: Double))? = nil) throws -> (plain: GeoRegistrationEvaluation, aided: GeoRegistrationEvaluation) {
        var config = TraceSimulator.Configuration.scenarios[name]!
        config.gnss = GeoRegistrationSimulator.phoneGNSS(config.gnss)
        config.sensors.duration = 0
        config.lateralWander = 1.5
        let out = try TraceSimulator(config: config, seed: seed).run()
        let streams = GeoRegistrationSimulator(seed: seed &+ 1000).run(truth: out.truth)
        var path = try GeoRegistrationEvaluation.drawnPath(of: config, vertexError: pathError, crossTrackSigma: pathSigma, mapSigma: mapSigma,
                                                           seed: seed, moved: drawn)
        if let streetMapError {
            path = try GeoRegistrationEvaluation.streetMap(of: config, vertexError: streetMapError, crossTrackSigma: pathSigma, mapSigma: mapSigma, seed: seed)
        }
        var raw = out.raw
        if let d = dropout, let t0 = raw.first?.time { raw.removeAll { d.contains($0.time - t0) } }
        return (GeoRegistrationEvaluation.run(raw: raw, streams: streams, useCompass: compass),
                GeoRegistrationEvaluation.run(raw: raw, streams: streams, useCompass: compass, path: path))
    }

    /// Map aiding through a GNSS dropout (no fix for 120 s, as in a narrow street): the heading
    /// the path made certain before it carries the tracked walk through. Reference: simulator
    /// truth over the dropout's last 60 s; bound: p95 position error at most 0.8 × the unaided
    /// one (measured 1.86 m against 3.94 m). Applying the path once a second during the dropout
    /// too was tried and not kept: 2.04 m here, and no clear gain over 48 walks with long dropouts.
    @Test func mapAidingThroughADropout() throws {
        let (plain, aided) = try Self.strayingWalk("city-walk", seed: 2, compass: true, dropout: 600...720)
        let t0 = try #require(plain.samples.first?.time)
        func p95(_ e: GeoRegistrationEvaluation) -> Double {
            GeoRegistrationEvaluation.quantile(e.samples.filter { (660...720).contains($0.time - t0) }.map(\.positionError), 0.95)
        }
        #expect(p95(aided) <= 0.8 * p95(plain), "dropout position p95 \(p95(aided)) m vs unaided \(p95(plain)) m")
    }

    /// Map aiding: in the city walks' canyons the fixes stand off the street for a minute at a
    /// time (×3 errors, a 4 m pull across it) and turn the heading with them; the street itself,
    /// drawn in the tour's path, does not. Reference: simulator truth; the walker strays σ 1.5 m
    /// from the line. Bounds: the issue-12 targets (heading p95 after 100 m ≤ 1.5° with compass,
    /// ≤ 2.0° without; position ≤ 0.6 × raw; |error| ≤ 2σ ≥ 90 %), and the path must be what
    /// gets there: at most 0.9 × the unaided heading p95. Measured (2026-11-28, with the course
    /// acquisition of the heading): heading 1.20 / 1.23 / 1.10 / 0.80° against 1.48 / 1.47 / 1.50 /
    /// 2.02° unaided (0.40–0.84 ×), position 0.15–0.20 × raw.
    @Test(arguments: [("city-walk", UInt64(2), true), ("city-walk", 2, false), ("city-walk", 4, true), ("city-walk", 4, false)])
    func mapAidingObservesTheHeading(_ name: String, _ seed: UInt64, _ compass: Bool) throws {
        let (plain, aided) = try Self.strayingWalk(name, seed: seed, compass: compass)
        let p = plain.metrics, a = aided.metrics
        #expect(a.headingP95After100 <= (compass ? 1.5 : 2.0), "heading p95 after 100 m: \(a.headingP95After100)° (unaided \(p.headingP95After100)°)")
        #expect(a.headingP95After100 <= 0.9 * p.headingP95After100, "aided \(a.headingP95After100)° vs unaided \(p.headingP95After100)°")
        #expect(a.positionP95 <= 0.6 * a.rawP95, "position p95 \(a.positionP95) m vs raw \(a.rawP95) m")
        #expect(a.within2Sigma >= 0.9, "within 2σ: \(a.within2Sigma)")
        #expect(aided.summary.pathUpdates > aided.summary.pathSkipped)
        #expect(plain.summary.pathUpdates == 0)
    }

    /// Map aiding with a town's street map instead of the tour's path (what an app has when the
    /// visitor wanders freely: OpenStreetMap's walkable ways, `align --path FILE.osm`) — the
    /// walk's streets plus crossing, continuing and parallel streets every 80 m
    /// (`GeoRegistrationEvaluation.streetMap`). The extra streets must not pull the walk onto
    /// them: the leg choice keeps to the street walked. Reference: simulator truth; bounds as
    /// ``mapAidingObservesTheHeading(_:_:_:)`` for the exact map; for a map whose vertices are
    /// off by σ 2 m (stated as mapSigma 2 m) the heading p95 within 0.95 × unaided and position ≤
    /// 0.6 × raw. Measured (2026-11-28; seed 2 with / without compass, seed 4 with / without):
    /// exact heading 1.22 / 1.26 / 1.11 / 0.80°, ±2 m 1.31 / 1.35 / 1.15 / 0.97° (0.48–0.92 ×),
    /// against 1.48 / 1.47 / 1.50 / 2.02° unaided; position 0.15–0.24 × raw; within 2σ 0.98–1.0.
    /// (Before the heading could start from the fixes' courses the unaided walks without compass
    /// were 1.80 / 1.67° and the ±2 m map 0.83 × on seed 2; the bound was 0.9.)
    @Test(arguments: [("city-walk", UInt64(2), true), ("city-walk", 2, false), ("city-walk", 4, true), ("city-walk", 4, false)])
    func streetMapObservesTheHeading(_ name: String, _ seed: UInt64, _ compass: Bool) throws {
        for (error, map) in [(0.0, 0.0), (2.0, 2.0)] {
            let (plain, aided) = try Self.strayingWalk(name, seed: seed, compass: compass, mapSigma: map, streetMapError: error)
            let p = plain.metrics, a = aided.metrics
            if error == 0 {
                #expect(a.headingP95After100 <= (compass ? 1.5 : 2.0), "heading p95 after 100 m: \(a.headingP95After100)° (unaided \(p.headingP95After100)°)")
                #expect(a.within2Sigma >= 0.9, "within 2σ: \(a.within2Sigma)")
            }
            #expect(a.headingP95After100 <= (error == 0 ? 0.9 : 0.95) * p.headingP95After100, "±\(error) m: aided \(a.headingP95After100)° vs unaided \(p.headingP95After100)°")
            #expect(a.positionP95 <= 0.6 * a.rawP95, "±\(error) m: position p95 \(a.positionP95) m vs raw \(a.rawP95) m")
            #expect(aided.summary.pathUpdates > aided.summary.pathSkipped)
        }
    }

    /// A path whose vertices are off by σ 2 m, stated as what it is — the walker's stray
    /// (crossTrackSigma 1.5 m) and the drawing error (mapSigma 2 m, the walked segment's offset and
    /// turn estimated). Reference: simulator truth (city walk, seed 2, phone GNSS, with and without
    /// compass). Bounds (first do no harm, honest σ): heading p95 at most 20 % worse than unaided,
    /// |err| ≤ 2σ at ≥ 90 %, position ≤ 0.6 × raw. Measured (2026-11-28, compass / none): heading
    /// 1.57 / 1.67° against unaided 1.48 / 1.47° (1.06 / 1.14 ×; before the heading could start
    /// from the fixes' courses the walk without compass was 1.62° both ways and the bound 10 %);
    /// within 2σ 0.959 / 0.954; position 0.146 / 0.151 × raw. With the GNSS error's long part in the model the
    /// two statements of the map are a wash over the 48 walks (README: heading met 38 / 38, position
    /// 41 / 41, coverage 47 / 47); before it (one GNSS timescale) mapSigma won (39 / 36 heading,
    /// coverage 46 both).
    @Test(arguments: [true, false])
    func mapSigmaStatesTheDrawingError(_ compass: Bool) throws {
        let (plain, split) = try Self.strayingWalk("city-walk", seed: 2, compass: compass, pathSigma: 1.5, mapSigma: 2, pathError: 2)
        let p = plain.metrics, s = split.metrics
        #expect(s.headingP95After100 <= 1.2 * p.headingP95After100, "heading p95 \(s.headingP95After100)° vs unaided \(p.headingP95After100)°")
        #expect(s.within2Sigma >= 0.9, "within 2σ \(s.within2Sigma)")
        #expect(s.positionP95 <= 0.6 * s.rawP95, "position p95 \(s.positionP95) m vs raw \(s.rawP95) m")
        #expect(split.summary.pathUpdates > split.summary.pathSkipped)
    }

    /// First do no harm with a wrong map: the path drawn 6 m off the walk (every vertex moved
    /// 4.2 m east and north — inside the 2σ + 3 m corridor, so only the map check can tell). The
    /// check widens the constraint by the fixes' mean offset beyond their slow error and releases
    /// it beyond the limit; the estimate stays near the unaided one. Reference: simulator
    /// truth; bounds: ≥ 1 release, position p95 ≤ 1.2 × and heading p95 ≤ unaided + 0.5°.
    /// Measured: 7 releases each; position 4.76 / 3.49 m against 4.17 / 3.40 m unaided (1.14 /
    /// 1.03 ×), heading 1.97 / 1.07° against 1.67 / 1.05°. Without the mean offset widening the
    /// constraint the position was 5.92 / 5.08 m (1.4–1.5 × unaided).
    @Test(arguments: [("city-walk", UInt64(2)), ("zavist-tour", 3)])
    func misdrawnPathIsReleased(_ name: String, _ seed: UInt64) throws {
        let (plain, aided) = try Self.strayingWalk(name, seed: seed, compass: true) { (east: $0.east + 4.24, north: $0.north + 4.24) }
        let p = plain.metrics, a = aided.metrics
        #expect(aided.summary.pathReleases >= 1)
        #expect(a.positionP95 <= 1.2 * p.positionP95, "position p95 \(a.positionP95) m vs unaided \(p.positionP95) m")
        #expect(a.headingP95After100 <= p.headingP95After100 + 0.5, "heading p95 \(a.headingP95After100)° vs unaided \(p.headingP95After100)°")
    }

    /// The path set during the walk (a tour chosen after the AR session started) is used from
    /// then on, and setting it back to nil ends map aiding: counted constraints only while set.
    @Test func pathCanBeSetDuringTheWalk() throws {
        var config = TraceSimulator.Configuration.cityWalk
        config.sensors.duration = 0
        let out = try TraceSimulator(config: config, seed: 4).run()
        let streams = GeoRegistrationSimulator(seed: 4).run(truth: out.truth)
        var reg = GeoRegistration()
        var fi = 0, ci = 0, fixesWhileSet = 0
        let third = streams.tracking.count / 3
        for (k, t) in streams.tracking.enumerated() {
            if k == third { reg.path = try GeoRegistrationEvaluation.drawnPath(of: config) }
            if k == 2 * third {
                #expect(reg.summary.pathUpdates > 100, "\(reg.summary.pathUpdates) constraints in the middle third")
                reg.path = nil
            }
            let before = fi
            try reg.update(tracking: t, fixes: out.raw, fixCursor: &fi, compass: streams.compass, compassCursor: &ci)
            if reg.path != nil { fixesWhileSet += fi - before }
            if k == third - 1 { #expect(reg.summary.pathUpdates == 0 && reg.summary.pathSkipped == 0) }
        }
        // One decision per fix while the path was set, none before or after.
        let decisions = reg.summary.pathUpdates + reg.summary.pathSkipped
        #expect(decisions > 0 && decisions <= fixesWhileSet, "\(decisions) path decisions, \(fixesWhileSet) fixes while set")
    }

    /// A path somewhere else (the tour file of another town: every vertex 10 km off) is never
    /// within the corridor: skipped at every fix, and the estimate is the unaided one bit for bit.
    @Test func pathElsewhereChangesNothing() throws {
        let (plain, aided) = try Self.strayingWalk("zavist-tour", seed: 3, compass: false) { (east: $0.east + 10_000, north: $0.north) }
        #expect(aided.summary.pathUpdates == 0 && aided.summary.pathReleases == 0)
        // Every fix once the heading is known (the first 30 m without compass go before it).
        #expect(aided.summary.pathSkipped > aided.summary.fixesUsed * 9 / 10 && aided.summary.pathSkipped <= aided.summary.fixesUsed)
        #expect(aided.samples == plain.samples)
    }

    /// A path stated absurdly uncertain (crossTrackSigma 1e300 m: its variance overflows) informs
    /// nothing: no constraint is applied or counted as applied (each is counted skipped), and the
    /// estimate is the unaided one bit for bit.
    @Test func absurdPathSigmaIsSkippedNotCounted() throws {
        let (plain, aided) = try Self.strayingWalk("city-walk", seed: 1, compass: true, pathSigma: 1e300)
        #expect(aided.summary.pathUpdates == 0 && aided.summary.pathReleases == 0)
        #expect(aided.summary.pathSkipped > aided.summary.fixesUsed / 2)
        #expect(aided.samples == plain.samples)
        // The same for a drawing error stated absurdly (mapSigma 1e300: its variance overflows).
        let (_, map) = try Self.strayingWalk("city-walk", seed: 1, compass: true, mapSigma: 1e300)
        #expect(map.summary.pathUpdates == 0 && map.summary.pathSkipped > map.summary.fixesUsed / 2)
        #expect(map.samples == plain.samples)
    }

    /// ``PathConstraint/mapSigma`` adds the map slots' four states only while a path states one,
    /// and they are inert until a segment is walked: a path 10 km away with mapSigma 2 m (never in
    /// the corridor) leaves the estimate the unaided one bit for bit, with 16 states.
    @Test func mapStatesFollowThePath() throws {
        let a = GeodeticCoordinate(latitude: 50, longitude: 14), b = GeodeticCoordinate(latitude: 50.001, longitude: 14)
        var reg = GeoRegistration()
        #expect(reg.dimension == GeoRegistration.baseDimension)
        reg.path = try PathConstraint(lines: [[a, b]])
        #expect(reg.dimension == GeoRegistration.baseDimension)
        reg.path?.mapSigma = 2
        #expect(reg.dimension == GeoRegistration.mapDimension && reg.p.count == 16 * 16)
        reg.path = nil
        #expect(reg.dimension == GeoRegistration.baseDimension && reg.p.count == 12 * 12)
        #expect(GeoRegistration(path: try PathConstraint(lines: [[a, b]], mapSigma: 1)).dimension == GeoRegistration.mapDimension)
        let (plain, elsewhere) = try Self.strayingWalk("zavist-tour", seed: 3, compass: false, mapSigma: 2) { (east: $0.east + 10_000, north: $0.north) }
        #expect(elsewhere.summary.pathUpdates == 0)
        #expect(elsewhere.samples == plain.samples)
    }

    /// The map slots: each walked segment keeps its own drawing error (offset at the middle σ²/2,
    /// turn 2σ²/L² — two vertices off by σ per axis; reference: that algebra), the leg choice
    /// going back to the previous segment finds its slot unchanged, and a third segment takes the
    /// least recently used slot afresh.
    @Test func mapSlotsKeepEachSegmentsError() throws {
        let a = GeodeticCoordinate(latitude: 50, longitude: 14), b = GeodeticCoordinate(latitude: 50.001, longitude: 14)
        var reg = GeoRegistration(path: try PathConstraint(lines: [[a, b]], mapSigma: 2))
        let n = reg.dimension, o = GeoRegistration.iM
        func leg(_ segment: Int, _ length: Double) -> LocalPath.Leg {
            LocalPath.Leg(point: PlanarPoint(x: 0, y: 0), normal: PlanarPoint(x: 1, y: 0), segment: segment, length: length)
        }
        #expect(reg.mapSlot(for: leg(3, 50), variance: 4, time: 1) == 0)
        #expect(reg.p[o * n + o] == 2 && abs(reg.p[(o + 1) * n + o + 1] - 8.0 / 2500) < 1e-15)
        reg.x[o] = 0.7; reg.p[o * n + o] = 0.5                      // as an update would leave it
        #expect(reg.mapSlot(for: leg(7, 100), variance: 4, time: 2) == 1)
        #expect(abs(reg.p[(o + 3) * n + o + 3] - 8.0 / 10_000) < 1e-15)
        #expect(reg.mapSlot(for: leg(3, 50), variance: 4, time: 3) == 0)   // back at the corner
        #expect(reg.x[o] == 0.7 && reg.p[o * n + o] == 0.5)
        #expect(reg.mapSlot(for: leg(9, 20), variance: 4, time: 4) == 1)   // segment 7 was used least recently
        #expect(reg.mapSlots == SIMD2(3, 9) && reg.x[o] == 0.7)
    }

    /// Ground aiding: the device carried at a known height above a DEM. Reference: simulator
    /// truth (the simulated device is at ground level: device height 0), the DEM the scenario's
    /// terrain with a smooth 0.5 m (1σ) error, stated as σ 0.7 m. Bounds: height p95 ≤ 1.2 m and
    /// ≤ 0.6 × the unaided one; horizontal position p95 at most 2 % and heading p95 at most 0.1°
    /// worse than unaided (only the height is observed). Measured (phone GNSS, with compass):
    /// height p95 0.57 / 0.97 m against 4.55 / 1.99 m unaided on Závist seed 4 / city seed 2 (the
    /// DEM's error is what remains); position 3.44 / 8.91 m against 3.56 / 8.92 m.
    @Test(arguments: [("zavist-tour", UInt64(4)), ("city-walk", 2)])
    func groundAidingFixesTheHeight(_ name: String, _ seed: UInt64) throws {
        var config = TraceSimulator.Configuration.scenarios[name]!
        config.gnss = GeoRegistrationSimulator.phoneGNSS(config.gnss)
        config.sensors.duration = 0
        let out = try TraceSimulator(config: config, seed: seed).run()
        let streams = GeoRegistrationSimulator(seed: seed &+ 1000).run(truth: out.truth)
        let ground = try GroundConstraint(environment: AnchorEnvironment(terrain: config.terrainModel(demError: 0.5, seed: seed)),
                                          deviceHeight: 0, sigma: 0.7)
        let plain = GeoRegistrationEvaluation.run(raw: out.raw, streams: streams, useCompass: true)
        let aided = GeoRegistrationEvaluation.run(raw: out.raw, streams: streams, useCompass: true, ground: ground)
        func heightP95(_ e: GeoRegistrationEvaluation) -> Double { GeoRegistrationEvaluation.quantile(e.samples.map { abs($0.heightError) }, 0.95) }
        #expect(heightP95(aided) <= 1.2 && heightP95(aided) <= 0.6 * heightP95(plain), "height p95 \(heightP95(aided)) m vs unaided \(heightP95(plain)) m")
        #expect(aided.metrics.positionP95 <= 1.02 * plain.metrics.positionP95)
        #expect(aided.metrics.headingP95After100 <= plain.metrics.headingP95After100 + 0.1)
        #expect(aided.summary.groundUpdates > aided.summary.fixesUsed / 2)
    }

    /// No terrain where the walk is (a DEM of another region: every lookup outside coverage):
    /// every constraint is skipped and counted, and the estimate is the unaided one bit for bit.
    @Test func groundOutsideTheDEMChangesNothing() throws {
        struct Elsewhere: TerrainModel {
            var verticalReference: VerticalReference { .meanSeaLevel }
            func terrainHeight(latitude: Double, longitude: Double) throws(GeoAnchorError) -> Double {
                throw .outsideCoverage(latitude: latitude, longitude: longitude, what: "a DEM of another region")
            }
        }
        var config = TraceSimulator.Configuration.cityWalk
        config.sensors.duration = 0
        let out = try TraceSimulator(config: config, seed: 3).run()
        let streams = GeoRegistrationSimulator(seed: 3).run(truth: out.truth)
        let plain = GeoRegistrationEvaluation.run(raw: out.raw, streams: streams, useCompass: true)
        let aided = GeoRegistrationEvaluation.run(raw: out.raw, streams: streams, useCompass: true,
                                                  ground: try GroundConstraint(environment: AnchorEnvironment(terrain: Elsewhere())))
        #expect(aided.samples == plain.samples)
        #expect(aided.summary.groundUpdates == 0 && aided.summary.groundSkipped == aided.summary.fixesUsed)
        #expect(throws: GeoAnchorError.outOfRange(name: "ground sigma", value: 0, allowed: .greaterThan(0, unit: "m"))) {
            try GroundConstraint(environment: AnchorEnvironment(), sigma: 0)
        }
    }

    @Test func invalidConfigurationIsRefused() throws {
        try GeoRegistrationConfiguration().validate()
        var broken = GeoRegistrationConfiguration()
        broken.gnssCorrelationTime = 0
        #expect(throws: GeoAnchorError.outOfRange(name: "gnssCorrelationTime", value: 0, allowed: .greaterThan(0, unit: "s"))) {
            try broken.validate()
        }
        var long = GeoRegistrationConfiguration()
        long.gnssLongShare = 1.5
        #expect(throws: GeoAnchorError.outOfRange(name: "gnssLongShare", value: 1.5, allowed: .closed(0, 1))) { try long.validate() }
        long.gnssLongShare = 0.2; long.gnssLongCorrelationTime = -.infinity
        #expect(throws: GeoAnchorError.self) { try long.validate() }
        var reg = GeoRegistration(configuration: broken)
        #expect(throws: GeoAnchorError.self) { try reg.update(tracking: ARTrackingSample(time: 1, position: .zero, yaw: 0)) }
        #expect(throws: GeoAnchorError.self) { try reg.update(fix: Fix(time: 1, latitude: 50, longitude: 14, horizontalAccuracy: 3)) }
        #expect(throws: GeoAnchorError.self) { try reg.update(compass: CompassReading(time: 1, heading: 10, headingAccuracy: 10)) }
        #expect(reg.summary.trackingSamples == 0 && reg.summary.fixesUsed == 0 && reg.summary.compassUsed == 0)
        reg.configuration.gnssCorrelationTime = 20
        try reg.update(tracking: ARTrackingSample(time: 1, position: .zero, yaw: 0))
        #expect(reg.summary.trackingSamples == 1)
        // Changed between samples: refused from the next sample on.
        reg.configuration.compassWhiteFraction = .nan
        #expect(throws: GeoAnchorError.self) { try reg.update(tracking: ARTrackingSample(time: 2, position: .zero, yaw: 0)) }
        var noFrame = GeoRegistrationConfiguration()
        noFrame.frameHeadingSigma = -1
        #expect(throws: GeoAnchorError.self) { try noFrame.validate() }
        noFrame.consecutiveRejectionsForJump = 0
        noFrame.frameHeadingSigma = nil
        #expect(throws: GeoAnchorError.self) { try noFrame.validate() }
        var narrowing = GeoRegistrationConfiguration()
        narrowing.fixAccuracyNarrowingTolerance = 1.5
        #expect(throws: GeoAnchorError.outOfRange(name: "fixAccuracyNarrowingTolerance", value: 1.5,
                                                  allowed: ValueRange(lower: .exclusive(0), upper: .inclusive(1)))) { try narrowing.validate() }
        // Later settings are checked too, each naming itself.
        let cases: [(WritableKeyPath<GeoRegistrationConfiguration, Double>, Double, GeoAnchorError)] = [
            (\.jumpAcceleration, 0, .outOfRange(name: "jumpAcceleration", value: 0, allowed: .greaterThan(0, unit: "m/s²"))),
            (\.fixAccuracyTolerance, 0.5, .outOfRange(name: "fixAccuracyTolerance", value: 0.5, allowed: .atLeast(1))),
            (\.gnssPersistentShare, 2, .outOfRange(name: "gnssPersistentShare", value: 2, allowed: .closed(0, 1))),
            (\.minimumFixAccuracyScale, 0, .outOfRange(name: "minimumFixAccuracyScale", value: 0, allowed: ValueRange(lower: .exclusive(0), upper: .inclusive(1)))),
            (\.userEquivalentRangeError, -6, .outOfRange(name: "userEquivalentRangeError", value: -6,
                                                          allowed: ValueRange(lower: .exclusive(0), upper: .inclusive(100_000), unit: "m"))),
            // Finite but overflowing: every estimate was NaN with these (the scale σ at 1e10, the
            // yaw noise at 1e200); a σ floor of 1e10 m made every fix count as used with no effect.
            (\.scaleSigma, 1e10, .outOfRange(name: "scaleSigma", value: 1e10, allowed: .closed(0, 1))),
            (\.trackingYawNoisePerRootSecond, 1e200, .outOfRange(name: "trackingYawNoisePerRootSecond", value: 1e200, allowed: .closed(0, 180, unit: "degrees/√s"))),
            (\.minimumFixSigma, 1e10, .outOfRange(name: "minimumFixSigma", value: 1e10,
                                                  allowed: ValueRange(lower: .exclusive(0), upper: .inclusive(100_000), unit: "m"))),
            (\.pathGate, 0, .outOfRange(name: "pathGate", value: 0, allowed: .greaterThan(0))),
            (\.pathCorrelationTime, -1, .outOfRange(name: "pathCorrelationTime", value: -1, allowed: .atLeast(0, unit: "s"))),
            (\.pathCheckTime, .infinity, .nonFinite(name: "pathCheckTime", value: .infinity)),
            (\.pathCheckSigmas, 0, .outOfRange(name: "pathCheckSigmas", value: 0, allowed: .greaterThan(0)))
        ]
        for (field, value, error) in cases {
            var c = GeoRegistrationConfiguration()
            c[keyPath: field] = value
            #expect(throws: error) { try c.validate() }
        }
        var c = GeoRegistrationConfiguration()
        c.unreportedFixSigma = .infinity
        #expect(throws: GeoAnchorError.nonFinite(name: "unreportedFixSigma", value: .infinity)) { try c.validate() }
        var gate = GeoRegistrationConfiguration()
        gate.trackingQualityGate = 0
        #expect(throws: GeoAnchorError.outOfRange(name: "trackingQualityGate", value: 0, allowed: .greaterThan(0))) { try gate.validate() }
        gate.trackingQualityGate = .infinity
        #expect(throws: GeoAnchorError.nonFinite(name: "trackingQualityGate", value: .infinity)) { try gate.validate() }
        gate.trackingQualityGate = nil
        try gate.validate()
    }

    /// The covariance propagation works in place on F's few nonzeros; its result must be the
    /// dense `F P Fᵀ` (reference: the plain triple loop below over an explicit 12×12 F, process
    /// noise switched off), bit for bit and symmetric, with the heading
    /// known (odometry rows) and not (only the bias decay and the height's scale term).
    /// With the map slots (16 states) their rows are F's identity rows.
    @Test(arguments: [true, false], [GeoRegistration.baseDimension, GeoRegistration.mapDimension])
    func propagationIsTheDenseProduct(_ headingKnown: Bool, _ dimension: Int) throws {
        var c = GeoRegistrationConfiguration()
        c.trackingYawNoisePerRootSecond = 0; c.yawDriftRateNoise = 0; c.gnssCorrelatedFraction = 0; c.compassBiasSigma = 0
        var reg = GeoRegistration(configuration: c)
        reg.setDimension(dimension)
        let n = reg.dimension
        var rng = SeededRandom(seed: 5)
        // P = A Aᵀ: symmetric positive definite.
        let a = (0..<(n * n)).map { _ in rng.gaussian() }
        for i in 0..<n { for j in 0..<n { reg.p[i * n + j] = (0..<n).reduce(0.0) { $0 + a[i * n + $1] * a[j * n + $1] } } }
        reg.x = (0..<n).map { _ in rng.gaussian() * 0.01 }
        reg.headingKnown = headingKnown
        reg.propagatedAt = 100
        reg.accA = SIMD2(3.1, -1.7); reg.accPsi = SIMD2(-0.9, 2.4); reg.accOmega = SIMD2(12.5, -4.25); reg.accUp = 0.3
        let T = 1.5   // 100 + T and back exactly
        var f = [Double](repeating: 0, count: n * n)
        for i in 0..<n { f[i * n + i] = 1 }
        let scale = 1 + reg.x[GeoRegistration.iS]
        if headingKnown {
            f[0 * n + 3] = scale * reg.accPsi.x; f[0 * n + 4] = reg.accA.x; f[0 * n + 5] = scale * reg.accOmega.x
            f[1 * n + 3] = scale * reg.accPsi.y; f[1 * n + 4] = reg.accA.y; f[1 * n + 5] = scale * reg.accOmega.y
            f[3 * n + 5] = T
        }
        f[2 * n + 4] = reg.accUp
        for i in 6...8 { f[i * n + i] = Foundation.exp(-T / c.gnssCorrelationTime) }
        f[9 * n + 9] = Foundation.exp(-T / c.compassBiasTime)
        for i in 10...11 { f[i * n + i] = Foundation.exp(-T / c.gnssLongCorrelationTime) }
        var fp = [Double](repeating: 0, count: n * n), expected = fp
        for i in 0..<n { for j in 0..<n { for k in 0..<n where f[i * n + k] != 0 { fp[i * n + j] += f[i * n + k] * reg.p[k * n + j] } } }
        for i in 0..<n { for j in i..<n {
            var s = 0.0
            for k in 0..<n where f[j * n + k] != 0 { s += fp[i * n + k] * f[j * n + k] }
            expected[i * n + j] = s; expected[j * n + i] = s
        } }
        // Before the heading is known the position is not propagated but let walk, 1.6 m/s × T
        // (the one process noise not switched off above).
        if !headingKnown { for i in 0...1 { expected[i * n + i] += (1.6 * T) * (1.6 * T) } }
        reg.propagate(to: 100 + T)
        for i in 0..<n { for j in 0..<n { #expect(reg.p[i * n + j] == expected[i * n + j], "P[\(i)][\(j)]") } }
    }

    /// Placement takes the estimate: the pose's heading accuracy is the estimated σ as a 68 %
    /// half-width (σ × 0.9945), so AnchorUncertainty sees σ again (reference: CircularError).
    @Test func placementUsesEstimatedSigma() throws {
        let e = try Self.walk("zavist-tour", seed: 1, compass: true)
        #expect(!e.samples.isEmpty)
        let est = GeoRegistrationEstimate(time: 0, position: GeodeticCoordinate(latitude: 50, longitude: 14, ellipsoidalHeight: 300),
                                          horizontalAccuracy: 2, verticalAccuracy: 3, heading: 45, headingSigma: 1.2,
                                          frameHeading: 10, devicePositionInSession: .zero, yaw: 35, scaleError: 0, isHeadingFromTrack: true)
        let pose = est.devicePose
        #expect(abs(pose.headingAccuracy - 1.2 * CircularError.halfWidth68PerSigma) < 1e-12)
        let frame = try LocalTangentFrame(origin: est.position)
        let g = frame.geodetic(east: 0, north: 100, up: 0)
        let anchor = GeoAnchor(id: "a", latitude: g.latitude, longitude: g.longitude, altitude: .ellipsoidal(g.ellipsoidalHeight))
        let placed = try AnchorPlacer(convention: .arkitGravity(sessionHeading: 10)).place([anchor], registration: est)[0].get()
        // 100 m × 1.2° (1σ) = 2.09 m lateral σ, combined with the 2 m (68 %) position radius.
        let direct = AnchorUncertainty(horizontalDistance: placed.horizontalDistance, slantDistance: placed.distance,
                                       positionSigma: 2, verticalSigma: 3, headingSigma: 1.2 * CircularError.halfWidth68PerSigma)
        #expect(abs(placed.uncertainty.meters - direct.meters) < 1e-9)
        // AnchorField: the heading correction is frame heading − the frame's nominal heading (10°).
        var field = try AnchorField(anchors: [anchor], convention: .arkitGravity(sessionHeading: 10),
                                    session: est.devicePose)
        try field.update(registration: est)
        field.snapToEstimate()
        #expect(abs(field.appliedNorthOffset) < 1e-9)
    }
}
