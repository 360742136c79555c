import Foundation
import Testing
import GeoAnchorKitTestSupport
@testable import GeoAnchorKit

@Suite("Position filter")
struct PositionFilterTests {
    /// Errors (m) of raw fixes, filtered and smoothed estimates against the simulator's truth.
    static func errors(_ trace: SyntheticTrace, configuration: PositionFilter.Configuration = .walking)
        -> (raw: [Double], filtered: [Double], smoothed: [Double], stats: PositionFilterStatistics) {
        let track = PositionFilter.track(trace.fixes, configuration: configuration, smooth: true)
        let raw = trace.fixes.indices.map { trace.error(latitude: trace.fixes[$0].latitude, longitude: trace.fixes[$0].longitude, at: $0) }
        let fil = track.filtered.map { trace.error(latitude: $0.latitude, longitude: $0.longitude, at: trace.index(of: $0.time)) }
        let smo = track.smoothed!.map { trace.error(latitude: $0.latitude, longitude: $0.longitude, at: trace.index(of: $0.time)) }
        return (raw, fil, smo, track.statistics)
    }

    // Reference: the simulator's ground truth (brute-force comparison). Thresholds from the
    // issue: RMSE −30 % (filter), −45 % (smoother), p95 −40 %; three seeds.
    @Test("synthetic pedestrian: RMSE −30 % filtered, −45 % smoothed, p95 −40 %", arguments: [1, 2, 3] as [UInt64])
    func pedestrianAccuracy(seed: UInt64) {
        let trace = SyntheticTrace.pedestrian(seed: seed)
        let e = Self.errors(trace)
        #expect(e.filtered.count == trace.fixes.count)
        let (r, f, s) = (rms(e.raw), rms(e.filtered), rms(e.smoothed))
        let (r95, f95) = (percentile(e.raw, 0.95), percentile(e.filtered, 0.95))
        #expect(f <= 0.70 * r, "RMSE raw \(r) filtered \(f)")
        #expect(s <= 0.55 * r, "RMSE raw \(r) smoothed \(s)")
        #expect(f95 <= 0.60 * r95, "p95 raw \(r95) filtered \(f95)")
        #expect(e.stats.gated > 0)
    }

    // Reference: definition of the 68 % radius. With white errors whose model the filter
    // knows, the reported accuracy should cover 68 % of the errors; accepted band 55–82 %.
    // The errors are white, so no share of them lasts: correlatedErrorShare 0 (with the
    // default 0.6 floor the radius covers more than 82 %: pessimistic, by design, for white error).
    @Test("reported accuracy covers about 68 % of errors")
    func accuracyIsCalibrated() {
        let trace = SyntheticTrace.pedestrian(seed: 11, outlierRate: 0, speed: 1.0)
        // Honest reported accuracies here: no inflation.
        var c = PositionFilter.Configuration.walking
        c.accuracyInflation = 1
        c.correlatedErrorShare = 0
        let track = PositionFilter.track(trace.fixes, configuration: c)
        var inside = 0
        for f in track.filtered.dropFirst(20) {
            if trace.error(latitude: f.latitude, longitude: f.longitude, at: trace.index(of: f.time)) <= f.horizontalAccuracy { inside += 1 }
        }
        let frac = Double(inside) / Double(track.filtered.count - 20)
        #expect(frac >= 0.55 && frac <= 0.82, "coverage \(frac)")
    }

    // Reference: closed forms. 68 % radius of a circular 2-D Gaussian R = σ√(−2 ln 0.32)
    // = 1.509592 σ; χ² quantiles at 0.999: 13.8155 (2 dof, −2 ln 0.001) and 10.8276 (1 dof,
    // NIST/SEMATECH table). HDOP path: σ = HDOP·UERE/√2. Tolerances 1e-4 (table digits).
    @Test("noise conversions and gate thresholds")
    func conversions() {
        let c = PositionFilter.Configuration.walking
        #expect(abs(1 / c.horizontalSigmaPerAccuracy - (-2 * log(0.32)).squareRoot()) < 1e-12)
        #expect(abs(c.gate2 - 13.8155) < 1e-4)
        #expect(abs(c.gate1 - 10.8276) < 1e-4)
        var f = PositionFilter()
        let m = f.measurement(from: Fix(time: 0, latitude: 10, longitude: 20, hdop: 2))!
        #expect(abs(m.horizontalSigma - 2 * 6 / 2.0.squareRoot()) < 1e-12)
        let m2 = f.measurement(from: Fix(time: 0, latitude: 10, longitude: 20, horizontalAccuracy: 7.5))!
        #expect(abs(m2.horizontalSigma - c.accuracyInflation * 7.5 / 1.509_592_185_451_663) < 1e-9)
        let m3 = f.measurement(from: Fix(time: 0, latitude: 10, longitude: 20))!
        #expect(m3.horizontalSigma == c.defaultHorizontalSigma)
    }

