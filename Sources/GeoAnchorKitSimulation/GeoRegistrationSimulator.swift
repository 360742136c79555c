import Foundation
import GeoAnchorKit

/// Simulated AR tracking and compass streams for a ``TraceSimulator`` walk, with ground truth:
/// what ``GeoRegistration`` is fed in the tests, the report and `geobench simulate --tracking`.
///
/// **AR tracking** (ARKit `.gravity` session started at the first truth epoch, the device looking
/// along −z): the session frame's true heading ψ(t) starts at the device's heading and drifts at
/// a per-session rate (±0.2–0.6 °/min) plus a random walk (0.01 °/√s and 0.03 °/√m walked); the
/// tracked steps are the true steps turned into that frame and divided by (1 + scale error),
/// the scale error a per-session bias of ±1–2 % plus a slow variation (σ 0.5 %, τ 120 s); a
/// position random walk of 0.02 m/√m walked; and one relocalisation jump at 40–70 % of the walk
/// (2–4 m and ±1–3° at once). These are a third of the drift ADVIO measured on an iPhone 6s
/// (`shared/notes/ar-tracking-drift.md`), as the note advises for modern phones.
///
/// **Compass** (``CompassModel``): true heading + a per-session bias + a slow Gauss–Markov error
/// + white noise (≈ 9° in all), and disturbance episodes (near metal: 20–60° for 10–40 s,
/// ramped, ≈ one per 5 min) the reported accuracy does not reveal.
///
/// Deterministic: same truth, model and seed give the same streams (``SeededRandom``).
public struct GeoRegistrationSimulator: Sendable {
    /// AR tracking error parameters.
    public struct TrackingModel: Sendable, Hashable {
        /// Samples per second.
        public var rate = 10.0
        /// Range of the per-session scale bias magnitude (fraction).
        public var scaleBias = 0.01...0.02
        /// 1σ (fraction) and correlation time (s) of the slow scale variation.
        public var scaleVariation = 0.005
        public var scaleVariationTime = 120.0
        /// Range of the per-session yaw drift rate magnitude, degrees per minute.
        public var yawDriftRate = 0.2...0.6
        /// Yaw random walk, degrees per √s and per √m walked; position random walk, m per √m.
        public var yawNoisePerRootSecond = 0.01
        public var yawNoisePerRootMeter = 0.03
        public var positionNoisePerRootMeter = 0.02
        /// One relocalisation jump (size range in meters, yaw range in degrees); `nil` for none.
        public var jumpMeters: ClosedRange<Double>? = 2...4
        /// Range of the jump's yaw change magnitude, degrees.
        public var jumpDegrees = 1.0...3.0
        /// Mean seconds between jumps (exponential intervals from the session start: jumps
        /// throughout the walk); `nil` (the default): the one jump at 40–70 % of the walk. A value
        /// that is not a positive finite number, or ``jumpMeters`` `nil`: no jumps.
        public var jumpInterval: Double? = nil
        public init() {}

        /// AR tracking at the magnitudes ADVIO measured on an iPhone 6s (ARKit, 2018;
        /// `shared/notes/ar-tracking-drift.md`) — three times the defaults, which are a third
        /// of them as the note advises for modern phones: scale bias ±4–14 %, slow scale
        /// variation σ 2.5 % (τ 90 s: 4–10 % within a walk), yaw drift ±0.65–1.9 °/min, yaw
        /// random walk 0.03 °/√s and 0.09 °/√m, position random walk 0.06 m/√m, and
        /// relocalisation jumps of 1–2.5 m every 100 s on average (ADVIO: 2–4 of 1–2 m per 5
        /// minutes, one 3.6 m). Pairs with `GeoRegistrationConfiguration.olderARTracking`.
        public static var olderPhone: TrackingModel {
            var m = TrackingModel()
            // ADVIO's ranges where it gave them; the random walks three times the modern ones.
            (m.scaleBias, m.yawDriftRate) = (0.04...0.14, 0.65...1.9)
            (m.scaleVariation, m.scaleVariationTime) = (5 * m.scaleVariation, 90)
            for noise in [\TrackingModel.yawNoisePerRootSecond, \.yawNoisePerRootMeter, \.positionNoisePerRootMeter] { m[keyPath: noise] *= 3 }
            (m.jumpMeters, m.jumpInterval) = (1...2.5, 100)
            return m
        }
    }

