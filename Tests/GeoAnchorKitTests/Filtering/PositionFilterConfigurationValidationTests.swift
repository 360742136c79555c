import Foundation
import Testing
@testable import GeoAnchorKit

/// Every setting of ``PositionFilter/Configuration`` and ``MotionMode`` has a typed range
/// (``PositionFilter/Configuration/validate()``): before, NaN, a negative σ, a gate probability
/// of 2 or a count of 10¹² were accepted silently and gave NaN estimates or nonsense. Reference:
/// the documented ranges, checked exactly (error name, value and range); the bounds themselves are
/// accepted; every preset passes; a decoded configuration with a bad value throws
/// `DecodingError`.
@Suite("Position filter configuration validation")
struct PositionFilterConfigurationValidationTests {
    typealias C = PositionFilter.Configuration

    /// A real setting: its name, how to set it, its range, the values just inside it, and values
    /// outside it (besides NaN and ±∞).
    struct Setting: Sendable, CustomStringConvertible {
        var name: String
        var set: @Sendable (inout C, Double) -> Void
        var allowed: ValueRange
        var inside: [Double]
        var outside: [Double]
        var description: String { name }
    }

    /// An integer setting: as ``Setting``, with counts.
    struct Count: Sendable, CustomStringConvertible {
        var name: String
        var set: @Sendable (inout C, Int) -> Void
        var inside: [Int]
        var description: String { name }
    }

    static let q = ValueRange(lower: .exclusive(0), upper: .inclusive(10_000), unit: "m²/s³")
    static let perAccuracy = ValueRange(lower: .exclusive(0), upper: .inclusive(10))
    static let inflation = ValueRange(lower: .exclusive(0), upper: .inclusive(100))
    static let sigma = ValueRange(lower: .exclusive(0), upper: .inclusive(100_000), unit: "m")
    static let speed = ValueRange.closed(0, 1000, unit: "m/s")
    static let speedSigma = ValueRange(lower: .exclusive(0), upper: .inclusive(1000), unit: "m/s")
    static let day = ValueRange(lower: .exclusive(0), upper: .inclusive(86_400), unit: "s")
    static let share = ValueRange(lower: .exclusive(0), upper: .exclusive(1))

