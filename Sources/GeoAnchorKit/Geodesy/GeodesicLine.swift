import Foundation

/// One geodesic, set up once from a start point and azimuth, on which positions can be
/// computed cheaply at any distance (Karney 2013, §3: the direct problem).
///
/// Create it with ``Geodesic/line(latitude:longitude:azimuth:distance:)`` (a start point,
/// azimuth and length) or ``Geodesic/line(latitude1:longitude1:latitude2:longitude2:)`` (the
/// shortest geodesic between two points). ``distance`` is the line's nominal length, used by
/// ``points(count:)`` and ``waypoints(spacing:)``; ``position(atDistance:)`` works at any
/// distance, also beyond it or negative.
///
/// *Accuracy*: positions within ~15 nm of the exact geodesic for |f| ≤ 1/50 (Karney 2013, §9;
/// checked against GeodTest-short in GeodesicTests).
public struct GeodesicLine: Sendable, Hashable {
    /// The geodesic calculator (ellipsoid) the line lives on.
    public let geodesic: Geodesic
    /// Start latitude, degrees.
    public let latitude1: Double
    /// Start longitude, degrees (as given).
    public let longitude1: Double
    /// Start azimuth, degrees clockwise from north, in [−180, 180].
    public let azimuth1: Double
    /// Nominal length of the line in meters (the distance to point 2 for a two-point line).
    public let distance: Double

    // Karney's line constants.
    let salp1: Double, calp1: Double
    let salp0: Double, calp0: Double, k2: Double
    let ssig1: Double, csig1: Double, dn1: Double
    let stau1: Double, ctau1: Double
    let somg1: Double, comg1: Double
    let A1m1: Double, A2m1: Double, A3c: Double
    let B11: Double, B21: Double, B31: Double, A4: Double, B41: Double
    let c1a: GeodesicSeries, c1pa: GeodesicSeries, c2a: GeodesicSeries
    let c3a: GeodesicSeries, c4a: GeodesicSeries

    init(geodesic g: Geodesic, latitude: Double, longitude: Double, azimuth: Double,
         salp1: Double, calp1: Double, distance: Double) {
        typealias S = GeodesicSeriesMath
        self.geodesic = g
        let lat1 = Swift.abs(latitude) > 90 ? .nan : latitude
        self.latitude1 = lat1
        self.longitude1 = longitude
        self.azimuth1 = azimuth
        self.distance = distance
        self.salp1 = salp1
        self.calp1 = calp1

        var (sbet1, cbet1) = Angle.sincos(degrees: Angle.round(lat1))
        sbet1 *= g.f1
        let r = Foundation.hypot(sbet1, cbet1)
        sbet1 /= r; cbet1 /= r
        cbet1 = Swift.max(GeodesicConstants.tiny, cbet1) // +tiny at the poles
        dn1 = (1 + g.ep2 * (sbet1 * sbet1)).squareRoot()

        // sin α₀ = sin α₁ cos β₁, α₀ in [0, π/2 − |β₁|]; this form of cos α₀ is better than
        // hypot(sβ₁, cα₁cβ₁) when sin α₁ = 0.
        salp0 = salp1 * cbet1
        calp0 = Foundation.hypot(calp1, salp1 * sbet1)
        // tan β₁ = tan σ₁ cos α₁ (σ = 0 at the northward equator crossing);
        // tan ω₁ = sin α₀ tan σ₁. With cos β₁ = +tiny at the poles there is no atan2(0, 0).
        var s1 = sbet1, c1 = sbet1 != 0 || calp1 != 0 ? cbet1 * calp1 : 1
        somg1 = salp0 * sbet1
        comg1 = c1
        let rs = Foundation.hypot(s1, c1)
        s1 /= rs; c1 /= rs
        ssig1 = s1; csig1 = c1

        k2 = calp0 * calp0 * g.ep2
        let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)

        A1m1 = S.a1m1(eps)
        c1a = S.c1(eps)
        B11 = S.sinSeries6(ssig1, csig1, c1a)
        let s = Foundation.sin(B11), c = Foundation.cos(B11)
        // τ₁ = σ₁ + B₁₁
        stau1 = ssig1 * c + csig1 * s
        ctau1 = csig1 * c - ssig1 * s
        c1pa = S.c1p(eps)

        A2m1 = S.a2m1(eps)
        c2a = S.c2(eps)
        B21 = S.sinSeries6(ssig1, csig1, c2a)

        c3a = g.coefficients.c3f(eps)
        A3c = -g.f * salp0 * g.coefficients.a3f(eps)
        B31 = S.sinSeries5(ssig1, csig1, c3a)

