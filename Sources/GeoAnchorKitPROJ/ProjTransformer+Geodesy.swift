import CProj
import Foundation
import GeoAnchorKit

// Ready-made PROJ pipelines for the reference paths GeoAnchorKit's native geodesy is checked
// and benchmarked against.

extension ProjTransformer {
    /// PROJ's `+ellps`-equivalent parameters for an ellipsoid (`+a`/`+rf`, or `+R` for a sphere).
    static func ellipsoidParameters(_ ellipsoid: Ellipsoid) -> String {
        if ellipsoid.flattening == 0 { return "+R=\(ellipsoid.semiMajorAxis)" }
        return "+a=\(ellipsoid.semiMajorAxis) +rf=\(1 / ellipsoid.flattening)"
    }

    /// The PROJ pipeline geodetic → local East-North-Up about `origin`:
    /// `unitconvert` (degrees → radians), `cart` (→ ECEF), `topocentric` (→ ENU).
    ///
    /// Forward input `x = longitude°, y = latitude°, z = ellipsoidal height m`; output
    /// `x = east, y = north, z = up` (meters). Inverse the other way round.
    public static func localTangentFramePipeline(origin: GeodeticCoordinate, ellipsoid: Ellipsoid = .wgs84) -> String {
        let e = ellipsoidParameters(ellipsoid)
        return "+proj=pipeline +step +proj=unitconvert +xy_in=deg +xy_out=rad"
            + " +step +proj=cart \(e)"
            + " +step +proj=topocentric \(e) +lat_0=\(origin.latitude) +lon_0=\(origin.longitude) +h_0=\(origin.height)"
    }

    /// PROJ's geodetic ↔ ENU transformation about `origin` (see ``localTangentFramePipeline(origin:ellipsoid:)``);
    /// the reference for `LocalTangentFrame`.
    /// - Throws: ``ProjError/invalidOrigin(_:)`` for an invalid origin or one with an MSL
    ///   height; PROJ's errors otherwise.
    public static func localTangentFrame(origin: GeodeticCoordinate, ellipsoid: Ellipsoid = .wgs84) throws(ProjError) -> ProjTransformer {
        do { try origin.validate() } catch {
            throw .invalidOrigin(error)
        }
        guard origin.verticalReference == .ellipsoid else {
            throw .invalidOrigin(.verticalReferenceMismatch(expected: .ellipsoid, got: origin.verticalReference))
        }
        return try ProjTransformer(pipeline: localTangentFramePipeline(origin: origin, ellipsoid: ellipsoid))
    }

    /// PROJ's vertical grid shift with a GTX/GeoTIFF geoid grid, as a reference for
    /// `GeoidGrid`: forward `z_out = z_in + N(lon, lat)` (`+multiplier=1`), so
    /// transforming height 0 yields the undulation *N*, and forward maps an orthometric (MSL)
    /// height *H* to the ellipsoidal height *h = H + N*.
    ///
    /// - Parameters:
    ///   - gridPath: an absolute path (or a name PROJ finds in its search path), without spaces.
    ///   - degrees: `true`: input `x = longitude°, y = latitude°` (a `unitconvert` step first);
    ///     `false`: radians, PROJ's raw `vgridshift` (fastest).
    /// - Accuracy: PROJ's bilinear interpolation of the grid's Float32 values.
    public static func verticalGridShift(gridPath: String, degrees: Bool = true) throws(ProjError) -> ProjTransformer {
        let shift = "+proj=vgridshift +grids=\(gridPath) +multiplier=1"
        if !degrees { return try ProjTransformer(pipeline: shift) }
        return try ProjTransformer(pipeline:
            "+proj=pipeline +step +proj=unitconvert +xy_in=deg +xy_out=rad +step \(shift) +step +proj=unitconvert +xy_in=rad +xy_out=deg")
    }
}
