import Foundation

/// A compass heading with its uncertainty.
public struct CompassHeading: Sendable, Hashable {
    /// Heading of the device's forward axis, degrees clockwise from magnetic north, [0, 360).
    public var magneticHeading: Double
    /// Heading from true north, degrees [0, 360): magnetic heading + declination; `nil` when
    /// no declination was given.
    public var trueHeading: Double?
    /// One-sigma (68 %) uncertainty of ``trueHeading`` (or of ``magneticHeading`` without
    /// declination), degrees. See ``TiltCompensation/heading(magnetometer:accelerometer:forward:declination:declinationUncertainty:magnetometerNoise:accelerometerNoise:)``.
    public var accuracy: Double
    /// Measured dip angle of the field below the horizontal, degrees (compare with the WMM
    /// ``MagneticField/inclination`` to detect disturbances).
    public var inclination: Double
    /// Measured horizontal field strength, in the magnetometer's units (µT).
    public var horizontalFieldStrength: Double
}

/// Tilt-compensated compass heading from a calibrated magnetometer and an accelerometer.
public enum TiltCompensation {
    /// Heading of the device's `forward` axis from one calibrated magnetometer reading and the
    /// accelerometer's reading at rest, both in the same body frame.
    ///
    /// Method: with *up* = â (an accelerometer at rest measures the specific force, which points
    /// up), *east* = normalize(m × up) and *north* = up × east are the horizontal axes in the
    /// body frame, and heading = atan2(f·east, f·north). No Euler angles, so no gimbal lock
    /// except where heading itself is undefined.
    ///
    /// - Parameters:
    ///   - m: the magnetometer's calibrated field (``MagnetometerCalibration/calibrate(_:)``), µT.
    ///   - a: the accelerometer's specific force at rest, any unit (pointing *up*: a phone lying
    ///     face up reads +z; negate CoreMotion's `gravity`, which points down).
    ///   - f: forward, the body axis whose heading is wanted (default +y, the top edge of a phone).
    ///   - declination: degrees east (``MagneticField/declination``); gives ``CompassHeading/trueHeading``.
    ///   - declinationUncertainty: 1σ degrees (``MagneticField/declinationUncertainty``).
    ///   - magnetometerNoise: 1σ per axis after calibration, µT (e.g. the calibration's
    ///     ``MagnetometerCalibration/residualRMS``).
    ///   - accelerometerNoise: 1σ per axis in the accelerometer's unit (tilt error ≈ σₐ/|a|).
    /// - Returns: `nil` when the heading is undefined: zero acceleration, a vertical field, or a
    ///   forward axis within ≈ 1° of vertical.
    ///
    /// - Accuracy: `accuracy = √((σₘ/H)² + (σₐ/|a| · tan I)² + σ_D²)` (radians → degrees): the
    ///   magnetometer noise across the horizontal field H, the tilt error leaking the vertical
    ///   field (dip I) into the horizontal plane, and the declination's uncertainty. First-order
    ///   propagation, checked by Monte Carlo in the tests.
    public static func heading(magnetometer m: SIMD3<Double>, accelerometer a: SIMD3<Double>,
                               forward f: SIMD3<Double> = SIMD3(0, 1, 0), declination: Double? = nil,
                               declinationUncertainty: Double = 0, magnetometerNoise: Double = 0.5,
                               accelerometerNoise: Double = 0.05) -> CompassHeading? {
        let aNorm = (a * a).sum().squareRoot()
        guard aNorm > 0, aNorm.isFinite else { return nil }
        let up = a / aNorm
        let e = cross(m, up)
        let h = (e * e).sum().squareRoot()   // |m × up| = horizontal field strength
        guard h > 1e-12 * (m * m).sum().squareRoot(), h.isFinite else { return nil }
        let east = e / h
        let north = cross(up, east)
        let fe = (f * east).sum(), fn = (f * north).sum()
        let fNorm = (f * f).sum().squareRoot()
        guard (fe * fe + fn * fn).squareRoot() > 0.02 * fNorm else { return nil }
        let magnetic = Angle.normalizeHeading(Angle.atan2Degrees(fe, fn))
        let vertical = (m * up).sum()               // −Z (up component of the field)
        let dip = Angle.atan2Degrees(-vertical, h)
        let sigmaMag = magnetometerNoise / h
        let sigmaTilt = accelerometerNoise / aNorm * Swift.abs(vertical) / h
        var variance = sigmaMag * sigmaMag + sigmaTilt * sigmaTilt
        variance *= Angle.degreesPerRadian * Angle.degreesPerRadian
        var trueHeading: Double? = nil
        if let declination {
            trueHeading = Angle.normalizeHeading(magnetic + declination)
            variance += declinationUncertainty * declinationUncertainty
        }
        return CompassHeading(magneticHeading: magnetic, trueHeading: trueHeading, accuracy: variance.squareRoot(),
                              inclination: dip, horizontalFieldStrength: h)
    }

    @inline(__always)
    static func cross(_ u: SIMD3<Double>, _ v: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(u.y * v.z - u.z * v.y, u.z * v.x - u.x * v.z, u.x * v.y - u.y * v.x)
    }
}
