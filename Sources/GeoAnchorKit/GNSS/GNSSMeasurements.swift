import Foundation

/// A system + frequency band whose code measurements share one receiver clock unknown
/// (inter-system and inter-frequency biases of phones are hundreds to thousands of metres).
public struct GNSSSignalGroup: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var system: GNSSSystem
    /// The band digit as its ASCII byte: a plain value, so the group (and every
    /// ``PreparedMeasurement`` holding one) is copied and compared without reference counting.
    @usableFromInline var bandByte: UInt8
    /// RINEX band digit (`1`, `5`, …). Bands are ASCII; anything else is stored as `?`.
    public var band: Character {
        get { Character(Unicode.Scalar(bandByte)) }
        set { bandByte = newValue.asciiValue ?? 63 }
    }
    public init(system: GNSSSystem, band: Character) { self.system = system; self.bandByte = band.asciiValue ?? 63 }
    /// From the band's ASCII byte (the first byte of a RINEX signal code).
    init(system: GNSSSystem, bandByte: UInt8) { self.system = system; self.bandByte = bandByte }
    public static func < (a: GNSSSignalGroup, b: GNSSSignalGroup) -> Bool {
        a.system != b.system ? a.system < b.system : a.bandByte < b.bandByte
    }
    public var description: String { "\(system.rawValue)\(band)" }
    /// True for the modern wide-band signals (GPS/QZSS L5, Galileo E5a/E5b, BeiDou B2a) whose
    /// code suffers far less multipath on phones than L1/E1.
    @inlinable
    public var isWideband: Bool { bandByte == 53 || bandByte == 55 || bandByte == 56 }
    /// The band `c` of an ionosphere-free code combination
    /// (``PreparedMeasurement/ionosphereFreeCombinations(_:)``).
    @inlinable
    public var isIonosphereFree: Bool { bandByte == 99 }
    /// The group of a system's ionosphere-free combinations (band `c`: its own receiver clock,
    /// as the combination carries both bands' hardware delays).
    public static func ionosphereFree(_ system: GNSSSystem) -> GNSSSignalGroup { GNSSSignalGroup(system: system, bandByte: 99) }
}

/// One pseudorange (+ Doppler, phase) ready for estimation: satellite state at transmission,
/// satellite clock and group delay already applied.
public struct PreparedMeasurement: Sendable, Hashable {
    public var satellite: SatelliteID
    public var group: GNSSSignalGroup
    /// Pseudorange + c·(satellite clock − group delay scaled to this frequency), m.
    public var correctedPseudorange: Double?
    /// Pseudorange rate from Doppler (−λ·D) + c·(satellite clock drift), m/s.
    public var correctedRangeRate: Double?
    /// Carrier phase in metres (λ·L) + c·(satellite clock) when valid, and its LLI bits.
    public var carrierPhaseMeters: Double?
    public var lossOfLockIndicator: Int
    public var satellitePosition: SIMD3<Double>
    public var satelliteVelocity: SIMD3<Double>
    /// (f_L1 / f)²: scales an L1 ionospheric delay to this signal.
    public var ionosphereScale: Double
    public var cn0: Double
    public var source: OrbitSource
    /// Code σ (m) given by the source (e.g. GSDC `RawPseudorangeUncertaintyMeters`); when set it
    /// replaces the elevation/C-N0 model.
    public var sigmaOverride: Double? = nil

