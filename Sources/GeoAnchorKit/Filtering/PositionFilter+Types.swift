import Foundation

/// A GNSS measurement in a filter's local ENU frame.
@frozen
public struct LocalMeasurement: Sendable, Hashable {
    /// UTC seconds since 1970, within ``Fix/earliestTime``…``Fix/latestTime`` (years 0001…9999;
    /// beyond, the measurement is refused as invalid).
    public var time: Double
    /// Meters east / north of the frame origin (on the ellipsoid).
    public var east: Double
    public var north: Double
    /// Per-axis position σ, meters (> 0, at most ``Fix/maximumUsableHorizontalAccuracy``: beyond, the
    /// measurement is refused as invalid).
    public var horizontalSigma: Double
    /// Height (m) in ``verticalReference``, and its σ (m). Used only when |height| ≤
    /// ``Fix/maximumUsableHeight`` and 0 < σ ≤ ``Fix/maximumUsableHorizontalAccuracy`` (100 km
    /// each); beyond, the step drops the height (counted in
    /// ``PositionFilterStatistics/heightGated``) and uses the rest of the measurement.
    public var height: Double?
    public var heightSigma: Double?
    public var verticalReference: VerticalReference?
    /// Reported ground speed (m/s, ≥ 0) and course (degrees clockwise from true north).
    public var speed: Double?
    public var course: Double?

    @inlinable
    public init(time: Double, east: Double, north: Double, horizontalSigma: Double,
                height: Double? = nil, heightSigma: Double? = nil, verticalReference: VerticalReference? = nil,
                speed: Double? = nil, course: Double? = nil) {
        self.time = time; self.east = east; self.north = north; self.horizontalSigma = horizontalSigma
        self.height = height; self.heightSigma = heightSigma; self.verticalReference = verticalReference
        self.speed = speed; self.course = course
    }
}

/// The filter's estimate in its local ENU frame.
@frozen
public struct LocalPositionEstimate: Sendable, Hashable {
    /// What the step did with its measurement.
    public enum Status: String, Sendable, Hashable, Codable {
        /// First fix: the state was set from it.
        case initialized
        /// The fix passed the gate and was applied.
        case updated
        /// The fix failed the χ² gate; the estimate is the prediction.
        case gated
        /// Re-initialized on this fix after a gap longer than the configured maximum.
        case reinitializedAfterGap
        /// Re-initialized on this fix after a streak of gated fixes.
        case recovered
        /// Re-initialized on this fix after ``PositionFilter/Configuration/clockResetFixCount``
        /// consecutive fixes (this one the last) were refused as going backwards: the filter's
        /// previous time was wrong (a fix from the future, a receiver clock reset). The smoother
        /// does not smooth across it.
        case clockReset
        /// No measurement (a query between fixes).
        case predicted
        /// Smoothed offline (RTS) estimate.
        case smoothed
    }
    /// UTC seconds since 1970.
    public var time: Double
    /// Meters east / north of the frame origin.
    public var east: Double
    public var north: Double
    /// Velocity, m/s.
    public var velocityEast: Double
    public var velocityNorth: Double
    /// Per-axis position σ (root mean of the two variances), meters; never below
    /// ``correlatedSigma``.
    public var horizontalSigma: Double
    /// The part of the latest accepted fix's per-axis σ that the filter cannot have averaged out
    /// (`√(κ_c σ²)`, ``PositionFilter/Configuration/correlatedErrorShare``), meters: the floor of
    /// ``horizontalSigma``. 0 before a fix or with a share of 0.
    public var correlatedSigma: Double = 0
    /// Height (m, in ``verticalReference``) and its σ, when fixes carried heights.
    public var height: Double?
    public var heightSigma: Double?
    public var verticalReference: VerticalReference?
    /// What happened at this step.
    public var status: Status
    /// The horizontal innovation's squared Mahalanobis distance (χ², 2 degrees of freedom);
    /// NaN at (re-)initialization.
    public var mahalanobisSquared: Double
    /// The filter's probability of each kind of motion at this step (the adaptive model's mode
    /// probabilities; the mode's kind with probability 1 for a one-mode configuration; the
    /// causal filter's at the same step for a smoothed estimate).
    public var motion: MotionProbabilities

