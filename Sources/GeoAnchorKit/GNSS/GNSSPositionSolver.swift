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
        if group.system == .glonass { s0 *= glonassSigmaFactor }
        let se = max(sinElevation, 0.1)
        return s0 * ((1 + 1 / (se * se)) / 2 * cnf).squareRoot()
    }

    /// The C/N0 variance factor 10^((40 − C/N0)/10), clamped to [0.5, 30].
    @inlinable
    public static func cn0Factor(_ cn0: Double) -> Double { min(30, max(0.5, pow(10, (40 - cn0) / 10))) }
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
    /// Receiver clock per signal group, m.
    public var clocks: [GNSSSignalGroup: Double]
    /// Satellites used (distinct), and per system.
    public var satellitesUsed: Int
    public var satellitesPerSystem: [GNSSSystem: Int]
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
    /// centre). Measurement-level drops are added to `skipped`.
    public func solve(_ epoch: GNSSEpoch, prior: SIMD3<Double>? = nil,
                      skipped: inout [GNSSSkipReason: Int]) -> Result<GNSSSolution, GNSSSkipReason> {
        guard epoch.flag <= 1 else { return .failure(.epochFlag) }
        let ms = ephemerides.prepare(epoch, systems: configuration.systems, minimumCN0: configuration.minimumCN0, skipped: &skipped)
        return solve(ms, time: epoch.time, prior: prior, skipped: &skipped)
    }

    /// Geometry and corrections of one measurement at receiver position `r`.
    struct Row {
        var u: SIMD3<Double>      // unit vector receiver → satellite
        var predictedRange: Double // geometric range + atmosphere, m
        var elevation: Double
        var sigma: Double
        var satellite: SIMD3<Double>
    }

    static func geometry(_ m: PreparedMeasurement, receiver r: SIMD3<Double>, lat: Double, lon: Double, height: Double,
                         nearSurface: Bool, time: Double, config: GNSSSolverConfiguration, klobuchar: KlobucharCoefficients?,
                         zenithTroposphere: Double? = nil, trig: SIMD4<Double>? = nil, cn0Factor: Double? = nil) -> Row {
        let c = GNSSConstants.speedOfLight
        let p = m.satellitePosition
        var d = p - r
        let tau = (d * d).sum().squareRoot() / c
        let s = GNSSModels.sagnacRotated(p, flightTime: tau)
        d = s - r
        let rho = (d * d).sum().squareRoot()
        var pred = rho
        var el = Double.pi / 2
        var sinEl = 1.0
        if nearSurface {
            let t = trig ?? SIMD4(sin(lat), cos(lat), sin(lon), cos(lon))
            let sl = t[0], cl = t[1], so = t[2], co = t[3]
            sinEl = (cl * co * d.x + cl * so * d.y + sl * d.z) / rho
            el = asin(max(-1, min(1, sinEl)))
            if config.useIonosphere, let k = klobuchar, el > 0 {
                let e = -so * d.x + co * d.y
                let n = -sl * co * d.x - sl * so * d.y + cl * d.z
                var az = atan2(e, n)
                if az < 0 { az += 2 * .pi }
                let tow = time.truncatingRemainder(dividingBy: GNSSTime.secondsPerWeek)
                pred += m.ionosphereScale * GNSSModels.klobuchar(k, latitudeRadians: lat, longitudeRadians: lon, elevation: el, azimuth: az, gpsSecondsOfWeek: tow)
            }
            if config.useTroposphere && el > 0 {
                let z = zenithTroposphere ?? GNSSModels.troposphereZenith(latitudeRadians: lat, ellipsoidalHeight: height)
                pred += z * 1.001 / (0.002001 + sinEl * sinEl).squareRoot()
            }
        }
        let sigma = m.sigmaOverride ?? config.codeSigma(group: m.group, sinElevation: sinEl,
                                                        cn0Factor: cn0Factor ?? GNSSSolverConfiguration.cn0Factor(m.cn0))
        return Row(u: d / rho, predictedRange: pred, elevation: el, sigma: sigma, satellite: s)
    }

    /// Solves from prepared measurements (shared with the filter's initialisation).
    public func solve(_ all: [PreparedMeasurement], time: Double, prior: SIMD3<Double>?,
                      skipped: inout [GNSSSkipReason: Int]) -> Result<GNSSSolution, GNSSSkipReason> {
        let cfg = configuration
        var active = all.filter { $0.correctedPseudorange != nil }
        var r = prior ?? SIMD3<Double>(0, 0, 0)
        var clockOf: [GNSSSignalGroup: Double] = [:]   // carried across exclusions (warm start)
        var excluded = 0
        let klob = ephemerides.navigation?.klobuchar
        var screened = false
        var masked = false
        var exclusions = 0
        // Scratch buffers reused by every iteration (no allocation per measurement).
        var rows: [Row] = []
        rows.reserveCapacity(active.count)
        var resid: [Double] = []
        resid.reserveCapacity(active.count)
        while true {
            // Unknowns: x, y, z + one clock per group present; gi[k] = group column of measurement k.
            var groups: [GNSSSignalGroup] = []
            var gi = [Int](repeating: 0, count: active.count)
            for (k, m) in active.enumerated() {
                if let j = groups.firstIndex(of: m.group) { gi[k] = j } else { gi[k] = groups.count; groups.append(m.group) }
            }
            let m = 3 + groups.count
            guard active.count >= m, !groups.isEmpty else { return .failure(.tooFewSatellites) }
            var clocks = groups.map { clockOf[$0] ?? clockOf.values.first ?? 0 }
            let cnf = active.map { GNSSSolverConfiguration.cn0Factor($0.cn0) }
            var converged = false
            var nMat = [Double](repeating: 0, count: m * m)
            var rhs = [Double](repeating: 0, count: m)
            var lat = 0.0, lon = 0.0, height = 0.0
            var restart = false
            for _ in 0..<20 {
                let norm = (r * r).sum().squareRoot()
                let near = norm > 6.2e6 && norm < 6.6e6
                let geo = Ellipsoid.wgs84.geodetic(x: r.x, y: r.y, z: r.z)
                lat = geo.latitude * .pi / 180; lon = geo.longitude * .pi / 180; height = geo.ellipsoidalHeight
                let zt = GNSSModels.troposphereZenith(latitudeRadians: lat, ellipsoidalHeight: height)
                let trig = SIMD4(sin(lat), cos(lat), sin(lon), cos(lon))
                rows.removeAll(keepingCapacity: true)
                for (k, a) in active.enumerated() {
                    rows.append(Self.geometry(a, receiver: r, lat: lat, lon: lon, height: height, nearSurface: near, time: time,
                                              config: cfg, klobuchar: klob, zenithTroposphere: zt, trig: trig, cn0Factor: cnf[k]))
                }
                if near && !masked {
                    // Elevation mask once the position is near the surface.
                    masked = true
                    let maskR = cfg.elevationMask * .pi / 180
                    let before = active.count
                    var keep: [PreparedMeasurement] = []
                    keep.reserveCapacity(before)
                    for (i, row) in rows.enumerated() {
                        if row.elevation >= maskR { keep.append(active[i]) } else { skipped[.belowElevationMask, default: 0] += 1 }
                    }
                    if keep.count != before {
                        active = keep
                        for (j, g) in groups.enumerated() { clockOf[g] = clocks[j] }
                        restart = true
                        break
                    }
                }
                for i in 0..<(m * m) { nMat[i] = 0 }
                for i in 0..<m { rhs[i] = 0 }
                for (k, row) in rows.enumerated() {
                    let c = 3 + gi[k]
                    let v = active[k].correctedPseudorange! - row.predictedRange - clocks[gi[k]]
                    let w = 1 / (row.sigma * row.sigma)
                    let h0 = -row.u.x, h1 = -row.u.y, h2 = -row.u.z
                    rhs[0] += w * h0 * v; rhs[1] += w * h1 * v; rhs[2] += w * h2 * v; rhs[c] += w * v
                    nMat[0] += w * h0 * h0; nMat[1] += w * h0 * h1; nMat[2] += w * h0 * h2; nMat[c] += w * h0
                    nMat[m + 1] += w * h1 * h1; nMat[m + 2] += w * h1 * h2; nMat[m + c] += w * h1
                    nMat[2 * m + 2] += w * h2 * h2; nMat[2 * m + c] += w * h2
                    nMat[c * m + c] += w
                }
                // Mirror the upper triangle of the position rows/columns.
                for a in 0..<3 { for b in (a + 1)..<m { nMat[b * m + a] = nMat[a * m + b] } }
                var l = nMat
                let ok = l.withUnsafeMutableBufferPointer { SmallMatrix.cholesky($0.baseAddress!, m: m) }
                guard ok else { return .failure(.tooFewSatellites) }
                l.withUnsafeBufferPointer { lp in rhs.withUnsafeMutableBufferPointer { SmallMatrix.choleskySolve(lp.baseAddress!, m: m, $0.baseAddress!) } }
                r += SIMD3(rhs[0], rhs[1], rhs[2])
                for j in 0..<groups.count { clocks[j] += rhs[3 + j] }
                if abs(rhs[0]) + abs(rhs[1]) + abs(rhs[2]) < 1e-3 { converged = true; break }
            }
            for (j, g) in groups.enumerated() { clockOf[g] = clocks[j] }
            if restart { continue }
            if !converged { return .failure(.notConverged) }
            // Final residuals at the solution.
            let norm = (r * r).sum().squareRoot()
            guard norm > 6.2e6, norm < 6.6e6 else { return .failure(.notConverged) }
            let geo = Ellipsoid.wgs84.geodetic(x: r.x, y: r.y, z: r.z)
            lat = geo.latitude * .pi / 180; lon = geo.longitude * .pi / 180; height = geo.ellipsoidalHeight
            let zt = GNSSModels.troposphereZenith(latitudeRadians: lat, ellipsoidalHeight: height)
            let trig = SIMD4(sin(lat), cos(lat), sin(lon), cos(lon))
            rows.removeAll(keepingCapacity: true)
            resid.removeAll(keepingCapacity: true)
            for (k, a) in active.enumerated() {
                let row = Self.geometry(a, receiver: r, lat: lat, lon: lon, height: height, nearSurface: true, time: time,
                                        config: cfg, klobuchar: klob, zenithTroposphere: zt, trig: trig, cn0Factor: cnf[k])
                rows.append(row)
                resid.append(a.correctedPseudorange! - row.predictedRange - clocks[gi[k]])
            }
            let dof = active.count - m
            if !screened {
                screened = true
                let gross = resid.indices.filter { abs(resid[$0]) > cfg.grossErrorThreshold }
                if !gross.isEmpty && active.count - gross.count >= m + 1 {
                    let bad = Set(gross)
                    active = active.enumerated().filter { !bad.contains($0.offset) }.map(\.element)
                    excluded += gross.count
                    skipped[.excludedByFDE, default: 0] += gross.count
                    continue
                }
            }
            var ssq = 0.0, worst = 0, worstW = 0.0
            for i in resid.indices {
                let w = resid[i] / rows[i].sigma
                ssq += w * w
                if abs(w) > worstW { worstW = abs(w); worst = i }
            }
            if dof >= 3 && exclusions < cfg.maximumExclusions && ssq > Self.chiSquareQuantile999(dof) {
                active.remove(at: worst)
                excluded += 1; exclusions += 1
                skipped[.excludedByFDE, default: 0] += 1
                continue
            }
            // Done: covariance (a-priori σ, scaled by the a-posteriori unit variance when > 1) and DOP.
            var inv = Self.inverse(nMat, m)
            let unitVar = dof > 0 ? max(1, ssq / Double(dof)) : 1
            for i in inv.indices { inv[i] *= unitVar }
            var hth = [Double](repeating: 0, count: m * m)
            for (k, row) in rows.enumerated() {
                let c = 3 + gi[k]
                let h = [-row.u.x, -row.u.y, -row.u.z]
                for a in 0..<3 { for b in 0..<3 { hth[a * m + b] += h[a] * h[b] }; hth[a * m + c] += h[a]; hth[c * m + a] += h[a] }
                hth[c * m + c] += 1
            }
            let q = Self.inverse(hth, m)
            let pdop = q.isEmpty ? Double.nan : (q[0] + q[m + 1] + q[2 * m + 2]).squareRoot()
            let (he, hn, hu) = Self.enuVariances(inv, m: m, lat: lat, lon: lon)
            let sats = Set(active.map(\.satellite))
            var perSystem: [GNSSSystem: Int] = [:]
            for s in sats { perSystem[s.system, default: 0] += 1 }
            var clockDict: [GNSSSignalGroup: Double] = [:]
            for (j, g) in groups.enumerated() { clockDict[g] = clocks[j] }
            var sol = GNSSSolution(time: time, position: r, latitude: geo.latitude, longitude: geo.longitude,
                                   ellipsoidalHeight: geo.ellipsoidalHeight, velocity: nil, clocks: clockDict,
                                   satellitesUsed: sats.count, satellitesPerSystem: perSystem, excluded: excluded, pdop: pdop,
                                   residualRMS: (resid.reduce(0) { $0 + $1 * $1 } / Double(resid.count)).squareRoot(),
                                   horizontalAccuracy: 1.5096 * ((he + hn) / 2).squareRoot(), verticalAccuracy: hu.squareRoot(),
                                   residuals: resid)
            if let vd = velocityAndDrift(all, receiver: r, lat: lat, lon: lon) { sol.velocity = vd.velocity; sol.clockDrift = vd.drift }
            return .success(sol)
        }
    }

    /// Doppler velocity (ECEF m/s) and clock drift (m/s): WLS on pseudorange rates with velocity and one clock drift,
    /// with the same mask; one pass of exclusion of residuals > 4σ. Nil with fewer than 5 rates.
    public func velocityAndDrift(_ all: [PreparedMeasurement], receiver r: SIMD3<Double>, lat: Double, lon: Double) -> (velocity: SIMD3<Double>, drift: Double)? {
        var rows: [(h: SIMD4<Double>, y: Double, s: Double)] = []
        let sinMask = sin(configuration.elevationMask * .pi / 180)
        let nx = cos(lat) * cos(lon), ny = cos(lat) * sin(lon), nz = sin(lat)
        for m in all {
            guard let rr = m.correctedRangeRate else { continue }
            let d = m.satellitePosition - r
            let rho = (d * d).sum().squareRoot()
            let u = d / rho
            // Elevation from the unit vector's up component (no trigonometry per satellite).
            let sinEl = nx * u.x + ny * u.y + nz * u.z
            guard sinEl >= sinMask else { continue }
            let s = configuration.rangeRateSigma * min(30, max(0.5, pow(10, (40 - m.cn0) / 10))).squareRoot() / max(sinEl, 0.1)
            // rr = u·(v_s − v_r) + drift
            rows.append((SIMD4(-u.x, -u.y, -u.z, 1), rr - (u * m.satelliteVelocity).sum(), s))
        }
        for pass in 0..<2 {
            guard rows.count >= 5 else { return nil }
            var n = [Double](repeating: 0, count: 16), b = [Double](repeating: 0, count: 4)
            for row in rows {
                let w = 1 / (row.s * row.s)
                for a in 0..<4 { b[a] += w * row.h[a] * row.y; for c in 0..<4 { n[a * 4 + c] += w * row.h[a] * row.h[c] } }
            }
            guard n.withUnsafeMutableBufferPointer({ SmallMatrix.cholesky($0.baseAddress!, m: 4) }) else { return nil }
            n.withUnsafeBufferPointer { lp in b.withUnsafeMutableBufferPointer { SmallMatrix.choleskySolve(lp.baseAddress!, m: 4, $0.baseAddress!) } }
            let x = SIMD4(b[0], b[1], b[2], b[3])
            let kept = rows.filter { abs($0.y - ($0.h * x).sum()) <= 4 * $0.s }
            if pass == 1 || kept.count == rows.count { return (SIMD3(x[0], x[1], x[2]), x[3]) }
            rows = kept
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

    /// East, north, up variances of the ECEF position block (first 3×3) of a covariance.
    static func enuVariances(_ p: [Double], m: Int, lat: Double, lon: Double) -> (Double, Double, Double) {
        guard p.count >= m * m, m >= 3 else { return (.nan, .nan, .nan) }
        let sl = sin(lat), cl = cos(lat), so = sin(lon), co = cos(lon)
        let rot = [SIMD3(-so, co, 0), SIMD3(-sl * co, -sl * so, cl), SIMD3(cl * co, cl * so, sl)]
        func v(_ a: SIMD3<Double>) -> Double {
            var s = 0.0
            for i in 0..<3 { for j in 0..<3 { s += a[i] * p[i * m + j] * a[j] } }
            return s
        }
        return (v(rot[0]), v(rot[1]), v(rot[2]))
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
