import Foundation

/// Settings of the single-epoch solver and the filter. Every default is written down with its
/// reason; none was fitted to one drive (the Pixel 5 file only served to check the order of
/// magnitude of the phone's code noise).
public struct GNSSSolverConfiguration: Sendable, Hashable {
    /// Systems used (default all that have ephemerides).
    public var systems: Set<GNSSSystem> = [.gps, .glonass, .galileo, .beidou, .qzss]
    /// Elevation mask, degrees. 10°: low satellites on phones are dominated by multipath, and
    /// the mapping of tropospheric error grows quickly below 10° (RTKLIB default 15° is for
    /// survey receivers with few satellites lost).
    public var elevationMask: Double = 10
    /// Measurements below this C/N0 (dB-Hz) are not used. 15 dB-Hz is below which phone code
    /// tracking is rarely valid (Android's own `Fix` uses about that).
    public var minimumCN0: Double = 15
    /// Code σ (m) at zenith and 40 dB-Hz for L1/E1/G1/B1, and for the wide-band L5/E5a signals.
    /// Phones' L1 code noise + multipath is several metres; L5/E5a (10× chip rate) about a
    /// third of it (Robustelli et al. 2019, Pixel 4/5 studies), hence the 3:1 weight ratio.
    public var codeSigmaL1: Double = 6
    public var codeSigmaWideband: Double = 2
    /// GLONASS FDMA code: each frequency channel has its own bias on phones; a larger σ keeps
    /// the unmodelled part from pulling the solution.
    public var glonassSigmaFactor: Double = 2
    /// Doppler (pseudorange-rate) σ, m/s, at 40 dB-Hz.
    public var rangeRateSigma: Double = 0.5
    /// Fault detection: a χ² test of the weighted residuals at this false-alarm probability
    /// (0.1 %), then exclusion of the largest normalised residual, at most ``maximumExclusions``
    /// times, keeping at least 2 redundant measurements.
    public var maximumExclusions: Int = 10
    /// Residuals larger than this (m) after the first solution are gross errors (millisecond
    /// ambiguities, wrong code state) and are removed before FDE.
    public var grossErrorThreshold: Double = 500
    public var useIonosphere = true
    public var useTroposphere = true
    /// Dual-frequency ionosphere: satellites with code on an L1-band signal and on a wide-band
    /// one (L5/E5a/B2a) are used as their ionosphere-free combination
    /// (``PreparedMeasurement/ionosphereFreeCombinations(_:)``, clock group band `c`); satellites
    /// with one band keep Klobuchar. Off by default: the combination multiplies phone code noise
    /// (σ ≈ √(2.26² σ_L1² + 1.26² σ_L5²), 2.3× the L1 σ with the defaults) and on the Pixel 5 drive
    /// it is worse than Klobuchar with the L1/L5 weighting (README, "Raw GNSS").
    public var ionosphereFreeCombination = false

    public init() {}

    /// Code σ (m) of a measurement at elevation `el` (rad) and C/N0 `cn0` (dB-Hz):
    /// σ² = σ₀² · (1 + 1/sin² el) / 2 · 10^((40 − C/N0)/10), the C/N0 factor clamped to [0.5, 30].
    /// Elevation term: the RTKLIB/GPS textbook a² + b²/sin² e with a = b; C/N0 term: thermal-noise
    /// variance ∝ 1/(C/N0) (Kaplan & Hegarty, 3rd ed., eq. 8.39).
    @inlinable
    public func codeSigma(group: GNSSSignalGroup, elevation el: Double, cn0: Double) -> Double {
        codeSigma(group: group, sinElevation: sin(el), cn0Factor: Self.cn0Factor(cn0))
    }

    /// ``codeSigma(group:elevation:cn0:)`` from sin(elevation) and a precomputed ``cn0Factor(_:)``.
    @inlinable
    public func codeSigma(group: GNSSSignalGroup, sinElevation: Double, cn0Factor cnf: Double) -> Double {
        var s0 = group.isWideband ? codeSigmaWideband : codeSigmaL1
        if group.isIonosphereFree {
            // (s₅P₁ − s₁P₅)/(s₅ − s₁) with the L1/L5 coefficients 2.261 and 1.261 (within 3 % of
            // the other band pairs' coefficients).
            s0 = ((2.261 * codeSigmaL1) * (2.261 * codeSigmaL1) + (1.261 * codeSigmaWideband) * (1.261 * codeSigmaWideband)).squareRoot()
        }
        if group.system == .glonass { s0 *= glonassSigmaFactor }
        let se = max(sinElevation, 0.1)
        return s0 * ((1 + 1 / (se * se)) / 2 * cnf).squareRoot()
    }

    /// The C/N0 variance factor 10^((40 − C/N0)/10), clamped to [0.5, 30] (as e^((40 − C/N0)·ln 10 / 10):
    /// `exp` costs half of `pow`; the two agree to a few ulp).
    @inlinable
    public static func cn0Factor(_ cn0: Double) -> Double { min(30, max(0.5, exp((40 - cn0) * 0.23025850929940458))) }
}

/// One epoch's position solution.
public struct GNSSSolution: Sendable, Hashable {
    /// GPS time of the epoch (s since 1980-01-06); ``utcTime`` for output.
    public var time: Double
    /// Receiver position, ECEF m (WGS84).
    public var position: SIMD3<Double>
    public var latitude: Double, longitude: Double, ellipsoidalHeight: Double
    /// Receiver velocity, ECEF m/s, from Doppler; nil when too few Doppler measurements.
    public var velocity: SIMD3<Double>?
    /// Receiver clock drift, m/s (from Doppler), nil with ``velocity``.
    public var clockDrift: Double? = nil
    /// Receiver clock per signal group, m. Built on access from the solution's compact storage;
    /// ``clock(of:)`` reads one without building a dictionary.
    public var clocks: [GNSSSignalGroup: Double] {
        get { Dictionary(uniqueKeysWithValues: zip(clockGroups, clockValues)) }
        set {
            let sorted = newValue.sorted { $0.key < $1.key }
            clockGroups = sorted.map(\.key); clockValues = sorted.map(\.value)
        }
    }
    /// The receiver clock (m) of one signal group, nil when the solution has none for it.
    public func clock(of group: GNSSSignalGroup) -> Double? {
        clockGroups.firstIndex(of: group).map { clockValues[$0] }
    }
    /// Storage of ``clocks``: the groups in ascending order and their clocks (m). Sorted, so two
    /// solutions with the same clocks are equal and hash alike.
    @usableFromInline var clockGroups: [GNSSSignalGroup]
    @usableFromInline var clockValues: [Double]
    /// Satellites used (distinct), and per system.
    public var satellitesUsed: Int
    /// Satellites used per system (systems with none are absent). Built on access;
    /// ``satellites(of:)`` reads one count without building a dictionary.
    public var satellitesPerSystem: [GNSSSystem: Int] {
        get {
            var d: [GNSSSystem: Int] = [:]
            for sys in GNSSSystem.allCases where perSystemCounts[sys.order] > 0 { d[sys] = Int(perSystemCounts[sys.order]) }
            return d
        }
        set {
            perSystemCounts = SIMD8()
            for (sys, n) in newValue { perSystemCounts[sys.order] = Int32(clamping: max(0, n)) }
        }
    }
    /// Satellites used of one system.
    public func satellites(of system: GNSSSystem) -> Int { Int(perSystemCounts[system.order]) }
    /// Storage of ``satellitesPerSystem``, indexed by the system's declaration order.
    @usableFromInline var perSystemCounts: SIMD8<Int32>
    /// Measurements excluded by FDE / gross-error screening.
    public var excluded: Int
    /// Position dilution of precision (unweighted geometry).
    public var pdop: Double
    /// RMS of the used pseudorange residuals, m.
    public var residualRMS: Double
    /// 68 % horizontal radius (m) and vertical half-interval (m) from the weighted covariance
    /// with the a-priori σ model scaled by the a-posteriori unit variance (when it is > 1).
    public var horizontalAccuracy: Double
    public var verticalAccuracy: Double
    /// The used residuals (m), for statistics.
    public var residuals: [Double]
    /// Satellites the fault detection's leave-one-out retry left out as faulty (all their
    /// measurements; empty when the normal path stood). Pass recent ones as `suspects` to
    /// ``GNSSPositionSolver/solve(_:time:prior:suspects:excluding:skipped:)`` (``GNSSProcessor`` does).
    public var faultySatellites: [SatelliteID] = []
    /// True when the fault detection found a fault it could not isolate — the first solution
    /// failed its χ² test or had a gross residual, and no leave-one-out candidate was consistent
    /// or one was not clearly the best — and the normal path's exclusions stand: the position may
    /// carry one satellite's error (a clock 1 µs off: 100–300 m). ``GNSSProcessor``'s filter does
    /// not start from such a solution while a resolved one may follow.
    public var unresolvedFault = false
    /// Each satellite's pseudorange bias as this epoch sees it (``GNSSSatelliteBias``): for the
    /// satellites in the solution from their residuals, for those left out (fault detection,
    /// `excluding`) from their prediction residuals. ``GNSSBiasMonitor`` accumulates them over
    /// epochs to find a satellite error too small for one epoch's χ² test.
    public var satelliteBiases: [GNSSSatelliteBias] = []

