import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport

/// KML areas (``KMLReader/areas(url:options:)``) and tours drawn in KML with zones
/// (``Tour/init(waypoints:path:areas:radius:)``). References: GDAL 3.6's KML and LIBKML
/// (KMZ) writing of traces/zavist-tour.tour.geojson (scripts/dev/kml_tour_fixtures.sh) against
/// the GeoJSON itself; hand-written My Maps-style polygons for holes, MultiGeometry and
/// unclosed rings.
@Suite("KML areas")
struct KMLAreaTests {
    static let dir = GeoJSONTests.other

    static func file(_ text: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("areas-\(UUID().uuidString).kml")
        try Data(text.utf8).write(to: url)
        return url
    }

    /// GDAL's KML and KMZ of the Závist tour give the tour file's zones (every ring position
    /// exact: GDAL writes the GeoJSON's decimals), stops and path, as a Tour.
    @Test(arguments: ["zavist-tour.gdal.kml", "zavist-tour.libkml.kmz"]) func gdalTourIsTheGeoJSONTour(name: String) throws {
        let url = Self.dir.appendingPathComponent(name)
        let reference = try Tour(contentsOf: SharedData.repositoryRoot.appendingPathComponent("traces/zavist-tour.tour.geojson"))
        let areas = try KMLReader.areas(url: url)
        #expect(areas.map(\.name) == reference.zones.map(\.id))
        let tour = try Tour(waypoints: KMLReader.waypoints(url: url), path: KMLReader.lines(url: url), areas: areas, radius: 20)
        #expect(tour.zones.map(\.id) == reference.zones.map(\.id))
        for (z, r) in zip(tour.zones, reference.zones) {
            #expect(z.polygons.count == r.polygons.count)
            for (p, q) in zip(z.polygons, r.polygons) {
                #expect(p.count == q.count)
                for (a, b) in zip(p, q) {
                    #expect(a.count == b.count && zip(a, b).allSatisfy { $0.latitude == $1.latitude && $0.longitude == $1.longitude })
                }
            }
        }
        #expect(tour.stops.map(\.name) == reference.stops.map(\.name))
        #expect(zip(tour.stops, reference.stops).allSatisfy { $0.coordinate.latitude == $1.coordinate.latitude && $0.coordinate.longitude == $1.coordinate.longitude })
        #expect(tour.path.count == reference.path.count)
    }

    /// A polygon with a hole (the inner ring after the outer, whatever the order in the file),
    /// a MultiGeometry of two polygons (one area, two polygons), an unclosed ring (closed, as
    /// Google Earth draws it), an unnamed placemark (no name; `zone 3` in a tour); a ring of two
    /// distinct positions is refused naming its line.
    @Test func myMapsShapes() throws {
        let url = try Self.file("""
        <?xml version="1.0" encoding="UTF-8"?>
        <kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>Castle</name>
        <Placemark><name>Courtyard</name><Polygon>
          <innerBoundaryIs><LinearRing><tessellate>1</tessellate><coordinates>14.3901,49.9601,0 14.3902,49.9601,0 14.3902,49.9602,0 14.3901,49.9601,0</coordinates></LinearRing></innerBoundaryIs>
          <outerBoundaryIs><LinearRing><tessellate>1</tessellate><coordinates>
            14.39,49.96,0 14.391,49.96,0 14.391,49.961,0 14.39,49.961,0 14.39,49.96,0
          </coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
        <Placemark><name>Towers</name><MultiGeometry>
          <Polygon><outerBoundaryIs><LinearRing><coordinates>14.392,49.96 14.3921,49.96 14.3921,49.9601</coordinates></LinearRing></outerBoundaryIs></Polygon>
          <Polygon><outerBoundaryIs><LinearRing><coordinates>14.393,49.96 14.3931,49.96 14.3931,49.9601 14.393,49.96</coordinates></LinearRing></outerBoundaryIs></Polygon>
        </MultiGeometry></Placemark>
        <Placemark><Polygon><outerBoundaryIs><LinearRing><coordinates>14.394,49.96 14.3941,49.96 14.3941,49.9601 14.394,49.96</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark>
        <Placemark><name>Gate</name><Point><coordinates>14.3905,49.9605,0</coordinates></Point></Placemark>
        </Document></kml>
        """)
        defer { try? FileManager.default.removeItem(at: url) }
        let areas = try KMLReader.areas(url: url)
        #expect(areas.map(\.name) == ["Courtyard", "Towers", nil])
        #expect(areas[0].polygons.count == 1 && areas[0].polygons[0].count == 2)
        #expect(areas[0].polygons[0][0].count == 5 && areas[0].polygons[0][0][1].longitude == 14.391)   // outer first
        #expect(areas[0].polygons[0][1].count == 4 && areas[0].polygons[0][1][0].longitude == 14.3901)
        #expect(areas[1].polygons.count == 2 && areas[1].polygons[0][0].count == 4)
        #expect(areas[1].polygons[0][0].first == areas[1].polygons[0][0].last)                          // closed
        let tour = try Tour(waypoints: KMLReader.waypoints(url: url), areas: areas)
        #expect(tour.zones.map(\.id) == ["Courtyard", "Towers", "zone 3"] && tour.stops.map(\.id) == ["Gate"])
        // The courtyard's hole: a point in it is outside the zone, one beside it inside.
        let frame = try LocalTangentFrame(origin: GeodeticCoordinate(latitude: 49.9605, longitude: 14.3905, ellipsoidalHeight: 0))
        let zones = try PlanarTourZones(tour: tour, frame: frame)
        func at(_ lat: Double, _ lon: Double) -> PlanarPoint {
            let v = frame.enu(latitude: lat, longitude: lon, ellipsoidalHeight: 0)
            return PlanarPoint(x: v.east, y: v.north)
        }
        #expect(!zones.contains(zone: 0, at(49.96013, 14.39017)) && zones.contains(zone: 0, at(49.9605, 14.3905)))

        let bad = try Self.file("""
        <kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><Polygon><outerBoundaryIs><LinearRing>
        <coordinates>14.39,49.96 14.391,49.96 14.39,49.96</coordinates></LinearRing></outerBoundaryIs></Polygon></Placemark></kml>
        """)
        defer { try? FileManager.default.removeItem(at: bad) }
        #expect { _ = try KMLReader.areas(url: bad) } throws: { e in
            let e = e as? TraceFormatError
            return e?.line == 2 && e?.message == "a Polygon ring has 2 distinct position(s), an area needs 3"
        }
    }

    /// Seeded mutations of GDAL's tour KML read for areas (as GNSSReaderFuzzTests): areas whose
    /// positions are valid, or a TraceFormatError naming the mutant — never a trap.
    @Test func mutants() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("area-mutants-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        try GNSSReaderFuzzTests.expectMutantsReadOrRefused([Self.dir.appendingPathComponent("zavist-tour.gdal.kml")], seed: 0xA4EA, count: 120) { data, source in
            let url = dir.appendingPathComponent(source.replacingOccurrences(of: "#", with: "-"))
            try data.write(to: url)
            do {
                return try KMLReader.areas(url: url).flatMap { $0.polygons.flatMap { $0.flatMap { $0 } } }
                    .map { Fix(time: 0, latitude: $0.latitude, longitude: $0.longitude) }
            } catch let e as TraceFormatError {
                // Name the mutant as the other readers' `data:source:` entry points do.
                throw TraceFormatError(source: source, line: e.line, message: e.message)
            }
        }
    }
}
