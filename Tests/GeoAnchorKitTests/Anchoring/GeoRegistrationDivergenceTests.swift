import Foundation
import Testing
@testable import GeoAnchorKit
@testable import GeoAnchorKitSimulation

/// AR tracking that diverges — visual-inertial odometry running away smoothly, as ADVIO saw on one
/// of four outdoor iPhone sequences (`shared/notes/ar-tracking-drift.md`): no step is a jump, the
/// samples keep coming (``GeoRegistrationSimulator/Output/diverged(at:for:acceleration:direction:spin:resumption:)``).
/// Independent reference: the simulator's truth, which the estimator never sees; the control is
/// the same stream with the divergence check off (``GeoRegistrationConfiguration/divergenceSpeed`` nil).
@Suite("Anchoring: geo-registration, diverging tracking")
struct GeoRegistrationDivergenceTests {
    typealias Resumption = GeoRegistrationSimulator.Output.Resumption

    /// The walk's fixes and streams with the tracking running away at 1 m/s² for 15 s (112 m by
    /// its end, yaw turning 2°/s) 300 s into the walk.
    static func diverged(_ name: String, seed: UInt64, phone: Bool, resumption: Resumption) throws
        -> (raw: [Fix], streams: GeoRegistrationSimulator.Output, start: Double, end: Double) {
        let (raw, s) = try GeoRegistrationEvaluation.simulate(TraceSimulator.Configuration.scenarios[name]!, seed: seed, phoneGNSS: phone)
        let t0 = s.tracking[0].time + 300
        let d = try #require(s.diverged(at: t0, for: 15, acceleration: 1, direction: Double(seed) * 97, spin: 2, resumption: resumption))
        let divergence = try #require(d.divergence)
        #expect(divergence.meters > 100 && divergence.meters < 115, "runaway \(divergence.meters) m")
        return (raw, d, divergence.start, divergence.end)
    }

    /// First do no harm: from the divergence to a minute after it the position stays near the
    /// fixes' error instead of following the runaway. Measured on the report's 48 runs: position
    /// p95 in that window 8.4 m mean (worst 18.1 m, 1.2 × the raw fixes' p95 then) against 40.6 m
    /// (relocalised) and 59.6 m (continued) without the check (worst 12–19 × raw); here: bounds
    /// ≤ 2 × the raw fixes' p95 over the window with the check, and the control beyond 2 × the
    /// checked run's (it must be what the check mends; the closest, Závist seed 2: 22.8 against
    /// 9.8 m). Detected
    /// once, within 10 s of the start (report median 7 s; 9 s on Závist seed 2, whose runaway
    /// starts against the walking direction: the tracked speed first falls); heading p95 60–300 s after
    /// it ≤ 4.5° (the heading kept through it, widened; report 1.6° mean); |err| ≤ 2σ ≥ 90 %
    /// over the walk (the control drops to 36 % on the report's runs).
    @Test(arguments: [("city-walk", UInt64(3), true, true), ("city-walk", 4, false, false), ("zavist-tour", 1, false, true), ("zavist-tour", 2, true, false)])
    func divergenceIsTakenBack(_ name: String, _ seed: UInt64, _ phone: Bool, _ compass: Bool) throws {
        for resumption in [Resumption.sameFrame, .continued] {
            let (raw, s, start, end) = try Self.diverged(name, seed: seed, phone: phone, resumption: resumption)
            let label = "\(name) \(seed) \(resumption)"
            var off = GeoRegistrationConfiguration()
            off.divergenceSpeed = nil
            let checked = GeoRegistrationEvaluation.run(raw: raw, streams: s, useCompass: compass)
            let control = GeoRegistrationEvaluation.run(raw: raw, streams: s, useCompass: compass, configuration: off)
            let position = checked.p95(from: start, to: end + 60).position
            let rawP95 = checked.rawP95(from: start, to: end + 60)
            #expect(position <= 2 * rawP95, "\(label): position p95 \(position) m, raw \(rawP95) m")
            let uncheckedPosition = control.p95(from: start, to: end + 60).position
            #expect(uncheckedPosition > 2 * position, "\(label): control \(uncheckedPosition) m vs \(position) m")
            #expect(checked.summary.trackingDivergences == 1, "\(label): \(checked.summary.trackingDivergences) divergences")
            #expect(control.summary.trackingDivergences == 0)
            let detected = checked.events.compactMap { if case let .trackingDiverged(t, tracked, fix) = $0 { return (t, tracked, fix) } else { return nil } }
            if let (t, tracked, fix) = detected.first {
                #expect(t >= start && t <= start + 10, "\(label): detected \(t - start) s in")
                // Faster than the fix (a runaway adds speed); by how much depends on its direction:
                // the velocities differ by over 2 m/s (Závist seed 2: speeds 2.98 against 1.05 m/s).
                #expect(tracked > fix, "\(label): tracked \(tracked) m/s, fix \(fix) m/s")
            }
            // The tracking is used again after it: an interruption ends the divergence, the
            // heading kept (widened by divergenceYawRateSigma over some 20 s: ≈ 40°, not beyond 60°).
            #expect(checked.summary.trackingInterruptions == 1, "\(label): \(checked.summary.trackingInterruptions) interruptions")
            for case let .trackingInterrupted(time, seconds, headingLost) in checked.events {
                #expect(!headingLost, "\(label): heading re-learnt after the divergence (\(seconds) s at \(time - start) s in)")
            }
            let heading = checked.p95(from: end + 60, to: end + 300).heading
            #expect(heading <= 4.5, "\(label): heading p95 after \(heading)°")
            #expect(checked.metrics.within2Sigma >= 0.9, "\(label): within 2σ \(checked.metrics.within2Sigma)")
        }
    }

