import Foundation

/// One sighting: the user points the device at a landmark with known coordinates.
public struct LandmarkSighting: Sendable, Hashable {
    /// Where the device was (only latitude/longitude matter).
    public var devicePosition: GeodeticCoordinate
    /// Device position uncertainty: 68 % horizontal radius, meters (CoreLocation's
    /// `horizontalAccuracy`).
    public var horizontalAccuracy: Double
    /// The heading the device reported while pointing at the landmark, degrees from north.
    public var observedHeading: Double
    /// 1σ of one observed heading (pointing + sensor noise), degrees.
    public var headingAccuracy: Double
    /// The landmark's position.
    public var landmark: GeodeticCoordinate
    /// Landmark position uncertainty: 68 % horizontal radius, meters (0 for a surveyed point).
    public var landmarkAccuracy: Double

    public init(devicePosition: GeodeticCoordinate, horizontalAccuracy: Double, observedHeading: Double,
                headingAccuracy: Double = 2, landmark: GeodeticCoordinate, landmarkAccuracy: Double = 0) {
        self.devicePosition = devicePosition; self.horizontalAccuracy = horizontalAccuracy
        self.observedHeading = observedHeading; self.headingAccuracy = headingAccuracy
        self.landmark = landmark; self.landmarkAccuracy = landmarkAccuracy
    }
}

/// The heading offset that best explains a set of landmark sightings:
/// `corrected heading = observed heading + offset`.
public struct LandmarkHeadingOffset: Sendable, Hashable {
    /// Weighted least-squares offset, degrees in (−180, 180]. Add it to observed headings.
    public var offset: Double
    /// 1σ of ``offset``, degrees: the formal `1/√Σw` scaled by `√χ²ᵥ` when the residuals
    /// scatter more than their stated accuracies explain (never scaled down).
    public var standardError: Double
    /// `1/√Σw` from the stated accuracies alone, degrees.
    public var formalStandardError: Double
    /// χ² of the inliers per degree of freedom (`nan` with one inlier).
    public var reducedChiSquare: Double
    /// One entry per sighting, in input order.
    public var sightings: [Residual]

    /// How one sighting fits the estimate.
    public struct Residual: Sendable, Hashable {
        /// Geodesic azimuth from the device to the landmark, degrees from true north, [0, 360).
        public var azimuth: Double
        /// Geodesic distance device → landmark on the WGS84 ellipsoid, meters.
        public var distance: Double
        /// `azimuth − (observed + offset)`, degrees in (−180, 180].
        public var residual: Double
        /// 1σ of this sighting's `azimuth − observed`, degrees: heading accuracy combined with
        /// the position uncertainties seen from the distance (`σ⊥ / d`).
        public var sigma: Double
        /// `residual / sigma`.
        public var normalizedResidual: Double
        /// True when the sighting was left out of the estimate (|normalized residual| > threshold).
        public var isOutlier: Bool
    }

    /// A 68 % horizontal radius R of a circular normal distribution is R = σ·√(−2 ln 0.32)
    /// ≈ 1.5096 σ, σ the per-axis standard deviation (the one across the line of sight).
    public static var radius68PerSigma: Double { CircularError.radius68PerSigma }

