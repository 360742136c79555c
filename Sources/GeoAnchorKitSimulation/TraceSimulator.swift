import Foundation
import GeoAnchorKit

/// A seeded, deterministic simulator of pedestrian tours with ground truth: what a phone
/// reports (noisy GNSS fixes with an imperfect accuracy estimate, raw magnetometer,
/// accelerometer and gyroscope) and what really happened.
///
/// **Motion.** The walker follows a polyline of waypoints at a walking speed that varies
/// slowly (first-order Gauss–Markov, mean ``Configuration/walkingSpeed``), slows down at sharp turns
/// and dwells at points of interest. Heights come from a smooth synthetic terrain
/// (``Terrain``) above mean sea level; ellipsoidal heights add the scenario's geoid separation.
/// The device is held flat in front of the walker, its top (device +y) towards the heading,
/// with step-frequency pitch/roll oscillation; at stops the user looks around.
///
/// **GNSS errors** (per fix, in the local ENU frame): a Gauss–Markov bias per axis
/// (σ ``GNSSErrorModel/biasSigma``, correlation time ``GNSSErrorModel/biasTime``), white noise,
/// optionally a persistent part lasting minutes (``GNSSErrorModel/persistentSigma``; none by default),
/// rare multipath outliers (5–30 m for 1–3 epochs), urban-canyon stretches with ×
/// ``GNSSErrorModel/canyonFactor`` errors, a multipath pull across the street and more
/// outliers and dropouts, and dropouts (gaps of several seconds). The reported
/// `horizontalAccuracy` is the model's true 68 % radius (1.515 σ for a circular Gaussian)
/// times a log-normal factor that is biased low (phones are overconfident) and does not know
/// about outliers.
///
/// **Sensors** (device axes, see ``SensorSample``): the Earth's field from the configured
/// declination/inclination/intensity rotated into the device and distorted by a soft-iron
/// matrix and a hard-iron offset, plus noise and disturbances in canyons; specific force
/// (gravity reaction, walking bounce, along/centripetal acceleration) plus noise and bias;
/// angular rate plus bias and noise.
///
/// Deterministic: the same configuration and seed give bit-identical output (``SeededRandom``).
public struct TraceSimulator: Sendable {
    /// A point of interest where the walker stops.
    public struct Stop: Sendable, Hashable, Codable {
        public var name: String
        /// Index into ``Configuration/waypoints`` where the stop happens.
        public var waypointIndex: Int
        /// Mean dwell time, seconds (actual: ±30 %).
        public var dwell: Double
        public init(name: String, waypointIndex: Int, dwell: Double) {
            self.name = name; self.waypointIndex = waypointIndex; self.dwell = dwell
        }
    }

    /// A stretch of the path (by distance along it, meters) with urban-canyon conditions.
    public struct Canyon: Sendable, Hashable, Codable {
        public var from: Double
        public var to: Double
        public init(from: Double, to: Double) { self.from = from; self.to = to }
    }

    /// Smooth synthetic terrain: base height plus Gaussian hills plus a gentle tilt.
    public struct Terrain: Sendable, Hashable, Codable {
        public struct Hill: Sendable, Hashable, Codable {
            /// Centre (meters east/north of the first waypoint), height (m), radius σ (m).
            public var east: Double, north: Double, height: Double, radius: Double
            public init(east: Double, north: Double, height: Double, radius: Double) {
                self.east = east; self.north = north; self.height = height; self.radius = radius
            }
        }
        /// Height above mean sea level at the first waypoint's plane, meters.
        public var base: Double
        public var hills: [Hill]
        /// Slope, meters per meter east and north.
        public var slopeEast: Double, slopeNorth: Double
        public init(base: Double, hills: [Hill] = [], slopeEast: Double = 0, slopeNorth: Double = 0) {
            self.base = base; self.hills = hills; self.slopeEast = slopeEast; self.slopeNorth = slopeNorth
        }
        /// Height above MSL (m) at a point (m east/north of the first waypoint).
        public func height(east: Double, north: Double) -> Double {
            var h = base + slopeEast * east + slopeNorth * north
            for hl in hills {
                let de = east - hl.east, dn = north - hl.north
                h += hl.height * Foundation.exp(-(de * de + dn * dn) / (2 * hl.radius * hl.radius))
            }
            return h
        }
    }

