import Foundation
import Testing
@testable import GeoAnchorKit

@Suite("Anchoring: placement")
struct AnchorPlacerTests {
    static let device = GeodeticCoordinate(latitude: 49.9617, longitude: 14.3950, ellipsoidalHeight: 392)

    /// Reference: PROJ at run time (`+proj=cart` then `+proj=topocentric` about the device),
    /// 200 anchors within 10 km (random bearing, distance, heights −100…+600 m). Tolerance 1 mm
    /// (the issue's requirement; observed ≤ 1e-8 m).
    @Test func agreesWithPROJWithin10km() throws {
        guard let proj = ProjTopocentric(latitude: Self.device.latitude, longitude: Self.device.longitude,
                                         ellipsoidalHeight: Self.device.height, mslInput: false) else {
            Issue.record("PROJ pipeline could not be created"); return
        }
        var rng = SplitMix64(seed: 7)
        var anchors: [GeoAnchor] = []
        for i in 0..<200 {
            let d = Double.random(in: 0...10_000, using: &rng), b = Double.random(in: 0..<360, using: &rng)
            let lat = Self.device.latitude + d * cos(b * .pi / 180) / 111_200
            let lon = Self.device.longitude + d * sin(b * .pi / 180) / (111_200 * cos(Self.device.latitude * .pi / 180))
            anchors.append(GeoAnchor(id: "a\(i)", latitude: lat, longitude: lon,
                                     altitude: .ellipsoidal(Double.random(in: -100...600, using: &rng))))
        }
        let results = try AnchorPlacer().place(anchors, from: DevicePose.exact(position: Self.device))
        var worst = 0.0
        for (a, r) in zip(anchors, results) {
            let p = try r.get()
            let ref = try #require(proj.enu(latitude: a.latitude, longitude: a.longitude, height: a.altitude.meters))
            let err = max(abs(p.enu.east - ref.0), abs(p.enu.north - ref.1), abs(p.enu.up - ref.2))
            worst = max(worst, err)
        }
        #expect(worst <= 1e-3, "max |Δ| vs PROJ = \(worst) m")
    }

    /// MSL anchors and an MSL device through the native EGM96 ``GeoidGrid``. Reference: PROJ at
    /// run time, `+proj=vgridshift +grids=egm96_15.gtx +multiplier=1` (adds N) then `cart` + `topocentric` about the
    /// device, whose ellipsoidal height is also taken from PROJ's vgridshift. 200 anchors within
    /// 10 km, MSL 150…600 m. Tolerance 1 mm (the issue's requirement).
    @Test func mslAgreesWithPROJVgridshift() throws {
        let deviceMSL = GeodeticCoordinate(latitude: 49.9617, longitude: 14.3950, altitude: 390)
        let n0 = try #require(ProjTopocentric.egm96Undulation(latitude: deviceMSL.latitude, longitude: deviceMSL.longitude))
        guard let proj = ProjTopocentric(latitude: deviceMSL.latitude, longitude: deviceMSL.longitude,
                                         ellipsoidalHeight: deviceMSL.height + n0, mslInput: true) else {
            Issue.record("PROJ pipeline could not be created (egm96_15.gtx missing?)"); return
        }
        var rng = SplitMix64(seed: 17)
        var anchors: [GeoAnchor] = []
        for i in 0..<200 {
            let d = Double.random(in: 0...10_000, using: &rng), b = Double.random(in: 0..<360, using: &rng)
            anchors.append(GeoAnchor(id: "m\(i)", latitude: deviceMSL.latitude + d * cos(b * .pi / 180) / 111_200,
                                     longitude: deviceMSL.longitude + d * sin(b * .pi / 180) / (111_200 * cos(deviceMSL.latitude * .pi / 180)),
                                     altitude: .meanSeaLevel(Double.random(in: 150...600, using: &rng))))
        }
        let placer = AnchorPlacer(environment: AnchorEnvironment(geoid: try GeoidGrid()))
        let results = try placer.place(anchors, from: DevicePose.exact(position: deviceMSL))
        var worst = 0.0
        for (a, r) in zip(anchors, results) {
            let p = try r.get()
            let ref = try #require(proj.enu(latitude: a.latitude, longitude: a.longitude, height: a.altitude.meters))
            worst = max(worst, abs(p.enu.east - ref.0), abs(p.enu.north - ref.1), abs(p.enu.up - ref.2))
        }
        #expect(worst <= 1e-3, "max |Δ| vs PROJ vgridshift pipeline = \(worst) m")
    }