    /// Estimates the offset by weighted least squares with iterative outlier rejection.
    ///
    /// Each sighting i gives `rᵢ = azimuthᵢ − observedᵢ` with variance
    /// `σᵢ² = σ_heading² + ((σ⊥,device² + σ⊥,landmark²) / dᵢ²)` (in rad², σ⊥ = 68 % radius / 1.5096):
    /// a near landmark constrains the heading less than a far one. Starting from the weighted
    /// median, the offset is the weighted mean of the wrap-safe differences; sightings with
    /// |rᵢ − offset| / σᵢ > `outlierThreshold` are excluded and the mean recomputed until the
    /// set is stable (never below half of the sightings, rounded up).
    ///
    /// - Parameters:
    ///   - sightings: at least one.
    ///   - outlierThreshold: normalized residual beyond which a sighting is an outlier (3σ).
    /// - Throws: ``GeoAnchorError/outOfRange(name:value:allowed:)`` for no sightings, negative or
    ///   non-finite accuracies, or a device at (< 1 mm from) the landmark; range errors for
    ///   invalid coordinates.
    ///
    /// - Accuracy: azimuths are geodesic azimuths on WGS84 (``Geodesic``, ≤ 1e-12°); for
    ///   landmarks within 10 km they equal the horizontal direction in the device's local
    ///   East-North-Up frame (what a level device pointed at the landmark measures) to < 1e-5°,
    ///   checked in the tests.
    public static func estimate(_ sightings: [LandmarkSighting], outlierThreshold: Double = 3) throws(GeoAnchorError) -> LandmarkHeadingOffset {
        guard !sightings.isEmpty else { throw .outOfRange(name: "landmark sightings", value: 0, allowed: .atLeast(1)) }
        let n = sightings.count
        var r = [Double](repeating: 0, count: n), sigma = r, az = r, dist = r
        for (i, s) in sightings.enumerated() {
            for (name, v) in [("horizontalAccuracy", s.horizontalAccuracy), ("headingAccuracy", s.headingAccuracy),
                              ("landmarkAccuracy", s.landmarkAccuracy)] where !(v >= 0 && v.isFinite) {
                throw .outOfRange(name: "sighting #\(i) \(name)", value: v, allowed: .atLeast(0))
            }
            guard s.observedHeading.isFinite else { throw .nonFinite(name: "sighting #\(i) observedHeading", value: s.observedHeading) }
            try s.devicePosition.validate()
            try s.landmark.validate()
            // Azimuth and distance along the WGS84 geodesic (Karney). Heights do not enter: the
            // horizontal direction to a point straight above another differs by < 1e-6° at 10 km.
            let g = Geodesic.wgs84.inverse(latitude1: s.devicePosition.latitude, longitude1: s.devicePosition.longitude,
                                           latitude2: s.landmark.latitude, longitude2: s.landmark.longitude)
            let d = g.distance
            guard d >= 1e-3 else {
                throw .outOfRange(name: "sighting #\(i) distance to the landmark (the device is at the landmark)", value: d, allowed: .atLeast(0.001, unit: "m"))
            }
            az[i] = g.initialBearing
            dist[i] = d
            r[i] = Angle.difference(from: s.observedHeading, to: g.initialBearing)
            let perp2 = (s.horizontalAccuracy * s.horizontalAccuracy + s.landmarkAccuracy * s.landmarkAccuracy)
                / (radius68PerSigma * radius68PerSigma)
            let positionRad2 = perp2 / (d * d)
            let h = s.headingAccuracy * Angle.radiansPerDegree
            var sig = (h * h + positionRad2).squareRoot() * Angle.degreesPerRadian
            // A sighting without any stated uncertainty gets a tiny σ (it dominates) rather than 0.
            if sig == 0 { sig = 1e-9 }
            sigma[i] = sig
        }
        // Differences relative to a reference keep the wrap-around out of the means.
        let ref = weightedMedian(r, weights: sigma.map { 1 / ($0 * $0) })
        let rel = r.map { Angle.difference(from: ref, to: $0) }
        var inlier = [Bool](repeating: true, count: n)
        var offsetRel = 0.0
        let minimumInliers = (n + 1) / 2
        for _ in 0..<(n + 1) {
            var sw = 0.0, swr = 0.0
            for i in 0..<n where inlier[i] { let w = 1 / (sigma[i] * sigma[i]); sw += w; swr += w * rel[i] }
            offsetRel = swr / sw
            // Worst offenders first, keeping at least half of the sightings.
            // Residuals wrapped to (−180°, 180°]: a sighting nearly opposite the mean is as far
            // from it on the other side.
            let res = rel.map { Angle.difference(from: offsetRel, to: $0) }
            let order = (0..<n).sorted { abs(res[$0]) / sigma[$0] > abs(res[$1]) / sigma[$1] }
            var next = [Bool](repeating: true, count: n)
            var excluded = 0
            for i in order where abs(res[i]) / sigma[i] > outlierThreshold && n - excluded > minimumInliers {
                next[i] = false; excluded += 1
            }
            if n < 3 { next = [Bool](repeating: true, count: n) }   // 1–2 sightings cannot outvote each other
            if next == inlier { break }
            inlier = next
        }
        var sw = 0.0, chi2 = 0.0, used = 0
        var residuals: [Residual] = []
        for i in 0..<n {
            let res = Angle.difference(from: offsetRel, to: rel[i])
            if inlier[i] { let w = 1 / (sigma[i] * sigma[i]); sw += w; chi2 += w * res * res; used += 1 }
            residuals.append(Residual(azimuth: az[i], distance: dist[i], residual: res, sigma: sigma[i],
                                      normalizedResidual: res / sigma[i], isOutlier: !inlier[i]))
        }
        let formal = 1 / sw.squareRoot()
        let reduced = used > 1 ? chi2 / Double(used - 1) : .nan
        let scaled = used > 1 ? formal * Swift.max(1, reduced).squareRoot() : formal
        var offset = Angle.normalizeLongitude(ref + offsetRel)
        if offset == -180 { offset = 180 }
        return LandmarkHeadingOffset(offset: offset, standardError: scaled, formalStandardError: formal,
                                     reducedChiSquare: reduced, sightings: residuals)
    }

    /// Weighted median of angles given as differences near each other (no wrap handling beyond
    /// taking them relative to the first).
    private static func weightedMedian(_ a: [Double], weights: [Double]) -> Double {
        let base = a[0]
        let rel = a.map { Angle.difference(from: base, to: $0) }
        let order = rel.indices.sorted { rel[$0] < rel[$1] }
        let total = weights.reduce(0, +)
        var acc = 0.0
        for i in order {
            acc += weights[i]
            if acc >= total / 2 { return base + rel[i] }
        }
        return base
    }
}