    /// A solution from its parts; `clockGroups` ascending, `perSystemCounts` by system order.
    init(time: Double, position: SIMD3<Double>, latitude: Double, longitude: Double, ellipsoidalHeight: Double,
         velocity: SIMD3<Double>?, clockGroups: [GNSSSignalGroup], clockValues: [Double], satellitesUsed: Int,
         perSystemCounts: SIMD8<Int32>, excluded: Int, pdop: Double, residualRMS: Double,
         horizontalAccuracy: Double, verticalAccuracy: Double, residuals: [Double]) {
        self.time = time; self.position = position; self.latitude = latitude; self.longitude = longitude
        self.ellipsoidalHeight = ellipsoidalHeight; self.velocity = velocity
        self.clockGroups = clockGroups; self.clockValues = clockValues
        self.satellitesUsed = satellitesUsed; self.perSystemCounts = perSystemCounts; self.excluded = excluded
        self.pdop = pdop; self.residualRMS = residualRMS
        self.horizontalAccuracy = horizontalAccuracy; self.verticalAccuracy = verticalAccuracy; self.residuals = residuals
    }

    /// A solution with its clocks and per-system counts as dictionaries.
    init(time: Double, position: SIMD3<Double>, latitude: Double, longitude: Double, ellipsoidalHeight: Double,
         velocity: SIMD3<Double>?, clocks: [GNSSSignalGroup: Double], satellitesUsed: Int,
         satellitesPerSystem: [GNSSSystem: Int], excluded: Int, pdop: Double, residualRMS: Double,
         horizontalAccuracy: Double, verticalAccuracy: Double, residuals: [Double]) {
        self.init(time: time, position: position, latitude: latitude, longitude: longitude, ellipsoidalHeight: ellipsoidalHeight,
                  velocity: velocity, clockGroups: [], clockValues: [], satellitesUsed: satellitesUsed, perSystemCounts: SIMD8(),
                  excluded: excluded, pdop: pdop, residualRMS: residualRMS, horizontalAccuracy: horizontalAccuracy,
                  verticalAccuracy: verticalAccuracy, residuals: residuals)
        self.clocks = clocks
        self.satellitesPerSystem = satellitesPerSystem
    }

    /// UTC Unix time of the epoch, rounded to the millisecond (phone epochs end in .4299… s).
    public var utcTime: Double { (GNSSTime.unixUTC(gpsTime: time) * 1000).rounded() / 1000 }

    /// The solution as a trace ``Fix`` (UTC time, ellipsoidal height, speed/course from Doppler).
    public var fix: Fix {
        var f = Fix(time: utcTime, latitude: latitude, longitude: longitude, height: ellipsoidalHeight,
                    verticalReference: .ellipsoid, horizontalAccuracy: horizontalAccuracy, verticalAccuracy: verticalAccuracy,
                    quality: .gps, satellites: satellitesUsed, pdop: pdop)
        if let v = velocity {
            let lat = latitude * .pi / 180, lon = longitude * .pi / 180
            let e = -sin(lon) * v.x + cos(lon) * v.y
            let n = -sin(lat) * cos(lon) * v.x - sin(lat) * sin(lon) * v.y + cos(lat) * v.z
            f.speed = (e * e + n * n).squareRoot()
            var c = atan2(e, n) * 180 / .pi; if c < 0 { c += 360 }
            f.course = c
        }
        return f
    }
}

/// Per-epoch robust weighted least squares: position + one clock per signal group, Klobuchar
/// and Saastamoinen corrections, elevation/C-N0 weights, gross-error screening and χ² fault
/// detection and exclusion; then a Doppler velocity.
public struct GNSSPositionSolver: Sendable {
    public var configuration: GNSSSolverConfiguration
    public var ephemerides: SatelliteEphemerides

    public init(ephemerides: SatelliteEphemerides, configuration: GNSSSolverConfiguration = .init()) {
        self.ephemerides = ephemerides; self.configuration = configuration
    }

    /// Solves one epoch. `prior` (ECEF m), when given, starts the iterations (else the Earth's
    /// centre); `suspects`: satellites found faulty in recent epochs; `excluding`: satellites left
    /// out from the start, e.g. ``GNSSBiasMonitor/excluded``
    /// (``solve(_:time:prior:suspects:excluding:skipped:)``). Measurement-level drops are added to `skipped`.
    ///
    /// Precondition: ``configuration`` passes ``GNSSSolverConfiguration/validate()`` (a programmer
    /// error otherwise: validate a configuration that comes from outside first).
    public func solve(_ epoch: GNSSEpoch, prior: SIMD3<Double>? = nil, suspects: Set<SatelliteID> = [],
                      excluding: Set<SatelliteID> = [],
                      skipped: inout [GNSSSkipReason: Int]) -> Result<GNSSSolution, GNSSSkipReason> {
        configuration.requireValid()
        guard epoch.flag <= 1 else { return .failure(.epochFlag) }
        let ms = ephemerides.prepare(epoch, systems: configuration.systems, minimumCN0: configuration.minimumCN0, skipped: &skipped)
        return solveChecked(ms, time: epoch.time, prior: prior, suspects: suspects, excluding: excluding, skipped: &skipped)
    }

    /// Geometry and corrections of one measurement at receiver position `r`.
    struct Row {
        var u: SIMD3<Double>      // unit vector receiver → satellite
        var predictedRange: Double // geometric range + atmosphere, m
        var elevation: Double
        /// Ionospheric delay (m) and tropospheric mapping factor (zenith delay → slant) included
        /// in ``predictedRange``.
        var ionosphere: Double
        var troposphereMapping: Double
        var sigma: Double
        var satellite: SIMD3<Double>
    }

    /// What ``geometry(_:_:cn0Factor:)`` shares between the measurements of one receiver
    /// position: computed once per iteration, not once per satellite.
    struct GeometryContext {
        var receiver: SIMD3<Double>
        var lat: Double, lon: Double
        var nearSurface: Bool
        var sinLat: Double, cosLat: Double, sinLon: Double, cosLon: Double
        var zenithTroposphere: Double
        /// d(zenith delay)/d(height), m/m (``GNSSModels/troposphereZenithAndSlope(latitudeRadians:ellipsoidalHeight:)``).
        var zenithSlope: Double
        /// GPS seconds of week of the epoch (Klobuchar's local time).
        var secondsOfWeek: Double
        var klobuchar: KlobucharCoefficients?
        var config: GNSSSolverConfiguration
        /// Elevation (rad) below which the atmosphere is not computed: set for the iteration that
        /// applies the elevation mask, whose rows below it are dropped unused.
        var atmosphereMask = -Double.infinity

        init(receiver r: SIMD3<Double>, lat: Double, lon: Double, height: Double, nearSurface: Bool, time: Double,
             config: GNSSSolverConfiguration, klobuchar: KlobucharCoefficients?, trig: SIMD4<Double>? = nil) {
            receiver = r; self.lat = lat; self.lon = lon; self.nearSurface = nearSurface
            let t = trig ?? SIMD4(sin(lat), cos(lat), sin(lon), cos(lon))
            sinLat = t[0]; cosLat = t[1]; sinLon = t[2]; cosLon = t[3]
            (zenithTroposphere, zenithSlope) = GNSSModels.troposphereZenithAndSlope(latitudeRadians: lat, ellipsoidalHeight: height)
            secondsOfWeek = time.truncatingRemainder(dividingBy: GNSSTime.secondsPerWeek)
            self.klobuchar = klobuchar; self.config = config
        }

        /// d(zenith delay)/dh × up (ECEF): the troposphere's part of the design rows
        /// (``designRow(_:heightGradient:)``); zero away from the surface or without troposphere.
        var heightGradient: SIMD3<Double> {
            nearSurface && config.useTroposphere ? zenithSlope * SIMD3(cosLat * cosLon, cosLat * sinLon, sinLat) : SIMD3(0, 0, 0)
        }
    }

