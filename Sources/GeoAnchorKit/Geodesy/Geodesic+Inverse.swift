import Foundation

// The inverse problem, Karney (2013) §§4–6: reduce to a canonical configuration, handle the
// meridional and equatorial cases directly, otherwise solve λ₁₂(α₁) = λ₁₂ for α₁ by Newton's
// method (starting from the spherical or astroid estimate, with bisection as a fallback).

/// Raw inverse solution in Karney's internal form (sines/cosines of the azimuths).
@usableFromInline
struct GeodesicInverseCore {
    var a12: Double
    var s12: Double
    var salp1: Double, calp1: Double
    var salp2: Double, calp2: Double
    var m12: Double
    var M12: Double, M21: Double
    var S12: Double
}

/// Normalizes (sin, cos) to unit length.
@inline(__always)
private func norm2(_ s: inout Double, _ c: inout Double) {
    // hypot, not √(s² + c²): it avoids overflow and rounds exactly as GeographicLib does, which
    // keeps the Newton iteration on the same path as PROJ's copy (results agree to the ulp).
    let r = Foundation.hypot(s, c)
    s /= r
    c /= r
}

@inline(__always)
private func sq(_ x: Double) -> Double { x * x }

extension Geodesic {
    /// Solves the inverse problem: the shortest geodesic from point 1 to point 2.
    ///
    /// - Parameters: latitudes in degrees [−90, 90] (outside → NaN results), longitudes in
    ///   degrees (any finite value). No validation: NaN in gives NaN out; use
    ///   ``inverse(from:to:)`` for typed errors.
    /// - Returns: distance, both azimuths (degrees in [−180, 180], as Karney), arc length,
    ///   reduced length, geodesic scales and area.
    /// - *Accuracy*: distance ≤ 15 nm, azimuths ≤ 1e-12° against GeographicLib's GeodTest
    ///   (measured in GeodesicTests over all 10,000 lines of GeodTest-short).
    public func inverse(latitude1: Double, longitude1: Double, latitude2: Double, longitude2: Double) -> GeodesicInverseResult {
        let r = inverseCore(latitude1, longitude1, latitude2, longitude2, full: true)
        return GeodesicInverseResult(
            distance: r.s12,
            azimuth1: Angle.atan2Degrees(r.salp1, r.calp1),
            azimuth2: Angle.atan2Degrees(r.salp2, r.calp2),
            arcLength: r.a12, reducedLength: r.m12,
            geodesicScale12: r.M12, geodesicScale21: r.M21, area: r.S12)
    }

