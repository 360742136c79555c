import CProj
import GeoAnchorKit

/// Karney's geodesic algorithms as bundled with PROJ (`geodesic.h`: `geod_inverse`,
/// `geod_direct`) — the *reference path* against which GeoAnchorKit's native geodesics are
/// tested and benchmarked.
///
/// Owns one initialized `struct geod_geodesic` (allocated once, freed in `deinit`); it is
/// immutable after initialization and the C routines only read it, so one instance can be
/// shared by any number of threads (`Sendable`).
///
/// - Accuracy: as Karney (2013, doi:10.1007/s00190-012-0578-z) states for this implementation:
///   distances to ~15 nm, azimuths to ~1e-12°, for |f| ≤ 0.01.
public final class ProjGeodesic: @unchecked Sendable {
    // @unchecked: `g` is written only in init; geod_inverse/geod_direct take it as const.
    private let g: UnsafeMutablePointer<geod_geodesic>
    /// The ellipsoid the geodesics are computed on.
    public let ellipsoid: Ellipsoid

    /// Initializes the geodesic constants for `ellipsoid` (`geod_init`).
    public init(ellipsoid: Ellipsoid = .wgs84) {
        self.ellipsoid = ellipsoid
        g = .allocate(capacity: 1)
        geod_init(g, ellipsoid.semiMajorAxis, ellipsoid.flattening)
    }

    deinit { g.deallocate() }

    /// The inverse problem: shortest geodesic between two points.
    /// - Parameters: latitudes in degrees [−90, 90]; longitudes in degrees (any finite value:
    ///   reduced exactly, so 1e300 is 1e300 mod 360).
    /// - Returns: distance in meters; azimuths at both ends in degrees clockwise from north,
    ///   in (−180, 180] as `geod_inverse` gives them. NaN for a latitude outside [−90, 90] or
    ///   non-finite input (unchecked, like `Geodesic.distance(latitude1:longitude1:latitude2:longitude2:)`;
    ///   this is the reference path — validate with `GeodeticCoordinate.validate()` first).
    @inlinable
    public func inverse(latitude1: Double, longitude1: Double,
                        latitude2: Double, longitude2: Double) -> (distance: Double, azimuth1: Double, azimuth2: Double) {
        var s12 = 0.0, azi1 = 0.0, azi2 = 0.0
        geod_inverse(geodesic, latitude1, longitude1, latitude2, longitude2, &s12, &azi1, &azi2)
        return (s12, azi1, azi2)
    }

    /// The direct problem: destination after `distance` meters from a point along `azimuth1`.
    /// - Returns: latitude and longitude in degrees (longitude in [−180, 180]) and the forward
    ///   azimuth at the destination in degrees. NaN for a latitude outside [−90, 90] or
    ///   non-finite input (unchecked, as for the inverse).
    @inlinable
    public func direct(latitude1: Double, longitude1: Double,
                       azimuth1: Double, distance: Double) -> (latitude2: Double, longitude2: Double, azimuth2: Double) {
        var lat2 = 0.0, lon2 = 0.0, azi2 = 0.0
        geod_direct(geodesic, latitude1, longitude1, azimuth1, distance, &lat2, &lon2, &azi2)
        return (lat2, lon2, azi2)
    }

    /// Batch inverse over contiguous buffers of equal count: distances (meters) and, when
    /// buffers are given, both azimuths (degrees), one `geod_inverse` call per pair.
    /// NaN input gives NaN output (as `geod_inverse` does).
    public func inverse(latitude1: UnsafeBufferPointer<Double>, longitude1: UnsafeBufferPointer<Double>,
                        latitude2: UnsafeBufferPointer<Double>, longitude2: UnsafeBufferPointer<Double>,
                        distance: UnsafeMutableBufferPointer<Double>,
                        azimuth1: UnsafeMutableBufferPointer<Double>? = nil,
                        azimuth2: UnsafeMutableBufferPointer<Double>? = nil) {
        let n = latitude1.count
        precondition(longitude1.count == n && latitude2.count == n && longitude2.count == n && distance.count == n
                     && (azimuth1?.count ?? n) == n && (azimuth2?.count ?? n) == n, "batch buffers differ in count")
        let g = geodesic
        var s12 = 0.0, azi1 = 0.0, azi2 = 0.0
        let wantAzimuths = azimuth1 != nil || azimuth2 != nil
        for i in 0..<n {
            if wantAzimuths {
                geod_inverse(g, latitude1[i], longitude1[i], latitude2[i], longitude2[i], &s12, &azi1, &azi2)
            } else {
                geod_inverse(g, latitude1[i], longitude1[i], latitude2[i], longitude2[i], &s12, nil, nil)
            }
            distance[i] = s12
            azimuth1?[i] = azi1
            azimuth2?[i] = azi2
        }
    }

    @usableFromInline var geodesic: UnsafePointer<geod_geodesic> { UnsafePointer(g) }
}