    /// Compass error parameters (degrees, seconds).
    public struct CompassModel: Sendable, Hashable {
        /// Readings per second.
        public var rate = 2.0
        /// Per-session bias σ, slow Gauss–Markov σ and its correlation time, white σ.
        public var biasSigma = 4.0
        public var slowSigma = 4.0
        public var slowTime = 60.0
        public var whiteSigma = 7.0
        /// Mean seconds between disturbance episodes; their duration and offset ranges.
        public var disturbanceInterval = 300.0
        public var disturbanceDuration = 10.0...40.0
        public var disturbanceOffset = 20.0...60.0
        /// Reported accuracy: median and σ of its log.
        public var reportedAccuracy = 12.0
        public var reportedLogSigma = 0.2
        public init() {}
    }

    /// What a run produces: the streams and, per tracking sample, the truth.
    public struct Output: Sendable {
        public var tracking: [ARTrackingSample]
        public var compass: [CompassReading]
        /// Per tracking sample: the device's true position (ellipsoidal) and true heading.
        public var truePositions: [GeodeticCoordinate]
        public var trueHeadings: [Double]
        /// Per tracking sample: the session frame's true heading ψ (degrees, of its −z axis).
        public var trueFrameHeadings: [Double]
        /// Per tracking sample: meters walked since the start, and whether the walker stands still.
        public var walked: [Double]
        public var isStill: [Bool]
        /// When the (first) relocalisation jump happened (UTC s), if any.
        public var jumpTime: Double?
        /// When each relocalisation jump happened (UTC s; one unless ``TrackingModel/jumpInterval`` is set).
        public var jumpTimes: [Double] = []
        /// Per compass reading: its slowly varying error, degrees — the per-session bias plus the
        /// slow Gauss–Markov error (what ``GeoAnchorKit/GeoRegistrationEstimate/compassBias``
        /// estimates; white noise and disturbance episodes excluded).
        public var compassSlowErrors: [Double] = []
        /// The tracking interruption, if any (``interrupted(at:for:resumption:)``).
        public var interruption: Interruption?
        /// The tracking divergence, if any (``diverged(at:for:acceleration:direction:spin:resumption:)``).
        public var divergence: Divergence?
    }

    /// The AR tracking and compass error models, and the seed of their random numbers.
    public var tracking = TrackingModel()
    public var compass = CompassModel()
    public var seed: UInt64

    public init(seed: UInt64) { self.seed = seed }

    /// GNSS errors as measured on phones by ADVIO (the `ar-tracking-drift` note): slow error
    /// ≈ 2.5 m per axis decorrelating in ≈ 15 s, ≈ 1.1 m white; outliers and canyons as the
    /// scenario has them. Use for walks that test the correlated-error model.
    public static func phoneGNSS(_ base: TraceSimulator.GNSSErrorModel) -> TraceSimulator.GNSSErrorModel {
        var g = base
        g.biasSigma = 2.5; g.biasTime = 15; g.whiteSigma = 1.1
        return g
    }

    /// Phone GNSS whose error lasts minutes, as measured on real phones: ``phoneGNSS(_:)``'s error
    /// budget (7.5 m² per axis) with 65 % of its variance persistent (σ 2.2 m, τ 600 s,
    /// ``TraceSimulator/GNSSErrorModel/persistentSigma``), the rest 1.2 m decorrelating in 15 s and
    /// 1.1 m white. The model's variogram — the share of the error variance that changes within a lag — is
    /// 0.18 / 0.27 / 0.41 / 0.61 at 1 / 10 / 60 / 300 s; against the NovAtel SPAN references in
    /// `../shared/data` the library's own WLS positions (GSDC 2021 Pixel 5) have 0.16 / 0.27 / 0.39 /
    /// 0.42 and the GSDC 2020 chipset fixes 0.01–0.12 / 0.10–0.55 / 0.26–0.52 / 0.34–0.82, where
    /// ``phoneGNSS(_:)`` has 0.23 / 0.58 / 0.91 / 1.01 on the city walk, seed 1 (its error is gone within a minute, which
    /// ADVIO's few-minute sessions could not show). What the fusion cannot average out in a walk.
    public static func persistentGNSS(_ base: TraceSimulator.GNSSErrorModel) -> TraceSimulator.GNSSErrorModel {
        var g = base
        g.biasSigma = 1.2; g.biasTime = 15; g.whiteSigma = 1.1
        g.persistentSigma = 2.2; g.persistentTime = 600
        return g
    }