    static let settings: [Setting] = [
        Setting(name: "accelerationSpectralDensity", set: { $0.accelerationSpectralDensity = $1 }, allowed: q, inside: [1e-9, 10_000], outside: [0, -1, 10_000.5, 1e308]),
        Setting(name: "verticalAccelerationSpectralDensity", set: { $0.verticalAccelerationSpectralDensity = $1 }, allowed: q, inside: [1e-9, 10_000], outside: [0, -1, 1e5]),
        Setting(name: "horizontalSigmaPerAccuracy", set: { $0.horizontalSigmaPerAccuracy = $1 }, allowed: perAccuracy, inside: [1e-9, 10], outside: [0, -0.5, 10.5]),
        Setting(name: "accuracyInflation", set: { $0.accuracyInflation = $1 }, allowed: inflation, inside: [1e-9, 100], outside: [0, -1, 101]),
        Setting(name: "verticalSigmaPerAccuracy", set: { $0.verticalSigmaPerAccuracy = $1 }, allowed: perAccuracy, inside: [1e-9, 10], outside: [0, 11]),
        Setting(name: "userEquivalentRangeError", set: { $0.userEquivalentRangeError = $1 }, allowed: sigma, inside: [1e-9, 100_000], outside: [0, -6, 100_001, 1e308]),
        Setting(name: "defaultHorizontalSigma", set: { $0.defaultHorizontalSigma = $1 }, allowed: sigma, inside: [1e-9, 100_000], outside: [0, 1e6]),
        Setting(name: "minimumHorizontalSigma", set: { $0.minimumHorizontalSigma = $1 }, allowed: sigma, inside: [1e-9, 100_000], outside: [0, -0.5, 1e6]),
        Setting(name: "speedSigma", set: { $0.speedSigma = $1 }, allowed: speedSigma, inside: [1e-9, 1000], outside: [0, -0.3, 1001]),
        Setting(name: "courseSigma", set: { $0.courseSigma = $1 }, allowed: .closed(0, 180, unit: "degrees"), inside: [0, 180], outside: [-1, 181]),
        Setting(name: "courseMinimumSpeed", set: { $0.courseMinimumSpeed = $1 }, allowed: speed, inside: [0, 1000], outside: [-1, 1001]),
        Setting(name: "gateProbability", set: { $0.gateProbability = $1 }, allowed: ValueRange(lower: .exclusive(0), upper: .inclusive(1)),
                inside: [1e-9, 1], outside: [0, -0.5, 1.000001, 2]),
        Setting(name: "maximumRejectionInterval", set: { $0.maximumRejectionInterval = $1 }, allowed: .closed(0, 86_400, unit: "s"), inside: [0, 86_400], outside: [-1, 86_401]),
        Setting(name: "maximumGap", set: { $0.maximumGap = $1 }, allowed: day, inside: [1e-9, 86_400], outside: [0, -1, 86_401, 1e308]),
        Setting(name: "initialVelocitySigma", set: { $0.initialVelocitySigma = $1 }, allowed: speed, inside: [0, 1000], outside: [-1, 1001]),
        Setting(name: "stationarySpeedThreshold", set: { $0.stationarySpeedThreshold = $1 }, allowed: speed, inside: [0, 1000], outside: [-0.1, 1001]),
        Setting(name: "stationaryVelocitySigma", set: { $0.stationaryVelocitySigma = $1 }, allowed: speedSigma, inside: [1e-9, 1000], outside: [0, 1001]),
        Setting(name: "biasSigma", set: { $0.biasSigma = $1 }, allowed: .closed(0, 100_000, unit: "m"), inside: [0, 100_000], outside: [-2, 1e6]),
        Setting(name: "correlatedErrorShare", set: { $0.correlatedErrorShare = $1 }, allowed: .closed(0, 1), inside: [0, 0.6, 1], outside: [-0.1, 1.5]),
        // Optional settings: checked when set.
        Setting(name: "smootherAccuracyInflation", set: { $0.smootherAccuracyInflation = $1 }, allowed: inflation, inside: [1e-9, 100], outside: [0, 101]),
        Setting(name: "smootherAccelerationSpectralDensity", set: { $0.smootherAccelerationSpectralDensity = $1 }, allowed: q, inside: [1e-9, 10_000], outside: [0, 1e5]),
        Setting(name: "biasTimeConstant", set: { $0.biasTimeConstant = $1 }, allowed: day, inside: [1e-9, 86_400], outside: [0, -90, 86_401]),
        Setting(name: "biasShare", set: { $0.biasShare = $1 }, allowed: share, inside: [1e-9, 0.999], outside: [0, 1, -0.5, 2]),
        Setting(name: "pathBiasShare", set: { $0.pathBiasShare = $1 }, allowed: share, inside: [1e-9, 0.999], outside: [0, 1]),
        // Each mode, named by its index (the adaptive preset's four modes).
        Setting(name: "modes[2].accelerationSpectralDensity", set: { $0.modes![2].accelerationSpectralDensity = $1 }, allowed: q, inside: [1e-9, 10_000], outside: [0, -1, 1e5]),
        Setting(name: "modes[0].meanDuration", set: { $0.modes![0].meanDuration = $1 }, allowed: day, inside: [1e-9, 86_400], outside: [0, -60, 86_401]),
        Setting(name: "modes[1].maximumSpeed", set: { $0.modes![1].maximumSpeed = $1 }, allowed: speed, inside: [0, 1000], outside: [-1, 1001]),
        // The schedule, named with its prefix; its second pass is a filter with these values.
        Setting(name: "smootherSchedule.walkingAccelerationSpectralDensity", set: { $0.smootherSchedule!.walkingAccelerationSpectralDensity = $1 },
                allowed: q, inside: [1e-9, 10_000], outside: [0, 1e5]),
        Setting(name: "smootherSchedule.walkingAccuracyInflation", set: { $0.smootherSchedule!.walkingAccuracyInflation = $1 },
                allowed: inflation, inside: [1e-9, 100], outside: [0, 101]),
        Setting(name: "smootherSchedule.window", set: { $0.smootherSchedule!.window = $1 },
                allowed: .closed(0, 86_400, unit: "s"), inside: [0, 86_400], outside: [-1, 86_401])
    ]

