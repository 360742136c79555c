import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport

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

extension GeoJSONTests {
    static let other = SharedData.repositoryRoot.appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/Traces/Other")

    static func read(_ name: String) throws -> ([Fix], TraceReadSummary) {
        var out: [Fix] = []
        let s = try TraceReader.read(url: other.appendingPathComponent(name), onFix: { out.append($0) })
        return (out, s)
    }

    /// GeoJSON written by GDAL 3.6's ogr2ogr (the `track_points` layer of a GPX: one Point per
    /// track point, GPX's fields as properties) and by GPSBabel 1.8 (scripts/dev/gdal_gpsbabel_fixtures.sh).
    /// Reference: the GPX they were made from, read by GPXReader — the same times, positions,
    /// MSL elevations (`ele`), geoid separations (`geoidheight`), satellite counts (`sat`) and
    /// HDOP, exactly. ogr2ogr's `tracks` layer and GPSBabel's LineString carry no times: no
    /// fix, and all 5 positions counted as untimed.
    @Test func gdalAndGPSBabelGeoJSON() throws {
        var gpx: [Fix] = []
        _ = try GPXReader.read(url: Self.other.appendingPathComponent("walk.gpx"), onFix: { gpx.append($0) })
        #expect(gpx.count == 5)
        let (points, _) = try Self.read("walk.ogr-track-points.geojson")
        #expect(points.count == 5)
        for (a, b) in zip(points, gpx) {
            #expect(a.time == b.time && a.latitude == b.latitude && a.longitude == b.longitude)
            #expect(a.height == b.height && a.verticalReference == .meanSeaLevel && b.verticalReference == .meanSeaLevel)
            #expect(a.geoidSeparation == b.geoidSeparation && a.satellites == b.satellites && a.hdop == b.hdop)
        }
        for name in ["walk.ogr-tracks.geojson", "walk.gpsbabel.geojson"] {
            let (fixes, s) = try Self.read(name)
            #expect(fixes.isEmpty && s.untimedPoints == 5 && s.ignoredRecords == 1, "\(name): \(s)")
        }
    }

    /// GDAL's own date-time form (ogr2ogr's GeoJSON before GDAL 3: `2019/12/15 19:34:34+00`) and
    /// other zone spellings. Reference: the same instants as ISO 8601 (hand-converted).
    @Test(arguments: [("2019/12/15 19:34:34+00", "2019-12-15T19:34:34Z"), ("2019/12/15 19:34:34.250+00", "2019-12-15T19:34:34.250Z"),
                      ("2019/12/15 21:34:34+02", "2019-12-15T19:34:34Z"), ("2019/12/16 01:04:34+0530", "2019-12-15T19:34:34Z"),
                      ("2019/12/15 19:34:34", "2019-12-15T19:34:34Z")])
    func gdalDateTimes(ogr: String, iso: String) throws {
        #expect(try GeoJSONTrace.time(.string(ogr)) == GeoJSONTrace.time(.string(iso)))
    }

    /// @tmcw/togeojson's `coordinateProperties.times`: a LineString, and a MultiLineString (a
    /// two-segment GPX track) with one array per line. Reference: the document.
    @Test func togeojsonCoordinateProperties() throws {
        let doc = """
        {"type":"FeatureCollection","features":[
         {"type":"Feature","geometry":{"type":"LineString","coordinates":[[14.39,49.96],[14.391,49.961]]},
          "properties":{"coordinateProperties":{"times":["2020-05-14T21:21:34Z","2020-05-14T21:21:35Z"]}}},
         {"type":"Feature","geometry":{"type":"MultiLineString","coordinates":[[[14.4,49.9],[14.401,49.9]],[[14.5,49.9],[14.501,49.9]]]},
          "properties":{"coordinateProperties":{"times":[["2020-05-14T21:22:00Z","2020-05-14T21:22:01Z"],["2020-05-14T21:30:00Z","2020-05-14T21:30:01Z"]]}}}
        ]}
        """
        var out: [Fix] = []
        let s = try GeoJSONTrace.fixes(from: try GeoJSONFeatureCollection.decode(Data(doc.utf8)), source: "t") { out.append($0) }
        #expect(out.map(\.longitude) == [14.39, 14.391, 14.4, 14.401, 14.5, 14.501] && s.fixes == 6 && s.untimedPoints == 0)
        #expect(out.map(\.time) == [1_589_491_294, 1_589_491_295, 1_589_491_320, 1_589_491_321, 1_589_491_800, 1_589_491_801])
        let bad = doc.replacingOccurrences(of: #",["2020-05-14T21:30:00Z","2020-05-14T21:30:01Z"]"#, with: "")
        #expect {
            _ = try GeoJSONTrace.fixes(from: try GeoJSONFeatureCollection.decode(Data(bad.utf8)), source: "t") { _ in }
        } throws: { e in (e as? TraceFormatError)?.message.contains("1 entries for 2 lines") == true }
    }
}
