import Foundation

/// Propagation models for pseudoranges: geometry (elevation, azimuth), Klobuchar ionosphere,
/// Saastamoinen troposphere with a mapping function.
public enum GNSSModels {
    /// Elevation and azimuth (radians) of `satellite` seen from `receiver` (ECEF m) whose geodetic
    /// latitude/longitude (radians) are given.
    @inlinable
    public static func elevationAzimuth(receiver r: SIMD3<Double>, latitudeRadians lat: Double, longitudeRadians lon: Double,
                                        satellite s: SIMD3<Double>) -> (elevation: Double, azimuth: Double) {
        let d = s - r
        let sl = sin(lat), cl = cos(lat), so = sin(lon), co = cos(lon)
        let e = -so * d.x + co * d.y
        let n = -sl * co * d.x - sl * so * d.y + cl * d.z
        let u = cl * co * d.x + cl * so * d.y + sl * d.z
        let h = (e * e + n * n).squareRoot()
        var az = atan2(e, n)
        if az < 0 { az += 2 * .pi }
        return (atan2(u, h), az)
    }

    /// Klobuchar ionospheric delay on GPS L1 (m) (IS-GPS-200 20.3.3.5.2.5, figure 20-4).
    /// Scale by (f_L1 / f)² for another frequency. Accuracy: the model removes about half of the
    /// ionospheric delay (RMS), per the ICD.
    /// - Parameters: latitude/longitude of the receiver (radians), elevation/azimuth (radians),
    ///   `gpsSecondsOfWeek` the GPS time of week (s).
    public static func klobuchar(_ k: KlobucharCoefficients, latitudeRadians lat: Double, longitudeRadians lon: Double,
                                 elevation el: Double, azimuth az: Double, gpsSecondsOfWeek tow: Double) -> Double {
        klobuchar(k, latitudeRadians: lat, longitudeRadians: lon, elevation: el, cosAzimuth: cos(az), sinAzimuth: sin(az), gpsSecondsOfWeek: tow)
    }

    /// ``klobuchar(_:latitudeRadians:longitudeRadians:elevation:azimuth:gpsSecondsOfWeek:)`` from
    /// the cosine and sine of the azimuth (the solver has them from the east/north components
    /// without `atan2`, `cos` and `sin`).
    @inline(__always)
    static func klobuchar(_ k: KlobucharCoefficients, latitudeRadians lat: Double, longitudeRadians lon: Double,
                          elevation el: Double, cosAzimuth cosAz: Double, sinAzimuth sinAz: Double, gpsSecondsOfWeek tow: Double) -> Double {
        let toSC = 1 / Double.pi
        let elSC = el * toSC, latSC = lat * toSC, lonSC = lon * toSC   // semicircles
        let psi = 0.0137 / (elSC + 0.11) - 0.022
        var phiI = latSC + psi * cosAz
        phiI = min(0.416, max(-0.416, phiI))
        let lambdaI = lonSC + psi * sinAz / cos(phiI * .pi)
        let phiM = phiI + 0.064 * cos((lambdaI - 1.617) * .pi)
        var t = 43_200 * lambdaI + tow
        t = remainderOfDay(t); if t < 0 { t += 86_400 }
        let q = 0.53 - elSC
        let f = 1 + 16 * q * q * q
        var amp = k.alpha[0] + phiM * (k.alpha[1] + phiM * (k.alpha[2] + phiM * k.alpha[3]))
        var per = k.beta[0] + phiM * (k.beta[1] + phiM * (k.beta[2] + phiM * k.beta[3]))
        amp = max(0, amp); per = max(72_000, per)
        let x = 2 * .pi * (t - 50_400) / per
        let x2 = x * x
        let delay = abs(x) < 1.57 ? f * (5e-9 + amp * (1 - x2 / 2 + x2 * x2 * (1.0 / 24))) : f * 5e-9
        return delay * GNSSConstants.speedOfLight
    }

    /// `t.truncatingRemainder(dividingBy: 86 400)` without `fmod` (a loop in the C library, once
    /// per satellite and iteration here), exactly: q·86 400 is exact for the quotient q, and
    /// t − q·86 400 is exact by Sterbenz's lemma; a quotient rounded up in magnitude leaves the
    /// remainder with the wrong sign, and one addition of ±86 400 (exact: the true remainder is
    /// representable) corrects it.
    @inline(__always)
    static func remainderOfDay(_ t: Double) -> Double {
        guard abs(t) < 1e12 else { return t.truncatingRemainder(dividingBy: 86_400) }
        let q = (t / 86_400).rounded(.towardZero)
        var r = t - q * 86_400
        if t >= 0 { if r < 0 { r += 86_400 } } else if r > 0 { r -= 86_400 }
        return r
    }