    // Properties: refused fixes leave the state bit-identical; a gated absurd jump is exactly a
    // prediction (CV discretization composes: F(a)F(b) = F(a+b), F(a)Q(b)F(a)ᵀ + Q(a) = Q(a+b)),
    // checked against a filter that never saw the jump to 1e-9 m. A one-mode configuration: the
    // adaptive model mixes its modes at every step, so there a gated fix is a prediction plus a
    // mixing step (checked to 5 cm).
    @Test("bad input never corrupts the state", arguments: [PositionFilter.Configuration.walking, .adaptive])
    func badInput(configuration: PositionFilter.Configuration) {
        let trace = SyntheticTrace.pedestrian(seed: 5, duration: 60, outlierRate: 0)
        let tolerance = configuration.motionModes.count == 1 ? 1e-9 : 0.05
        var f = PositionFilter(configuration: configuration)
        for fix in trace.fixes.prefix(30) { _ = f.process(fix) }
        let before = f.localEstimate!
        var last = trace.fixes[29]
        var bad: [Fix] = []
        var nanFix = last; nanFix.time += 1; nanFix.latitude = .nan; bad.append(nanFix)
        var negAcc = last; negAcc.time += 1; negAcc.horizontalAccuracy = -1; bad.append(negAcc)
        var lat91 = last; lat91.time += 1; lat91.latitude = 91; bad.append(lat91)
        var back = last; back.time -= 5; bad.append(back)
        bad.append(last) // exact duplicate
        var nanTime = last; nanTime.time = .nan; bad.append(nanTime)
        let seen = RefusalLog()
        f.onRefusal = { seen.append($0) }
        for b in bad { #expect(f.process(b) == nil) }
        // Each refusal says why and names the value (the InputRefusal policy).
        #expect(seen.items.map(\.reason) == [.invalidValue, .invalidValue, .invalidValue, .outOfOrder, .duplicate, .invalidValue])
        #expect(seen.items[1].error == .outOfRange(name: "horizontalAccuracy", value: -1, allowed: .closed(0, Fix.maximumUsableHorizontalAccuracy, unit: "m")))
        #expect(seen.items[2].error == .invalidLatitude(91))
        #expect(seen.items[3].error == .outOfRange(name: "time (must not go backwards)", value: back.time, allowed: .atLeast(last.time, unit: "s")))
        #expect(f.lastRefusal?.reason == .invalidValue && f.lastRefusal?.time.isNaN == true)
        let after = f.localEstimate!
        #expect(after.east == before.east && after.north == before.north && after.velocityEast == before.velocityEast
                && after.velocityNorth == before.velocityNorth && after.horizontalSigma == before.horizontalSigma
                && after.height == before.height && after.heightSigma == before.heightSigma && after.time == before.time)
        #expect(f.statistics.invalid == 4 && f.statistics.outOfOrder == 1 && f.statistics.duplicates == 1)

        var clean = f
        var jump = trace.fixes[30]
        jump.latitude += 0.1 // ≈ 11 km
        let r = f.process(jump)!
        #expect(r.status == .gated)
        last = trace.fixes[31]
        let a = f.process(last)!, b = clean.process(last)!
        #expect(a.status == .updated && b.status == .updated)
        #expect(abs(a.local.east - b.local.east) < tolerance && abs(a.local.north - b.local.north) < tolerance)
        #expect(abs(a.horizontalAccuracy - b.horizontalAccuracy) < tolerance)
    }

    // The filter must never freeze on a stale position: when the true position really jumps
    // (200 m), it re-initializes after the configured streak. Reference: simulator truth; 15 m.
    @Test("recovers after a streak of rejections")
    func recovery() {
        var trace = SyntheticTrace.pedestrian(seed: 8, duration: 120, outlierRate: 0, speed: 0)
        for i in 60..<trace.fixes.count { trace.fixes[i].latitude += 200 / 111_200.0 }
        var f = PositionFilter()
        var statuses: [LocalPositionEstimate.Status] = []
        for fix in trace.fixes { statuses.append(f.process(fix)!.status) }
        let limit = PositionFilter.Configuration.walking.maximumConsecutiveRejections
        #expect(statuses[60..<(60 + limit)].allSatisfy { $0 == .gated })
        #expect(statuses[60 + limit] == .recovered)
        #expect(f.statistics.recoveries == 1)
        let end = f.localEstimate!
        let p = f.frame!.enu(latitude: trace.fixes.last!.latitude, longitude: trace.fixes.last!.longitude, ellipsoidalHeight: 0)
        #expect(abs(end.north - p.north) < 15)
    }

