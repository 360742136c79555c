import Foundation
import GeoAnchorKit

/// Runs ``GeoRegistration`` on simulated streams and measures it against the simulator's truth:
/// the figures of the issue-12 targets, used by the tests, the report and the benchmark.
public struct GeoRegistrationEvaluation: Sendable {
    /// Per tracking sample (from the first estimate on).
    public struct Sample: Sendable, Hashable {
        public var time: Double
        /// Meters walked since the start.
        public var walked: Double
        /// Output heading − true heading, degrees (signed), and the reported 1σ.
        public var headingError: Double
        public var headingSigma: Double
        /// Latest compass reading − true heading, degrees (nil without compass or before one).
        public var compassError: Double?
        /// Horizontal distance of the output position from the truth, meters.
        public var positionError: Double
        /// Error of an anchor straight ahead at 50 m and 200 m, meters: fused, and compass alone
        /// (latest raw fix + latest compass heading; nil without either).
        public var anchorError50: Double
        public var anchorError200: Double
        public var compassAnchorError50: Double?
        public var compassAnchorError200: Double?
        /// While standing still: how fast an anchor 50 m away moves in the session frame (m/s).
        public var stillAnchorSpeed: Double?
        /// ``GeoAnchorKit/GeoRegistrationEstimate/compassBias`` − the latest reading's true slow
        /// error (``GeoRegistrationSimulator/Output/compassSlowErrors``), degrees, and the
        /// estimate's σ; nil without a compass or before the estimator reports one.
        public var compassBiasError: Double?
        public var compassBiasSigma: Double?
        /// Output ellipsoidal height − true height, meters (the vertical error every placed
        /// model inherits).
        public var heightError: Double = 0
        /// The estimate's stated 68 % horizontal radius (m;
        /// ``GeoAnchorKit/GeoRegistrationEstimate/horizontalAccuracy``).
        public var horizontalAccuracy: Double = .nan
    }

    public var samples: [Sample] = []
    /// Horizontal errors of the raw fixes against the truth, meters (fixes within 1 s of a
    /// tracking sample: the truth is sampled with the tracking, so none during a pause).
    public var rawFixErrors: [Double] = []
    /// The times of ``rawFixErrors`` (UTC s).
    public var rawFixTimes: [Double] = []
    public var summary = GeoRegistrationSummary()
    public var events: [GeoRegistrationEvent] = []

    /// Simulates one walk of `scenario` once — phone GNSS (``GeoRegistrationSimulator/phoneGNSS(_:)``)
    /// or the scenario's own, no sensor stream, the streams seeded `seed + 1000` — and evaluates it
    /// under each configuration (the same fixes and streams for all, so a comparison of models
    /// compares models). The walks of `GeoRegistrationTests` and of the report's model comparison.
    /// - Throws: the ``TraceSimulator`` configuration's error.
    public static func walk(_ scenario: TraceSimulator.Configuration, seed: UInt64, phoneGNSS: Bool, useCompass: Bool,
                            configurations: [GeoRegistrationConfiguration]) throws -> [GeoRegistrationEvaluation] {
        let (raw, streams) = try simulate(scenario, seed: seed, phoneGNSS: phoneGNSS)
        return configurations.map { run(raw: raw, streams: streams, useCompass: useCompass, configuration: $0) }
    }

    /// The fixes and streams of ``walk(_:seed:phoneGNSS:useCompass:configurations:)``, to change
    /// before evaluating (e.g. ``GeoRegistrationSimulator/Output/interrupted(at:for:resumption:)``).
    /// `tracking`: the AR tracking's error model (default: a modern phone's;
    /// ``GeoRegistrationSimulator/TrackingModel/olderPhone`` for ADVIO's iPhone 6s).
    /// - Throws: the ``TraceSimulator`` configuration's error.
    public static func simulate(_ scenario: TraceSimulator.Configuration, seed: UInt64, phoneGNSS: Bool,
                                tracking: GeoRegistrationSimulator.TrackingModel = .init()) throws -> (raw: [Fix], streams: GeoRegistrationSimulator.Output) {
        var config = scenario
        if phoneGNSS { config.gnss = GeoRegistrationSimulator.phoneGNSS(config.gnss) }
        config.sensors.duration = 0
        let out = try TraceSimulator(config: config, seed: seed).run()
        var simulator = GeoRegistrationSimulator(seed: seed &+ 1000)
        simulator.tracking = tracking
        return (out.raw, simulator.run(truth: out.truth))
    }

