import Foundation
import Testing
@testable import GeoAnchorKit

/// ``GeoAnchor/anchors(geoJSON:source:)``. Reference: the values written in the GeoJSON below,
/// as the anchors they describe are spelled out field by field (ids, heights and datums,
/// orientation, metadata), and the problems each bad feature must name.
@Suite("Anchors from GeoJSON")
struct GeoAnchorGeoJSONTests {
    static let collection = """
    {"type":"FeatureCollection","features":[
    {"type":"Feature","id":"gate","properties":{"name":"East gate","model":"gate.usdz","yaw":95,"scale":1.5,"bounding_radius":6},"geometry":{"type":"Point","coordinates":[14.388,49.9578,375.2]}},
    {"type":"Feature","properties":{"name":"Temple","altitude":331,"altitude_reference":"msl","horizontal_accuracy":0.4},"geometry":{"type":"Point","coordinates":[14.3962,49.9632]}},
    {"type":"Feature","properties":{"id":7,"altitude":2,"altitude_reference":"terrain"},"geometry":{"type":"Point","coordinates":[14.39,49.96]}},
    {"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[14.391,49.961,380]}},
    {"type":"Feature","properties":{"name":"Well"},"geometry":{"type":"Point","coordinates":[14.3935,49.9595]}},
    {"type":"Feature","properties":{"name":"Shrine","altitude":1,"altitude_reference":"sea"},"geometry":{"type":"Point","coordinates":[14.392,49.962]}},
    {"type":"Feature","properties":{"name":"Tower","yaw":"north","altitude":0,"altitude_reference":"floor"},"geometry":{"type":"Point","coordinates":[14.392,49.962]}},
    {"type":"Feature","id":"gate","properties":{},"geometry":{"type":"Point","coordinates":[14.393,49.963,370]}},
    {"type":"Feature","properties":{"kind":"path"},"geometry":{"type":"LineString","coordinates":[[14.388,49.9578],[14.3962,49.9632]]}}
    ]}
    """

    @Test func pointsAreAnchors() throws {
        let read = GeoAnchor.anchors(geoJSON: try GeoJSONFeatureCollection.decode(Data(Self.collection.utf8)), source: "site.geojson")
        #expect(read.anchors.map(\.feature) == [0, 1, 2, 3] && read.otherFeatures == 1)
        let a = read.anchors.map(\.anchor)
        #expect(a[0] == GeoAnchor(id: "gate", latitude: 49.9578, longitude: 14.388, altitude: .ellipsoidal(375.2),
                                  orientation: AnchorOrientation(yaw: 95), scale: 1.5, boundingRadius: 6,
                                  metadata: ["name": "East gate", "model": "gate.usdz"]))
        #expect(a[1] == GeoAnchor(id: "Temple", latitude: 49.9632, longitude: 14.3962, altitude: .meanSeaLevel(331),
                                  horizontalAccuracy: 0.4, metadata: ["name": "Temple"]))
        #expect(a[2].id == "7" && a[2].altitude == .aboveTerrain(2))
        #expect(a[3].id == "anchor 4" && a[3].altitude == .ellipsoidal(380))
        let problems = read.problems.map { "\($0.feature) \($0.id): \($0.error.message)" }
        #expect(problems == [
            #"4 Well: feature #4 (id "Well"): no height: a third coordinate (meters above the WGS84 ellipsoid, RFC 7946) or altitude and altitude_reference"#,
            #"5 Shrine: feature #5 (id "Shrine"): altitude_reference "sea" is not ellipsoid, msl, terrain or floor"#,
            #"6 Tower: feature #6 (id "Tower"): yaw "north" is not a number"#,
            #"7 gate: feature #7 (id "gate"): id "gate" is also feature #0's"#,
        ], "\(problems)")
        #expect(read.problems.allSatisfy { $0.error.source == "site.geojson" })
    }
}
