import Foundation
import GeoAnchorKit
import Testing
@testable import TourAppCore

/// The example app's logic end to end on a simulated walk through three POIs in Prague's Old
/// Town (reference: the walk's construction — the visitor walks the planned legs, so every stop
/// is entered, in the planned order).
@Suite("Example tour app")
struct TourAppTests {
    static let pois = [
        PointOfInterest(id: "tyn", latitude: 50.08758, longitude: 14.42214, altitude: 195),
        PointOfInterest(id: "clock", latitude: 50.08700, longitude: 14.42077, altitude: 195),
        PointOfInterest(id: "bethlehem", latitude: 50.08494, longitude: 14.41862, altitude: 193),
    ]

    @Test @MainActor func walkVisitsEveryStopInPlannedOrder() async throws {
        let start = CoordinateSample(latitude: 50.0880, longitude: 14.4235)
        let engine = try TourEngine(pois: Self.pois, start: start, triggerRadius: 20)
        let plan = await engine.plan
        #expect(Set(plan.order) == Set(Self.pois.map(\.id)))
        let model = TourViewModel(engine: engine)
        // Walk the tour's path at 1.3 m/s, one fix a second, with CoreLocation-style fields.
        let tour = await engine.tour
        let frame = try LocalTangentFrame(origin: GeodeticCoordinate(latitude: start.latitude, longitude: start.longitude))
        let pts = tour.path.map { PlanarPoint(frame.enu(latitude: $0.latitude, longitude: $0.longitude, ellipsoidalHeight: 0)) }
        var t = 1_750_000_000.0
        _ = await engine.headingUpdate(trueHeading: 200, accuracy: 10, time: t)
        for k in 1..<pts.count {
            let a = pts[k - 1], b = pts[k]
            let n = max(1, Int((a.distance(to: b) / 1.3).rounded(.up)))
            for i in 0..<n {
                let p = a + (b - a) * (Double(i) / Double(n))
                let g = frame.geodetic(east: p.x, north: p.y, up: 0)
                let fix = Fix(timestamp: Date(timeIntervalSince1970: t), latitude: g.latitude, longitude: g.longitude,
                              altitude: 200, ellipsoidalAltitude: 244.6, horizontalAccuracy: 4, verticalAccuracy: 3)
                await model.handle(fix)
                t += 1
            }
        }
        for _ in 0..<30 {   // stand at the last stop
            let g = tour.path.last!
            await model.handle(Fix(timestamp: Date(timeIntervalSince1970: t), latitude: g.latitude, longitude: g.longitude,
                                   altitude: 200, ellipsoidalAltitude: 244.6, horizontalAccuracy: 4, verticalAccuracy: 3))
            t += 1
        }
        #expect(model.visited == plan.order, "\(model.visited) vs \(plan.order); \(model.message)")
        #expect(model.placedModels == Self.pois.count)
    }

    /// A fix the app cannot use (CoreLocation's invalid-accuracy marker −1, a time going backwards)
    /// comes back with the reason, not as a silent no-op.
    @Test func refusedFixesSayWhy() async throws {
        let start = CoordinateSample(latitude: 50.0880, longitude: 14.4235)
        let engine = try TourEngine(pois: Self.pois, start: start, triggerRadius: 20)
        let t = Date(timeIntervalSince1970: 1_750_000_000)
        let good = try await engine.locationUpdate(Fix(timestamp: t, latitude: 50.0880, longitude: 14.4235, altitude: 200,
                                                       ellipsoidalAltitude: 244.6, horizontalAccuracy: 4, verticalAccuracy: 3))
        #expect(good.refusal == nil && good.position != nil)
        let invalid = try await engine.locationUpdate(Fix(timestamp: t.addingTimeInterval(1), latitude: 50.0880, longitude: 14.4235,
                                                          altitude: 200, ellipsoidalAltitude: 244.6, horizontalAccuracy: -1, verticalAccuracy: 3))
        #expect(invalid.position == nil && invalid.refusal?.reason == .invalidValue, "\(String(describing: invalid.refusal))")
        let back = try await engine.locationUpdate(Fix(timestamp: t.addingTimeInterval(-5), latitude: 50.0880, longitude: 14.4235,
                                                       altitude: 200, ellipsoidalAltitude: 244.6, horizontalAccuracy: 4, verticalAccuracy: 3))
        #expect(back.refusal?.reason == .outOfOrder, "\(String(describing: back.refusal))")
    }

    /// MSL heights through the bundled geoid: a model whose base is 195 m MSL, seen from a device
    /// whose CoreLocation fix says 200 m MSL / 244.6 m ellipsoidal, sits 195 + N − 244.6 m above
    /// it (N: the bundled EGM96 excerpt at the model; reference: GeoidGrid bilinear, itself equal
    /// to PROJ vgridshift in the library's tests; tolerance 1e-6 m).
    @Test func anchorHeightsUseTheBundledGeoid() throws {
        let geoid = try TourEngine.bundledGeoid()
        let poi = Self.pois[0]
        let n = try geoid.undulation(latitude: poi.latitude, longitude: poi.longitude)
        #expect(n > 40 && n < 50)
        let fix = Fix(timestamp: Date(timeIntervalSince1970: 0), latitude: 50.0880, longitude: 14.4235, altitude: 200,
                      ellipsoidalAltitude: 244.6, horizontalAccuracy: 4, verticalAccuracy: 3)
        let placer = AnchorPlacer(environment: AnchorEnvironment(geoid: geoid))
        let pose = DevicePose(position: fix.coordinate, horizontalAccuracy: 4, verticalAccuracy: 3, heading: 0, headingAccuracy: 10)
        let anchor = GeoAnchor(id: poi.id, latitude: poi.latitude, longitude: poi.longitude, altitude: .meanSeaLevel(poi.altitude))
        let p = try placer.place([anchor], from: pose)[0].get()
        #expect(abs(p.enu.up - (poi.altitude + n - 244.6)) < 0.01)   // up also drops with curvature (≈ 0.01 m at 150 m)
    }
}