    /// Feeds the streams in time order (tracking, then fixes, then compass at equal times) and
    /// measures every output.
    /// - Parameters:
    ///   - raw: the phone fixes (``TraceSimulator/Output/raw``).
    ///   - streams: the simulator's tracking/compass streams with truth.
    ///   - useCompass: `false` runs magnetometer-free.
    ///   - configuration: the estimator's configuration.
    ///   - path: map aiding (``GeoRegistration/path``), e.g. ``drawnPath(of:vertexError:crossTrackSigma:mapSigma:seed:)``.
    ///   - ground: ground aiding (``GeoRegistration/ground``), e.g. with the scenario's
    ///     ``TraceSimulator/Configuration/terrainModel(demError:seed:)`` and a device height of 0 (the simulated
    ///     device is at ground level).
    ///   - announceResumption: with an interrupted stream (``GeoRegistrationSimulator/Output/interruption``),
    ///     say how the session came back, as an app would: ``GeoRegistration/trackingDidRelocalize()``
    ///     for the same frame, else ``GeoRegistration/trackingDidReset()``, before the first sample after it.
    public static func run(raw: [Fix], streams s: GeoRegistrationSimulator.Output, useCompass: Bool,
                           configuration: GeoRegistrationConfiguration = GeoRegistrationConfiguration(),
                           path: PathConstraint? = nil, ground: GroundConstraint? = nil,
                           announceResumption: Bool = false) -> GeoRegistrationEvaluation {
        var ev = GeoRegistrationEvaluation()
        var reg = GeoRegistration(convention: .arkitGravity(sessionHeading: 0), configuration: configuration, path: path)
        reg.ground = ground
        guard let origin = s.truePositions.first, let frame = try? LocalTangentFrame(origin: origin) else { return ev }
        let truthENU = s.truePositions.map { frame.enu(latitude: $0.latitude, longitude: $0.longitude, ellipsoidalHeight: $0.height) }
        // Raw fix errors against the truth at the same time (truth sampled at the tracking rate;
        // not for fixes during a pause of the tracking, whose truth the streams do not have —
        // against the last sample's, a car's fixes were 250 m off).
        var ti = 0
        for f in raw {
            while ti + 1 < s.tracking.count && s.tracking[ti + 1].time <= f.time + 1e-6 { ti += 1 }
            guard ti < s.tracking.count, Swift.abs(s.tracking[ti].time - f.time) <= 1 else { continue }
            let z = frame.enu(latitude: f.latitude, longitude: f.longitude, ellipsoidalHeight: 0)
            let d = SIMD2(z.east - truthENU[ti].east, z.north - truthENU[ti].north)
            ev.rawFixErrors.append((d * d).sum().squareRoot())
            ev.rawFixTimes.append(f.time)
        }
        var fi = 0, ci = 0
        let compass = useCompass ? s.compass : []
        var lastFix: Fix?, lastCompass: CompassReading?
        var stillAnchor: SIMD2<Double>?, stillPrevious: SIMD2<Double>?
        for (k, t) in s.tracking.enumerated() {
            if announceResumption, let i = s.interruption, t.time == i.end {
                if i.resumption == .sameFrame { reg.trackingDidRelocalize() } else { reg.trackingDidReset() }
            }
            try? reg.update(tracking: t, fixes: raw, fixCursor: &fi, compass: compass, compassCursor: &ci)
            if fi > 0 { lastFix = raw[fi - 1] }
            if ci > 0 { lastCompass = compass[ci - 1] }
            guard let e = reg.estimate else { continue }
            let p = frame.enu(latitude: e.position.latitude, longitude: e.position.longitude, ellipsoidalHeight: e.position.height)
            let truth = SIMD2(truthENU[k].east, truthENU[k].north)
            let est = SIMD2(p.east, p.north)
            let dh = Angle.difference(from: s.trueHeadings[k], to: e.heading)
            var sample = Sample(time: t.time, walked: s.walked[k], headingError: dh, headingSigma: e.headingSigma,
                                compassError: nil, positionError: ((est - truth) * (est - truth)).sum().squareRoot(),
                                anchorError50: anchorError(distance: 50, trueHeading: s.trueHeadings[k], truth: truth, headingError: dh, position: est),
                                anchorError200: anchorError(distance: 200, trueHeading: s.trueHeadings[k], truth: truth, headingError: dh, position: est),
                                compassAnchorError50: nil, compassAnchorError200: nil, stillAnchorSpeed: nil,
                                heightError: e.position.height - s.truePositions[k].height, horizontalAccuracy: e.horizontalAccuracy)
            if ci > 0, ci - 1 < s.compassSlowErrors.count, let b = e.compassBias {
                sample.compassBiasError = Angle.difference(from: s.compassSlowErrors[ci - 1], to: b)
                sample.compassBiasSigma = e.compassBiasSigma
            }
            if let c = lastCompass, let f = lastFix {
                let ce = Angle.difference(from: s.trueHeadings[k], to: c.heading)
                sample.compassError = ce
                let z = frame.enu(latitude: f.latitude, longitude: f.longitude, ellipsoidalHeight: 0)
                let fp = SIMD2(z.east, z.north)
                sample.compassAnchorError50 = anchorError(distance: 50, trueHeading: s.trueHeadings[k], truth: truth, headingError: ce, position: fp)
                sample.compassAnchorError200 = anchorError(distance: 200, trueHeading: s.trueHeadings[k], truth: truth, headingError: ce, position: fp)
            }
            // Standing still: a world anchor 50 m north of where the stop began, as placed in the
            // session frame from the output: session = device + R(−ψ)(anchor − device).
            if s.isStill[k] {
                let anchor = stillAnchor ?? truth + SIMD2(0, 50)
                stillAnchor = anchor
                let (sn, cs) = Angle.sincos(degrees: e.frameHeading)
                let v = anchor - est
                let q = GeoRegistration.nominal(e.devicePositionInSession, .arkitGravity(sessionHeading: 0))
                let inSession = SIMD2(q.x, q.y) + SIMD2(cs * v.x - sn * v.y, sn * v.x + cs * v.y)
                if let prev = stillPrevious, k > 0, t.time > s.tracking[k - 1].time {
                    let d = inSession - prev
                    sample.stillAnchorSpeed = (d * d).sum().squareRoot() / (t.time - s.tracking[k - 1].time)
                }
                stillPrevious = inSession
            } else {
                stillAnchor = nil; stillPrevious = nil
            }
            ev.samples.append(sample)
        }
        ev.summary = reg.summary
        ev.events = reg.events
        return ev
    }

