import Foundation
import FuzzSupport
import GeoAnchorKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzSupport.run(data, count) { d in
        let g = try GeoidGrid(gtxData: d, path: "f.gtx")
        _ = try? g.undulation(latitude: 45, longitude: 1e308)
    }
}
