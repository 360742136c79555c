import Foundation
import FuzzSupport
import GeoAnchorKit

// OpenStreetMap XML and PBF (by content), then everything built from the data.
FuzzSupport.main { d in
    let data = try OSMReader.read(data: d, source: "f.osm")
    _ = data.walkablePaths()
    _ = data.sights()
    _ = try? PathNetwork.openStreetMap(data: data, source: "f.osm")
}