    /// The gradient of a row's predicted range with respect to the receiver position (ECEF):
    /// −u for the geometric range, scaled by 1 + u·Ṡ/c for the Earth's rotation during the
    /// flight (the flight time grows with the range; Ṡ = ω × satellite, |u·Ṡ|/c ≤ 7e-6), plus
    /// mapping × d(zenith delay)/dh × up (`heightGradient` = slope × up, zero far from the
    /// surface). Exact to first order, so one step from within tens of metres lands within
    /// 0.1 mm of the converged point (``solve(_:time:prior:suspects:excluding:skipped:)``).
    @inline(__always)
    static func designRow(_ row: Row, heightGradient: SIMD3<Double>) -> SIMD3<Double> {
        let s = row.satellite, u = row.u
        let k = 1 + GNSSConstants.earthRotationRate * (u.x * s.y - u.y * s.x) * (1 / GNSSConstants.speedOfLight)
        return row.troposphereMapping * heightGradient - u * k
    }

    /// Range (with Earth rotation during the flight), elevation, Klobuchar + Saastamoinen delays
    /// and code σ of one measurement. The azimuth enters Klobuchar only through its cosine and
    /// sine, taken as north/horizontal and east/horizontal (no `atan2`, `cos`, `sin`). With
    /// `cached`, the elevation, atmosphere and σ of an earlier call at a nearby receiver position
    /// are used instead of recomputing them (see ``solve(_:time:prior:suspects:excluding:skipped:)``).
    @inline(__always)
    static func geometry(_ m: PreparedMeasurement, _ g: GeometryContext, cn0Factor: Double,
                         cached: (elevation: Double, ionosphere: Double, troposphereMapping: Double, sigma: Double)? = nil) -> Row {
        let c = GNSSConstants.speedOfLight
        let r = g.receiver
        let p = m.satellitePosition
        var d = p - r
        let tau = (d * d).sum().squareRoot() * (1 / c)
        let s = GNSSModels.sagnacRotated(p, flightTime: tau)
        d = s - r
        let rho = (d * d).sum().squareRoot()
        let invRho = 1 / rho
        if let cached, g.nearSurface {
            // The zenith delay is the current one: it changes with height by ≈ 0.3 mm/m.
            return Row(u: d * invRho, predictedRange: rho + (cached.ionosphere + g.zenithTroposphere * cached.troposphereMapping),
                       elevation: cached.elevation, ionosphere: cached.ionosphere, troposphereMapping: cached.troposphereMapping,
                       sigma: cached.sigma, satellite: s)
        }
        var ionosphere = 0.0, mapping = 0.0
        var el = Double.pi / 2
        var sinEl = 1.0
        if g.nearSurface {
            let sl = g.sinLat, cl = g.cosLat, so = g.sinLon, co = g.cosLon
            sinEl = (cl * co * d.x + cl * so * d.y + sl * d.z) * invRho
            el = asin(max(-1, min(1, sinEl)))
            if g.config.useIonosphere, let k = g.klobuchar, el > 0, el >= g.atmosphereMask {
                let e = -so * d.x + co * d.y
                let n = -sl * co * d.x - sl * so * d.y + cl * d.z
                let h = (e * e + n * n).squareRoot()
                // atan2(0, 0) = 0: cos 1, sin 0.
                let invH = 1 / h
                let cosAz = h > 0 ? n * invH : 1, sinAz = h > 0 ? e * invH : 0
                ionosphere = m.ionosphereScale * GNSSModels.klobuchar(k, latitudeRadians: g.lat, longitudeRadians: g.lon, elevation: el,
                                                                    cosAzimuth: cosAz, sinAzimuth: sinAz, gpsSecondsOfWeek: g.secondsOfWeek)
            }
            if g.config.useTroposphere && el > 0 && el >= g.atmosphereMask {
                mapping = 1.001 / (0.002001 + sinEl * sinEl).squareRoot()
            }
        }
        let sigma = m.sigmaOverride ?? g.config.codeSigma(group: m.group, sinElevation: sinEl, cn0Factor: cn0Factor)
        return Row(u: d * invRho, predictedRange: rho + (ionosphere + g.zenithTroposphere * mapping), elevation: el,
                   ionosphere: ionosphere, troposphereMapping: mapping, sigma: sigma, satellite: s)
    }

    /// The rows of the measurements `active` (indices into `all`) at `ctx`'s receiver, into `rows`.
    /// Near the surface, elevation, ionosphere, tropospheric mapping and σ come from `cache` (4 per index)
    /// when it was filled within 100 m of the receiver (`cachedAt`); otherwise they are computed
    /// and the cache refilled.
    @inline(__always)
    static func computeRows(_ all: [PreparedMeasurement], _ active: [Int], _ cnf: [Double], _ ctx: GeometryContext,
                            rows: inout [Row], cache: inout [Double], cachedAt: inout SIMD3<Double>?) {
        rows.removeAll(keepingCapacity: true)
        let p = ctx.receiver
        if ctx.nearSurface, let a = cachedAt, ((p - a) * (p - a)).sum() < 100 * 100 {
            for k in active {
                rows.append(geometry(all[k], ctx, cn0Factor: cnf[k], cached: (cache[4 * k], cache[4 * k + 1], cache[4 * k + 2], cache[4 * k + 3])))
            }
        } else {
            for k in active {
                let row = geometry(all[k], ctx, cn0Factor: cnf[k])
                rows.append(row)
                cache[4 * k] = row.elevation; cache[4 * k + 1] = row.ionosphere
                cache[4 * k + 2] = row.troposphereMapping; cache[4 * k + 3] = row.sigma
            }
            if ctx.nearSurface { cachedAt = p }
        }
    }

    /// Solves from prepared measurements (shared with the filter's initialisation).
    ///
    /// Fault detection and exclusion in two stages. The normal path: one solution with every
    /// measurement, then the measurements with residuals above ``GNSSSolverConfiguration/grossErrorThreshold``
    /// are removed, then the χ² test excludes the largest normalised residual at a time (see
    /// ``GNSSSolverConfiguration/maximumExclusions``). That path cannot isolate one satellite whose
    /// broadcast orbit or clock is grossly wrong but in range (a mean anomaly off by 0.01–2 rad puts
    /// the satellite hundreds to thousands of km off, a clock off by 1e-4–1e-3 s is 30–300 km):
    /// least squares spreads its error over every residual, so the gross-error screen removes good
    /// measurements with it (or cannot, leaving too few), and the iterations fail to converge or
    /// converge tens of km off. Nor can it isolate a smaller satellite-wide error (a clock off by
    /// 0.3–1 µs, 90–300 m): the spread error makes a good measurement's normalised residual the
    /// largest, that one is excluded, and the epoch passes 100–370 m off. When the normal path
    /// fails, or its first solution has a gross residual on any satellite, or its first χ² test
    /// fails, the epoch is solved again once per satellite with all of that satellite's
    /// measurements left out (leave-one-out, RAIM-style) and the candidate taken whose first
    /// solution has no gross residual and passes the χ² test, with at least one redundant
    /// measurement, and the smallest a-posteriori unit variance; its left-out measurements are
    /// counted as ``GNSSSkipReason/excludedByFDE`` (and in ``GNSSSolution/excluded``). When no
    /// candidate is consistent the normal path's result stands, so the retry never makes an epoch
    /// worse. Consistent candidates farther apart than 50 m are ambiguous: after a
    /// gross residual the epoch is then counted ``GNSSSkipReason/faultNotIsolated`` (candidates km
    /// apart), after a failed χ² test alone the best candidate is taken only when every distant one
    /// fits clearly worse (unit variance ratio above the 99 % quantile of F(dof, dof)), or when a
    /// consistent candidate leaves out only `suspects` (satellites found faulty in recent epochs,
    /// ``GNSSSolution/faultySatellites``: a wrong broadcast orbit or clock lasts for hours), else
    /// the normal path's result stands. It costs one solve per satellite, and only on epochs that need
    /// it: an epoch the normal path solves without a gross residual and with a passing χ² test
    /// runs exactly as before. When no single left-out satellite gives a consistent candidate, pairs
    /// of satellites are left out the same way (two faulty satellites at once; pairs among the 12
    /// satellites whose single leave-out fitted best, ≤ 66 solves). Three or more faulty satellites in
    /// one epoch are not isolated.
    ///
    /// `excluding` leaves satellites out from the start (their pseudoranges counted
    /// ``GNSSSkipReason/excludedByFDE``, or masked below the elevation mask; their Doppler out of
    /// the velocity): a persistent error too small for this epoch's test, found over epochs by
    /// ``GNSSBiasMonitor``. The fault detection above then works on the others. Every satellite's
    /// bias estimate — from the residuals for those in the solution, from the prediction residuals
    /// for those left out — is in ``GNSSSolution/satelliteBiases``.
    ///
    /// Precondition: ``configuration`` passes ``GNSSSolverConfiguration/validate()`` (a programmer
    /// error otherwise: validate a configuration that comes from outside first).
    public func solve(_ measurements: [PreparedMeasurement], time: Double, prior: SIMD3<Double>?,
                      suspects: Set<SatelliteID> = [], excluding: Set<SatelliteID> = [],
                      skipped: inout [GNSSSkipReason: Int]) -> Result<GNSSSolution, GNSSSkipReason> {
        configuration.requireValid()
        return solveChecked(measurements, time: time, prior: prior, suspects: suspects, excluding: excluding, skipped: &skipped)
    }

