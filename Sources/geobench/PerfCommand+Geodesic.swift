import Foundation
import GeoAnchorKit
import GeoAnchorKitPROJ

extension PerfCommand {
    /// `geodesic_inverse`: native Geodesic vs PROJ's geod_inverse. The native Geodesic is not on
    /// this branch yet, so the key is left out (nil) until it is merged.
    static func geodesicInverse(count: Int, repeats: Int) throws -> PerfResult? { nil }
}
