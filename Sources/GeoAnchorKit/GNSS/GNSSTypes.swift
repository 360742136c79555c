import Foundation

/// A satellite navigation system, by its RINEX letter.
public enum GNSSSystem: Character, Sendable, Hashable, Codable, CaseIterable, Comparable {
    case gps = "G", glonass = "R", galileo = "E", beidou = "C", qzss = "J", navic = "I", sbas = "S"

    public static func < (a: GNSSSystem, b: GNSSSystem) -> Bool { a.order < b.order }
    /// Position in ``allCases`` (declaration order), without building the array: orders systems
    /// and indexes per-system tables on hot paths.
    @usableFromInline var order: Int {
        switch self {
        case .gps: return 0
        case .glonass: return 1
        case .galileo: return 2
        case .beidou: return 3
        case .qzss: return 4
        case .navic: return 5
        case .sbas: return 6
        }
    }

    /// Gravitational constant GM (m³/s²) of the system's ICD: IS-GPS-200 (also QZSS),
    /// Galileo OS SIS ICD and BDS-SIS-ICD (CGCS2000).
    public var gravitationalConstant: Double {
        switch self {
        case .galileo, .beidou: return 3.986004418e14
        default: return 3.986005e14
        }
    }

    /// Earth rotation rate (rad/s) of the system's ICD (BDS: CGCS2000 value).
    public var earthRotationRate: Double { self == .beidou ? 7.292115e-5 : 7.2921151467e-5 }
}

/// A satellite: system and PRN/slot number as RINEX writes them (`G05`, `E13`, `R21`).
public struct SatelliteID: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    public var system: GNSSSystem
    /// PRN (GPS, Galileo, BeiDou, QZSS as 1–99 RINEX numbers) or GLONASS slot.
    public var number: Int

    public init(system: GNSSSystem, number: Int) { self.system = system; self.number = number }

    /// Parses `G05`, `G 5` or (RINEX 2, GPS implied) ` 5`. Nil for anything else.
    public init?(_ s: Substring, defaultSystem: GNSSSystem = .gps) {
        // Trimmed by hand (spaces and tabs, the only blanks of the fixed-column formats): this
        // runs once per satellite record of an SP3 or CLK file, and Foundation's
        // `trimmingCharacters` made it a fifth of reading an SP3 file.
        func trimmed(_ x: Substring) -> Substring {
            var t = x
            while let c = t.first, c == " " || c == "\t" { t.removeFirst() }
            while let c = t.last, c == " " || c == "\t" { t.removeLast() }
            return t
        }
        let t = trimmed(s)
        guard !t.isEmpty else { return nil }
        var sys = defaultSystem
        var digits = t
        if let c = t.first, let g = GNSSSystem(rawValue: c) { sys = g; digits = t.dropFirst() }
        let d = trimmed(digits)
        guard !d.isEmpty, d.count <= 3, d.allSatisfy({ $0.isASCII && $0.isNumber }), let n = Int(d), n >= 1 else { return nil }
        system = sys; number = n
    }

    public static func < (a: SatelliteID, b: SatelliteID) -> Bool {
        a.system != b.system ? a.system < b.system : a.number < b.number
    }

    /// From Android's `GnssStatus` constellation type and `Svid` (GnssLogger, GSDC): 1 GPS,
    /// 2 SBAS (PRN 120–158 → RINEX S20–S58), 3 GLONASS (slot), 4 QZSS (193–200 → J01–J08),
    /// 5 BeiDou, 6 Galileo, 7 NavIC. Nil for unknown (0) or other types.
    public init?(androidConstellation cons: Int, svid: Int) {
        var number = svid
        switch cons {
        case 1: system = .gps
        case 2: system = .sbas; if number > 100 { number -= 100 }
        case 3: system = .glonass
        case 4: system = .qzss; if number > 192 { number -= 192 }
        case 5: system = .beidou
        case 6: system = .galileo
        case 7: system = .navic
        default: return nil
        }
        guard number >= 1 else { return nil }
        self.number = number
    }

    public var description: String { "\(system.rawValue)\(number < 10 ? "0" : "")\(number)" }
}

/// Physical constants shared by the GNSS models.
public enum GNSSConstants {
    /// Speed of light in vacuum, m/s (IS-GPS-200).
    public static let speedOfLight = 299_792_458.0
    /// The Earth's rotation rate, rad/s (WGS84 / IS-GPS-200), used for the rotation during a
    /// signal's flight.
    public static let earthRotationRate = 7.2921151467e-5
    /// GPS L1 / Galileo E1 / BeiDou B1C / QZSS L1 carrier, Hz.
    public static let l1Frequency = 1_575.42e6
    /// GPS L5 / Galileo E5a / QZSS L5 / BeiDou B2a carrier, Hz.
    public static let l5Frequency = 1_176.45e6
    /// GPS L2 carrier, Hz.
    public static let l2Frequency = 1_227.60e6
    /// Galileo E5b / BeiDou B2I carrier, Hz.
    public static let e5bFrequency = 1_207.14e6
    /// BeiDou B1I carrier, Hz.
    public static let b1iFrequency = 1_561.098e6
    /// GLONASS G1 FDMA: 1602 MHz + k × 562.5 kHz.
    public static func glonassG1(channel k: Int) -> Double { 1_602e6 + Double(k) * 562.5e3 }
    /// GLONASS G2 FDMA: 1246 MHz + k × 437.5 kHz.
    public static func glonassG2(channel k: Int) -> Double { 1_246e6 + Double(k) * 437.5e3 }

