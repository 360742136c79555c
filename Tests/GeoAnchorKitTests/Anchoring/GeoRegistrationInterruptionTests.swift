import Foundation
import Testing
@testable import GeoAnchorKit
@testable import GeoAnchorKitSimulation

/// Interrupted AR tracking (an app sent to the background, a phone call): a pause in the samples
/// after which the session comes back in a new frame, continued from its old pose, or relocalised
/// in the same frame (``GeoRegistrationSimulator/Output/interrupted(at:for:resumption:)``).
/// Independent reference: the simulator's truth (device position and heading), which the
/// estimator never sees. Walks: phone GNSS, the pause in the middle of the walk.
@Suite("Anchoring: geo-registration, interrupted tracking")
struct GeoRegistrationInterruptionTests {
    /// The walk's fixes and streams with the tracking paused for `seconds` at half the walk.
    static func paused(_ name: String, seed: UInt64, seconds: Double,
                       resumption: GeoRegistrationSimulator.Output.Resumption) throws -> (raw: [Fix], streams: GeoRegistrationSimulator.Output) {
        let (raw, s) = try GeoRegistrationEvaluation.simulate(TraceSimulator.Configuration.scenarios[name]!, seed: seed, phoneGNSS: true)
        let middle = s.tracking[s.tracking.count / 2].time
        return (raw, try #require(s.interrupted(at: middle, for: seconds, resumption: resumption)))
    }

    /// Heading |error| p95 from 60 to 300 s after the pause (the heading re-learnt), degrees.
    static func headingAfter(_ e: GeoRegistrationEvaluation, _ s: GeoRegistrationSimulator.Output) -> Double {
        let end = s.interruption?.end ?? 0
        return e.p95(from: end + 60, to: end + 300).heading
    }

    static func lostHeading(_ e: GeoRegistrationEvaluation) -> Bool {
        e.events.contains { if case .trackingInterrupted(_, _, true) = $0 { return true } else { return false } }
    }

    /// A 30 s pause, unannounced, whatever the session does after it: the step across it is not
    /// motion and the heading is re-learnt. Before this rule the step counted as motion and a new
    /// frame left the heading 119° off (p95 60–300 s after the pause, mean of the report’s twelve walks; coverage down
    /// to 48 %). Measured (these four walks, the same for the three resumptions): 1.9–3.0° p95
    /// 60–300 s after the pause (the uninterrupted walks over the same times: 0.3–1.0°); bound
    /// 4.5°. |err| ≤ 2σ over the walk ≥ 0.997 (bound 0.9).
    @Test(arguments: [("city-walk", UInt64(2), true), ("city-walk", 2, false), ("zavist-tour", 1, true), ("zavist-tour", 1, false)])
    func pauseIsSafeWhateverTheSessionDoes(_ name: String, _ seed: UInt64, _ compass: Bool) throws {
        for resumption in GeoRegistrationSimulator.Output.Resumption.allCases {
            let (raw, s) = try Self.paused(name, seed: seed, seconds: 30, resumption: resumption)
            let e = GeoRegistrationEvaluation.run(raw: raw, streams: s, useCompass: compass)
            let after = Self.headingAfter(e, s)
            #expect(after <= 4.5, "\(name) \(seed) \(resumption): heading p95 after the pause \(after)°")
            #expect(e.metrics.within2Sigma >= 0.9, "\(resumption): within 2σ \(e.metrics.within2Sigma)")
            #expect(e.summary.trackingInterruptions == 1)
            // The heading is re-learnt, unless the session is recognized as relocalised (the
            // same frame only: a new or continued frame never is).
            #expect(Self.lostHeading(e) == (e.summary.relocalisationsRecognized == 0), "\(resumption): heading not re-learnt")
            if resumption != .sameFrame { #expect(e.summary.relocalisationsRecognized == 0, "\(resumption) taken for the same frame") }
            // No fix during the pause was taken for a tracking jump (the position is let move).
            #expect(!e.events.contains { if case .trackingJump(_, _, true) = $0 { return true } else { return false } })
        }
    }

    /// Told the session relocalised (``GeoRegistration/trackingDidRelocalize()``), the heading
    /// carries over the pause: measured 0.58–0.70° p95 60–300 s after it against 2.1–2.9° when
    /// it is re-learnt (the same pause unannounced with the relocalisation check off,
    /// ``GeoRegistrationConfiguration/relocalisationGate`` nil; uninterrupted 0.33–1.00°) —
    /// bound: within 0.5° of the uninterrupted walk, and below the re-learnt figure.
    @Test(arguments: [("city-walk", UInt64(2), true), ("zavist-tour", 1, false)])
    func announcedRelocalisationKeepsTheHeading(_ name: String, _ seed: UInt64, _ compass: Bool) throws {
        let (raw, s) = try Self.paused(name, seed: seed, seconds: 30, resumption: .sameFrame)
        let announced = GeoRegistrationEvaluation.run(raw: raw, streams: s, useCompass: compass, announceResumption: true)
        var unchecked = GeoRegistrationConfiguration()
        unchecked.relocalisationGate = nil
        let unannounced = GeoRegistrationEvaluation.run(raw: raw, streams: s, useCompass: compass, configuration: unchecked)
        let (raw0, s0) = try GeoRegistrationEvaluation.simulate(TraceSimulator.Configuration.scenarios[name]!, seed: seed, phoneGNSS: true)
        let whole = GeoRegistrationEvaluation.run(raw: raw0, streams: s0, useCompass: compass)
        var window = s0; window.interruption = s.interruption
        let a = Self.headingAfter(announced, s), u = Self.headingAfter(unannounced, s), w = Self.headingAfter(whole, window)
        #expect(a <= w + 0.5, "announced \(a)° vs uninterrupted \(w)°")
        #expect(a < u, "announced \(a)° vs unannounced \(u)°")
        #expect(!Self.lostHeading(announced) && Self.lostHeading(unannounced))
    }

    /// Unannounced, a session relocalised in its old frame is recognized when the device moved
    /// during the pause: the tracked step across it, turned by the heading kept, lands where the
    /// fixes during the pause moved the position (``GeoRegistrationConfiguration/relocalisationGate``),
    /// and the heading carries over as if announced. Independent reference: the simulator's
    /// truth. Two walks with a 30 s pause mid-walk while walking on (the fixes moved 36 m on the
    /// Závist walk, 19 m in the city; city-walk seed 2 stands at a stop then: not recognized, as
    /// ``standingPauseIsNotTakenForARelocalisation()``): recognized on all four runs; heading
    /// p95 60–300 s after the pause equal to the announced run's (the same path from there on;
    /// bound 0.05°). The
    /// other resumptions never pass: a frame continued from the old pose (step ≈ 0 against the
    /// fixes' 36–44 m) nor a new frame — here one whose first sample is not at its origin (moved
    /// 150 m, as a new frame a log offsets), which stays re-learnt.
    @Test(arguments: [("city-walk", UInt64(3), true), ("city-walk", 3, false), ("zavist-tour", 1, true), ("zavist-tour", 1, false)])
    func unannouncedRelocalisationIsRecognized(_ name: String, _ seed: UInt64, _ compass: Bool) throws {
        let (raw, same) = try Self.paused(name, seed: seed, seconds: 30, resumption: .sameFrame)
        let recognized = GeoRegistrationEvaluation.run(raw: raw, streams: same, useCompass: compass)
        let announced = GeoRegistrationEvaluation.run(raw: raw, streams: same, useCompass: compass, announceResumption: true)
        #expect(recognized.summary.relocalisationsRecognized == 1 && !Self.lostHeading(recognized))
        let r = Self.headingAfter(recognized, same), a = Self.headingAfter(announced, same)
        #expect(Swift.abs(r - a) <= 0.05, "recognized \(r)° vs announced \(a)°")
        var (_, moved) = try Self.paused(name, seed: seed, seconds: 30, resumption: .newFrame)
        let end = try #require(moved.interruption?.end)
        for k in moved.tracking.indices where moved.tracking[k].time >= end { moved.tracking[k].position.x += 150 }
        let (_, continued) = try Self.paused(name, seed: seed, seconds: 30, resumption: .continued)
        for streams in [moved, continued] {
            let e = GeoRegistrationEvaluation.run(raw: raw, streams: streams, useCompass: compass)
            #expect(e.summary.relocalisationsRecognized == 0 && Self.lostHeading(e))
        }
    }

    /// Standing still through the pause, a relocalised session cannot be told from one continued
    /// from the old pose (both step ≈ 0, and the fixes show no motion): the heading is re-learnt
    /// (``GeoRegistrationConfiguration/relocalisationMotionEvidence``). A 30 s pause inside the
    /// first dwell stop of at least 40 s (truth: the device moves < 1 m over the pause), same
    /// frame, unannounced: not recognized.
    @Test func standingPauseIsNotTakenForARelocalisation() throws {
        let (raw, s) = try GeoRegistrationEvaluation.simulate(TraceSimulator.Configuration.zavistTour, seed: 1, phoneGNSS: true)
        let frame = try LocalTangentFrame(origin: s.truePositions[0])
        let enu = s.truePositions.map { frame.enu(latitude: $0.latitude, longitude: $0.longitude, ellipsoidalHeight: $0.height) }
        // The first sample (after 5 min) from which the device stays within 1 m for 40 s.
        let start = try #require(s.tracking.indices.first { i in
            guard s.tracking[i].time > s.tracking[0].time + 300 else { return false }
            let window = s.tracking.indices.filter { s.tracking[$0].time >= s.tracking[i].time && s.tracking[$0].time <= s.tracking[i].time + 40 }
            guard let last = window.last, s.tracking[last].time >= s.tracking[i].time + 39 else { return false }
            return window.allSatisfy { j in Foundation.hypot(enu[j].east - enu[i].east, enu[j].north - enu[i].north) < 1 }
        })
        let paused = try #require(s.interrupted(at: s.tracking[start].time + 2, for: 30, resumption: .sameFrame))
        let e = GeoRegistrationEvaluation.run(raw: raw, streams: paused, useCompass: true)
        #expect(e.summary.trackingInterruptions == 1)
        #expect(e.summary.relocalisationsRecognized == 0 && Self.lostHeading(e))
    }

