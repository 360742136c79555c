import Foundation
import GeoAnchorKit
import GeoAnchorKitPROJ

// `geobench enu --engine proj`: PROJ's unitconvert + cart + topocentric pipeline about the
// origin, one reused PJ, one proj_trans_generic call over the whole input.
extension ENUCommand {
    /// - Returns: the first element PROJ refused or could not transform (its outputs are not
    ///   finite), for the caller to report with its file and line.
    func runPROJ(origin: (Double, Double, Double), inverse: Bool, _ a: [Double], _ b: [Double], _ c: [Double],
                 _ o1: inout [Double], _ o2: inout [Double], _ o3: inout [Double]) throws -> ProjBatchFailure? {
        let o = GeodeticCoordinate(latitude: origin.0, longitude: origin.1, ellipsoidalHeight: origin.2)
        let t = try located("--origin") { try ProjTransformer.localTangentFrame(origin: o) }
        // PROJ's pipeline order is x = longitude, y = latitude; the CSV is latitude,longitude.
        var x = inverse ? a : b, y = inverse ? b : a, z = c
        let failures = x.withUnsafeMutableBufferPointer { bx in
            y.withUnsafeMutableBufferPointer { by in
                z.withUnsafeMutableBufferPointer { bz in t.transform(x: bx, y: by, z: bz, direction: inverse ? .inverse : .forward) }
            }
        }
        if inverse {
            o1 = y; o2 = x; o3 = z   // latitude, longitude, height
        } else {
            o1 = x; o2 = y; o3 = z   // east, north, up
        }
        return failures.first
    }
}
