import Foundation
import FuzzSupport
import GeoAnchorKit

// u-blox UBX logs: NAV-PVT fixes, then the raw measurements (RXM-RAWX, SFRBX) as a log.
FuzzSupport.main { d in
    _ = try? UBXReader.read(data: d, source: "f.ubx", onFix: { _ in })
    _ = try UBXRawLog.read(data: d, source: "f.ubx", skipInvalidFrames: d.first.map { $0 & 1 == 1 } ?? false)
}