    /// A 3 s gap (within ``GeoRegistrationConfiguration/trackingGapTime``: no interruption by
    /// the gap rule) after which the session continued from its old pose, mid-walk: the step
    /// across it is about zero though the walker went on, so it is taken for a continued session
    /// (``GeoRegistrationConfiguration/frozenGapPace``) and the heading widened by the device's
    /// possible turn. City-walk seed 2 with compass, measured: without the rule heading p95
    /// 60–300 s after the gap 13.2° with |err| ≤ 2σ over the walk 59.6 % (the frame's turn unseen);
    /// with it 1.21°, 99.7 %. Bounds: ≥ 90 % and ≤ 4.5° with the rule, < 90 % without (the
    /// control). A same-frame gap of 3 s while walking on (Závist seed 1: the step is the walked
    /// one) is not flagged.
    @Test func shortGapInAContinuedSessionIsSeen() throws {
        let (raw, s) = try Self.paused("city-walk", seed: 2, seconds: 3, resumption: .continued)
        let seen = GeoRegistrationEvaluation.run(raw: raw, streams: s, useCompass: true)
        var off = GeoRegistrationConfiguration()
        off.frozenGapPace = nil
        let unseen = GeoRegistrationEvaluation.run(raw: raw, streams: s, useCompass: true, configuration: off)
        #expect(seen.summary.trackingInterruptions == 1 && unseen.summary.trackingInterruptions == 0)
        #expect(seen.metrics.within2Sigma >= 0.9, "within 2σ \(seen.metrics.within2Sigma)")
        #expect(Self.headingAfter(seen, s) <= 4.5, "heading p95 after the gap \(Self.headingAfter(seen, s))°")
        #expect(unseen.metrics.within2Sigma < 0.9, "the control: within 2σ \(unseen.metrics.within2Sigma)")
        let (raw1, same) = try Self.paused("zavist-tour", seed: 1, seconds: 3, resumption: .sameFrame)
        #expect(GeoRegistrationEvaluation.run(raw: raw1, streams: same, useCompass: true).summary.trackingInterruptions == 0)
    }

