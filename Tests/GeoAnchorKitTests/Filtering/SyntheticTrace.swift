import Foundation
@testable import GeoAnchorKit

/// A reproducible synthetic trace for filter tests: ground truth and the fixes a phone would
/// report, built inline from a fixed seed (no files).
struct SyntheticTrace {
    var frame: LocalTangentFrame
    var truth: [ENUVector]
    var fixes: [Fix]
    var rate: Double

    /// A walker (≈ 1.4 m/s, turning every 20–60 s, pausing now and then) sampled at `rate` Hz.
    /// Reported accuracy 3–8 m (68 % radius); the per-axis error is that accuracy / 1.5096 ×
    /// N(0, 1) (white), plus a fraction `outlierRate` of fixes displaced by 30–120 m.
    static func pedestrian(seed: UInt64, duration: Double = 1200, rate: Double = 1, outlierRate: Double = 0.03,
                           speed: Double = 1.4, withSpeed: Bool = false) -> SyntheticTrace {
        var rng = FilterTestRNG(seed: seed)
        let frame = try! LocalTangentFrame(origin: GeodeticCoordinate(latitude: 48.8566, longitude: 2.3522, ellipsoidalHeight: 0))
        var e = 0.0, n = 0.0, h = 35.0
        var heading = rng.uniform(0, 360)
        var nextTurn = rng.uniform(20, 60), pauseUntil = -1.0
        var truth: [ENUVector] = [], fixes: [Fix] = []
        let dt = 1 / rate
        var t = 0.0
        while t < duration {
            if t >= nextTurn {
                heading += rng.uniform(-100, 100)
                nextTurn = t + rng.uniform(20, 60)
                if rng.uniform() < 0.2 { pauseUntil = t + rng.uniform(5, 20) }
            }
            let v = t < pauseUntil ? 0 : speed
            let (s, c) = Angle.sincos(degrees: heading)
            truth.append(ENUVector(east: e, north: n, up: h))
            let acc = rng.uniform(3, 8)
            let sigma = acc / 1.509_592_185_451_663
            var me = e + sigma * rng.gaussian(), mn = n + sigma * rng.gaussian()
            if rng.uniform() < outlierRate {
                let d = rng.uniform(30, 120), a = rng.uniform(0, 360)
                let (sa, ca) = Angle.sincos(degrees: a)
                me += d * sa; mn += d * ca
            }
            let g = frame.geodetic(east: me, north: mn, up: 0)
            var f = Fix(time: 1_700_000_000 + t, latitude: g.latitude, longitude: g.longitude,
                        ellipsoidalHeight: h + 1.5 * sigma * rng.gaussian(), horizontalAccuracy: acc, verticalAccuracy: 1.5 * acc)
            if withSpeed {
                f.speed = max(0, v + 0.2 * rng.gaussian())
                f.course = Angle.normalizeHeading(heading + 5 * rng.gaussian())
            }
            fixes.append(f)
            e += v * s * dt; n += v * c * dt
            t += dt
        }
        return SyntheticTrace(frame: frame, truth: truth, fixes: fixes, rate: rate)
    }

    /// Horizontal error (m) of a position against the truth at fix index `i`.
    func error(latitude: Double, longitude: Double, at i: Int) -> Double {
        let p = frame.enu(latitude: latitude, longitude: longitude, ellipsoidalHeight: 0)
        let d = ENUVector(east: p.east - truth[i].east, north: p.north - truth[i].north, up: 0)
        return d.horizontalDistance
    }

    /// Index of the fix with this time (fixes are evenly spaced at `rate` Hz).
    func index(of time: Double) -> Int { Int(((time - fixes[0].time) * rate).rounded()) }
}

extension SyntheticTrace {
    /// A walker (1.4 m/s, turning every 20–60 s, pausing 5–20 s now and then; 1 Hz, no
    /// speed/course) whose fixes are exactly as good as they say: every fix reports `accuracy`
    /// (68 % radius, m) and its per-axis error has σ = accuracy / 1.5096 — white, or with
    /// `correlated` a first-order Gauss–Markov sequence (τ 60 s) with that stationary σ.
    static func honest(seed: UInt64, accuracy: Double, correlated: Bool, duration: Int = 1200) -> SyntheticTrace {
        var rng = FilterTestRNG(seed: seed)
        let frame = try! LocalTangentFrame(origin: GeodeticCoordinate(latitude: 48.8566, longitude: 2.3522, ellipsoidalHeight: 0))
        let sigma = accuracy / CircularError.radius68PerSigma
        var e = 0.0, n = 0.0
        var heading = rng.uniform(0, 360), nextTurn = rng.uniform(20, 60), pauseUntil = -1.0
        var err = SIMD2(sigma * rng.gaussian(), sigma * rng.gaussian())
        let phi = exp(-1 / 60.0)
        var truth: [ENUVector] = [], fixes: [Fix] = []
        for k in 0..<duration {
            let t = Double(k)
            if t >= nextTurn {
                heading += rng.uniform(-100, 100); nextTurn = t + rng.uniform(20, 60)
                if rng.uniform() < 0.2 { pauseUntil = t + rng.uniform(5, 20) }
            }
            truth.append(ENUVector(east: e, north: n, up: 0))
            err = correlated ? phi * err + sigma * (1 - phi * phi).squareRoot() * SIMD2(rng.gaussian(), rng.gaussian())
                             : SIMD2(sigma * rng.gaussian(), sigma * rng.gaussian())
            let g = frame.geodetic(east: e + err.x, north: n + err.y, up: 0)
            fixes.append(Fix(time: 1_700_000_000 + t, latitude: g.latitude, longitude: g.longitude, horizontalAccuracy: accuracy))
            let v = t < pauseUntil ? 0 : 1.4
            let (s, c) = Angle.sincos(degrees: heading)
            e += v * s; n += v * c
        }
        return SyntheticTrace(frame: frame, truth: truth, fixes: fixes, rate: 1)
    }

    /// Horizontal errors (m) of a track's filtered estimates against the truth, after `skip` fixes.
    func errors(of track: PositionTrack, skip: Int = 30) -> [Double] {
        track.filtered.dropFirst(skip).map { error(latitude: $0.latitude, longitude: $0.longitude, at: index(of: $0.time)) }
    }
}
