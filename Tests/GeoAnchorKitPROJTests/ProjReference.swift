import CProj
import Foundation

/// Test-only: an independent PROJ pipeline run at test time (geodetic degrees → topocentric ENU
/// about an origin, optionally through EGM96 for MSL heights). Owns its context and PJ.
final class ProjTopocentric {
    private let ctx: OpaquePointer
    private let pj: OpaquePointer

    /// - Parameters: origin: latitude, longitude (degrees) and ellipsoidal height (m);
    ///   `mslInput`: input heights are MSL (EGM96: forward `vgridshift` with `+multiplier=1` adds N).
    init?(latitude: Double, longitude: Double, ellipsoidalHeight: Double, mslInput: Bool) {
        guard let c = proj_context_create() else { return nil }
        proj_log_level(c, PJ_LOG_NONE)
        let geoid = mslInput ? "+step +proj=vgridshift +grids=egm96_15.gtx +multiplier=1 " : ""
        let def = "+proj=pipeline +step +proj=unitconvert +xy_in=deg +xy_out=rad " + geoid
            + "+step +proj=cart +ellps=WGS84 "
            + "+step +proj=topocentric +ellps=WGS84 +lat_0=\(latitude) +lon_0=\(longitude) +h_0=\(ellipsoidalHeight)"
        guard let p = proj_create(c, def) else { proj_context_destroy(c); return nil }
        ctx = c; pj = p
    }
    deinit { proj_destroy(pj); proj_context_destroy(ctx) }

    /// (east, north, up) in meters, or nil if PROJ failed.
    func enu(latitude: Double, longitude: Double, height: Double) -> (Double, Double, Double)? {
        let out = proj_trans(pj, PJ_FWD, proj_coord(longitude, latitude, height, 0))
        let v = out.v
        guard v.0.isFinite, v.1.isFinite, v.2.isFinite, v.0 != .infinity else { return nil }
        return (v.0, v.1, v.2)
    }

    /// The geoid undulation N of EGM96 at a point, via `vgridshift` (ellipsoidal = MSL + N).
    static func egm96Undulation(latitude: Double, longitude: Double) -> Double? {
        guard let c = proj_context_create() else { return nil }
        defer { proj_context_destroy(c) }
        proj_log_level(c, PJ_LOG_NONE)
        guard let p = proj_create(c, "+proj=pipeline +step +proj=unitconvert +xy_in=deg +xy_out=rad +step +proj=vgridshift +grids=egm96_15.gtx +multiplier=1") else { return nil }
        defer { proj_destroy(p) }
        let out = proj_trans(p, PJ_FWD, proj_coord(longitude, latitude, 0, 0))
        return out.v.2.isFinite && out.v.2 != .infinity ? out.v.2 : nil
    }
}
