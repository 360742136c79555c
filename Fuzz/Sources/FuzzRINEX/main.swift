import Foundation
import FuzzSupport
import GeoAnchorKit

// RINEX 2/3/4 observation (and Hatanaka-compressed) and navigation files, SP3 orbits, clock
// files: every reader on every input (each refuses what is not its format with a typed error).
FuzzSupport.main { d in
    _ = try? RinexNavigationFile.read(data: d, source: "f.nav")
    _ = try? PreciseOrbit.read(data: d, source: "f.sp3")
    _ = try? PreciseClock.read(data: d, source: "f.clk")
    _ = try RinexObservationFile.read(data: d, source: "f.obs")
}
