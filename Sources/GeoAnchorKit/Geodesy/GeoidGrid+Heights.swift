import Foundation

// Ellipsoidal ↔ orthometric (MSL) heights: h = H + N.

extension GeoidGrid {
    /// Ellipsoidal height *h = H + N* (meters) from an orthometric (MSL) altitude *H*.
    /// - Throws: as ``undulation(latitude:longitude:interpolation:)``; ``GeoAnchorError/nonFinite(name:value:)``
    ///   for a non-finite altitude.
    public func ellipsoidalHeight(latitude: Double, longitude: Double, altitude: Double,
                                  interpolation: GeoidInterpolation = .bilinear) throws(GeoAnchorError) -> Double {
        guard altitude.isFinite else { throw .nonFinite(name: "altitude", value: altitude) }
        return altitude + (try undulation(latitude: latitude, longitude: longitude, interpolation: interpolation))
    }

    /// Orthometric (MSL) altitude *H = h − N* (meters) from an ellipsoidal height *h*.
    /// - Throws: as ``ellipsoidalHeight(latitude:longitude:altitude:interpolation:)``.
    public func altitude(latitude: Double, longitude: Double, ellipsoidalHeight: Double,
                         interpolation: GeoidInterpolation = .bilinear) throws(GeoAnchorError) -> Double {
        guard ellipsoidalHeight.isFinite else { throw .nonFinite(name: "ellipsoidalHeight", value: ellipsoidalHeight) }
        return ellipsoidalHeight - (try undulation(latitude: latitude, longitude: longitude, interpolation: interpolation))
    }

    /// The same position with its height expressed in `reference` (*h = H + N*); unchanged when
    /// it already is.
    ///
    /// The grid is assumed to be referred to the coordinate's ellipsoid (EGM96 is to WGS84).
    /// - Throws: range errors of ``GeodeticCoordinate/validate()``; coverage errors as
    ///   ``undulation(latitude:longitude:interpolation:)``.
    /// - Accuracy: that of the undulation (see ``GeoidGrid``); the sum adds ≤ 1 ulp.
    public func converting(_ coordinate: GeodeticCoordinate, to reference: VerticalReference,
                           interpolation: GeoidInterpolation = .bilinear) throws(GeoAnchorError) -> GeodeticCoordinate {
        try coordinate.validate()
        if coordinate.verticalReference == reference { return coordinate }
        let n = try undulation(latitude: coordinate.latitude, longitude: coordinate.longitude, interpolation: interpolation)
        var out = coordinate
        out.height = reference == .ellipsoid ? coordinate.height + n : coordinate.height - n
        out.verticalReference = reference
        return out
    }
}
