import Foundation

extension GNSSSolverConfiguration {
    /// The values ``elevationMask`` accepts: [−90, 90]°. −90 is no mask (every satellite, also
    /// below the horizon of a receiver in the air); 90 keeps none.
    public static let elevationMaskRange = ValueRange.closed(-90, 90, unit: "degrees")

    /// The values ``minimumCN0`` accepts: [0, 100] dB-Hz. 0 keeps every measurement; a GNSS signal
    /// at the antenna stays below 60 dB-Hz, so beyond 100 the threshold only means "use nothing".
    public static let minimumCN0Range = ValueRange.closed(0, 100, unit: "dB-Hz")

    /// The values ``codeSigmaL1`` and ``codeSigmaWideband`` accept: [1 mm, 100 km]. Each enters
    /// the weights as 1/σ² (times up to 2.6² for the ionosphere-free combination, ``glonassSigmaFactor``²
    /// and 1515 for the elevation and C/N0 factors): below 1 mm a σ is no code measurement and a
    /// tiny one (1e-200 m) squares to 0 and makes every weight infinite; above
    /// ``Fix/maximumUsableHorizontalAccuracy`` (100 km) a measurement says nothing about a position.
    public static let codeSigmaRange = ValueRange.closed(0.001, Fix.maximumUsableHorizontalAccuracy, unit: "m")

    /// The values ``glonassSigmaFactor`` accepts: [0.001, 1000], so that the GLONASS σ keeps
    /// within a factor 1000 of the others and its square neither underflows nor overflows.
    public static let glonassSigmaFactorRange = ValueRange.closed(0.001, 1000)

    /// The values ``rangeRateSigma`` accepts: [1 mm/s, 1 km/s]. Squared into the Doppler weights
    /// (underflow below it, as for ``codeSigmaRange``); a rate σ beyond 1 km/s says nothing about
    /// a receiver's velocity (satellites move at ≈ 4 km/s).
    public static let rangeRateSigmaRange = ValueRange.closed(0.001, 1000, unit: "m/s")

    /// Largest ``maximumExclusions``: 1,000 (``Fix/maximumSatellites``): no epoch has more
    /// measurements to exclude, so a larger count only means "no limit", which this says already.
    public static let maximumExclusionsLimit = 1_000

    /// The values ``grossErrorThreshold`` accepts: (0, 20,000 km] m. 0 would call every residual
    /// gross and leave no epoch solved; beyond the ≈ 20,000 km range to a GNSS satellite no
    /// residual can be larger, so a larger threshold only means "never".
    public static let grossErrorThresholdRange = ValueRange(lower: .exclusive(0), upper: .inclusive(20_000_000), unit: "m")

    /// Checks every numeric setting: finite and in its range — ``elevationMask`` in
    /// ``elevationMaskRange`` [−90, 90]°, ``minimumCN0`` in ``minimumCN0Range`` [0, 100] dB-Hz,
    /// ``codeSigmaL1`` and ``codeSigmaWideband`` in ``codeSigmaRange`` [0.001, 100,000] m,
    /// ``glonassSigmaFactor`` in ``glonassSigmaFactorRange`` [0.001, 1000], ``rangeRateSigma`` in
    /// ``rangeRateSigmaRange`` [0.001, 1000] m/s, ``maximumExclusions`` in
    /// [0, ``maximumExclusionsLimit``], ``grossErrorThreshold`` in ``grossErrorThresholdRange``
    /// (0, 2e7] m. The upper bounds are where a value only means "nothing passes" or "never"; the
    /// lower bounds of the σs are where 1/σ² overflows (the range docs say why).
    /// (``systems`` may be any set: an empty one is counted, every measurement
    /// ``GNSSSkipReason/systemNotSelected``.)
    ///
    /// ``GNSSPositionSolver`` and ``GNSSProcessor`` cannot throw: they stop with this error as a
    /// programmer error (`preconditionFailure`) — validate a configuration that comes from
    /// outside (a settings screen, a file) before handing it to them.
    /// - Throws: ``GeoAnchorError/nonFinite(name:value:)`` or
    ///   ``GeoAnchorError/outOfRange(name:value:allowed:)`` naming the first bad value.
    public func validate() throws(GeoAnchorError) {
        try Self.elevationMaskRange.check(elevationMask, name: "elevationMask")
        try Self.minimumCN0Range.check(minimumCN0, name: "minimumCN0")
        try Self.codeSigmaRange.check(codeSigmaL1, name: "codeSigmaL1")
        try Self.codeSigmaRange.check(codeSigmaWideband, name: "codeSigmaWideband")
        try Self.glonassSigmaFactorRange.check(glonassSigmaFactor, name: "glonassSigmaFactor")
        try Self.rangeRateSigmaRange.check(rangeRateSigma, name: "rangeRateSigma")
        try ValueRange.closed(0, Double(Self.maximumExclusionsLimit)).check(Double(maximumExclusions), name: "maximumExclusions")
        try Self.grossErrorThresholdRange.check(grossErrorThreshold, name: "grossErrorThreshold")
    }

    /// ``validate()`` at an entry point that cannot throw: an invalid configuration there is a
    /// programmer error.
    func requireValid() {
        GeoAnchorKit.requireValid("GNSSSolverConfiguration") { () throws(GeoAnchorError) in try validate() }
    }
}