    /// GNSS error parameters (meters, seconds).
    public struct GNSSErrorModel: Sendable, Hashable, Codable {
        public var biasSigma = 1.6
        public var biasTime = 90.0
        public var whiteSigma = 0.9
        public var verticalFactor = 1.7
        public var outlierProbability = 0.006
        public var canyonFactor = 3.0
        /// Multipath pull across the street in canyons, meters (sign random per canyon).
        public var canyonPull = 4.0
        public var canyonOutlierProbability = 0.03
        public var dropoutProbability = 0.002
        public var canyonDropoutProbability = 0.02
        public var meanDropout = 8.0
        /// Log-normal factor of the reported accuracy: mean of ln, σ of ln.
        public var reportedLogMean = -0.15
        public var reportedLogSigma = 0.3
        /// A persistent error per axis (σ, meters; vertical × ``verticalFactor``), Gauss–Markov with
        /// correlation time ``persistentTime`` (s), on top of the bias and white noise: what real phone
        /// GNSS has and the ADVIO-based models lack — on the GSDC drives in `../shared/data` (chipset
        /// fixes and the library's own WLS positions against NovAtel SPAN) 35–65 % of the error
        /// variance outlasts a minute and much of it five (`GeoRegistrationSimulator.persistentGNSS(_:)`).
        /// Part of the model's true σ behind the reported accuracy. 0 (the default): none.
        public var persistentSigma = 0.0
        public var persistentTime = 600.0
        public init() {}

        private enum CodingKeys: String, CodingKey {
            case biasSigma, biasTime, whiteSigma, verticalFactor, outlierProbability, canyonFactor, canyonPull
            case canyonOutlierProbability, dropoutProbability, canyonDropoutProbability, meanDropout
            case reportedLogMean, reportedLogSigma, persistentSigma, persistentTime
        }

        /// Decodes a saved model; `persistentSigma` and `persistentTime` may be absent (files saved
        /// before they existed) and then take their defaults.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            biasSigma = try c.decode(Double.self, forKey: .biasSigma)
            biasTime = try c.decode(Double.self, forKey: .biasTime)
            whiteSigma = try c.decode(Double.self, forKey: .whiteSigma)
            verticalFactor = try c.decode(Double.self, forKey: .verticalFactor)
            outlierProbability = try c.decode(Double.self, forKey: .outlierProbability)
            canyonFactor = try c.decode(Double.self, forKey: .canyonFactor)
            canyonPull = try c.decode(Double.self, forKey: .canyonPull)
            canyonOutlierProbability = try c.decode(Double.self, forKey: .canyonOutlierProbability)
            dropoutProbability = try c.decode(Double.self, forKey: .dropoutProbability)
            canyonDropoutProbability = try c.decode(Double.self, forKey: .canyonDropoutProbability)
            meanDropout = try c.decode(Double.self, forKey: .meanDropout)
            reportedLogMean = try c.decode(Double.self, forKey: .reportedLogMean)
            reportedLogSigma = try c.decode(Double.self, forKey: .reportedLogSigma)
            persistentSigma = try c.decodeIfPresent(Double.self, forKey: .persistentSigma) ?? persistentSigma
            persistentTime = try c.decodeIfPresent(Double.self, forKey: .persistentTime) ?? persistentTime
        }

