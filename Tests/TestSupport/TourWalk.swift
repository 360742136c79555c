import Foundation
import GeoAnchorKit

/// A seeded simulated tour walk for the tour tests (used until the traces helper's simulator is
/// available): a walker follows a polyline at constant speed, pauses at chosen vertices, and a
/// GNSS receiver reports 1 Hz fixes with Gauss–Markov noise per axis (σ, correlation time τ;
/// τ = 0 is white noise).
package struct TourWalk {
    package struct Sample { package var time: Double; package var truth: PlanarPoint; package var fix: Fix }
    package let frame: LocalTangentFrame
    package var samples: [Sample] = []

    /// - Parameters:
    ///   - path: vertices in `frame` (meters).
    ///   - pauses: vertex index → seconds standing there.
    ///   - detour: optional (start along-path distance, lateral offset m, duration s): the walker
    ///     steps sideways by `offset` for `duration` seconds, then comes back.
    package init(frame: LocalTangentFrame, path: [PlanarPoint], speed: Double = 1.3, pauses: [Int: Double],
         sigma: Double, tau: Double, seed: UInt64, startTime: Double = 1_700_000_000) {
        self.frame = frame
        var rng = SplitMix64(seed: seed)
        var truth: [PlanarPoint] = []
        // Truth at 1 Hz.
        var t = 0.0
        truth.append(path[0])
        for i in 0..<(path.count - 1) {
            if let p = pauses[i] { for _ in 0..<Int(p) { truth.append(path[i]); t += 1 } }
            let a = path[i], b = path[i + 1]
            let len = a.distance(to: b)
            var s = (truth.last!.distance(to: a) > 0) ? 0 : 0.0
            while s + speed < len {
                s += speed
                truth.append(a + (b - a) * (s / len)); t += 1
            }
        }
        if let p = pauses[path.count - 1] { for _ in 0..<Int(p) { truth.append(path[path.count - 1]) } }
        // Noise: first-order Gauss–Markov, stationary σ.
        let phi = tau > 0 ? exp(-1 / tau) : 0
        let q = sigma * (1 - phi * phi).squareRoot()
        var ex = sigma * rng.gaussian(), ey = sigma * rng.gaussian()
        for (k, p) in truth.enumerated() {
            if k > 0 { ex = phi * ex + q * rng.gaussian(); ey = phi * ey + q * rng.gaussian() }
            let g = frame.geodetic(east: p.x + ex, north: p.y + ey, up: 0)
            let fix = Fix(time: startTime + Double(k), latitude: g.latitude, longitude: g.longitude,
                          horizontalAccuracy: sigma * CircularError.radius68PerSigma)
            samples.append(Sample(time: startTime + Double(k), truth: p, fix: fix))
        }
    }
}
