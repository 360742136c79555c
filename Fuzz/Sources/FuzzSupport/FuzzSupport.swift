import Foundation
import GeoAnchorKit

@_silgen_name("LLVMFuzzerRunDriver")
private func LLVMFuzzerRunDriver(_ argc: UnsafeMutablePointer<CInt>,
                                 _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
                                 _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt) -> CInt

nonisolated(unsafe) private var currentParser: ((Data) throws -> Void)? = nil

/// The shared body of every fuzz target: parse the bytes; a typed error is a normal outcome,
/// any other error aborts (libFuzzer then saves the input), and a trap is a finding by itself.
public enum FuzzSupport {
    /// Runs `parse` on the input and checks that only the library's typed errors come out.
    public static func run(_ data: UnsafeRawPointer, _ count: Int, _ parse: (Data) throws -> Void) -> CInt {
        let bytes = Data(bytes: data, count: count)
        do {
            try parse(bytes)
        } catch is TraceFormatError {
        } catch is RoutingError {
        } catch is GeoAnchorError {
        } catch is TourError {
        } catch {
            fatalError("untyped error \(type(of: error)): \(error)")
        }
        return 0
    }

    /// The target's entry point: runs libFuzzer's driver (command-line flags as libFuzzer's own,
    /// e.g. `-max_total_time=60 CORPUS_DIR`) on `parse`. SwiftPM renames an executable's `main`,
    /// so the targets call the driver instead of linking libFuzzer's `main`.
    public static func main(_ parse: @escaping (Data) throws -> Void) -> Never {
        currentParser = parse
        var argc = CommandLine.argc
        var argv = CommandLine.unsafeArgv
        let rc = LLVMFuzzerRunDriver(&argc, &argv, LLVMFuzzerTestOneInput)
        exit(rc)
    }

    /// Inputs as text (parsers that take a String).
    public static func text(_ d: Data) -> String { String(decoding: d, as: UTF8.self) }
}

/// libFuzzer's entry for one input (also referenced by its driver library): the parser the
/// target registered with ``FuzzSupport/main(_:)``.
@_cdecl("LLVMFuzzerTestOneInput")
public func LLVMFuzzerTestOneInput(_ data: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    guard let data, let parse = currentParser else { return 0 }
    return FuzzSupport.run(UnsafeRawPointer(data), count, parse)
}
