import Foundation
import FuzzSupport
import GeoAnchorKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzSupport.run(data, count) { d in
        _ = try NMEAReader.read(ByteLineReader(data: d, source: "f.nmea"), onFix: { _ in })
    }
}