    /// ``solve(_:time:prior:suspects:excluding:skipped:)`` once the configuration has been checked
    /// (the epoch overload checks it before preparing the measurements: once per epoch).
    func solveChecked(_ measurements: [PreparedMeasurement], time: Double, prior: SIMD3<Double>?,
                      suspects: Set<SatelliteID>, excluding: Set<SatelliteID>,
                      skipped: inout [GNSSSkipReason: Int]) -> Result<GNSSSolution, GNSSSkipReason> {
        let cfg = configuration
        let all = cfg.ionosphereFreeCombination ? PreparedMeasurement.ionosphereFreeCombinations(measurements) : measurements
        // The C/N0 variance factor of every measurement (one `exp` each, shared with the Doppler fit).
        var cnf: [Double] = []
        cnf.reserveCapacity(all.count)
        for a in all { cnf.append(GNSSSolverConfiguration.cn0Factor(a.cn0)) }
        let base = excluding.sorted()
        let normal = attempt(all, cnf: cnf, leaving: base, time: time, prior: prior)
        var chosen = normal
        if normal.needsLeaveOneOut {
            if let retry = leaveOneOut(all, cnf: cnf, time: time, prior: prior, suspects: suspects, excluding: base,
                                       keepAmbiguous: normal.grossSatellites == 0 && normal.isSolved) {
                // A failed retry (the fault detected, not isolated) keeps the normal path's counts.
                if case .success = retry.result { chosen = retry } else { chosen.result = retry.result }
            } else if case .success(var sol) = chosen.result {
                // The normal path stands although its first solution failed: say so.
                sol.unresolvedFault = true
                chosen.result = .success(sol)
            }
        }
        if chosen.belowMask > 0 { skipped[.belowElevationMask, default: 0] += chosen.belowMask }
        if chosen.excludedByFDE > 0 { skipped[.excludedByFDE, default: 0] += chosen.excludedByFDE }
        return chosen.result
    }

    /// One run of the normal path (``solve(_:time:prior:suspects:excluding:skipped:)``) with its counts, which the
    /// caller adds to the skip reasons of the run it keeps.
    struct Attempt {
        var result: Result<GNSSSolution, GNSSSkipReason>
        /// Measurements dropped by the elevation mask, and excluded (gross-error screen, χ² test
        /// and, for a leave-one-out candidate, the left-out satellite's pseudoranges).
        var belowMask = 0, excludedByFDE = 0
        /// Distinct satellites with a residual above the gross-error threshold in the first solution.
        var grossSatellites = 0
        /// Whether the first χ² test (after the gross-error screen) failed.
        var firstTestFailed = false
        /// Degrees of freedom and weighted residual square sum (Σ v²/σ²) of the final solution.
        var dof = 0, weightedSquareSum = Double.nan
        /// The left-out satellites' pseudoranges at the solution: above the elevation mask (counted
        /// excluded) and below it (counted masked); included in the two counts above.
        var leftOut = (aboveMask: 0, belowMask: 0)

        /// Whether the leave-one-out retry is worth running: the normal path failed, or its first
        /// solution had a gross residual or failed its χ² test (the screen and the exclusions then
        /// removed measurements by residual size, which a satellite's wrong orbit or clock spreads
        /// over good ones too).
        var needsLeaveOneOut: Bool {
            if case .failure(let r) = result { return r == .notConverged || r == .tooFewSatellites }
            return grossSatellites >= 1 || firstTestFailed
        }
        /// A consistent leave-one-out candidate: solved, no gross residual in its first solution and
        /// its first χ² test passed.
        /// Without redundancy (dof 0) that holds trivially; such a candidate is only taken when
        /// every other consistent candidate agrees with it (``leaveOneOut(_:cnf:time:prior:keepAmbiguous:)``).
        var isConsistent: Bool {
            if case .success = result { return grossSatellites == 0 && !firstTestFailed }
            return false
        }
        /// Whether the run ended with a solution.
        var isSolved: Bool { if case .success = result { return true } else { return false } }
        /// The a-posteriori unit variance, +∞ without redundancy (ranks candidates).
        var unitVariance: Double { dof > 0 && weightedSquareSum.isFinite ? weightedSquareSum / Double(dof) : .infinity }
    }

    /// Leave-one-out candidates farther apart than this (m) are different answers: the fault is
    /// detected but not isolated. 50 m: several times phone code noise at a usable geometry (σ ≈ 6 m,
    /// PDOP ≲ 3), far below what a faulty satellite that stays consistent with too little
    /// redundancy moves the solution (4–200 km on the Pixel 5 drive, GPS only).
    static let isolationDistance: Double = 50

    /// Satellites among which pairs are left out when no single one explains a fault: the 12
    /// whose single leave-out fitted best (at most 66 pair solves; a GPS-only phone epoch, ≤ 12
    /// satellites, tries every pair). All pairs of 40 satellites, 780 solves, made an epoch of
    /// garbage pseudoranges (±300 m on every one) cost 20× a normal one; with 12, 13×, with 8, 8×,
    /// but 8 missed pairs on the Pixel 5 drive where a gross fault left the single leave-outs
    /// unsolved (G02 + G12 M₀ + 0.01 rad: score 66 → 82 m).
    static let pairCandidates = 12

    /// The leave-one-out retry of ``solve(_:time:prior:suspects:excluding:skipped:)``: every satellite with a
    /// pseudorange left out in turn, then, when none gives a consistent candidate, pairs among the
    /// ``pairCandidates`` best-fitting ones.
    /// Nil when no candidate is consistent; when consistent
    /// candidates disagree by more than ``isolationDistance``: a failure
    /// (``GNSSSkipReason/faultNotIsolated``) unless `keepAmbiguous` (the normal path solved without
    /// a gross residual), then nil unless the best candidate's unit variance is below every distant
    /// candidate's by more than F(dof_other, dof_best)'s 99 % quantile (or a consistent candidate
    /// leaves out only `suspects`: that one is taken); else the consistent
    /// candidate with the smallest a-posteriori unit variance, its left-out pseudoranges counted as
    /// excluded (below the elevation mask at the solution: counted as masked).
    func leaveOneOut(_ all: [PreparedMeasurement], cnf: [Double], time: Double, prior: SIMD3<Double>?, suspects: Set<SatelliteID>,
                     excluding base: [SatelliteID] = [], keepAmbiguous: Bool) -> Attempt? {
        var satellites: [SatelliteID] = []
        for m in all where m.correctedPseudorange != nil && !satellites.contains(m.satellite) && !base.contains(m.satellite) {
            satellites.append(m.satellite)
        }
        // The consistent candidates, in the order tried, with the satellites each left out.
        var consistent: [(attempt: Attempt, solution: GNSSSolution, left: [SatelliteID])] = []
        // Each single leave-out's a-posteriori unit variance (+∞ when it failed): ranks the pairs.
        var singleFit: [(satellite: SatelliteID, unitVariance: Double)] = []
        func consider(_ left: [SatelliteID]) {
            let a = attempt(all, cnf: cnf, leaving: base + left, time: time, prior: prior)
            if left.count == 1 { singleFit.append((left[0], a.unitVariance)) }
            if a.isConsistent, case .success(let sol) = a.result { consistent.append((a, sol, left)) }
        }
        for s in satellites { consider([s]) }
        // No single satellite explains the fault: two faulty satellites are left out in pairs, when
        // enough remain to test (≥ 6 satellites: with the pair out at least 4, one redundant with one
        // clock). Leaving out either faulty satellite removes one of the two errors, so their single
        // leave-outs fit better than a good satellite's: the pairs are formed among the
        // `pairCandidates` satellites whose single leave-out fitted best (at most 66 solves; every
        // pair of 40 satellites would be 780, and an epoch of garbage, where no pair fits either,
        // would pay them all).
        if consistent.isEmpty && satellites.count >= 6 {
            let ranked = singleFit.sorted { $0.unitVariance < $1.unitVariance }.prefix(Self.pairCandidates).map(\.satellite)
            for i in ranked.indices { for j in ranked.indices where j > i { consider([ranked[i], ranked[j]]) } }
        }
        // The smallest unit variance (the first tried of equals), among all or among those leaving
        // out only suspects.
        func smallestUnitVariance(_ candidates: some Sequence<Int>) -> Int? {
            candidates.min { consistent[$0].attempt.unitVariance < consistent[$1].attempt.unitVariance }
        }
        guard let bestIndex = smallestUnitVariance(consistent.indices) else { return nil }
        var (b, sol, bestLeft) = consistent[bestIndex]
        var separation = 0.0, clearlyBest = true
        var quantiles: [Int: Double] = [:]   // F(dof, best's dof) 99 % quantile by dof (a few values)
        for c in consistent {
            let d = c.solution.position - sol.position
            let dist = (d * d).sum().squareRoot()
            separation = max(separation, dist)
            guard dist > Self.isolationDistance, clearlyBest else { continue }
            let q = quantiles[c.attempt.dof] ?? FisherF.quantile(0.99, c.attempt.dof, b.dof)
            quantiles[c.attempt.dof] = q
            if !(c.attempt.unitVariance > b.unitVariance * q) { clearlyBest = false }
        }
        if separation > Self.isolationDistance {
            if !keepAmbiguous { b.result = .failure(.faultNotIsolated); return b }
            if !clearlyBest {
                // Ambiguous: the candidate leaving out satellites isolated in recent epochs (a wrong
                // broadcast orbit or clock persists for the record's hours), when one is consistent.
                let leavingSuspects = consistent.indices.lazy.filter { !suspects.isEmpty && consistent[$0].left.allSatisfy(suspects.contains) }
                guard let k = smallestUnitVariance(leavingSuspects) else { return nil }
                (b, sol, bestLeft) = consistent[k]
            }
        }
        sol.faultySatellites = bestLeft
        b.result = .success(sol)
        return b
    }

