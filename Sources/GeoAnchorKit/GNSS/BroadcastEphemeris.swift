import Foundation

/// A Keplerian broadcast ephemeris (GPS LNAV, QZSS, Galileo I/NAV-F/NAV, BeiDou D1/D2) as a
/// RINEX navigation record gives it. Angles in radians (semicircles already converted by RINEX),
/// times as GPS time (seconds since 1980-01-06; BeiDou values converted from BDT).
public struct BroadcastEphemeris: Sendable, Hashable {
    public var satellite: SatelliteID
    /// Clock reference time t_oc and ephemeris reference time t_oe, GPS time (s since epoch).
    public var clockReferenceTime: Double
    public var ephemerisReferenceTime: Double
    /// Clock bias a_f0 (s), drift a_f1 (s/s), drift rate a_f2 (s/s²).
    public var af0: Double, af1: Double, af2: Double
    public var iode: Double
    public var crs: Double, deltaN: Double, m0: Double
    public var cuc: Double, eccentricity: Double, cus: Double, sqrtA: Double
    public var cic: Double, omega0: Double, cis: Double
    public var i0: Double, crc: Double, omega: Double, omegaDot: Double, iDot: Double
    /// SV health word (0 = healthy).
    public var health: Double
    /// Group delay (s): GPS/QZSS T_GD, Galileo BGD(E5a/E1), BeiDou T_GD1 (B1I).
    public var groupDelay: Double
    /// Second group delay (s): Galileo BGD(E5b/E1), BeiDou T_GD2; 0 otherwise.
    public var groupDelay2: Double
    /// Fit interval (s) around t_oe within which the ephemeris is valid.
    public var fitInterval: Double

    /// Satellite antenna position (ECEF m, frame at `time`), velocity (ECEF m/s, including Earth
    /// rotation) and clock offset (s, with the relativistic term, without group delay) at GPS
    /// time `t` (the signal's transmission time).
    ///
    /// IS-GPS-200 table 20-IV (Galileo, QZSS: same; BeiDou MEO/IGSO: BDS-SIS-ICD 5.2.4.12;
    /// BeiDou GEO (PRN 1–5, 59–63) with the ICD's −5° rotation). Accuracy against precise orbits:
    /// see `BroadcastEphemerisTests` (GPS orbit RMS vs CODE MGEX SP3 ≈ 1–2 m).
    public func state(at t: Double) -> (position: SIMD3<Double>, velocity: SIMD3<Double>, clock: Double, clockDrift: Double) {
        let sys = satellite.system
        let mu = sys.gravitationalConstant, we = sys.earthRotationRate
        let a = sqrtA * sqrtA
        let tk = GNSSTime.nearest(t, to: ephemerisReferenceTime) - ephemerisReferenceTime
        let n = (mu / (a * a * a)).squareRoot() + deltaN
        let m = m0 + n * tk
        var e = m
        // Kepler's equation by Newton iterations; converges in ≤ 5 for e < 0.1.
        for _ in 0..<10 {
            let de = (e - eccentricity * sin(e) - m) / (1 - eccentricity * cos(e))
            e -= de
            if abs(de) < 1e-14 { break }
        }
        let sinE = sin(e), cosE = cos(e)
        let edot = n / (1 - eccentricity * cosE)
        let sq = (1 - eccentricity * eccentricity).squareRoot()
        let nu = atan2(sq * sinE, cosE - eccentricity)
        let phi = nu + omega
        let s2 = sin(2 * phi), c2 = cos(2 * phi)
        let u = phi + cus * s2 + cuc * c2
        let r = a * (1 - eccentricity * cosE) + crs * s2 + crc * c2
        let inc = i0 + iDot * tk + cis * s2 + cic * c2
        let phidot = sq * edot / (1 - eccentricity * cosE)
        let udot = phidot * (1 + 2 * (cus * c2 - cuc * s2))
        let rdot = a * eccentricity * sinE * edot + 2 * phidot * (crs * c2 - crc * s2)
        let idot = iDot + 2 * phidot * (cis * c2 - cic * s2)
        let xp = r * cos(u), yp = r * sin(u)
        let xpd = rdot * cos(u) - r * udot * sin(u), ypd = rdot * sin(u) + r * udot * cos(u)
        let toeWeek = ephemerisReferenceTime.truncatingRemainder(dividingBy: GNSSTime.secondsPerWeek)
        // BeiDou t_oe is counted in BDT weeks (BDT = GPS − 14 s).
        let toe = sys == .beidou ? (ephemerisReferenceTime - 14).truncatingRemainder(dividingBy: GNSSTime.secondsPerWeek) : toeWeek
        let isGEO = sys == .beidou && (satellite.number <= 5 || satellite.number >= 59)
        var pos: SIMD3<Double>, vel: SIMD3<Double>
        if isGEO {
            let om = omega0 + omegaDot * tk - we * toe
            let omd = omegaDot
            let xg = xp * cos(om) - yp * cos(inc) * sin(om)
            let yg = xp * sin(om) + yp * cos(inc) * cos(om)
            let zg = yp * sin(inc)
            let f = -5.0 * Double.pi / 180, z = we * tk
            let sf = sin(f), cf = cos(f), sz = sin(z), cz = cos(z)
            pos = SIMD3(xg * cz + yg * sz * cf + zg * sz * sf,
                        -xg * sz + yg * cz * cf + zg * cz * sf,
                        -yg * sf + zg * cf)
            // Velocity by a 1 ms central difference of this same function is not worth the cost here;
            // GEO Doppler use is rare: derivative of the inertial part only, rotated the same way.
            let xgd = xpd * cos(om) - ypd * cos(inc) * sin(om) + yp * sin(inc) * sin(om) * idot - yg * omd
            let ygd = xpd * sin(om) + ypd * cos(inc) * cos(om) - yp * sin(inc) * cos(om) * idot + xg * omd
            let zgd = ypd * sin(inc) + yp * cos(inc) * idot
            let vx = xgd * cz + ygd * sz * cf + zgd * sz * sf, vy = -xgd * sz + ygd * cz * cf + zgd * cz * sf
            vel = SIMD3(vx + we * pos.y, vy - we * pos.x, -ygd * sf + zgd * cf)
        } else {
            let om = omega0 + (omegaDot - we) * tk - we * toe
            let omd = omegaDot - we
            let so = sin(om), co = cos(om), si = sin(inc), ci = cos(inc)
            pos = SIMD3(xp * co - yp * ci * so, xp * so + yp * ci * co, yp * si)
            vel = SIMD3(xpd * co - ypd * ci * so + yp * si * so * idot - pos.y * omd,
                        xpd * so + ypd * ci * co - yp * si * co * idot + pos.x * omd,
                        ypd * si + yp * ci * idot)
        }
        let tc = GNSSTime.nearest(t, to: clockReferenceTime) - clockReferenceTime
        // Relativistic correction F e √A sin E, F = −2√μ / c² (IS-GPS-200 20.3.3.3.3.1).
        let rel = -2 * mu.squareRoot() / (GNSSConstants.speedOfLight * GNSSConstants.speedOfLight) * eccentricity * sqrtA * sinE
        let clock = af0 + af1 * tc + af2 * tc * tc + rel
        let drift = af1 + 2 * af2 * tc
        return (pos, vel, clock, drift)
    }

