import Foundation
import FuzzSupport
import GeoAnchorKit

// KML (Placemarks, LineStrings, gx:Track; KMZ by content): fixes and waypoints.
FuzzSupport.main { d in
    _ = try KMLReader.read(data: d, source: "f.kml", onFix: { _ in }, onWaypoint: { _ in })
}
