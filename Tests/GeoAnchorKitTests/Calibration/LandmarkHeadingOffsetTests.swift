import Foundation
import Testing
@testable import GeoAnchorKit
@testable import GeoAnchorKitSimulation

@Suite("Landmark heading offset")
struct LandmarkHeadingOffsetTests {
    /// Závist hillfort area (49.96°N 14.39°E); landmarks at 80 m – 2 km.
    let device = GeodeticCoordinate(latitude: 49.96, longitude: 14.39, ellipsoidalHeight: 0)

    func landmark(bearing: Double, distance: Double) throws -> GeodeticCoordinate {
        let frame = try LocalTangentFrame(origin: device)
        let (s, c) = Angle.sincos(degrees: bearing)
        let g = frame.geodetic(east: distance * s, north: distance * c, up: 0)
        return GeodeticCoordinate(latitude: g.latitude, longitude: g.longitude, ellipsoidalHeight: g.ellipsoidalHeight)
    }

    /// Reference: noise-free sightings with a known compass error of −7.3° (the compass reads
    /// 7.3° too high), landmarks placed by bearing and distance in the device's ENU frame
    /// (``LocalTangentFrame``, independent of the geodesic code). The geodesic azimuth equals
    /// that ENU bearing to 1e-5° within 2 km (the documented accuracy), so the offset is
    /// recovered to 1e-5°, residuals ≈ 0, distances to 1 mm. Includes a bearing across north
    /// (observed 3° vs azimuth 355.7°) to exercise the wrap-around.
    @Test func exactOffset() throws {
        var sightings: [LandmarkSighting] = []
        for (b, d) in [(355.7, 500.0), (40, 1200), (133, 80), (260, 2000)] {
            let lm = try landmark(bearing: b, distance: d)
            sightings.append(LandmarkSighting(devicePosition: device, horizontalAccuracy: 5, observedHeading: Angle.normalizeHeading(b + 7.3),
                                              headingAccuracy: 2, landmark: lm))
        }
        let est = try LandmarkHeadingOffset.estimate(sightings)
        #expect(abs(est.offset - -7.3) < 1e-5)
        #expect(est.sightings.allSatisfy { abs($0.residual) < 1e-5 && !$0.isOutlier })
        for (s, b) in zip(est.sightings, [355.7, 40, 133, 260]) {
            #expect(abs(Angle.difference(from: b, to: s.azimuth)) < 1e-5, "geodesic \(s.azimuth) vs ENU \(b)")
        }
        #expect(est.sightings[2].sigma > est.sightings[3].sigma, "an 80 m landmark constrains less than a 2 km one")
        #expect(abs(est.sightings[0].distance - 500) < 1e-3 && abs(est.sightings[3].distance - 2000) < 1e-3)
    }

    /// Reference: Monte Carlo with the simulator's seeded normals. 40 sightings at 50 m–1.5 km,
    /// heading noise 2°, device position noise (68 % radius 8 m), true offset 4°, plus 3 gross
    /// blunders (+40°). Expect: all 3 blunders flagged, no more than 2 false flags, offset
    /// within 3 standard errors of 4°, and a standard error near the theoretical
    /// 1/√Σ(1/σᵢ²) (the estimator is the weighted mean).
    @Test func noisyWithOutliers() throws {
        var rng = MagnetometerSimulator(field: .zero, hardIron: .zero, softIron: .identity, noise: 0, seed: 42)
        var sightings: [LandmarkSighting] = []
        var blunders: Set<Int> = []
        for i in 0..<40 {
            let bearing = rng.uniform() * 360, distance = 50 + rng.uniform() * 1450
            let lm = try landmark(bearing: bearing, distance: distance)
            // Device displaced by position noise (σ per axis = 8 / 1.5096 m).
            let sigmaAxis = 8 / LandmarkHeadingOffset.radius68PerSigma
            let frame = try LocalTangentFrame(origin: device)
            let p = frame.geodetic(east: rng.gaussian() * sigmaAxis, north: rng.gaussian() * sigmaAxis, up: 0)
            let truePos = GeodeticCoordinate(latitude: p.latitude, longitude: p.longitude, ellipsoidalHeight: p.ellipsoidalHeight)
            let trueAz = try LocalTangentFrame(origin: truePos).enu(from: lm).bearing
            var observed = trueAz - 4 + rng.gaussian() * 2
            if i % 13 == 5 { observed += 40; blunders.insert(i) }
            sightings.append(LandmarkSighting(devicePosition: device, horizontalAccuracy: 8, observedHeading: Angle.normalizeHeading(observed),
                                              headingAccuracy: 2, landmark: lm))
        }
        let est = try LandmarkHeadingOffset.estimate(sightings)
        let flagged = Set(est.sightings.indices.filter { est.sightings[$0].isOutlier })
        #expect(blunders.isSubset(of: flagged), "flagged \(flagged.sorted()), blunders \(blunders.sorted())")
        #expect(flagged.count - blunders.count <= 2)
        #expect(abs(est.offset - 4) <= 3 * est.standardError, "offset \(est.offset) ± \(est.standardError)")
        #expect(est.standardError < 0.6 && est.reducedChiSquare < 2)
    }

