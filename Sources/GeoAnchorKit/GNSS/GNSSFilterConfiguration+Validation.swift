import Foundation

extension GNSSFilterConfiguration {
    /// The values of the process noise densities ``accelerationPSD`` (m²/s³), ``driftPSD``
    /// ((m/s)²/s) and ``biasPSD`` (m²/s) accept: [0, 1e6]. 0 is a constant state; 1e6 m²/s³ is a
    /// white acceleration of 1000 m/s² (100 g) over one second, beyond anything a receiver is
    /// carried on. Larger values only make the filter follow each epoch's measurements alone,
    /// and multiplied by the epoch interval cubed they overflow the covariance.
    public static let spectralDensityRange = ValueRange.closed(0, 1e6)

    /// The values ``clockVariancePerEpoch`` accepts: [0, 1e12] m² (σ up to 1,000 km, 3.3 ms of
    /// clock: the clock is then re-estimated from each epoch alone, and a larger variance changes
    /// nothing but the covariance's conditioning).
    public static let clockVarianceRange = ValueRange.closed(0, 1e12, unit: "m²")

    /// The values ``carrierPhaseDifferenceSigma`` accepts besides 0 (which switches the phase
    /// differences off): [0.1 mm, 10 m]. Squared into the weights: a tiny σ (1e-200 m) squares to 0
    /// and makes every weight infinite; a phase difference σ above 10 m says less than the
    /// pseudoranges already do.
    public static let carrierPhaseDifferenceSigmaRange = ValueRange.closed(0.0001, 10, unit: "m")

    /// The values ``gate`` accepts: (0, 1000] σ. 1000σ rejects nothing a finite model predicts, so
    /// a larger gate only means "never".
    public static let gateRange = ValueRange(lower: .exclusive(0), upper: .inclusive(1000))

    /// Largest ``resetAfterBadEpochs``: 86,400, a day of epochs at 1 Hz; a longer run of bad
    /// epochs only means "never reset", which this says already.
    public static let maximumResetAfterBadEpochs = 86_400

    /// The values ``maximumGap`` accepts: (0, 86,400] s. A gap of a day or more is a new
    /// recording; a larger value only means "never reset on a gap".
    public static let maximumGapRange = ValueRange(lower: .exclusive(0), upper: .inclusive(86_400), unit: "s")

    /// Checks every setting: finite and in its range — ``accelerationPSD``, ``driftPSD`` and
    /// ``biasPSD`` in ``spectralDensityRange`` [0, 1e6]; ``clockVariancePerEpoch`` in
    /// ``clockVarianceRange`` [0, 1e12] m²; ``carrierPhaseDifferenceSigma`` 0 (off) or in
    /// ``carrierPhaseDifferenceSigmaRange`` [0.0001, 10] m; ``gate`` in ``gateRange`` (0, 1000];
    /// ``resetAfterBadEpochs`` in [1, ``maximumResetAfterBadEpochs``] (0 would reset every epoch);
    /// ``maximumGap`` in ``maximumGapRange`` (0, 86,400] s; ``correlatedErrorShare`` in [0, 1]. The range docs say why each bound is
    /// where it is.
    ///
    /// ``GNSSProcessor/filterEpochs(_:smooth:filter:)`` and
    /// ``GNSSProcessor/filterPrepared(times:flags:prepared:smooth:filter:statistics:)`` cannot
    /// throw: they stop with this error as a programmer error (`preconditionFailure`) — validate a
    /// configuration that comes from outside before handing it to them.
    /// - Throws: ``GeoAnchorError/nonFinite(name:value:)`` or
    ///   ``GeoAnchorError/outOfRange(name:value:allowed:)`` naming the first bad value.
    public func validate() throws(GeoAnchorError) {
        try Self.spectralDensityRange.check(accelerationPSD, name: "accelerationPSD")
        try Self.clockVarianceRange.check(clockVariancePerEpoch, name: "clockVariancePerEpoch")
        try Self.spectralDensityRange.check(driftPSD, name: "driftPSD")
        try Self.spectralDensityRange.check(biasPSD, name: "biasPSD")
        if carrierPhaseDifferenceSigma != 0 {
            try Self.carrierPhaseDifferenceSigmaRange.check(carrierPhaseDifferenceSigma, name: "carrierPhaseDifferenceSigma")
        }
        try Self.gateRange.check(gate, name: "gate")
        try ValueRange.closed(1, Double(Self.maximumResetAfterBadEpochs)).check(Double(resetAfterBadEpochs), name: "resetAfterBadEpochs")
        try Self.maximumGapRange.check(maximumGap, name: "maximumGap")
        try ValueRange.closed(0, 1).check(correlatedErrorShare, name: "correlatedErrorShare")
    }

    /// ``validate()`` at an entry point that cannot throw: an invalid configuration there is a
    /// programmer error.
    func requireValid() {
        GeoAnchorKit.requireValid("GNSSFilterConfiguration") { () throws(GeoAnchorError) in try validate() }
    }
}