    /// The inverse solution; with `full == false` only distance, azimuths and arc length are
    /// computed (the reduced length, scales and area are then 0).
    @inline(__always)
    func inverseCore(_ lat1In: Double, _ lon1: Double, _ lat2In: Double, _ lon2: Double,
                     full: Bool) -> GeodesicInverseCore {
        typealias K = GeodesicConstants
        let tiny = K.tiny
        var s12x = 0.0, m12x = 0.0, M12 = 0.0, M21 = 0.0, S12 = 0.0
        var a12 = 0.0, sig12 = 0.0
        var salp1 = 0.0, calp1 = 0.0, salp2 = 0.0, calp2 = 0.0
        // somg12 == 2 marks that sin/cos ω₁₂ still have to be computed (area only).
        var omg12 = 0.0, somg12 = 2.0, comg12 = 0.0

        // Longitude difference, carefully (exact sum plus its rounding error). −180 only for
        // west-going geodesics; +180 for east-going and meridional ones.
        var (lon12, lon12s) = Angle.directedExactDifference(from: lon1, to: lon2)
        // Make the longitude difference non-negative.
        var lonsign: Double = lon12.sign == .minus ? -1 : 1
        lon12 *= lonsign
        lon12s *= lonsign
        let lam12 = lon12 * K.degree
        // sin/cos of lon12 + error (rounded, so nearly meridional lines become meridional).
        let (slam12, clam12) = Angle.sincos(degrees: lon12, error: lon12s)
        lon12s = (180 - lon12) - lon12s // the supplementary longitude difference

        // Latitudes within ~1e-17° of the equator are treated as on it; |lat| > 90 → NaN.
        var lat1 = Angle.round(Swift.abs(lat1In) > 90 ? .nan : lat1In)
        var lat2 = Angle.round(Swift.abs(lat2In) > 90 ? .nan : lat2In)
        // Point 1 gets the larger |latitude| (a NaN latitude becomes lat1).
        let swapp: Double = (Swift.abs(lat1) < Swift.abs(lat2) || lat2.isNaN) ? -1 : 1
        if swapp < 0 {
            lonsign *= -1
            swap(&lat1, &lat2)
        }
        // Make lat1 ≤ −0.
        let latsign: Double = lat1.sign == .minus ? 1 : -1
        lat1 *= latsign
        lat2 *= latsign
        // Now 0 ≤ lon12 ≤ 180, −90 ≤ lat1 ≤ −0, lat1 ≤ lat2 ≤ −lat1; lonsign, swapp and
        // latsign record the symmetry transformations (1 = unchanged).

        var (sbet1, cbet1) = Angle.sincos(degrees: lat1)
        sbet1 *= f1
        norm2(&sbet1, &cbet1)
        cbet1 = Swift.max(tiny, cbet1) // cbet1 = +tiny at the pole keeps atan2 quadrants defined
        var (sbet2, cbet2) = Angle.sincos(degrees: lat2)
        sbet2 *= f1
        norm2(&sbet2, &cbet2)
        cbet2 = Swift.max(tiny, cbet2)

        // If cbet1 < −sbet1, cbet2 − cbet1 measures |β₁| − |β₂| sensitively, else |sbet2| + sbet1
        // does (this choice is used for calp2 in λ₁₂). When these vanish force β₂ = ±β₁ exactly,
        // otherwise the Newton iteration can meet a spurious singularity.
        if cbet1 < -sbet1 {
            if cbet2 == cbet1 { sbet2 = sbet2.sign == .minus ? -Swift.abs(sbet1) : Swift.abs(sbet1) }
        } else {
            if Swift.abs(sbet2) == -sbet1 { cbet2 = cbet1 }
        }

        let dn1 = (1 + ep2 * sq(sbet1)).squareRoot()
        let dn2 = (1 + ep2 * sq(sbet2)).squareRoot()

        var meridian = lat1 == -90 || slam12 == 0

        if meridian {
            // Both points on one full meridian: the geodesic may be that meridian.
            calp1 = clam12; salp1 = slam12 // head towards the target longitude
            calp2 = 1; salp2 = 0           // arrive heading north
            // tan β = tan σ cos α
            let ssig1 = sbet1, csig1 = calp1 * cbet1
            let ssig2 = sbet2, csig2 = calp2 * cbet2
            sig12 = Foundation.atan2(Swift.max(0, csig1 * ssig2 - ssig1 * csig2) + 0,
                                     csig1 * csig2 + ssig1 * ssig2)
            let l = lengths(eps: n, sig12: sig12, ssig1, csig1, dn1, ssig2, csig2, dn2, cbet1, cbet2,
                            distance: true, reduced: true, scales: full)
            s12x = l.s12b; m12x = l.m12b; M12 = l.M12; M21 = l.M21
            // A meridian longer than half way round (σ₁₂ > π/2 with m₁₂ < 0) is not shortest
            // (prolate case); the σ₁₂ < 1 test keeps zero-length lines (m₁₂ may be −0) here.
            if sig12 < 1 || m12x >= 0 {
                // At least 2·tiny is needed for 90 0 90 180 (both at the pole).
                if sig12 < 3 * tiny || (sig12 < K.tol0 && (s12x < 0 || m12x < 0)) {
                    sig12 = 0; m12x = 0; s12x = 0
                }
                m12x *= b
                s12x *= b
                a12 = sig12 / K.degree
            } else {
                meridian = false
            }
        }

        if !meridian && sbet1 == 0 && (f <= 0 || lon12s >= f * 180) {
            // Both points on the equator and the geodesic runs along it (for oblate ellipsoids
            // only when λ₁₂ ≤ (1 − f)π; beyond that the geodesic leaves the equator).
            calp1 = 0; calp2 = 0; salp1 = 1; salp2 = 1
            s12x = a * lam12
            sig12 = lam12 / f1
            omg12 = sig12
            m12x = b * Foundation.sin(sig12)
            if full { M12 = Foundation.cos(sig12); M21 = M12 }
            a12 = lon12 / f1
        } else if !meridian {
            // General case: a starting point for Newton's method.
            let start = inverseStart(sbet1, cbet1, dn1, sbet2, cbet2, dn2, lam12, slam12, clam12)
            salp1 = start.salp1; calp1 = start.calp1
            sig12 = start.sig12
            if sig12 >= 0 {
                // Really short line: the spherical solution with dn at the mid latitude is exact.
                salp2 = start.salp2; calp2 = start.calp2
                let dnm = start.dnm
                s12x = sig12 * b * dnm
                m12x = sq(dnm) * b * Foundation.sin(sig12 / dnm)
                if full { M12 = Foundation.cos(sig12 / dnm); M21 = M12 }
                a12 = sig12 / K.degree
                omg12 = lam12 / (f1 * dnm)
            } else {
                // Newton on f(α₁) = λ₁₂(α₁) − λ₁₂. f has one root in (0, π) with positive slope
                // there; a bracket (α₁a, α₁b) is shrunk with every evaluation and Newton restarts
                // from its midpoint when the derivative is not positive or a step leaves (0, π).
                var ssig1 = 0.0, csig1 = 0.0, ssig2 = 0.0, csig2 = 0.0, eps = 0.0, domg12 = 0.0
                var numit = 0
                var salp1a = tiny, calp1a = 1.0, salp1b = tiny, calp1b = -1.0
                var tripn = false, tripb = false
                while true {
                    let lr = lambda12(sbet1, cbet1, dn1, sbet2, cbet2, dn2, salp1, calp1,
                                      slam12, clam12, derivative: numit < K.maxit1)
                    let v = lr.lam12
                    salp2 = lr.salp2; calp2 = lr.calp2; sig12 = lr.sig12
                    ssig1 = lr.ssig1; csig1 = lr.csig1; ssig2 = lr.ssig2; csig2 = lr.csig2
                    eps = lr.eps; domg12 = lr.domg12
                    // Reversed test so that NaNs escape; 2·tol0 is about 1 ulp of a number in [0, π].
                    if tripb || !(Swift.abs(v) >= (tripn ? 8 : 1) * K.tol0) || numit == K.maxit2 { break }
                    // Update the bracket.
                    if v > 0 && (numit > K.maxit1 || calp1 / salp1 > calp1b / salp1b) {
                        salp1b = salp1; calp1b = calp1
                    } else if v < 0 && (numit > K.maxit1 || calp1 / salp1 < calp1a / salp1a) {
                        salp1a = salp1; calp1a = calp1
                    }
                    numit += 1
                    if numit - 1 < K.maxit1 && lr.dlam12 > 0 {
                        let dalp1 = -v / lr.dlam12
                        if Swift.abs(dalp1) < .pi {
                            let sdalp1 = Foundation.sin(dalp1), cdalp1 = Foundation.cos(dalp1)
                            let nsalp1 = salp1 * cdalp1 + calp1 * sdalp1
                            if nsalp1 > 0 {
                                calp1 = calp1 * cdalp1 - salp1 * sdalp1
                                salp1 = nsalp1
                                norm2(&salp1, &calp1)
                                // Where the slope → 0 convergence is only linear, so test
                                // against ε rather than √ε.
                                tripn = Swift.abs(v) <= 16 * K.tol0
                                continue
                            }
                        }
                    }
                    // Bisection: the midpoint of the bracket (needed only for very eccentric
                    // ellipsoids; not reached for WGS84 in practice).
                    salp1 = (salp1a + salp1b) / 2
                    calp1 = (calp1a + calp1b) / 2
                    norm2(&salp1, &calp1)
                    tripn = false
                    tripb = Swift.abs(salp1a - salp1) + (calp1a - calp1) < K.tolb
                        || Swift.abs(salp1 - salp1b) + (calp1 - calp1b) < K.tolb
                }
                let l = lengths(eps: eps, sig12: sig12, ssig1, csig1, dn1, ssig2, csig2, dn2, cbet1, cbet2,
                                distance: true, reduced: full, scales: full)
                s12x = l.s12b * b
                m12x = l.m12b * b
                M12 = l.M12; M21 = l.M21
                a12 = sig12 / K.degree
                if full {
                    // ω₁₂ = λ₁₂ − Δω₁₂
                    let sdomg12 = Foundation.sin(domg12), cdomg12 = Foundation.cos(domg12)
                    somg12 = slam12 * cdomg12 - clam12 * sdomg12
                    comg12 = clam12 * cdomg12 + slam12 * sdomg12
                }
            }
        }

        let s12 = 0 + s12x // −0 → 0
        let m12 = 0 + m12x

        if full {
            // Area (eqs. 58–64): the ellipsoidal correction A₄(I₄(σ₂) − I₄(σ₁)) plus c²(α₂ − α₁).
            let salp0 = salp1 * cbet1 // sin α₁ cos β₁ = sin α₀
            let calp0 = Foundation.hypot(calp1, salp1 * sbet1) // > 0
            if calp0 != 0 && salp0 != 0 {
                var ssig1 = sbet1, csig1 = calp1 * cbet1 // tan β = tan σ cos α
                var ssig2 = sbet2, csig2 = calp2 * cbet2
                let k2 = sq(calp0) * ep2
                let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
                let A4 = sq(a) * calp0 * salp0 * e2
                norm2(&ssig1, &csig1)
                norm2(&ssig2, &csig2)
                let c4 = coefficients.c4f(eps)
                let B41 = GeodesicSeriesMath.cosSeries6(ssig1, csig1, c4)
                let B42 = GeodesicSeriesMath.cosSeries6(ssig2, csig2, c4)
                S12 = A4 * (B42 - B41)
            } else {
                // σ₁, σ₂ are indeterminate on the equator and meridians; the correction is 0.
                S12 = 0
            }
            if !meridian && somg12 == 2 {
                somg12 = Foundation.sin(omg12); comg12 = Foundation.cos(omg12)
            }
            let alp12: Double
            if !meridian && comg12 > -0.7071 && sbet2 - sbet1 < 1.75 {
                // ω₁₂ < 3π/4 and moderate latitude difference: the spherical-excess formula
                // tan(Γ/2) = tan(ω₁₂/2)(tan(β₁/2) + tan(β₂/2))/(1 + tan(β₁/2) tan(β₂/2)) is accurate.
                let domg12 = 1 + comg12, dbet1 = 1 + cbet1, dbet2 = 1 + cbet2
                alp12 = 2 * Foundation.atan2(somg12 * (sbet1 * dbet2 + sbet2 * dbet1),
                                             domg12 * (sbet1 * sbet2 + dbet1 * dbet2))
            } else {
                // α₁₂ = α₂ − α₁ directly.
                var salp12 = salp2 * calp1 - calp2 * salp1
                var calp12 = calp2 * calp1 + salp2 * salp1
                // α₁ = ±180°, α₂ = 0 must give α₁₂ = −180° consistently, which depends on the
                // sign of a zero; make it explicit.
                if salp12 == 0 && calp12 < 0 {
                    salp12 = tiny * calp1
                    calp12 = -1
                }
                alp12 = Foundation.atan2(salp12, calp12)
            }
            S12 += c2 * alp12
            S12 *= swapp * lonsign * latsign
            S12 += 0
        }

        // Undo the symmetry transformations.
        if swapp < 0 {
            swap(&salp1, &salp2)
            swap(&calp1, &calp2)
            if full { swap(&M12, &M21) }
        }
        salp1 *= swapp * lonsign; calp1 *= swapp * latsign
        salp2 *= swapp * lonsign; calp2 *= swapp * latsign

        return GeodesicInverseCore(a12: a12, s12: s12, salp1: salp1, calp1: calp1, salp2: salp2, calp2: calp2,
                                   m12: m12, M12: M12, M21: M21, S12: S12)
    }

