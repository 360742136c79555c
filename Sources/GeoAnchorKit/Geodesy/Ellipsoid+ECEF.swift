import Foundation

// Geodetic ↔ ECEF.
//
// Forward: the closed formula (exact up to rounding).
// Inverse: Vermeille's closed-form solution (J. Geodesy 85, 105–117, 2011,
// doi:10.1007/s00190-010-0419-x) in the form Karney uses in GeographicLib's Geocentric
// (arXiv:1102.1215 §B): no iteration, valid from the centre of the Earth to beyond
// geostationary orbit and at the poles; prolate ellipsoids handled by swapping roles.
//
// Accuracy (measured in Tests/GeoAnchorKitTests/Geodesy/ECEFTests.swift): round trips
// geodetic → ECEF → geodetic reproduce latitude to ≤ 1.5e-14° and longitude to ≤ 1e-14°, and
// height to ≤ 5e-9 m or 1e-15 × h, whichever is larger (2.2e-8 m at 36,000 km), from
// h = −11 km to 36,000 km, poles and ±180° included; PROJ's `cart` gie tests
// (more_builtins.gie) pass to 0.001 mm.

extension Ellipsoid {
    /// Converts a geodetic coordinate to ECEF.
    ///
    /// - Parameters:
    ///   - latitude: degrees, [−90, 90].
    ///   - longitude: degrees.
    ///   - h: ellipsoidal height, meters above this ellipsoid.
    /// - Returns: ECEF in meters. No validation: NaN in gives NaN out (see ``ecef(from:)``).
    @inlinable
    public func ecef(latitude: Double, longitude: Double, ellipsoidalHeight h: Double) -> ECEFCoordinate {
        let (sphi, cphi) = Angle.sincos(degrees: latitude)
        let (slam, clam) = Angle.sincos(degrees: longitude)
        let n = semiMajorAxis / (1 - eccentricitySquared * sphi * sphi).squareRoot()
        let z = ((1 - eccentricitySquared) * n + h) * sphi
        let r = (n + h) * cphi
        return ECEFCoordinate(x: r * clam, y: r * slam, z: z)
    }

    /// Converts a validated geodetic coordinate with an ellipsoidal height to ECEF.
    /// - Throws: range errors from ``GeodeticCoordinate/validate()``;
    ///   ``GeoAnchorError/verticalReferenceMismatch(expected:got:)`` for an MSL height (convert it
    ///   with a ``GeoidGrid`` first).
    @inlinable
    public func ecef(from coordinate: GeodeticCoordinate) throws(GeoAnchorError) -> ECEFCoordinate {
        try coordinate.validate()
        guard coordinate.verticalReference == .ellipsoid else {
            throw .verticalReferenceMismatch(expected: .ellipsoid, got: coordinate.verticalReference)
        }
        return ecef(latitude: coordinate.latitude, longitude: coordinate.longitude,
                    ellipsoidalHeight: coordinate.height)
    }

    /// Converts ECEF to geodetic latitude, longitude (degrees, longitude in [−180, 180]) and
    /// ellipsoidal height (meters), closed form (Vermeille 2011 / Karney).
    ///
    /// Valid for every finite point, including the poles, the z axis and the centre of the Earth
    /// (where the answer is one of the two poles at h = −b).
    @inlinable
    public func geodetic(x: Double, y: Double, z: Double) -> (latitude: Double, longitude: Double, ellipsoidalHeight: Double) {
        let c = geodeticComponents(x: x, y: y, z: z)
        return (Angle.atan2Degrees(c.sinLatitude, c.cosLatitude), Angle.atan2Degrees(c.sinLongitude, c.cosLongitude), c.height)
    }