    @Test("re-initializes after a long gap")
    func gap() {
        var trace = SyntheticTrace.pedestrian(seed: 9, duration: 100, outlierRate: 0)
        for i in 50..<trace.fixes.count { trace.fixes[i].time += 120 }
        var f = PositionFilter()
        let out = trace.fixes.compactMap { f.process($0) }
        #expect(out.count == trace.fixes.count)
        #expect(out[50].status == .reinitializedAfterGap)
        #expect(f.statistics.gapReinitializations == 1)
        // The smoother does not smooth across the gap: the step before it is the filtered one
        // (a configuration whose smoother runs on the filter's own forward pass).
        let track = PositionFilter.track(trace.fixes, configuration: PositionFilter.Configuration.walking.smootherConfiguration,
                                         smooth: true)
        #expect(track.smoothed![49].local.east == track.filtered[49].local.east)
        #expect(track.smoothed![48].local.east != track.filtered[48].local.east)
    }

    // Zero-velocity mode: standing still with reported speed 0, the estimated speed goes to ~0
    // and the position spread shrinks below the raw noise (reference: truth is a fixed point).
    @Test("stationary mode holds a parked position")
    func stationary() {
        var trace = SyntheticTrace.pedestrian(seed: 12, duration: 300, outlierRate: 0, speed: 0)
        for i in trace.fixes.indices { trace.fixes[i].speed = 0 }
        var f = PositionFilter()
        let out = trace.fixes.compactMap { f.process($0) }
        #expect(f.statistics.stationarySteps >= trace.fixes.count - 5)
        #expect(out.last!.speed < 0.05)
        let errs = out.dropFirst(30).enumerated().map { trace.error(latitude: $1.latitude, longitude: $1.longitude, at: $0 + 30) }
        #expect(rms(errs) < 1.0, "parked RMSE \(rms(errs))")
        var g = PositionFilter()
        g.stationaryOverride = false
        for fix in trace.fixes { _ = g.process(fix) }
        #expect(g.statistics.stationarySteps == 0)
    }

    // Speed/course as velocity measurements: the velocity estimate follows the simulator's
    // truth speed (1.4 m/s) within 0.3 m/s RMS while walking (reference: truth).
    @Test("speed and course improve the velocity estimate")
    func speedCourse() {
        let trace = SyntheticTrace.pedestrian(seed: 21, outlierRate: 0, withSpeed: true)
        let track = PositionFilter.track(trace.fixes)
        #expect(track.statistics.velocityUpdates > trace.fixes.count / 2)
        var diffs: [Double] = []
        for (i, f) in track.filtered.enumerated().dropFirst(10) where i + 1 < trace.truth.count {
            let v = ENUVector(east: trace.truth[i + 1].east - trace.truth[i].east, north: trace.truth[i + 1].north - trace.truth[i].north, up: 0)
            diffs.append(f.speed - v.horizontalDistance)
        }
        #expect(rms(diffs) < 0.3, "speed RMS error \(rms(diffs))")
    }
}

@Suite("Position smoother: separate smoothing pass")
struct PositionSmootherPassTests {
    // Brute-force construction: a straight walk east at 1.4 m/s (accuracy 3 m) with a fix 20 m
    // north of the path and its exact duplicate. The filter (inflation ×2) gates the jump,
    // so it does not see the duplicate as one; the smoother's pass (×6) accepts the jump and
    // refuses the duplicate. Both must still give one estimate per used fix at the same times.
    @Test("smoother pass stays aligned when only it refuses a duplicate")
    func alignment() {
        let frame = try! LocalTangentFrame(origin: GeodeticCoordinate(latitude: 50, longitude: 14.4, ellipsoidalHeight: 0))
        var fixes: [Fix] = []
        for k in 0..<40 {
            let north = k == 20 ? 20.0 : 0.0
            let g = frame.geodetic(east: 1.4 * Double(k), north: north, up: 0)
            var f = Fix(time: Double(k), latitude: g.latitude, longitude: g.longitude)
            f.horizontalAccuracy = 3
            fixes.append(f)
            if k == 20 { fixes.append(f) }
        }
        var filter = PositionFilter(configuration: .walking)
        let causal = fixes.compactMap { filter.process($0) }
        #expect(causal[20].status == .gated)
        #expect(causal.count == fixes.count)
        var second = PositionFilter(configuration: PositionFilter.Configuration.walking.smootherConfiguration)
        let secondOut = fixes.compactMap { second.process($0) }
        #expect(secondOut.count == fixes.count - 1, "the smoother's pass refuses the duplicate")
        let track = PositionFilter.track(fixes, configuration: .walking, smooth: true)
        let smoothed = track.smoothedLocal ?? []
        #expect(smoothed.count == track.filteredLocal.count)
        #expect(smoothed.map(\.time) == track.filteredLocal.map(\.time))
        // The duplicate's smoothed estimate is the same point as its twin's (zero-length step).
        #expect(abs(smoothed[20].north - smoothed[21].north) < 1e-9 && abs(smoothed[20].east - smoothed[21].east) < 1e-9)
        #expect(smoothed.allSatisfy { $0.east.isFinite && $0.north.isFinite && abs($0.north) < 5 })
    }

