import ArgumentParser
import Foundation
import GeoAnchorKit

/// Invalid user input found by geobench itself: printed as `FILE:LINE: message` on stderr, exit
/// status 2. The library's own file errors (`TraceFormatError`, `RoutingError.malformedInput`, …)
/// name their place already and pass through unchanged; errors about values are placed with
/// ``located(_:line:context:_:)``.
struct InputError: SourceLocatedError {
    var file: String
    var line: Int?
    var message: String

    var source: String { file }

    var description: String {
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}

/// Runs a subcommand body and converts every error about data the same way: one line on stderr
/// (`FILE:LINE: message` when the error names its place) and exit status 2.
func withInputErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let e as any DescribedError {
        Stderr.print(e.description)
        throw ExitCode(2)
    } catch let e as ExitCode {
        throw e
    } catch let e as CleanExit {
        throw e
    }
}

/// Runs `body`, which reads or builds something from `source` (a file, or an option such as
/// `--origin`): a library error that does not name its place becomes an ``InputError`` about
/// `source` (and `line`), prefixed with `context` when given; errors that name their place pass
/// through unchanged. The one place geobench attaches locations to library errors.
func located<T>(_ source: String, line: Int? = nil, context: String? = nil, _ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let e as any DescribedError where e.sourceLocation == nil {
        throw InputError(file: source, line: line, message: context.map { "\($0): \(e.description)" } ?? e.description)
    }
}

enum Stderr {
    static func print(_ s: String) {
        FileHandle.standardError.write((s + "\n").data(using: .utf8)!)
    }
    /// True when stderr is a terminal (progress output is shown only then).
    static var isTerminal: Bool { isatty(2) != 0 }
    /// A progress line overwritten in place, only when stderr is a terminal.
    static func progress(_ s: String) {
        guard isTerminal else { return }
        FileHandle.standardError.write(("\r\u{1B}[K" + s).data(using: .utf8)!)
    }
    static func endProgress() {
        guard isTerminal else { return }
        FileHandle.standardError.write("\r\u{1B}[K".data(using: .utf8)!)
    }
}
