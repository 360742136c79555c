import Foundation
import Testing
@testable import GeoAnchorKit

@Suite("GeoJSON model")
struct GeoJSONTests {
    /// Reference: RFC 7946 Appendix A.3 (Polygon with a hole) and §1.5 example text, decoded
    /// and compared with the values written in the RFC (exact: JSON numbers are parsed
    /// correctly rounded).
    @Test func decodesRFCExample() throws {
        let text = """
        { "type": "FeatureCollection",
          "features": [
            { "type": "Feature", "geometry": {"type": "Point", "coordinates": [102.0, 0.5]},
              "properties": {"prop0": "value0"} },
            { "type": "Feature",
              "geometry": { "type": "LineString",
                "coordinates": [ [102.0, 0.0], [103.0, 1.0], [104.0, 0.0], [105.0, 1.0] ] },
              "properties": { "prop0": "value0", "prop1": 0.0 } },
            { "type": "Feature", "id": 7,
              "geometry": { "type": "Polygon",
                "coordinates": [
                  [ [100.0, 0.0], [101.0, 0.0], [101.0, 1.0], [100.0, 1.0], [100.0, 0.0] ],
                  [ [100.8, 0.8], [100.8, 0.2], [100.2, 0.2], [100.2, 0.8], [100.8, 0.8] ] ] },
              "properties": { "prop0": "value0", "prop1": {"this": "that"}, "flags": [true, null] } },
            { "type": "Feature", "geometry": { "type": "MultiPolygon", "coordinates": [
                [[[102.0, 2.0], [103.0, 2.0], [103.0, 3.0], [102.0, 3.0], [102.0, 2.0]]] ] }, "properties": null },
            { "type": "Feature", "geometry": { "type": "GeometryCollection", "geometries": [
                { "type": "Point", "coordinates": [100.0, 0.0, 250.5] },
                { "type": "MultiLineString", "coordinates": [[[100.0, 0.0], [101.0, 1.0]], [[102.0, 2.0], [103.0, 3.0]]] },
                { "type": "MultiPoint", "coordinates": [[100.0, 0.0], [101.0, 1.0]] } ] }, "properties": {} }
          ] }
        """
        let fc = try GeoJSONFeatureCollection.decode(Data(text.utf8))
        #expect(fc.features.count == 5)
        #expect(fc.features[0].geometry == .point(GeoJSONPosition(longitude: 102, latitude: 0.5)))
        #expect(fc.features[0].string("prop0") == "value0")
        #expect(fc.features[1].double("prop1") == 0)
        guard case .polygon(let rings)? = fc.features[2].geometry else { Issue.record("not a polygon"); return }
        #expect(rings.count == 2 && rings[1][0] == GeoJSONPosition(longitude: 100.8, latitude: 0.8))
        #expect(fc.features[2].id == .number(7))
        #expect(fc.features[2].properties?["prop1"]?["this"] == .string("that"))
        #expect(fc.features[2].properties?["flags"] == .array([.bool(true), .null]))
        #expect(fc.features[3].properties == nil)
        guard case .geometryCollection(let gs)? = fc.features[4].geometry,
              case .point(let p) = gs[0] else { Issue.record("not a collection"); return }
        #expect(p.height == 250.5)
        // Round trip through the encoder gives the same value.
        let again = try GeoJSONFeatureCollection.decode(try fc.encoded())
        #expect(again == fc)
    }