    @inlinable
    public init(time: Double, east: Double, north: Double, velocityEast: Double, velocityNorth: Double,
                horizontalSigma: Double, height: Double?, heightSigma: Double?, verticalReference: VerticalReference?,
                status: Status, mahalanobisSquared: Double,
                motion: MotionProbabilities = MotionProbabilities(stationary: 0, walking: 1, vehicle: 0)) {
        self.motion = motion
        self.time = time; self.east = east; self.north = north
        self.velocityEast = velocityEast; self.velocityNorth = velocityNorth
        self.horizontalSigma = horizontalSigma; self.height = height; self.heightSigma = heightSigma
        self.verticalReference = verticalReference; self.status = status; self.mahalanobisSquared = mahalanobisSquared
    }
}

/// A filtered (or smoothed) fix: the estimate with its own accuracy.
public struct FilteredFix: Sendable, Hashable {
    /// UTC seconds since 1970.
    public var time: Double
    /// Degrees, WGS84.
    public var latitude: Double
    public var longitude: Double
    /// Height in meters in ``verticalReference`` (nil when no fix carried one).
    public var height: Double?
    public var verticalReference: VerticalReference
    /// The estimate's 68 % horizontal radius, meters (same convention as the input's
    /// `horizontalAccuracy`: `σ / Configuration.horizontalSigmaPerAccuracy`).
    public var horizontalAccuracy: Double
    /// The estimate's 68 % vertical half-interval, meters.
    public var verticalAccuracy: Double?
    /// Estimated ground speed, m/s.
    public var speed: Double
    /// Estimated course, degrees clockwise from true north in [0, 360) (nil when not moving).
    public var course: Double?
    /// The local estimate (frame coordinates, velocity, status, gate statistic).
    public var local: LocalPositionEstimate

    /// What the filter did with the input fix at this time.
    public var status: LocalPositionEstimate.Status { local.status }

    /// As a ``Fix`` (for trace writers): the estimate's position, accuracy, speed and course.
    public var fix: Fix {
        Fix(time: time, latitude: latitude, longitude: longitude, height: height,
            verticalReference: verticalReference, horizontalAccuracy: horizontalAccuracy,
            verticalAccuracy: verticalAccuracy, speed: speed, course: course)
    }

    /// The input fix with its position, height, accuracies, speed and course replaced by this
    /// estimate's; everything else (heading, quality, satellites, DOPs, geoid separation) kept.
    public func fix(replacing input: Fix) -> Fix {
        var f = input
        f.time = time
        f.latitude = latitude
        f.longitude = longitude
        if let height {
            f.height = height
            f.verticalReference = verticalReference
        }
        f.horizontalAccuracy = horizontalAccuracy
        f.verticalAccuracy = height == nil ? input.verticalAccuracy : verticalAccuracy
        f.speed = speed
        f.course = course
        return f
    }
}

