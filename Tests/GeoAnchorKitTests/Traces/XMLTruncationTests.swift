import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport

/// A download cut short is refused, never read as the part that arrived: libxml2 (under
/// Foundation's `XMLParser` on a stream) reports no error when the input ends inside the root
/// element, so every XML reader checks that the root was closed (`XMLInputCheck.parse`). Before,
/// a KML or TCX cut anywhere after its first path or point was read as the points before the
/// cut. Files: GPSBabel's GPX, KML and TCX of one walk, and the OSM export of the routing
/// fixtures, each cut at 10 places inside its root element.
@Suite("Truncated XML documents")
struct XMLTruncationTests {
    static let other = SharedData.repositoryRoot.appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/Traces/Other")
    static let osm = SharedData.repositoryRoot.appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/Routing/OSM/oldtown.osm")

    /// Cuts between 10 % and 99.9 % of the file, and just before the root's end tag.
    static func cuts(_ data: Data, root: String) -> [Data] {
        let end = data.range(of: Data("</\(root)>".utf8), options: .backwards)!.lowerBound
        return [0.1, 0.25, 0.4, 0.5, 0.6, 0.75, 0.9, 0.99, 0.999].map { data.prefix(Int(Double(data.count) * $0)) } + [data.prefix(end)]
    }

    @Test(arguments: [("walk.gpx", "gpx"), ("walk.gpsbabel.kml", "kml"), ("walk.gpsbabel.tcx", "TrainingCenterDatabase")])
    func traceFilesCutShort(name: String, root: String) throws {
        let whole = try Data(contentsOf: Self.other.appendingPathComponent(name))
        #expect(try TraceReader.load(url: Self.other.appendingPathComponent(name)).fixes.isEmpty == false)
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("cut-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for (k, part) in Self.cuts(whole, root: root).enumerated() {
            let url = dir.appendingPathComponent("\(k)-\(name)")
            try part.write(to: url)
            #expect { _ = try TraceReader.load(url: url) } throws: { e in
                (e as? TraceFormatError)?.message.contains("malformed XML") == true
            }
        }
    }

    @Test func osmCutShort() throws {
        let whole = try Data(contentsOf: Self.osm)
        #expect(try OSMReader.read(data: whole, source: "whole").ways.count == 25)
        // Cut inside a start tag, libxml2 hands over the element with the attributes it read:
        // the node or nd is then refused for its missing value (also a refusal of the file).
        for part in Self.cuts(whole, root: "osm") {
            #expect { _ = try OSMReader.read(data: part, source: "cut") } throws: { e in
                guard let m = (e as? TraceFormatError)?.message else { return false }
                return m.contains("malformed XML") || m.contains("without")   // "<node> without lat and lon", "… without id"
            }
        }
    }
}
