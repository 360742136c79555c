import Foundation
import FuzzSupport
import GeoAnchorKit

FuzzSupport.main { d in
    let i = try TSPLIBInstance.parse(FuzzSupport.text(d), source: "f.tsp")
    _ = i.tourLength(Array(0..<i.dimension))
}
