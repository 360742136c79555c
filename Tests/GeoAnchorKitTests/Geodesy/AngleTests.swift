import Foundation
import Testing
@testable import GeoAnchorKit

@Suite("Angle helpers used by the geodesics")
struct AngleTests {
    /// Reference: exact values at multiples of 90° and C99 Annex F sign conventions (as
    /// GeographicLib 2's sincosd): sin of an exact zero carries the sign of x, cos is never −0.
    @Test func sincosExactAndSigned() {
        for (x, s, c) in [(0.0, 0.0, 1.0), (90, 1, 0), (180, 0, -1), (270, -1, 0), (-90, -1, 0), (720, 0, 1)] {
            let r = Angle.sincos(degrees: x)
            #expect(r.sin == s && r.cos == c, "\(x)")
        }
        #expect(Angle.sincos(degrees: -180).sin.sign == .minus)
        #expect(Angle.sincos(degrees: -360).sin.sign == .minus)
        #expect(Angle.sincos(degrees: 180).sin.sign == .plus)
        #expect(Angle.sincos(degrees: -0.0).sin.sign == .minus)
        #expect(Angle.sincos(degrees: 90).cos.sign == .plus)
        // NaN and ∞ give NaN (and must not trap).
        #expect(Angle.sincos(degrees: .nan).sin.isNaN && Angle.sincos(degrees: .infinity).cos.isNaN)
        #expect(Angle.sincos(degrees: .nan, error: 0).sin.isNaN)
    }

    /// Reference: Foundation sin/cos of the exact sum in radians, tolerance 2 ulp; the error term
    /// is added before rounding (sincos(x, t) ≈ sincos(x + t)).
    @Test func sincosWithError() {
        let x = 30.0, t = 1e-14
        let r = Angle.sincos(degrees: x, error: t)
        let exact = (x + t) * .pi / 180
        #expect(Swift.abs(r.sin - sin(exact)) <= 2 * r.sin.ulp)
        #expect(Swift.abs(r.cos - cos(exact)) <= 2 * r.cos.ulp)
        #expect(Angle.sincos(degrees: 180, error: 0) == Angle.sincos(degrees: 180))
        #expect(Angle.sincos(degrees: 90, error: 1e-20).cos == 0) // rounded onto the multiple of 90°
    }

    /// Reference: the definition of Karney's AngRound, 1/16 − (1/16 − |x|) for |x| < 1/16.
    @Test func roundTinyAngles() {
        #expect(Angle.round(1e-20) == 0)
        #expect(Angle.round(-1e-20).sign == .minus && Angle.round(-1e-20) == 0)
        #expect(Angle.round(0.01) == 1.0 / 16 - (1.0 / 16 - 0.01))
        #expect(Angle.round(45) == 45 && Angle.round(-120.5) == -120.5)
    }

    /// Reference: exact arithmetic — the difference of two longitudes is exact (difference +
    /// error), −180 is kept for west-going differences by the directed variant only.
    @Test func directedDifference() {
        #expect(Angle.directedExactDifference(from: 0, to: -180).difference == -180)
        #expect(Angle.exactDifference(from: 0, to: -180).difference == 180)
        #expect(Angle.directedExactDifference(from: 10, to: 190).difference == 180)
        let (d, e) = Angle.directedExactDifference(from: 179.9, to: -179.9)
        #expect(Swift.abs(d + e - 0.2) < 1e-13)
    }
}