    /// Reference: Monte Carlo of the error model itself (200,000 draws per case): device
    /// horizontal error (circular Gaussian, σ = accuracy / 1.5096 per axis), vertical error and
    /// heading error (σ = accuracy / 0.9945), the anchor swung by the exact rotation δψ about the
    /// device; the 68 % quantiles of the 3-D displacement and of the angle between the true and the
    /// placed direction. Tolerance −1.5 % … +6 % (the χ² approximation is conservative; measured
    /// −0.1 … +3.5 % for meters, +0.1 … +5.6 % for degrees) where the anchor is at least 3× the
    /// horizontal accuracy away; at 5 m with 5 m accuracy the angle is non-linear in the shift and
    /// the model reads 15 % low (33° vs 39°), checked within −20 %.
    @Test(arguments: [
        (2000.0, 0.0, 5.0, 0.0, 5.0), (2000, 50, 5, 3, 5), (200, 30, 5, 3, 3), (50, 10, 5, 3, 2),
        (20, 0, 5, 2, 2), (100, 0, 0, 0, 5), (100, 0, 3, 0, 0), (1000, 300, 10, 5, 1), (5, 0, 5, 0, 0),
    ])
    func uncertaintyModelMatchesMonteCarlo(dh: Double, up: Double, pos: Double, ver: Double, hd: Double) {
        let s = (dh * dh + up * up).squareRoot()
        let u = AnchorUncertainty(horizontalDistance: dh, slantDistance: s, positionSigma: pos, verticalSigma: ver, headingSigma: hd)
        var rng = SplitMix64(seed: 0xA11C)
        let sh = pos / 1.509_592_185_451_663_6, sv = ver / 0.994_457_883_209_753, sp = hd / 0.994_457_883_209_753 * .pi / 180
        var meters: [Double] = [], degrees: [Double] = []
        let n = 200_000
        meters.reserveCapacity(n); degrees.reserveCapacity(n)
        for _ in 0..<n {
            let a = rng.gaussian() * sp
            let x = dh * sin(a) + rng.gaussian() * sh, y = dh * cos(a) + rng.gaussian() * sh, z = up + rng.gaussian() * sv
            meters.append((x * x + (y - dh) * (y - dh) + (z - up) * (z - up)).squareRoot())
            let c = (y * dh + z * up) / ((x * x + y * y + z * z).squareRoot() * s)
            degrees.append(acos(min(1, max(-1, c))) * 180 / .pi)
        }
        meters.sort(); degrees.sort()
        let qm = meters[Int(0.68 * Double(n))], qd = degrees[Int(0.68 * Double(n))]
        #expect(u.meters >= 0.985 * qm && u.meters <= 1.06 * qm, "meters \(u.meters) vs Monte Carlo \(qm)")
        let low = s >= 3 * pos ? 0.985 : 0.80
        #expect(u.degrees >= low * qd && u.degrees <= 1.06 * qd, "degrees \(u.degrees) vs Monte Carlo \(qd)")
    }

    /// Reference: sphere geometry. From an eye 1.5 m above the ground, a point h above the ground
    /// is visible out to √(2R·1.5) + √(2R·h): ≈ 6.9 km for h = 0.5 m, ≈ 40.1 km for h = 100 m.
    /// Tested at ±3 % of those distances (at 97 % the line of sight clears the ground by ≥ 0.2 m,
    /// while the ellipsoid/sphere difference there is < 1 cm).
    @Test func horizon() throws {
        let eye = 1.5
        let frame = try LocalTangentFrame(origin: Self.device)
        let r = (Ellipsoid.wgs84.meridionalRadius(latitude: Self.device.latitude) * Ellipsoid.wgs84.primeVerticalRadius(latitude: Self.device.latitude)).squareRoot()
        func visible(north d: Double, heightAboveGround h: Double, boundingRadius: Double = 0) throws -> Bool {
            // A point d north, on the ground surface through the floor (ellipsoidal height floor + h).
            let g = frame.geodetic(east: 0, north: d, up: 0)
            let a = GeoAnchor(id: "x", latitude: g.latitude, longitude: g.longitude,
                              altitude: .ellipsoidal(Self.device.height - eye + h), boundingRadius: boundingRadius)
            let placer = AnchorPlacer(configuration: PlacementConfiguration(maxRange: 1e9, horizontalFieldOfView: 360))
            return try placer.place([a], from: DevicePose.exact(position: Self.device, heightAboveFloor: eye))[0].get().visibility.aboveHorizon
        }
        let d0 = (2 * r * eye).squareRoot() + (2 * r * 0.5).squareRoot()
        #expect(try visible(north: 0.97 * d0, heightAboveGround: 0.5))
        #expect(try !visible(north: 1.03 * d0, heightAboveGround: 0.5))
        let d1 = (2 * r * eye).squareRoot() + (2 * r * 100).squareRoot()
        #expect(try visible(north: 0.97 * d1, heightAboveGround: 100))
        #expect(try !visible(north: 1.03 * d1, heightAboveGround: 100))
        // Downhill from a hill top: a 2 m model on ground 200 m below the floor is visible 20 km
        // away (the eye is 201.5 m above that ground: √(2R·201.5) + √(2R·2) ≈ 55.7 km), not at 60 km.
        #expect(try visible(north: 20_000, heightAboveGround: -200, boundingRadius: 2))
        #expect(try !visible(north: 60_000, heightAboveGround: -200, boundingRadius: 2))
    }

