import Foundation
import GeoAnchorKitTestSupport
import Testing
import GeoAnchorKit

/// Fixed-seed generator for synthetic filter inputs: the library's SplitMix64 (Box–Muller
/// normals), so every test input is reproducible.
typealias FilterTestRNG = SplitMix64

/// Reads a committed CSV fixture under Tests/GeoAnchorKitTests/Fixtures/ (comment lines `#`
/// skipped) into rows of named doubles.
func filteringFixture(_ name: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> [[String: Double]] {
    let url = SharedData.repositoryRoot.appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/Filtering/\(name)")
    guard let text = try? String(contentsOf: url, encoding: .utf8) else {
        Issue.record("fixture missing: \(url.path)", sourceLocation: sourceLocation)
        throw CancellationError()
    }
    var header: [String]? = nil
    var rows: [[String: Double]] = []
    for line in text.split(separator: "\n") where !line.hasPrefix("#") {
        let f = line.split(separator: ",").map(String.init)
        if header == nil { header = f; continue }
        var row: [String: Double] = [:]
        for (k, v) in zip(header!, f) { row[k] = Double(v) }
        rows.append(row)
    }
    return rows
}

/// Percentile by linear interpolation between order statistics (p in [0, 1]).
func percentile(_ values: [Double], _ p: Double) -> Double {
    let s = values.sorted()
    guard !s.isEmpty else { return .nan }
    let r = p * Double(s.count - 1)
    let i = Int(r.rounded(.down)), j = min(i + 1, s.count - 1)
    return s[i] + (s[j] - s[i]) * (r - Double(i))
}

func rms(_ values: [Double]) -> Double {
    (values.reduce(0) { $0 + $1 * $1 } / Double(values.count)).squareRoot()
}
