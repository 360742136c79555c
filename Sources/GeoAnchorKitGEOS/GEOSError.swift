import Foundation

/// Errors at the GEOS boundary. GEOS reports failures through its context's message handler;
/// ``GEOSContext`` collects those messages and the failing call throws them as
/// ``operationFailed(function:message:)``.
public enum GEOSError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `GEOS_init_r` returned NULL (out of memory).
    case contextCreationFailed
    /// A GEOS function signalled an exception (NULL geometry, 0 from an `int` status function,
    /// 2 from a `char` predicate, −1 from a count). `message` is what GEOS sent to the error
    /// handler during that call ("" if it sent nothing).
    case operationFailed(function: String, message: String)
    /// Input rejected before it reached GEOS (e.g. a non-finite coordinate at `index`).
    case invalidInput(reason: String)
    /// A geometry that GEOS considers invalid (self-intersection, …), with GEOS's reason and
    /// location.
    case invalidGeometry(reason: String)
    /// The geometry does not have the type an accessor needs (e.g. rings of a LineString).
    case unexpectedType(expected: String, got: String)

    public var description: String {
        switch self {
        case .contextCreationFailed: return "GEOS_init_r failed (out of memory?)"
        case .operationFailed(let f, let m): return "\(f) failed: \(m.isEmpty ? "no message from GEOS" : m)"
        case .invalidInput(let r): return "invalid geometry input: \(r)"
        case .invalidGeometry(let r): return "invalid geometry: \(r)"
        case .unexpectedType(let e, let g): return "expected a \(e), got a \(g)"
        }
    }
}