    /// A slow runaway (0.3 m/s² for 20 s along the frame bearing seed × 97° + 90°, yaw 0.1°/s; the
    /// session continues from the diverged pose). Across the walk its velocity error hardly
    /// changes the speed (3 m/s across a 1.4 m/s walk is 1.9 m/s faster); the check compares the
    /// tracked velocity, turned to the Earth by the frame heading, with the fixes' speed and
    /// course, which it does change. Measured on these four runs: detected 10–13 s
    /// in (the runaway 3 m/s by then), position p95 from the divergence to a minute after
    /// 6.7–10.3 m against 18.3–45.6 m with the check off (ratios 0.15–0.50) and 0.25–1.9 × the raw
    /// fixes' p95 then; report (48 runs): 28.4 → 11.4 m mean. Bounds: detected within 15 s,
    /// position p95 ≤ 0.6 × the control's and ≤ 2.5 × the raw fixes', |err| ≤ 2σ ≥ 90 %.
    @Test(arguments: [("city-walk", UInt64(3), true, true), ("city-walk", 4, false, false), ("zavist-tour", 2, true, false), ("zavist-tour", 5, false, false)])
    func slowRunawayAcrossTheWalkIsCaught(_ name: String, _ seed: UInt64, _ phone: Bool, _ compass: Bool) throws {
        let (raw, s) = try GeoRegistrationEvaluation.simulate(TraceSimulator.Configuration.scenarios[name]!, seed: seed, phoneGNSS: phone)
        let t0 = s.tracking[0].time + 300
        let d = try #require(s.diverged(at: t0, for: 20, acceleration: 0.3, direction: Double(seed) * 97 + 90, spin: 0.1, resumption: .continued))
        let end = try #require(d.divergence).end
        var off = GeoRegistrationConfiguration()
        off.divergenceSpeed = nil
        let checked = GeoRegistrationEvaluation.run(raw: raw, streams: d, useCompass: compass)
        let control = GeoRegistrationEvaluation.run(raw: raw, streams: d, useCompass: compass, configuration: off)
        let label = "\(name) \(seed)"
        let first = checked.events.lazy.compactMap { if case let .trackingDiverged(t, _, _) = $0 { return t } else { return nil } }.first
        let detected = try #require(first, "\(label): not detected")
        #expect(detected >= t0 && detected <= t0 + 15, "\(label): detected \(detected - t0) s in")
        let position = checked.p95(from: t0, to: end + 60).position
        let unchecked = control.p95(from: t0, to: end + 60).position
        let rawP95 = checked.rawP95(from: t0, to: end + 60)
        #expect(position <= 0.6 * unchecked, "\(label): position p95 \(position) m, check off \(unchecked) m")
        #expect(position <= 2.5 * rawP95, "\(label): position p95 \(position) m, raw \(rawP95) m")
        #expect(checked.metrics.within2Sigma >= 0.9, "\(label): within 2σ \(checked.metrics.within2Sigma)")
    }

