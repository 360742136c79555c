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
            var me = e + sigma * rng.normal(), mn = n + sigma * rng.normal()
            if rng.uniform() < outlierRate {
                let d = rng.uniform(30, 120), a = rng.uniform(0, 360)
                let (sa, ca) = Angle.sincos(degrees: a)
                me += d * sa; mn += d * ca
            }
            let g = frame.geodetic(east: me, north: mn, up: 0)
            var f = Fix(time: 1_700_000_000 + t, latitude: g.latitude, longitude: g.longitude,
                        ellipsoidalHeight: h + 1.5 * sigma * rng.normal(), horizontalAccuracy: acc, verticalAccuracy: 1.5 * acc)
            if withSpeed {
                f.speed = max(0, v + 0.2 * rng.normal())
                f.course = Angle.normalizeHeading(heading + 5 * rng.normal())
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