    /// The clock polynomial a_f0 + a_f1 Δt + a_f2 Δt² (s) at GPS time `t`, without the relativistic term.
    @inlinable
    public func clockPolynomial(at t: Double) -> Double {
        let tc = GNSSTime.nearest(t, to: clockReferenceTime) - clockReferenceTime
        return af0 + af1 * tc + af2 * tc * tc
    }

    /// Whether value `index` of a RINEX Keplerian record (numbered as ``fromRinex(_:toc:_:)``
    /// takes them: 0–2 the clock line, then 4 per orbit line) must be present: the first 27
    /// numbers except those no ephemeris uses (20: GPS codes on L2 / Galileo data sources /
    /// BeiDou spare, 22: L2 P flag / spare, 23: SV accuracy or SISA), which real files leave
    /// blank (every Galileo record of the IGS and DLR merged navigation files has no orbit-5
    /// spare; they were refused as "field 4 is missing", failing the whole file).
    static func isRequiredRinexValue(_ index: Int) -> Bool {
        index < 27 && index != 20 && index != 22 && index != 23
    }

    /// Builds an ephemeris from the 29 numbers of a RINEX Keplerian record (t_oc, then the
    /// clock and 7 broadcast orbit lines in file order). `toc` is GPS time. Returns nil when the
    /// record is not usable: √A outside 1000…10,000 √m (GNSS orbits are 5,100–6,500), eccentricity
    /// outside [0, 1), or a term far beyond any broadcast value (|af0| ≤ 1 s, |af1| ≤ 1e-5,
    /// |af2| ≤ 1e-8, |C_rs|, |C_rc| ≤ 10 km, |C_uc|… ≤ 0.01 rad, |Δn|, |Ω̇|, |IDOT| ≤ 1e-5 rad/s,
    /// |T_GD| ≤ 10 µs: typical values are 100–1000 × smaller), an angle (M₀, Ω₀, i₀, ω) beyond
    /// ±2π (broadcast angles are within ±π), or t_oe outside 0…604,800 s of week or more than half
    /// the fit interval from t_oc (they are equal in every record of the project's real files).
    /// One √A, C_rs or af2 of 1e300 once made every epoch unsolvable and the filter's state NaN;
    /// one M₀ of 7 rad put the satellite 20,000 km from its orbit position and the GPS-only
    /// Pixel 5 p95 at 22 km. A fit interval outside 0…98 h (the largest the ICD defines) is taken
    /// as the default 4 h (1e6 h kept a 22-h-old record in use for the whole file).
    ///
    /// t_oe is placed in the week of t_oc (the nearest instant with its seconds of week): the
    /// record's week number is not used, so a week written modulo 1024 or corrupted (which left
    /// the record in the file but never used, silently) does not matter.
    static func fromRinex(_ sat: SatelliteID, toc: Double, _ v: [Double]) -> BroadcastEphemeris? {
        guard v.count >= 27 else { return nil }
        // v[0..2] clock; orbit line k holds v[3+4(k-1) ..< 3+4k].
        let toeSeconds = v[11]
        guard v[10] >= 1000, v[10] <= 10_000, v[8] >= 0, v[8] < 1,
              toeSeconds >= 0, toeSeconds < GNSSTime.secondsPerWeek else { return nil }
        func within(_ i: Int, _ limit: Double) -> Bool { Swift.abs(v[i]) <= limit }
        guard within(0, 1), within(1, 1e-5), within(2, 1e-8), within(4, 1e4), within(16, 1e4),
              within(7, 0.01), within(9, 0.01), within(12, 0.01), within(14, 0.01),
              within(5, 1e-5), within(18, 1e-5), within(19, 1e-5), within(25, 1e-5),
              sat.system == .gps || sat.system == .qzss || within(26, 1e-5),   // GPS/QZSS: IODC there
              within(6, 2 * .pi), within(13, 2 * .pi), within(15, 2 * .pi), within(17, 2 * .pi) else { return nil }
        // t_oe's seconds of week are in the system's time (BDT = GPS − 14 s for BeiDou): the
        // instant with those seconds nearest to t_oc (IEEE remainder: exact, within half a week).
        let offset = sat.system == .beidou ? 14.0 : 0
        let toe = toc + (toeSeconds + offset - toc).remainder(dividingBy: GNSSTime.secondsPerWeek)
        let fit = sat.system == .gps || sat.system == .qzss ? (v.count > 28 && v[28] > 0 && v[28] <= 98 ? v[28] * 3600 : 4 * 3600) : 4 * 3600
        guard Swift.abs(toe - toc) <= fit / 2 else { return nil }
        return BroadcastEphemeris(
            satellite: sat, clockReferenceTime: toc, ephemerisReferenceTime: toe,
            af0: v[0], af1: v[1], af2: v[2], iode: v[3], crs: v[4], deltaN: v[5], m0: v[6],
            cuc: v[7], eccentricity: v[8], cus: v[9], sqrtA: v[10],
            cic: v[12], omega0: v[13], cis: v[14], i0: v[15], crc: v[16], omega: v[17], omegaDot: v[18],
            iDot: v[19], health: v[24], groupDelay: v[25], groupDelay2: sat.system == .gps || sat.system == .qzss ? 0 : v[26],
            fitInterval: fit)
    }
}