    // Reference: the generator's own truth (brute force). Fixes = truth + first-order
    // Gauss–Markov bias (σ 2 m per axis, τ 90 s) + white noise (σ 1 m), reported accuracy
    // the total σ √5 m as a 68 % radius; Doppler speed/course unbiased (σ 0.1 m/s, 2°). The
    // walk turns every 60 s. With the bias state the filter must beat the same filter without
    // it by at least 10 % RMSE (measured 18–23 %) on each of three seeds.
    @Test("a Gauss–Markov bias state separates a correlated GNSS bias from motion", arguments: [1, 2, 3] as [UInt64])
    func biasState(seed: UInt64) {
        var rng = FilterTestRNG(seed: seed)
        let tau = 90.0, sb = 2.0, dt = 1.0
        var bias = SIMD2(sb * rng.gaussian(), sb * rng.gaussian())
        var pos = SIMD2<Double>(0, 0)
        var withBias = PositionFilter(configuration: .walking)
        var plain = PositionFilter.Configuration.walking
        plain.biasTimeConstant = nil
        var without = PositionFilter(configuration: plain)
        #expect(PositionFilter.Configuration.walking.biasTimeConstant == tau)
        var e1: [Double] = [], e2: [Double] = []
        for k in 0..<1800 {
            let t = Double(k) * dt
            let course = Double((k / 60) % 4) * 90 + 20
            let speed = 1.3
            let (sn, cs) = Angle.sincos(degrees: course)
            if k > 0 { pos += SIMD2(speed * sn, speed * cs) * dt }
            let phi = exp(-dt / tau)
            bias = phi * bias + sb * (1 - phi * phi).squareRoot() * SIMD2(rng.gaussian(), rng.gaussian())
            let z = pos + bias + SIMD2(rng.gaussian(), rng.gaussian())
            var m = LocalMeasurement(time: t, east: z.x, north: z.y, horizontalSigma: 5.0.squareRoot())
            m.speed = speed + 0.1 * rng.gaussian()
            m.course = course + 2 * rng.gaussian()
            if let a = withBias.step(m), let b = without.step(m), k >= 60 {
                e1.append(((a.east - pos.x) * (a.east - pos.x) + (a.north - pos.y) * (a.north - pos.y)).squareRoot())
                e2.append(((b.east - pos.x) * (b.east - pos.x) + (b.north - pos.y) * (b.north - pos.y)).squareRoot())
            }
        }
        #expect(e1.count == 1740)
        #expect(rms(e1) <= 0.9 * rms(e2), "RMSE with bias state \(rms(e1)), without \(rms(e2))")
    }

    /// A fix stating an accuracy no walk can use (1e100 m on the first fix, 1e200 m later;
    /// receivers put 9999 m or more on invalid fixes, the limit is 100 km) is refused as invalid
    /// and counted, not fed: before the limit, 1e100 m on the first fix of a city walk left the
    /// filtered p95 at 54 m against 11 m raw. Reference: the same filter on the fixes without
    /// them; tolerance 1 mm on every output position (only the frame origin differs).
    @Test("a fix stating an unusable accuracy is refused, not fed")
    func unusableAccuracyIsRefused() throws {
        let trace = SyntheticTrace.pedestrian(seed: 4, duration: 600)
        var fixes = trace.fixes
        fixes[0].horizontalAccuracy = 1e100
        fixes[300].horizontalAccuracy = 1e200
        let clean = Array(trace.fixes[1..<300] + trace.fixes[301...])
        let a = PositionFilter.track(fixes, configuration: .walking, smooth: true)
        let b = PositionFilter.track(clean, configuration: .walking, smooth: true)
        #expect(a.statistics.invalid == 2 && b.statistics.invalid == 0)
        #expect(a.filtered.count == clean.count && b.filtered.count == clean.count)
        for (x, y) in zip(a.filtered + (a.smoothed ?? []), b.filtered + (b.smoothed ?? [])) {
            // Meters on a 6371 km sphere (far finer than the 1 mm tolerance needs).
            let k = 6_371_000 * Double.pi / 180
            let d = hypot((x.latitude - y.latitude) * k, (x.longitude - y.longitude) * k * cos(x.latitude * Double.pi / 180))
            #expect(x.time == y.time && d <= 1e-3)
        }
    }
}
