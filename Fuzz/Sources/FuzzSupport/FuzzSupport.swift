import Foundation
import GeoAnchorKit

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

    /// Inputs as text (parsers that take a String).
    public static func text(_ d: Data) -> String { String(decoding: d, as: UTF8.self) }
}
