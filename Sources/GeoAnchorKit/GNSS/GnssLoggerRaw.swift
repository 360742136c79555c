import Foundation

/// Android GnssLogger `Raw` records (any log version: columns from the `# Raw,…` header line)
/// turned into ``GNSSEpoch``s.
///
/// Pseudoranges follow Google's *GPS Measurement Tools* (ProcessGnssMeas.m) and the Android
/// `GnssMeasurement` documentation, with integer nanosecond arithmetic so nothing is lost to
/// rounding (`FullBiasNanos` is ≈ −1.2·10¹⁸):
/// - receiver GPS time t_Rx = `TimeNanos` + `TimeOffsetNanos` − (`FullBiasNanos` + `BiasNanos`);
/// - GPS, QZSS, Galileo, BeiDou: time of week (BeiDou − 14 s); GLONASS: time of day in UTC(SU)
///   (+ 3 h − leap seconds); Galileo with only the E1C secondary-code lock: modulo 100 ms;
/// - pseudorange = (t_Rx − `ReceivedSvTimeNanos`) · c, with a week/day rollover fix;
/// - used only when the `State` bits say the transmit time is known (GPS/QZSS/BeiDou/Galileo
///   `TOW_DECODED` 0x8 or `TOW_KNOWN` 0x4000, Galileo `GAL_E1C_2ND_CODE_LOCK` 0x800, GLONASS
///   `GLO_TOD_DECODED` 0x80 or `GLO_TOD_KNOWN` 0x8000) and its uncertainty is ≤ 500 ns (Google's
///   threshold); otherwise the record keeps its Doppler and phase, without a pseudorange, and is
///   counted in ``skipped``;
/// - carrier phase from `AccumulatedDeltaRangeMeters` when `AccumulatedDeltaRangeState` has
///   VALID (bit 0); RESET (bit 1) or CYCLE_SLIP (bit 2) set the RINEX loss-of-lock bit;
/// - Doppler = −`PseudorangeRateMetersPerSecond` / λ;
/// - a change of `HardwareClockDiscontinuityCount` marks the epoch with flag 1 (RINEX "power
///   failure": the receiver clock jumped).
/// GLONASS records without `CarrierFrequencyHz` have no known FDMA channel: their frequency is
/// nil and positioning skips them (counted as `unknown_frequency`).
public struct GnssLoggerRawLog: Sendable {
    public var epochs: [GNSSEpoch]
    /// `Raw` records read.
    public var records: Int
    /// Records (or their parts) not usable, by reason: `state`, `uncertainty`, `constellation`
    /// (no pseudorange), `carrier_frequency` (outside 1–2 GHz: used as unknown), `accumulated_delta_range`
    /// (beyond 1e12 m: no carrier phase).
    public var skipped: [String: Int]

    public static func looksLike(_ head: String) -> Bool { head.contains("# Raw,") || head.contains("\nRaw,") }

    public static func read(contentsOf url: URL) throws(TraceFormatError) -> GnssLoggerRawLog {
        try parse(ByteLineReader(url: url))
    }

    public static func read(data: Data, source: String) throws(TraceFormatError) -> GnssLoggerRawLog {
        try parse(ByteLineReader(data: data, source: source))
    }

    static let weekNanos: Int64 = 604_800 * 1_000_000_000
    static let dayNanos: Int64 = 86_400 * 1_000_000_000
    /// GPS time in ns at 2106 (126 years after 1980): a later receiver time is corrupted.
    static let latestGPSNanos: Int64 = 4_000_000_000_000_000_000

