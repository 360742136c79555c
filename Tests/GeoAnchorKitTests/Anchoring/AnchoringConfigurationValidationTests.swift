import Foundation
import Testing
@testable import GeoAnchorKit

/// ``PlacementConfiguration/validate()`` and ``DriftCorrectionConfiguration/validate()``: each
/// value refused by name outside its documented range, and the throwing entry points
/// (``AnchorPlacer/place(_:from:)``, ``AnchorField``'s init and `update`) refuse it first.
/// Reference: the documented ranges (errors compared exactly).
@Suite("Anchoring configuration validation")
struct AnchoringConfigurationValidationTests {
    static let device = GeodeticCoordinate(latitude: 49.9617, longitude: 14.3950, ellipsoidalHeight: 392)
    static let anchors = [GeoAnchor(id: "x", latitude: device.latitude + 0.001, longitude: device.longitude,
                                    altitude: .ellipsoidal(device.height))]

    /// Defaults, the values the code base uses and the documented special values pass.
    @Test func defaultsAndDocumentedValuesPass() throws {
        try PlacementConfiguration().validate()
        try PlacementConfiguration(maxRange: 1e9, horizontalFieldOfView: 360).validate()
        try PlacementConfiguration(maxRange: 10_000, horizontalFieldOfView: 60, errorWeight: 0).validate()
        try PlacementConfiguration(errorWeight: 1e6).validate()
        try DriftCorrectionConfiguration().validate()
        try DriftCorrectionConfiguration(maxTranslationRate: .infinity, maxRotationRate: .infinity, snapDistance: 0).validate()
    }

    @Test func placementFieldsOutOfRangeAreNamed() {
        typealias C = PlacementConfiguration
        let cases: [(String, C, GeoAnchorError)] = [
            ("maxRange NaN", C(maxRange: .nan), .nonFinite(name: "maxRange", value: .nan)),
            ("maxRange 0", C(maxRange: 0), .outOfRange(name: "maxRange", value: 0, allowed: C.maxRangeRange)),
            ("maxRange -1", C(maxRange: -1), .outOfRange(name: "maxRange", value: -1, allowed: C.maxRangeRange)),
            ("maxRange ∞", C(maxRange: .infinity), .nonFinite(name: "maxRange", value: .infinity)),
            ("fov NaN", C(horizontalFieldOfView: .nan), .nonFinite(name: "horizontalFieldOfView", value: .nan)),
            ("fov 0", C(horizontalFieldOfView: 0), .outOfRange(name: "horizontalFieldOfView", value: 0, allowed: C.fieldOfViewRange)),
            ("fov 361", C(horizontalFieldOfView: 361), .outOfRange(name: "horizontalFieldOfView", value: 361, allowed: C.fieldOfViewRange)),
            ("errorWeight -1", C(errorWeight: -1), .outOfRange(name: "errorWeight", value: -1, allowed: C.errorWeightRange)),
            ("errorWeight 1e308", C(errorWeight: 1e308), .outOfRange(name: "errorWeight", value: 1e308, allowed: C.errorWeightRange)),
            ("errorWeight NaN", C(errorWeight: .nan), .nonFinite(name: "errorWeight", value: .nan)),
        ]
        let pose = DevicePose.exact(position: Self.device)
        for (label, c, error) in cases {
            expectRefused(label, error) { () throws(GeoAnchorError) in try c.validate() }
            // The placer refuses it before placing anything, even with a valid pose.
            expectRefused("place, \(label)", error) { () throws(GeoAnchorError) in
                _ = try AnchorPlacer(configuration: c).place(Self.anchors, from: pose)
            }
        }
    }

