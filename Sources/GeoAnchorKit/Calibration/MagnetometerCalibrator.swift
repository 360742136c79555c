import Foundation

/// Batch magnetometer calibration: hard iron + full symmetric soft iron from an ellipsoid fit.
///
/// Steps: reject non-finite input (typed error naming the sample); detect clipped samples
/// (``Configuration/saturationLimit`` or flat faces at a per-axis extreme) and leave them out; refuse
/// fewer than ``Configuration/minimumSamples`` samples or a rotation about a single axis (the samples
/// then lie on a circle and no ellipsoid is determined); fit the ellipsoid (trace-constrained
/// general quadric + ellipsoid check, see `EllipsoidFitAccumulator`); when the motion does not
/// determine an ellipsoid (not definite, or axes more than 2:1 apart) fit a sphere instead —
/// hard iron only, W = I, flagged ``CalibrationIssue/softIronUndetermined``; grade the fit by
/// residual, sphere coverage, spread of the motion, sample count, soft-iron strength and (if
/// given) the expected field strength.
///
/// - Accuracy: on synthetic data with hard iron up to 50 µT, soft iron ±20 %, 0.5 µT noise and
///   motion covering the sphere (2000 samples, 20 seeded trials), the worst offset error is
///   0.049 µT (bound tested: 0.5 µT) and the worst calibration-caused tilt-compensated heading
///   RMS error 0.145° (bound tested: 0.5°) — Tests/GeoAnchorKitTests/Calibration.
public enum MagnetometerCalibrator {
    /// Fit options.
    public struct Configuration: Sendable, Hashable {
        /// Fewer samples are refused (an ellipsoid has 9 parameters). Default 12; in
        /// ``minimumSamplesRange`` [10, 1,000,000].
        public var minimumSamples: Int
        /// Absolute sensor range (raw units, > 0): samples with any |component| ≥ this are clipped
        /// and excluded. `nil`: detect flat faces at each axis' extremes instead.
        public var saturationLimit: Double?
        /// The field strength expected here (µT, e.g. ``MagneticField/totalIntensity`` / 1000
        /// from the WMM, > 0); a fitted strength more than 15 % away is flagged (poor beyond 30 %).
        /// `nil`: only implausible strengths outside 15…90 µT are flagged.
        public var expectedFieldStrength: Double?

        /// Stores the values as given; ``MagnetometerCalibrator/fit(_:options:)`` refuses them
        /// when they fail ``validate()`` (a `minimumSamples` below 10 was silently raised to 10).
        public init(minimumSamples: Int = 12, saturationLimit: Double? = nil, expectedFieldStrength: Double? = nil) {
            self.minimumSamples = minimumSamples
            self.saturationLimit = saturationLimit
            self.expectedFieldStrength = expectedFieldStrength
        }

        /// The values ``minimumSamples`` accepts: [10, 1,000,000]. An ellipsoid has 9
        /// parameters, so 10 samples are the fewest that over-determine it. A million samples is
        /// almost 3 hours of a 100 Hz magnetometer, and ``IncrementalMagnetometerCalibrator``
        /// holds that many back before its first estimate: a larger count only means "never".
        public static let minimumSamplesRange = ValueRange.closed(10, 1_000_000)

        /// Checks every value: ``minimumSamples`` in ``minimumSamplesRange``;
        /// ``saturationLimit`` and ``expectedFieldStrength`` finite and > 0 when set (a limit
        /// ≤ 0 clipped every sample; a strength ≤ 0 was silently ignored).
        /// ``MagnetometerCalibrator/fit(_:options:)`` and ``IncrementalMagnetometerCalibrator``
        /// throw this error before looking at any sample.
        /// - Throws: ``GeoAnchorError/nonFinite(name:value:)`` or
        ///   ``GeoAnchorError/outOfRange(name:value:allowed:)`` naming the first bad value.
        public func validate() throws(GeoAnchorError) {
            try Self.minimumSamplesRange.check(Double(minimumSamples), name: "minimumSamples")
            if let v = saturationLimit { try ValueRange.greaterThan(0).check(v, name: "saturationLimit") }
            if let v = expectedFieldStrength { try ValueRange.greaterThan(0, unit: "µT").check(v, name: "expectedFieldStrength") }
        }
    }