    /// The measurements with every satellite that has code on an L1-band signal (band 1 or 2:
    /// L1/E1/B1) and on a wide-band one (L5/E5a/E5b/B2a) replaced by their ionosphere-free
    /// combination: with sᵢ = (f_L1/fᵢ)² (``ionosphereScale``) and Pᵢ = ρ + sᵢ·I + …, the code
    /// (s₅P₁ − s₁P₅)/(s₅ − s₁) has no first-order ionosphere. The combination keeps the L1
    /// measurement's satellite state, takes the wide-band range rate when it has one (else the
    /// L1's), the lower C/N0 of the two, no carrier phase (a combined phase would need both
    /// phases' ambiguities) and ``ionosphereScale`` 0; its group is
    /// ``GNSSSignalGroup/ionosphereFree(_:)``. Other measurements are returned unchanged, in
    /// order; pairs whose scales do not differ (corrections already applied, e.g. GSDC
    /// `device_gnss.csv`) are not combined.
    public static func ionosphereFreeCombinations(_ ms: [PreparedMeasurement]) -> [PreparedMeasurement] {
        var out: [PreparedMeasurement] = []
        out.reserveCapacity(ms.count)
        var used = [Bool](repeating: false, count: ms.count)
        for i in ms.indices where !used[i] {
            let a = ms[i]
            guard a.correctedPseudorange != nil, !a.group.isWideband, !a.group.isIonosphereFree else { continue }
            for j in ms.indices where j != i && !used[j] {
                let b = ms[j]
                guard b.satellite == a.satellite, b.group.isWideband, b.correctedPseudorange != nil,
                      b.ionosphereScale - a.ionosphereScale > 0.1 else { continue }
                let s1 = a.ionosphereScale, s5 = b.ionosphereScale
                var c = a
                c.correctedPseudorange = (s5 * a.correctedPseudorange! - s1 * b.correctedPseudorange!) / (s5 - s1)
                c.group = .ionosphereFree(a.satellite.system)
                c.correctedRangeRate = b.correctedRangeRate ?? a.correctedRangeRate
                c.carrierPhaseMeters = nil
                c.lossOfLockIndicator = 0
                c.ionosphereScale = 0
                c.cn0 = min(a.cn0, b.cn0)
                c.sigmaOverride = nil
                used[i] = true; used[j] = true
                out.append(c)
                break
            }
        }
        for i in ms.indices where !used[i] { out.append(ms[i]) }
        return out
    }
}

/// Why a measurement or epoch was not used.
public enum GNSSSkipReason: String, Error, Sendable, Hashable, Codable, CaseIterable {
    case systemNotSelected = "system_not_selected"
    case noPseudorange = "no_pseudorange"
    case unknownFrequency = "unknown_frequency"
    case noEphemeris = "no_ephemeris"
    /// The orbit or clock gives a state no GNSS satellite has (|r| outside 10,000–50,000 km, a
    /// clock offset of 1 s or more, a clock drift of 1e-6 s/s or more, non-finite values: a
    /// corrupted SP3, clock or navigation value) or the frequency is not a GNSS carrier (1–2 GHz).
    case implausibleSatelliteState = "implausible_satellite_state"
    /// A Doppler no GNSS signal can have (|λ·D| above 20 km/s): the Doppler is left out, the
    /// pseudorange and phase of the same signal are used.
    case implausibleDoppler = "implausible_doppler"
    case belowElevationMask = "below_elevation_mask"
    case lowSignal = "low_cn0"
    case excludedByFDE = "excluded_by_fde"
    // Epoch-level reasons
    case tooFewSatellites = "too_few_satellites"
    case notConverged = "not_converged"
    /// The epoch's residuals show a fault, but leaving out one satellite at a time gives several
    /// consistent solutions that disagree (too little redundancy to tell which satellite is
    /// wrong): no solution rather than a wrong one (``GNSSPositionSolver/solve(_:time:prior:suspects:excluding:skipped:)``).
    case faultNotIsolated = "fault_not_isolated"
    case epochFlag = "epoch_flag"
}