        /// The model's true 1σ per horizontal axis, meters — bias and white parts × `canyonFactor`
        /// (``canyonFactor`` in a canyon, 1 outside), the persistent part unscaled: what the
        /// reported accuracy is built on. Without a persistent part it is the expression the walks
        /// were always generated with (bit for bit).
        public func horizontalSigma(canyonFactor factor: Double = 1) -> Double {
            let fast = biasSigma * biasSigma + whiteSigma * whiteSigma
            guard persistentSigma > 0 else { return factor * fast.squareRoot() }
            return (factor * factor * fast + persistentSigma * persistentSigma).squareRoot()
        }
    }

    /// Sensor parameters.
    public struct SensorModel: Sendable, Hashable, Codable {
        /// Magnetic declination (degrees east of true north), inclination (degrees, down
        /// positive) and total intensity (µT) of the Earth's field.
        public var declination = 4.8
        public var inclination = 66.0
        public var intensity = 49.5
        /// Hard-iron offset (µT) and soft-iron matrix (row-major 3×3) of the phone.
        public var hardIron = [12.0, -25.0, 40.0]
        public var softIron = [1.05, 0.03, -0.02, 0.03, 0.96, 0.01, -0.02, 0.01, 1.01]
        public var magnetometerNoise = 0.4
        public var accelerometerNoise = 0.05
        public var accelerometerBias = [0.03, -0.02, 0.05]
        public var gyroscopeNoise = 0.004
        public var gyroscopeBias = [0.002, -0.001, 0.003]
        /// Output rate (Hz) and duration from the start (s; nil: the whole walk).
        public var rate = 10.0
        public var duration: Double? = 180
        /// Seconds from the start whose sensor noise is drawn from the fixes' random stream,
        /// always — whatever ``duration`` is, written or not — so the fixes never depend on the
        /// sensor output; noise beyond comes from the sensors' own seeded stream. 180 s reproduces
        /// the shipped traces (made when both shared one stream up to the default duration); 0
        /// puts all sensor noise on its own stream.
        public var mainStreamDuration = 180.0
        public init() {}
    }

    /// A scenario.
    public struct Configuration: Sendable, Hashable, Codable {
        public var name: String
        /// Path vertices (latitude/longitude degrees; heights ignored — terrain decides).
        public var waypoints: [GeodeticCoordinate]
        public var stops: [Stop]
        public var canyons: [Canyon]
        public var terrain: Terrain
        /// Geoid undulation N (m): ellipsoidal = MSL + N.
        public var geoidSeparation: Double
        /// Start time, UTC seconds since 1970.
        public var startTime: Double
        /// Mean walking speed (m/s) and the σ of its slow relative variation.
        public var walkingSpeed = 1.3
        public var speedVariation = 0.12
        /// σ (m) of the walker's sideways distance from the drawn path (a first-order Gauss–Markov
        /// target with correlation time ``lateralWanderTime``, followed with a 5 s lag, so the
        /// realized σ is ≈ 7 % smaller; speed and course include the drift): people keep to one side of a street, cross a
        /// square diagonally. 0 (the presets) walks exactly on the line and draws no random
        /// numbers for it, so the shipped traces do not change.
        public var lateralWander = 0.0
        /// Correlation time (s) of ``lateralWander``.
        public var lateralWanderTime = 30.0
        /// Seconds between GNSS fixes.
        public var fixInterval = 1.0
        public var gnss = GNSSErrorModel()
        public var sensors = SensorModel()

        public init(name: String, waypoints: [GeodeticCoordinate], stops: [Stop] = [], canyons: [Canyon] = [],
                    terrain: Terrain, geoidSeparation: Double, startTime: Double) {
            self.name = name; self.waypoints = waypoints; self.stops = stops; self.canyons = canyons
            self.terrain = terrain; self.geoidSeparation = geoidSeparation; self.startTime = startTime
        }

        /// Checks every value the simulator relies on; the error names the first bad one.
        public func validate() throws(GeoAnchorError) {
            guard waypoints.count >= 2 else {
                throw .outOfRange(name: "waypoints.count", value: Double(waypoints.count), allowed: .atLeast(2))
            }
            for w in waypoints {
                guard w.latitude.isFinite, Swift.abs(w.latitude) <= 90 else { throw .invalidLatitude(w.latitude) }
                guard w.longitude.isFinite else { throw .invalidLongitude(w.longitude) }
            }
            let lastIndex = Double(waypoints.count - 1)
            for (i, st) in stops.enumerated() {
                guard st.waypointIndex >= 0, st.waypointIndex < waypoints.count else {
                    throw .outOfRange(name: "stops[\(i)].waypointIndex", value: Double(st.waypointIndex), allowed: .closed(0, lastIndex))
                }
                try ValueRange.atLeast(0, unit: "s").check(st.dwell, name: "stops[\(i)].dwell")
            }
            for (i, cy) in canyons.enumerated() {
                try ValueRange.atLeast(0, unit: "m").check(cy.from, name: "canyons[\(i)].from")
                try ValueRange.atLeast(cy.from, unit: "m").check(cy.to, name: "canyons[\(i)].to")
            }
            try ValueRange.unbounded(unit: "m").check(geoidSeparation, name: "geoidSeparation")
            try ValueRange.unbounded(unit: "s").check(startTime, name: "startTime")
            try ValueRange.greaterThan(0, unit: "m/s").check(walkingSpeed, name: "walkingSpeed")
            try ValueRange(lower: .inclusive(0), upper: .exclusive(1)).check(speedVariation, name: "speedVariation")
            try ValueRange.atLeast(0, unit: "m").check(lateralWander, name: "lateralWander")
            try ValueRange.greaterThan(0, unit: "s").check(lateralWanderTime, name: "lateralWanderTime")
            try ValueRange.greaterThan(0, unit: "s").check(fixInterval, name: "fixInterval")
            try ValueRange.greaterThan(0, unit: "Hz").check(sensors.rate, name: "sensors.rate")
            try ValueRange.atLeast(0, unit: "s").check(sensors.mainStreamDuration, name: "sensors.mainStreamDuration")
            if let d = sensors.duration { try ValueRange.atLeast(0, unit: "s").check(d, name: "sensors.duration") }
            for (name, v, n) in [("sensors.hardIron", sensors.hardIron, 3), ("sensors.softIron", sensors.softIron, 9),
                                 ("sensors.accelerometerBias", sensors.accelerometerBias, 3),
                                 ("sensors.gyroscopeBias", sensors.gyroscopeBias, 3)] {
                guard v.count == n else { throw .outOfRange(name: "\(name).count", value: Double(v.count), allowed: .exactly(Double(n))) }
                for (k, x) in v.enumerated() { guard x.isFinite else { throw .nonFinite(name: "\(name)[\(k)]", value: x) } }
            }
            for (name, v) in [("gnss.biasSigma", gnss.biasSigma), ("gnss.whiteSigma", gnss.whiteSigma),
                              ("gnss.persistentSigma", gnss.persistentSigma),
                              ("gnss.verticalFactor", gnss.verticalFactor), ("gnss.canyonFactor", gnss.canyonFactor),
                              ("gnss.canyonPull", gnss.canyonPull), ("gnss.reportedLogSigma", gnss.reportedLogSigma),
                              ("sensors.magnetometerNoise", sensors.magnetometerNoise),
                              ("sensors.accelerometerNoise", sensors.accelerometerNoise),
                              ("sensors.gyroscopeNoise", sensors.gyroscopeNoise)] {
                try ValueRange.atLeast(0).check(v, name: name)
            }
            for (name, v) in [("gnss.biasTime", gnss.biasTime), ("gnss.meanDropout", gnss.meanDropout),
                              ("gnss.persistentTime", gnss.persistentTime)] {
                try ValueRange.greaterThan(0, unit: "s").check(v, name: name)
            }
            for (name, v) in [("gnss.outlierProbability", gnss.outlierProbability),
                              ("gnss.canyonOutlierProbability", gnss.canyonOutlierProbability),
                              ("gnss.dropoutProbability", gnss.dropoutProbability),
                              ("gnss.canyonDropoutProbability", gnss.canyonDropoutProbability)] {
                try ValueRange.closed(0, 1).check(v, name: name)
            }
        }
    }

    /// What a run produces.
    public struct Output: Sendable, Hashable {
        /// Ground truth at every fix epoch (including dropouts): ellipsoidal height with the
        /// geoid separation stated, true course/speed and device heading.
        public var truth: [Fix]
        /// What the phone reports: MSL altitude + geoid separation (CoreLocation-like),
        /// accuracies, speed, course. Missing during dropouts.
        public var raw: [Fix]
        /// Raw sensor samples (magnetometer, accelerometer, gyroscope interleaved by time).
        public var sensors: [SensorSample]
        /// The stops, with the times the walker arrived and left.
        public var visits: [(stop: Stop, arrival: Double, departure: Double)]

        public static func == (a: Output, b: Output) -> Bool {
            a.truth == b.truth && a.raw == b.raw && a.sensors == b.sensors &&
            a.visits.map(\.stop) == b.visits.map(\.stop) && a.visits.map(\.arrival) == b.visits.map(\.arrival)
        }
        public func hash(into h: inout Hasher) { h.combine(truth); h.combine(raw) }
    }

    public let config: Configuration
    public let seed: UInt64
    /// ENU frame at the first waypoint (height 0).
    let frame: LocalTangentFrame

    /// - Throws: ``GeoAnchorError`` naming the first unusable value of `config` (see
    ///   ``Configuration/validate()``): a configuration decoded from a file cannot crash the simulator.
    public init(config: Configuration, seed: UInt64) throws(GeoAnchorError) {
        try config.validate()
        self.config = config
        self.seed = seed
        frame = try LocalTangentFrame(origin: GeodeticCoordinate(latitude: config.waypoints[0].latitude,
                                                                 longitude: config.waypoints[0].longitude, ellipsoidalHeight: 0))
    }

    // MARK: - Run


    public func run() -> Output {
        let c = config
        var rng = SeededRandom(seed: seed)
        // Path in ENU (2-D) and cumulative distances.
        let pts = c.waypoints.map { frame.enu(latitude: $0.latitude, longitude: $0.longitude, ellipsoidalHeight: 0) }
        let cum = PlanarPolyline(pts.map { PlanarPoint(x: $0.east, y: $0.north) }).cumulative
        let total = cum.last!
        var stopAt: [Int: Stop] = [:]
        for s in c.stops where s.waypointIndex >= 0 && s.waypointIndex < pts.count { stopAt[s.waypointIndex] = s }
        // Turn angle at each vertex (degrees).
        func bearing(_ i: Int) -> Double {
            let j = min(i, pts.count - 2)
            return Angle.normalizeHeading(Angle.atan2Degrees(pts[j + 1].east - pts[j].east, pts[j + 1].north - pts[j].north))
        }
        var turn = [Double](repeating: 0, count: pts.count)
        for i in 1..<(pts.count - 1) { turn[i] = abs(Angle.difference(from: bearing(i - 1), to: bearing(i))) }
        func position(_ s: Double) -> (e: Double, n: Double, seg: Int) {
            var k = 0
            while k < pts.count - 2 && cum[k + 1] < s { k += 1 }
            let len = max(cum[k + 1] - cum[k], 1e-9)
            let f = min(max((s - cum[k]) / len, 0), 1)
            return (pts[k].east + f * (pts[k + 1].east - pts[k].east), pts[k].north + f * (pts[k + 1].north - pts[k].north), k)
        }
        func inCanyon(_ s: Double) -> Int? { c.canyons.firstIndex { s >= $0.from && s <= $0.to } }
        let canyonSign = c.canyons.map { _ in rng.bernoulli(0.5) ? 1.0 : -1.0 }

        let dt = 1.0 / max(c.sensors.rate, 1)
        let fixEvery = max(Int((c.fixInterval / dt).rounded()), 1)
        var t = c.startTime
        var s = 0.0
        var speedFactor = 0.0
        var wander = 0.0, wanderTarget = 0.0
        var heading = bearing(0)         // device heading, degrees
        var lookAround = 0.0             // extra yaw while stopped
        var stepPhase = 0.0
        var nextVertex = 1
        var dwellLeft = 0.0
        var currentStop: Stop? = nil
        var arrival = 0.0
        var visits: [(Stop, Double, Double)] = []
        if let s0 = stopAt[0] { currentStop = s0; dwellLeft = s0.dwell * rng.uniform(0.7, 1.3); arrival = t }
        var lastV = stopAt[0] == nil ? c.walkingSpeed : 0.0
        var prevPitch = 0.0, prevRoll = 0.0, prevHeading = heading

        // GNSS state.
        var bias = [rng.gaussian() * c.gnss.biasSigma, rng.gaussian() * c.gnss.biasSigma, rng.gaussian() * c.gnss.biasSigma * c.gnss.verticalFactor]
        // The persistent part has its own random stream: the walk and the other errors are the
        // same with and without it (and bit for bit what they were before it existed).
        var persistent = PersistentGNSSError(c.gnss, seed: seed)
        var outlier: (e: Double, n: Double, left: Int) = (0, 0, 0)
        var dropoutLeft = 0
        var truth: [Fix] = [], raw: [Fix] = [], sensors: [SensorSample] = []
        var step = 0
        let sensorEnd = c.sensors.duration.map { c.startTime + $0 } ?? .infinity
        // Determinism across outputs: the fixes must not depend on how many sensor samples are
        // asked for. Sensor noise for the first `mainStreamDuration` seconds is always drawn
        // from the main stream (whether written or not; this keeps the shipped traces), noise
        // beyond it from a stream of its own, so the fixes' draws never depend on `duration`.
        let mainSensorEnd = c.startTime + c.sensors.mainStreamDuration
        var sensorRng = SeededRandom(seed: seed ^ 0x5E45_0125_0000_0015)
        let si = c.sensors.softIron, hi = c.sensors.hardIron
        let declRad = c.sensors.declination * Angle.radiansPerDegree, inclRad = c.sensors.inclination * Angle.radiansPerDegree
        let bh = c.sensors.intensity * Foundation.cos(inclRad)
        let earthField = (e: bh * Foundation.sin(declRad), n: bh * Foundation.cos(declRad), u: -c.sensors.intensity * Foundation.sin(inclRad))
        let canyonDisturbance = c.canyons.map { _ in (rng.gaussian() * 4, rng.gaussian() * 4, rng.gaussian() * 4) }

        var finished = false
        while !finished {
            // --- motion ---
            var v = 0.0
            if dwellLeft > 0 {
                dwellLeft -= dt
                lookAround += (rng.gaussian() * 25 - lookAround * 0.5) * dt   // slow yaw wander
                if dwellLeft <= 0, let st = currentStop { visits.append((st, arrival, t)); currentStop = nil }
            } else if s >= total {
                finished = true
            } else {
                let phi = Foundation.exp(-dt / 20)
                speedFactor = phi * speedFactor + (1 - phi * phi).squareRoot() * c.speedVariation * rng.gaussian()
                v = c.walkingSpeed * (1 + speedFactor)
                if nextVertex < pts.count, cum[nextVertex] - s < 3, turn[nextVertex] > 45 { v *= 0.7 }
                v = min(max(v, 0.5), 2.0)
                s = min(s + v * dt, total)
                lookAround *= Foundation.exp(-dt / 1.5)
                while nextVertex < pts.count && s >= cum[nextVertex] {
                    if let st = stopAt[nextVertex] {
                        s = cum[nextVertex]
                        currentStop = st; dwellLeft = st.dwell * rng.uniform(0.7, 1.3); arrival = t
                    }
                    nextVertex += 1
                    if dwellLeft > 0 { break }
                }
            }
            var p = position(s)
            let pathBearing = bearing(p.seg)
            // Ground speed and course (the path's, plus the sideways drift when wandering).
            var groundSpeed = v, groundCourse = pathBearing
            if c.lateralWander > 0 {
                // A Gauss–Markov target, followed with a 5 s lag so the walker drifts smoothly
                // (a bare Gauss–Markov offset would jitter sideways at every sample).
                let phi = Foundation.exp(-dt / max(c.lateralWanderTime, dt))
                wanderTarget = phi * wanderTarget + (1 - phi * phi).squareRoot() * c.lateralWander * rng.gaussian()
                let previous = wander
                wander += (wanderTarget - wander) * (1 - Foundation.exp(-dt / 5))
                // To the right of the walking direction (bearing θ: right normal (cos θ, −sin θ)).
                let (sb, cb) = Angle.sincos(degrees: pathBearing)
                p.e += wander * cb
                p.n -= wander * sb
                if v > 0 {
                    let rate = (wander - previous) / dt
                    let ve = v * sb + rate * cb, vn = v * cb - rate * sb
                    groundSpeed = (ve * ve + vn * vn).squareRoot()
                    groundCourse = Angle.normalizeHeading(Angle.atan2Degrees(ve, vn))
                }
            }
            // Device heading follows the path with a lag (τ = 0.7 s), plus look-around.
            let target = Angle.normalizeHeading(pathBearing + lookAround)
            heading = Angle.normalizeHeading(heading + Angle.difference(from: heading, to: target) * (1 - Foundation.exp(-dt / 0.7)))
            let moving = v > 0
            if moving { stepPhase += 2 * Double.pi * 1.8 * (v / 1.3) * dt }
            let pitch = moving ? 2.5 * Foundation.sin(stepPhase) : 0.3 * Foundation.sin(t * 0.7)
            let roll = moving ? 1.5 * Foundation.sin(stepPhase / 2) : 0.2 * Foundation.cos(t * 0.5)
            let hMSL = c.terrain.height(east: p.e, north: p.n)

            // --- sensors ---
            if t < max(sensorEnd, mainSensorEnd) {
                // Magnetometer x y z, accelerometer x y z, gyroscope x y z (in this order).
                var nz = [Double](repeating: 0, count: 9)
                for k in 0..<9 { nz[k] = t < mainSensorEnd ? rng.gaussian() : sensorRng.gaussian() }
                let R = Self.rotation(heading: heading, pitch: pitch, roll: roll)
                func toDevice(_ e: Double, _ n: Double, _ u: Double) -> (Double, Double, Double) {
                    // Rᵀ v: R's columns are the device axes in ENU, so each device component is
                    // the dot product of v with one column.
                    (R[0] * e + R[1] * n + R[2] * u, R[3] * e + R[4] * n + R[5] * u, R[6] * e + R[7] * n + R[8] * u)
                }
                var fe = earthField
                if let k = inCanyon(s) { fe.e += canyonDisturbance[k].0; fe.n += canyonDisturbance[k].1; fe.u += canyonDisturbance[k].2 }
                let b = toDevice(fe.e, fe.n, fe.u)
                let m = (si[0] * b.0 + si[1] * b.1 + si[2] * b.2 + hi[0] + nz[0] * c.sensors.magnetometerNoise,
                         si[3] * b.0 + si[4] * b.1 + si[5] * b.2 + hi[1] + nz[1] * c.sensors.magnetometerNoise,
                         si[6] * b.0 + si[7] * b.1 + si[8] * b.2 + hi[2] + nz[2] * c.sensors.magnetometerNoise)
                // Specific force: gravity reaction + bounce + along-track + centripetal.
                let hr = heading * Angle.radiansPerDegree
                // Along-track acceleration, limited to what a walker does (starting/stopping
                // within a step rather than in one sample).
                let along = min(max((v - lastV) / dt, -1.5), 1.5)
                let yawRate = Angle.difference(from: prevHeading, to: heading) * Angle.radiansPerDegree / dt
                let lateral = v * yawRate
                let bounce = moving ? 1.2 * (v / 1.3) * Foundation.sin(2 * stepPhase) : 0
                let ae = along * Foundation.sin(hr) + lateral * Foundation.cos(hr)
                let an = along * Foundation.cos(hr) - lateral * Foundation.sin(hr)
                let a = toDevice(ae, an, 9.80665 + bounce)
                let ab = c.sensors.accelerometerBias
                let an0 = c.sensors.accelerometerNoise
                let gb = c.sensors.gyroscopeBias, gn = c.sensors.gyroscopeNoise
                let pitchRate = (pitch - prevPitch) * Angle.radiansPerDegree / dt
                let rollRate = (roll - prevRoll) * Angle.radiansPerDegree / dt
                let r3 = Self.round(t, 3)
                if t < sensorEnd {
                    sensors.append(SensorSample(time: r3, kind: .magnetometer, x: Self.round(m.0, 3), y: Self.round(m.1, 3), z: Self.round(m.2, 3)))
                    sensors.append(SensorSample(time: r3, kind: .accelerometer,
                                                x: Self.round(a.0 + ab[0] + nz[3] * an0, 4),
                                                y: Self.round(a.1 + ab[1] + nz[4] * an0, 4),
                                                z: Self.round(a.2 + ab[2] + nz[5] * an0, 4)))
                    // Heading grows clockwise; a counterclockwise rotation about +z is positive.
                    sensors.append(SensorSample(time: r3, kind: .gyroscope,
                                                x: Self.round(pitchRate + gb[0] + nz[6] * gn, 5),
                                                y: Self.round(rollRate + gb[1] + nz[7] * gn, 5),
                                                z: Self.round(-yawRate + gb[2] + nz[8] * gn, 5)))
                }
            }
            prevPitch = pitch; prevRoll = roll; prevHeading = heading; lastV = v

            // --- GNSS epoch ---
            if step % fixEvery == 0 {
                let g = frame.geodetic(east: p.e, north: p.n, up: 0)
                let hEll = hMSL + c.geoidSeparation
                var tf = Fix(time: Self.round(t, 3), latitude: Self.round(g.latitude, 8), longitude: Self.round(g.longitude, 8),
                             height: Self.round(hEll, 3), verticalReference: .ellipsoid, geoidSeparation: c.geoidSeparation)
                tf.speed = Self.round(groundSpeed, 3)
                tf.course = moving ? Self.round(groundCourse, 2) : nil
                tf.heading = Self.round(heading, 2)
                truth.append(tf)

                let canyon = inCanyon(s)
                let factor = canyon == nil ? 1.0 : c.gnss.canyonFactor
                let phi = Foundation.exp(-c.fixInterval / c.gnss.biasTime)
                let q = (1 - phi * phi).squareRoot()
                bias[0] = phi * bias[0] + q * c.gnss.biasSigma * rng.gaussian()
                bias[1] = phi * bias[1] + q * c.gnss.biasSigma * rng.gaussian()
                bias[2] = phi * bias[2] + q * c.gnss.biasSigma * c.gnss.verticalFactor * rng.gaussian()
                var ee = factor * (bias[0] + c.gnss.whiteSigma * rng.gaussian())
                var en = factor * (bias[1] + c.gnss.whiteSigma * rng.gaussian())
                var eu = factor * (bias[2] + c.gnss.whiteSigma * c.gnss.verticalFactor * rng.gaussian())
                if let d = persistent?.step(c.fixInterval) { ee += d.x; en += d.y; eu += d.z }
                if let k = canyon {
                    // Reflections pull the fix across the street (perpendicular to the path).
                    let br = pathBearing * Angle.radiansPerDegree
                    ee += canyonSign[k] * c.gnss.canyonPull * Foundation.cos(br)
                    en -= canyonSign[k] * c.gnss.canyonPull * Foundation.sin(br)
                }
                if outlier.left > 0 { outlier.left -= 1 }
                else if rng.bernoulli(canyon == nil ? c.gnss.outlierProbability : c.gnss.canyonOutlierProbability) {
                    let mag = rng.uniform(5, 30), dir = rng.uniform(0, 2 * Double.pi)
                    outlier = (mag * Foundation.sin(dir), mag * Foundation.cos(dir), Int(rng.uniform(1, 4)))
                }
                if outlier.left > 0 { ee += outlier.e; en += outlier.n }
                if dropoutLeft > 0 { dropoutLeft -= 1 }
                else if rng.bernoulli(canyon == nil ? c.gnss.dropoutProbability : c.gnss.canyonDropoutProbability) {
                    dropoutLeft = max(1, Int((-c.gnss.meanDropout * Foundation.log(1 - rng.uniform())).rounded()))
                }
                if dropoutLeft == 0 {
                    let rg = frame.geodetic(east: p.e + ee, north: p.n + en, up: 0)
                    let sigma = c.gnss.horizontalSigma(canyonFactor: factor)
                    let reported = 1.515 * sigma * Foundation.exp(c.gnss.reportedLogMean + c.gnss.reportedLogSigma * rng.gaussian())
                    let vReported = c.gnss.verticalFactor * sigma * Foundation.exp(c.gnss.reportedLogMean + c.gnss.reportedLogSigma * rng.gaussian())
                    var rf = Fix(time: Self.round(t, 3), latitude: Self.round(rg.latitude, 8), longitude: Self.round(rg.longitude, 8),
                                 height: Self.round(hMSL + eu, 2), verticalReference: .meanSeaLevel, geoidSeparation: c.geoidSeparation,
                                 horizontalAccuracy: Self.round(reported, 1), verticalAccuracy: Self.round(vReported, 1))
                    let sv = max(groundSpeed + rng.gaussian() * 0.12 * factor, 0)
                    rf.speed = Self.round(sv, 2)
                    rf.course = sv > 0.5 ? Self.round(Angle.normalizeHeading(groundCourse + rng.gaussian() * 6 * factor), 1) : nil
                    rf.quality = .gps
                    rf.satellites = max(4, Int((canyon == nil ? 18 : 9) + rng.gaussian() * 2))
                    rf.hdop = Self.round((canyon == nil ? 0.8 : 2.2) * Foundation.exp(0.15 * rng.gaussian()), 1)
                    raw.append(rf)
                }
            }
            step += 1
            t = c.startTime + Double(step) * dt
            if step > 10_000_000 { break } // a runaway configuration (programmer error) cannot hang
        }
        return Output(truth: truth, raw: raw, sensors: sensors, visits: visits.map { ($0.0, $0.1, $0.2) })
    }

    /// `v` rounded to `decimals` decimal places: the nearest double to the rounded decimal (so
    /// files print it with the fewest digits).
    static func round(_ v: Double, _ decimals: Int) -> Double {
        let p = Foundation.pow(10.0, Double(decimals))   // exact for decimals ≤ 22
        return (v * p).rounded() / p
    }

    /// Device → ENU rotation (column-major: columns are the device x, y, z axes in ENU) for a
    /// device lying flat with its top towards `heading` (degrees clockwise from north), then
    /// pitched (about device x, top up positive) and rolled (about device y), degrees.
    static func rotation(heading: Double, pitch: Double, roll: Double) -> [Double] {
        let (sy, cy) = Angle.sincos(degrees: heading)
        let (sp, cp) = Angle.sincos(degrees: pitch)
        let (sr, cr) = Angle.sincos(degrees: roll)
        // Yaw: x_dev = (cos ψ, −sin ψ, 0), y_dev = (sin ψ, cos ψ, 0), z_dev = (0, 0, 1).
        let Y = [cy, -sy, 0.0, sy, cy, 0.0, 0.0, 0.0, 1.0]              // columns
        let X = [1.0, 0, 0, 0, cp, sp, 0, -sp, cp]                     // Rx(θ) columns
        let Rr = [cr, 0, -sr, 0, 1, 0, sr, 0, cr]                       // Ry(φ) columns
        func mul(_ a: [Double], _ b: [Double]) -> [Double] {           // column-major a·b
            var m = [Double](repeating: 0, count: 9)
            for col in 0..<3 { for row in 0..<3 {
                m[col * 3 + row] = a[0 * 3 + row] * b[col * 3 + 0] + a[1 * 3 + row] * b[col * 3 + 1] + a[2 * 3 + row] * b[col * 3 + 2]
            } }
            return m
        }
        return mul(mul(Y, X), Rr)
    }
}