/// Counts kept by ``PositionFilter``: what was accepted, gated, refused and why.
public struct PositionFilterStatistics: Sendable, Hashable, Codable {
    /// Fixes that reached the filter (valid, in order, not duplicates).
    public var fixes = 0
    /// Fixes applied (including (re-)initializations).
    public var accepted = 0
    /// Fixes rejected by the horizontal χ² gate.
    public var gated = 0
    /// Re-initializations after a rejection streak.
    public var recoveries = 0
    /// Re-initializations after a gap.
    public var gapReinitializations = 0
    /// Re-initializations after a clock reset: ``PositionFilter/Configuration/clockResetFixCount``
    /// consecutive fixes going backwards, in time order among themselves, showed that the
    /// filter's time was wrong (``LocalPositionEstimate/Status/clockReset``). The fixes refused
    /// before the reset are counted in ``outOfOrder``.
    public var clockResets = 0
    /// Fixes refused as exact duplicates (same time and position).
    public var duplicates = 0
    /// Fixes refused because their time went backwards (a clock reset's last fix is not refused:
    /// it is counted in ``clockResets``).
    public var outOfOrder = 0
    /// Fixes refused for invalid values (NaN, a time outside the years 0001…9999, out-of-range
    /// latitude, a negative accuracy or one beyond 100 km).
    public var invalid = 0
    /// Velocity (speed/course) measurements applied / gated.
    public var velocityUpdates = 0
    public var velocityGated = 0
    /// Height measurements applied / gated. `heightGated` also counts the heights of used fixes
    /// that were dropped as unusable (|height| beyond ``Fix/maximumUsableHeight`` or σ beyond
    /// ``Fix/maximumUsableHorizontalAccuracy``, 100 km each), whether or not the channel was live.
    public var heightUpdates = 0
    public var heightGated = 0
    /// Steps with a zero-velocity update.
    public var stationarySteps = 0
    /// Path-constraint pseudo-measurements applied, and steps where the constraint was released
    /// (outside the corridor, beyond a free line end, or gated) — both 0 without a
    /// ``PathConstraint``.
    public var pathUpdates = 0
    public var pathSkipped = 0
    /// The horizontal χ² gate in use (2 degrees of freedom).
    public var gateThreshold = 0.0
    /// Sum of the accepted horizontal innovations' d² (their mean should be ≈ 2 when the noise
    /// model is right).
    public var sumMahalanobisSquared = 0.0
    /// Seconds spent in each kind of motion, weighted by the adaptive model's mode probabilities
    /// (a one-mode configuration counts all time for its mode's kind).
    public var stationarySeconds = 0.0
    public var walkingSeconds = 0.0
    public var vehicleSeconds = 0.0

    public init() {}

    /// Decodes statistics; `clockResets` may be missing (statistics saved before it existed),
    /// then 0.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        fixes = try c.decode(Int.self, forKey: .fixes)
        accepted = try c.decode(Int.self, forKey: .accepted)
        gated = try c.decode(Int.self, forKey: .gated)
        recoveries = try c.decode(Int.self, forKey: .recoveries)
        gapReinitializations = try c.decode(Int.self, forKey: .gapReinitializations)
        clockResets = try c.decodeIfPresent(Int.self, forKey: .clockResets) ?? 0
        duplicates = try c.decode(Int.self, forKey: .duplicates)
        outOfOrder = try c.decode(Int.self, forKey: .outOfOrder)
        invalid = try c.decode(Int.self, forKey: .invalid)
        velocityUpdates = try c.decode(Int.self, forKey: .velocityUpdates)
        velocityGated = try c.decode(Int.self, forKey: .velocityGated)
        heightUpdates = try c.decode(Int.self, forKey: .heightUpdates)
        heightGated = try c.decode(Int.self, forKey: .heightGated)
        stationarySteps = try c.decode(Int.self, forKey: .stationarySteps)
        pathUpdates = try c.decode(Int.self, forKey: .pathUpdates)
        pathSkipped = try c.decode(Int.self, forKey: .pathSkipped)
        gateThreshold = try c.decode(Double.self, forKey: .gateThreshold)
        sumMahalanobisSquared = try c.decode(Double.self, forKey: .sumMahalanobisSquared)
        stationarySeconds = try c.decode(Double.self, forKey: .stationarySeconds)
        walkingSeconds = try c.decode(Double.self, forKey: .walkingSeconds)
        vehicleSeconds = try c.decode(Double.self, forKey: .vehicleSeconds)
    }

    /// The share of time in each kind of motion (nil before any time has passed).
    public var motionShare: MotionProbabilities? {
        let t = stationarySeconds + walkingSeconds + vehicleSeconds
        guard t > 0 else { return nil }
        return MotionProbabilities(stationary: stationarySeconds / t, walking: walkingSeconds / t, vehicle: vehicleSeconds / t)
    }

    /// Whether the accepted innovations say the noise model does not fit: their mean d² (2 when it
    /// fits) is outside [``modelFitRange``] after at least 30 accepted updates. Phone fixes whose
    /// accuracy is badly over- or understated, or motion the model does not allow, do this.
    public var modelFits: Bool {
        let n = accepted - recoveries - gapReinitializations - clockResets - (fixes > 0 ? 1 : 0)
        guard n >= 30 else { return true }
        return Self.modelFitRange.contains(meanMahalanobisSquared)
    }

    /// The range of mean d² (χ², 2 degrees of freedom, expected 2) that counts as a fit: a
    /// factor of 3 either way.
    public static let modelFitRange: ClosedRange<Double> = (2.0 / 3)...6

    mutating func addMotion(_ m: MotionProbabilities, dt: Double) {
        guard dt > 0, dt.isFinite else { return }
        stationarySeconds += dt * m.stationary
        walkingSeconds += dt * m.walking
        vehicleSeconds += dt * m.vehicle
    }

    /// Mean d² of accepted horizontal updates (normalized innovation squared; ≈ 2 if consistent).
    public var meanMahalanobisSquared: Double {
        let n = accepted - recoveries - gapReinitializations - clockResets - (fixes > 0 ? 1 : 0)
        return n > 0 ? sumMahalanobisSquared / Double(n) : .nan
    }
}