    /// Plausibility of values read from files, shared by the measurement preparation and the
    /// readers (a corrupted value is skipped and counted, never fed to a solver):
    /// a satellite position 10,000–50,000 km from the Earth's centre (GNSS orbits: 20,000–42,200 km).
    static func isPlausibleSatellitePosition(_ p: SIMD3<Double>) -> Bool {
        let r2 = (p * p).sum()
        return r2 >= 1e14 && r2 <= 2.5e15
    }
    /// A pseudorange of 10,000–60,000 km (open interval).
    static func isPlausiblePseudorange(_ pr: Double) -> Bool { pr > 1e7 && pr < 6e7 }
    /// A GNSS carrier frequency: 1–2 GHz (the carriers are 1.17–1.61 GHz).
    static func isCarrierFrequency(_ f: Double) -> Bool { f >= 1e9 && f <= 2e9 }
    /// A pseudorange rate (m/s; a Doppler times the wavelength, with or without the satellite
    /// clock drift) of at most 20 km/s: a satellite moves ≤ 1 km/s along the line of sight, a
    /// receiver ≤ 1 km/s, and a receiver clock drifts ≤ 60 ppm (18 km/s).
    static func isPlausibleRangeRate(_ r: Double) -> Bool { Swift.abs(r) <= 2e4 }
}

/// GNSS time scales and the leap-second table.
///
/// Internally every time is **GPS time in seconds since 1980-01-06T00:00:00** (`GPSTime`), a
/// continuous scale; conversions to UTC are explicit and use the leap-second table below
/// (IERS Bulletin C; GPS − UTC = 18 s since 2017-01-01). Galileo System Time equals GPS time
/// (to a few ns), BeiDou Time is GPS − 14 s, GLONASS time is UTC(SU) + 3 h.
public enum GNSSTime {
    /// Unix time (s) of the GPS epoch 1980-01-06T00:00:00Z.
    public static let gpsEpochUnix = 315_964_800.0
    /// Seconds per GPS week.
    public static let secondsPerWeek = 604_800.0

    /// (Unix time at which it took effect, GPS − UTC in seconds after it).
    public static let leapSeconds: [(unix: Double, gpsMinusUTC: Double)] = [
        (362_793_600, 1), (394_329_600, 2), (425_865_600, 3), (489_024_000, 4), (567_993_600, 5),
        (631_152_000, 6), (662_688_000, 7), (709_948_800, 8), (741_484_800, 9), (773_020_800, 10),
        (820_454_400, 11), (867_715_200, 12), (915_148_800, 13), (1_136_073_600, 14), (1_230_768_000, 15),
        (1_341_100_800, 16), (1_435_708_800, 17), (1_483_228_800, 18),
    ]

    /// GPS − UTC (s) at the given UTC Unix time.
    public static func gpsMinusUTC(unixUTC t: Double) -> Double {
        var v = 0.0
        for e in leapSeconds where t >= e.unix { v = e.gpsMinusUTC }
        return v
    }

    /// UTC Unix seconds for a GPS time (seconds since the GPS epoch).
    public static func unixUTC(gpsTime t: Double) -> Double {
        let approx = t + gpsEpochUnix
        // The leap count is looked up at the UTC instant (approx − leap); one refinement settles it.
        let l0 = gpsMinusUTC(unixUTC: approx)
        return approx - gpsMinusUTC(unixUTC: approx - l0)
    }

    /// GPS time (s since the GPS epoch) for a UTC Unix time.
    public static func gpsTime(unixUTC t: Double) -> Double { t - gpsEpochUnix + gpsMinusUTC(unixUTC: t) }

    /// Seconds since the GPS epoch of a calendar date-time read in a file, **in the same scale**
    /// (no leap seconds applied; the caller converts between scales).
    public static func secondsSinceGPSEpoch(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Double) -> Double {
        let days = ByteParsing.daysFromCivil(year: year, month: month, day: day) - ByteParsing.daysFromCivil(year: 1980, month: 1, day: 6)
        return Double(days) * 86_400 + Double(hour * 3600 + minute * 60) + second
    }

    /// Shifts `t` by whole weeks so that it is within half a week of `reference` (time-of-week
    /// crossovers in ephemeris age computations, IS-GPS-200 20.3.3.4.3).
    @inlinable
    public static func nearest(_ t: Double, to reference: Double) -> Double {
        var d = t - reference
        if d > secondsPerWeek / 2 { d -= secondsPerWeek } else if d < -secondsPerWeek / 2 { d += secondsPerWeek }
        return reference + d
    }
}

/// A time system named in a RINEX or SP3 header.
public enum GNSSTimeSystem: String, Sendable, Hashable, Codable {
    case gps = "GPS", glonass = "GLO", galileo = "GAL", beidou = "BDT", qzss = "QZS", utc = "UTC", tai = "TAI", navic = "IRN"

    /// Converts a calendar reading in this scale (seconds since 1980-01-06 in that scale) to GPS time.
    public func toGPS(_ secondsInScale: Double) -> Double {
        switch self {
        case .gps, .galileo, .qzss, .navic: return secondsInScale
        case .beidou: return secondsInScale + 14
        case .tai: return secondsInScale - 19
        case .utc: return secondsInScale + GNSSTime.gpsMinusUTC(unixUTC: secondsInScale + GNSSTime.gpsEpochUnix)
        case .glonass:
            let utc = secondsInScale - 3 * 3600
            return utc + GNSSTime.gpsMinusUTC(unixUTC: utc + GNSSTime.gpsEpochUnix)
        }
    }
}
