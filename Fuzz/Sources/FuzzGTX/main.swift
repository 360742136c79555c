import Foundation
import FuzzSupport
import GeoAnchorKit

FuzzSupport.main { d in
    let g = try GeoidGrid(gtxData: d, path: "f.gtx")
    _ = try? g.undulation(latitude: 45, longitude: 1e308)
}