    // MARK: - Pieces of the inverse solution

    struct Lengths {
        var s12b = 0.0, m12b = 0.0, m0 = 0.0, M12 = 0.0, M21 = 0.0
    }

    /// Distance s₁₂/b (eq. 7), reduced length m₁₂/b (eq. 38), the secular coefficient m₀ and
    /// the geodesic scales M₁₂, M₂₁ (eq. 39) for an arc σ₁ → σ₂ with parameter ε.
    @inline(__always)
    func lengths(eps: Double, sig12: Double,
                 _ ssig1: Double, _ csig1: Double, _ dn1: Double,
                 _ ssig2: Double, _ csig2: Double, _ dn2: Double,
                 _ cbet1: Double, _ cbet2: Double,
                 distance: Bool, reduced: Bool, scales: Bool) -> Lengths {
        typealias S = GeodesicSeriesMath
        var out = Lengths()
        let redlp = reduced || scales
        var A1 = S.a1m1(eps)
        let c1 = S.c1(eps)
        var A2 = 0.0, m0 = 0.0
        var c2 = GeodesicSeries()
        if redlp {
            A2 = S.a2m1(eps)
            c2 = S.c2(eps)
            m0 = A1 - A2
            A2 = 1 + A2
        }
        A1 = 1 + A1
        var J12 = 0.0
        if distance {
            let B1 = S.sinSeries6(ssig2, csig2, c1) - S.sinSeries6(ssig1, csig1, c1)
            out.s12b = A1 * (sig12 + B1)
            if redlp {
                let B2 = S.sinSeries6(ssig2, csig2, c2) - S.sinSeries6(ssig1, csig1, c2)
                J12 = m0 * sig12 + (A1 * B1 - A2 * B2)
            }
        } else if redlp {
            // Combine the two series into one: J₁₂ = m₀σ₁₂ + Σ (A₁C₁ₗ − A₂C₂ₗ)(sin 2lσ₂ − sin 2lσ₁).
            let cb = A1 * c1 - A2 * c2
            J12 = m0 * sig12 + (S.sinSeries6(ssig2, csig2, cb) - S.sinSeries6(ssig1, csig1, cb))
        }
        out.m0 = m0
        if reduced {
            // Parenthesized products keep the cancellation exact for coincident points.
            out.m12b = dn2 * (csig1 * ssig2) - dn1 * (ssig1 * csig2) - csig1 * csig2 * J12
        }
        if scales {
            let csig12 = csig1 * csig2 + ssig1 * ssig2
            let t = ep2 * (cbet1 - cbet2) * (cbet1 + cbet2) / (dn1 + dn2)
            out.M12 = csig12 + (t * ssig2 - csig2 * J12) * ssig1 / dn1
            out.M21 = csig12 - (t * ssig1 - csig1 * J12) * ssig2 / dn2
        }
        return out
    }

