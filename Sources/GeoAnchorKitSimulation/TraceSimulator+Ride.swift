import Foundation
import GeoAnchorKit

extension TraceSimulator {
    /// A tour that mixes walking with a ride: walk to a stop, ride a tram or bus, walk on — the
    /// scenario the adaptive position filter is measured on (a walking-only model lags a vehicle
    /// by tens of meters; a vehicle model is noisy on foot).
    ///
    /// Ground truth (1 Hz, in a local frame at 50.087 N, 14.421 E): a walk of `walkDuration` s at
    /// ≈ 1.3 m/s turning every 40–90 s, a wait of 30–60 s at the stop, a ride of `rideDuration` s
    /// between stops 300–700 m apart (acceleration 1.0 m/s², braking 1.2 m/s², cruising at
    /// 8–`maximumSpeed` m/s, 20–40 s at each stop, turns of 30–90° on arcs of 40–120 m radius taken
    /// at ≤ √(1.5 m/s² × radius)), a wait of 10–20 s, and the walk on. GNSS errors follow
    /// `errors` (``GNSSErrorModel``: Gauss–Markov bias, white noise, the persistent part if any, rare 5–30 m outliers; reported
    /// accuracy 1.515 × the error σ × a log-normal factor); Doppler speed σ 0.12 m/s, course σ 6°
    /// above 0.5 m/s.
    ///
    /// - Returns: truth and raw fixes at the same times (no dropouts), `raw[i]` the phone's
    ///   report of `truth[i]`.
    public static func walkRideWalk(seed: UInt64, walkDuration: Double = 300, rideDuration: Double = 600,
                                    maximumSpeed: Double = 14, errors: GNSSErrorModel = GNSSErrorModel(),
                                    startTime: Double = 1_778_920_200) -> (truth: [Fix], raw: [Fix]) {
        var rng = SeededRandom(seed: seed)
        guard let frame = try? LocalTangentFrame(origin: GeodeticCoordinate(latitude: 50.087, longitude: 14.421, ellipsoidalHeight: 0)) else {
            preconditionFailure("valid constant origin")
        }
        // Speed (m/s) and heading (degrees) at each second.
        var speeds: [Double] = [], headings: [Double] = []
        var heading = rng.uniform(0, 360)
        func walk(_ duration: Double) {
            var nextTurn = rng.uniform(40, 90), t = 0.0
            while t < duration {
                if t >= nextTurn { heading += rng.uniform(-100, 100); nextTurn = t + rng.uniform(40, 90) }
                speeds.append(1.3 * (1 + 0.08 * rng.gaussian())); headings.append(heading)
                t += 1
            }
        }
        func wait(_ duration: Double) {
            for _ in 0..<Int(duration) { speeds.append(0); headings.append(heading) }
        }
        func ride(_ duration: Double) {
            var t = 0.0, v = 0.0
            while t < duration {
                // One leg between stops: accelerate, cruise with turns, brake, dwell.
                let leg = rng.uniform(300, 700), cruise = rng.uniform(8, maximumSpeed)
                var s = 0.0
                var turn: (left: Double, rate: Double, limit: Double)? = nil
                var nextTurn = rng.uniform(120, 300)
                while s < leg && t < duration {
                    let remaining = leg - s
                    var target = cruise
                    if let tr = turn { target = min(target, tr.limit) }
                    else if s + 60 >= nextTurn { target = min(target, 9) }
                    if v * v / (2 * 1.2) >= remaining { target = 0 }
                    if v < target { v = min(target, v + 1.0) } else if v > target { v = max(target, v - 1.2) }
                    if turn == nil, s >= nextTurn {
                        let angle = rng.uniform(30, 90) * (rng.bernoulli(0.5) ? 1 : -1), radius = rng.uniform(40, 120)
                        let limit = (1.5 * radius).squareRoot()
                        turn = (abs(angle), (angle < 0 ? -1 : 1) * 180 / Double.pi / radius, limit)
                        nextTurn = s + rng.uniform(150, 350)
                    }
                    if let tr = turn {
                        let dh = min(abs(tr.rate) * v, tr.left)
                        heading += tr.rate < 0 ? -dh : dh
                        turn = tr.left - dh > 1e-9 ? (tr.left - dh, tr.rate, tr.limit) : nil
                    }
                    speeds.append(max(v, 0)); headings.append(heading)
                    s += v; t += 1
                    if v == 0 && remaining < 5 { break }
                }
                // Brake to a stop (if the duration ran out mid-leg) and dwell.
                while v > 0 { v = max(0, v - 1.2); speeds.append(v); headings.append(heading); t += 1 }
                let dwell = rng.uniform(20, 40)
                if t + dwell < duration { wait(dwell); t += dwell } else { break }
            }
        }
        walk(walkDuration)
        wait(rng.uniform(30, 60))
        ride(rideDuration)
        wait(rng.uniform(10, 20))
        walk(walkDuration)

        var truth: [Fix] = [], raw: [Fix] = []
        truth.reserveCapacity(speeds.count); raw.reserveCapacity(speeds.count)
        var e = 0.0, n = 0.0
        var bias = (rng.gaussian() * errors.biasSigma, rng.gaussian() * errors.biasSigma)
        let phi = Foundation.exp(-1 / errors.biasTime), q = (1 - phi * phi).squareRoot()
        var outlier: (e: Double, n: Double, left: Int) = (0, 0, 0)
        let sigma = errors.horizontalSigma()
        var persistent = PersistentGNSSError(errors, seed: seed)
        for k in 0..<speeds.count {
            let t = startTime + Double(k)
            let course = Angle.normalizeHeading(headings[k])
            let g = frame.geodetic(east: e, north: n, up: 0)
            var tf = Fix(time: t, latitude: g.latitude, longitude: g.longitude)
            tf.speed = speeds[k]
            tf.course = speeds[k] > 0 ? course : nil
            truth.append(tf)

            bias = (phi * bias.0 + q * errors.biasSigma * rng.gaussian(), phi * bias.1 + q * errors.biasSigma * rng.gaussian())
            var ee = bias.0 + errors.whiteSigma * rng.gaussian(), en = bias.1 + errors.whiteSigma * rng.gaussian()
            if let d = persistent?.step(1) { ee += d.x; en += d.y }
            if outlier.left > 0 { outlier.left -= 1 }
            else if rng.bernoulli(errors.outlierProbability) {
                let mag = rng.uniform(5, 30), dir = rng.uniform(0, 2 * Double.pi)
                outlier = (mag * Foundation.sin(dir), mag * Foundation.cos(dir), 1 + Int(rng.uniform(0, 3)))
            }
            if outlier.left > 0 { ee += outlier.e; en += outlier.n }
            let rg = frame.geodetic(east: e + ee, north: n + en, up: 0)
            var rf = Fix(time: t, latitude: rg.latitude, longitude: rg.longitude)
            rf.horizontalAccuracy = round(1.515 * sigma * Foundation.exp(errors.reportedLogMean + errors.reportedLogSigma * rng.gaussian()), 1)
            let sv = max(speeds[k] + 0.12 * rng.gaussian(), 0)
            rf.speed = round(sv, 2)
            rf.course = sv > 0.5 ? round(Angle.normalizeHeading(course + 6 * rng.gaussian()), 1) : nil
            raw.append(rf)

            let (sn, cs) = Angle.sincos(degrees: course)
            e += speeds[k] * sn; n += speeds[k] * cs
        }
        return (truth, raw)
    }
}