    /// Fits a calibration to raw magnetometer samples (any consistent unit; µT expected).
    /// - Throws: ``Configuration/validate()``'s error for invalid `options`;
    ///   ``GeoAnchorError/nonFinite(name:value:)`` naming the first non-finite sample;
    ///   ``GeoAnchorError/outOfRange(name:value:allowed:)`` for too few samples, single-axis
    ///   rotation, or data that no ellipsoid fits.
    public static func fit(_ samples: [SIMD3<Double>], options: Configuration = Configuration()) throws(GeoAnchorError) -> MagnetometerCalibration {
        let n = samples.count
        var x = [Double](repeating: 0, count: n), y = x, z = x
        for i in 0..<n { x[i] = samples[i].x; y[i] = samples[i].y; z[i] = samples[i].z }
        return try x.withUnsafeBufferPointer { px throws(GeoAnchorError) in
            try y.withUnsafeBufferPointer { py throws(GeoAnchorError) in
                try z.withUnsafeBufferPointer { pz throws(GeoAnchorError) in
                    try fit(x: px, y: py, z: pz, options: options)
                }
            }
        }
    }

    /// Fits a calibration to samples given as three component buffers of equal length.
    /// - Throws: as ``fit(_:options:)``.
    /// - Precondition: equal counts (programmer error otherwise).
    public static func fit(x: UnsafeBufferPointer<Double>, y: UnsafeBufferPointer<Double>, z: UnsafeBufferPointer<Double>,
                           options: Configuration = Configuration()) throws(GeoAnchorError) -> MagnetometerCalibration {
        let n = x.count
        precondition(y.count == n && z.count == n, "component buffers differ in count")
        try options.validate()
        var magnitudes = [Double](repeating: 0, count: n)
        for i in 0..<n {
            let v = SIMD3(x[i], y[i], z[i])
            guard v.x.isFinite && v.y.isFinite && v.z.isFinite else {
                let bad = !v.x.isFinite ? ("x", v.x) : !v.y.isFinite ? ("y", v.y) : ("z", v.z)
                throw .nonFinite(name: "magnetometer sample #\(i) \(bad.0)", value: bad.1)
            }
            magnitudes[i] = MagnitudeOutliers.magnitude(v)
        }
        guard n >= options.minimumSamples else {
            throw .outOfRange(name: "magnetometer samples", value: Double(n), allowed: .atLeast(Double(options.minimumSamples)))
        }
        let clipped = Saturation.detect(x: x, y: y, z: z, limit: options.saturationLimit)
        var outliers = Set<Int>()
        if let limit = MagnitudeOutliers.limit(magnitudes) {
            for i in 0..<n where magnitudes[i] > limit && !clipped.contains(i) { outliers.insert(i) }
        }
        let skipped = clipped.union(outliers)
        var mean = SIMD3<Double>(repeating: 0)
        for i in 0..<n where skipped.isEmpty || !skipped.contains(i) { mean += SIMD3(x[i], y[i], z[i]) }
        let used = Double(n - skipped.count)
        mean /= Swift.max(1, used)
        var meanSquare = 0.0
        for i in 0..<n where skipped.isEmpty || !skipped.contains(i) {
            let d = SIMD3(x[i], y[i], z[i]) - mean
            meanSquare += (d * d).sum()
        }
        var acc = EllipsoidFitAccumulator(center: mean, scale: (meanSquare / Swift.max(1, used)).squareRoot())
        if skipped.isEmpty {
            acc.add(x: x, y: y, z: z, skip: { _ in false })
        } else {
            acc.add(x: x, y: y, z: z, skip: { skipped.contains($0) })
        }
        let solution = try acc.solve(minimumSamples: options.minimumSamples)
        var quality = QualityEvaluator(solution: solution)
        for i in 0..<n where skipped.isEmpty || !skipped.contains(i) {
            quality.add(SIMD3(x[i], y[i], z[i]))
        }
        return quality.result(spreadRatio: acc.spreadRatio, saturated: clipped.count, outliers: outliers.count,
                              fitSamples: acc.count, options: options)
    }
}

