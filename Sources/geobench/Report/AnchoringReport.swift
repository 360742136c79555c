import Foundation
import GeoAnchorKit
import GeoAnchorKitPROJ

/// Anchoring section: the Závist reconstruction anchors placed about a visitor on the acropolis,
/// checked against an independent PROJ pipeline; batch re-pose and spatial index speed.
enum AnchoringReport: ReportSection {
    static let title = "Anchoring: Závist reconstruction anchors, PROJ agreement, re-pose and nearby search"

    /// Reconstruction anchors of the Celtic oppidum Závist (south of Prague): approximate
    /// positions of the acropolis temple, the main gate and the rampart line, MSL heights from the
    /// terrain. Illustrative positions (not a survey), fixed so the report is deterministic.
    static let zavist: [GeoAnchor] = [
        GeoAnchor(id: "acropolis-temple", latitude: 49.96125, longitude: 14.39440, altitude: .meanSeaLevel(391),
                  orientation: AnchorOrientation(yaw: 75), boundingRadius: 12),
        GeoAnchor(id: "gate-D", latitude: 49.96610, longitude: 14.40470, altitude: .meanSeaLevel(360),
                  orientation: AnchorOrientation(yaw: 40), boundingRadius: 15),
        GeoAnchor(id: "rampart-north", latitude: 49.96800, longitude: 14.39800, altitude: .meanSeaLevel(372), boundingRadius: 6),
        GeoAnchor(id: "rampart-east", latitude: 49.96250, longitude: 14.40850, altitude: .meanSeaLevel(345), boundingRadius: 6),
        GeoAnchor(id: "rampart-south", latitude: 49.95550, longitude: 14.39900, altitude: .meanSeaLevel(340), boundingRadius: 6),
        GeoAnchor(id: "rampart-west", latitude: 49.96000, longitude: 14.38800, altitude: .meanSeaLevel(330), boundingRadius: 6),
        GeoAnchor(id: "vltava-lookout", latitude: 49.96300, longitude: 14.38400, altitude: .meanSeaLevel(300), boundingRadius: 3),
        GeoAnchor(id: "vysehrad", latitude: 50.06450, longitude: 14.41800, altitude: .meanSeaLevel(230), boundingRadius: 40),
    ]

    static let device = GeodeticCoordinate(latitude: 49.96170, longitude: 14.39500, altitude: 390)