extension PositionFilter {
    /// How the adaptive smoother combines a walking-tuned pass with the mixture's own
    /// (``Configuration/smootherSchedule``).
    ///
    /// The causal interacting-multiple-model pass says how the device moved. A second forward
    /// pass runs one constant-velocity mode without a bias state, tuned like the walking preset's
    /// smoother (q 0.05 m²/s³, stated accuracy × 6: GNSS errors correlated over a minute are best
    /// averaged over a long window) where the device walked or stood and like the vehicle mode
    /// (its q, the accuracy as configured) where it rode; the smoothed track is that pass's RTS
    /// smoothing, blended with the RTS over the mixture itself (whose bias modes follow a
    /// vehicle's Doppler velocity through the correlated error) by the vehicle weight. The
    /// vehicle weight of a fix is the causal filter's vehicle probability averaged over
    /// ± ``persistence`` seconds (a pedestrian's brief vehicle-like moments are not a ride), its
    /// largest value within ± ``window`` seconds (a smoother may look ahead: a ride's start is
    /// smoothed as a ride, a car's stop at a light stays a car's), mapped linearly from 0 at
    /// ``vehicleProbabilityStart`` to 1 at ``vehicleProbabilityFull``.
    ///
    /// *Accuracy* (`geobench report`, smoothed RMSE / raw): city-walk 0.54 (walking preset 0.55;
    /// the mixture's own RTS 0.65), zavist-tour 0.45 (0.48; 0.45); 6 simulated walks mean 0.477
    /// (0.489); GSDC 2020 chipset traces smoothed p95 0.82–1.01 × raw (mixture alone 0.77–1.01).
    public struct SmootherSchedule: Sendable, Hashable, Codable {
        /// Acceleration spectral density (m²/s³) of the second pass while walking or standing.
        public var walkingAccelerationSpectralDensity: Double
        /// Factor on a stated accuracy's σ in the second pass while walking or standing.
        public var walkingAccuracyInflation: Double
        /// Acceleration spectral density (m²/s³) of the second pass while riding.
        public var vehicleAccelerationSpectralDensity: Double
        /// Half-width (s) of the window over which the vehicle probability is averaged first.
        public var persistence: Double
        /// Half-width (s) of the window over which the averaged vehicle probability is maximized.
        public var window: Double
        /// The windowed vehicle probability at and below which the vehicle weight is 0.
        public var vehicleProbabilityStart: Double
        /// The windowed vehicle probability at and above which the vehicle weight is 1.
        public var vehicleProbabilityFull: Double