extension SatelliteEphemerides {
    /// Turns an epoch's observations into ``PreparedMeasurement``s (one per satellite and band;
    /// for several signals in one band the first with a pseudorange is kept). Dropped observations
    /// are counted by reason into `skipped`.
    public func prepare(_ epoch: GNSSEpoch, systems: Set<GNSSSystem>, minimumCN0: Double,
                        skipped: inout [GNSSSkipReason: Int]) -> [PreparedMeasurement] {
        var out: [PreparedMeasurement] = []
        out.reserveCapacity(epoch.observations.count)
        // Hot path (every observation of every epoch): the selected systems as a bit mask, the
        // satellite × band keys already taken in a small array searched linearly (a few dozen
        // per epoch: cheaper than hashing), the drops counted locally and added once at the end.
        var selected: UInt8 = 0
        for s in systems { selected |= 1 << UInt8(s.order) }
        var seen: [Int] = []
        seen.reserveCapacity(epoch.observations.count)
        var notSelected = 0, unknownFrequency = 0, noPseudorange = 0, lowSignal = 0, noEphemeris = 0, implausible = 0, implausibleDoppler = 0
        let c = GNSSConstants.speedOfLight
        for o in epoch.observations {
            let sys = o.satellite.system
            guard selected & (1 << UInt8(sys.order)) != 0 else { notSelected += 1; continue }
            let band = o.signal.utf8.first ?? 63 // `?`, as GNSSObservation.band
            let key = (o.satellite.number << 11) | (Int(band) << 3) | sys.order
            if seen.contains(key) { continue }
            guard let f = o.frequency else { unknownFrequency += 1; continue }
            guard let pr = o.pseudorange, GNSSConstants.isPlausiblePseudorange(pr) else {
                // Doppler-only or phase-only records (GnssLogger without a valid code state).
                noPseudorange += 1; continue
            }
            if let cn = o.cn0, cn < minimumCN0 { lowSignal += 1; continue }
            guard let s = state(of: o.satellite, transmissionTime: epoch.time - pr / c) else {
                noEphemeris += 1; continue
            }
            // One corrupted orbit or clock value (an SP3 coordinate of 1e20 km) made the solver
            // fail the whole epoch (mislabelled too few satellites) and the filter's state NaN.
            // (Each comparison is false for NaN, so non-finite values fail it too.)
            // A clock drifting 1e-6 s/s or faster (1000 × any GNSS clock; a precise clock sample
            // off by 10 ms drifts 3e-4 s/s towards it) made the WLS lose 24 of 794 epochs.
            guard GNSSConstants.isPlausibleSatellitePosition(s.position), Swift.abs(s.clock) < 1, Swift.abs(s.groupDelay) < 1e-3,
                  (s.velocity * s.velocity).sum() < 1e8, Swift.abs(s.clockDrift) < 1e-6,
                  GNSSConstants.isCarrierFrequency(f) else {
                implausible += 1; continue
            }
            seen.append(key)
            let scale = (GNSSConstants.l1Frequency / f) * (GNSSConstants.l1Frequency / f)
            let lambda = c / f
            // One absurd Doppler (1e6 Hz, 1e300 Hz) among twenty cost the epoch's WLS velocity.
            var doppler = o.doppler
            if let d = doppler, !GNSSConstants.isPlausibleRangeRate(lambda * d) { doppler = nil; implausibleDoppler += 1 }
            out.append(PreparedMeasurement(
                satellite: o.satellite, group: GNSSSignalGroup(system: sys, bandByte: band),
                correctedPseudorange: pr + c * (s.clock - scale * s.groupDelay),
                correctedRangeRate: doppler.map { -lambda * $0 + c * s.clockDrift },
                carrierPhaseMeters: o.carrierPhase.map { lambda * $0 + c * s.clock }, lossOfLockIndicator: o.lossOfLockIndicator,
                satellitePosition: s.position, satelliteVelocity: s.velocity, ionosphereScale: scale,
                cn0: o.cn0 ?? 30, source: s.source))
        }
        if notSelected > 0 { skipped[.systemNotSelected, default: 0] += notSelected }
        if unknownFrequency > 0 { skipped[.unknownFrequency, default: 0] += unknownFrequency }
        if noPseudorange > 0 { skipped[.noPseudorange, default: 0] += noPseudorange }
        if lowSignal > 0 { skipped[.lowSignal, default: 0] += lowSignal }
        if noEphemeris > 0 { skipped[.noEphemeris, default: 0] += noEphemeris }
        if implausible > 0 { skipped[.implausibleSatelliteState, default: 0] += implausible }
        if implausibleDoppler > 0 { skipped[.implausibleDoppler, default: 0] += implausibleDoppler }
        return out
    }
}