    /// The normal path of ``solve(_:time:prior:suspects:excluding:skipped:)`` on `all` without the measurements of
    /// the satellites in `leaving`.
    func attempt(_ all: [PreparedMeasurement], cnf: [Double], leaving: [SatelliteID], time: Double, prior: SIMD3<Double>?) -> Attempt {
        let cfg = configuration
        // The measurements in use, as indices into `all` (nothing copied per exclusion).
        var active: [Int] = []
        active.reserveCapacity(all.count)
        for (i, a) in all.enumerated() where a.correctedPseudorange != nil && !leaving.contains(a.satellite) { active.append(i) }
        var outcome = Attempt(result: .failure(.tooFewSatellites))
        func done(_ r: Result<GNSSSolution, GNSSSkipReason>) -> Attempt { outcome.result = r; return outcome }
        var r = prior ?? SIMD3<Double>(0, 0, 0)
        // Clock per group, carried across exclusions (warm start); a handful of groups: a list.
        var knownGroups: [GNSSSignalGroup] = [], knownClocks: [Double] = []
        func remember(_ groups: [GNSSSignalGroup], _ clocks: [Double]) {
            for (j, g) in groups.enumerated() {
                if let k = knownGroups.firstIndex(of: g) { knownClocks[k] = clocks[j] } else { knownGroups.append(g); knownClocks.append(clocks[j]) }
            }
        }
        var excluded = 0
        let klob = ephemerides.navigation?.klobuchar
        var screened = false, tested = false
        var masked = false
        var exclusions = 0
        // Scratch buffers reused by every iteration and exclusion (no allocation per measurement).
        var rows: [Row] = []
        rows.reserveCapacity(active.count)
        var resid: [Double] = []
        resid.reserveCapacity(active.count)
        var groups: [GNSSSignalGroup] = []
        var gi: [Int] = []
        gi.reserveCapacity(active.count)
        var clocks: [Double] = []
        // Per clock group: Σ w·h (3), Σ w, Σ w·v — the clock columns of the normal equations,
        // eliminated by ``ReducedNormals`` (see there).
        var groupSums: [Double] = []
        groupSums.reserveCapacity(5 * 8)
        // Cholesky factor of the last iteration's reduced 3×3 normal matrix (for the covariance).
        var positionFactor = SIMD16<Double>()
        groups.reserveCapacity(8)
        clocks.reserveCapacity(8)
        knownGroups.reserveCapacity(8)
        knownClocks.reserveCapacity(8)
        // Elevation, ionospheric delay, tropospheric mapping and σ of each measurement (4 per index
        // into `all`; the zenith delay, which changes with height by ≈ 0.3 mm/m, is recomputed) from the
        // last full geometry pass near the surface, and the receiver position of that pass. Later
        // passes within 100 m of it reuse them: over 100 m the elevation of a satellite 20,000 km
        // away changes by < 5 µrad, its delays by < 1 mm (the tropospheric mapping's slope at 10°
        // is ≈ 33 per radian; σ by < 1e-4 of itself), so the atmosphere costs one pass per epoch,
        // not one per iteration.
        var atmosphereCache = [Double](repeating: 0, count: 4 * all.count)
        var atmosphereAt: SIMD3<Double>? = nil
        // True right after the elevation mask removed measurements: `rows` then holds the kept
        // measurements' geometry at the unchanged `r`, exactly what the next iteration computes.
        var rowsAtMask = false
        // d(zenith delay)/dh × up (ECEF) at the position `rows` were computed for (zero away from
        // the surface): the troposphere's part of the design rows (``designRow(_:heightGradient:)``).
        var heightGradient = SIMD3<Double>(0, 0, 0)
        while true {
            // Unknowns: x, y, z + one clock per group present; gi[k] = group column of measurement k.
            groups.removeAll(keepingCapacity: true)
            gi.removeAll(keepingCapacity: true)
            for k in active {
                let g = all[k].group
                if let j = groups.firstIndex(of: g) { gi.append(j) } else { gi.append(groups.count); groups.append(g) }
            }
            let m = 3 + groups.count
            guard active.count >= m, !groups.isEmpty else { return done(.failure(.tooFewSatellites)) }
            clocks.removeAll(keepingCapacity: true)
            for g in groups { clocks.append(knownGroups.firstIndex(of: g).map { knownClocks[$0] } ?? knownClocks.first ?? 0) }
            var converged = false
            let groupCount = groups.count
            groupSums.removeAll(keepingCapacity: true)
            groupSums.append(contentsOf: repeatElement(0, count: 5 * groupCount))
            var lat = 0.0, lon = 0.0, height = 0.0
            var trig = SIMD4<Double>(0, 1, 0, 1)
            var restart = false
            // The last iteration's geometry (at `r` before its step `step`), for the residuals.
            var step = SIMD3<Double>(0, 0, 0)
            var lastNear = false
            for _ in 0..<20 {
                let norm = (r * r).sum().squareRoot()
                let near = norm > 6.2e6 && norm < 6.6e6
                if rowsAtMask {
                    // Restarted after the mask at the same position: the kept rows are already
                    // those this iteration would compute.
                    rowsAtMask = false
                } else {
                    (lat, lon, height, trig) = Self.geodeticRadians(r)
                    var ctx = GeometryContext(receiver: r, lat: lat, lon: lon, height: height, nearSurface: near, time: time,
                                              config: cfg, klobuchar: klob, trig: trig)
                    // This iteration applies the mask (below): rows under it are dropped unused.
                    if near && !masked { ctx.atmosphereMask = cfg.elevationMask * .pi / 180 }
                    Self.computeRows(all, active, cnf, ctx, rows: &rows, cache: &atmosphereCache, cachedAt: &atmosphereAt)
                    heightGradient = ctx.heightGradient
                }
                if near && !masked {
                    // Elevation mask once the position is near the surface.
                    masked = true
                    let maskR = cfg.elevationMask * .pi / 180
                    let before = active.count
                    var kept = 0
                    for i in rows.indices {
                        if rows[i].elevation >= maskR { active[kept] = active[i]; rows[kept] = rows[i]; kept += 1 } else { outcome.belowMask += 1 }
                    }
                    if kept != before {
                        active.removeLast(before - kept)
                        rows.removeLast(before - kept)
                        rowsAtMask = true
                        remember(groups, clocks)
                        restart = true
                        break
                    }
                }
                // Normal equations with the clock columns eliminated: position 3×3 + per-group sums.
                var normals = ReducedNormals()
                let solved = groupSums.withUnsafeMutableBufferPointer { gb -> SIMD3<Double>? in
                    for i in gb.indices { gb[i] = 0 }
                    for (k, row) in rows.enumerated() {
                        let v = all[active[k]].correctedPseudorange! - row.predictedRange - clocks[gi[k]]
                        normals.add(h: Self.designRow(row, heightGradient: heightGradient), weight: 1 / (row.sigma * row.sigma),
                                    residual: v, groupSums: gb.baseAddress! + 5 * gi[k])
                    }
                    guard let dx = normals.solve(groupSums: gb.baseAddress!, groupCount: groupCount, factor: &positionFactor) else { return nil }
                    // Clock corrections from the eliminated rows: Δc_g = (Σ w·v − b_g·Δx) / Σ w.
                    for j in 0..<groupCount {
                        let g = gb.baseAddress! + 5 * j
                        clocks[j] += (g[4] - (g[0] * dx.x + g[1] * dx.y + g[2] * dx.z)) / g[3]
                    }
                    return dx
                }
                guard let dx = solved else { return done(.failure(.tooFewSatellites)) }
                step = dx
                lastNear = near
                r += step
                if abs(step.x) + abs(step.y) + abs(step.z) < 1e-3 { converged = true; break }
                // Near the surface the design rows are the exact gradient, so a step shorter than
                // 30 m leaves second-order terms only: the range's curvature |Δ|²/2ρ < 3e-5 m
                // (the mapping and ionosphere are held over 100 m anyway, above): the next step
                // would be < 0.1 mm at any usable geometry. Stop here (a chained solver — prior =
                // the last epoch — mostly needs this one step).
                if near && max(abs(step.x), abs(step.y), abs(step.z)) < 30 { converged = true; break }
            }
            remember(groups, clocks)
            if restart { continue }
            if !converged { return done(.failure(.notConverged)) }
            // Final residuals at the solution.
            let norm = (r * r).sum().squareRoot()
            guard norm > 6.2e6, norm < 6.6e6 else { return done(.failure(.notConverged)) }
            let geo = Self.geodeticWithTrig(r)
            lat = geo.latitude * .pi / 180; lon = geo.longitude * .pi / 180; height = geo.height; trig = geo.trig
            resid.removeAll(keepingCapacity: true)
            if lastNear {
                // The last step was < 30 m from rows computed near the surface: the last
                // iteration's predictions moved by that step along their exact gradient give the
                // residuals at the solution to < 3e-5 m (the range's curvature) without a second
                // pass of per-satellite trigonometry.
                for (k, row) in rows.enumerated() {
                    let pred = row.predictedRange + (Self.designRow(row, heightGradient: heightGradient) * step).sum()
                    resid.append(all[active[k]].correctedPseudorange! - pred - clocks[gi[k]])
                }
            } else {
                let ctx = GeometryContext(receiver: r, lat: lat, lon: lon, height: height, nearSurface: true, time: time,
                                          config: cfg, klobuchar: klob, trig: trig)
                Self.computeRows(all, active, cnf, ctx, rows: &rows, cache: &atmosphereCache, cachedAt: &atmosphereAt)
                for (k, row) in rows.enumerated() {
                    resid.append(all[active[k]].correctedPseudorange! - row.predictedRange - clocks[gi[k]])
                }
            }
            let dof = active.count - m
            if !screened {
                screened = true
                // Gross residuals, and the distinct satellites they are on (a satellite has one
                // measurement per band).
                var gross = 0
                var sats: [SatelliteID] = []
                for k in active.indices where abs(resid[k]) > cfg.grossErrorThreshold {
                    gross += 1
                    if !sats.contains(all[active[k]].satellite) { sats.append(all[active[k]].satellite) }
                }
                outcome.grossSatellites = sats.count
                if gross > 0 && active.count - gross >= m + 1 {
                    var kept = 0
                    for k in active.indices where !(abs(resid[k]) > cfg.grossErrorThreshold) { active[kept] = active[k]; kept += 1 }
                    active.removeLast(active.count - kept)
                    excluded += gross
                    outcome.excludedByFDE += gross
                    continue
                }
            }
            var ssq = 0.0, worst = 0, worstW = 0.0
            for i in resid.indices {
                let w = resid[i] / rows[i].sigma
                ssq += w * w
                if abs(w) > worstW { worstW = abs(w); worst = i }
            }
            if !tested {
                tested = true
                outcome.firstTestFailed = dof >= 1 && ssq > Self.chiSquareQuantile999(dof)
            }
            if dof >= 3 && exclusions < cfg.maximumExclusions && ssq > Self.chiSquareQuantile999(dof) {
                active.remove(at: worst)
                excluded += 1; exclusions += 1
                outcome.excludedByFDE += 1
                continue
            }
            // Done: covariance (a-priori σ, scaled by the a-posteriori unit variance when > 1) and
            // PDOP (the same elimination with unit weights); only their position blocks are used.
            let unitVar = dof > 0 ? max(1, ssq / Double(dof)) : 1
            let cov = ReducedNormals.inverse(factor: positionFactor)
            let geometryAtSolution = GeometryContext(receiver: r, lat: lat, lon: lon, height: height, nearSurface: true, time: time,
                                                     config: cfg, klobuchar: klob, trig: trig)
            let biases = groupSums.withUnsafeBufferPointer { gb in
                Self.satelliteBiases(all, cnf: cnf, active: active, rows: rows, residuals: resid, groupOf: gi, groups: groups, clocks: clocks,
                                     groupSums: gb.baseAddress!, heightGradient: heightGradient, positionCovariance: cov,
                                     leaving: leaving, at: geometryAtSolution, left: &outcome.leftOut)
            }
            excluded += outcome.leftOut.aboveMask
            outcome.excludedByFDE += outcome.leftOut.aboveMask
            outcome.belowMask += outcome.leftOut.belowMask
            var pdop = Double.nan
            groupSums.withUnsafeMutableBufferPointer { gb in
                for i in gb.indices { gb[i] = 0 }
                var unweighted = ReducedNormals()
                for (k, row) in rows.enumerated() { unweighted.add(h: -row.u, weight: 1, residual: 0, groupSums: gb.baseAddress! + 5 * gi[k]) }
                var f = SIMD16<Double>()
                if unweighted.solve(groupSums: gb.baseAddress!, groupCount: groupCount, factor: &f) != nil {
                    let q = ReducedNormals.inverse(factor: f)
                    pdop = (q[0] + q[4] + q[8]).squareRoot()
                }
            }
            let (he, hn, hu) = Self.enuVariances(position: cov, scale: unitVar, trig: trig)
            // Distinct satellites (a satellite has one measurement per band), per system: a bit
            // per satellite number below 128 (others checked against the earlier measurements).
            var perSystemCounts = SIMD8<Int32>()
            var satellites = 0
            var seenLow = SIMD8<UInt64>(), seenHigh = SIMD8<UInt64>()
            for (k, i) in active.enumerated() {
                let sat = all[i].satellite
                let o = sat.system.order
                if sat.number >= 0 && sat.number < 64 {
                    let bit = UInt64(1) << UInt64(sat.number)
                    if seenLow[o] & bit != 0 { continue }
                    seenLow[o] |= bit
                } else if sat.number >= 64 && sat.number < 128 {
                    let bit = UInt64(1) << UInt64(sat.number - 64)
                    if seenHigh[o] & bit != 0 { continue }
                    seenHigh[o] |= bit
                } else {
                    var earlier = false
                    for j in active[..<k] where all[j].satellite == sat { earlier = true; break }
                    if earlier { continue }
                }
                satellites += 1
                perSystemCounts[o] &+= 1
            }
            // Clocks in ascending group order (insertion sort of a handful of groups).
            for i in 1..<max(1, groups.count) {
                var j = i
                while j > 0 && groups[j] < groups[j - 1] { groups.swapAt(j, j - 1); clocks.swapAt(j, j - 1); j -= 1 }
            }
            var sol = GNSSSolution(time: time, position: r, latitude: geo.latitude, longitude: geo.longitude,
                                   ellipsoidalHeight: geo.height, velocity: nil, clockGroups: groups, clockValues: clocks,
                                   satellitesUsed: satellites, perSystemCounts: perSystemCounts, excluded: excluded, pdop: pdop,
                                   residualRMS: (resid.reduce(0) { $0 + $1 * $1 } / Double(resid.count)).squareRoot(),
                                   horizontalAccuracy: 1.5096 * ((he + hn) / 2).squareRoot(), verticalAccuracy: hu.squareRoot(),
                                   residuals: resid)
            let up = SIMD3(trig[1] * trig[3], trig[1] * trig[2], trig[0])
            // A left-out satellite's Doppler goes with its pseudoranges (its orbit's velocity is suspect too).
            let vd: (velocity: SIMD3<Double>, drift: Double)?
            if leaving.isEmpty {
                vd = velocityAndDrift(all, cn0Factors: cnf, receiver: r, up: up)
            } else {
                let keep = all.indices.filter { !leaving.contains(all[$0].satellite) }
                vd = velocityAndDrift(keep.map { all[$0] }, cn0Factors: keep.map { cnf[$0] }, receiver: r, up: up)
            }
            if let vd { sol.velocity = vd.velocity; sol.clockDrift = vd.drift }
            sol.satelliteBiases = biases
            outcome.dof = dof; outcome.weightedSquareSum = ssq
            return done(.success(sol))
        }
    }