    /// The core of ``geodetic(x:y:z:)``: sine and cosine of latitude and longitude (not
    /// necessarily normalized) and the ellipsoidal height, before the final `atan2`s — so batch
    /// paths can take the angles in a cheaper way.
    @inlinable
    func geodeticComponents(x: Double, y: Double, z: Double)
        -> (sinLatitude: Double, cosLatitude: Double, sinLongitude: Double, cosLongitude: Double, height: Double) {
        let a = semiMajorAxis, f = flattening
        let e2 = eccentricitySquared
        let e2m = (1 - f) * (1 - f)          // 1 − e²
        let e2a = Swift.abs(e2)
        let e4a = e2 * e2
        // Beyond this radius the quartic's coefficients would overflow; treat as spherical.
        let maxRadius = 2 * a / Double.ulpOfOne

        var R = (x * x + y * y).squareRoot()
        // Longitude from the equatorial components; on the z axis take 0.
        let slam = R != 0 ? y / R : 0
        let clam = R != 0 ? x / R : 1
        var h = (R * R + z * z).squareRoot()
        var sphi: Double, cphi: Double
        if h > maxRadius {
            // Far away: the ellipsoid is a point; avoid overflow in the squares by halving.
            R = ((x / 2) * (x / 2) + (y / 2) * (y / 2)).squareRoot()
            let hh = (R * R + (z / 2) * (z / 2)).squareRoot()
            sphi = (z / 2) / hh
            cphi = R / hh
            // h stays the geocentric distance (minus nothing measurable at this scale).
        } else if e4a == 0 {
            // Sphere: geocentric = geodetic.
            let hh = (R * R + z * z).squareRoot()
            sphi = hh == 0 ? 1 : z / hh
            cphi = hh == 0 ? 0 : R / hh
            h -= a
        } else {
            // Vermeille's quartic, Karney's variables (arXiv:1102.1215, Eqs. B1–B11).
            var p = (R / a) * (R / a)
            var q = e2m * (z / a) * (z / a)
            let r = (p + q - e4a) / 6
            if f < 0 { swap(&p, &q) }
            if !(e4a * q == 0 && r <= 0) {
                let S = e4a * p * q / 4 // S = r^3 * s
                let r2 = r * r, r3 = r * r2
                let disc = S * (2 * r3 + S)
                var u = r
                if disc >= 0 {
                    var T3 = S + r3
                    // Choose the sign of the root to avoid cancellation (T3 + ±√disc).
                    T3 += T3 < 0 ? -disc.squareRoot() : disc.squareRoot()
                    let T = Foundation.cbrt(T3) // T = r * t
                    u += T + (T != 0 ? r2 / T : 0)
                } else {
                    // Three real roots: pick the one via the trigonometric solution.
                    let ang = Foundation.atan2((-disc).squareRoot(), -(S + r3))
                    u += 2 * r * Foundation.cos(ang / 3)
                }
                let v = (u * u + e4a * q).squareRoot()
                // Avoid loss of accuracy when u < 0.
                let uv = u < 0 ? e4a * q / (v - u) : u + v
                let w = Swift.max(0, e2a * (uv - q) / (2 * v))
                let k = uv / ((uv + w * w).squareRoot() + w)
                let k1 = f >= 0 ? k : k - e2
                let k2 = f >= 0 ? k + e2 : k
                let d = k1 * R / k2
                let zk = z / k1, rk = R / k2
                let hh = (zk * zk + rk * rk).squareRoot()
                sphi = zk / hh
                cphi = rk / hh
                h = (1 - e2m / k1) * (d * d + z * z).squareRoot()
            } else {
                // Near the centre of the Earth, on the equatorial plane's focal disc (q = 0, r ≤ 0).
                let zz = ((f >= 0 ? e4a - p : p) / e2m).squareRoot()
                let xx = (f < 0 ? e4a - p : p).squareRoot()
                let hh = (zz * zz + xx * xx).squareRoot()
                sphi = zz / hh
                cphi = xx / hh
                if z < 0 { sphi = -sphi } // for tiny negative z (not for prolate)
                h = -a * (f >= 0 ? e2m : 1) * hh / e2a
            }
        }
        return (sphi, cphi, slam, clam, h)
    }

    /// Converts an ECEF coordinate to a geodetic coordinate with an ellipsoidal height.
    /// - Throws: ``GeoAnchorError/nonFinite(name:value:)`` for NaN or infinite components.
    @inlinable
    public func geodetic(from p: ECEFCoordinate) throws(GeoAnchorError) -> GeodeticCoordinate {
        guard p.x.isFinite else { throw .nonFinite(name: "x", value: p.x) }
        guard p.y.isFinite else { throw .nonFinite(name: "y", value: p.y) }
        guard p.z.isFinite else { throw .nonFinite(name: "z", value: p.z) }
        let g = geodetic(x: p.x, y: p.y, z: p.z)
        return GeodeticCoordinate(latitude: g.latitude, longitude: g.longitude, ellipsoidalHeight: g.ellipsoidalHeight)
    }
}