/// Samples far beyond the data's own scale: magnitude more than ``factor`` × the median
/// magnitude. A magnetometer's raw samples lie within a few times each other (the field ± the
/// hard-iron offset); one corrupted value (1e6 µT among 50 µT ones) dominates the least-squares
/// fit — the incremental calibrator then refused every estimate for good with "rotation mostly
/// about one axis". Unit-free, so any consistent unit works.
enum MagnitudeOutliers {
    static let factor = 20.0

    /// |v|, without overflow for huge components.
    static func magnitude(_ v: SIMD3<Double>) -> Double {
        let m = Swift.max(Swift.abs(v.x), Swift.abs(v.y), Swift.abs(v.z))
        guard m > 0, m.isFinite else { return m }
        let u = v / m
        return m * (u * u).sum().squareRoot()
    }

    /// The outlier limit of samples with these magnitudes (nil when their median is 0).
    static func limit(_ magnitudes: [Double]) -> Double? {
        guard !magnitudes.isEmpty else { return nil }
        let sorted = magnitudes.sorted()
        let median = sorted[sorted.count / 2]
        return median > 0 ? factor * median : nil
    }
}

/// Detection of clipped (saturated) magnetometer samples.
enum Saturation {
    /// Indices of clipped samples: any |component| ≥ `limit` when given; otherwise, per axis and
    /// side, the samples sitting exactly on the extreme value when there are ≥ 3 of them and
    /// they spread sideways over more than 30 % of that axis' half-range — a flat face. On an
    /// unclipped ellipsoid the samples at a quantized extreme sit in a small cap (lateral radius
    /// √(2Rq) for radius R and quantum q: ≈ 4 µT for R = 50 µT, q = 0.15 µT), so quantization
    /// alone is not mistaken for clipping.
    static func detect(x: UnsafeBufferPointer<Double>, y: UnsafeBufferPointer<Double>, z: UnsafeBufferPointer<Double>,
                       limit: Double?) -> Set<Int> {
        let n = x.count
        var out = Set<Int>()
        if let limit {
            for i in 0..<n where Swift.abs(x[i]) >= limit || Swift.abs(y[i]) >= limit || Swift.abs(z[i]) >= limit {
                out.insert(i)
            }
            return out
        }
        guard n > 0 else { return out }
        let axes = [x, y, z]
        for a in 0..<3 {
            let v = axes[a]
            var lo = v[0], hi = v[0]
            for i in 0..<n { lo = Swift.min(lo, v[i]); hi = Swift.max(hi, v[i]) }
            let halfRange = (hi - lo) / 2
            guard halfRange > 0 else { continue }
            for extreme in [lo, hi] {
                let idx = (0..<n).filter { v[$0] == extreme }
                guard idx.count >= 3 else { continue }
                let o1 = axes[(a + 1) % 3], o2 = axes[(a + 2) % 3]
                var c1 = 0.0, c2 = 0.0
                for i in idx { c1 += o1[i]; c2 += o2[i] }
                c1 /= Double(idx.count); c2 /= Double(idx.count)
                var spread = 0.0
                for i in idx { spread = Swift.max(spread, ((o1[i] - c1) * (o1[i] - c1) + (o2[i] - c2) * (o2[i] - c2)).squareRoot()) }
                if spread > 0.3 * halfRange { out.formUnion(idx) }
            }
        }
        return out
    }
}

/// Residual RMS and sphere coverage of calibrated samples, and the verdict.
struct QualityEvaluator {
    let offset: SIMD3<Double>
    let softIron: SymmetricMatrix3
    let fieldStrength: Double
    let softIronEstimated: Bool
    private var sumSquares = 0.0
    private var count = 0
    private var cells = [Bool](repeating: false, count: QualityEvaluator.bands * QualityEvaluator.sectors)