    /// Each satellite's pseudorange bias at a solution (``GNSSSolution/satelliteBiases``).
    ///
    /// A satellite in the fit: an error b common to its pseudoranges (c_a = 1/σ_a in standardised
    /// units) shows in the standardised residuals ṽ = R c b, R = I − H the redundancy matrix, so its
    /// least-squares estimate is b̂ = cᵀṽ / cᵀRc with variance 1/cᵀRc (a-priori units) — the
    /// generalised likelihood ratio test of a bias on that satellite (Baarda's w-test for the
    /// satellite's direction c), which sees a high-leverage satellite's error that least squares
    /// has mostly absorbed into the position. H_ab = (d_aᵀ Q d_b + δ(g_a, g_b)/W_g)/(σ_a σ_b) with
    /// the clock columns eliminated: d = h − m_g, m_g = Σ_g w h / W_g, W_g = Σ_g w, Q the reduced
    /// 3×3 inverse. A satellite without redundancy (cᵀRc ≈ 0, e.g. alone in its clock group) gets no
    /// entry. A satellite left out (`leaving`): each pseudorange's prediction residual, variance
    /// σ² + dᵀQd + 1/W_g, combined as independent; its pseudoranges are counted in `left` (below the
    /// elevation mask at the solution or not); a band whose clock group is not in the fit gets no
    /// prediction.
    static func satelliteBiases(_ all: [PreparedMeasurement], cnf: [Double], active: [Int], rows: [Row], residuals resid: [Double],
                                groupOf gi: [Int], groups: [GNSSSignalGroup], clocks: [Double], groupSums g: UnsafePointer<Double>,
                                heightGradient: SIMD3<Double>, positionCovariance q: SIMD16<Double>, leaving: [SatelliteID],
                                at ctx: GeometryContext, left: inout (aboveMask: Int, belowMask: Int)) -> [GNSSSatelliteBias] {
        let q0 = SIMD3(q[0], q[1], q[2]), q1 = SIMD3(q[3], q[4], q[5]), q2 = SIMD3(q[6], q[7], q[8])
        @inline(__always) func quadratic(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double {
            (a * SIMD3((q0 * b).sum(), (q1 * b).sum(), (q2 * b).sum())).sum()
        }
        @inline(__always) func centred(_ row: Row, group j: Int) -> SIMD3<Double> {
            let s = g + 5 * j
            return designRow(row, heightGradient: heightGradient) - SIMD3(s[0], s[1], s[2]) / s[3]
        }
        let n = rows.count
        var out: [GNSSSatelliteBias] = []
        out.reserveCapacity(n + leaving.count)
        // The measurements in satellite order, ties in row order, so that each satellite's block is
        // one run (its bands are usually adjacent already: then one pass, no sort); keys read once.
        var system = [Int](repeating: 0, count: n), number = [Int](repeating: 0, count: n)
        for k in 0..<n { let sat = all[active[k]].satellite; system[k] = sat.system.order; number[k] = sat.number }
        @inline(__always) func before(_ a: Int, _ b: Int) -> Bool { system[a] != system[b] ? system[a] < system[b] : number[a] < number[b] }
        var order = Array(0..<n)
        var sorted = true
        for k in 1..<max(1, n) where before(k, k - 1) { sorted = false; break }
        if !sorted { order.sort { before($0, $1) || (!before($1, $0) && $0 < $1) } }
        var start = 0
        while start < n {
            let first = order[start]
            let sat = all[active[first]].satellite
            var end = start + 1
            while end < n && system[order[end]] == system[first] && number[order[end]] == number[first] { end += 1 }
            var num = 0.0, den = 0.0, scale = 0.0
            for x in start..<end {
                let a = order[x], sa = rows[a].sigma
                let da = centred(rows[a], group: gi[a])
                num += resid[a] / (sa * sa)
                scale += 1 / (sa * sa)
                for y in start..<end {
                    let b = order[y], sb = rows[b].sigma
                    var h = quadratic(da, b == a ? da : centred(rows[b], group: gi[b]))
                    if gi[a] == gi[b] { h += 1 / g[5 * gi[a] + 3] }
                    den += ((a == b ? 1 : 0) - h / (sa * sb)) / (sa * sb)
                }
            }
            start = end
            // cᵀRc is ≥ 0 up to rounding; a satellite the fit cannot test has none to speak of.
            guard den > 1e-9 * scale, den.isFinite, num.isFinite else { continue }
            out.append(GNSSSatelliteBias(satellite: sat, bias: num / den, variance: 1 / den, inSolution: true))
        }
        guard !leaving.isEmpty else { return out }
        let mask = ctx.config.elevationMask * .pi / 180
        var predictions: [(SatelliteID, Double, Double)] = []
        for (i, m) in all.enumerated() where leaving.contains(m.satellite) {
            guard let pr = m.correctedPseudorange else { continue }
            let row = geometry(m, ctx, cn0Factor: cnf[i])
            guard row.elevation >= mask else { left.belowMask += 1; continue }
            left.aboveMask += 1
            guard let j = groups.firstIndex(of: m.group) else { continue }
            let dj = centred(row, group: j)
            let variance = row.sigma * row.sigma + quadratic(dj, dj) + 1 / g[5 * j + 3]
            let v = pr - row.predictedRange - clocks[j]
            guard v.isFinite, variance.isFinite, variance > 0 else { continue }
            predictions.append((m.satellite, v / variance, 1 / variance))
        }
        var seen: [SatelliteID] = []
        for p in predictions where !seen.contains(p.0) {
            seen.append(p.0)
            var num = 0.0, den = 0.0
            for o in predictions where o.0 == p.0 { num += o.1; den += o.2 }
            out.append(GNSSSatelliteBias(satellite: p.0, bias: num / den, variance: 1 / den, inSolution: false))
        }
        return out
    }

    /// Doppler velocity (ECEF m/s) and clock drift (m/s): WLS on pseudorange rates with velocity and one clock drift,
    /// with the same mask; one pass of exclusion of residuals > 4σ. Nil with fewer than 5 rates.
    /// Precondition: ``configuration`` passes ``GNSSSolverConfiguration/validate()``.
    public func velocityAndDrift(_ all: [PreparedMeasurement], receiver r: SIMD3<Double>, lat: Double, lon: Double) -> (velocity: SIMD3<Double>, drift: Double)? {
        configuration.requireValid()
        return velocityAndDrift(all, cn0Factors: all.map { GNSSSolverConfiguration.cn0Factor($0.cn0) }, receiver: r,
                         up: SIMD3(cos(lat) * cos(lon), cos(lat) * sin(lon), sin(lat)))
    }

    /// ``velocityAndDrift(_:receiver:lat:lon:)`` with the C/N0 factors of `all` already computed and
    /// the local vertical `up` (ECEF unit vector) instead of latitude and longitude.
    func velocityAndDrift(_ all: [PreparedMeasurement], cn0Factors cnf: [Double], receiver r: SIMD3<Double>, up: SIMD3<Double>) -> (velocity: SIMD3<Double>, drift: Double)? {
        // Rows (design h, observation y, weight w = 1/σ²) of the measurements above the mask.
        var rows: [(h: SIMD4<Double>, y: Double, w: Double)] = []
        rows.reserveCapacity(all.count)
        let sinMask = sin(configuration.elevationMask * .pi / 180)
        let nx = up.x, ny = up.y, nz = up.z
        let sigma2 = configuration.rangeRateSigma * configuration.rangeRateSigma
        for (i, m) in all.enumerated() {
            // A rate no signal has (a corrupted value that reached here unprepared) would overflow the normals.
            guard let rr = m.correctedRangeRate, GNSSConstants.isPlausibleRangeRate(rr) else { continue }
            let d = m.satellitePosition - r
            let u = d * (1 / (d * d).sum().squareRoot())
            // Elevation from the unit vector's up component (no trigonometry per satellite).
            let sinEl = nx * u.x + ny * u.y + nz * u.z
            guard sinEl >= sinMask else { continue }
            // σ = rangeRateSigma · √(C/N0 factor) / max(sin el, 0.1), kept as 1/σ².
            let se = max(sinEl, 0.1)
            // rr = u·(v_s − v_r) + drift
            rows.append((SIMD4(-u.x, -u.y, -u.z, 1), rr - (u * m.satelliteVelocity).sum(), se * se / (sigma2 * cnf[i])))
        }
        var pass = 0
        while pass < 2 {
            guard rows.count >= 5 else { return nil }
            // 4×4 normal equations, one SIMD4 row each (on the stack, no allocation).
            var n0 = SIMD4<Double>(), n1 = SIMD4<Double>(), n2 = SIMD4<Double>(), n3 = SIMD4<Double>(), b = SIMD4<Double>()
            for row in rows {
                let wh = row.w * row.h
                n0 += wh[0] * row.h; n1 += wh[1] * row.h; n2 += wh[2] * row.h; n3 += wh[3] * row.h
                b += wh * row.y
            }
            var n = SIMD16<Double>(lowHalf: SIMD8(lowHalf: n0, highHalf: n1), highHalf: SIMD8(lowHalf: n2, highHalf: n3))
            guard SmallMatrix.cholesky(&n, m: 4) else { return nil }
            SmallMatrix.choleskySolve(n, m: 4, &b)
            let x = b
            // Keep residuals within 4σ: v² · w ≤ 16.
            var kept = 0, worst = 0, worstSize = -1.0
            var keep = [Bool](repeating: false, count: rows.count)
            for k in rows.indices {
                let v = rows[k].y - (rows[k].h * x).sum()
                keep[k] = v * v * rows[k].w <= 16
                if keep[k] { kept += 1 }
                let size = Swift.abs(v) * rows[k].w.squareRoot()
                if size > worstSize { worst = k; worstSize = size }
            }
            if pass == 1 || kept == rows.count { return (SIMD3(x[0], x[1], x[2]), x[3]) }
            if kept >= 5 {
                var j = 0
                for k in rows.indices where keep[k] { rows[j] = rows[k]; j += 1 }
                rows.removeLast(rows.count - kept)
                pass += 1
            } else {
                // One gross rate (a Doppler off by 1 kHz among twenty good ones) pulls the fit so
                // far that hardly any residual stays within 4σ, and the epoch lost its velocity:
                // leave out the worst row alone and fit again.
                rows.remove(at: worst)
            }
        }
        return nil
    }

    /// Inverse of an m×m SPD matrix via Cholesky (empty when singular).
    static func inverse(_ a: [Double], _ m: Int) -> [Double] {
        var l = a
        guard l.withUnsafeMutableBufferPointer({ SmallMatrix.cholesky($0.baseAddress!, m: m) }) else { return [] }
        var inv = [Double](repeating: 0, count: m * m)
        l.withUnsafeBufferPointer { lp in
            inv.withUnsafeMutableBufferPointer { ip in
                for j in 0..<m {
                    ip[j * m + j] = 1
                    SmallMatrix.choleskySolve(lp.baseAddress!, m: m, ip.baseAddress! + j, step: m)
                }
            }
        }
        return inv
    }

    /// East, north, up variances of a 3×3 ECEF position covariance (row-major in the first nine
    /// lanes) times `scale`, at the point whose (sin φ, cos φ, sin λ, cos λ) is `trig`.
    static func enuVariances(position c: SIMD16<Double>, scale: Double, trig t: SIMD4<Double>) -> (Double, Double, Double) {
        let sl = t[0], cl = t[1], so = t[2], co = t[3]
        func v(_ a: SIMD3<Double>) -> Double {
            var s = 0.0
            for i in 0..<3 { for j in 0..<3 { s += a[i] * (c[i * 3 + j] * scale) * a[j] } }
            return s
        }
        return (v(SIMD3(-so, co, 0)), v(SIMD3(-sl * co, -sl * so, cl)), v(SIMD3(cl * co, cl * so, sl)))
    }

    /// Geodetic latitude and longitude (degrees, exactly as ``Ellipsoid/geodetic(x:y:z:)`` gives
    /// them), ellipsoidal height (m) and (sin φ, cos φ, sin λ, cos λ) of an ECEF point (WGS84), the
    /// sines and cosines from the same closed form (no further trigonometry).
    @inline(__always)
    static func geodeticWithTrig(_ r: SIMD3<Double>) -> (latitude: Double, longitude: Double, height: Double, trig: SIMD4<Double>) {
        let c = Ellipsoid.wgs84.geodeticComponents(x: r.x, y: r.y, z: r.z)
        let nl = (c.sinLatitude * c.sinLatitude + c.cosLatitude * c.cosLatitude).squareRoot()
        let no = (c.sinLongitude * c.sinLongitude + c.cosLongitude * c.cosLongitude).squareRoot()
        return (Angle.atan2Degrees(c.sinLatitude, c.cosLatitude), Angle.atan2Degrees(c.sinLongitude, c.cosLongitude), c.height,
                SIMD4(c.sinLatitude / nl, c.cosLatitude / nl, c.sinLongitude / no, c.cosLongitude / no))
    }

    /// ``geodeticWithTrig(_:)`` with latitude and longitude in radians.
    @inline(__always)
    static func geodeticRadians(_ r: SIMD3<Double>) -> (Double, Double, Double, SIMD4<Double>) {
        let g = geodeticWithTrig(r)
        return (g.latitude * .pi / 180, g.longitude * .pi / 180, g.height, g.trig)
    }

    /// East, north, up variances of the ECEF position block (first 3×3) of an m×m covariance
    /// (row-major): ``enuVariances(position:scale:trig:)`` of that block.
    static func enuVariances(_ p: [Double], m: Int, lat: Double, lon: Double) -> (Double, Double, Double) {
        guard p.count >= m * m, m >= 3 else { return (.nan, .nan, .nan) }
        var block = SIMD16<Double>()
        for i in 0..<3 { for j in 0..<3 { block[i * 3 + j] = p[i * m + j] } }
        return enuVariances(position: block, scale: 1, trig: SIMD4(sin(lat), cos(lat), sin(lon), cos(lon)))
    }

    /// χ² quantile at 99.9 % for `k` degrees of freedom (Wilson–Hilferty approximation, relative
    /// error < 1 % for k ≥ 3).
    static func chiSquareQuantile999(_ k: Int) -> Double {
        let kk = Double(max(k, 1)), z = 3.0902
        let a = 2 / (9 * kk)
        let t = 1 - a + z * a.squareRoot()
        return kk * t * t * t
    }
}

/// Weighted normal equations of position + one clock per signal group with the clocks eliminated
/// (Schur complement). With the unknowns ordered (x, y, z, c₁ … c_g) the normal matrix is
/// N = [A B; Bᵀ D] with D diagonal (Σ w of each group), so the position step solves the 3×3
/// (A − Σ_g b_g b_gᵀ / d_g) Δx = y − Σ_g b_g (Σ w v)_g / d_g, each clock follows from its own row,
/// Δc_g = ((Σ w v)_g − b_g·Δx) / d_g, and the position block of N⁻¹ is the inverse of the reduced
/// matrix. The same solution as a Cholesky factorization of the whole (3 + g)² matrix (to
/// rounding), with a 3×3 one. Per group the caller keeps five sums: Σ w·h (3), Σ w, Σ w·v.
struct ReducedNormals {
    var a00 = 0.0, a01 = 0.0, a02 = 0.0, a11 = 0.0, a12 = 0.0, a22 = 0.0
    var y = SIMD3<Double>(0, 0, 0)

