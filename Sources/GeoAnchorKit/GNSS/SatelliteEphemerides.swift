import Foundation

/// Where a satellite's orbit and clock came from.
public enum OrbitSource: String, Sendable, Hashable, Codable { case broadcast, precise }

/// A satellite's state at a signal's transmission time.
public struct SatelliteState: Sendable, Hashable {
    /// ECEF position (m) in the frame of the transmission time, and velocity (m/s).
    public var position: SIMD3<Double>
    public var velocity: SIMD3<Double>
    /// Clock offset (s) including the relativistic term, excluding group delay.
    public var clock: Double
    /// Clock drift (s/s).
    public var clockDrift: Double
    /// Broadcast group delay T_GD (s) when a navigation record gives one (GPS/QZSS), else 0.
    public var groupDelay: Double
    public var source: OrbitSource
}

/// Broadcast and/or precise ephemerides behind one lookup.
///
/// Policy: with ``preferPrecise`` (default) a satellite the SP3 covers uses the SP3 orbit and
/// clock, every other one its broadcast ephemeris; without it the broadcast ephemeris wins and the
/// SP3 only fills systems without broadcast records. Broadcast GPS T_GD is applied to SP3 clocks
/// too (both refer to the L1/L2 ionosphere-free combination).
public struct SatelliteEphemerides: Sendable {
    public var navigation: RinexNavigationFile?
    public var precise: PreciseOrbit?
    public var preferPrecise: Bool
    /// RINEX clock files: when they cover a satellite and time, they replace the SP3 clock.
    public var clocks: PreciseClock?

    public init(navigation: RinexNavigationFile? = nil, precise: PreciseOrbit? = nil, clocks: PreciseClock? = nil, preferPrecise: Bool = true) {
        self.navigation = navigation; self.precise = precise; self.clocks = clocks; self.preferPrecise = preferPrecise
    }

    /// Satellite state at GPS time `t` (transmission time by the satellite's clock, corrected
    /// for its clock inside: pass `t_rx − P/c`; the clock correction is iterated twice).
    public func state(of sat: SatelliteID, transmissionTime tSV: Double) -> SatelliteState? {
        let eph = navigation?.ephemeris(for: sat, at: tSV)
        let tgd = (sat.system == .gps || sat.system == .qzss) ? (eph?.groupDelay ?? 0) : 0
        func fromPrecise() -> SatelliteState? {
            guard let p = precise, let pos = p.positions[sat], let clk = p.clocks[sat] else { return nil }
            // The satellite clock (≤ 1 ms) moves the orbit by ≤ 4 m: take it from the cheap linear
            // clock first, then interpolate the orbit once at the true transmission time. The
            // relativistic term (≤ 50 ns) changes the time by a negligible 0.2 mm of orbit.
            guard let c0 = clocks?.clock(of: sat, at: tSV)?.offset ?? p.clock(of: sat, at: tSV) else { return nil }
            guard var s = p.state(pos, clk, at: tSV - c0) else { return nil }
            if let c = clocks?.clock(of: sat, at: tSV - c0) {
                // The CLK clock + the same relativistic term the SP3 path adds.
                let c2 = GNSSConstants.speedOfLight * GNSSConstants.speedOfLight
                s.clock = c.offset - 2 * (s.position * s.velocity).sum() / c2
                s.clockDrift = c.drift
            }
            return SatelliteState(position: s.position, velocity: s.velocity, clock: s.clock, clockDrift: s.clockDrift, groupDelay: tgd, source: .precise)
        }
        func fromBroadcast() -> SatelliteState? {
            if sat.system == .glonass {
                // State-vector integration (GLONASS ICD A.3.1.2) at the true transmission time.
                guard let g = navigation?.glonassEphemeris(for: sat, at: tSV),
                      let s = g.state(at: tSV - g.clockOffset(at: tSV)) else { return nil }
                return SatelliteState(position: s.position, velocity: s.velocity, clock: s.clock, clockDrift: s.clockDrift, groupDelay: 0, source: .broadcast)
            }
            guard let e = eph else { return nil }
            // Clock polynomial first (the relativistic term, ≤ 50 ns, moves the orbit by ≤ 0.2 mm),
            // then one orbit evaluation at the true transmission time.
            let s = e.state(at: tSV - e.clockPolynomial(at: tSV))
            return SatelliteState(position: s.position, velocity: s.velocity, clock: s.clock, clockDrift: s.clockDrift, groupDelay: tgd, source: .broadcast)
        }
        if preferPrecise { return fromPrecise() ?? fromBroadcast() }
        return fromBroadcast() ?? fromPrecise()
    }
}