    /// Simulates the streams along `truth` (a ``TraceSimulator/Output/truth``: 1 Hz, ellipsoidal
    /// heights, device headings). Returns empty streams for fewer than two truth epochs.
    public func run(truth: [Fix]) -> Output {
        var out = Output(tracking: [], compass: [], truePositions: [], trueHeadings: [], trueFrameHeadings: [],
                         walked: [], isStill: [], jumpTime: nil)
        guard truth.count >= 2, let first = truth.first,
              let frame = try? LocalTangentFrame(origin: GeodeticCoordinate(latitude: first.latitude, longitude: first.longitude,
                                                                          ellipsoidalHeight: first.ellipsoidalHeight ?? 0))
        else { return out }
        var rng = SeededRandom(seed: seed)
        let t0 = first.time, t1 = truth[truth.count - 1].time
        let enu = truth.map { frame.enu(latitude: $0.latitude, longitude: $0.longitude, ellipsoidalHeight: $0.ellipsoidalHeight ?? 0) }
        let m = tracking
        let scaleBias = (rng.bernoulli(0.5) ? 1.0 : -1.0) * rng.uniform(m.scaleBias.lowerBound, m.scaleBias.upperBound)
        let driftRate = (rng.bernoulli(0.5) ? 1.0 : -1.0) * rng.uniform(m.yawDriftRate.lowerBound, m.yawDriftRate.upperBound) / 60
        var jumpAt = m.jumpMeters.map { _ in t0 + (t1 - t0) * rng.uniform(0.4, 0.7) }
        // Exponential intervals (drawn only with an interval, so the one-jump streams stay as they were).
        func nextJump(after t: Double) -> Double? {
            guard let mean = m.jumpInterval, mean > 0, mean.isFinite, m.jumpMeters != nil else { return nil }
            return t - mean * Foundation.log(Swift.max(1e-12, 1 - rng.uniform(0, 1)))
        }
        if m.jumpInterval != nil { jumpAt = nextJump(after: t0) }
        var psi = first.heading ?? 0          // the session's −z looked where the device did
        var scaleSlow = 0.0
        var session = SIMD3<Double>(0, 0, 0)  // (east-like, north-like, up) in the session's nominal axes
        var prev = enu[0]
        var walked = 0.0
        let dt = 1 / Swift.max(m.rate, 0.1)
        var k = 0
        var t = t0
        var j = 0
        while t <= t1 {
            while j + 1 < truth.count - 1 && truth[j + 1].time <= t { j += 1 }
            let ta = truth[j].time, tb = truth[j + 1].time
            let f = tb > ta ? Swift.min(Swift.max((t - ta) / (tb - ta), 0), 1) : 0
            let a = enu[j], b = enu[j + 1]
            let pos = ENUVector(east: a.east + f * (b.east - a.east), north: a.north + f * (b.north - a.north), up: a.up + f * (b.up - a.up))
            let ha = truth[j].heading ?? 0, hb = truth[j + 1].heading ?? ha
            let heading = Angle.normalizeHeading(ha + f * Angle.difference(from: ha, to: hb))
            let still = (truth[j].speed ?? 1) == 0 && (truth[j + 1].speed ?? 1) == 0
            // Truth step → tracking step.
            let de = pos.east - prev.east, dn = pos.north - prev.north, du = pos.up - prev.up
            let step = (de * de + dn * dn).squareRoot()
            walked += step
            if k > 0 {
                let phi = Foundation.exp(-dt / m.scaleVariationTime)
                scaleSlow = phi * scaleSlow + (1 - phi * phi).squareRoot() * m.scaleVariation * rng.gaussian()
                psi += driftRate * dt + m.yawNoisePerRootSecond * dt.squareRoot() * rng.gaussian()
                    + m.yawNoisePerRootMeter * step.squareRoot() * rng.gaussian()
                let scale = 1 + scaleBias + scaleSlow
                let (sn, cs) = Angle.sincos(degrees: psi)
                // R(−ψ): true ENU step → the session's nominal axes.
                let se = cs * de - sn * dn, sn2 = sn * de + cs * dn
                let noise = m.positionNoisePerRootMeter * step.squareRoot()
                session.x += se / scale + noise * rng.gaussian()
                session.y += sn2 / scale + noise * rng.gaussian()
                session.z += du / scale
                if let ja = jumpAt, t >= ja, let jm = m.jumpMeters {
                    let size = rng.uniform(jm.lowerBound, jm.upperBound), dir = rng.uniform(0, 2 * Double.pi)
                    session.x += size * Foundation.sin(dir); session.y += size * Foundation.cos(dir)
                    psi += (rng.bernoulli(0.5) ? 1.0 : -1.0) * rng.uniform(m.jumpDegrees.lowerBound, m.jumpDegrees.upperBound)
                    if out.jumpTime == nil { out.jumpTime = t }
                    out.jumpTimes.append(t)
                    jumpAt = nextJump(after: t)
                }
            }
            prev = pos
            let yaw = Angle.difference(from: psi, to: heading)
            let r = TraceSimulator.round
            out.tracking.append(ARTrackingSample(time: r(t, 3), position: SIMD3(r(session.x, 4), r(session.z, 4), r(-session.y, 4) + 0),
                                                 yaw: r(yaw, 3)))
            let g = frame.geodetic(east: pos.east, north: pos.north, up: pos.up)
            out.truePositions.append(GeodeticCoordinate(latitude: g.latitude, longitude: g.longitude, ellipsoidalHeight: g.ellipsoidalHeight))
            out.trueHeadings.append(heading)
            out.trueFrameHeadings.append(Angle.normalizeHeading(psi))
            out.walked.append(walked)
            out.isStill.append(still)
            k += 1
            t = t0 + Double(k) * dt
        }
        (out.compass, out.compassSlowErrors) = simulateCompass(times: out.tracking.map(\.time), headings: out.trueHeadings, rng: &rng)
        return out
    }