        /// A schedule; the defaults are the walking preset's smoother tuning, the adaptive
        /// model's vehicle q, a ± 20 s average, a ± 90 s maximum and weights from probability
        /// 0.5 to 0.9.
        public init(walkingAccelerationSpectralDensity: Double = 0.05, walkingAccuracyInflation: Double = 6,
                    vehicleAccelerationSpectralDensity: Double = 3, persistence: Double = 20, window: Double = 90,
                    vehicleProbabilityStart: Double = 0.5, vehicleProbabilityFull: Double = 0.9) {
            self.walkingAccelerationSpectralDensity = walkingAccelerationSpectralDensity
            self.walkingAccuracyInflation = walkingAccuracyInflation
            self.vehicleAccelerationSpectralDensity = vehicleAccelerationSpectralDensity
            self.persistence = persistence
            self.window = window
            self.vehicleProbabilityStart = vehicleProbabilityStart
            self.vehicleProbabilityFull = vehicleProbabilityFull
        }

        /// Checks every value: the spectral densities in
        /// ``Configuration/accelerationSpectralDensityRange`` (0, 10⁴] m²/s³ and the inflation in
        /// ``Configuration/accuracyInflationRange`` (0, 100] (the second pass is a
        /// ``PositionFilter`` with these values), the windows in [0, 86,400] s
        /// (``Configuration/maximumInterval``), 0 ≤ start < full ≤ 1, all finite. A schedule set in code that fails this is a programmer error (the smoother
        /// stops with this message); a decoded one throws.
        /// - Throws: ``GeoAnchorError/nonFinite(name:value:)`` or
        ///   ``GeoAnchorError/outOfRange(name:value:allowed:)`` naming the first bad value.
        public func validate() throws(GeoAnchorError) { try validate(prefix: "") }

        /// ``validate()`` with `prefix` before every value's name (`smootherSchedule.` within a
        /// ``Configuration``).
        func validate(prefix: String) throws(GeoAnchorError) {
            let q = Configuration.accelerationSpectralDensityRange
            let window = ValueRange.closed(0, Configuration.maximumInterval, unit: "s")
            let values: [(String, Double, ValueRange)] = [
                ("walkingAccelerationSpectralDensity", walkingAccelerationSpectralDensity, q),
                ("walkingAccuracyInflation", walkingAccuracyInflation, Configuration.accuracyInflationRange),
                ("vehicleAccelerationSpectralDensity", vehicleAccelerationSpectralDensity, q),
                ("persistence", persistence, window),
                ("window", self.window, window),
                ("vehicleProbabilityStart", vehicleProbabilityStart, .closed(0, 1)),
                ("vehicleProbabilityFull", vehicleProbabilityFull, .closed(0, 1))
            ]
            for (name, value, allowed) in values { try allowed.check(value, name: prefix + name) }
            guard vehicleProbabilityFull > vehicleProbabilityStart else {
                throw .outOfRange(name: prefix + "vehicleProbabilityFull", value: vehicleProbabilityFull,
                                  allowed: ValueRange(lower: .exclusive(vehicleProbabilityStart), upper: .inclusive(1)))
            }
        }

        enum CodingKeys: String, CodingKey {
            case walkingAccelerationSpectralDensity, walkingAccuracyInflation, vehicleAccelerationSpectralDensity
            case persistence, window, vehicleProbabilityStart, vehicleProbabilityFull
        }

        /// Decodes and validates (``validate()``'s error wrapped in `DecodingError.dataCorrupted`).
        public init(from decoder: Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(walkingAccelerationSpectralDensity: try c.decode(Double.self, forKey: .walkingAccelerationSpectralDensity),
                      walkingAccuracyInflation: try c.decode(Double.self, forKey: .walkingAccuracyInflation),
                      vehicleAccelerationSpectralDensity: try c.decode(Double.self, forKey: .vehicleAccelerationSpectralDensity),
                      persistence: try c.decode(Double.self, forKey: .persistence),
                      window: try c.decode(Double.self, forKey: .window),
                      vehicleProbabilityStart: try c.decode(Double.self, forKey: .vehicleProbabilityStart),
                      vehicleProbabilityFull: try c.decode(Double.self, forKey: .vehicleProbabilityFull))
            do { try validate() } catch {
                throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description, underlyingError: error))
            }
        }
    }
}
