import Foundation
import FuzzSupport
import GeoAnchorKit

// Garmin FIT (binary: records, course points, compressed timestamps, developer fields).
FuzzSupport.main { d in
    _ = try FITReader.read(data: d, source: "f.fit", onFix: { _ in })
}
