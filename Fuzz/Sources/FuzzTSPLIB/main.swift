import Foundation
import FuzzSupport
import GeoAnchorKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzSupport.run(data, count) { d in
        let i = try TSPLIBInstance.parse(FuzzSupport.text(d), source: "f.tsp")
        _ = i.tourLength(Array(0..<i.dimension))
    }
}