    static func run(_ context: ReportContext) throws -> [String] {
        var lines: [String] = []
        let geoid = try GeoidGrid()
        let env = AnchorEnvironment(geoid: geoid)
        let pose = DevicePose(position: device, horizontalAccuracy: 4, verticalAccuracy: 3, heading: 60, headingAccuracy: 8)
        let placer = AnchorPlacer(environment: env, convention: .arkitGravityAndHeading,
                                  configuration: PlacementConfiguration(maxRange: 10_000, horizontalFieldOfView: 60))
        let results = try placer.place(zavist, from: pose)
        let n0 = try geoid.undulation(latitude: device.latitude, longitude: device.longitude)
        lines.append(String(format: "  device %.5f N %.5f E, %.1f m MSL (EGM96 N = %.3f m), heading 60°, σ_pos 4 m, σ_v 3 m, σ_heading 8°",
                            device.latitude, device.longitude, device.height, n0))
        lines.append("  frame: ARKit gravityAndHeading (x east, y up, z south), meters from the device")
        lines.append("  id                   H_msl         x         y          z   distance  bearing  err_m  err_deg   visible (range/horizon/fov)")
        for (a, r) in zip(zavist, results) {
            switch r {
            case .success(let p):
                let v = p.visibility
                let flags = "\(v.isVisible ? "yes" : "no ") (\(v.inRange ? "y" : "n")/\(v.aboveHorizon ? "y" : "n")/\(v.inFieldOfView ? "y" : "n"))"
                lines.append("  " + a.id.padding(toLength: 18, withPad: " ", startingAt: 0)
                             + String(format: " %7.1f %9.2f %9.2f %10.2f %10.1f %8.1f %6.1f %8.2f   ",
                                      a.altitude.meters, p.position.x, p.position.y, p.position.z,
                                      p.distance, p.bearing, p.uncertainty.meters, p.uncertainty.degrees) + flags)
            case .failure(let e):
                lines.append("  \(a.id): ERROR \(e)")
            }
        }
        let order = AnchorPlacer.loadingOrder(results).map { zavist[$0].id }
        lines.append("  loading order: " + order.joined(separator: ", "))

        // Independent check: PROJ vgridshift (EGM96) + cart + topocentric about the device.
        let h0 = device.height + n0
        let pipeline = "+proj=pipeline +step +proj=unitconvert +xy_in=deg +xy_out=rad"
            + " +step +proj=vgridshift +grids=egm96_15.gtx +multiplier=1 +step +proj=cart +ellps=WGS84"
            + " +step +proj=topocentric +ellps=WGS84 +lat_0=\(device.latitude) +lon_0=\(device.longitude) +h_0=\(h0)"
        let proj = try ProjTransformer(pipeline: pipeline)
        var rng = SplitMix64(seed: 42)
        var check = zavist.filter { abs($0.latitude - device.latitude) < 0.09 }
        for i in 0..<500 {
            let d = 10_000 * rng.uniform(0, 1), b = 2 * Double.pi * rng.uniform(0, 1)
            check.append(GeoAnchor(id: "r\(i)", latitude: device.latitude + d * cos(b) / 111_200,
                                   longitude: device.longitude + d * sin(b) / (111_200 * cos(device.latitude * .pi / 180)),
                                   altitude: .meanSeaLevel(200 + 300 * rng.uniform(0, 1))))
        }
        let enuPlacer = AnchorPlacer(environment: env, convention: .enu)
        var worst = 0.0
        for (a, r) in zip(check, try enuPlacer.place(check, from: pose)) {
            let p = try r.get()
            let ref = try proj.transform(x: a.longitude, y: a.latitude, z: a.altitude.meters)
            worst = max(worst, abs(p.enu.east - ref.x), abs(p.enu.north - ref.y), abs(p.enu.up - ref.z))
        }
        lines.append(String(format: "  vs PROJ (vgridshift egm96_15 + cart + topocentric), %d MSL anchors within 10 km: max |Δ| = %.2e m",
                            check.count, worst))
        if let dem = try demFilesAsGDALReadsThem(context.tracesDirectory.deletingLastPathComponent()
            .appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/DEM")) { lines.append(dem) }

        // Batch re-pose speed (this build; the Benchmarks/ suite is the reference measurement).
        let many = (0..<100_000).map { i in
            GeoAnchor(id: "a\(i)", latitude: device.latitude + 0.05 * (rng.uniform(0, 1) - 0.5),
                      longitude: device.longitude + 0.07 * (rng.uniform(0, 1) - 0.5), altitude: .ellipsoidal(350 + 100 * rng.uniform(0, 1)),
                      orientation: AnchorOrientation(yaw: 360 * rng.uniform(0, 1)))
        }
        var field = try AnchorField(anchors: many, environment: env, convention: .arkitGravityAndHeading, session: pose)
        try field.update(pose: pose, devicePositionInSession: SIMD3(0.5, 0, -1), nominalHeading: 57)
        field.snapToEstimate()
        var out = [Float4x4](repeating: .identity, count: many.count)
        var times: [Double] = []
        for _ in 0..<15 {
            let t0 = DispatchTime.now().uptimeNanoseconds
            out.withUnsafeMutableBufferPointer { field.repose(into: $0) }
            times.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / 1e6)
        }
        times.sort()
        lines.append(String(format: "  re-pose 100,000 anchors (Float 4×4): median %.3f ms per frame (min %.3f)", times[7], times[0]))

        // Spatial index: 1M points over a Czechia-sized box, exact geodesic kNN/radius.
        let pts = (0..<1_000_000).map { (id: $0, latitude: 48.5 + 2.6 * rng.uniform(0, 1), longitude: 12.1 + 6.8 * rng.uniform(0, 1)) }
        let tb = DispatchTime.now().uptimeNanoseconds
        let index = try SpatialIndex(points: pts)
        let buildS = Double(DispatchTime.now().uptimeNanoseconds - tb) / 1e9
        let queries = (0..<2_000).map { _ in (48.5 + 2.6 * rng.uniform(0, 1), 12.1 + 6.8 * rng.uniform(0, 1)) }
        var tk = DispatchTime.now().uptimeNanoseconds
        var found = 0
        for q in queries { found += try index.nearest(latitude: q.0, longitude: q.1, k: 10).count }
        let knnUs = Double(DispatchTime.now().uptimeNanoseconds - tk) / 1e3 / Double(queries.count)
        tk = DispatchTime.now().uptimeNanoseconds
        var inRadius = 0
        for q in queries { inRadius += try index.within(radius: 500, latitude: q.0, longitude: q.1).count }
        let radUs = Double(DispatchTime.now().uptimeNanoseconds - tk) / 1e3 / Double(queries.count)
        // Brute-force agreement on a few queries.
        var agree = 0
        for q in queries.prefix(5) {
            var brute: [(id: Int, d: Double)] = []
            brute.reserveCapacity(pts.count)
            for p in pts {
                let d = Geodesic.wgs84.distance(latitude1: q.0, longitude1: q.1, latitude2: p.latitude, longitude2: p.longitude)
                brute.append((p.id, d))
            }
            brute.sort { $0.d != $1.d ? $0.d < $1.d : $0.id < $1.id }
            let expected: [Int] = brute.prefix(10).map { $0.id }
            let got: [Int] = try index.nearest(latitude: q.0, longitude: q.1, k: 10).map { $0.id }
            if got == expected { agree += 1 }
        }
        lines.append(String(format: "  spatial index, 1,000,000 points: bulk load %.2f s; k=10 nearest %.2f µs/query; radius 500 m %.2f µs/query (%.1f results avg)",
                            buildS, knnUs, radUs, Double(inRadius) / Double(queries.count)))
        lines.append("  k-nearest equal to a brute-force geodesic scan on \(agree)/5 queries (\(found) neighbours returned)")

        // Nearby search at the issue's scale: 10,000,000 points, radius 250 m.
        context.progress("anchoring: bulk-loading 10,000,000 points")
        let big = try SpatialIndex(points: (0..<10_000_000).map {
            (id: $0, latitude: 48.5 + 2.6 * rng.uniform(0, 1), longitude: 12.1 + 6.8 * rng.uniform(0, 1))
        })
        tk = DispatchTime.now().uptimeNanoseconds
        var inBig = 0
        for q in queries { inBig += try big.within(radius: 250, latitude: q.0, longitude: q.1).count }
        let bigUs = Double(DispatchTime.now().uptimeNanoseconds - tk) / 1e3 / Double(queries.count)
        lines.append(String(format: "  spatial index, 10,000,000 points: radius 250 m %.2f µs/query (%.1f results avg)",
                            bigUs, Double(inBig) / Double(queries.count)))
        return lines
    }