    /// A reset announced with ``GeoRegistration/trackingDidReset()`` right away (no pause) whose
    /// new frame starts where the old pose was: unannounced, the small step is motion and the
    /// yaw's jump to 0 a turn of the device, so the heading is off by the old yaw; announced, the
    /// device's turn continuity carries the heading into the new frame. Measured (city-walk
    /// seed 2, with compass): the old yaw is 176.5°; heading p95 in the 60 s after the reset 1.5°
    /// announced against 176° unannounced. Bounds: ≤ 3° announced, ≥ 20° unannounced.
    @Test func announcedResetCarriesTheHeading() throws {
        let (raw, s0) = try Self.paused("city-walk", seed: 2, seconds: 0.05, resumption: .newFrame)
        var s = s0
        let i = try #require(s.interruption)
        let k1 = try #require(s.tracking.firstIndex { $0.time == i.end })
        let oldYaw = s.tracking[k1 - 1].yaw
        #expect(Swift.abs(Angle.difference(from: 0, to: oldYaw)) > 30, "old yaw \(oldYaw)°: pick a time the yaw is far from 0")
        // The new frame placed at the old pose's position (the yaw still restarts at 0).
        let shift = s.tracking[k1 - 1].position - s.tracking[k1].position
        for k in k1..<s.tracking.count { s.tracking[k].position += shift }
        func after(_ e: GeoRegistrationEvaluation) -> Double {
            e.p95(from: i.end, to: i.end + 60).heading
        }
        let announced = after(GeoRegistrationEvaluation.run(raw: raw, streams: s, useCompass: true, announceResumption: true))
        let unannounced = after(GeoRegistrationEvaluation.run(raw: raw, streams: s, useCompass: true))
        #expect(announced <= 3, "announced \(announced)°")
        #expect(unannounced >= 20, "unannounced \(unannounced)°")
    }