    /// The documented definition of a residual, `azimuth − (observed + offset)` wrapped to
    /// (−180°, 180°], holds for every sighting — also for a blunder pointing nearly backwards
    /// while the inliers' mean lies 1–2° from their median (the residual of −180.7° it had
    /// before was the unwrapped difference). Reference: the definition, evaluated with
    /// ``Angle/difference(from:to:)`` from the returned azimuth; tolerance 1e-9°.
    @Test func residualsAreWrapped() throws {
        let offsets = [10.0, 10.5, 11, 14, 15]                 // compass errors of the good sightings
        var sightings: [LandmarkSighting] = []
        for (i, o) in offsets.enumerated() {
            let b = 30.0 + 50 * Double(i)
            sightings.append(LandmarkSighting(devicePosition: device, horizontalAccuracy: 0,
                                              observedHeading: Angle.normalizeHeading(b - o), headingAccuracy: 2,
                                              landmark: try landmark(bearing: b, distance: 1000)))
        }
        // A blunder: the tower behind the visitor (offset −168.3° = 11 − 179.3).
        sightings.append(LandmarkSighting(devicePosition: device, horizontalAccuracy: 0,
                                          observedHeading: Angle.normalizeHeading(300 + 168.3), headingAccuracy: 2,
                                          landmark: try landmark(bearing: 300, distance: 1000)))
        let est = try LandmarkHeadingOffset.estimate(sightings)
        #expect(est.sightings[5].isOutlier && est.sightings[0..<5].allSatisfy { !$0.isOutlier })
        for (s, r) in zip(sightings, est.sightings) {
            let expected = Angle.difference(from: s.observedHeading + est.offset, to: r.azimuth)
            #expect(r.residual > -180 && r.residual <= 180, "\(r.residual)")
            #expect(abs(r.residual - expected) < 1e-9, "\(r.residual) vs \(expected)")
        }
    }

    /// One sighting: offset = its difference, σ = its own; a device at the landmark is refused.
    @Test func edgeCases() throws {
        let lm = try landmark(bearing: 90, distance: 300)
        let one = try LandmarkHeadingOffset.estimate([LandmarkSighting(devicePosition: device, horizontalAccuracy: 0, observedHeading: 88,
                                                                     headingAccuracy: 1.5, landmark: lm)])
        #expect(abs(one.offset - 2) < 1e-6 && abs(one.standardError - 1.5) < 1e-9 && one.reducedChiSquare.isNaN)
        #expect(throws: GeoAnchorError.self) {
            try LandmarkHeadingOffset.estimate([LandmarkSighting(devicePosition: device, horizontalAccuracy: 3, observedHeading: 0, landmark: device)])
        }
        #expect(throws: GeoAnchorError.self) { try LandmarkHeadingOffset.estimate([]) }
        #expect(throws: GeoAnchorError.self) {
            try LandmarkHeadingOffset.estimate([LandmarkSighting(devicePosition: device, horizontalAccuracy: -1, observedHeading: 0, landmark: lm)])
        }
    }
}