    /// The DEM files GDAL 3.6 wrote (scripts/dev/dem_fixtures.py: five GeoTIFF layouts and an
    /// SRTM tile) against GDAL's own `gdallocationinfo` at cell centres; nil without the fixtures
    /// (a `--traces` folder outside the repository).
    static func demFilesAsGDALReadsThem(_ dir: URL) throws -> String? {
        let csv = dir.appendingPathComponent("dem.gdal-values.csv.gz")
        guard FileManager.default.fileExists(atPath: csv.path), let data = try ByteLineReader.decompressedContents(of: csv) else { return nil }
        var grids: [String: ElevationGrid] = [:]
        var equal = 0, total = 0, noData = 0
        for row in String(decoding: data, as: UTF8.self).split(separator: "\n").dropFirst() {
            let f = row.split(separator: ",")
            guard f.count == 4, let lat = Double(f[1]), let lon = Double(f[2]), let value = Double(f[3]) else { continue }
            let file = String(f[0])
            let grid = try grids[file] ?? ElevationGrid(contentsOf: dir.appendingPathComponent(file))
            grids[file] = grid
            total += 1
            if value == grid.noDataValue {
                if (try? grid.terrainHeight(latitude: lat, longitude: lon)) == nil { noData += 1; equal += 1 }
            } else if let h = try? grid.terrainHeight(latitude: lat, longitude: lon), abs(h - value) <= 1e-6 {
                equal += 1
            }
        }
        return "  DEMs as GDAL 3.6 wrote them (\(grids.count) files: GeoTIFF strips/tiles, LZW/Deflate/PackBits, predictors 2/3, big-endian, pixel-is-point, BigTIFF; SRTM .hgt): "
            + "\(equal)/\(total) heights as gdallocationinfo reads them (\(noData) no-data cells refused)"
    }
}
