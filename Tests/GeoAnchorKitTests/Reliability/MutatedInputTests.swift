import Foundation
import Testing
@testable import GeoAnchorKit

/// Seeded random mutations of real inputs (the shipped traces and tour, TraceWriter output in
/// every format, a TSPLIB instance, a GTX grid, a WMM header) fed to every parser: each must
/// return a value or throw a typed error, never trap or hang. A cheap stand-in, run on every
/// CI, for the libFuzzer targets in Fuzz/ (seed fixed so a failure reproduces; a few seconds).
@Suite("Mutated inputs")
struct MutatedInputTests {
    static let tokens: [String] = ["1e308", "-1e308", "nan", "inf", "-", "9223372036854775807", "1e20", "0", "-1",
                                   "\u{0}", "\"", ",", "\n", "<!ENTITY", "&a;", "]", "}", "99999999999"]

    /// One mutation: replace a random span by a hostile token, duplicate a span, or truncate.
    static func mutate(_ s: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        guard !s.isEmpty else { return Array(tokens[rng.below(tokens.count)].utf8) }
        var b = s
        switch rng.below(4) {
        case 0, 1:
            let i = rng.below(b.count), len = min(b.count - i, 1 + rng.below(6))
            b.replaceSubrange(i..<(i + len), with: Array(tokens[rng.below(tokens.count)].utf8))
        case 2:
            let i = rng.below(b.count), len = min(b.count - i, 1 + rng.below(40))
            b.insert(contentsOf: b[i..<(i + len)], at: rng.below(b.count))
        default:
            b = Array(b.prefix(rng.below(b.count)))
        }
        return b
    }

    static func seeds() throws -> [(String, [UInt8])] {
        let traces = HostileInputTests.repo.appendingPathComponent("traces")
        let csv = try String(contentsOf: traces.appendingPathComponent("city-walk.raw.csv"), encoding: .utf8)
            .split(separator: "\n").prefix(15).joined(separator: "\n") + "\n"
        var fixes: [Fix] = []
        _ = try CSVTraceReader.read(ByteLineReader(data: Data(csv.utf8), source: "seed.csv"), onFix: { fixes.append($0) })
        var out: [(String, [UInt8])] = [("csv", Array(csv.utf8))]
        for format in [TraceFormat.gpx, .nmea, .geojson] {
            var d = Data()
            let w = TraceWriter(format: format) { d.append($0) }
            for f in fixes { try w.write(f) }
            try w.finish()
            out.append((format.rawValue, Array(d)))
        }
        let tour = try Data(contentsOf: traces.appendingPathComponent("city-walk.tour.geojson"))
        out.append(("tour", Array(tour.prefix(4000))))
        out.append(("tsplib", Array("NAME: t\nTYPE: TSP\nDIMENSION: 5\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 0 10\n3 10 10\n4 10 0\n5 5 5\nEOF\n".utf8)))
        out.append(("tsplib-explicit", Array("NAME: t\nTYPE: TSP\nDIMENSION: 4\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: FULL_MATRIX\nEDGE_WEIGHT_SECTION\n0 1 2 3\n1 0 4 5\n2 4 0 6\n3 5 6 0\nEOF\n".utf8)))
        out.append(("gtx", Array(HostileInputTests.gtx(rows: 3, columns: 4, values: 12))))
        out.append(("wmm", Array("2025.0 WMM-2025 11/13/2024\n  1  0  -29351.8 0.0 12.0 0.0\n  1  1  -1410.8 4545.4 9.7 -21.5\n999999999999\n".utf8)))
        return out
    }

    /// Parses `bytes` as `kind`; returns normally or with a typed error.
    static func parse(_ kind: String, _ bytes: [UInt8]) {
        let data = Data(bytes)
        do {
            switch kind {
            case "csv": _ = try CSVTraceReader.read(ByteLineReader(data: data, source: "m.csv"), onFix: { _ in })
            case "nmea": _ = try NMEAReader.read(ByteLineReader(data: data, source: "m.nmea"), onFix: { _ in })
            case "gpx": _ = try GPXReader.read(data: data, source: "m.gpx", onFix: { _ in })
            case "tour": _ = try TourSession(tour: try Tour(geoJSON: data, source: "m.geojson"))
            case "geojson":
                let fc = try GeoJSONFeatureCollection.decode(data, source: "m.geojson")
                _ = try GeoJSONTrace.fixes(from: fc, source: "m.geojson", options: TraceReadConfiguration(), onFix: { _ in })
            case "tsplib", "tsplib-explicit":
                let i = try TSPLIBInstance.parse(String(decoding: data, as: UTF8.self), source: "m.tsp")
                _ = i.tourLength(Array(0..<i.dimension))
            case "gtx":
                let g = try GeoidGrid(gtxData: data, path: "m.gtx")
                _ = try? g.undulation(latitude: 45, longitude: 1e308)
            case "wmm": _ = try MagneticModel(cofText: String(decoding: data, as: UTF8.self), source: "m.cof")
            default: Issue.record("unknown kind \(kind)")
            }
        } catch is TraceFormatError {
        } catch is RoutingError {
        } catch is GeoAnchorError {
        } catch is TourError {
        } catch {
            Issue.record("\(kind): untyped error \(type(of: error)): \(error)")
        }
    }

    @Test func mutatedInputsGiveValuesOrTypedErrors() throws {
        var rng = SplitMix64(seed: 15)
        for (kind, seed) in try Self.seeds() {
            Self.parse(kind, seed) // the unmutated seed parses (or the test setup is wrong)
            for _ in 0..<600 {
                var b = seed
                for _ in 0...rng.below(3) { b = Self.mutate(b, &rng) }
                Self.parse(kind, b)
            }
        }
    }
}
