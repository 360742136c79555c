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

    /// What ``geometry(_:_:cn0Factor:)`` shares between the measurements of one receiver
    /// position: computed once per iteration, not once per satellite.
    struct GeometryContext {
        var receiver: SIMD3<Double>
        var lat: Double, lon: Double
        var nearSurface: Bool
        var sinLat: Double, cosLat: Double, sinLon: Double, cosLon: Double
        var zenithTroposphere: Double
        /// GPS seconds of week of the epoch (Klobuchar's local time).
        var secondsOfWeek: Double
        var klobuchar: KlobucharCoefficients?
        var config: GNSSSolverConfiguration

        init(receiver r: SIMD3<Double>, lat: Double, lon: Double, height: Double, nearSurface: Bool, time: Double,
             config: GNSSSolverConfiguration, klobuchar: KlobucharCoefficients?,
             zenithTroposphere: Double? = nil, trig: SIMD4<Double>? = nil) {
            receiver = r; self.lat = lat; self.lon = lon; self.nearSurface = nearSurface
            let t = trig ?? SIMD4(sin(lat), cos(lat), sin(lon), cos(lon))
            sinLat = t[0]; cosLat = t[1]; sinLon = t[2]; cosLon = t[3]
            self.zenithTroposphere = zenithTroposphere ?? GNSSModels.troposphereZenith(latitudeRadians: lat, ellipsoidalHeight: height)
            secondsOfWeek = time.truncatingRemainder(dividingBy: GNSSTime.secondsPerWeek)
            self.klobuchar = klobuchar; self.config = config
        }
    }

    static func geometry(_ m: PreparedMeasurement, receiver r: SIMD3<Double>, lat: Double, lon: Double, height: Double,
                         nearSurface: Bool, time: Double, config: GNSSSolverConfiguration, klobuchar: KlobucharCoefficients?,
                         zenithTroposphere: Double? = nil, trig: SIMD4<Double>? = nil, cn0Factor: Double? = nil) -> Row {
        let g = GeometryContext(receiver: r, lat: lat, lon: lon, height: height, nearSurface: nearSurface, time: time,
                                config: config, klobuchar: klobuchar, zenithTroposphere: zenithTroposphere, trig: trig)
        return geometry(m, g, cn0Factor: cn0Factor ?? GNSSSolverConfiguration.cn0Factor(m.cn0))
    }

    /// Range (with Earth rotation during the flight), elevation, Klobuchar + Saastamoinen delays
    /// and code σ of one measurement. The azimuth enters Klobuchar only through its cosine and
    /// sine, taken as north/horizontal and east/horizontal (no `atan2`, `cos`, `sin`).
    @inline(__always)
    static func geometry(_ m: PreparedMeasurement, _ g: GeometryContext, cn0Factor: Double) -> Row {
        let c = GNSSConstants.speedOfLight
        let r = g.receiver
        let p = m.satellitePosition
        var d = p - r
        let tau = (d * d).sum().squareRoot() / c
        let s = GNSSModels.sagnacRotated(p, flightTime: tau)
        d = s - r
        let rho = (d * d).sum().squareRoot()
        var pred = rho
        var el = Double.pi / 2
        var sinEl = 1.0
        if g.nearSurface {
            let sl = g.sinLat, cl = g.cosLat, so = g.sinLon, co = g.cosLon
            sinEl = (cl * co * d.x + cl * so * d.y + sl * d.z) / rho
            el = asin(max(-1, min(1, sinEl)))
            if g.config.useIonosphere, let k = g.klobuchar, el > 0 {
                let e = -so * d.x + co * d.y
                let n = -sl * co * d.x - sl * so * d.y + cl * d.z
                let h = (e * e + n * n).squareRoot()
                // atan2(0, 0) = 0: cos 1, sin 0.
                let cosAz = h > 0 ? n / h : 1, sinAz = h > 0 ? e / h : 0
                pred += m.ionosphereScale * GNSSModels.klobuchar(k, latitudeRadians: g.lat, longitudeRadians: g.lon, elevation: el,
                                                                 cosAzimuth: cosAz, sinAzimuth: sinAz, gpsSecondsOfWeek: g.secondsOfWeek)
            }
            if g.config.useTroposphere && el > 0 {
                pred += g.zenithTroposphere * 1.001 / (0.002001 + sinEl * sinEl).squareRoot()
            }
        }
        let sigma = m.sigmaOverride ?? g.config.codeSigma(group: m.group, sinElevation: sinEl, cn0Factor: cn0Factor)
        return Row(u: d / rho, predictedRange: pred, elevation: el, sigma: sigma, satellite: s)
    }

    /// Solves from prepared measurements (shared with the filter's initialisation).
    public func solve(_ all: [PreparedMeasurement], time: Double, prior: SIMD3<Double>?,
                      skipped: inout [GNSSSkipReason: Int]) -> Result<GNSSSolution, GNSSSkipReason> {
        let cfg = configuration
        // The measurements in use, as indices into `all` (nothing copied per exclusion), and the
        // C/N0 variance factor of every measurement (one `pow` each, shared with the Doppler fit).
        var active: [Int] = []
        active.reserveCapacity(all.count)
        var cnf: [Double] = []
        cnf.reserveCapacity(all.count)
        for (i, a) in all.enumerated() {
            cnf.append(GNSSSolverConfiguration.cn0Factor(a.cn0))
            if a.correctedPseudorange != nil { active.append(i) }
        }
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
        var screened = false
        var masked = false
        var exclusions = 0
        var belowMask = 0
        defer { if belowMask > 0 { skipped[.belowElevationMask, default: 0] += belowMask } }
        // Scratch buffers reused by every iteration and exclusion (no allocation per measurement).
        var rows: [Row] = []
        rows.reserveCapacity(active.count)
        var resid: [Double] = []
        resid.reserveCapacity(active.count)
        var groups: [GNSSSignalGroup] = []
        var gi: [Int] = []
        gi.reserveCapacity(active.count)
        var clocks: [Double] = []
        var nMat: [Double] = [], rhs: [Double] = [], l: [Double] = []
        var hth: [Double] = [], cov: [Double] = [], dopCols: [Double] = []
        groups.reserveCapacity(8)
        clocks.reserveCapacity(8)
        knownGroups.reserveCapacity(8)
        knownClocks.reserveCapacity(8)
        // True right after the elevation mask removed measurements: `rows` then holds the kept
        // measurements' geometry at the unchanged `r`, exactly what the next iteration computes.
        var rowsAtMask = false
        while true {
            // Unknowns: x, y, z + one clock per group present; gi[k] = group column of measurement k.
            groups.removeAll(keepingCapacity: true)
            gi.removeAll(keepingCapacity: true)
            for k in active {
                let g = all[k].group
                if let j = groups.firstIndex(of: g) { gi.append(j) } else { gi.append(groups.count); groups.append(g) }
            }
            let m = 3 + groups.count
            guard active.count >= m, !groups.isEmpty else { return .failure(.tooFewSatellites) }
            clocks.removeAll(keepingCapacity: true)
            for g in groups { clocks.append(knownGroups.firstIndex(of: g).map { knownClocks[$0] } ?? knownClocks.first ?? 0) }
            var converged = false
            if nMat.count != m * m {
                nMat = [Double](repeating: 0, count: m * m); l = nMat; hth = nMat
                rhs = [Double](repeating: 0, count: m)
                cov = [Double](repeating: 0, count: 3 * m); dopCols = cov
            }
            var lat = 0.0, lon = 0.0, height = 0.0
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
                    let geo = Ellipsoid.wgs84.geodetic(x: r.x, y: r.y, z: r.z)
                    lat = geo.latitude * .pi / 180; lon = geo.longitude * .pi / 180; height = geo.ellipsoidalHeight
                    let ctx = GeometryContext(receiver: r, lat: lat, lon: lon, height: height, nearSurface: near, time: time,
                                              config: cfg, klobuchar: klob)
                    rows.removeAll(keepingCapacity: true)
                    for k in active { rows.append(Self.geometry(all[k], ctx, cn0Factor: cnf[k])) }
                }
                if near && !masked {
                    // Elevation mask once the position is near the surface.
                    masked = true
                    let maskR = cfg.elevationMask * .pi / 180
                    let before = active.count
                    var kept = 0
                    for i in rows.indices {
                        if rows[i].elevation >= maskR { active[kept] = active[i]; rows[kept] = rows[i]; kept += 1 } else { belowMask += 1 }
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
                nMat.withUnsafeMutableBufferPointer { nb in
                    rhs.withUnsafeMutableBufferPointer { rb in
                        for i in 0..<(m * m) { nb[i] = 0 }
                        for i in 0..<m { rb[i] = 0 }
                        for (k, row) in rows.enumerated() {
                            let c = 3 + gi[k]
                            let v = all[active[k]].correctedPseudorange! - row.predictedRange - clocks[gi[k]]
                            let w = 1 / (row.sigma * row.sigma)
                            let h0 = -row.u.x, h1 = -row.u.y, h2 = -row.u.z
                            rb[0] += w * h0 * v; rb[1] += w * h1 * v; rb[2] += w * h2 * v; rb[c] += w * v
                            nb[0] += w * h0 * h0; nb[1] += w * h0 * h1; nb[2] += w * h0 * h2; nb[c] += w * h0
                            nb[m + 1] += w * h1 * h1; nb[m + 2] += w * h1 * h2; nb[m + c] += w * h1
                            nb[2 * m + 2] += w * h2 * h2; nb[2 * m + c] += w * h2
                            nb[c * m + c] += w
                        }
                        // Mirror the upper triangle of the position rows/columns.
                        for a in 0..<3 { for b in (a + 1)..<m { nb[b * m + a] = nb[a * m + b] } }
                    }
                }
                let ok = l.withUnsafeMutableBufferPointer { lb in
                    nMat.withUnsafeBufferPointer { nb in for i in 0..<(m * m) { lb[i] = nb[i] } }
                    return SmallMatrix.cholesky(lb.baseAddress!, m: m)
                }
                guard ok else { return .failure(.tooFewSatellites) }
                l.withUnsafeBufferPointer { lp in rhs.withUnsafeMutableBufferPointer { SmallMatrix.choleskySolve(lp.baseAddress!, m: m, $0.baseAddress!) } }
                step = SIMD3(rhs[0], rhs[1], rhs[2])
                lastNear = near
                r += step
                for j in 0..<groups.count { clocks[j] += rhs[3 + j] }
                if abs(rhs[0]) + abs(rhs[1]) + abs(rhs[2]) < 1e-3 { converged = true; break }
            }
            remember(groups, clocks)
            if restart { continue }
            if !converged { return .failure(.notConverged) }
            // Final residuals at the solution.
            let norm = (r * r).sum().squareRoot()
            guard norm > 6.2e6, norm < 6.6e6 else { return .failure(.notConverged) }
            let geo = Ellipsoid.wgs84.geodetic(x: r.x, y: r.y, z: r.z)
            lat = geo.latitude * .pi / 180; lon = geo.longitude * .pi / 180; height = geo.ellipsoidalHeight
            resid.removeAll(keepingCapacity: true)
            if lastNear {
                // The last step was < 1 mm: the geometry of the last iteration, moved along the
                // line of sight by that step (range −u·Δr; σ, u and the atmosphere change by
                // < 1e-9 of themselves over 1 mm), gives the residuals at the solution without a
                // second pass of per-satellite trigonometry.
                for (k, row) in rows.enumerated() {
                    let pred = row.predictedRange - (row.u * step).sum()
                    resid.append(all[active[k]].correctedPseudorange! - pred - clocks[gi[k]])
                }
            } else {
                let ctx = GeometryContext(receiver: r, lat: lat, lon: lon, height: height, nearSurface: true, time: time,
                                          config: cfg, klobuchar: klob)
                rows.removeAll(keepingCapacity: true)
                for (k, i) in active.enumerated() {
                    let row = Self.geometry(all[i], ctx, cn0Factor: cnf[i])
                    rows.append(row)
                    resid.append(all[i].correctedPseudorange! - row.predictedRange - clocks[gi[k]])
                }
            }
            let dof = active.count - m
            if !screened {
                screened = true
                var gross = 0
                for v in resid where abs(v) > cfg.grossErrorThreshold { gross += 1 }
                if gross > 0 && active.count - gross >= m + 1 {
                    var kept = 0
                    for k in active.indices where !(abs(resid[k]) > cfg.grossErrorThreshold) { active[kept] = active[k]; kept += 1 }
                    active.removeLast(active.count - kept)
                    excluded += gross
                    skipped[.excludedByFDE, default: 0] += gross
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
            // Only the position block of the two inverses is used: columns 0–2, solved exactly as
            // ``inverse(_:_:)`` solves them (same values), instead of all m columns.
            let unitVar = dof > 0 ? max(1, ssq / Double(dof)) : 1
            let covOK = Self.inversePositionColumns(nMat, m, scratch: &l, into: &cov)
            for i in 0..<(m * m) { hth[i] = 0 }
            for (k, row) in rows.enumerated() {
                let c = 3 + gi[k]
                let h = -row.u
                for a in 0..<3 { for b in 0..<3 { hth[a * m + b] += h[a] * h[b] }; hth[a * m + c] += h[a]; hth[c * m + a] += h[a] }
                hth[c * m + c] += 1
            }
            let pdop = Self.inversePositionColumns(hth, m, scratch: &l, into: &dopCols)
                ? (dopCols[0] + dopCols[m + 1] + dopCols[2 * m + 2]).squareRoot() : Double.nan
            let (he, hn, hu) = covOK ? Self.enuVariances(columns: cov, m: m, scale: unitVar, lat: lat, lon: lon) : (.nan, .nan, .nan)
            // Distinct satellites (a satellite has one measurement per band), per system: a bit
            // per satellite number below 128 (others checked against the earlier measurements).
            var perSystemCount = (0, 0, 0, 0, 0, 0, 0)
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
                switch sat.system {
                case .gps: perSystemCount.0 += 1
                case .glonass: perSystemCount.1 += 1
                case .galileo: perSystemCount.2 += 1
                case .beidou: perSystemCount.3 += 1
                case .qzss: perSystemCount.4 += 1
                case .navic: perSystemCount.5 += 1
                case .sbas: perSystemCount.6 += 1
                }
            }
            var perSystem: [GNSSSystem: Int] = Dictionary(minimumCapacity: 7)
            for (sys, n) in [(GNSSSystem.gps, perSystemCount.0), (.glonass, perSystemCount.1), (.galileo, perSystemCount.2),
                             (.beidou, perSystemCount.3), (.qzss, perSystemCount.4), (.navic, perSystemCount.5), (.sbas, perSystemCount.6)] where n > 0 {
                perSystem[sys] = n
            }
            var clockDict: [GNSSSignalGroup: Double] = Dictionary(minimumCapacity: groups.count)
            for (j, g) in groups.enumerated() { clockDict[g] = clocks[j] }
            var sol = GNSSSolution(time: time, position: r, latitude: geo.latitude, longitude: geo.longitude,
                                   ellipsoidalHeight: geo.ellipsoidalHeight, velocity: nil, clocks: clockDict,
                                   satellitesUsed: satellites, satellitesPerSystem: perSystem, excluded: excluded, pdop: pdop,
                                   residualRMS: (resid.reduce(0) { $0 + $1 * $1 } / Double(resid.count)).squareRoot(),
                                   horizontalAccuracy: 1.5096 * ((he + hn) / 2).squareRoot(), verticalAccuracy: hu.squareRoot(),
                                   residuals: resid)
            if let vd = velocityAndDrift(all, cn0Factors: cnf, receiver: r, lat: lat, lon: lon) { sol.velocity = vd.velocity; sol.clockDrift = vd.drift }
            return .success(sol)
        }
    }

    /// Doppler velocity (ECEF m/s) and clock drift (m/s): WLS on pseudorange rates with velocity and one clock drift,
    /// with the same mask; one pass of exclusion of residuals > 4σ. Nil with fewer than 5 rates.
    public func velocityAndDrift(_ all: [PreparedMeasurement], receiver r: SIMD3<Double>, lat: Double, lon: Double) -> (velocity: SIMD3<Double>, drift: Double)? {
        velocityAndDrift(all, cn0Factors: all.map { GNSSSolverConfiguration.cn0Factor($0.cn0) }, receiver: r, lat: lat, lon: lon)
    }

    /// ``velocityAndDrift(_:receiver:lat:lon:)`` with the C/N0 factors of `all` already computed.
    func velocityAndDrift(_ all: [PreparedMeasurement], cn0Factors cnf: [Double], receiver r: SIMD3<Double>, lat: Double, lon: Double) -> (velocity: SIMD3<Double>, drift: Double)? {
        var rows: [(h: SIMD4<Double>, y: Double, s: Double)] = []
        rows.reserveCapacity(all.count)
        let sinMask = sin(configuration.elevationMask * .pi / 180)
        let nx = cos(lat) * cos(lon), ny = cos(lat) * sin(lon), nz = sin(lat)
        for (i, m) in all.enumerated() {
            guard let rr = m.correctedRangeRate else { continue }
            let d = m.satellitePosition - r
            let rho = (d * d).sum().squareRoot()
            let u = d / rho
            // Elevation from the unit vector's up component (no trigonometry per satellite).
            let sinEl = nx * u.x + ny * u.y + nz * u.z
            guard sinEl >= sinMask else { continue }
            let s = configuration.rangeRateSigma * cnf[i].squareRoot() / max(sinEl, 0.1)
            // rr = u·(v_s − v_r) + drift
            rows.append((SIMD4(-u.x, -u.y, -u.z, 1), rr - (u * m.satelliteVelocity).sum(), s))
        }
        for pass in 0..<2 {
            guard rows.count >= 5 else { return nil }
            // 4×4 normal equations in two SIMD16/SIMD4 values on the stack (no allocation).
            var n = SIMD16<Double>(), b = SIMD4<Double>()
            for row in rows {
                let w = 1 / (row.s * row.s)
                for a in 0..<4 { b[a] += w * row.h[a] * row.y; for c in 0..<4 { n[a * 4 + c] += w * row.h[a] * row.h[c] } }
            }
            guard SmallMatrix.cholesky(&n, m: 4) else { return nil }
            SmallMatrix.choleskySolve(n, m: 4, &b)
            let x = b
            var kept = 0
            for k in rows.indices where abs(rows[k].y - (rows[k].h * x).sum()) <= 4 * rows[k].s { rows[kept] = rows[k]; kept += 1 }
            if pass == 1 || kept == rows.count { return (SIMD3(x[0], x[1], x[2]), x[3]) }
            rows.removeLast(rows.count - kept)
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

    /// Columns 0, 1, 2 of the inverse of an m×m SPD matrix via Cholesky, into `cols` (3·m,
    /// column j at `cols[j·m ..< (j+1)·m]`): the same solves as ``inverse(_:_:)`` for those
    /// columns, hence the same values. `scratch` receives the factor. False when singular.
    static func inversePositionColumns(_ a: [Double], _ m: Int, scratch l: inout [Double], into cols: inout [Double]) -> Bool {
        guard m >= 3, a.count >= m * m, l.count >= m * m, cols.count >= 3 * m else { return false }
        return l.withUnsafeMutableBufferPointer { lp in
            a.withUnsafeBufferPointer { ap in for i in 0..<(m * m) { lp[i] = ap[i] } }
            guard SmallMatrix.cholesky(lp.baseAddress!, m: m) else { return false }
            cols.withUnsafeMutableBufferPointer { cp in
                for i in 0..<(3 * m) { cp[i] = 0 }
                for j in 0..<3 {
                    cp[j * m + j] = 1
                    SmallMatrix.choleskySolve(UnsafePointer(lp.baseAddress!), m: m, cp.baseAddress! + j * m)
                }
            }
            return true
        }
    }

    /// ``enuVariances(_:m:lat:lon:)`` of a covariance given by its first three columns (as
    /// ``inversePositionColumns(_:_:scratch:into:)`` returns them) times `scale`.
    static func enuVariances(columns c: [Double], m: Int, scale: Double, lat: Double, lon: Double) -> (Double, Double, Double) {
        let sl = sin(lat), cl = cos(lat), so = sin(lon), co = cos(lon)
        func v(_ a: SIMD3<Double>) -> Double {
            var s = 0.0
            for i in 0..<3 { for j in 0..<3 { s += a[i] * (c[j * m + i] * scale) * a[j] } }
            return s
        }
        return (v(SIMD3(-so, co, 0)), v(SIMD3(-sl * co, -sl * so, cl)), v(SIMD3(cl * co, cl * so, sl)))
    }

    /// East, north, up variances of the ECEF position block (first 3×3) of a covariance.
    static func enuVariances(_ p: [Double], m: Int, lat: Double, lon: Double) -> (Double, Double, Double) {
        guard p.count >= m * m, m >= 3 else { return (.nan, .nan, .nan) }
        let sl = sin(lat), cl = cos(lat), so = sin(lon), co = cos(lon)
        func v(_ a: SIMD3<Double>) -> Double {
            var s = 0.0
            for i in 0..<3 { for j in 0..<3 { s += a[i] * p[i * m + j] * a[j] } }
            return s
        }
        return (v(SIMD3(-so, co, 0)), v(SIMD3(-sl * co, -sl * so, cl)), v(SIMD3(cl * co, cl * so, sl)))
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
