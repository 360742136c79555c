import Foundation
import FuzzSupport
import GeoAnchorKit

FuzzSupport.main { d in
    _ = try GPXReader.read(data: d, source: "f.gpx", onFix: { _ in })
}
