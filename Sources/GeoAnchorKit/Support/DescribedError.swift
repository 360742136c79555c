import Foundation

/// The common shape of GeoAnchorKit's public errors: a typed value whose ``description`` is the
/// message to show a person (naming the offending value), also returned by `LocalizedError`, so
/// `error.localizedDescription` reads the same instead of "The operation could not be completed".
public protocol DescribedError: LocalizedError, CustomStringConvertible, Sendable {}

extension DescribedError {
    /// The same text as ``description``.
    public var errorDescription: String? { description }
}

/// An error about a place in an input (a file, stdin, a named buffer): the source, the 1-based
/// line when known, and the message; ``description`` is `SOURCE:LINE: message`. Command-line
/// tools convert every such error the same way.
public protocol SourceLocatedError: DescribedError {
    /// File path or a name such as `<stdin>`.
    var source: String { get }
    /// 1-based line, nil when the problem is not tied to one line.
    var line: Int? { get }
    /// What is wrong, without the location.
    var message: String { get }
}

extension GeoAnchorError: DescribedError {}
extension RoutingError: DescribedError {}
extension TourError: DescribedError {}
extension TraceFormatError: SourceLocatedError {}

extension ByteParsing.TimeParseError: DescribedError {
    public var description: String { message }
}