    @Test func driftFieldsOutOfRangeAreNamed() throws {
        typealias C = DriftCorrectionConfiguration
        let cases: [(String, C, GeoAnchorError)] = [
            ("maxTranslationRate NaN", C(maxTranslationRate: .nan), .nonFinite(name: "maxTranslationRate", value: .nan)),
            ("maxTranslationRate 0", C(maxTranslationRate: 0), .outOfRange(name: "maxTranslationRate", value: 0, allowed: C.translationRateRange)),
            ("maxTranslationRate -1", C(maxTranslationRate: -1), .outOfRange(name: "maxTranslationRate", value: -1, allowed: C.translationRateRange)),
            ("maxTranslationRate -∞", C(maxTranslationRate: -.infinity), .nonFinite(name: "maxTranslationRate", value: -.infinity)),
            ("maxRotationRate NaN", C(maxRotationRate: .nan), .nonFinite(name: "maxRotationRate", value: .nan)),
            ("maxRotationRate -5", C(maxRotationRate: -5), .outOfRange(name: "maxRotationRate", value: -5, allowed: C.rotationRateRange)),
            ("snapDistance NaN", C(snapDistance: .nan), .nonFinite(name: "snapDistance", value: .nan)),
            ("snapDistance -1", C(snapDistance: -1), .outOfRange(name: "snapDistance", value: -1, allowed: C.snapDistanceRange)),
            ("snapDistance ∞", C(snapDistance: .infinity), .nonFinite(name: "snapDistance", value: .infinity)),
        ]
        let pose = DevicePose.exact(position: Self.device)
        var field = try AnchorField(anchors: Self.anchors, convention: .enu, session: pose)
        for (label, c, error) in cases {
            expectRefused(label, error) { () throws(GeoAnchorError) in try c.validate() }
            expectRefused("init, \(label)", error) { () throws(GeoAnchorError) in
                _ = try AnchorField(anchors: Self.anchors, convention: .enu, session: pose, drift: c)
            }
            field.drift = c
            expectRefused("update, \(label)", error) { () throws(GeoAnchorError) in
                try field.update(pose: pose, devicePositionInSession: .zero)
            }
        }
    }

    /// `advance(by:)` cannot throw: an invalid drift configuration stops it (a programmer error)
    /// instead of making every transform NaN.
    @Test func advanceStopsOnAnInvalidDrift() async {
        await #expect(processExitsWith: .failure) {
            let pose = DevicePose.exact(position: AnchoringConfigurationValidationTests.device)
            var field = try! AnchorField(anchors: AnchoringConfigurationValidationTests.anchors, convention: .enu, session: pose)
            field.drift.maxTranslationRate = .nan
            field.advance(by: 1)
        }
    }
}

extension AnchoringConfigurationValidationTests {
    /// `.infinity` rates are documented to jump. Before: `advance(by: 0)` (a repeated frame
    /// time) computed ∞ · 0 = NaN as the step and made the applied alignment, and so every
    /// transform, NaN. Reference: the estimate itself (a jump is exact: tolerance none).
    @Test func infiniteRatesJumpAlsoAtZeroInterval() throws {
        let pose = DevicePose.exact(position: Self.device, heading: 0)
        var field = try AnchorField(anchors: Self.anchors, convention: .enu, session: pose,
                                    drift: DriftCorrectionConfiguration(maxTranslationRate: .infinity, maxRotationRate: .infinity))
        let g = try LocalTangentFrame(origin: Self.device).geodetic(east: 3, north: 0, up: 0)
        try field.update(pose: DevicePose.exact(position: GeodeticCoordinate(latitude: g.latitude, longitude: g.longitude,
                                                                          ellipsoidalHeight: g.ellipsoidalHeight), heading: 10),
                         devicePositionInSession: .zero, nominalHeading: 0)
        for dt in [0.0, -1, .nan] {
            field.advance(by: dt)
            #expect(field.appliedOriginInSession == field.targetOriginInSession, "dt \(dt)")
            #expect(field.appliedNorthOffset == 10, "dt \(dt)")
        }
        #expect(field.reposed().allSatisfy { $0.c3.x.isFinite })
    }
}
