import Foundation
import Testing
@testable import GeoAnchorKit

/// ``GNSSSolverConfiguration/validate()`` and ``GNSSFilterConfiguration/validate()``: every
/// numeric setting refused by name outside its documented range. Reference: the documented
/// ranges (tolerance: none, the errors are compared exactly).
@Suite("GNSS configuration validation")
struct GNSSConfigurationValidationTests {
    /// The defaults, the GSDC presets and the range ends themselves are accepted.
    @Test func defaultsAndPresetsPass() throws {
        try GNSSSolverConfiguration().validate()
        try GSDCDeviceGNSS.solverConfiguration.validate()
        try GSDCDeviceGNSS.googleBaselineConfiguration.validate()
        try GNSSFilterConfiguration().validate()
        var s = GNSSSolverConfiguration()
        s.elevationMask = -90; s.minimumCN0 = 0; s.codeSigmaL1 = 0.001; s.codeSigmaWideband = 100_000
        s.glonassSigmaFactor = 1000; s.rangeRateSigma = 0.001; s.maximumExclusions = 0; s.grossErrorThreshold = 20_000_000
        s.systems = []
        try s.validate()
        var f = GNSSFilterConfiguration()
        f.accelerationPSD = 0; f.clockVariancePerEpoch = 1e12; f.driftPSD = 1e6; f.biasPSD = 0
        f.carrierPhaseDifferenceSigma = 0; f.gate = 1000; f.resetAfterBadEpochs = 1; f.maximumGap = 86_400
        try f.validate()
        f.carrierPhaseDifferenceSigma = 0.0001
        try f.validate()
    }

    /// Per field: NaN, below and above the range. Before: a NaN elevation mask kept every
    /// satellite (every comparison with NaN is false) and a NaN σ made every weight NaN.
    @Test func solverFieldsOutOfRangeAreNamed() {
        typealias C = GNSSSolverConfiguration
        let cases: [(String, (inout C) -> Void, GeoAnchorError)] = [
            ("elevationMask NaN", { $0.elevationMask = .nan }, .nonFinite(name: "elevationMask", value: .nan)),
            ("elevationMask 91", { $0.elevationMask = 91 }, .outOfRange(name: "elevationMask", value: 91, allowed: C.elevationMaskRange)),
            ("minimumCN0 -1", { $0.minimumCN0 = -1 }, .outOfRange(name: "minimumCN0", value: -1, allowed: C.minimumCN0Range)),
            ("minimumCN0 ∞", { $0.minimumCN0 = .infinity }, .nonFinite(name: "minimumCN0", value: .infinity)),
            ("codeSigmaL1 -6", { $0.codeSigmaL1 = -6 }, .outOfRange(name: "codeSigmaL1", value: -6, allowed: C.codeSigmaRange)),
            ("codeSigmaL1 1e-200", { $0.codeSigmaL1 = 1e-200 }, .outOfRange(name: "codeSigmaL1", value: 1e-200, allowed: C.codeSigmaRange)),
            ("codeSigmaWideband NaN", { $0.codeSigmaWideband = .nan }, .nonFinite(name: "codeSigmaWideband", value: .nan)),
            ("codeSigmaWideband 1e6", { $0.codeSigmaWideband = 1e6 }, .outOfRange(name: "codeSigmaWideband", value: 1e6, allowed: C.codeSigmaRange)),
            ("glonassSigmaFactor 0", { $0.glonassSigmaFactor = 0 }, .outOfRange(name: "glonassSigmaFactor", value: 0, allowed: C.glonassSigmaFactorRange)),
            ("glonassSigmaFactor 1e4", { $0.glonassSigmaFactor = 1e4 }, .outOfRange(name: "glonassSigmaFactor", value: 1e4, allowed: C.glonassSigmaFactorRange)),
            ("rangeRateSigma NaN", { $0.rangeRateSigma = .nan }, .nonFinite(name: "rangeRateSigma", value: .nan)),
            ("rangeRateSigma 0", { $0.rangeRateSigma = 0 }, .outOfRange(name: "rangeRateSigma", value: 0, allowed: C.rangeRateSigmaRange)),
            ("maximumExclusions -1", { $0.maximumExclusions = -1 }, .outOfRange(name: "maximumExclusions", value: -1, allowed: .closed(0, 1000))),
            ("maximumExclusions 1e15", { $0.maximumExclusions = 1_000_000_000_000_000 },
             .outOfRange(name: "maximumExclusions", value: 1e15, allowed: .closed(0, 1000))),
            ("grossErrorThreshold -1", { $0.grossErrorThreshold = -1 },
             .outOfRange(name: "grossErrorThreshold", value: -1, allowed: C.grossErrorThresholdRange)),
            ("grossErrorThreshold 0", { $0.grossErrorThreshold = 0 },
             .outOfRange(name: "grossErrorThreshold", value: 0, allowed: C.grossErrorThresholdRange)),
            ("grossErrorThreshold 3e7", { $0.grossErrorThreshold = 3e7 },
             .outOfRange(name: "grossErrorThreshold", value: 3e7, allowed: C.grossErrorThresholdRange)),
        ]
        for (label, change, error) in cases {
            var c = C()
            change(&c)
            expectRefused(label, error) { () throws(GeoAnchorError) in try c.validate() }
        }
    }