/// Klobuchar ionosphere coefficients (IS-GPS-200 20.3.3.5.2.5): α in s, s/semicircle, …;
/// β in s, s/semicircle, ….
public struct KlobucharCoefficients: Sendable, Hashable {
    public var alpha: SIMD4<Double>
    public var beta: SIMD4<Double>
    public init(alpha: SIMD4<Double>, beta: SIMD4<Double>) { self.alpha = alpha; self.beta = beta }

    /// Largest |α₀…α₃| the broadcast message holds (IS-GPS-200 table 20-X: 8-bit signed fields
    /// with scale factors 2⁻³⁰, 2⁻²⁷, 2⁻²⁴, 2⁻²⁴ s/semicircleⁿ), rounded up. The navigation
    /// readers refuse a coefficient beyond it: one α₀ of 1e-3 s (a 300 km delay) left none of the
    /// Pixel 5 drive's 794 epochs solved.
    public static let alphaLimits = SIMD4<Double>(1.2e-7, 9.6e-7, 7.7e-6, 7.7e-6)
    /// Largest |β₀…β₃| the broadcast message holds (8-bit signed, scale factors 2¹¹, 2¹⁴, 2¹⁶,
    /// 2¹⁶ s/semicircleⁿ), rounded up.
    public static let betaLimits = SIMD4<Double>(2.7e5, 2.2e6, 8.4e6, 8.4e6)
}
