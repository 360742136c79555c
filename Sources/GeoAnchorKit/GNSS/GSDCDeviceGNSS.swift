import Foundation

/// A GSDC 2022/2023 `device_gnss.csv`: Android raw measurements with Google's own satellite
/// states and corrections per row (`SvPosition*EcefMeters`, `SvVelocity*`, `SvClockBiasMeters`,
/// `SvClockDriftMetersPerSecond`, `IsrbMeters`, `IonosphericDelayMeters`,
/// `TroposphericDelayMeters`) and Google's WLS baseline (`WlsPosition*EcefMeters`) — or a GSDC
/// 2021 `*_derived.csv` (Kaggle's first Smartphone Decimeter Challenge), the same quantities under
/// the names `millisSinceGpsEpoch`, `svid`, `constellationType`, `signalType`, `rawPrM`,
/// `rawPrUncM`, `[xyz]SatPosM`, `[xyz]SatVelMps`, `satClkBiasM`, `satClkDriftMps`, `isrbM`,
/// `ionoDelayM`, `tropoDelayM`, `receivedSvTimeInGpsNanos` (no Doppler, C/N0 or baseline).
///
/// **The 2021 timing corrections** (the competition hosts' published notes, as gnss_lib_py's
/// `AndroidDerived2021` applies them): a derived file labels each epoch one epoch late, so an
/// epoch's time is its `millisSinceGpsEpoch` label minus one epoch (1 s, the dataset's rate —
/// taken as 1 s rather than "the previous label" so that the first epoch and the epoch after a
/// gap keep their right time); a row whose signal travel time under that time,
/// `time − receivedSvTimeInGpsNanos`, is not within 0–300 ms is a duplicate of another epoch's
/// measurement and is not used (counted `timing_outlier`).
///
/// Used as given (GSDC's documented formula): corrected pseudorange = `RawPseudorangeMeters` +
/// `SvClockBiasMeters` − `IsrbMeters` − `IonosphericDelayMeters` − `TroposphericDelayMeters`;
/// the inter-signal range bias is removed by `IsrbMeters`, so all signals share one receiver
/// clock (one ``GNSSSignalGroup``). Solve with ``GNSSSolverConfiguration/useIonosphere`` and
/// ``GNSSSolverConfiguration/useTroposphere`` off (``GSDCDeviceGNSS/solverConfiguration``).
public struct GSDCDeviceGNSS: Sendable {
    public struct Epoch: Sendable {
        /// GPS time, s since 1980-01-06 (from `utcTimeMillis` and the leap-second table).
        public var time: Double
        public var measurements: [PreparedMeasurement]
        /// Google's WLS position (ECEF m) for the epoch, when given.
        public var googleWLS: SIMD3<Double>?
    }
    public var epochs: [Epoch]
    /// Rows not used, by reason (`missing_state`, `message_type`, `constellation`, `timing_outlier`
    /// (2021 files, above), `implausible_value`:
    /// a satellite position no GNSS orbit has, a pseudorange outside 10,000–60,000 km, a clock bias
    /// of 1 s or more, an uncertainty outside 0.01 m…10 km), and rows whose pseudorange rate was
    /// left out (`implausible_doppler`: beyond ±20 km/s; the row itself is used).
    public var skipped: [String: Int]

    /// Solver settings for corrections taken from the file: no models of our own added, and
    /// Google's `RawPseudorangeUncertaintyMeters` as σ.
    public static var solverConfiguration: GNSSSolverConfiguration {
        var c = GNSSSolverConfiguration()
        c.useIonosphere = false; c.useTroposphere = false
        return c
    }

    /// The rules of Google's `WlsPosition*` baseline in GSDC 2023 files, for reproducing it:
    /// ``solverConfiguration`` without an elevation mask (every row with a satellite state is
    /// used, weighted 1/σ² with σ = `RawPseudorangeUncertaintyMeters`, one receiver clock after
    /// `IsrbMeters`). On the 2023 Pixel 7 Pro sample this lands a median 0.09 m (0.05–0.18 m) from
    /// Google's positions, as does an independent NumPy WLS with those rules; the 2022 sample's
    /// baseline used other, unpublished exclusions (27.5 m off with these rules, 1.17 m with
    /// ``solverConfiguration``). For accuracy use ``solverConfiguration``: the 10° mask removes
    /// the multipath-dominated low satellites.
    public static var googleBaselineConfiguration: GNSSSolverConfiguration {
        var c = solverConfiguration
        c.elevationMask = 0
        return c
    }

