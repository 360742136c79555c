import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport

/// ``GeoAnchor/anchors(kml:options:)`` on GDAL 3.6 LIBKML's KMZ of site-models.geojson
/// (scripts/dev/kml_anchor_fixtures.sh: Model placemarks with Location, Orientation, Scale and
/// Link, and a Point). Reference: the GeoJSON GDAL wrote it from — each model's values and
/// altitude mode as the anchor they mean — and the two models the reader must refuse.
@Suite("Anchors from KML")
struct GeoAnchorKMLTests {
    static let dir = SharedData.repositoryRoot.appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/Traces/Other")

    @Test func gdalModelsAreAnchors() throws {
        let read = try GeoAnchor.anchors(kml: Self.dir.appendingPathComponent("site-models.kmz"))
        let doc = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: Self.dir.appendingPathComponent("site-models.geojson"))) as? [String: Any])
        let features = try #require(doc["features"] as? [[String: Any]])
        var expected: [GeoAnchor] = []
        for f in features {
            let p = f["properties"] as? [String: Any] ?? [:]
            let c = (f["geometry"] as? [String: Any])?["coordinates"] as? [Double] ?? []
            let name = p["name"] as? String ?? ""
            guard (p["tilt"] as? Double ?? 0) == 0, (p["scale_x"] as? Double ?? 1) == (p["scale_y"] as? Double ?? 1) else { continue }
            let h = c.count > 2 ? c[2] : 0
            let altitude: AnchorAltitude = switch p["altitudeMode"] as? String {
            case "absolute": .meanSeaLevel(h)
            case "relativeToGround": .aboveTerrain(h)
            default: .aboveTerrain(0)
            }
            var metadata = ["name": name]
            if let m = p["model"] as? String { metadata["model"] = m }
            expected.append(GeoAnchor(id: name, latitude: c[1], longitude: c[0], altitude: altitude,
                                      orientation: AnchorOrientation(yaw: p["heading"] as? Double ?? 0),
                                      scale: p["scale_x"] as? Double ?? 1, metadata: metadata))
        }
        #expect(read.anchors.map(\.anchor) == expected && expected.map(\.id) == ["gate", "tower", "well"], "\(read.anchors.map(\.anchor))")
        #expect(read.problems.map(\.id) == ["statue", "wall"])
        #expect(read.problems[0].error.message == "placemark \"statue\": Model tilt 5.0° and roll 0.0°: only the heading of a KML Model is converted (give tilt and roll 0)")
        #expect(read.problems[1].error.message == "placemark \"wall\": Model scale 2.0, 1.0, 1.0 is not uniform")
        #expect(read.problems.allSatisfy { $0.error.line != nil })
    }

    /// KML's altitude modes mean what Google Earth draws: on a terrain 370 m above the
    /// ellipsoid, the tower (relativeToGround, 2 m) stands at 372 m — the device's height, so
    /// 0 m up in its ENU frame less the Earth's curvature over its 870 m (6 cm) — and the well
    /// (clampToGround) at 370 m, 2 m below the device (curvature 11 mm over 530 m); 0.1 m allowed
    /// for the curvature. The gate (absolute: above sea level) needs a geoid: without one a
    /// typed error of its own.
    @Test func altitudeModes() throws {
        struct Flat: TerrainModel {
            var verticalReference: VerticalReference { .ellipsoid }
            func terrainHeight(latitude: Double, longitude: Double) throws(GeoAnchorError) -> Double { 370 }
        }
        let read = try GeoAnchor.anchors(kml: Self.dir.appendingPathComponent("site-models.kmz"))
        let placer = AnchorPlacer(environment: AnchorEnvironment(terrain: Flat()), convention: .enu)
        let pose = DevicePose(position: GeodeticCoordinate(latitude: 49.958, longitude: 14.387, ellipsoidalHeight: 372),
                              horizontalAccuracy: 3, verticalAccuracy: 3, heading: 80, headingAccuracy: 10)
        let results = try placer.place(read.anchors.map(\.anchor), from: pose)
        guard case .failure(.verticalReferenceMismatch) = results[0] else { Issue.record("\(results[0])"); return }
        let tower = try results[1].get(), well = try results[2].get()
        #expect(abs(tower.enu.up) < 0.1 && abs(well.enu.up + 2) < 0.1, "\(tower.enu.up) \(well.enu.up)")
    }

    /// Seeded mutants of the KMZ's layer document (GDAL's Model placemarks) read for anchors:
    /// valid anchors or a TraceFormatError naming the mutant, never a trap.
    @Test func mutants() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("model-mutants-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let archive = try ZipArchive(data: Data(contentsOf: Self.dir.appendingPathComponent("site-models.kmz")))
        let layer = try #require(archive.entry(named: "layers/site-models.kml"))
        let kml = dir.appendingPathComponent("layer.kml")
        try Data(try archive.data(for: layer, limit: 1 << 20)).write(to: kml)
        try GNSSReaderFuzzTests.expectMutantsReadOrRefused([kml], seed: 0x30DE, count: 120) { data, source in
            let url = dir.appendingPathComponent(source.replacingOccurrences(of: "#", with: "-"))
            try data.write(to: url)
            do {
                let read = try GeoAnchor.anchors(kml: url)
                for a in read.anchors.map(\.anchor) { try a.validate() }
                return read.anchors.map { Fix(time: 0, latitude: $0.anchor.latitude, longitude: $0.anchor.longitude) }
            } catch let e as TraceFormatError {
                throw TraceFormatError(source: source, line: e.line, message: e.message)
            }
        }
    }
}
