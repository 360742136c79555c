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
        _ = try await engine.headingUpdate(trueHeading: 200, accuracy: 10, time: t)
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

    /// The AR view: an ARKit `.gravity` session whose −z happened to face 37° true, a compass
    /// biased by 12°, fixes along the planned walk. Reference: the walk's construction — each
    /// POI's true position in the session frame (its ENU offset from the session origin turned by
    /// the session's heading; its height 195 m MSL + the bundled geoid − the device's 244.6 m
    /// ellipsoidal). Bounds: the session's heading within 1.5° of 37° after the walk (the 12°
    /// compass bias must not drag it — the walk along the tour's path observes it), every model
    /// within 2 m horizontally and 0.5 m vertically of its true place. Measured: 0.10°, 0.25–0.45 m
    /// and ≤ 0.03 m (exact fixes; the compass alone would leave the heading 12° off: a model
    /// 100 m away 21 m from its place).
    @Test func arSessionIsAlignedByTheWalk() async throws {
        let start = CoordinateSample(latitude: 50.0880, longitude: 14.4235)
        let engine = try TourEngine(pois: Self.pois, start: start, triggerRadius: 20)
        let tour = await engine.tour
        let frame = try LocalTangentFrame(origin: GeodeticCoordinate(latitude: start.latitude, longitude: start.longitude, ellipsoidalHeight: 244.6))
        let pts = tour.path.map { PlanarPoint(frame.enu(latitude: $0.latitude, longitude: $0.longitude, ellipsoidalHeight: 0)) }
        let sessionHeading = 37.0, rad = Double.pi / 180
        // True ENU → the session's axes (x right of the initial view, y up, z back).
        func session(_ e: Double, _ n: Double, _ u: Double) -> SIMD3<Double> {
            let c = cos(sessionHeading * rad), s = sin(sessionHeading * rad)
            return SIMD3(c * e - s * n, u, -(s * e + c * n))
        }
        var t = 1_750_000_000.0
        var alignment: ARAlignment?
        for k in 1..<pts.count {
            let a = pts[k - 1], b = pts[k]
            let heading = (b - a).bearing
            let n = max(1, Int((a.distance(to: b) / 0.13).rounded(.up)))   // 10 Hz at 1.3 m/s
            for i in 0..<n {
                let p = a + (b - a) * (Double(i) / Double(n))
                let yaw = (heading - sessionHeading + 360).truncatingRemainder(dividingBy: 360)
                if let al = try await engine.arFrameUpdate(time: t, cameraPosition: session(p.x, p.y, 0), cameraYaw: yaw) { alignment = al }
                if i % 10 == 0 {
                    let g = frame.geodetic(east: p.x, north: p.y, up: 0)
                    _ = try await engine.locationUpdate(Fix(timestamp: Date(timeIntervalSince1970: t), latitude: g.latitude, longitude: g.longitude,
                                                            altitude: 200, ellipsoidalAltitude: 244.6, horizontalAccuracy: 4, verticalAccuracy: 3))
                    _ = try await engine.headingUpdate(trueHeading: (heading + 12).truncatingRemainder(dividingBy: 360), accuracy: 15, time: t)
                }
                t += 0.1
            }
        }
        let al = try #require(alignment)
        let offset = abs((al.estimate.frameHeading - sessionHeading + 540).truncatingRemainder(dividingBy: 360) - 180)
        #expect(offset <= 1.5, "session heading \(al.estimate.frameHeading)° vs \(sessionHeading)°")
        let geoid = try TourEngine.bundledGeoid()
        for poi in Self.pois {
            let placed = try #require(try al.anchorPositions[poi.id]?.get())
            let e = frame.enu(latitude: poi.latitude, longitude: poi.longitude, ellipsoidalHeight: 244.6)
            let truth = session(e.east, e.north, 0)
            let up = poi.altitude + (try geoid.undulation(latitude: poi.latitude, longitude: poi.longitude)) - 244.6
            let dx = placed.x - truth.x, dz = placed.z - truth.z
            #expect((dx * dx + dz * dz).squareRoot() <= 2, "\(poi.id): \(placed) vs \(truth)")
            #expect(abs(placed.y - up) <= 0.5, "\(poi.id): height \(placed.y) vs \(up)")
        }
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
