import Foundation
import FuzzSupport
import GeoAnchorKit

FuzzSupport.main { d in
    _ = try MagneticModel(cofText: FuzzSupport.text(d), source: "f.cof")
}
