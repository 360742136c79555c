import ArgumentParser
import Foundation
import GeoAnchorKit

/// Invalid user input: printed as `FILE:LINE: message` on stderr, exit status 2.
struct InputError: Error, CustomStringConvertible {
    var file: String
    var line: Int?
    var message: String

    var description: String {
        if let line { return "\(file):\(line): \(message)" }
        return "\(file): \(message)"
    }
}

/// Runs a subcommand body, turning `InputError` (and other thrown errors about data) into
/// `FILE:LINE: message` on stderr and exit status 2.
func withInputErrors(_ body: () throws -> Void) throws {
    do {
        try body()
    } catch let e as InputError {
        Stderr.print(e.description)
        throw ExitCode(2)
    } catch let e as any SourceLocatedError {
        // Any library error that names its file and line (TraceFormatError, …): same output.
        Stderr.print(e.description)
        throw ExitCode(2)
    } catch let e as ExitCode {
        throw e
    } catch let e as CleanExit {
        throw e
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
