import Foundation
import FuzzSupport
import GeoAnchorKit

// Android GnssLogger logs (Raw, Fix, Status lines) and GSDC device_gnss.csv.
FuzzSupport.main { d in
    _ = try? GSDCDeviceGNSS.read(data: d, source: "device_gnss.csv")
    _ = try GnssLoggerRawLog.read(data: d, source: "gnss_log.txt")
}