    public static func looksLike(firstLine: String) -> Bool {
        (firstLine.contains("RawPseudorangeMeters") && firstLine.contains("SvPositionXEcefMeters"))
            || isDerived2021(firstLine.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) })
    }

    /// The GSDC 2021 `_derived.csv` column names, by the 2022 names this reader uses.
    static let derived2021Names = ["utcTimeMillis": "millisSinceGpsEpoch", "Svid": "svid", "ConstellationType": "constellationType",
                                   "SignalType": "signalType", "RawPseudorangeMeters": "rawPrM",
                                   "RawPseudorangeUncertaintyMeters": "rawPrUncM",
                                   "SvPositionXEcefMeters": "xSatPosM", "SvPositionYEcefMeters": "ySatPosM", "SvPositionZEcefMeters": "zSatPosM",
                                   "SvVelocityXEcefMetersPerSecond": "xSatVelMps", "SvVelocityYEcefMetersPerSecond": "ySatVelMps",
                                   "SvVelocityZEcefMetersPerSecond": "zSatVelMps", "SvClockBiasMeters": "satClkBiasM",
                                   "SvClockDriftMetersPerSecond": "satClkDriftMps", "IsrbMeters": "isrbM",
                                   "IonosphericDelayMeters": "ionoDelayM", "TroposphericDelayMeters": "tropoDelayM"]

    static func isDerived2021(_ header: [String]) -> Bool {
        header.contains("millisSinceGpsEpoch") && header.contains("xSatPosM")
    }

    public static func read(contentsOf url: URL) throws(TraceFormatError) -> GSDCDeviceGNSS {
        try parse(ByteLineReader(url: url))
    }

    /// Reads a `device_gnss.csv` held in memory; `source` names it in errors.
    public static func read(data: Data, source: String) throws(TraceFormatError) -> GSDCDeviceGNSS {
        try parse(ByteLineReader(data: data, source: source))
    }

    private static func parse(_ reader: ByteLineReader) throws(TraceFormatError) -> GSDCDeviceGNSS {
        var out = GSDCDeviceGNSS(epochs: [], skipped: [:])
        var col: [String: Int] = [:]
        var columns = 0
        var derived2021 = false
        var current: Epoch? = nil
        var currentMillis: Int64? = nil
        let required = ["utcTimeMillis", "Svid", "ConstellationType", "SignalType", "RawPseudorangeMeters",
                        "SvPositionXEcefMeters", "SvPositionYEcefMeters", "SvPositionZEcefMeters", "SvClockBiasMeters"]
        try forEachFixedWidthLine(reader) { (l: FixedWidthLine) throws(TraceFormatError) in
            let text = String(decoding: l.bytes, as: UTF8.self)
            let f = text.split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            if col.isEmpty {
                derived2021 = isDerived2021(f)
                for (i, n) in f.enumerated() { col[n] = i }
                if derived2021 {
                    // Same quantities, 2021 names: read under the 2022 names.
                    for (new, old) in derived2021Names { col[new] = col[old] }
                    if col["receivedSvTimeInGpsNanos"] == nil { throw l.error("_derived.csv header has no 'receivedSvTimeInGpsNanos' column") }
                }
                for r in required where col[r] == nil {
                    throw l.error(derived2021 ? "_derived.csv header has no '\(derived2021Names[r] ?? r)' column" : "device_gnss.csv header has no '\(r)' column")
                }
                columns = f.count
                return
            }
            if f.count == 1 && f[0].isEmpty { return }
            guard f.count >= columns else { throw l.error("row has \(f.count) fields, the header \(columns)") }
            if let i = col["MessageType"], f[i] != "Raw" { out.skipped["message_type", default: 0] += 1; return }
            func d(_ name: String) throws(TraceFormatError) -> Double? {
                guard let i = col[name] else { return nil }
                let s = f[i]
                if s.isEmpty || s == "NaN" || s == "nan" { return nil }
                guard let v = Double(s), v.isFinite else { throw l.error("\(name) '\(s)' is not a number") }
                return v
            }
            let timeName = derived2021 ? "millisSinceGpsEpoch" : "utcTimeMillis"
            // Below 10¹⁵ ms (year 33,658): a time, and exact in a Double.
            guard let ms = Int64(f[col["utcTimeMillis"]!]), ms > (derived2021 ? 1000 : 0), ms < 1_000_000_000_000_000 else {
                throw l.error("\(timeName) '\(f[col["utcTimeMillis"]!])' is not a positive integer time in ms")
            }
            if ms != currentMillis {
                if let e = current { out.epochs.append(e) }
                var wls: SIMD3<Double>? = nil
                if let x = try d("WlsPositionXEcefMeters"), let y = try d("WlsPositionYEcefMeters"), let z = try d("WlsPositionZEcefMeters") { wls = SIMD3(x, y, z) }
                // 2021: GPS time, labelled one epoch (1 s) late (see the type's documentation).
                let time = derived2021 ? Double(ms - 1000) / 1000 : GNSSTime.gpsTime(unixUTC: Double(ms) / 1000)
                current = Epoch(time: time, measurements: [], googleWLS: wls)
                currentMillis = ms
            }
            if derived2021 {
                // The hosts' check: a travel time of 0–300 ms under the corrected time.
                guard let tx = try d("receivedSvTimeInGpsNanos") else { out.skipped["missing_state", default: 0] += 1; return }
                let travel = Double(ms - 1000) - tx / 1e6
                guard travel > 0, travel < 300 else { out.skipped["timing_outlier", default: 0] += 1; return }
            }
            guard let svid = Int(f[col["Svid"]!]), svid > 0, svid < 1000, let cons = Int(f[col["ConstellationType"]!]) else {
                throw l.error("Svid/ConstellationType '\(f[col["Svid"]!])', '\(f[col["ConstellationType"]!])' are not integers")
            }
            guard let sat = SatelliteID(androidConstellation: cons, svid: svid), sat.system != .sbas else {
                out.skipped["constellation", default: 0] += 1; return
            }
            guard let pr = try d("RawPseudorangeMeters"), let x = try d("SvPositionXEcefMeters"), let y = try d("SvPositionYEcefMeters"),
                  let z = try d("SvPositionZEcefMeters"), let clk = try d("SvClockBiasMeters") else {
                out.skipped["missing_state", default: 0] += 1; return
            }
            // A satellite no GNSS orbit has, or an uncertainty no receiver states (0 or 1e-300 m
            // made the row's weight infinite and lost the epoch; 1e300 m counted it used with
            // zero weight): the row is not used, counted.
            let sigma = try d("RawPseudorangeUncertaintyMeters")
            guard GNSSConstants.isPlausibleSatellitePosition(SIMD3(x, y, z)), Swift.abs(clk) < 3e8, GNSSConstants.isPlausiblePseudorange(pr),
                  sigma.map({ $0 >= 0.01 && $0 <= 1e4 }) ?? true else {
                out.skipped["implausible_value", default: 0] += 1; return
            }
            let corr = pr + clk - (try d("IsrbMeters") ?? 0) - (try d("IonosphericDelayMeters") ?? 0) - (try d("TroposphericDelayMeters") ?? 0)
            var rate: Double? = nil
            if let r = try d("PseudorangeRateMetersPerSecond") { rate = r + (try d("SvClockDriftMetersPerSecond") ?? 0) }
            if let r = rate, !GNSSConstants.isPlausibleRangeRate(r) { rate = nil; out.skipped[GNSSSkipReason.implausibleDoppler.rawValue, default: 0] += 1 }
            let vel = SIMD3(try d("SvVelocityXEcefMetersPerSecond") ?? 0, try d("SvVelocityYEcefMetersPerSecond") ?? 0, try d("SvVelocityZEcefMetersPerSecond") ?? 0)
            var m = PreparedMeasurement(satellite: sat,
                                        group: GNSSSignalGroup(system: .gps, band: "1"),
                                        correctedPseudorange: corr, correctedRangeRate: rate, carrierPhaseMeters: nil,
                                        lossOfLockIndicator: 0, satellitePosition: SIMD3(x, y, z), satelliteVelocity: vel,
                                        ionosphereScale: 0, cn0: try d("Cn0DbHz") ?? 30, source: .broadcast)
            m.sigmaOverride = sigma
            current!.measurements.append(m)
        }
        if let e = current { out.epochs.append(e) }
        if col.isEmpty { throw TraceFormatError(source: reader.source, line: nil, message: "empty file") }
        return out
    }
}
