import Foundation

/// Incremental magnetometer calibration for apps: feed samples as they arrive, ask for an
/// estimate at any time.
///
/// The fit uses the accumulated normal equations (the 10×10 scatter matrix of
/// ``MagnetometerCalibrator``'s ellipsoid fit — 55 sums, O(1) per sample, no sample storage), so
/// an estimate from all samples equals the batch fit of the same samples to rounding.
/// Residual RMS, sphere coverage and flat-face saturation are evaluated on a bounded uniform
/// random subset of the samples (reservoir sampling, deterministic seed, `reservoirCapacity`
/// samples). With ``MagnetometerCalibrator/Configuration/saturationLimit`` set, clipped samples are
/// rejected as they arrive; without it, clipping found in the reservoir is reported (graded)
/// but those samples remain in the fit. Samples whose magnitude is more than 20 × the median of
/// the first ``MagnetometerCalibrator/Configuration/minimumSamples`` (held back until then) are
/// rejected as corrupted (``outlierCount``; the batch fit takes the median of all samples, so the
/// two agree whenever no sample is that far out).
public struct IncrementalMagnetometerCalibrator: Sendable {
    public let configuration: MagnetometerCalibrator.Configuration
    /// ``MagnetometerCalibrator/Configuration/validate()``'s error for ``configuration``, if any.
    private let configurationError: GeoAnchorError?
    private var accumulator: EllipsoidFitAccumulator?
    private var pending: [SIMD3<Double>] = []
    private var outlierLimit: Double?
    private var settled = false
    private var outliers = 0
    private var reservoir: [SIMD3<Double>] = []
    private let capacity: Int
    /// Samples kept for the quality figures (the initializer's `reservoirCapacity`, at least 64).
    public var reservoirCapacity: Int { capacity }
    private var seen = 0
    private var rejected = 0
    private var rng: SplitMix64

    /// - Parameters:
    ///   - configuration: as for the batch fit; one that fails
    ///     ``MagnetometerCalibrator/Configuration/validate()`` makes every ``add(_:)`` and
    ///     ``estimate()`` throw that error (nothing is added).
    ///   - reservoirCapacity: samples kept for quality figures; at least 64 (a smaller value is
    ///     raised to 64, ``reservoirCapacity`` says what is in use; a large one only lets the
    ///     reservoir grow as samples arrive, nothing is reserved up front).
    ///   - seed: seed of the reservoir's random choice (fixed default → reproducible).
    public init(configuration: MagnetometerCalibrator.Configuration = .init(), reservoirCapacity: Int = 1024,
                seed: UInt64 = 0x9E37_79B9_7F4A_7C15) {
        self.configuration = configuration
        configurationError = validationError { () throws(GeoAnchorError) in try configuration.validate() }
        self.capacity = Swift.max(64, reservoirCapacity)
        self.rng = SplitMix64(seed: seed)
    }

    /// Samples accepted into the fit (the first ones while held back for the outlier limit).
    public var sampleCount: Int { (accumulator?.count ?? 0) + pending.count }
    /// Samples rejected as clipped (only with a ``MagnetometerCalibrator/Configuration/saturationLimit``).
    public var rejectedCount: Int { rejected }
    /// Samples rejected as magnitude outliers (corrupted values; ``CalibrationIssue/outliers(_:)``).
    public var outlierCount: Int { outliers }

    /// Adds one raw sample (µT).
    /// - Throws: ``MagnetometerCalibrator/Configuration/validate()``'s error for an invalid
    ///   configuration; ``GeoAnchorError/nonFinite(name:value:)`` (the sample is not added).
    public mutating func add(_ raw: SIMD3<Double>) throws(GeoAnchorError) {
        if let configurationError { throw configurationError }
        for (k, name) in ["x", "y", "z"].enumerated() where !raw[k].isFinite {
            throw .nonFinite(name: "magnetometer sample \(name)", value: raw[k])
        }
        if let limit = configuration.saturationLimit,
           Swift.abs(raw.x) >= limit || Swift.abs(raw.y) >= limit || Swift.abs(raw.z) >= limit {
            rejected += 1
            return
        }
        guard settled else {
            // Hold the first samples back until their median magnitude sets the outlier limit.
            pending.append(raw)
            guard pending.count >= configuration.minimumSamples else { return }
            settled = true
            outlierLimit = MagnitudeOutliers.limit(pending.map(MagnitudeOutliers.magnitude))
            let held = pending
            pending = []
            for s in held { accept(s) }
            return
        }
        accept(raw)
    }

    private mutating func accept(_ raw: SIMD3<Double>) {
        if let l = outlierLimit, MagnitudeOutliers.magnitude(raw) > l { outliers += 1; return }
        if accumulator == nil {
            // Normalize about the first sample with its magnitude as scale (any O(field) scale
            // keeps the scatter matrix well conditioned).
            let m = (raw * raw).sum().squareRoot()
            accumulator = EllipsoidFitAccumulator(center: raw, scale: m > 0 ? m : 1)
        }
        accumulator!.add(raw)
        seen += 1
        if reservoir.count < capacity {
            reservoir.append(raw)
        } else {
            let j = rng.below(seen)   // Vitter's algorithm R
            if j < capacity { reservoir[j] = raw }
        }
    }


    /// The calibration from every sample so far, graded like the batch fit (``MagnetometerCalibration/samples``
    /// is the number of samples in the fit).
    /// - Throws: as ``MagnetometerCalibrator/fit(_:options:)`` (an invalid configuration, too few samples, single-axis rotation, no ellipsoid).
    public func estimate() throws(GeoAnchorError) -> MagnetometerCalibration {
        if let configurationError { throw configurationError }
        guard let accumulator else {
            throw .outOfRange(name: "magnetometer samples", value: Double(pending.count), allowed: .atLeast(Double(configuration.minimumSamples)))
        }
        let solution = try accumulator.solve(minimumSamples: configuration.minimumSamples)
        var quality = QualityEvaluator(solution: solution)
        for s in reservoir { quality.add(s) }
        var clipped = rejected
        if configuration.saturationLimit == nil {
            let x = reservoir.map(\.x), y = reservoir.map(\.y), z = reservoir.map(\.z)
            clipped = x.withUnsafeBufferPointer { px in y.withUnsafeBufferPointer { py in z.withUnsafeBufferPointer { pz in
                Saturation.detect(x: px, y: py, z: pz, limit: nil).count
            } } }
        }
        return quality.result(spreadRatio: accumulator.spreadRatio, saturated: clipped, outliers: outliers,
                              fitSamples: accumulator.count, options: configuration)
    }
}
