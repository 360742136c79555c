import Foundation
import Testing
import GeoAnchorKitTestSupport
@testable import GeoAnchorKit
@testable import GeoAnchorKitSimulation

/// Geo-registration on a real phone's GNSS: the GSDC 2020 drives of ../shared/data (each phone's
/// own chipset NMEA, 1 Hz, HDOP only), AR tracking and compass simulated along the NovAtel SPAN
/// reference recorded beside it (``GeoRegistrationSimulator/truth(fromReference:window:movingSpeed:stillSpeed:)``).
/// Independent reference: the SPAN track (post-processed GNSS + INS, decimetres), which the
/// estimator never sees. These are freeway drives (mean 22–23 m/s, up to 38 m/s), not walks.
@Suite("Anchoring: geo-registration on recorded phone GNSS")
struct GeoRegistrationRecordedGNSSTests {
    /// Measured (seed 1), heading p95 after 100 m / position p95 fused ÷ raw / |err| ≤ 2σ:
    /// MTV-1 Pixel4 0.60° / 0.91 / 98.6–99.5 %, Pixel4XLModded 0.76–0.77° / 0.98–0.99 / 98.5–98.6 %,
    /// MTV-2 Pixel4 0.63–0.64° / 0.63–0.91 / 99.7–99.8 %, Pixel4XL 0.57° / 0.83–0.84 / 99.8–99.9 %
    /// (before the accuracy check narrowed pessimistic accuracies: 0.66–0.87°, 0.69–1.01 × raw).
    /// Their σ, HDOP × 6 m / √2, is pessimistic: the check narrows it (factor ≤ 0.7 on σ).
    /// The chipset positions are already Kalman-filtered and their error persists for minutes,
    /// so the fusion gains little position there — the issue's 0.6 × raw is for walks whose
    /// error decorrelates; here the bound is first do no harm, 1.05 × raw. Heading bounds are the
    /// issue's (1.5°, 2.0° without compass), coverage ≥ 90 %. Tracking jumps: exactly the one
    /// simulated — before the position was let walk by the tracked distance while the heading
    /// was unknown, the Pixel4XL drive without compass reported two more (92 m and 83 m,
    /// "detected by GNSS") when the car drove off after a 130 s stop, and its heading started
    /// 28 s later.
    @Test(.enabled(if: SharedData.shouldRun), arguments: FilterAccuracyComparison.gsdc2020Drives.map { "\($0.drive) \($0.phone)" })
    func drive(_ name: String) throws {
        let parts = name.split(separator: " ").map(String.init)
        let files = try #require(FilterAccuracyComparison.gsdc2020Files(SharedData.directory, drive: parts[0], phone: parts[1]),
                                 "shared reference data missing for \(name)")
        let (raw, streams) = try GeoRegistrationEvaluation.recorded(trace: files.trace, reference: files.reference)
        #expect(streams.tracking.count > 15_000)
        for compass in [true, false] {
            let e = GeoRegistrationEvaluation.run(raw: raw, streams: streams, useCompass: compass)
            let m = e.metrics
            let label = "\(name) compass \(compass)"
            #expect(m.headingP95After100 <= (compass ? 1.5 : 2.0), "\(label): heading p95 \(m.headingP95After100)°")
            #expect(m.positionP95 <= 1.05 * m.rawP95, "\(label): position p95 \(m.positionP95) m, raw \(m.rawP95) m")
            #expect(m.within2Sigma >= 0.9, "\(label): |err| ≤ 2σ \(m.within2Sigma)")
            #expect(e.summary.trackingJumps == 1, "\(label): \(e.summary.trackingJumps) jumps, 1 simulated")
            #expect(e.summary.minimumFixAccuracyScale <= 0.7, "\(label): HDOP-based σ narrowed only to × \(e.summary.minimumFixAccuracyScale)")
            // Modern tracking on a real phone's GNSS error: the tracking quality check holds still.
            #expect(e.summary.trackingNoiseRaisedAt == nil, "\(label): tracking noise raised")
            // The chipset's own (Doppler) speeds against tracking that follows SPAN: never a divergence.
            #expect(e.summary.trackingDivergences == 0, "\(label): \(e.summary.trackingDivergences) tracking divergences")
        }
    }

    /// The tracking quality check (``GeoRegistrationConfiguration/trackingQualityGate``) on real
    /// GNSS error: AR tracking with ADVIO's iPhone 6s magnitudes (steady session) simulated along
    /// each drive's SPAN reference, with compass. Reference: SPAN. Measured (seed 1; 3 seeds and the
    /// jumping model in the scratch study gave the same picture: raised on 24 of 24 runs, 78–231 s
    /// after the first fix, |err| ≤ 2σ 69–81 → 95–100 %): MTV-1 Pixel4 74.6 → 99.5 % (raised 117 s
    /// into the tracking), Pixel4XLModded 69.2 → 98.9 % (102 s), MTV-2 Pixel4 76.5 → 99.4 % (189 s),
    /// Pixel4XL 80.9 → 99.8 % (153 s).
    /// Bounds: without the check < 90 % (the control), with it ≥ 90 %, raised within 5 minutes.
    @Test(.enabled(if: SharedData.shouldRun), arguments: FilterAccuracyComparison.gsdc2020Drives.map { "\($0.drive) \($0.phone)" })
    func olderTrackingOnADrive(_ name: String) throws {
        let parts = name.split(separator: " ").map(String.init)
        let files = try #require(FilterAccuracyComparison.gsdc2020Files(SharedData.directory, drive: parts[0], phone: parts[1]),
                                 "shared reference data missing for \(name)")
        var steady = GeoRegistrationSimulator.TrackingModel.olderPhone
        steady.jumpInterval = nil
        let (raw, streams) = try GeoRegistrationEvaluation.recorded(trace: files.trace, reference: files.reference, tracking: steady)
        var unchecked = GeoRegistrationConfiguration()
        unchecked.trackingQualityGate = nil
        let off = GeoRegistrationEvaluation.run(raw: raw, streams: streams, useCompass: true, configuration: unchecked)
        let on = GeoRegistrationEvaluation.run(raw: raw, streams: streams, useCompass: true)
        #expect(off.metrics.within2Sigma < 0.9, "\(name), the control: |err| ≤ 2σ \(off.metrics.within2Sigma)")
        #expect(on.metrics.within2Sigma >= 0.9, "\(name): |err| ≤ 2σ \(on.metrics.within2Sigma)")
        let t0 = try #require(streams.tracking.first?.time)
        let raised = try #require(on.summary.trackingNoiseRaisedAt, "\(name): not raised")
        #expect(raised - t0 <= 300, "\(name): raised \(raised - t0) s in")
    }

    /// The library's own epoch-by-epoch WLS positions (``GNSSProcessor`` on the GSDC 2021 Pixel 5
    /// RINEX drive, nav + SP3, 4.4 km) as the fixes, AR tracking and compass simulated along the
    /// drive's SPAN ground truth (independent reference, which the estimator never sees). Their
    /// stated 68 % radius (median 5.4 m) is pessimistic (true 3.1 m): taken as stated, the fused
    /// position came out worse than the fixes themselves (p95 1.06 / 1.05 × raw with / without
    /// compass) — the accuracy check only widened. Narrowed (factor 0.5, its floor): 0.93 / 0.91 ×.
    /// Bounds: first do no harm, ≤ 0.97 × raw; without narrowing > 1 (what it repairs); heading
    /// p95 after 100 m ≤ 1.5° / 2.0° (1.31° / 1.41° measured), coverage ≥ 90 %. The reported 68 %
    /// radius held at 82 / 81 % of times (36 / 33 % without ``GeoRegistrationConfiguration/gnssPersistentShare``,
    /// 53 / 51 % with 0.25:
    /// most of these fixes' error lasts beyond five minutes, and the filter averaged it "out"):
    /// bound ≥ 45 %, and above the run without it.
    @Test(.enabled(if: SharedData.shouldRun))
    func ownWLSPositionsDoNoHarm() throws {
        let dir = "gnss_raw/gsdc2021_mtv1_pixel5_part1/"
        let observations = try RinexObservationFile.read(contentsOf: SharedData.url(dir + "Pixel5_GnssLog_part1.21o"))
        let ephemerides = SatelliteEphemerides(
            navigation: try RinexNavigationFile.read(contentsOf: SharedData.url(dir + "hour1180.21n")),
            precise: try PreciseOrbit.read(contentsOf: SharedData.url("gnss_raw/orbits_2021_118/COD0MGXFIN_20211180000_01D_05M_ORB.SP3")))
        let reference = try TraceReader.load(url: SharedData.url(dir + "ground_truth_part1.csv")).fixes
        let fixes = GNSSProcessor(ephemerides: ephemerides).run(observations.epochs, mode: .wls).fixes
        let streams = GeoRegistrationEvaluation.recorded(fixes: fixes, reference: reference, window: 1)
        var widenOnly = GeoRegistrationConfiguration()
        widenOnly.fixAccuracyNarrowingTolerance = nil
        for compass in [true, false] {
            let e = GeoRegistrationEvaluation.run(raw: fixes, streams: streams, useCompass: compass)
            let m = e.metrics
            #expect(m.positionP95 <= 0.97 * m.rawP95, "compass \(compass): position p95 \(m.positionP95) m, raw \(m.rawP95) m")
            #expect(m.headingP95After100 <= (compass ? 1.5 : 2.0), "compass \(compass): heading p95 \(m.headingP95After100)°")
            #expect(m.within2Sigma >= 0.9, "compass \(compass): |err| ≤ 2σ \(m.within2Sigma)")
            #expect(e.summary.minimumFixAccuracyScale < 1)
            let w = GeoRegistrationEvaluation.run(raw: fixes, streams: streams, useCompass: compass, configuration: widenOnly).metrics
            #expect(w.positionP95 > m.rawP95, "compass \(compass): without narrowing \(w.positionP95) m, raw \(m.rawP95) m")
            var noFloor = GeoRegistrationConfiguration()
            noFloor.gnssPersistentShare = 0
            let f = GeoRegistrationEvaluation.run(raw: fixes, streams: streams, useCompass: compass, configuration: noFloor)
            #expect(e.positionWithin68 >= 0.45, "compass \(compass): within the 68 % radius \(e.positionWithin68)")
            #expect(f.positionWithin68 < e.positionWithin68, "compass \(compass): without the floor \(f.positionWithin68)")
        }
    }

    /// The noisiest drive (MTV-2 Pixel4XL: error variance ≈ 15 m² per axis, σ from HDOP) with the
    /// streams of seed 2: narrowed accuracies cut a 10 s excursion of its correlated error off fix
    /// after fix, and the run of rejections was reported as a tracking jump "detected by GNSS" that
    /// never happened (with and without compass; over a sweep of 288 paused drives, 26 such in 24
    /// runs against 1 when only widening). A fix rejected while narrowed now ends the narrowing:
    /// none here (1 in the sweep, the widen-only run's), heading p95 0.62–0.63° (0.64–0.65°).
    /// Reference: the only jump simulated is the one `trackingJumps` counts from the tracking.
    @Test(.enabled(if: SharedData.shouldRun))
    func narrowedAccuraciesDoNotTurnAnExcursionIntoAJump() throws {
        let files = try #require(FilterAccuracyComparison.gsdc2020Files(SharedData.directory, drive: "2020-06-05-US-MTV-2", phone: "Pixel4XL"),
                                 "shared reference data missing")
        let (raw, streams) = try GeoRegistrationEvaluation.recorded(trace: files.trace, reference: files.reference, seed: 2)
        for compass in [true, false] {
            let e = GeoRegistrationEvaluation.run(raw: raw, streams: streams, useCompass: compass)
            #expect(e.jumpsDetectedByGNSS == 0, "compass \(compass): \(e.jumpsDetectedByGNSS) jumps detected by GNSS")
            #expect(e.summary.trackingJumps == 1, "compass \(compass): \(e.summary.trackingJumps) jumps, 1 simulated")
            #expect(e.summary.minimumFixAccuracyScale < 1, "compass \(compass): not narrowed")
        }
    }

    /// A 30 s tracking pause at 80 % of the MTV-1 Pixel4XLModded drive (a new frame after it,
    /// with compass), where a vehicle broke three walking assumptions at once: the unseen motion
    /// during a pause was 2 m/s (fixes rejected, ten in a row reported as a tracking jump, again
    /// and again: 13 GNSS-detected "jumps"), counted only from 5 s after the last sample, and the
    /// compass reading that restarted the heading was 48° off with nothing to correct it (its
    /// courses gated, position fixes rejected faster than the track could check it): heading p95
    /// 60–300 s after the pause 40.2°, position p95 124 m, |err| ≤ 2σ 92.5 %. Now (the device's
    /// tracked speed, from the last sample, courses that agree with each other re-initializing a
    /// heading they all contradict): 2.02°, 3.4 m, 95.0 %, no GNSS-detected jump, one heading
    /// re-initialization; since pessimistic accuracies are narrowed 1.65°, 3.4 m, 94.4 %. Bounds: 3°, 6 m, 90 %, no GNSS-detected jump.
    @Test(.enabled(if: SharedData.shouldRun))
    func pauseInAVehicle() throws {
        let files = try #require(FilterAccuracyComparison.gsdc2020Files(SharedData.directory, drive: "2020-05-14-US-MTV-1", phone: "Pixel4XLModded"),
                                 "shared reference data missing")
        let (raw, base) = try GeoRegistrationEvaluation.recorded(trace: files.trace, reference: files.reference)
        let s = try #require(base.interrupted(at: base.tracking[base.tracking.count * 8 / 10].time, for: 30, resumption: .newFrame))
        let e = GeoRegistrationEvaluation.run(raw: raw, streams: s, useCompass: true)
        let end = try #require(s.interruption?.end)
        let (heading, position) = e.p95(from: end + 60, to: end + 300)
        let gnssJumps = e.jumpsDetectedByGNSS
        #expect(heading <= 3, "heading p95 60–300 s after the pause \(heading)°")
        #expect(position <= 6, "position p95 60–300 s after the pause \(position) m")
        #expect(e.metrics.within2Sigma >= 0.9, "|err| ≤ 2σ \(e.metrics.within2Sigma)")
        #expect(gnssJumps == 0, "\(gnssJumps) jumps detected by GNSS")
    }

    /// A heading started wrong and confidently (a compass reading 60° off, stated ±5°) on a walk
    /// north (ENU session, noise-free: fixes with course 0° each second): the courses are gated
    /// against it, agree with each other, and re-initialize it after five (t = 5 s), before the
    /// track spans 30 m for the Procrustes check (t ≈ 21 s). Reference: the construction
    /// (true heading 0°); tolerance 0.01° at t = 6 s; one re-initialization.
    @Test func agreeingCoursesOverruleAWrongHeading() throws {
        var reg = GeoRegistration(convention: .enu)
        let origin = GeodeticCoordinate(latitude: 49.96, longitude: 14.39)
        for k in 0...60 {
            let t = Double(k) / 10
            try reg.update(tracking: ARTrackingSample(time: t, position: SIMD3(0, 1.4 * t, 0), yaw: 0))
            if k % 10 == 0 {
                let p = Geodesic.wgs84.destination(latitude: origin.latitude, longitude: origin.longitude, azimuth: 0, distance: 1.4 * t)
                try reg.update(fix: Fix(time: t, latitude: p.latitude, longitude: p.longitude, ellipsoidalHeight: 300,
                                        horizontalAccuracy: 3, speed: 1.4, course: 0))
            }
            if k == 0 { try reg.update(compass: CompassReading(time: t, heading: 60, headingAccuracy: 5)) }
        }
        #expect(reg.summary.headingReinitializations == 1)
        let e = try #require(reg.estimate)
        #expect(abs(Angle.difference(from: 0, to: e.heading)) < 0.01, "heading \(e.heading)°")
    }

    /// A device standing still whose heading the compass started during a disturbance: readings
    /// 50° off for the first 20 s, then true (0°) for a minute (ENU session, yaw 0, a fix each
    /// second at the same place, noise-free). The good readings are gated against the heading
    /// the bad ones set; only the median over the last minute of readings (once it spans 30 s)
    /// sees that most of them say 0°. Reference: the construction (true heading 0°); tolerance
    /// 0.5° at t = 80 s, one re-initialization. Before: 50° to the end.
    @Test func standingStillTheCompassMedianOverrulesADisturbedStart() throws {
        var reg = GeoRegistration(convention: .enu)
        let fix = Fix(time: 0, latitude: 49.96, longitude: 14.39, ellipsoidalHeight: 300, horizontalAccuracy: 5)
        for k in 0...800 {
            let t = Double(k) / 10
            try reg.update(tracking: ARTrackingSample(time: t, position: .zero, yaw: 0))
            if k % 10 == 0 {
                var f = fix
                f.time = t
                try reg.update(fix: f)
            }
            if k % 5 == 0 { try reg.update(compass: CompassReading(time: t, heading: t < 20 ? 50 : 0, headingAccuracy: 10)) }
        }
        #expect(reg.summary.headingReinitializations == 1)
        let e = try #require(reg.estimate)
        #expect(abs(Angle.difference(from: 0, to: e.heading)) < 0.5, "heading \(e.heading)°")
    }

    /// The truth built from a reference that states positions only: a drive east at 10 m/s, a
    /// 20 s stop, then north at 5 m/s, 10 Hz. Reference: the construction — heading 90° then 0°
    /// (the stop holds 90°), speed 10 / 0 / 5 m/s; tolerances 0.01° (the local frame's curvature
    /// over 200 m) and 1 mm/s, away from the ±0.5 s window at each change.
    @Test func truthFromAPositionOnlyReference() {
        let start = GeodeticCoordinate(latitude: 49.96, longitude: 14.39)
        var fixes: [Fix] = []
        let g = Geodesic.wgs84
        let corner = g.destination(latitude: start.latitude, longitude: start.longitude, azimuth: 90, distance: 200)
        for k in 0...600 {
            let t = Double(k) / 10
            let p: (latitude: Double, longitude: Double)
            if t <= 20 {
                let d = g.destination(latitude: start.latitude, longitude: start.longitude, azimuth: 90, distance: 10 * t)
                p = (d.latitude, d.longitude)
            } else if t <= 40 {
                p = (corner.latitude, corner.longitude)
            } else {
                let d = g.destination(latitude: corner.latitude, longitude: corner.longitude, azimuth: 0, distance: 5 * (t - 40))
                p = (d.latitude, d.longitude)
            }
            fixes.append(Fix(time: 1_000 + t, latitude: p.latitude, longitude: p.longitude, ellipsoidalHeight: 300))
        }
        let truth = GeoRegistrationSimulator.truth(fromReference: fixes)
        #expect(truth.count == fixes.count)
        for (k, f) in truth.enumerated() {
            let t = Double(k) / 10
            guard let h = f.heading, let v = f.speed else { Issue.record("no heading/speed at \(t) s"); continue }
            if t < 19.5 {
                #expect(abs(Angle.difference(from: 90, to: h)) < 0.01 && abs(v - 10) < 1e-3, "t \(t): \(h)°, \(v) m/s")
            } else if t > 20.5 && t < 39.5 {
                #expect(abs(Angle.difference(from: 90, to: h)) < 0.01 && v == 0, "t \(t): \(h)°, \(v) m/s")
            } else if t > 40.5 {
                #expect(abs(h) < 0.01 || abs(h - 360) < 0.01, "t \(t): \(h)°")
                #expect(abs(v - 5) < 1e-3, "t \(t): \(v) m/s")
            }
        }
        // Fewer than two epochs: returned as is.
        #expect(GeoRegistrationSimulator.truth(fromReference: Array(fixes.prefix(1))) == Array(fixes.prefix(1)))
    }
}
