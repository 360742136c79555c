import Foundation

// The direct problem (Karney 2013, §3) and geodesic lines: set up the line once from the start
// point and azimuth (``GeodesicLine``), then evaluate it at a distance.

extension Geodesic {
    /// A geodesic line from a start point (degrees) with initial azimuth (degrees clockwise
    /// from north) and nominal length `distance` in meters (used by
    /// ``GeodesicLine/points(count:)`` and ``GeodesicLine/waypoints(spacing:)``).
    /// No validation: NaN in gives NaN positions.
    public func line(latitude: Double, longitude: Double, azimuth: Double, distance: Double = 0) -> GeodesicLine {
        let azi = Angle.normalizeLongitude(azimuth)
        // Rounding the azimuth guards against underflow in sin α₀.
        let (salp1, calp1) = Angle.sincos(degrees: Angle.round(azi))
        return GeodesicLine(geodesic: self, latitude: latitude, longitude: longitude, azimuth: azi,
                            salp1: salp1, calp1: calp1, distance: distance)
    }

    /// The shortest geodesic from point 1 to point 2 (degrees) as a line whose ``GeodesicLine/distance``
    /// is the geodesic distance between them.
    public func line(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> GeodesicLine {
        let r = inverseCore(latitude1, longitude1, latitude2, longitude2, full: false)
        let azi1 = Angle.atan2Degrees(r.salp1, r.calp1)
        return GeodesicLine(geodesic: self, latitude: latitude1, longitude: longitude1, azimuth: azi1,
                            salp1: r.salp1, calp1: r.calp1, distance: r.s12)
    }

    /// The shortest geodesic between two validated coordinates (heights ignored).
    /// - Throws: ``GeoAnchorError/invalidLatitude(_:)`` or ``GeoAnchorError/invalidLongitude(_:)``.
    public func line(from p1: GeodeticCoordinate, to p2: GeodeticCoordinate) throws(GeoAnchorError) -> GeodesicLine {
        try Self.validate(latitude: p1.latitude, longitude: p1.longitude)
        try Self.validate(latitude: p2.latitude, longitude: p2.longitude)
        return line(latitude1: p1.latitude, longitude1: p1.longitude, latitude2: p2.latitude, longitude2: p2.longitude)
    }

    /// Solves the direct problem: the point `distance` meters from (latitude, longitude) along the
    /// geodesic with initial azimuth `azimuth` (degrees clockwise from north).
    ///
    /// No validation: NaN in gives NaN out (latitudes outside [−90, 90] give NaN); use
    /// ``direct(from:azimuth:distance:)`` for typed errors.
    /// - Returns: latitude, longitude (in [−180, 180]), forward azimuth at point 2 (degrees,
    ///   [−180, 180]), arc length, reduced length, geodesic scales and area.
    /// - *Accuracy*: ≤ 15 nm in position (Karney 2013; checked on GeodTest-short in GeodesicTests).
    public func direct(latitude: Double, longitude: Double, azimuth: Double, distance: Double) -> GeodesicDirectResult {
        line(latitude: latitude, longitude: longitude, azimuth: azimuth, distance: distance)
            .position(atDistance: distance)
    }
}