    /// Tropospheric delay (m): Saastamoinen zenith delays (hydrostatic + wet) for a standard
    /// atmosphere at the receiver's ellipsoidal height (15 °C, 1013.25 hPa, 50 % humidity at sea
    /// level; the same defaults as RTKLIB's `tropmodel`), times the mapping function
    /// 1.001 / √(0.002001 + sin² e) (RTCA DO-229 A.4.2.4). Heights are clamped to [−100, 10 000] m.
    /// Accuracy: a few decimetres at the zenith, ≈ 1–2 m at 10° elevation (no weather data).
    public static func troposphere(latitudeRadians lat: Double, ellipsoidalHeight h0: Double, elevation el: Double) -> Double {
        guard el > 0 else { return 0 }
        return troposphereZenith(latitudeRadians: lat, ellipsoidalHeight: h0) * troposphereMapping(elevation: el)
    }

    /// The zenith part of ``troposphere(latitudeRadians:ellipsoidalHeight:elevation:)`` (m): one
    /// per receiver position, shared by all satellites.
    public static func troposphereZenith(latitudeRadians lat: Double, ellipsoidalHeight h0: Double) -> Double {
        troposphereZenithAndSlope(latitudeRadians: lat, ellipsoidalHeight: h0).zenith
    }

    /// ``troposphereZenith(latitudeRadians:ellipsoidalHeight:)`` and its derivative with respect
    /// to the height (m of delay per m of height: ≈ −3e-4 near sea level; 0 where the height is
    /// clamped to [−100, 10,000] m), in closed form from the same standard atmosphere. The
    /// solver's design rows carry slope × mapping × up, so a Gauss–Newton step accounts for the
    /// delay's change with the height it moves.
    public static func troposphereZenithAndSlope(latitudeRadians lat: Double, ellipsoidalHeight h0: Double) -> (zenith: Double, slope: Double) {
        let h = min(10_000, max(-100, h0))
        let q = 1 - 2.2557e-5 * h
        let p = 1013.25 * pow(q, 5.2568)
        let tK = 15 - 6.5e-3 * h + 273.16
        let e = 6.108 * 0.5 * exp((17.15 * tK - 4684) / (tK - 38.45))
        let d = 1 - 0.00266 * cos(2 * lat) - 0.00028 * h / 1000
        let zh = 0.0022768 * p / d
        let zw = 0.002277 * (1255 / tK + 0.05) * e
        guard h == h0 else { return (zh + zw, 0) }
        // d/dh of each factor: p ∝ q^5.2568, dtK/dh = −6.5e-3, the exponent's d/dtK is
        // (4684 − 17.15 · 38.45) / (tK − 38.45)², d⁻¹'s is 0.00028e-3 / d².
        let dp = p * 5.2568 * -2.2557e-5 / q
        let dtK = -6.5e-3
        let de = e * (4684 - 17.15 * 38.45) / ((tK - 38.45) * (tK - 38.45)) * dtK
        let dzh = 0.0022768 * (dp / d + p * 0.00028e-3 / (d * d))
        let dzw = 0.002277 * (-1255 / (tK * tK) * dtK * e + (1255 / tK + 0.05) * de)
        return (zh + zw, dzh + dzw)
    }

    /// Mapping function 1.001 / √(0.002001 + sin² e) (RTCA DO-229 A.4.2.4); 0 below the horizon.
    @inlinable
    public static func troposphereMapping(elevation el: Double) -> Double {
        guard el > 0 else { return 0 }
        let s = sin(el)
        return 1.001 / (0.002001 + s * s).squareRoot()
    }

    /// Rotates a satellite ECEF position by the Earth's rotation during the signal flight time
    /// `tau` (s): the position is expressed in the ECEF frame of the reception time. The angle is
    /// ≈ 6 µrad, so cos = 1 − a²/2 and sin = a are exact to double precision (next terms < 1e-9 m).
    @inlinable
    public static func sagnacRotated(_ s: SIMD3<Double>, flightTime tau: Double, earthRotationRate we: Double = GNSSConstants.earthRotationRate) -> SIMD3<Double> {
        let a = we * tau
        let c = 1 - a * a / 2
        return SIMD3(c * s.x + a * s.y, -a * s.x + c * s.y, s.z)
    }
}