    /// The positive root k of k⁴ + 2k³ − (x² + y² − 1)k² − 2y²k − y² = 0 (Karney 2013, eq. 55),
    /// solved in closed form as in the geocentric → geodetic conversion.
    static func astroid(_ x: Double, _ y: Double) -> Double {
        let p = sq(x), q = sq(y)
        let r = (p + q - 1) / 6
        guard !(q == 0 && r <= 0) else {
            // y = 0 with |x| ≤ 1: for small y the root is |y|/√(1 − x²) → 0.
            return 0
        }
        // Multiply the equations for s and t by r³ and r to avoid dividing by r = 0.
        let S = p * q / 4 // r³ s
        let r2 = sq(r), r3 = r * r2
        // Discriminant of the quadratic for T³; zero on the evolute p^(1/3) + q^(1/3) = 1.
        let disc = S * (S + 2 * r3)
        var u = r
        if disc >= 0 {
            var T3 = S + r3
            // Choose the sign of the square root that maximizes |T³| (less cancellation); the
            // result is the same because of how T enters u.
            T3 += T3 < 0 ? -disc.squareRoot() : disc.squareRoot() // (r t)³
            let T = Foundation.cbrt(T3) // real cube root
            u += T + (T != 0 ? r2 / T : 0)
        } else {
            // T is complex but u is real; take the cube root that avoids cancellation (r < 0 here).
            let ang = Foundation.atan2((-disc).squareRoot(), -(S + r3))
            u += 2 * r * Foundation.cos(ang / 3)
        }
        let v = (sq(u) + q).squareRoot() // > 0
        let uv = u < 0 ? q / (v - u) : u + v // u + v without cancellation, > 0
        let w = (uv - q) / (2 * v)
        return uv / ((uv + sq(w)).squareRoot() + w) // > 0
    }