    @Test func filterFieldsOutOfRangeAreNamed() {
        typealias C = GNSSFilterConfiguration
        let cases: [(String, (inout C) -> Void, GeoAnchorError)] = [
            ("accelerationPSD NaN", { $0.accelerationPSD = .nan }, .nonFinite(name: "accelerationPSD", value: .nan)),
            ("accelerationPSD -2", { $0.accelerationPSD = -2 }, .outOfRange(name: "accelerationPSD", value: -2, allowed: C.spectralDensityRange)),
            ("accelerationPSD 1e7", { $0.accelerationPSD = 1e7 }, .outOfRange(name: "accelerationPSD", value: 1e7, allowed: C.spectralDensityRange)),
            ("clockVariancePerEpoch -1", { $0.clockVariancePerEpoch = -1 },
             .outOfRange(name: "clockVariancePerEpoch", value: -1, allowed: C.clockVarianceRange)),
            ("clockVariancePerEpoch 1e13", { $0.clockVariancePerEpoch = 1e13 },
             .outOfRange(name: "clockVariancePerEpoch", value: 1e13, allowed: C.clockVarianceRange)),
            ("driftPSD ∞", { $0.driftPSD = .infinity }, .nonFinite(name: "driftPSD", value: .infinity)),
            ("driftPSD -1", { $0.driftPSD = -1 }, .outOfRange(name: "driftPSD", value: -1, allowed: C.spectralDensityRange)),
            ("biasPSD NaN", { $0.biasPSD = .nan }, .nonFinite(name: "biasPSD", value: .nan)),
            ("biasPSD 1e7", { $0.biasPSD = 1e7 }, .outOfRange(name: "biasPSD", value: 1e7, allowed: C.spectralDensityRange)),
            ("carrierPhaseDifferenceSigma NaN", { $0.carrierPhaseDifferenceSigma = .nan },
             .nonFinite(name: "carrierPhaseDifferenceSigma", value: .nan)),
            ("carrierPhaseDifferenceSigma -0.05", { $0.carrierPhaseDifferenceSigma = -0.05 },
             .outOfRange(name: "carrierPhaseDifferenceSigma", value: -0.05, allowed: C.carrierPhaseDifferenceSigmaRange)),
            ("carrierPhaseDifferenceSigma 1e-200", { $0.carrierPhaseDifferenceSigma = 1e-200 },
             .outOfRange(name: "carrierPhaseDifferenceSigma", value: 1e-200, allowed: C.carrierPhaseDifferenceSigmaRange)),
            ("carrierPhaseDifferenceSigma 11", { $0.carrierPhaseDifferenceSigma = 11 },
             .outOfRange(name: "carrierPhaseDifferenceSigma", value: 11, allowed: C.carrierPhaseDifferenceSigmaRange)),
            ("gate -1", { $0.gate = -1 }, .outOfRange(name: "gate", value: -1, allowed: C.gateRange)),
            ("gate 0", { $0.gate = 0 }, .outOfRange(name: "gate", value: 0, allowed: C.gateRange)),
            ("gate NaN", { $0.gate = .nan }, .nonFinite(name: "gate", value: .nan)),
            ("gate 1e4", { $0.gate = 1e4 }, .outOfRange(name: "gate", value: 1e4, allowed: C.gateRange)),
            ("resetAfterBadEpochs 0", { $0.resetAfterBadEpochs = 0 },
             .outOfRange(name: "resetAfterBadEpochs", value: 0, allowed: .closed(1, 86_400))),
            ("resetAfterBadEpochs 1e15", { $0.resetAfterBadEpochs = 1_000_000_000_000_000 },
             .outOfRange(name: "resetAfterBadEpochs", value: 1e15, allowed: .closed(1, 86_400))),
            ("maximumGap 0", { $0.maximumGap = 0 }, .outOfRange(name: "maximumGap", value: 0, allowed: C.maximumGapRange)),
            ("maximumGap NaN", { $0.maximumGap = .nan }, .nonFinite(name: "maximumGap", value: .nan)),
            ("maximumGap 1e5", { $0.maximumGap = 1e5 }, .outOfRange(name: "maximumGap", value: 1e5, allowed: C.maximumGapRange)),
            ("correlatedErrorShare -0.1", { $0.correlatedErrorShare = -0.1 }, .outOfRange(name: "correlatedErrorShare", value: -0.1, allowed: .closed(0, 1))),
            ("correlatedErrorShare 1.5", { $0.correlatedErrorShare = 1.5 }, .outOfRange(name: "correlatedErrorShare", value: 1.5, allowed: .closed(0, 1))),
            ("correlatedErrorShare NaN", { $0.correlatedErrorShare = .nan }, .nonFinite(name: "correlatedErrorShare", value: .nan)),
        ]
        for (label, change, error) in cases {
            var c = C()
            change(&c)
            expectRefused(label, error) { () throws(GeoAnchorError) in try c.validate() }
        }
    }

    /// The processor cannot throw: an invalid configuration stops it (a programmer error) rather
    /// than giving NaN fixes.
    @Test func processorStopsOnAnInvalidConfiguration() async {
        await #expect(processExitsWith: .failure) {
            var c = GNSSSolverConfiguration()
            c.elevationMask = .nan
            _ = GNSSProcessor(ephemerides: SatelliteEphemerides(), configuration: c).run([], mode: .wls)
        }
        await #expect(processExitsWith: .failure) {
            var f = GNSSFilterConfiguration()
            f.gate = -1
            _ = GNSSProcessor(ephemerides: SatelliteEphemerides()).filterEpochs([], smooth: false, filter: f)
        }
    }
}
