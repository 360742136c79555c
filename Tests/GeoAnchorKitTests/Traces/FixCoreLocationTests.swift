import Foundation
import Testing
@testable import GeoAnchorKit

/// Heights are never ambiguous (issue: an app passing CoreLocation's MSL `altitude` where an
/// ellipsoidal height was assumed put an anchor 45 m too high in Prague).
@Suite("Heights: CoreLocation conventions")
struct FixCoreLocationTests {
    /// CLLocation field for field. Reference: CoreLocation's documented semantics (altitude MSL,
    /// ellipsoidalAltitude WGS84, negative accuracy/course/speed invalid); EGM96 N ≈ 45 m at Prague.
    @Test func coreLocationFieldsKeepTheirDatums() {
        let t = Date(timeIntervalSince1970: 1_700_000_000.25)
        let f = Fix(timestamp: t, latitude: 50.0875, longitude: 14.4214, altitude: 200.0, ellipsoidalAltitude: 244.6,
                    horizontalAccuracy: 4.5, verticalAccuracy: 3, course: 90, speed: 1.2)
        #expect(f.time == 1_700_000_000.25)
        #expect(f.ellipsoidalHeight == 244.6 && f.verticalReference == .ellipsoid)
        #expect(abs(f.altitude! - 200) < 1e-12 && abs(f.geoidSeparation! - 44.6) < 1e-12)
        #expect(f.horizontalAccuracy == 4.5 && f.verticalAccuracy == 3 && f.course == 90 && f.speed == 1.2)
        #expect(f.coordinate.verticalReference == .ellipsoid && f.coordinate.height == 244.6)

        // Before iOS 15: MSL only. The ellipsoidal height is unknown (nil), never guessed.
        let old = Fix(timestamp: t, latitude: 50.0875, longitude: 14.4214, altitude: 200, ellipsoidalAltitude: nil,
                      horizontalAccuracy: 4.5, verticalAccuracy: 3)
        #expect(old.altitude == 200 && old.ellipsoidalHeight == nil && old.verticalReference == .meanSeaLevel)
        #expect(old.coordinate.verticalReference == .meanSeaLevel)

        // CoreLocation's −1 "invalid" values become nil; a negative horizontal accuracy marks the
        // coordinate itself invalid, so it is kept and the filter refuses the fix with the reason.
        let invalid = Fix(timestamp: t, latitude: 50, longitude: 14, altitude: 0, ellipsoidalAltitude: 0,
                          horizontalAccuracy: -1, verticalAccuracy: -1, course: -1, speed: -1)
        #expect(invalid.horizontalAccuracy == -1 && invalid.height == nil && invalid.verticalAccuracy == nil
                && invalid.course == nil && invalid.speed == nil)
        var filter = PositionFilter()
        #expect(filter.process(invalid) == nil && filter.lastRefusal?.reason == .invalidValue)
    }

    /// The labelled initializers say which datum: `altitude:` is MSL, `ellipsoidalHeight:` the ellipsoid.
    @Test func labelledInitializers() {
        let a = Fix(time: 0, latitude: 50, longitude: 14, altitude: 200, geoidSeparation: 45)
        #expect(a.verticalReference == .meanSeaLevel && a.ellipsoidalHeight == 245)
        let e = Fix(time: 0, latitude: 50, longitude: 14, ellipsoidalHeight: 245)
        #expect(e.verticalReference == .ellipsoid && e.altitude == nil)
        #expect(GeodeticCoordinate(latitude: 50, longitude: 14, altitude: 200).verticalReference == .meanSeaLevel)
        #expect(GeodeticCoordinate(latitude: 50, longitude: 14).height == 0)
    }

    /// Routing compares heights only above one datum: an MSL start with ellipsoidal stops was a
    /// 45 m phantom climb; now it is a typed error naming the pair.
    @Test func routingRefusesMixedDatums() {
        let start = GeodeticCoordinate(latitude: 50.0875, longitude: 14.4214, altitude: 200)
        let stop = GeodeticCoordinate(latitude: 50.0880, longitude: 14.4230, ellipsoidalHeight: 245)
        do {
            _ = try RoutingCosts(coordinates: [start, stop])
            Issue.record("mixed datums accepted")
        } catch {
            #expect(error == .mixedVerticalReferences("point 0 is msl, point 1 is ellipsoid"))
        }
        // One datum: the climb is the height difference (reference: 245 − 244 = 1 m).
        let same = try? RoutingCosts(coordinates: [GeodeticCoordinate(latitude: 50.0875, longitude: 14.4214, ellipsoidalHeight: 244), stop])
        #expect(same?.ascents[0, 1] == 1)
    }
}