    static let bands = 6, sectors = 12

    init(solution: EllipsoidFitAccumulator.Solution) {
        offset = solution.offset; softIron = solution.softIron; fieldStrength = solution.fieldStrength
        softIronEstimated = solution.softIronEstimated
    }

    mutating func add(_ raw: SIMD3<Double>) {
        let c = softIron.multiply(raw - offset)
        let r = (c * c).sum().squareRoot()
        let e = r - fieldStrength
        sumSquares += e * e
        count += 1
        // r = ∞ for a 1e308 µT sample makes c.z / r NaN, and Int(NaN) traps: such a sample hits no cell.
        guard r > 0, r.isFinite else { return }
        // Equal-area cells: bands equal in z/r (Archimedes), sectors equal in azimuth.
        let zr = Swift.min(Swift.max(c.z / r, -1), 1)
        let band = Swift.min(Self.bands - 1, Int((zr + 1) / 2 * Double(Self.bands)))
        var az = Foundation.atan2(c.y, c.x) / (2 * Double.pi)
        if az < 0 { az += 1 }
        let sector = Swift.min(Self.sectors - 1, Int(az * Double(Self.sectors)))
        cells[band * Self.sectors + sector] = true
    }

    var coverage: Double { Double(cells.lazy.filter { $0 }.count) / Double(cells.count) }
    var residualRMS: Double { count > 0 ? (sumSquares / Double(count)).squareRoot() : .nan }

    /// - Parameter fitSamples: samples in the fit (graded for count; the evaluated samples may be a subset).
    func result(spreadRatio: Double, saturated: Int, outliers: Int = 0, fitSamples: Int, options: MagnetometerCalibrator.Configuration) -> MagnetometerCalibration {
        var issues: [(CalibrationIssue, CalibrationQuality)] = []
        func flag(_ i: CalibrationIssue, _ q: CalibrationQuality) { issues.append((i, q)) }
        let cov = coverage, rms = residualRMS, rel = rms / fieldStrength
        if fitSamples < 50 { flag(.fewSamples(fitSamples), .poor) } else if fitSamples < 100 { flag(.fewSamples(fitSamples), .fair) }
        if cov < 0.35 { flag(.lowCoverage(cov), .poor) } else if cov < 0.6 { flag(.lowCoverage(cov), .fair) }
        if spreadRatio < 0.25 { flag(.limitedRotation(spreadRatio), .poor) } else if spreadRatio < 0.4 { flag(.limitedRotation(spreadRatio), .fair) }
        if rel > 0.06 { flag(.highResidual(rel), .poor) } else if rel > 0.03 { flag(.highResidual(rel), .fair) }
        if saturated > 0 { flag(.saturation(saturated), saturated * 50 > count + saturated ? .poor : .fair) }
        if outliers > 0 { flag(.outliers(outliers), outliers * 50 > count + outliers ? .poor : .fair) }
        let axes = softIron.eigen.values
        let ratio = axes[2] / axes[0]
        if ratio > 1.5 { flag(.strongSoftIron(ratio), .fair) }
        if !softIronEstimated { flag(.softIronUndetermined, .fair) }
        if let e = options.expectedFieldStrength, e > 0 {
            let d = Swift.abs(fieldStrength - e) / e
            if d > 0.3 { flag(.fieldStrengthMismatch(fitted: fieldStrength, expected: e), .poor) }
            else if d > 0.15 { flag(.fieldStrengthMismatch(fitted: fieldStrength, expected: e), .fair) }
        } else if fieldStrength < 15 || fieldStrength > 90 {
            flag(.fieldStrengthMismatch(fitted: fieldStrength, expected: fieldStrength < 15 ? 22 : 67), .fair)
        }
        let verdict = issues.map(\.1).min() ?? .good
        return MagnetometerCalibration(offset: offset, softIron: softIron, fieldStrength: fieldStrength,
                                       residualRMS: rms, coverage: cov, quality: verdict,
                                       issues: issues.map(\.0), samples: fitSamples)
    }
}
