import Foundation
import FuzzSupport
import GeoAnchorKit

FuzzSupport.main { d in
    _ = try TourSession(tour: try Tour(geoJSON: d, source: "f.geojson"))
}