    /// The walk's path as a tour file would draw it: the scenario's waypoints, each moved by a
    /// Gaussian digitizing error of `vertexError` meters per axis (0: exact). Pair with a
    /// ``TraceSimulator/Configuration/lateralWander`` so the walker strays from it as people do.
    /// - Parameter moved: a systematic drawing error (before the random one): each vertex's
    ///   position (ENU about the first waypoint, m) → where the path draws it (e.g. shifted 6 m, or
    ///   turned about the start).
    /// - Throws: ``PathConstraint``'s errors (fewer than two waypoints, a bad σ).
    public static func drawnPath(of config: TraceSimulator.Configuration, vertexError: Double = 0, crossTrackSigma: Double = 1.5,
                                 mapSigma: Double = 0, seed: UInt64 = 0,
                                 moved: ((ENUVector) -> (east: Double, north: Double))? = nil) throws(GeoAnchorError) -> PathConstraint {
        guard let first = config.waypoints.first else {
            throw .outOfRange(name: "path lines", value: 0, allowed: .atLeast(1))
        }
        let frame = try LocalTangentFrame(origin: GeodeticCoordinate(latitude: first.latitude, longitude: first.longitude))
        var rng = SeededRandom(seed: seed)
        let vertices = config.waypoints.map { w -> GeodeticCoordinate in
            guard vertexError > 0 || moved != nil else { return w }
            let p = frame.enu(latitude: w.latitude, longitude: w.longitude, ellipsoidalHeight: 0)
            var to = moved?(p) ?? (east: p.east, north: p.north)
            if vertexError > 0 { to.east += vertexError * rng.gaussian(); to.north += vertexError * rng.gaussian() }
            let g = frame.geodetic(east: to.east, north: to.north, up: 0)
            return GeodeticCoordinate(latitude: g.latitude, longitude: g.longitude)
        }
        return try PathConstraint(lines: [vertices], crossTrackSigma: crossTrackSigma, mapSigma: mapSigma)
    }

