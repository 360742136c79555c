import Testing
@testable import GeoAnchorKit

/// Whether two validation errors are the same, NaN values counting as equal (the synthesized
/// `==` compares the `Double`s, and NaN ≠ NaN).
func sameValidationError(_ a: GeoAnchorError, _ b: GeoAnchorError) -> Bool {
    if case .nonFinite(let n1, let v1) = a, case .nonFinite(let n2, let v2) = b {
        return n1 == n2 && (v1 == v2 || (v1.isNaN && v2.isNaN))
    }
    return a == b
}

/// Expects `body` to throw exactly `expected` (NaN values equal), labelled `label`.
func expectRefused(_ label: String, _ expected: GeoAnchorError, sourceLocation: SourceLocation = #_sourceLocation,
                   _ body: () throws(GeoAnchorError) -> Void) {
    do {
        try body()
        Issue.record("\(label): accepted, expected \(expected)", sourceLocation: sourceLocation)
    } catch {
        #expect(sameValidationError(error, expected), "\(label): \(error), expected \(expected)", sourceLocation: sourceLocation)
    }
}
