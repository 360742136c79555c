import Foundation

/// Angle helpers in degrees: exact reductions, wrap-safe differences and normalizations.
///
/// Conventions (see ARCHITECTURE.md): latitudes and longitudes in degrees; headings and
/// azimuths in degrees clockwise from true north, normalized to `[0, 360)`.
///
/// The trigonometric helpers reduce the argument *in degrees* before converting to radians,
/// so `sincos(degrees: 90)` returns exactly `(1, 0)` and `sincos(degrees: 180)` exactly `(0, -1)`;
/// that exactness is what makes pole and antimeridian round trips exact (Karney 2013, §8).
public enum Angle {
    /// Degrees per radian.
    public static let degreesPerRadian = 180.0 / Double.pi
    /// Radians per degree.
    public static let radiansPerDegree = Double.pi / 180.0

    /// `(sin x, cos x)` of an angle in degrees with exact values at multiples of 90°.
    ///
    /// - Parameter x: any finite angle in degrees (NaN/∞ give NaN).
    /// - Accuracy: ≤ 1 ulp beyond `sin`/`cos` of the reduced radian argument; exact at
    ///   multiples of 90°. The reduction `remainder(x, 90)` is exact in IEEE arithmetic.
    @inlinable
    public static func sincos(degrees x: Double) -> (sin: Double, cos: Double) {
        // Reduce to [-45°, 45°] exactly, remember the quadrant. fmod is the identity for
        // |x| < 360 (and costs a libm call), so only larger arguments take it.
        var r = Swift.abs(x) < 360 ? x : x.truncatingRemainder(dividingBy: 360)
        // Round r/90 to the nearest integer, ties to even, with the 1.5·2^52 trick: exact for
        // |r/90| < 2^51, and cheaper than `rounded(.toNearestOrEven)` (a libm call on baseline x86-64).
        let q0 = (r / 90 + 6_755_399_441_055_744.0) - 6_755_399_441_055_744.0
        r -= 90 * q0
        // NaN/∞ input: r is NaN, so any quadrant gives NaN (and Int(NaN) would trap).
        let q = q0.isFinite ? Int(q0) & 3 : 0
        let rad = r * radiansPerDegree
        return quadrantSinCos(radians: rad, quadrant: q, signOf: x)
    }

    /// sin/cos of `rad` (the reduced angle, |rad| ≤ π/4 + ε) rotated by `quadrant` × 90°.
    /// C99 Annex F conventions (as GeographicLib 2): cos never returns −0, and an exact zero
    /// sine carries the sign of `x`, so sin(−180°) = −0 and azimuths derived from it keep
    /// their direction (the geodesics rely on this to match Karney/PROJ bit for bit).
    @usableFromInline @inline(__always)
    static func quadrantSinCos(radians rad: Double, quadrant q: Int, signOf x: Double) -> (sin: Double, cos: Double) {
        let s = Foundation.sin(rad), c = Foundation.cos(rad)
        var sinx: Double, cosx: Double
        switch q {
        case 0: sinx = s; cosx = c
        case 1: sinx = c; cosx = -s
        case 2: sinx = -s; cosx = -c
        default: sinx = -c; cosx = s
        }
        cosx += 0
        if sinx == 0 { sinx = x.sign == .minus ? -0.0 : 0.0 }
        return (sinx, cosx)
    }

    /// `(sin(x + t), cos(x + t))` in degrees, where `t` is a small correction to `x` (e.g. the
    /// rounding error from ``exactDifference(from:to:)``); the reduced angle is passed through
    /// ``round(_:)`` so that values within ~1e-15° of a multiple of 90° become exact (Karney's
    /// `sincosde`).
    @inlinable
    public static func sincos(degrees x: Double, error t: Double) -> (sin: Double, cos: Double) {
        // remainder(x, 360) is exact and lies in [−180, 180], so the quotient by 90 is small.
        let x360 = Foundation.remainder(x, 360)
        let r0 = Foundation.remainder(x360, 90) // exact, in [−45, 45]
        let qd = ((x360 - r0) / 90).rounded()
        let q = qd.isFinite ? Int(qd) & 3 : 0 // NaN/∞ input → NaN result, never a trap
        let rad = round(r0 + t) * radiansPerDegree
        return quadrantSinCos(radians: rad, quadrant: q, signOf: x)
    }

