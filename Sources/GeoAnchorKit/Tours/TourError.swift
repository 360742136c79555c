import Foundation

/// Errors in tour definitions (GeoJSON files or values built in code). Each case names the
/// offending feature by its index in the FeatureCollection and its `id` (when it has one).
public enum TourError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The file is not a GeoJSON FeatureCollection (or cannot be read); `reason` says why.
    case notAFeatureCollection(source: String, reason: String)
    /// A feature that breaks a tour rule: `index` in `features`, its `id` if any, and why.
    case invalidFeature(index: Int, id: String?, reason: String)
    /// Two stops or two zones share an id.
    case duplicateID(String, firstIndex: Int, secondIndex: Int)
    /// No stops at all (a tour needs at least one).
    case noStops
    /// A numeric parameter outside its documented range (e.g. a hysteresis probability ≥ 1).
    case invalidParameter(name: String, value: Double, allowed: ValueRange)
    /// A ``TourZoneEvaluator`` passed to ``TourSession/update(_:zones:)`` failed (e.g. a GEOS
    /// error); `reason` is its description.
    case zoneEvaluationFailed(reason: String)

    public var description: String {
        switch self {
        case .notAFeatureCollection(let s, let r): return "\(s): not a GeoJSON FeatureCollection: \(r)"
        case .invalidFeature(let i, let id, let r):
            return "feature #\(i)\(id.map { " (id \"\($0)\")" } ?? ""): \(r)"
        case .duplicateID(let id, let a, let b): return "id \"\(id)\" is used by feature #\(a) and feature #\(b)"
        case .noStops: return "the tour has no stops (Point features with \"kind\": \"stop\")"
        case .invalidParameter(let n, let v, let r): return "\(n) = \(v) is outside \(r)"
        case .zoneEvaluationFailed(let r): return "zone evaluation failed: \(r)"
        }
    }
}