    static let counts: [Count] = [
        Count(name: "maximumConsecutiveRejections", set: { $0.maximumConsecutiveRejections = $1 }, inside: [0, 86_400]),
        Count(name: "clockResetFixCount", set: { $0.clockResetFixCount = $1 }, inside: [0, 86_400]),
        Count(name: "stationaryFixCount", set: { $0.stationaryFixCount = $1 }, inside: [0, 86_400]),
        Count(name: "modes[3].maximumConsecutiveRejections", set: { $0.modes![3].maximumConsecutiveRejections = $1 }, inside: [0, 86_400])
    ]

    static let presets: [(String, C)] = [("adaptive", .adaptive), ("walking", .walking), ("cycling", .cycling), ("driving", .driving),
                                         ("default", C())]
        + MotionProfile.allCases.map { ("profile(\($0))", C.profile($0)) }

    /// The presets, the default and every profile pass, and the named ranges are the documented ones.
    @Test func presetsAreValid() throws {
        for (name, c) in Self.presets {
            #expect(throws: Never.self, "\(name)") { try c.validate() }
            #expect(throws: Never.self, "\(name)") { try c.smootherConfiguration.validate() }
            for m in c.motionModes { #expect(throws: Never.self, "\(name)") { try m.validate() } }
        }
        try PositionFilter.SmootherSchedule().validate()
        #expect(C.accelerationSpectralDensityRange == Self.q && C.sigmaPerAccuracyRange == Self.perAccuracy)
        #expect(C.accuracyInflationRange == Self.inflation && C.horizontalSigmaRange == Self.sigma)
        #expect(C.maximumSpeed == 1000 && C.maximumInterval == 86_400 && C.maximumCount == 86_400)
    }

    /// Each real setting: its bounds pass; NaN and ±∞ are `nonFinite`, values outside are
    /// `outOfRange` with the setting's name and range.
    @Test(arguments: settings)
    func realSetting(_ s: Setting) {
        for v in s.inside {
            var c = C.adaptive
            s.set(&c, v)
            #expect(throws: Never.self, "\(s.name) = \(v)") { try c.validate() }
        }
        for v in [Double.nan, .infinity, -.infinity] {
            var c = C.adaptive
            s.set(&c, v)
            #expect(throws: GeoAnchorError.self) { try c.validate() }
            do { try c.validate() } catch {
                guard case .nonFinite(let name, let value) = error else { Issue.record("\(s.name) = \(v): \(error)"); continue }
                #expect(name == s.name && (value == v || (value.isNaN && v.isNaN)))
            }
        }
        for v in s.outside {
            var c = C.adaptive
            s.set(&c, v)
            #expect(throws: GeoAnchorError.outOfRange(name: s.name, value: v, allowed: s.allowed)) { try c.validate() }
        }
    }

    /// Each count: [0, 86,400] (0 disables or recovers at once, as documented); −1, 86,401 and
    /// `Int.max` (which meant "never") are refused naming the count.
    @Test(arguments: counts)
    func countSetting(_ s: Count) {
        for n in s.inside {
            var c = C.adaptive
            s.set(&c, n)
            #expect(throws: Never.self, "\(s.name) = \(n)") { try c.validate() }
        }
        for n in [-1, 86_401, Int.max, Int.min] {
            var c = C.adaptive
            s.set(&c, n)
            #expect(throws: GeoAnchorError.outOfRange(name: s.name, value: Double(n), allowed: .closed(0, 86_400))) { try c.validate() }
        }
    }

    /// A mode on its own names its fields without a prefix; nil optional fields are fine.
    @Test func motionMode() {
        #expect(throws: Never.self) { try MotionMode(kind: .walking, accelerationSpectralDensity: 0.2).validate() }
        #expect(throws: GeoAnchorError.outOfRange(name: "accelerationSpectralDensity", value: -1, allowed: Self.q)) {
            try MotionMode(kind: .walking, accelerationSpectralDensity: -1).validate()
        }
        #expect(throws: GeoAnchorError.nonFinite(name: "meanDuration", value: .infinity)) {
            try MotionMode(kind: .vehicle, accelerationSpectralDensity: 3, meanDuration: .infinity).validate()
        }
        #expect(throws: GeoAnchorError.outOfRange(name: "maximumConsecutiveRejections", value: -2, allowed: .closed(0, 86_400))) {
            try MotionMode(kind: .vehicle, accelerationSpectralDensity: 3, maximumConsecutiveRejections: -2).validate()
        }
        // Modes set on a one-mode configuration are named by index too.
        var c = C.walking
        c.modes = [MotionMode(kind: .walking, accelerationSpectralDensity: 0.1), MotionMode(kind: .vehicle, accelerationSpectralDensity: .nan)]
        #expect(throws: GeoAnchorError.self) { try c.validate() }
        do { try c.validate() } catch { #expect(error.description.hasPrefix("modes[1].accelerationSpectralDensity")) }
    }

    /// Presets round-trip through JSON; a decoded configuration (or mode) with a bad value
    /// throws `DecodingError.dataCorrupted` carrying the typed error.
    @Test func decoding() throws {
        for (name, c) in Self.presets {
            #expect(try JSONDecoder().decode(C.self, from: JSONEncoder().encode(c)) == c, "\(name)")
        }
        func damaged(_ edit: (inout [String: Any]) -> Void) throws -> Data {
            var json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(C.adaptive)) as? [String: Any])
            edit(&json)
            return try JSONSerialization.data(withJSONObject: json)
        }
        let cases: [(GeoAnchorError, Data)] = [
            (.outOfRange(name: "gateProbability", value: 2, allowed: ValueRange(lower: .exclusive(0), upper: .inclusive(1))),
             try damaged { $0["gateProbability"] = 2 }),
            (.outOfRange(name: "speedSigma", value: -0.3, allowed: Self.speedSigma), try damaged { $0["speedSigma"] = -0.3 }),
            (.outOfRange(name: "clockResetFixCount", value: 1e12, allowed: .closed(0, 86_400)), try damaged { $0["clockResetFixCount"] = 1_000_000_000_000 }),
            (.outOfRange(name: "maximumGap", value: -1, allowed: Self.day), try damaged { $0["maximumGap"] = -1 }),
            (.outOfRange(name: "biasShare", value: 1, allowed: Self.share), try damaged { $0["biasShare"] = 1 })
        ]
        for (expected, data) in cases {
            do {
                _ = try JSONDecoder().decode(C.self, from: data)
                Issue.record("decoded \(expected)")
            } catch DecodingError.dataCorrupted(let context) {
                #expect(context.underlyingError as? GeoAnchorError == expected)
                #expect(context.debugDescription == expected.description)
            }
        }
        // A bad mode: the mode's own decoding refuses it (the coding path says which).
        let badMode = try damaged {
            var modes = $0["modes"] as! [[String: Any]]
            modes[2]["accelerationSpectralDensity"] = -1
            $0["modes"] = modes
        }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(C.self, from: badMode) }
        let mode = try JSONEncoder().encode(MotionMode(kind: .walking, accelerationSpectralDensity: 0.2, maximumSpeed: 3))
        #expect(try JSONDecoder().decode(MotionMode.self, from: mode) == MotionMode(kind: .walking, accelerationSpectralDensity: 0.2, maximumSpeed: 3))
        let bad = Data(String(decoding: mode, as: UTF8.self).replacingOccurrences(of: #""maximumSpeed":3"#, with: #""maximumSpeed":-3"#).utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(MotionMode.self, from: bad) }
    }
}