    /// Adds one measurement: design row (h, 1 in its group's clock column), weight 1/σ², residual.
    @inline(__always)
    mutating func add(h: SIMD3<Double>, weight w: Double, residual v: Double, groupSums g: UnsafeMutablePointer<Double>) {
        let wh = w * h
        a00 += wh.x * h.x; a01 += wh.x * h.y; a02 += wh.x * h.z
        a11 += wh.y * h.y; a12 += wh.y * h.z; a22 += wh.z * h.z
        y += wh * v
        g[0] += wh.x; g[1] += wh.y; g[2] += wh.z; g[3] += w; g[4] += w * v
    }

    /// The position step; `factor` receives the reduced matrix's Cholesky factor (3×3 row-major).
    /// Nil when the reduced matrix is not positive definite (too few measurements or a group
    /// without weight).
    @inline(__always)
    func solve(groupSums: UnsafeMutablePointer<Double>, groupCount: Int, factor: inout SIMD16<Double>) -> SIMD3<Double>? {
        var b00 = a00, b01 = a01, b02 = a02, b11 = a11, b12 = a12, b22 = a22
        var rhs = y
        for j in 0..<groupCount {
            let g = groupSums + 5 * j
            let inv = 1 / g[3]
            let bx = g[0], by = g[1], bz = g[2]
            b00 -= bx * bx * inv; b01 -= bx * by * inv; b02 -= bx * bz * inv
            b11 -= by * by * inv; b12 -= by * bz * inv; b22 -= bz * bz * inv
            rhs -= SIMD3(bx, by, bz) * (g[4] * inv)
        }
        var f = SIMD16<Double>(b00, b01, b02, b01, b11, b12, b02, b12, b22, 0, 0, 0, 0, 0, 0, 0)
        guard SmallMatrix.cholesky(&f, m: 3) else { return nil }
        var x = SIMD4<Double>(rhs.x, rhs.y, rhs.z, 0)
        SmallMatrix.choleskySolve(f, m: 3, &x)
        factor = f
        return SIMD3(x[0], x[1], x[2])
    }

    /// The inverse (3×3 row-major) of the matrix whose Cholesky factor is `f`.
    @inline(__always)
    static func inverse(factor f: SIMD16<Double>) -> SIMD16<Double> {
        var out = SIMD16<Double>()
        for j in 0..<3 {
            var e = SIMD4<Double>(0, 0, 0, 0)
            e[j] = 1
            SmallMatrix.choleskySolve(f, m: 3, &e)
            out[j] = e[0]; out[3 + j] = e[1]; out[6 + j] = e[2]
        }
        return out
    }
}