    /// Field of view (60° default) and range culling, and the loading order (visible first,
    /// then nearest/most certain). Reference: bearings by construction.
    @Test func fieldOfViewRangeAndPriority() throws {
        let frame = try LocalTangentFrame(origin: Self.device)
        func at(_ e: Double, _ n: Double, _ id: String) -> GeoAnchor {
            let g = frame.geodetic(east: e, north: n, up: 0)
            return GeoAnchor(id: id, latitude: g.latitude, longitude: g.longitude, altitude: .ellipsoidal(g.ellipsoidalHeight))
        }
        let anchors = [at(0, 100, "ahead100"), at(100, 0, "east"), at(0, 20, "ahead20"), at(0, 20_000, "far"),
                       at(10, 100, "ahead-5.7deg")]
        let placer = AnchorPlacer(configuration: PlacementConfiguration(maxRange: 10_000, horizontalFieldOfView: 60))
        let res = try placer.place(anchors, from: DevicePose(position: Self.device, horizontalAccuracy: 3, verticalAccuracy: 0, heading: 0, headingAccuracy: 2))
        let p = try res.map { try $0.get() }
        #expect(p[0].visibility.inFieldOfView && !p[1].visibility.inFieldOfView && p[4].visibility.inFieldOfView)
        #expect(!p[3].visibility.inRange)
        #expect(AnchorPlacer.loadingOrder(res) == [2, 0, 4, 1])
    }

    /// Bad input per anchor: NaN latitude, MSL without a geoid, terrain without coverage → that
    /// anchor's typed error; the others are still placed.
    @Test func perAnchorErrors() throws {
        let grid = try ESRIASCIIGrid(text: """
            ncols 2
            nrows 2
            xllcorner 14.0
            yllcorner 49.0
            cellsize 0.5
            NODATA_value -9999
            300 310
            290 -9999
            """, name: "t.asc", verticalReference: .ellipsoid)
        let anchors = [
            GeoAnchor(id: "ok", latitude: 49.96, longitude: 14.39, altitude: .ellipsoidal(400)),
            GeoAnchor(id: "nan", latitude: .nan, longitude: 14.39, altitude: .ellipsoidal(400)),
            GeoAnchor(id: "msl", latitude: 49.96, longitude: 14.39, altitude: .meanSeaLevel(350)),
            GeoAnchor(id: "outside", latitude: 51, longitude: 14.39, altitude: .aboveTerrain(2)),
            GeoAnchor(id: "nodata", latitude: 49.1, longitude: 14.9, altitude: .aboveTerrain(2)),
            GeoAnchor(id: "terrain", latitude: 49.5, longitude: 14.25, altitude: .aboveTerrain(2)),
        ]
        let placer = AnchorPlacer(environment: AnchorEnvironment(terrain: grid))
        let r = try placer.place(anchors, from: DevicePose.exact(position: Self.device))
        #expect((try? r[0].get()) != nil)
        if case .failure(.invalidLatitude) = r[1] {} else { Issue.record("nan latitude: \(r[1])") }
        #expect(throws: GeoAnchorError.verticalReferenceMismatch(expected: .ellipsoid, got: .meanSeaLevel)) { try r[2].get() }
        if case .failure(.outsideCoverage) = r[3] {} else { Issue.record("outside: \(r[3])") }
        if case .failure(.outsideCoverage) = r[4] {} else { Issue.record("nodata: \(r[4])") }
        #expect((try? r[5].get()) != nil)
    }

    /// Floor-relative anchors sit `offset` above the device's floor: an anchor 2 m above the floor
    /// right next to the device (1.5 m above the floor) is 0.5 m above the device. Reference:
    /// arithmetic; tolerance 1e-5 m (5 m away the Earth's curvature drops the point by 2e-6 m).
    @Test func floorRelative() throws {
        let frame = try LocalTangentFrame(origin: Self.device)
        let g = frame.geodetic(east: 5, north: 0, up: 0)
        let a = GeoAnchor(id: "f", latitude: g.latitude, longitude: g.longitude, altitude: .aboveFloor(2))
        let p = try AnchorPlacer().place([a], from: DevicePose.exact(position: Self.device, heightAboveFloor: 1.5))[0].get()
        #expect(abs(p.enu.up - 0.5) < 1e-5)
    }
}