/// The persistent part of ``TraceSimulator/GNSSErrorModel`` (``TraceSimulator/GNSSErrorModel/persistentSigma``):
/// a Gauss–Markov error per axis that canyons do not scale (it is the sky's and the receiver's, not
/// the street's), drawn from its own random stream (seeded from the walk's seed) so that adding it
/// changes nothing else.
struct PersistentGNSSError {
    let sigma: Double, time: Double, verticalFactor: Double
    var state: SIMD3<Double>
    var rng: SeededRandom

    /// `nil` when the model has no persistent part.
    init?(_ m: TraceSimulator.GNSSErrorModel, seed: UInt64) {
        guard m.persistentSigma > 0 else { return nil }
        sigma = m.persistentSigma; time = m.persistentTime; verticalFactor = m.verticalFactor
        rng = SeededRandom(seed: seed ^ 0x9E25_1575_0000_0600)
        state = SIMD3(sigma * rng.gaussian(), sigma * rng.gaussian(), sigma * verticalFactor * rng.gaussian())
    }

    /// Advances by `dt` seconds; returns the error (east, north, up), meters.
    mutating func step(_ dt: Double) -> SIMD3<Double> {
        let phi = Foundation.exp(-dt / time), q = (1 - phi * phi).squareRoot() * sigma
        state = SIMD3(phi * state.x + q * rng.gaussian(), phi * state.y + q * rng.gaussian(),
                      phi * state.z + q * verticalFactor * rng.gaussian())
        return state
    }
}
