import Foundation

/// The common shape of GeoAnchorKit's public errors: a typed value whose `description` is the
/// message to show a person (naming the offending value), also returned by `LocalizedError`, so
/// `error.localizedDescription` reads the same instead of "The operation could not be completed".
public protocol DescribedError: LocalizedError, CustomStringConvertible, Sendable {
    /// The input place the error is about (a file and line), when it is about one; then
    /// `description` starts with it (`SOURCE:LINE: message`). Nil for errors about values.
    var sourceLocation: InputLocation? { get }
}

extension DescribedError {
    /// The same text as `description`.
    public var errorDescription: String? { description }
    /// Nil: the error is about a value, not a place in an input.
    public var sourceLocation: InputLocation? { nil }
}

/// A place in an input: a file path (or a name such as `<stdin>`) and, when known, a 1-based line.
public struct InputLocation: Sendable, Hashable, CustomStringConvertible {
    /// File path or a name such as `<stdin>`.
    public var source: String
    /// 1-based line, nil when the problem is not tied to one line.
    public var line: Int?

    public init(source: String, line: Int? = nil) {
        self.source = source
        self.line = line
    }

    /// `SOURCE:LINE` or `SOURCE`.
    public var description: String { line.map { "\(source):\($0)" } ?? source }
}

/// An error about a place in an input (a file, stdin, a named buffer): the source, the 1-based
/// line when known, and the message; `description` is `SOURCE:LINE: message`. Command-line
/// tools convert every such error the same way.
public protocol SourceLocatedError: DescribedError {
    /// File path or a name such as `<stdin>`.
    var source: String { get }
    /// 1-based line, nil when the problem is not tied to one line.
    var line: Int? { get }
    /// What is wrong, without the location.
    var message: String { get }
}

extension SourceLocatedError {
    /// ``source`` and ``line``.
    public var sourceLocation: InputLocation? { InputLocation(source: source, line: line) }
}

extension GeoAnchorError: DescribedError {}
extension RoutingError: DescribedError {
    /// The file and line of ``malformedInput(source:line:reason:)``; nil for the other cases.
    public var sourceLocation: InputLocation? {
        if case .malformedInput(let s, let l, _) = self { return InputLocation(source: s, line: l) }
        return nil
    }
}
extension TourError: DescribedError {
    /// The file of ``notAFeatureCollection(source:reason:)``; nil for the other cases.
    public var sourceLocation: InputLocation? {
        if case .notAFeatureCollection(let s, _) = self { return InputLocation(source: s) }
        return nil
    }
}
extension IntegerConversionError: DescribedError {}
extension CSVNumberError: DescribedError {}
extension TraceFormatError: SourceLocatedError {}

extension ByteParsing.TimeParseError: DescribedError {
    public var description: String { message }
}
