import Foundation

/// A magnetometer calibration: hard-iron offset and soft-iron matrix from an ellipsoid fit,
/// with the figures needed to judge it.
///
/// Model: `calibrated = W · (raw − offset)`, where the calibrated vectors lie on a sphere of
/// radius ``fieldStrength``. W is symmetric positive definite with det W = 1 (a pure
/// distortion: the fit cannot tell a uniform scale error from a different field strength, so
/// the scale is put into ``fieldStrength`` — the geometric-mean radius of the fitted ellipsoid).
/// Units are those of the raw samples (µT for phones and the CLI). `Codable`, so an app can store
/// a calibration and apply it on the next launch.
public struct MagnetometerCalibration: Sendable, Hashable, Codable {
    /// Hard-iron offset, µT (raw units), in the sensor frame.
    public var offset: SIMD3<Double>
    /// Soft-iron matrix W (symmetric, det W = 1).
    public var softIron: SymmetricMatrix3
    /// Radius of the calibrated sphere: the local field strength seen by the sensor, µT.
    public var fieldStrength: Double
    /// RMS of `|W(raw − offset)| − fieldStrength` over the samples, µT.
    public var residualRMS: Double
    /// Fraction (0…1) of the 72 equal-area sphere cells (6 latitude bands × 12 sectors, bands
    /// equal in `z`) that contain at least one calibrated direction. 1 means the motion
    /// covered every direction.
    public var coverage: Double
    /// The verdict: `good`, `fair` or `poor`, explained by ``issues``.
    public var quality: CalibrationQuality
    /// Why the verdict is not `good` (empty when it is).
    public var issues: [CalibrationIssue]
    /// Samples used in the fit (saturated samples and magnitude outliers excluded).
    public var samples: Int

    public init(offset: SIMD3<Double>, softIron: SymmetricMatrix3, fieldStrength: Double, residualRMS: Double,
                coverage: Double, quality: CalibrationQuality, issues: [CalibrationIssue], samples: Int) {
        self.offset = offset; self.softIron = softIron; self.fieldStrength = fieldStrength
        self.residualRMS = residualRMS; self.coverage = coverage; self.quality = quality
        self.issues = issues; self.samples = samples
    }

    /// Applies the calibration: `W · (raw − offset)`, µT.
    @inlinable
    public func calibrate(_ raw: SIMD3<Double>) -> SIMD3<Double> { softIron.multiply(raw - offset) }
}

/// Verdict on a calibration.
public enum CalibrationQuality: String, Sendable, Hashable, Codable, Comparable, CaseIterable {
    case poor, fair, good
    public static func < (a: Self, b: Self) -> Bool { a.rank < b.rank }
    var rank: Int { switch self { case .poor: 0; case .fair: 1; case .good: 2 } }
}

/// A reason a calibration is graded below `good`; each carries the measured value.
public enum CalibrationIssue: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Fewer samples than a reliable fit needs (the count; ≥ 100 recommended).
    case fewSamples(Int)
    /// The directions cover too little of the sphere (coverage 0…1).
    case lowCoverage(Double)
    /// The motion was close to a rotation about a single axis: the ratio √(λmin/λmax) of the
    /// samples' spread (1 = isotropic, 0 = planar).
    case limitedRotation(Double)
    /// Residual RMS relative to the field strength (e.g. 0.08 = 8 %): noise or disturbances.
    case highResidual(Double)
    /// Samples clipped at the sensor's range (count excluded from the fit).
    case saturation(Int)
    /// Samples whose magnitude is more than 20 × the samples' median magnitude (count excluded
    /// from the fit): corrupted values, not a field a magnetometer measures next to the others.
    case outliers(Int)
    /// Fitted field strength (µT) far from the expected or a plausible Earth field.
    case fieldStrengthMismatch(fitted: Double, expected: Double)
    /// Strong soft-iron distortion: ratio of the largest to the smallest axis of W.
    case strongSoftIron(Double)
    /// The samples did not determine an ellipsoid (too little of the sphere, or disturbances):
    /// only the hard iron was fitted (a sphere), W = I.
    case softIronUndetermined

    public var description: String {
        switch self {
        case .fewSamples(let n): return "only \(n) samples (≥ 100 recommended)"
        case .lowCoverage(let c): return String(format: "directions cover %.0f %% of the sphere", c * 100)
        case .limitedRotation(let r): return String(format: "rotation mostly about one axis (spread ratio %.3f)", r)
        case .highResidual(let r): return String(format: "residual RMS is %.1f %% of the field", r * 100)
        case .saturation(let n): return "\(n) saturated samples excluded"
        case .outliers(let n): return "\(n) samples beyond 20 × the median magnitude excluded (corrupted values)"
        case .fieldStrengthMismatch(let f, let e): return String(format: "fitted field %.1f µT, expected %.1f µT", f, e)
        case .strongSoftIron(let r): return String(format: "strong soft-iron distortion (axis ratio %.2f)", r)
        case .softIronUndetermined: return "soft iron not determined by the motion: hard iron only (W = I)"
        }
    }
}
