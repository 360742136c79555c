import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport
@testable import GeoAnchorKitSimulation

@Suite("Trace simulator")
struct TraceSimulatorTests {
    static let zavist: TraceSimulator.Output = {
        do { return try TraceSimulator(config: .zavistTour, seed: 1).run() } catch { preconditionFailure("built-in scenario: \(error)") }
    }()

    /// A configuration decoded from someone's file cannot crash the simulator: every unusable
    /// value is a typed error naming it (was a precondition and a `try!`).
    @Test func invalidConfigurationsAreTypedErrors() throws {
        var c = TraceSimulator.Configuration.cityWalk
        c.stops.append(TraceSimulator.Stop(name: "nowhere", waypointIndex: 99, dwell: 10))
        #expect(throws: GeoAnchorError.outOfRange(name: "stops[\(c.stops.count - 1)].waypointIndex", value: 99,
                                                  allowed: .closed(0, Double(c.waypoints.count - 1)))) {
            try TraceSimulator(config: c, seed: 1)
        }
        var one = TraceSimulator.Configuration.cityWalk
        one.waypoints = [one.waypoints[0]]
        #expect(throws: GeoAnchorError.outOfRange(name: "waypoints.count", value: 1, allowed: .atLeast(2))) { try TraceSimulator(config: one, seed: 1) }
        var lat = TraceSimulator.Configuration.cityWalk
        lat.waypoints[1] = GeodeticCoordinate(latitude: 95, longitude: 14, ellipsoidalHeight: 0)
        #expect(throws: GeoAnchorError.invalidLatitude(95)) { try TraceSimulator(config: lat, seed: 1) }
        var speed = TraceSimulator.Configuration.cityWalk
        speed.walkingSpeed = 0
        #expect(throws: GeoAnchorError.outOfRange(name: "walkingSpeed", value: 0, allowed: .greaterThan(0, unit: "m/s"))) {
            try TraceSimulator(config: speed, seed: 1)
        }
        // Decoded from JSON, as a user's file would be.
        var json = try JSONEncoder().encode(TraceSimulator.Configuration.cityWalk)
        json = Data(String(decoding: json, as: UTF8.self).replacingOccurrences(of: "\"fixInterval\":1", with: "\"fixInterval\":-1").utf8)
        let decoded = try JSONDecoder().decode(TraceSimulator.Configuration.self, from: json)
        #expect(decoded.fixInterval == -1)
        #expect(throws: GeoAnchorError.self) { try TraceSimulator(config: decoded, seed: 1) }
    }

    /// xoshiro256** reference: the first outputs for SplitMix64-seeded states, from Vigna's C
    /// code (splitmix64.c, xoshiro256starstar.c) transcribed to Python in
    /// scripts/dev/xoshiro_reference.py, which wrote Fixtures/Traces/xoshiro256starstar.txt. Exact.
    @Test func prngReference() throws {
        let url = SharedData.repositoryRoot.appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/Traces/xoshiro256starstar.txt")
        let text = try String(contentsOf: url, encoding: .utf8)
        var rows = 0
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            let parts = line.split(separator: " ")
            var r = SeededRandom(seed: UInt64(parts[0])!)
            for hex in parts.dropFirst() { #expect(r.next() == UInt64(hex, radix: 16)!) }
            rows += 1
        }
        #expect(rows == 3)
    }

    /// The persistent GNSS error (``TraceSimulator/GNSSErrorModel/persistentSigma``) is the
    /// Gauss–Markov process it claims. Reference: the process's analytic moments — stationary
    /// variance σ² per horizontal axis ((σ × verticalFactor)² vertically) and autocorrelation
    /// e^(−lag/τ) — estimated over 400 independent chains of 1,200 one-second steps (σ 2.2 m, τ 600 s,
    /// each chain started in the stationary distribution): variance within 10 % (≈ 800 independent
    /// values per axis: standard error ≈ 5 %), autocorrelation at 300 s within 0.05 of
    /// e^(−0.5) = 0.607; nil without a persistent part. Adding it changes neither the walk nor the
    /// other errors (its own random stream): the same walk's fixes differ by exactly the persistent part.
    @Test func persistentGNSSError() {
        var m = GeoRegistrationSimulator.persistentGNSS(TraceSimulator.GNSSErrorModel())
        var sum = SIMD3<Double>(repeating: 0), lagged = 0.0, laggedCount = 0.0, n = 0.0
        for chain in UInt64(0)..<400 {
            guard var p = PersistentGNSSError(m, seed: chain) else { Issue.record("no persistent part"); return }
            var history: [SIMD2<Double>] = []
            for _ in 0..<1200 {
                let e = p.step(1)
                sum += e * e; n += 1
                history.append(SIMD2(e.x, e.y))
            }
            for k in 300..<history.count { lagged += (history[k] * history[k - 300]).sum() / 2; laggedCount += 1 }
        }
        let variance = sum / n
        let s2 = m.persistentSigma * m.persistentSigma
        #expect(Swift.abs(variance.x / s2 - 1) < 0.1 && Swift.abs(variance.y / s2 - 1) < 0.1, "horizontal variance \(variance.x), \(variance.y) m² (model \(s2))")
        #expect(Swift.abs(variance.z / (s2 * m.verticalFactor * m.verticalFactor) - 1) < 0.1, "vertical variance \(variance.z) m²")
        let correlation = lagged / laggedCount / ((variance.x + variance.y) / 2)
        #expect(Swift.abs(correlation - Foundation.exp(-0.5)) < 0.05, "autocorrelation at 300 s \(correlation)")
        // The fixes' model σ (behind the reported accuracy) includes the persistent part, and
        // canyons do not scale it.
        #expect(Swift.abs(m.horizontalSigma(canyonFactor: 3) - (9 * (1.2 * 1.2 + 1.1 * 1.1) + 2.2 * 2.2).squareRoot()) < 1e-12)
        #expect(Swift.abs(m.horizontalSigma() - (1.2 * 1.2 + 1.1 * 1.1 + 2.2 * 2.2).squareRoot()) < 1e-12)
        // The same walk with and without it: truth identical, fixes one for one, each moved by the
        // chain's value at its epoch (within the files' 1e-8° rounding, ≈ 1 mm).
        var with = TraceSimulator.Configuration.zavistTour
        with.gnss = m
        with.sensors.duration = 0
        var without = with
        without.gnss.persistentSigma = 0
        do {
            let a = try TraceSimulator(config: with, seed: 5).run(), b = try TraceSimulator(config: without, seed: 5).run()
            #expect(a.truth == b.truth && a.raw.count == b.raw.count && a.raw.map(\.time) == b.raw.map(\.time))
            let frame = try LocalTangentFrame(origin: GeodeticCoordinate(latitude: a.truth[0].latitude, longitude: a.truth[0].longitude, ellipsoidalHeight: 0))
            guard var chain = PersistentGNSSError(m, seed: 5) else { Issue.record("no persistent part"); return }
            var worst = 0.0, k = 0
            for tf in a.truth {
                let d = chain.step(with.fixInterval)
                guard k < a.raw.count, a.raw[k].time == tf.time else { continue }
                let p = frame.enu(latitude: a.raw[k].latitude, longitude: a.raw[k].longitude, ellipsoidalHeight: 0)
                let q = frame.enu(latitude: b.raw[k].latitude, longitude: b.raw[k].longitude, ellipsoidalHeight: 0)
                worst = Swift.max(worst, Swift.abs(p.east - q.east - d.x), Swift.abs(p.north - q.north - d.y))
                k += 1
            }
            #expect(k == a.raw.count && worst < 0.005, "\(k) of \(a.raw.count) fixes compared, worst difference \(worst) m")
        } catch { Issue.record("\(error)") }
        m.persistentSigma = 0
        #expect(PersistentGNSSError(m, seed: 1) == nil)
        #expect(m.horizontalSigma(canyonFactor: 3) == 3 * (1.2 * 1.2 + 1.1 * 1.1).squareRoot())
    }

    /// Saved configurations from before the persistent part decode with its defaults (none);
    /// a negative σ or a non-positive τ is a typed error naming the field.
    @Test func persistentGNSSConfiguration() throws {
        var saved = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(TraceSimulator.Configuration.cityWalk)) as? [String: Any])
        var gnss = try #require(saved["gnss"] as? [String: Any])
        #expect(gnss.removeValue(forKey: "persistentSigma") != nil && gnss.removeValue(forKey: "persistentTime") != nil)
        saved["gnss"] = gnss
        let old = try JSONDecoder().decode(TraceSimulator.Configuration.self, from: JSONSerialization.data(withJSONObject: saved))
        #expect(old == TraceSimulator.Configuration.cityWalk)
        var persistent = TraceSimulator.Configuration.cityWalk
        persistent.gnss = GeoRegistrationSimulator.persistentGNSS(persistent.gnss)
        #expect(try JSONDecoder().decode(TraceSimulator.Configuration.self, from: JSONEncoder().encode(persistent)) == persistent)
        var bad = persistent
        bad.gnss.persistentSigma = -1
        #expect(throws: GeoAnchorError.outOfRange(name: "gnss.persistentSigma", value: -1, allowed: .atLeast(0))) { try TraceSimulator(config: bad, seed: 1) }
        bad = persistent
        bad.gnss.persistentTime = 0
        #expect(throws: GeoAnchorError.outOfRange(name: "gnss.persistentTime", value: 0, allowed: .greaterThan(0, unit: "s"))) {
            try TraceSimulator(config: bad, seed: 1)
        }
    }

    /// Same seed → identical output; another seed → different output.
    @Test func deterministic() throws {
        let small = TraceSimulator.Configuration.cityWalk
        let a = try TraceSimulator(config: small, seed: 7).run()
        let b = try TraceSimulator(config: small, seed: 7).run()
        let c = try TraceSimulator(config: small, seed: 8).run()
        #expect(a == b)
        #expect(a.raw != c.raw)
    }

    /// Realism, checked against the configuration (brute-force statistics of the output):
    /// walking speed mean 1.2–1.4 m/s while moving, every stop visited with its dwell ±30 %,
    /// fixes at 1 Hz, dropouts leave gaps, errors metre-level with a heavier tail.
    @Test func realism() {
        let out = Self.zavist
        let moving = out.truth.compactMap(\.speed).filter { $0 > 0 }
        let meanSpeed = moving.reduce(0, +) / Double(moving.count)
        #expect(meanSpeed > 1.2 && meanSpeed < 1.4, "mean speed \(meanSpeed)")
        #expect(out.visits.count == 4)
        for v in out.visits {
            let d = v.departure - v.arrival
            #expect(d >= 0.69 * v.stop.dwell && d <= 1.31 * v.stop.dwell, "\(v.stop.name) \(d)")
        }
        #expect(out.raw.count < out.truth.count)   // dropouts
        let r = TrackAccuracy.evaluate(trace: out.raw, reference: ReferenceTrack(out.truth))
        #expect(r.horizontal.p50 > 1 && r.horizontal.p50 < 4, "p50 \(r.horizontal.p50)")
        #expect(r.horizontal.max > 3 * r.horizontal.p95, "outliers: max \(r.horizontal.max) p95 \(r.horizontal.p95)")
        // Reported accuracy is imperfect: it covers fewer errors than its nominal 68 %, but
        // not none (model: log-normal factor with ln-mean −0.15).
        let covered = r.epochs.filter { $0.horizontal <= $0.horizontalAccuracy! }.count
        let frac = Double(covered) / Double(r.epochs.count)
        #expect(frac > 0.35 && frac < 0.68, "coverage \(frac)")
        // TrackAccuracy's own share (geobench accuracy's within_accuracy) is this count.
        #expect(r.accuracyStated == r.epochs.count && r.withinAccuracy == frac)
        // Heights: truth ellipsoidal, raw MSL + N; reconciled, vertical errors are metre-level.
        #expect(r.vertical.p50 < 5)
        // Terrain: the acropolis is higher than the car park.
        let hs = out.truth.compactMap(\.height)
        #expect(hs.max()! - hs.min()! > 30)
    }

    /// Sensors, checked by inverting the model (brute-force reference): undo hard/soft iron,
    /// take the horizontal field's direction for a (nearly) flat device, add declination → the
    /// truth device heading within 6° (pitch/roll oscillation ≤ 2.5° and 0.4 µT noise);
    /// accelerometer magnitude averages g within 0.3 m/s²; gyro z minus its configured bias
    /// integrates to the change of heading within 3° over 60 s (noise 0.004 rad/s at 10 Hz).
    @Test func sensors() {
        let out = Self.zavist
        let c = TraceSimulator.Configuration.zavistTour.sensors
        let mags = out.sensors.filter { $0.kind == .magnetometer }
        #expect(mags.count == 1800)
        // Inverse of the soft-iron matrix (3×3, by cofactors).
        let m = c.softIron
        let det = m[0] * (m[4] * m[8] - m[5] * m[7]) - m[1] * (m[3] * m[8] - m[5] * m[6]) + m[2] * (m[3] * m[7] - m[4] * m[6])
        let inv = [(m[4] * m[8] - m[5] * m[7]) / det, (m[2] * m[7] - m[1] * m[8]) / det, (m[1] * m[5] - m[2] * m[4]) / det,
                   (m[5] * m[6] - m[3] * m[8]) / det, (m[0] * m[8] - m[2] * m[6]) / det, (m[2] * m[3] - m[0] * m[5]) / det,
                   (m[3] * m[7] - m[4] * m[6]) / det, (m[1] * m[6] - m[0] * m[7]) / det, (m[0] * m[4] - m[1] * m[3]) / det]
        var maxErr = 0.0
        for s in mags where Int((s.time - out.truth[0].time).rounded()) % 10 == 0 && (s.time - out.truth[0].time).truncatingRemainder(dividingBy: 1) == 0 {
            let x = s.x - c.hardIron[0], y = s.y - c.hardIron[1], z = s.z - c.hardIron[2]
            let bx = inv[0] * x + inv[1] * y + inv[2] * z
            let by = inv[3] * x + inv[4] * y + inv[5] * z
            // Device flat, top = heading ψ: bx = Bh sin(D − ψ), by = Bh cos(D − ψ).
            let magneticHeading = Angle.normalizeHeading(-Angle.atan2Degrees(bx, by))
            let heading = Angle.normalizeHeading(magneticHeading + c.declination)
            guard let truth = out.truth.first(where: { abs($0.time - s.time) < 1e-6 })?.heading else { continue }
            maxErr = max(maxErr, abs(Angle.difference(from: truth, to: heading)))
        }
        #expect(maxErr < 6, "max heading error \(maxErr)°")
        let acc = out.sensors.filter { $0.kind == .accelerometer }
        let meanG = acc.map { ($0.x * $0.x + $0.y * $0.y + $0.z * $0.z).squareRoot() }.reduce(0, +) / Double(acc.count)
        #expect(abs(meanG - 9.80665) < 0.3, "mean |a| \(meanG)")
        let gyro = out.sensors.filter { $0.kind == .gyroscope }
        let t0 = out.truth[0].time
        var integral = 0.0
        for g in gyro where g.time < t0 + 60 { integral += -(g.z - c.gyroscopeBias[2]) * 0.1 } // bias known from the config
        let h0 = out.truth[0].heading!, h60 = out.truth[60].heading!
        let expected = Angle.difference(from: h0, to: h60)
        #expect(abs(integral * Angle.degreesPerRadian - expected) < 3, "gyro \(integral * Angle.degreesPerRadian)° vs \(expected)°")
    }
}
