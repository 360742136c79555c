import Foundation

/// The main geomagnetic field at one place and time, in the local geodetic North-East-Down
/// frame (axes along the WGS84 ellipsoid normal), with its yearly rate of change.
///
/// Angles in degrees, intensities in nanotesla (1 µT = 1000 nT), rates per year.
public struct MagneticField: Sendable, Hashable {
    /// X: northward component, nT.
    public var north: Double
    /// Y: eastward component, nT.
    public var east: Double
    /// Z: downward component, nT (positive in the northern magnetic hemisphere).
    public var down: Double
    /// dX/dt, nT/yr.
    public var northRate: Double
    /// dY/dt, nT/yr.
    public var eastRate: Double
    /// dZ/dt, nT/yr.
    public var downRate: Double
    /// The decimal year the field was evaluated for.
    public var decimalYear: Double
    /// The model's validity window `[validFrom, validUntil]` in decimal years.
    public var validFrom: Double
    /// End of the validity window (decimal year).
    public var validUntil: Double
    /// The ellipsoidal height (m) the field was evaluated at, when known (for
    /// ``MagneticWarning/outsideAltitudeRange(ellipsoidalHeight:)``).
    public var ellipsoidalHeight: Double?

    /// WMM's documented altitude range, meters above the ellipsoid: −1 km … 850 km.
    public static let validAltitudes: ClosedRange<Double> = -1_000...850_000

    @inlinable
    public init(north: Double, east: Double, down: Double, northRate: Double, eastRate: Double,
                downRate: Double, decimalYear: Double, validFrom: Double, validUntil: Double, ellipsoidalHeight: Double? = nil) {
        self.north = north; self.east = east; self.down = down
        self.northRate = northRate; self.eastRate = eastRate; self.downRate = downRate
        self.decimalYear = decimalYear; self.validFrom = validFrom; self.validUntil = validUntil
        self.ellipsoidalHeight = ellipsoidalHeight
    }

    /// H = √(X² + Y²), nT.
    @inlinable public var horizontalIntensity: Double { (north * north + east * east).squareRoot() }
    /// F = √(X² + Y² + Z²), nT.
    @inlinable public var totalIntensity: Double { (north * north + east * east + down * down).squareRoot() }
    /// Declination D (magnetic variation): angle from true north to the horizontal field,
    /// degrees in (−180, 180], positive east. True heading = magnetic heading + D.
    @inlinable public var declination: Double { Angle.atan2Degrees(east, north) }
    /// Inclination I (dip): angle of the field below the horizontal, degrees in [−90, 90],
    /// positive downwards.
    @inlinable public var inclination: Double { Angle.atan2Degrees(down, horizontalIntensity) }

    /// dH/dt, nT/yr.
    @inlinable public var horizontalIntensityRate: Double {
        (north * northRate + east * eastRate) / horizontalIntensity
    }
    /// dF/dt, nT/yr.
    @inlinable public var totalIntensityRate: Double {
        (north * northRate + east * eastRate + down * downRate) / totalIntensity
    }
    /// dD/dt, degrees/yr.
    @inlinable public var declinationRate: Double {
        let h2 = north * north + east * east
        return (north * eastRate - east * northRate) / h2 * Angle.degreesPerRadian
    }
    /// dI/dt, degrees/yr.
    @inlinable public var inclinationRate: Double {
        let h = horizontalIntensity
        return (h * downRate - down * horizontalIntensityRate) / (h * h + down * down) * Angle.degreesPerRadian
    }

    /// One-sigma uncertainty of the *model's* declination against the real field, degrees:
    /// `√(0.26² + (5417 nT / H)²)`, capped at 180° — the WMM2025 error model (technical report
    /// §3; the constants `D_OFFSET` and `D_COEF` in NOAA's `wmm-calculator` package). Near the
    /// magnetic poles (small H) declination is poorly determined.
    @inlinable public var declinationUncertainty: Double {
        let h = horizontalIntensity
        return Swift.min(180, (0.26 * 0.26 + (5417 / h) * (5417 / h)).squareRoot())
    }

    /// Horizontal intensity below which the compass is unreliable (WMM "blackout zone"), nT.
    public static let blackoutHorizontalIntensity = 2000.0
    /// Horizontal intensity below which compass use needs caution (WMM "caution zone"), nT.
    public static let cautionHorizontalIntensity = 6000.0

    /// Everything a user of the value should know: evaluation outside the model's validity
    /// window or altitude range, and the WMM blackout (H < 2000 nT) and caution (2000 ≤ H < 6000 nT) zones.
    /// Empty when none applies.
    public var warnings: [MagneticWarning] {
        var w: [MagneticWarning] = []
        if !(decimalYear >= validFrom && decimalYear <= validUntil) {
            w.append(.outsideValidity(decimalYear: decimalYear, validFrom: validFrom, validUntil: validUntil))
        }
        if let h = ellipsoidalHeight, !Self.validAltitudes.contains(h) {
            w.append(.outsideAltitudeRange(ellipsoidalHeight: h))
        }
        let h = horizontalIntensity
        if h < Self.blackoutHorizontalIntensity {
            w.append(.blackoutZone(horizontalIntensity: h))
        } else if h < Self.cautionHorizontalIntensity {
            w.append(.cautionZone(horizontalIntensity: h))
        }
        return w
    }
}

/// A condition under which a magnetic-model value should not be trusted blindly.
public enum MagneticWarning: Sendable, Hashable, CustomStringConvertible {
    /// The date is outside the model's validity window (decimal years); the secular variation is
    /// extrapolated and errors grow quickly.
    case outsideValidity(decimalYear: Double, validFrom: Double, validUntil: Double)
    /// The height (m) is outside WMM's documented −1 km … 850 km: the model's field is extrapolated
    /// (6.37e6 m below the ellipsoid it gave 8e35 nT).
    case outsideAltitudeRange(ellipsoidalHeight: Double)
    /// Horizontal intensity (nT) below 2000 nT: the compass is unreliable (WMM blackout zone).
    case blackoutZone(horizontalIntensity: Double)
    /// Horizontal intensity (nT) in [2000, 6000) nT: the compass may be degraded (WMM caution zone).
    case cautionZone(horizontalIntensity: Double)

    public var description: String {
        switch self {
        case .outsideValidity(let t, let a, let b):
            return "date \(t) is outside the model's validity window \(a)–\(b)"
        case .outsideAltitudeRange(let h):
            return "height \(h) m is outside the model's altitude range −1 km…850 km"
        case .blackoutZone(let h):
            return String(format: "blackout zone: horizontal intensity %.0f nT < 2000 nT, compass unreliable", h)
        case .cautionZone(let h):
            return String(format: "caution zone: horizontal intensity %.0f nT < 6000 nT, compass may be degraded", h)
        }
    }
}