    /// The compass stream at ``CompassModel/rate`` along the true headings (sampled at `times`),
    /// and each reading's slow error (bias + slow Gauss–Markov part, degrees).
    func simulateCompass(times: [Double], headings: [Double], rng: inout SeededRandom) -> ([CompassReading], [Double]) {
        guard let t0 = times.first, let t1 = times.last else { return ([], []) }
        let c = compass
        let dt = 1 / Swift.max(c.rate, 0.1)
        let bias = c.biasSigma * rng.gaussian()
        var slow = c.slowSigma * rng.gaussian()
        var episodeEnd = -Double.infinity, episodeStart = -Double.infinity, episodeOffset = 0.0
        var out: [CompassReading] = []
        var slowErrors: [Double] = []
        var k = 0, t = t0, i = 0
        while t <= t1 {
            while i + 1 < times.count && times[i + 1] <= t { i += 1 }
            let phi = Foundation.exp(-dt / c.slowTime)
            slow = phi * slow + (1 - phi * phi).squareRoot() * c.slowSigma * rng.gaussian()
            if t > episodeEnd && rng.bernoulli(dt / c.disturbanceInterval) {
                episodeStart = t
                episodeEnd = t + rng.uniform(c.disturbanceDuration.lowerBound, c.disturbanceDuration.upperBound)
                episodeOffset = (rng.bernoulli(0.5) ? 1.0 : -1.0) * rng.uniform(c.disturbanceOffset.lowerBound, c.disturbanceOffset.upperBound)
            }
            var disturbance = 0.0
            if t >= episodeStart && t <= episodeEnd {
                let ramp = Swift.min(1, (t - episodeStart) / 3, (episodeEnd - t) / 3)
                disturbance = episodeOffset * Swift.max(0, ramp)
            }
            let h = Angle.normalizeHeading(headings[i] + bias + slow + c.whiteSigma * rng.gaussian() + disturbance)
            let acc = c.reportedAccuracy * Foundation.exp(c.reportedLogSigma * rng.gaussian())
            out.append(CompassReading(time: TraceSimulator.round(t, 3), heading: TraceSimulator.round(h, 2), headingAccuracy: TraceSimulator.round(acc, 1)))
            slowErrors.append(bias + slow)
            k += 1
            t = t0 + Double(k) * dt
        }
        return (out, slowErrors)
    }
}
