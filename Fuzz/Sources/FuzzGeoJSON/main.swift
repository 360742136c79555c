import Foundation
import FuzzSupport
import GeoAnchorKit

FuzzSupport.main { d in
    let fc = try GeoJSONFeatureCollection.decode(d, source: "f.geojson")
    _ = try GeoJSONTrace.fixes(from: fc, source: "f.geojson", options: TraceReadConfiguration(), onFix: { _ in })
}