    /// Compass readings during a pause are gated (the device's yaw is unknown then), not taken
    /// for a disturbance that after two minutes becomes a new compass bias; fixes during it move
    /// the position. A 150 s pause with the readings left in (289 of them): the compass bias
    /// after the pause against the simulator's slow compass error stays within 3σ (measured
    /// 1.6° with σ 5.9°), and the position right after it is 10 m off (bound: a quarter of the
    /// distance walked during the pause, which is where the tracking left it).
    @Test func measurementsDuringAPause() throws {
        let (raw, paused) = try Self.paused("zavist-tour", seed: 3, seconds: 150, resumption: .newFrame)
        let (_, whole) = try GeoRegistrationEvaluation.simulate(TraceSimulator.Configuration.scenarios["zavist-tour"]!, seed: 3, phoneGNSS: true)
        var s = paused
        s.compass = whole.compass; s.compassSlowErrors = whole.compassSlowErrors
        let i = try #require(s.interruption)
        let inPause = whole.compass.filter { $0.time > i.start + 5 && $0.time < i.end }.count
        #expect(inPause >= 250)
        let e = GeoRegistrationEvaluation.run(raw: raw, streams: s, useCompass: true)
        #expect(e.summary.compassGated >= inPause, "gated \(e.summary.compassGated) of \(inPause) readings in the pause")
        let bias = try #require(e.samples.first { $0.time >= i.end + 10 && $0.compassBiasError != nil })
        let err = try #require(bias.compassBiasError), sigma = try #require(bias.compassBiasSigma)
        #expect(Swift.abs(err) <= 3 * sigma, "compass bias error \(err)° with σ \(sigma)°")
        #expect(!e.events.contains { if case .trackingJump(_, _, true) = $0 { return true } else { return false } })
        // The position right after the pause: the fixes of the pause placed it.
        let first = try #require(e.samples.first { $0.time >= i.end })
        let k0 = try #require(whole.tracking.lastIndex { $0.time <= i.start }), k1 = try #require(whole.tracking.firstIndex { $0.time >= i.end })
        let walked = whole.walked[k1] - whole.walked[k0]
        #expect(walked >= 100, "walked \(walked) m during the pause")
        #expect(first.positionError <= 0.25 * walked, "position error after the pause \(first.positionError) m, walked \(walked) m")
    }