    /// RFC 7946 structural rules: each violation is a TraceFormatError naming the problem.
    @Test(arguments: [
        (#"{"type":"Feature","geometry":{"type":"LineString","coordinates":[[1,2]]},"properties":null}"#, "at least 2 positions"),
        (#"{"type":"Polygon","coordinates":[[[0,0],[1,0],[1,1],[0,1]]]}"#, "closed"),
        (#"{"type":"Point","coordinates":[200,0]}"#, "longitude 200"),
        (#"{"type":"Point","coordinates":[0,95]}"#, "latitude 95"),
        (#"{"type":"Point","coordinates":[0]}"#, "at least 2 numbers"),
        (#"{"type":"Hexagon","coordinates":[0,0]}"#, "unknown geometry type"),
        (#"[1,2,3]"#, "not a GeoJSON object"),
        (#"{"type":"FeatureCollection"}"#, "missing member 'features'"),
    ])
    func rejectsInvalid(text: String, expected: String) {
        do {
            _ = try GeoJSONFeatureCollection.decode(Data(text.utf8), source: "x.geojson")
            Issue.record("accepted invalid GeoJSON \(text)")
        } catch {
            #expect(error.description.contains(expected), "\(error.description)")
            #expect(error.description.hasPrefix("x.geojson: "))
        }
    }

    /// Fix ↔ Point feature round trip keeps every field (ellipsoidal height in the position,
    /// MSL altitude in properties) — exact, the JSON encoder writes shortest round-trip decimals.
    /// A value JSON cannot hold (NaN) is a typed error naming it, not a crash or an untyped throw.
    @Test func unencodableValueIsATypedError() {
        let bad = Fix(time: 0, latitude: 49.96, longitude: 14.39, horizontalAccuracy: .nan)
        do {
            _ = try GeoJSONTrace.featureCollection([bad]).encoded()
            Issue.record("NaN encoded")
        } catch {
            #expect(error.source == "<geojson>" && error.message.hasPrefix("cannot encode"), "\(error)")
        }
    }

    @Test func traceRoundTrip() throws {
        let a = Fix(time: 1_589_493_694.1, latitude: 49.96, longitude: 14.39, height: 310.25, verticalReference: .meanSeaLevel,
                    geoidSeparation: 45.5, horizontalAccuracy: 3.5, verticalAccuracy: 5, speed: 1.3, course: 90,
                    heading: 91, headingAccuracy: 10, quality: .gps, satellites: 9, hdop: 0.9, vdop: 1.2, pdop: 1.5)
        let b = Fix(time: 1_589_493_695, latitude: -33.5, longitude: -70.25, height: 12, verticalReference: .ellipsoid)
        let fc = GeoJSONTrace.featureCollection([a, b])
        let data = try fc.encoded()
        var out: [Fix] = []
        _ = try GeoJSONTrace.fixes(from: try GeoJSONFeatureCollection.decode(data), source: "t") { out.append($0) }
        #expect(out.count == 2)
        #expect(abs(out[0].time - a.time) < 1e-3) // ISO string with milliseconds
        #expect(out[0].latitude == a.latitude && out[0].longitude == a.longitude)
        #expect(out[0].ellipsoidalHeight == a.ellipsoidalHeight)
        #expect(out[0].horizontalAccuracy == 3.5 && out[0].satellites == 9 && out[0].quality == .gps)
        #expect(out[1].ellipsoidalHeight == 12)
    }
}

extension GeoJSONTests {
    /// The togeojson convention (a LineString with a `coordTimes` array, as mapbox/togeojson
    /// writes for a GPX track) gives one fix per position; features without times are not
    /// fixes and their positions are counted as untimed (one untimed Point, a 3-position
    /// untimed LineString: 4), never silently lost. Reference: the document below.
    @Test func lineStringsAndUntimedFeatures() throws {
        let doc = """
        {"type":"FeatureCollection","features":[
         {"type":"Feature","geometry":{"type":"LineString","coordinates":[[14.39,49.96,300],[14.391,49.961,301]]},
          "properties":{"coordTimes":["2020-05-14T21:21:34Z","2020-05-14T21:21:35Z"]}},
         {"type":"Feature","geometry":{"type":"Point","coordinates":[14.5,50.0]},"properties":{"name":"stop"}},
         {"type":"Feature","geometry":{"type":"LineString","coordinates":[[1,2],[3,4],[5,6]]},"properties":{}}
        ]}
        """
        var out: [Fix] = []
        let s = try GeoJSONTrace.fixes(from: try GeoJSONFeatureCollection.decode(Data(doc.utf8)), source: "t") { out.append($0) }
        #expect(out.map(\.longitude) == [14.39, 14.391] && out.map(\.time) == [1_589_491_294, 1_589_491_295])
        #expect(s.fixes == 2 && s.ignoredRecords == 2 && s.untimedPoints == 4)
        // A coordTimes array of the wrong length is an error naming the feature.
        let bad = doc.replacingOccurrences(of: #","2020-05-14T21:21:35Z""#, with: "")
        #expect(throws: TraceFormatError.self) {
            _ = try GeoJSONTrace.fixes(from: try GeoJSONFeatureCollection.decode(Data(bad.utf8)), source: "t") { _ in }
        }
    }
}