    /// A street map around the walk, as a town's map (OpenStreetMap's walkable ways) gives it:
    /// the walk's own streets, the streets crossing them every `spacing` meters (`sideLength`
    /// meters to each side), the streets continuing straight past each corner, and the parallel
    /// streets `spacing` meters to each side of every leg longer than `spacing` — each vertex
    /// moved by a Gaussian mapping error of `vertexError` meters per axis. Unlike the tour's
    /// path, most of it is where the visitor does not walk.
    /// - Throws: ``PathConstraint``'s errors.
    public static func streetMap(of config: TraceSimulator.Configuration, spacing: Double = 80, sideLength: Double = 80,
                                 vertexError: Double = 0, crossTrackSigma: Double = 1.5, mapSigma: Double = 0,
                                 seed: UInt64 = 0) throws(GeoAnchorError) -> PathConstraint {
        guard let first = config.waypoints.first else {
            throw .outOfRange(name: "path lines", value: 0, allowed: .atLeast(1))
        }
        let frame = try LocalTangentFrame(origin: GeodeticCoordinate(latitude: first.latitude, longitude: first.longitude))
        var rng = SeededRandom(seed: seed &+ 0x5EED)
        let route = config.waypoints.map { w -> SIMD2<Double> in
            let p = frame.enu(latitude: w.latitude, longitude: w.longitude, ellipsoidalHeight: 0)
            return SIMD2(p.east, p.north)
        }
        var lines: [[SIMD2<Double>]] = [route]
        for k in 1..<route.count {
            let a = route[k - 1], b = route[k]
            let length = ((b - a) * (b - a)).sum().squareRoot()
            guard length > 1 else { continue }
            let u = (b - a) / length, n = SIMD2(-u.y, u.x)
            var t = spacing / 2
            while t < length {
                let c = a + t * u
                lines.append([c - sideLength * n, c + sideLength * n])
                t += spacing
            }
            lines.append([b, b + sideLength * u])   // the street goes on past the corner
            if length > spacing {
                lines.append([a + spacing * n, b + spacing * n])
                lines.append([a - spacing * n, b - spacing * n])
            }
        }
        let geodetic = lines.map { line in
            line.map { p -> GeodeticCoordinate in
                let e = vertexError > 0 ? SIMD2(vertexError * rng.gaussian(), vertexError * rng.gaussian()) : .zero
                let g = frame.geodetic(east: p.x + e.x, north: p.y + e.y, up: 0)
                return GeodeticCoordinate(latitude: g.latitude, longitude: g.longitude)
            }
        }
        return try PathConstraint(lines: geodetic, crossTrackSigma: crossTrackSigma, mapSigma: mapSigma)
    }