    /// A landmark sighting is aimed with the latest tracked yaw: within the pause threshold of
    /// the latest sample it is used, beyond it (tracking interrupted, the yaw stale) it is not.
    /// Reference: the counter (exact).
    @Test func sightingDuringAPauseIsNotUsed() throws {
        let t = 1_780_000_000.0
        var reg = GeoRegistration(convention: .arkitGravity(sessionHeading: 0))
        try reg.update(tracking: ARTrackingSample(time: t, position: .zero, yaw: 0))
        try reg.update(fix: Fix(time: t, latitude: 49.9617, longitude: 14.3950, ellipsoidalHeight: 392, horizontalAccuracy: 5))
        try reg.update(compass: CompassReading(time: t, heading: 10, headingAccuracy: 15))
        let landmark = GeodeticCoordinate(latitude: 49.9627, longitude: 14.3953)
        try reg.update(sighting: landmark, time: t + 1)
        #expect(reg.summary.landmarksUsed == 1)
        try reg.update(sighting: landmark, time: t + 1 + reg.configuration.trackingGapTime + 1)
        #expect(reg.summary.landmarksUsed == 1)
    }

    /// An external geo pose's heading is the device's against the latest tracked yaw: during a
    /// pause (the yaw stale) it must not start the heading, while its position is still used.
    /// Reference: the counters and `estimate` (exact); then, with tracking back, the same pose
    /// starts the heading at its value (0.001°).
    @Test func geoPoseHeadingDuringAPauseIsNotUsed() throws {
        let t = 1_780_000_000.0
        var reg = GeoRegistration(convention: .arkitGravity(sessionHeading: 0))
        try reg.update(tracking: ARTrackingSample(time: t, position: .zero, yaw: 0))
        try reg.update(fix: Fix(time: t, latitude: 49.9617, longitude: 14.3950, ellipsoidalHeight: 392, horizontalAccuracy: 5))
        let later = t + reg.configuration.trackingGapTime + 1
        let pose = ExternalGeoPose(time: later, position: GeodeticCoordinate(latitude: 49.9617, longitude: 14.3950, ellipsoidalHeight: 392),
                                   horizontalAccuracy: 3, heading: 40, headingAccuracy: 5)
        try reg.update(geoPose: pose)
        #expect(reg.summary.externalPosesUsed == 1)
        #expect(reg.estimate == nil, "a stale yaw started the heading")
        try reg.update(tracking: ARTrackingSample(time: later + 0.1, position: .zero, yaw: 0))
        var again = pose
        again.time = later + 0.1
        try reg.update(geoPose: again)
        let e = try #require(reg.estimate)
        #expect(abs(Angle.difference(from: 40, to: e.heading)) < 1e-3)
    }

    /// A reset announced before the session's first sample (an app that always starts with
    /// `.resetTracking`) concerns that sample, not the next: two samples 0.1 s apart are no
    /// interruption. Reference: the counter (exact).
    @Test func resetBeforeTheFirstSampleIsNoInterruption() throws {
        var reg = GeoRegistration(convention: .arkitGravity(sessionHeading: 0))
        reg.trackingDidReset()
        try reg.update(tracking: ARTrackingSample(time: 100, position: .zero, yaw: 0))
        try reg.update(tracking: ARTrackingSample(time: 100.1, position: SIMD3(0, 0, -0.14), yaw: 0))
        #expect(reg.summary.trackingInterruptions == 0 && reg.summary.trackingStepsRejected == 0)
    }

