import Foundation

/// A GLONASS FDMA broadcast ephemeris: the satellite's state vector (PZ-90 position, velocity and
/// luni-solar acceleration) at its reference time t_b, and its clock, as a RINEX navigation record
/// gives them.
///
/// Unlike GPS, GLONASS broadcasts no orbit elements: the receiver integrates the equations of
/// motion from t_b to the wanted time (GLONASS ICD edition 5.1, appendix A.3.1.2): central
/// gravity, the J₂ term, the rotating frame's centrifugal and Coriolis terms, and the broadcast
/// luni-solar acceleration held constant, by 4th-order Runge–Kutta in steps of at most
/// ``integrationStep``. A broadcast state is meant for |t − t_b| ≤ 15 min; the lookup in
/// ``RinexNavigationFile/glonassEphemeris(for:at:)`` allows 5 min beyond that.
///
/// Frame: the result is in PZ-90.11, used as WGS 84 without transformation (the two agree at the
/// centimetre level since 2014, far below a broadcast orbit's few metres).
///
/// Accuracy: the ICD's worked example (ICD GLONASS CDMA General Description 1.0, 2016,
/// appendix J.2.2) is reproduced to 1 cm without the luni-solar term — its printed
/// result evidently omits it; see `GlonassEphemerisTests` — and two consecutive real broadcast
/// records integrated to the time between them agree to a few metres.
public struct GlonassEphemeris: Sendable, Hashable {
    public var satellite: SatelliteID
    /// Reference time t_b of the state vector and the clock, GPS time (s since 1980-01-06),
    /// converted from the record's UTC epoch with the leap-second table.
    public var referenceTime: Double
    /// Clock offset at t_b (s): RINEX's −τ_n, so that the satellite clock's offset from system
    /// time is `clockBias + relativeFrequencyBias × (t − t_b)`.
    public var clockBias: Double
    /// Relative frequency bias γ_n (dimensionless, s/s).
    public var relativeFrequencyBias: Double
    /// PZ-90 position (m), velocity (m/s) and luni-solar acceleration (m/s²) at t_b.
    public var position: SIMD3<Double>
    public var velocity: SIMD3<Double>
    public var acceleration: SIMD3<Double>
    /// Health B_n (0 = healthy).
    public var health: Double
    /// FDMA frequency channel k (−7…+13 in practice).
    public var frequencyChannel: Int
    /// Age of the operational information E_n (days).
    public var age: Double

    public init(satellite: SatelliteID, referenceTime: Double, clockBias: Double, relativeFrequencyBias: Double,
                position: SIMD3<Double>, velocity: SIMD3<Double>, acceleration: SIMD3<Double>,
                health: Double = 0, frequencyChannel: Int = 0, age: Double = 0) {
        self.satellite = satellite; self.referenceTime = referenceTime; self.clockBias = clockBias
        self.relativeFrequencyBias = relativeFrequencyBias; self.position = position; self.velocity = velocity
        self.acceleration = acceleration; self.health = health; self.frequencyChannel = frequencyChannel; self.age = age
    }

    /// PZ-90 constants (GLONASS ICD CDMA General Description 1.0, table 3.2; edition 5.1 rounds ω
    /// to 7.292115e-5): gravitational constant μ (m³/s²), equatorial radius a_e (m), second zonal
    /// harmonic J₂⁰, Earth rotation rate ω (rad/s).
    public static let mu = 398_600.4418e9
    public static let equatorialRadius = 6_378_136.0
    public static let j2 = 1_082_625.75e-9
    public static let earthRotationRate = 7.2921151467e-5

    /// Largest Runge–Kutta step (s). Over the ICD example's 10 min, 60 s steps land within 0.2 mm
    /// of 1 s steps (see the tests).
    public static let integrationStep = 60.0

    /// Longest integration accepted by ``state(at:)`` (s): a day. Beyond it a broadcast state vector
    /// is meaningless, and the step count stays bounded.
    public static let maximumIntegrationSpan = 86_400.0

    /// The satellite clock offset from GPS time's system (s) at GPS time `t`, without group delay.
    /// GLONASS clocks need no separate relativistic term: the broadcast τ_n includes it.
    @inlinable
    public func clockOffset(at t: Double) -> Double { clockBias + relativeFrequencyBias * (t - referenceTime) }

    /// Satellite antenna position (m, PZ-90 ≈ WGS 84, Earth-fixed frame at `t`), velocity (m/s,
    /// Earth-fixed) and clock offset (s) at GPS time `t` (the signal's transmission time).
    /// Nil when `t` is not finite or more than ``maximumIntegrationSpan`` from t_b.
    public func state(at t: Double) -> (position: SIMD3<Double>, velocity: SIMD3<Double>, clock: Double, clockDrift: Double)? {
        state(at: t, accelerationScale: 1)
    }

