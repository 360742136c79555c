import Foundation

/// Errors thrown at the geodesy boundary of GeoAnchorKit. Each case carries the offending value.
public enum GeoAnchorError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A latitude outside [−90°, 90°] or not finite.
    case invalidLatitude(Double)
    /// A longitude that is not finite.
    case invalidLongitude(Double)
    /// A named quantity that must be finite was NaN or infinite (e.g. `height`, `x`).
    case nonFinite(name: String, value: Double)
    /// A value outside its documented range (e.g. a negative distance where one is not allowed);
    /// `allowed` carries the bounds as numbers.
    case outOfRange(name: String, value: Double, allowed: ValueRange)
    /// Ellipsoid parameters that do not describe an ellipsoid.
    case invalidEllipsoid(semiMajorAxis: Double, flattening: Double)
    /// The operation needs a height in another vertical reference (e.g. MSL given, ellipsoidal needed
    /// and no geoid supplied).
    case verticalReferenceMismatch(expected: VerticalReference, got: VerticalReference)
    /// A file (grid, model) that does not exist or cannot be read.
    case fileNotFound(path: String)
    /// A file whose contents are not what its format promises.
    case corruptFile(path: String, reason: String)
    /// A point outside the area a grid or model covers.
    case outsideCoverage(latitude: Double, longitude: Double, what: String)
    /// Batch operations: the indices that failed, each with its error; the other entries were computed.
    case batchFailures([BatchFailure])

    /// One failed element of a batch call.
    public struct BatchFailure: Sendable, Hashable {
        /// Index into the input buffer.
        public let index: Int
        /// Why that element failed.
        public let error: GeoAnchorError
        public init(index: Int, error: GeoAnchorError) { self.index = index; self.error = error }
    }

    public var description: String {
        switch self {
        case .invalidLatitude(let v): return "latitude \(v) is outside [-90, 90] degrees"
        case .invalidLongitude(let v): return "longitude \(v) is not a finite number of degrees"
        case .nonFinite(let n, let v): return "\(n) must be finite, got \(v)"
        case .outOfRange(let n, let v, let r): return "\(n) \(v) is outside \(r)"
        case .invalidEllipsoid(let a, let f): return "invalid ellipsoid: a = \(a) m, f = \(f)"
        case .verticalReferenceMismatch(let e, let g):
            return "height is \(g.rawValue), \(e.rawValue) is needed (supply a geoid to convert)"
        case .fileNotFound(let p): return "file not found or unreadable: \(p)"
        case .corruptFile(let p, let r): return "corrupt file \(p): \(r)"
        case .outsideCoverage(let lat, let lon, let w): return "(\(lat), \(lon)) is outside the coverage of \(w)"
        case .batchFailures(let fs):
            let head = fs.prefix(5).map { "#\($0.index): \($0.error)" }.joined(separator: "; ")
            return "\(fs.count) element(s) failed: \(head)\(fs.count > 5 ? "; …" : "")"
        }
    }
}