        c4a = g.coefficients.c4f(eps)
        // a² e² cos α₀ sin α₀
        A4 = g.a * g.a * calp0 * salp0 * g.e2
        B41 = S.cosSeries6(ssig1, csig1, c4a)
    }

    /// Start point as a coordinate on the ellipsoid.
    public var start: GeodeticCoordinate {
        GeodeticCoordinate(latitude: latitude1, longitude: longitude1, ellipsoidalHeight: 0)
    }

    /// The point `distance` meters along the line from its start (negative: backwards).
    ///
    /// Returns the position (longitude normalized to [−180, 180]), forward azimuth there,
    /// arc length, reduced length, geodesic scales and area from the start.
    /// *Accuracy*: ~15 nm (Karney 2013, §9).
    public func position(atDistance s12: Double) -> GeodesicDirectResult {
        position(distanceOrArc: s12, arcMode: false)
    }

    /// The point at spherical arc length `arcLength` (degrees on the auxiliary sphere) from the
    /// start; see ``position(atDistance:)``.
    public func position(atArcLength a12: Double) -> GeodesicDirectResult {
        position(distanceOrArc: a12, arcMode: true)
    }

    /// Most points ``points(count:)`` and ``waypoints(spacing:)`` return: 10,000,001 (one every
    /// 2 m around the Earth; ≈ 0.3 GB of coordinates). A larger request is refused rather than
    /// left to exhaust memory.
    public static let maximumPointCount = 10_000_001

    /// `count` points evenly spaced by distance from the start to ``distance`` (both ends
    /// included), on the ellipsoid (height 0).
    /// - Throws: ``GeoAnchorError/outOfRange(name:value:allowed:)`` when `count` is outside
    ///   [2, ``maximumPointCount``].
    public func points(count: Int) throws(GeoAnchorError) -> [GeodeticCoordinate] {
        guard count >= 2, count <= Self.maximumPointCount else {
            throw .outOfRange(name: "count", value: Double(count), allowed: .closed(2, Double(Self.maximumPointCount)))
        }
        var out = [GeodeticCoordinate]()
        out.reserveCapacity(count)
        let step = distance / Double(count - 1)
        for i in 0..<count {
            let s = i == count - 1 ? distance : Double(i) * step
            out.append(position(atDistance: s).coordinate)
        }
        return out
    }

    /// Points every `spacing` meters from the start, plus the end point at ``distance``
    /// (the last interval may be shorter), on the ellipsoid (height 0). A last interval shorter
    /// than 10⁻⁹ of the spacing — the rounding of a line whose length is a whole number of
    /// spacings — is merged into the one before (it would repeat the end point to the
    /// micrometre); a line of length 0 gives its start and its end, the same point.
    /// - Throws: ``GeoAnchorError/outOfRange(name:value:allowed:)`` when `spacing` is not a
    ///   positive finite number or would give more than ``maximumPointCount`` points.
    public func waypoints(spacing: Double) throws(GeoAnchorError) -> [GeodeticCoordinate] {
        guard spacing.isFinite, spacing > 0 else {
            throw .outOfRange(name: "spacing", value: spacing, allowed: .greaterThan(0, unit: "m"))
        }
        let total = Swift.abs(distance)
        let intervals = (total / spacing - 1e-9).rounded(.up)
        guard intervals < Double(Self.maximumPointCount) else {
            throw .outOfRange(name: "spacing", value: spacing,
                              allowed: .atLeast(total / Double(Self.maximumPointCount - 1), unit: "m"))
        }
        let n = Swift.max(1, Int(intervals))
        let sign: Double = distance < 0 ? -1 : 1
        var out = [GeodeticCoordinate]()
        out.reserveCapacity(n + 1)
        for i in 0..<n {
            out.append(position(atDistance: sign * Double(i) * spacing).coordinate)
        }
        out.append(position(atDistance: distance).coordinate)
        return out
    }

    /// Karney's GenPosition: the point at distance s₁₂ (meters) or arc σ₁₂ (degrees).
    func position(distanceOrArc s12a12: Double, arcMode: Bool) -> GeodesicDirectResult {
        typealias S = GeodesicSeriesMath
        let g = geodesic
        var sig12: Double, ssig12: Double, csig12: Double, B12 = 0.0
        if arcMode {
            sig12 = s12a12 * GeodesicConstants.degree
            (ssig12, csig12) = Angle.sincos(degrees: s12a12)
        } else {
            // Distance → τ₁₂ (eq. 7) → σ₁₂ by the reverted series (eq. 20).
            let tau12 = s12a12 / (g.b * (1 + A1m1))
            let s = Foundation.sin(tau12), c = Foundation.cos(tau12)
            // τ₂ = τ₁ + τ₁₂
            B12 = -S.sinSeries6(stau1 * c + ctau1 * s, ctau1 * c - stau1 * s, c1pa)
            sig12 = tau12 - (B12 - B11)
            ssig12 = Foundation.sin(sig12); csig12 = Foundation.cos(sig12)
            if Swift.abs(g.f) > 0.01 {
                // The reverted series loses accuracy for |f| > 1/100: one Newton step on σ₁₂.
                let ssig2 = ssig1 * csig12 + csig1 * ssig12
                let csig2 = csig1 * csig12 - ssig1 * ssig12
                B12 = S.sinSeries6(ssig2, csig2, c1a)
                let serr = (1 + A1m1) * (sig12 + (B12 - B11)) - s12a12 / g.b
                sig12 -= serr / (1 + k2 * (ssig2 * ssig2)).squareRoot()
                ssig12 = Foundation.sin(sig12); csig12 = Foundation.cos(sig12)
            }
        }

        // σ₂ = σ₁ + σ₁₂
        let ssig2 = ssig1 * csig12 + csig1 * ssig12
        var csig2 = csig1 * csig12 - ssig1 * ssig12
        let dn2 = (1 + k2 * (ssig2 * ssig2)).squareRoot()
        if arcMode || Swift.abs(g.f) > 0.01 {
            B12 = S.sinSeries6(ssig2, csig2, c1a)
        }
        let AB1 = (1 + A1m1) * (B12 - B11)
        // sin β₂ = cos α₀ sin σ₂
        let sbet2 = calp0 * ssig2
        var cbet2 = Foundation.hypot(salp0, calp0 * csig2)
        if cbet2 == 0 {
            // sin α₀ = 0 and cos σ₂ = 0 (at a pole on a meridian): break the degeneracy.
            cbet2 = GeodesicConstants.tiny
            csig2 = GeodesicConstants.tiny
        }
        // tan α₂ = tan α₀ / cos σ₂ (no need to normalize)
        let salp2 = salp0, calp2 = calp0 * csig2

        let s12 = arcMode ? g.b * ((1 + A1m1) * sig12 + AB1) : s12a12

        // Longitude: ω₁₂ from the auxiliary sphere, then λ₁₂ = ω₁₂ + A₃c(σ₁₂ + B₃₂ − B₃₁).
        let somg2 = salp0 * ssig2, comg2 = csig2
        let omg12 = Foundation.atan2(somg2 * comg1 - comg2 * somg1, comg2 * comg1 + somg2 * somg1)
        let lam12 = omg12 + A3c * (sig12 + (S.sinSeries5(ssig2, csig2, c3a) - B31))
        let lon12 = lam12 / GeodesicConstants.degree
        let lon2 = Angle.normalizeLongitude(Angle.normalizeLongitude(longitude1) + Angle.normalizeLongitude(lon12))

        let lat2 = Angle.atan2Degrees(sbet2, g.f1 * cbet2)
        let azi2 = Angle.atan2Degrees(salp2, calp2)

        // Reduced length and geodesic scales (eqs. 38–39).
        let B22 = S.sinSeries6(ssig2, csig2, c2a)
        let AB2 = (1 + A2m1) * (B22 - B21)
        let J12 = (A1m1 - A2m1) * sig12 + (AB1 - AB2)
        // Parenthesized products cancel exactly for coincident points.
        let m12 = g.b * ((dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2)) - csig1 * csig2 * J12)
        let t = k2 * (ssig2 - ssig1) * (ssig2 + ssig1) / (dn1 + dn2)
        let M12 = csig12 + (t * ssig2 - csig2 * J12) * ssig1 / dn1
        let M21 = csig12 - (t * ssig1 - csig1 * J12) * ssig2 / dn2

        // Area (eq. 58).
        let B42 = S.cosSeries6(ssig2, csig2, c4a)
        var salp12: Double, calp12: Double
        if calp0 == 0 || salp0 == 0 {
            // α₁₂ = α₂ − α₁ (no need to normalize for atan2)
            salp12 = salp2 * calp1 - calp2 * salp1
            calp12 = calp2 * calp1 + salp2 * salp1
        } else {
            // tan(α₂ − α₁) = cα₀ sα₀ (cσ₁ − cσ₂) / (sα₀² + cα₀² cσ₁ cσ₂), with cσ₁ − cσ₂ written
            // without cancellation.
            salp12 = calp0 * salp0 * (csig12 <= 0
                ? csig1 * (1 - csig12) + ssig12 * ssig1
                : ssig12 * (csig1 * ssig12 / (1 + csig12) + ssig1))
            calp12 = salp0 * salp0 + calp0 * calp0 * csig1 * csig2
        }
        let S12 = g.c2 * Foundation.atan2(salp12, calp12) + A4 * (B42 - B41)

        return GeodesicDirectResult(
            latitude: lat2, longitude: lon2, azimuth2: azi2, distance: s12,
            arcLength: arcMode ? s12a12 : sig12 / GeodesicConstants.degree,
            reducedLength: m12, geodesicScale12: M12, geodesicScale21: M21, area: S12)
    }
}