    /// No false alarm: the scenarios' walks with modern and with older (ADVIO iPhone 6s) tracking,
    /// jumps included, never trip the check (0 of the report's 48 + 48 runs, the GSDC drives'
    /// chipset speeds included: GeoRegistrationRecordedGNSSTests), nor does a tram ride at
    /// 8–14 m/s with its braking (the tracked speed follows the fixes' within a second).
    @Test(arguments: [UInt64(1), 2, 3])
    func undisturbedTrackingIsNotADivergence(_ seed: UInt64) throws {
        for name in ["city-walk", "zavist-tour"] {
            for model in [GeoRegistrationSimulator.TrackingModel(), .olderPhone] {
                let (raw, s) = try GeoRegistrationEvaluation.simulate(TraceSimulator.Configuration.scenarios[name]!, seed: seed, phoneGNSS: true, tracking: model)
                let e = GeoRegistrationEvaluation.run(raw: raw, streams: s, useCompass: false)
                #expect(e.summary.trackingDivergences == 0, "\(name) \(seed): \(e.summary.trackingDivergences)")
            }
        }
        let (truth, raw) = TraceSimulator.walkRideWalk(seed: seed)
        let streams = GeoRegistrationSimulator(seed: seed &+ 1000).run(truth: truth)
        let ride = GeoRegistrationEvaluation.run(raw: raw, streams: streams, useCompass: true)
        #expect(ride.summary.trackingDivergences == 0, "ride \(seed): \(ride.summary.trackingDivergences)")
    }

    /// Fixes without a speed (a GPX track, GGA-only NMEA) can neither show a divergence nor end
    /// one: the check stays silent and the estimator behaves as with the check off (output
    /// identical), which the documentation states as its limit.
    @Test func fixesWithoutSpeedNeverTrip() throws {
        let (raw, s, _, _) = try Self.diverged("city-walk", seed: 3, phone: true, resumption: .sameFrame)
        let bare = raw.map { f -> Fix in var g = f; g.speed = nil; return g }
        var off = GeoRegistrationConfiguration()
        off.divergenceSpeed = nil
        let checked = GeoRegistrationEvaluation.run(raw: bare, streams: s, useCompass: true)
        let control = GeoRegistrationEvaluation.run(raw: bare, streams: s, useCompass: true, configuration: off)
        #expect(checked.summary.trackingDivergences == 0)
        #expect(checked.samples.map(\.positionError) == control.samples.map(\.positionError))
    }

    /// While diverged nothing from the tracking is used: the compass waits (gated, counted), the
    /// estimate keeps the last good sample's time, and a sample going backwards against the
    /// diverged stream (not only against the last one used) is still refused.
    @Test func whileDivergedTheTrackingWaits() throws {
        let (raw, s, start, _) = try Self.diverged("zavist-tour", seed: 1, phone: false, resumption: .continued)
        var reg = GeoRegistration()
        var fi = 0, ci = 0
        var gatedBefore = 0, detectedAt: Double?
        var latest: ARTrackingSample?
        for t in s.tracking {
            try reg.update(tracking: t, fixes: raw, fixCursor: &fi, compass: s.compass, compassCursor: &ci)
            if t.time < start { gatedBefore = reg.summary.compassGated }
            if detectedAt == nil, reg.summary.trackingDivergences == 1 { detectedAt = t.time }
            if let d = detectedAt, t.time > d + 6 { latest = t; break }
        }
        let t = try #require(latest, "no divergence detected")
        #expect(reg.summary.trackingInterruptions == 0, "the tracking was used again within 6 s of the runaway")
        #expect(reg.summary.compassGated >= gatedBefore + 10, "compass gated \(reg.summary.compassGated - gatedBefore) while diverged")
        let e = try #require(reg.estimate)
        #expect(t.time - e.time > 6, "estimate time \(t.time - e.time) s behind the latest sample")
        var back = t
        back.time -= 0.05
        #expect(throws: GeoAnchorError.self) { try reg.update(tracking: back) }
    }

    /// Bad settings are refused naming them.
    @Test func divergenceSettingsAreValidated() throws {
        var c = GeoRegistrationConfiguration()
        c.divergenceSpeed = 0
        #expect(throws: GeoAnchorError.self) { try c.validate() }
        do { try c.validate() } catch { #expect("\(error)".contains("divergenceSpeed")) }
        c.divergenceSpeed = .nan
        #expect(throws: GeoAnchorError.self) { try c.validate() }
        c = GeoRegistrationConfiguration()
        c.divergenceFixes = 0
        do { try c.validate(); Issue.record("divergenceFixes 0 accepted") } catch { #expect("\(error)".contains("divergenceFixes")) }
        for bad in [-1, Double.nan, .infinity] {
            c = GeoRegistrationConfiguration()
            c.divergenceYawRateSigma = bad
            do { try c.validate(); Issue.record("divergenceYawRateSigma \(bad) accepted") } catch { #expect("\(error)".contains("divergenceYawRateSigma")) }
        }
        c = GeoRegistrationConfiguration()
        c.divergenceYawRateSigma = 0
        try c.validate()
    }
}
