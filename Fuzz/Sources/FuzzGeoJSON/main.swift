import Foundation
import FuzzSupport
import GeoAnchorKit

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafeRawPointer, _ count: Int) -> CInt {
    FuzzSupport.run(data, count) { d in
        let fc = try GeoJSONFeatureCollection.decode(d, source: "f.geojson")
        _ = try GeoJSONTrace.fixes(from: fc, source: "f.geojson", options: TraceReadOptions(), onFix: { _ in })
    }
}
