import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport

/// What a path names, for every reader: a directory is refused as one (it said "read error
/// (errno 21)", "malformed XML: … Is a directory" or "cannot read file"), and GeoJSON files and
/// tours are read from a ZIP archive's member (`bundle.zip/tour.geojson`) and compressed, as the
/// line and XML readers were (GeoJSON took only gzip/compress, tours only plain files).
@Suite("Input paths")
struct InputPathTests {
    static let traces = SharedData.repositoryRoot.appendingPathComponent("traces")

    @Test func directoriesAreRefusedAsDirectories() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("paths-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: dir) }
        for ext in ["csv", "nmea", "gpx", "kml", "tcx", "fit", "ubx", "geojson", "osm"] {
            try FileManager.default.createDirectory(at: dir.appendingPathComponent("d.\(ext)"), withIntermediateDirectories: true)
        }
        func message(_ body: () throws -> Void) -> String {
            do { try body(); return "read" } catch let e as TraceFormatError { return e.message } catch { return "\(error)" }
        }
        for ext in ["csv", "nmea", "gpx", "kml", "tcx", "fit", "ubx"] {
            let m = message { _ = try TraceReader.load(url: dir.appendingPathComponent("d.\(ext)")) }
            #expect(m == "is a directory, not a file", "\(ext): \(m)")
        }
        #expect(message { _ = try GeoJSONFeatureCollection.read(contentsOf: dir.appendingPathComponent("d.geojson")) } == "is a directory, not a file")
        #expect(message { _ = try OSMReader.read(url: dir.appendingPathComponent("d.osm")) } == "is a directory, not a file")
        #expect(message { _ = try ByteLineReader(url: dir.appendingPathComponent("d.csv")) } == "is a directory, not a file")
        #expect { _ = try Tour(contentsOf: dir.appendingPathComponent("d.geojson")) } throws: { e in
            "\(e)".contains("is a directory, not a file")
        }
    }

    /// The shipped tour and walk GeoJSON inside one ZIP archive (Python's zipfile, deflated, made
    /// here) read as the files themselves.
    @Test func geoJSONAndToursFromAZipMember() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("zipped-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let zip = dir.appendingPathComponent("bundle.zip")
        let tour = Self.traces.appendingPathComponent("zavist-tour.tour.geojson"), walk = Self.traces.appendingPathComponent("city-walk.geojson")
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        p.arguments = ["-c", "import sys, zipfile\nz = zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED)\nfor f in sys.argv[2:]: z.write(f, f.split('/')[-1])\nz.close()",
                       zip.path, tour.path, walk.path]
        try p.run()
        p.waitUntilExit()
        try #require(p.terminationStatus == 0)
        #expect(try Tour(contentsOf: zip.appendingPathComponent("zavist-tour.tour.geojson")) == Tour(contentsOf: tour))
        #expect(try GeoJSONFeatureCollection.read(contentsOf: zip.appendingPathComponent("city-walk.geojson"))
                == GeoJSONFeatureCollection.read(contentsOf: walk))
        #expect { _ = try GeoJSONFeatureCollection.read(contentsOf: zip) } throws: { e in
            (e as? TraceFormatError)?.message.contains("city-walk.geojson") == true   // two members: the refusal names them
        }
    }
}