    /// Error (m) of an anchor placed `distance` ahead along the true heading when the device is
    /// believed at `position` with heading off by `headingError` degrees: the anchor appears at
    /// truth + R(δ)(anchor − position) (R turning clockwise by δ), compared with the anchor.
    public static func anchorError(distance: Double, trueHeading: Double, truth: SIMD2<Double>, headingError: Double,
                            position: SIMD2<Double>) -> Double {
        let (s, c) = Angle.sincos(degrees: trueHeading)
        let anchor = truth + distance * SIMD2(s, c)
        let v = anchor - position
        let (sd, cd) = Angle.sincos(degrees: -headingError)
        let seen = truth + SIMD2(cd * v.x + sd * v.y, -sd * v.x + cd * v.y)
        let d = seen - anchor
        return (d * d).sum().squareRoot()
    }

    /// The `q` quantile (0…1, nearest rank) of `values`, `nan` when empty.
    public static func quantile(_ values: [Double], _ q: Double) -> Double {
        guard !values.isEmpty else { return .nan }
        let s = values.sorted()
        let i = Swift.min(s.count - 1, Swift.max(0, Int((q * Double(s.count)).rounded(.up)) - 1))
        return s[i]
    }

    /// p95 of |heading error| (degrees) and of the position error (m) over the samples with
    /// `from ≤ time < to` (e.g. 60–300 s after a pause), `nan` when there are none.
    public func p95(from: Double, to: Double) -> (heading: Double, position: Double) {
        let window = samples.filter { $0.time >= from && $0.time < to }
        return (Self.quantile(window.map { Swift.abs($0.headingError) }, 0.95), Self.quantile(window.map(\.positionError), 0.95))
    }

    /// p95 of the raw fixes' horizontal error (m) over the fixes with `from ≤ time < to`, `nan` when there are none.
    public func rawP95(from: Double, to: Double) -> Double {
        Self.quantile(rawFixTimes.indices.filter { rawFixTimes[$0] >= from && rawFixTimes[$0] < to }.map { rawFixErrors[$0] }, 0.95)
    }

    /// The share of times the position error was within the stated 68 % horizontal radius: about
    /// 0.68 when the reported position uncertainty is honest, well below when overconfident.
    public var positionWithin68: Double {
        samples.isEmpty ? .nan : Double(samples.filter { $0.positionError <= $0.horizontalAccuracy }.count) / Double(samples.count)
    }

    /// How many tracking jumps the estimator detected from rejected fixes (not in the tracking).
    public var jumpsDetectedByGNSS: Int {
        events.filter { if case .trackingJump(_, _, true) = $0 { return true } else { return false } }.count
    }

    /// Target figures: heading p95 after 100 m walked, fused and compass p95 in the first 50 m,
    /// position p95 fused and raw, fraction of |heading error| ≤ 2σ, p95 anchor speed standing still.
    public var metrics: (headingP95After100: Double, headingP95First50: Double, compassP95First50: Double,
                         positionP95: Double, rawP95: Double, within2Sigma: Double, stillSpeedP95: Double) {
        let after = samples.filter { $0.walked >= 100 }.map { Swift.abs($0.headingError) }
        let first = samples.filter { $0.walked < 50 }
        let within = samples.filter { Swift.abs($0.headingError) <= 2 * $0.headingSigma }.count
        return (Self.quantile(after, 0.95),
                Self.quantile(first.map { Swift.abs($0.headingError) }, 0.95),
                Self.quantile(first.compactMap { $0.compassError.map(Swift.abs) }, 0.95),
                Self.quantile(samples.map(\.positionError), 0.95),
                Self.quantile(rawFixErrors, 0.95),
                samples.isEmpty ? .nan : Double(within) / Double(samples.count),
                Self.quantile(samples.compactMap(\.stillAnchorSpeed), 0.95))
    }
}
