import GeoAnchorKit
/// Errors thrown at the PROJ boundary. Each case carries the offending definition or value and,
/// where PROJ reported one, its error number (`PROJ_ERR_*` in `proj.h`) and message
/// (`proj_context_errno_string`), read from the owning context right after the failing call.
public enum ProjError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `proj_context_create` returned null (out of memory).
    case contextCreationFailed
    /// PROJ could not build an object from a definition: an unknown CRS (`EPSG:99999`), a
    /// syntax error in a PROJ string, a missing grid file.
    /// - Parameters: the definition as given; PROJ's errno; PROJ's message.
    case invalidDefinition(String, code: Int32, message: String)
    /// A coordinate rejected before PROJ saw it: a latitude outside [−90°, 90°] (or ±π/2 rad)
    /// for a geographic source; `allowed` is the range as numbers. `name` is the axis.
    case invalidCoordinate(name: String, value: Double, allowed: ValueRange)
    /// A coordinate rejected before PROJ saw it because it is NaN or infinite. `name` is the axis
    /// (`"x"`, `"latitude"`, …).
    case nonFiniteCoordinate(name: String, value: Double)
    /// An origin that is not a valid geodetic coordinate (the `GeoAnchorError` says which value),
    /// or whose height is not ellipsoidal (`GeoAnchorError.verticalReferenceMismatch(expected:got:)`).
    case invalidOrigin(GeoAnchorError)
    /// PROJ could not transform a coordinate (outside the projection's domain or a grid's
    /// coverage, no convergence), or its result is not finite, or it did not come back to
    /// itself within the batch's round-trip tolerance. Carries the input coordinate; `code` is
    /// PROJ's errno, 0 when PROJ reported none (the last two cases).
    case transformFailed(x: Double, y: Double, z: Double, code: Int32, message: String)
    /// Batch calls that were asked to throw: the indices that failed, each with its error.
    case batchFailures([ProjBatchFailure])

    public var description: String {
        switch self {
        case .contextCreationFailed:
            return "PROJ: cannot create a context (out of memory)"
        case .invalidDefinition(let d, let code, let m):
            return "PROJ cannot use \(Self.quoted(d)): \(m) (PROJ error \(code))"
        case .invalidCoordinate(let n, let v, let r):
            return "\(n) \(v) is outside \(r)"
        case .nonFiniteCoordinate(let n, let v):
            return "\(n) \(v) is not finite"
        case .invalidOrigin(let e):
            return "invalid origin: \(e)"
        case .transformFailed(let x, let y, let z, let code, let m):
            return "PROJ cannot transform (\(x), \(y), \(z)): \(m)\(code == 0 ? "" : " (PROJ error \(code))")"
        case .batchFailures(let fs):
            let head = fs.prefix(5).map { "#\($0.index): \($0.error)" }.joined(separator: "; ")
            return "\(fs.count) coordinate(s) failed: \(head)\(fs.count > 5 ? "; …" : "")"
        }
    }
}

extension ProjError {
    /// Longest definition the description quotes in full; a longer one (a 1 MB WKT, a pasted
    /// file) is quoted by its first ``quotedDefinitionLength`` characters and its length, so
    /// that one bad argument does not flood a log. The case's value keeps the whole definition.
    public static let quotedDefinitionLength = 200

    static func quoted(_ d: String) -> String {
        guard d.count > quotedDefinitionLength else { return "'\(d)'" }
        return "'\(d.prefix(quotedDefinitionLength))…' (\(d.count) characters)"
    }
}

/// One failed element of a PROJ batch call: its index in the input buffers and why it failed.
/// The element's outputs are not finite (PROJ writes `HUGE_VAL`; rejected inputs give NaN).
public struct ProjBatchFailure: Sendable, Hashable {
    /// Index into the batch buffers.
    public let index: Int
    /// Why that element failed.
    public let error: ProjError
    public init(index: Int, error: ProjError) { self.index = index; self.error = error }
}