    struct InverseStart {
        var sig12 = -1.0
        var salp1 = 0.0, calp1 = 0.0, salp2 = 0.0, calp2 = 0.0, dnm = 0.0
    }

    /// Starting α₁ for Newton's method (Karney 2013, §5). Returns `sig12 ≥ 0` (with α₂ and dnm)
    /// when the line is so short that the spherical solution is already exact.
    @inline(__always)
    func inverseStart(_ sbet1: Double, _ cbet1: Double, _ dn1: Double,
                      _ sbet2: Double, _ cbet2: Double, _ dn2: Double,
                      _ lam12: Double, _ slam12: Double, _ clam12: Double) -> InverseStart {
        typealias K = GeodesicConstants
        var out = InverseStart()
        // β₁₂ = β₂ − β₁ in [0, π); β₁₂a = β₂ + β₁ in (−π, 0]
        let sbet12 = sbet2 * cbet1 - cbet2 * sbet1
        let cbet12 = cbet2 * cbet1 + sbet2 * sbet1
        let sbet12a = sbet2 * cbet1 + cbet2 * sbet1
        let shortline = cbet12 >= 0 && sbet12 < 0.5 && cbet2 * lam12 < 0.5
        var somg12: Double, comg12: Double
        if shortline {
            // sin²((β₁+β₂)/2) = (sβ₁+sβ₂)² / ((sβ₁+sβ₂)² + (cβ₁+cβ₂)²)
            var sbetm2 = sq(sbet1 + sbet2)
            sbetm2 /= sbetm2 + sq(cbet1 + cbet2)
            out.dnm = (1 + ep2 * sbetm2).squareRoot()
            let omg12 = lam12 / (f1 * out.dnm)
            somg12 = Foundation.sin(omg12); comg12 = Foundation.cos(omg12)
        } else {
            somg12 = slam12; comg12 = clam12
        }

        // Spherical (great-circle) estimate of α₁ with ω₁₂ for λ₁₂.
        var salp1 = cbet2 * somg12
        var calp1 = comg12 >= 0
            ? sbet12 + cbet2 * sbet1 * sq(somg12) / (1 + comg12)
            : sbet12a - cbet2 * sbet1 * sq(somg12) / (1 - comg12)
        let ssig12 = Foundation.hypot(salp1, calp1)
        let csig12 = sbet1 * sbet2 + cbet1 * cbet2 * comg12

        if shortline && ssig12 < etol2 {
            // Really short line: finish on the sphere.
            var salp2 = cbet1 * somg12
            var calp2 = sbet12 - cbet1 * sbet2 * (comg12 >= 0 ? sq(somg12) / (1 + comg12) : 1 - comg12)
            norm2(&salp2, &calp2)
            out.salp2 = salp2; out.calp2 = calp2
            out.sig12 = Foundation.atan2(ssig12, csig12)
        } else if Swift.abs(n) > 0.1 || csig12 >= 0 || ssig12 >= 6 * Swift.abs(n) * .pi * sq(cbet1) {
            // The zeroth-order spherical estimate is good enough (or the ellipsoid is too
            // eccentric for the astroid approximation).
        } else {
            // Nearly antipodal: scale λ₁₂ and β₂ to coordinates (x, y) in which the antipode is
            // the origin and the singular point is (−1, 0), then solve the astroid problem.
            var x: Double, y: Double, lamscale: Double, betscale: Double
            let lam12x = Foundation.atan2(-slam12, -clam12) // λ₁₂ − π
            if f >= 0 {
                // x = Δlongitude, y = Δlatitude
                let k2 = sq(sbet1) * ep2
                let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
                lamscale = f * cbet1 * coefficients.a3f(eps) * .pi
                betscale = lamscale * cbet1
                x = lam12x / lamscale
                y = sbet12a / betscale
            } else {
                // Prolate: x = Δlatitude, y = Δlongitude
                let cbet12a = cbet2 * cbet1 - sbet2 * sbet1
                let bet12a = Foundation.atan2(sbet12a, cbet12a)
                let l = lengths(eps: n, sig12: .pi + bet12a, sbet1, -cbet1, dn1, sbet2, cbet2, dn2,
                                cbet1, cbet2, distance: false, reduced: true, scales: false)
                x = -1 + l.m12b / (cbet1 * cbet2 * l.m0 * .pi)
                betscale = x < -0.01 ? sbet12a / x : -f * sq(cbet1) * .pi
                lamscale = betscale / cbet1
                y = lam12x / lamscale
            }

            if y > -K.tol1 && x > -1 - K.xthresh {
                // Strip near the cut.
                if f >= 0 {
                    salp1 = Swift.min(1, -x)
                    calp1 = -(1 - sq(salp1)).squareRoot()
                } else {
                    calp1 = Swift.max(x > -K.tol1 ? 0 : -1, x)
                    salp1 = (1 - sq(calp1)).squareRoot()
                }
            } else {
                // Estimate ω₁₂ from the astroid and update the spherical α₁ with it (fewer Newton
                // iterations than estimating α₁ directly). ω₁₂ ≈ π, so work with π − ω₁₂.
                let k = Self.astroid(x, y)
                let omg12a = lamscale * (f >= 0 ? -x * k / (1 + k) : -y * (1 + k) / k)
                somg12 = Foundation.sin(omg12a); comg12 = -Foundation.cos(omg12a)
                salp1 = cbet2 * somg12
                calp1 = sbet12a - cbet2 * sbet1 * sq(somg12) / (1 - comg12)
            }
        }
        // Sanity check on the guess; the reversed test lets NaN through.
        if !(salp1 <= 0) {
            norm2(&salp1, &calp1)
        } else {
            salp1 = 1; calp1 = 0
        }
        out.salp1 = salp1; out.calp1 = calp1
        return out
    }