    /// Course offsets collected before a pause belong to the old frame: a walk north without
    /// compass (ENU session frame, true north at first), three courses, a 6 s pause, then a frame
    /// turned by 5° (the walk north tracked at −5°) and five more courses. The heading must start
    /// from the five of the new frame: 5° exactly (noise-free data), at the fifth (t = 14 s).
    /// Mixed with the old frame's three it started at t = 11 s at ≈ 2°. Reference: the
    /// construction (course 0°, tracked direction −5°); tolerance 0.01° (rounding).
    @Test func courseOffsetsDoNotCrossAPause() throws {
        var reg = GeoRegistration(convention: .enu)
        let origin = GeodeticCoordinate(latitude: 49.96, longitude: 14.39)
        func fix(_ t: Double) -> Fix {
            let p = Geodesic.wgs84.destination(latitude: origin.latitude, longitude: origin.longitude, azimuth: 0, distance: 1.4 * t)
            return Fix(time: t, latitude: p.latitude, longitude: p.longitude, ellipsoidalHeight: 300, horizontalAccuracy: 3, speed: 1.4, course: 0)
        }
        let (sn, cs) = Angle.sincos(degrees: -5)
        for k in 0...140 {
            let t = Double(k) / 10
            guard t <= 3 || t >= 9 else { continue }
            let position = t <= 3 ? SIMD3(0, 1.4 * t, 0) : SIMD3(1.4 * (t - 9) * sn, 1.4 * (t - 9) * cs, 0)
            try reg.update(tracking: ARTrackingSample(time: t, position: position, yaw: t <= 3 ? 0 : -5))
            if k % 10 == 0 { try reg.update(fix: fix(t)) }
        }
        #expect(reg.summary.trackingInterruptions == 1)
        let starts = reg.events.compactMap { e -> (Double, Double)? in if case .headingInitialized(let t, let h, _) = e { return (t, h) } else { return nil } }
        let first = try #require(starts.first)
        #expect(first.0 == 14 && abs(Angle.difference(from: 5, to: first.1)) < 0.01, "heading started at t = \(first.0) s: \(first.1)°")
    }

    /// The pause threshold is validated; +∞ turns the rule off.
    @Test func pauseSettingsAreValidated() throws {
        var c = GeoRegistrationConfiguration()
        c.trackingGapTime = .infinity
        try c.validate()
        for bad in [0.0, -1, .nan] {
            c.trackingGapTime = bad
            #expect(throws: GeoAnchorError.self) { try c.validate() }
        }
        c = GeoRegistrationConfiguration()
        c.trackingGapSpeed = -1
        #expect(throws: GeoAnchorError.self) { try c.validate() }
        c.trackingGapSpeed = .infinity
        #expect(throws: GeoAnchorError.self) { try c.validate() }
        c = GeoRegistrationConfiguration()
        c.frozenGapPace = -0.5
        #expect(throws: GeoAnchorError.self) { try c.validate() }
        c.frozenGapPace = nil
        try c.validate()
        // The relocalisation check: nil turns it off; a gate or evidence that is not > 0 (or NaN) is refused.
        c = GeoRegistrationConfiguration()
        c.relocalisationGate = nil
        try c.validate()
        for bad in [0.0, -1, .nan] {
            c = GeoRegistrationConfiguration()
            c.relocalisationGate = bad
            #expect(throws: GeoAnchorError.self) { try c.validate() }
            c = GeoRegistrationConfiguration()
            c.relocalisationMotionEvidence = bad
            #expect(throws: GeoAnchorError.self) { try c.validate() }
        }
    }
}