    /// ``state(at:)`` with the luni-solar acceleration scaled (1 = as broadcast; 0 = left out, as
    /// the ICD's worked example does). Internal: for the reference test.
    func state(at t: Double, accelerationScale: Double, step: Double = GlonassEphemeris.integrationStep)
        -> (position: SIMD3<Double>, velocity: SIMD3<Double>, clock: Double, clockDrift: Double)? {
        let dt = t - referenceTime
        guard dt.isFinite, abs(dt) <= Self.maximumIntegrationSpan, step >= 1e-3, step.isFinite else { return nil }
        // abs(dt) / step ≤ 86,400 / 0.001: a finite count that fits an Int.
        let n = max(1, Int((abs(dt) / step).rounded(.up)))
        let h = dt / Double(n)
        var p = position, v = velocity
        let a = acceleration * accelerationScale
        for _ in 0..<n {
            let (k1v, k1a) = (v, Self.acceleration(p, v, a))
            let p2 = p + 0.5 * h * k1v, v2 = v + 0.5 * h * k1a
            let (k2v, k2a) = (v2, Self.acceleration(p2, v2, a))
            let p3 = p + 0.5 * h * k2v, v3 = v + 0.5 * h * k2a
            let (k3v, k3a) = (v3, Self.acceleration(p3, v3, a))
            let p4 = p + h * k3v, v4 = v + h * k3a
            let (k4v, k4a) = (v4, Self.acceleration(p4, v4, a))
            p += (h / 6) * (k1v + 2 * k2v + 2 * k3v + k4v)
            v += (h / 6) * (k1a + 2 * k2a + 2 * k3a + k4a)
        }
        return (p, v, clockOffset(at: t), relativeFrequencyBias)
    }

    /// Right-hand side of the equations of motion in the rotating PZ-90 frame (ICD 5.1 A.3.1.2).
    @inline(__always)
    static func acceleration(_ p: SIMD3<Double>, _ v: SIMD3<Double>, _ lunisolar: SIMD3<Double>) -> SIMD3<Double> {
        let r2 = (p * p).sum()
        let r = r2.squareRoot()
        let muR3 = mu / (r2 * r)
        let c = 1.5 * j2 * mu * equatorialRadius * equatorialRadius / (r2 * r2 * r)
        let z2r2 = 5 * p.z * p.z / r2
        let w = earthRotationRate, w2 = w * w
        return SIMD3(
            -muR3 * p.x - c * p.x * (1 - z2r2) + w2 * p.x + 2 * w * v.y + lunisolar.x,
            -muR3 * p.y - c * p.y * (1 - z2r2) + w2 * p.y - 2 * w * v.x + lunisolar.y,
            -muR3 * p.z - c * p.z * (3 - z2r2) + lunisolar.z)
    }

    /// Builds an ephemeris from a RINEX GLONASS record: `v` holds the three clock-line numbers
    /// (−τ_n, γ_n, message frame time) then the orbit lines in file order (X, Ẋ, Ẍ, health;
    /// Y, Ẏ, Ÿ, frequency number; Z, Ż, Z̈, age; km, km/s, km/s²). `referenceTime` is GPS time.
    /// Nil when the record is not usable: a position off any orbit (|r| outside 10,000–40,000 km),
    /// a channel that is not an integer in −7…+13, or a value no GLONASS satellite can have: a
    /// speed above ``maximumSpeed``, a luni-solar acceleration component above
    /// ``maximumAcceleration``, |τ_n| > 1 s or |γ_n| > 1e-5 (the Keplerian records' af0 and af1
    /// bounds; the ICD's fields reach 2 ms and 1e-9). Such values were used: a velocity of
    /// 7 km/s or an acceleration of 1 m/s² put the satellite 180–5,000 km off, still at an orbit
    /// radius; τ_n = 1e300 kept the record in the file, never used and counted nowhere.
    static func fromRinex(_ sat: SatelliteID, referenceTime: Double, _ v: [Double]) -> GlonassEphemeris? {
        guard v.count >= 15 else { return nil }
        let p = SIMD3(v[3], v[7], v[11]) * 1000
        let r = (p * p).sum().squareRoot()
        // GLONASS orbits at ≈ 25,500 km; anything far off is a corrupted record.
        guard r > 10_000_000, r < 40_000_000 else { return nil }
        let k = v[10]
        guard k == k.rounded(), k >= -7, k <= 13 else { return nil }
        let velocity = SIMD3(v[4], v[8], v[12]) * 1000, acceleration = SIMD3(v[5], v[9], v[13]) * 1000
        // Each comparison is false for NaN.
        guard (velocity * velocity).sum() <= maximumSpeed * maximumSpeed,
              abs(acceleration.x) <= maximumAcceleration, abs(acceleration.y) <= maximumAcceleration,
              abs(acceleration.z) <= maximumAcceleration, abs(v[0]) <= 1, abs(v[1]) <= 1e-5 else { return nil }
        return GlonassEphemeris(
            satellite: sat, referenceTime: referenceTime, clockBias: v[0], relativeFrequencyBias: v[1],
            position: p, velocity: velocity, acceleration: acceleration,
            health: v[6], frequencyChannel: Int(k), age: v[14])
    }

    /// Largest speed (m/s) a GLONASS state vector may have: the orbital speed (3.95 km/s at
    /// 25,510 km) plus the Earth-fixed frame's rotation there (1.86 km/s), rounded up.
    public static let maximumSpeed = 6_000.0

    /// Largest luni-solar acceleration component (m/s²) a GLONASS record may have: 16 × the
    /// largest the ICD's field holds (6.2e-9 km/s²; real values are ≤ 3e-9 km/s²).
    public static let maximumAcceleration = 1e-4
}