    private static func parse(_ reader: ByteLineReader) throws(TraceFormatError) -> GnssLoggerRawLog {
        var log = GnssLoggerRawLog(epochs: [], records: 0, skipped: [:])
        var col: [String: Int] = [:]
        var lastTimeNanos: Int64? = nil
        var lastDiscontinuity: Int? = nil
        var current: GNSSEpoch? = nil
        let source = reader.source
        let c = GNSSConstants.speedOfLight
        try forEachFixedWidthLine(reader) { (l: FixedWidthLine) throws(TraceFormatError) in
            let text = String(decoding: l.bytes, as: UTF8.self)
            if text.hasPrefix("# Raw,") {
                let names = text.dropFirst(2).split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
                col = [:]
                for (i, n) in names.enumerated() { col[n] = i }
                for need in ["TimeNanos", "FullBiasNanos", "Svid", "State", "ReceivedSvTimeNanos", "ConstellationType"] where col[need] == nil {
                    throw l.error("GnssLogger Raw header has no '\(need)' column")
                }
                return
            }
            guard text.hasPrefix("Raw,") else { return }
            guard !col.isEmpty else { throw l.error("Raw record before the '# Raw,' header line that names its columns") }
            log.records += 1
            let f = text.split(separator: ",", omittingEmptySubsequences: false)
            func str(_ name: String) -> Substring? {
                guard let i = col[name], i < f.count else { return nil }
                let s = f[i].trimmingCharacters(in: .whitespaces)
                return s.isEmpty ? nil : Substring(s)
            }
            func int64(_ name: String) throws(TraceFormatError) -> Int64? {
                guard let s = str(name) else { return nil }
                guard let v = Int64(s) else { throw l.error("\(name) '\(s)' is not an integer") }
                return v
            }
            func dbl(_ name: String) throws(TraceFormatError) -> Double? {
                guard let s = str(name) else { return nil }
                guard let v = Double(s), v.isFinite else { throw l.error("\(name) '\(s)' is not a number") }
                return v
            }
            guard let timeNanos = try int64("TimeNanos") else { throw l.error("TimeNanos is missing") }
            guard let fullBias = try int64("FullBiasNanos") else {
                log.skipped["no_full_bias", default: 0] += 1; return // no GPS time yet: nothing usable
            }
            let bias = try dbl("BiasNanos") ?? 0
            let offset = try dbl("TimeOffsetNanos") ?? 0
            guard let svid = try int64("Svid"), svid > 0, svid < 1000 else { throw l.error("Svid is missing or out of range") }
            guard let cons = try int64("ConstellationType"), (0...7).contains(cons) else { throw l.error("ConstellationType is missing or not 0...7") }
            let state = try int64("State") ?? 0
            guard let rxSv = try int64("ReceivedSvTimeNanos") else { throw l.error("ReceivedSvTimeNanos is missing") }
            // A time of week (or day, or less) in ns: within [0, one week]. −9.2e18 trapped in the
            // pseudorange's subtraction.
            guard rxSv >= 0, rxSv <= Self.weekNanos else {
                throw l.error("ReceivedSvTimeNanos \(rxSv) is outside 0…\(Self.weekNanos) ns (a time of week)")
            }
            let rxSvUnc = try dbl("ReceivedSvTimeUncertaintyNanos") ?? 0
            let disc = try int64("HardwareClockDiscontinuityCount").map(Int.init)
            guard let sat = SatelliteID(androidConstellation: Int(cons), svid: Int(svid)) else {
                log.skipped["constellation", default: 0] += 1; return
            }
            let system = sat.system
            // Overflow-safe: both are ≈ ±1.2e18, well inside Int64.
            let (rxFull, overflow) = timeNanos.subtractingReportingOverflow(fullBias)
            guard !overflow, rxFull > 0 else { throw l.error("TimeNanos − FullBiasNanos is not a positive GPS time") }
            // GPS time before 2106 (≈ 4e18 ns): later arithmetic (GLONASS time of day adds hours)
            // must not overflow Int64 — 9.2e18 ns trapped.
            guard rxFull < Self.latestGPSNanos else {
                throw l.error("TimeNanos − FullBiasNanos = \(rxFull) ns is beyond GPS time \(Self.latestGPSNanos) ns (year 2106)")
            }
            let epochTime = Double(rxFull) * 1e-9 - bias * 1e-9
            if lastTimeNanos != timeNanos {
                if let e = current { log.epochs.append(e) }
                var flag = 0
                if let d = disc, let ld = lastDiscontinuity, d != ld { flag = 1 }
                current = GNSSEpoch(time: epochTime, flag: flag, observations: [], line: l.line)
                lastTimeNanos = timeNanos
                lastDiscontinuity = disc ?? lastDiscontinuity
            }
            // Frequency and signal.
            var freqField = try dbl("CarrierFrequencyHz")
            // GNSS carriers are 1.1–1.7 GHz: another value is not one (1e-300 Hz made the
            // inter-frequency scale infinite and the filter's state NaN): counted, frequency unknown.
            if let fr = freqField, !GNSSConstants.isCarrierFrequency(fr) { log.skipped["carrier_frequency", default: 0] += 1; freqField = nil }
            var freq: Double? = freqField
            var band: Character = "1"
            if let fr = freqField {
                if abs(fr - GNSSConstants.l5Frequency) < 5e6 { band = "5" }
                else if abs(fr - GNSSConstants.e5bFrequency) < 5e6 { band = "7" }
                else if abs(fr - GNSSConstants.l2Frequency) < 5e6 || (fr > 1.24e9 && fr < 1.26e9) { band = "2" }
            } else if system != .glonass {
                freq = system == .beidou ? GNSSConstants.b1iFrequency : GNSSConstants.l1Frequency
                band = system == .beidou ? "2" : "1"
            }
            if system == .beidou, let fr = freq, abs(fr - GNSSConstants.b1iFrequency) < 1e6 { band = "2" }
            var obs = GNSSObservation(satellite: sat, signal: "\(band)\(band == "5" ? "Q" : "C")", frequency: freq)
            obs.cn0 = try dbl("Cn0DbHz")
            if let rate = try dbl("PseudorangeRateMetersPerSecond"), let fr = freq { obs.doppler = -rate * fr / c }
            if let adrState = try int64("AccumulatedDeltaRangeState"), adrState & 1 == 1,
               let adr = try dbl("AccumulatedDeltaRangeMeters"), adr != 0, let fr = freq {
                // An accumulated range grows by at most a few km/s: beyond 1e12 m it is corrupted
                // (1e300 overflowed the phase to ∞ and the filter's state to NaN): counted, no phase.
                if Swift.abs(adr) <= 1e12 {
                    obs.carrierPhase = adr * fr / c
                    if adrState & 6 != 0 { obs.lossOfLockIndicator = 1 }
                } else {
                    log.skipped["accumulated_delta_range", default: 0] += 1
                }
            }
            // Pseudorange from the time of week / day rules.
            var prNanos: Double? = nil
            let towOK = state & 0x8 != 0 || state & 0x4000 != 0
            switch system {
            case .gps, .qzss, .beidou, .galileo, .navic:
                let galE1C = system == .galileo && state & 0x800 != 0
                if towOK || galE1C {
                    var rxTow = rxFull % weekNanos
                    if system == .beidou { rxTow -= 14_000_000_000; if rxTow < 0 { rxTow += weekNanos } }
                    var d = Double(rxTow - rxSv) + offset - bias
                    if !towOK && galE1C {
                        // 100 ms ambiguity: keep the fractional part of 100 ms.
                        let p = 100_000_000.0
                        d = (Double((rxTow % 100_000_000) - (rxSv % 100_000_000)) + offset - bias).truncatingRemainder(dividingBy: p)
                        if d < 0 { d += p }
                    }
                    let w = Double(weekNanos)
                    if d > w / 2 { d -= w } else if d < -w / 2 { d += w }
                    prNanos = d
                } else { log.skipped["state", default: 0] += 1 }
            case .glonass:
                if state & 0x80 != 0 || state & 0x8000 != 0 {
                    // GLONASS time of day: UTC(SU) = GPS − leap + 3 h.
                    let leap = Int64(GNSSTime.gpsMinusUTC(unixUTC: epochTime + GNSSTime.gpsEpochUnix)) * 1_000_000_000
                    var rxTod = (rxFull - leap + 3 * 3_600_000_000_000) % dayNanos
                    if rxTod < 0 { rxTod += dayNanos }
                    var d = Double(rxTod - rxSv) + offset - bias
                    let dn = Double(dayNanos)
                    if d > dn / 2 { d -= dn } else if d < -dn / 2 { d += dn }
                    prNanos = d
                } else { log.skipped["state", default: 0] += 1 }
            case .sbas:
                log.skipped["constellation", default: 0] += 1
            }
            if let p = prNanos {
                if rxSvUnc > 500 { log.skipped["uncertainty", default: 0] += 1 }
                else { obs.pseudorange = p * 1e-9 * c }
            }
            current!.observations.append(obs)
        }
        if let e = current { log.epochs.append(e) }
        if col.isEmpty { throw TraceFormatError(source: source, line: nil, message: "no '# Raw,' header line: not a GnssLogger log with raw measurements") }
        return log
    }
}