    /// Rounds an angle in degrees so that tiny values are coarsened to multiples of 2⁻⁵⁷
    /// (Karney's `AngRound`): `|x| < 1/16` becomes `1/16 − (1/16 − |x|)`. Used to treat points
    /// within ~1e-17° of the equator or of the same meridian as exactly on it, which keeps
    /// the geodesic's special cases from being missed because of round-off.
    @inlinable
    public static func round(_ x: Double) -> Double {
        let z = 1.0 / 16.0
        var y = Swift.abs(x)
        let w = z - y
        // (z − (z − y)) is not y in floating point: that is the point of this function.
        y = w > 0 ? z - w : y
        return x.sign == .minus ? -y : y
    }

    /// `atan2(y, x)` in degrees, in `(-180, 180]`, exact at multiples of 45° (Karney's atan2d).
    @inlinable
    public static func atan2Degrees(_ y: Double, _ x: Double) -> Double {
        var y = y, x = x
        var q = 0
        if Swift.abs(y) > Swift.abs(x) { swap(&x, &y); q = 2 }
        if x.sign == .minus { x = -x; q += 1 }
        // Here x >= 0 and |y| <= x, so atan2 is in [-45°, 45°].
        var ang = Foundation.atan2(y, x) * degreesPerRadian
        switch q {
        case 1: ang = (y.sign == .minus ? -180.0 : 180.0) - ang
        case 2: ang = 90 - ang
        case 3: ang = -90 + ang
        default: break
        }
        return ang
    }

    /// Longitude reduced to `[-180, 180]`; the sign of ±180 is kept, so the antimeridian is
    /// not moved across the date line.
    @inlinable
    public static func normalizeLongitude(_ x: Double) -> Double {
        let y = x.truncatingRemainder(dividingBy: 360) // exact
        let z = Swift.abs(y) < 180 ? y : (y - (y.sign == .minus ? -360 : 360))
        // Keep ±180 as given when input was an odd multiple of 180.
        if Swift.abs(z) == 180 { return x.sign == .minus ? -180 : 180 }
        return z
    }

    /// Heading or azimuth normalized to `[0, 360)` degrees clockwise from true north.
    @inlinable
    public static func normalizeHeading(_ x: Double) -> Double {
        var y = x.truncatingRemainder(dividingBy: 360)
        if y < 0 { y += 360 }
        // y + 360 can round up to exactly 360 for tiny negative y.
        return y >= 360 ? 0 : y + 0
    }

    /// Wrap-safe difference `b − a` of two angles in degrees, in `(-180, 180]`.
    ///
    /// Computed with an error-free sum (Knuth's TwoSum) so that the difference of nearly equal
    /// angles near ±180° keeps full precision (Karney's AngDiff).
    /// - Returns: the difference and the rounding error `e` such that the exact difference is
    ///   `d + e`.
    @inlinable
    public static func difference(from a: Double, to b: Double) -> Double {
        exactDifference(from: a, to: b).difference
    }

    /// As ``difference(from:to:)``, also returning the rounding error `e` of the result:
    /// the exact difference is `difference + error` (Karney's `AngDiff`).
    @inlinable
    public static func exactDifference(from x: Double, to y: Double) -> (difference: Double, error: Double) {
        var (d, e) = directedExactDifference(from: x, to: y)
        // Report (-180, 180]: an exact −180 is the same direction as +180.
        if d == -180 && e == 0 { d = 180 }
        return (d, e)
    }

    /// As ``exactDifference(from:to:)`` but in `[−180, 180]`: an exact ±180° (or ±0) keeps the
    /// sign of `y − x`, i.e. of the direction travelled (Karney's `AngDiff`; the geodesic inverse
    /// uses the sign to pick east- or west-going geodesics across the antimeridian).
    @inlinable
    public static func directedExactDifference(from x: Double, to y: Double) -> (difference: Double, error: Double) {
        let (d0, t0) = twoSum(Foundation.remainder(-x, 360), Foundation.remainder(y, 360))
        var (d, e) = twoSum(Foundation.remainder(d0, 360), t0)
        if d == 0 || Swift.abs(d) == 180 {
            // The sign of an exact 0 or 180 comes from the residual (or from y − x).
            let signSource = e == 0 ? y - x : -e
            d = signSource.sign == .minus ? -d.magnitude : d.magnitude
        }
        return (d, e)
    }

    /// Knuth's error-free sum: `s = fl(u + v)`, `t` the exact rounding error.
    @inlinable
    public static func twoSum(_ u: Double, _ v: Double) -> (sum: Double, error: Double) {
        let s = u + v
        var up = s - v
        var vpp = s - up
        up -= u
        vpp -= v
        let t = s != 0 ? 0.0 - (up + vpp) : s
        return (s, t)
    }
}
