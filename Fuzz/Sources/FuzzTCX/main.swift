import Foundation
import FuzzSupport
import GeoAnchorKit

// Garmin TCX activities and courses.
FuzzSupport.main { d in
    _ = try TCXReader.read(data: d, source: "f.tcx", onFix: { _ in })
}