    struct Lambda12 {
        var lam12: Double
        var salp2: Double, calp2: Double, sig12: Double
        var ssig1: Double, csig1: Double, ssig2: Double, csig2: Double
        var eps: Double, domg12: Double, dlam12: Double
    }

    /// λ₁₂ − λ₁₂(target) for a trial α₁ (Karney 2013, §6), and with `derivative` its slope
    /// dλ₁₂/dα₁ = (1 − f) m₁₂ / (a cos α₂ cos β₂) (eq. 46).
    @inline(__always)
    func lambda12(_ sbet1: Double, _ cbet1: Double, _ dn1: Double,
                  _ sbet2: Double, _ cbet2: Double, _ dn2: Double,
                  _ salp1: Double, _ calp1In: Double,
                  _ slam120: Double, _ clam120: Double, derivative: Bool) -> Lambda12 {
        typealias S = GeodesicSeriesMath
        var calp1 = calp1In
        if sbet1 == 0 && calp1 == 0 {
            // Break the degeneracy of an equatorial line (handled separately by the caller).
            calp1 = -GeodesicConstants.tiny
        }
        // sin α₁ cos β₁ = sin α₀
        let salp0 = salp1 * cbet1
        let calp0 = Foundation.hypot(calp1, salp1 * sbet1) // > 0
        // tan β₁ = tan σ₁ cos α₁; tan ω₁ = sin α₀ tan σ₁
        var ssig1 = sbet1, csig1 = calp1 * cbet1
        let somg1 = salp0 * sbet1, comg1 = calp1 * cbet1
        norm2(&ssig1, &csig1)
        // (ω₁ need not be normalized.)

        // Enforce the symmetries when |β₂| = −β₁, where the Newton iteration can be singular.
        // sin α₂ cos β₂ = sin α₀
        let salp2 = cbet2 != cbet1 ? salp0 / cbet2 : salp1
        // cos α₂ = √(cos²α₁cos²β₁ + (cos²β₂ − cos²β₁))/cos β₂, choosing the more accurate
        // difference of squares (α₂ in [0, π/2]).
        let calp2 = cbet2 != cbet1 || Swift.abs(sbet2) != -sbet1
            ? (sq(calp1 * cbet1) + (cbet1 < -sbet1 ? (cbet2 - cbet1) * (cbet1 + cbet2)
                                                   : (sbet1 - sbet2) * (sbet1 + sbet2))).squareRoot() / cbet2
            : Swift.abs(calp1)
        // tan β₂ = tan σ₂ cos α₂; tan ω₂ = sin α₀ tan σ₂
        var ssig2 = sbet2, csig2 = calp2 * cbet2
        let somg2 = salp0 * sbet2, comg2 = calp2 * cbet2
        norm2(&ssig2, &csig2)

        // σ₁₂ = σ₂ − σ₁ in [0, π]
        let sig12 = Foundation.atan2(Swift.max(0, csig1 * ssig2 - ssig1 * csig2) + 0,
                                     csig1 * csig2 + ssig1 * ssig2)
        // ω₁₂ = ω₂ − ω₁ in [0, π]
        let somg12 = Swift.max(0, comg1 * somg2 - somg1 * comg2) + 0
        let comg12 = comg1 * comg2 + somg1 * somg2
        // η = ω₁₂ − λ₁₂(target)
        let eta = Foundation.atan2(somg12 * clam120 - comg12 * slam120,
                                   comg12 * clam120 + somg12 * slam120)
        let k2 = sq(calp0) * ep2
        let eps = k2 / (2 * (1 + (1 + k2).squareRoot()) + k2)
        let c3 = coefficients.c3f(eps)
        let B312 = S.sinSeries5(ssig2, csig2, c3) - S.sinSeries5(ssig1, csig1, c3)
        let domg12 = -f * coefficients.a3f(eps) * salp0 * (sig12 + B312)
        let lam12 = eta + domg12

        var dlam12 = 0.0
        if derivative {
            if calp2 == 0 {
                dlam12 = -2 * f1 * dn1 / sbet1
            } else {
                let l = lengths(eps: eps, sig12: sig12, ssig1, csig1, dn1, ssig2, csig2, dn2, cbet1, cbet2,
                                distance: false, reduced: true, scales: false)
                dlam12 = l.m12b * (f1 / (calp2 * cbet2))
            }
        }
        return Lambda12(lam12: lam12, salp2: salp2, calp2: calp2, sig12: sig12,
                        ssig1: ssig1, csig1: csig1, ssig2: ssig2, csig2: csig2,
                        eps: eps, domg12: domg12, dlam12: dlam12)
    }
}
