import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitSimulation

/// `ByteParsing.decimal` against Swift's own `Double(String)` (the reference; equality exact):
/// the fast path's correct rounding claim, and the Fortran `D` exponent of RINEX/SP3 fields
/// (read as the same text with `E`), including the long-mantissa and large-exponent fallback.
@Suite("Byte-level decimal parsing")
struct ByteParsingDecimalTests {
    func parse(_ s: String, fortran: Bool = false) -> Double? {
        var t = s
        return t.withUTF8 { ByteParsing.decimal($0, fortranExponent: fortran) }
    }

    @Test func equalsDoubleStringOnRandomFields() {
        var rng = SeededRandom(seed: 0xDEC1)
        for _ in 0..<20_000 {
            let mantissa = rng.uniform(-1, 1) * pow(10, Double(Int(rng.next() % 6)))
            let exponent = Int(rng.next() % 60) - 30
            let digits = 1 + Int(rng.next() % 17)
            let e = String(format: "%.\(digits)fE%+03d", mantissa, exponent)
            let reference = Double(e)
            #expect(parse(e) == reference, "\(e)")
            let d = e.replacingOccurrences(of: "E", with: "D")
            #expect(parse(d, fortran: true) == reference, "\(d)")
            #expect(parse(d) == nil, "\(d) without fortranExponent")
        }
    }

    @Test func fortranFieldsAsRinexWritesThem() {
        #expect(parse(" 0.515369399834D+04", fortran: true) == 0.515369399834e4)
        #expect(parse("-0.000000000000D+00", fortran: true) == -0.0)
        #expect(parse("   0.931322574616d-09", fortran: true) == 0.931322574616e-9)
        #expect(parse("0.1234567890123456789D+300", fortran: true) == Double("0.1234567890123456789E+300"))
        #expect(parse("   ", fortran: true) == nil)
        #expect(parse("0.5Q+04", fortran: true) == nil)
        #expect(parse("0.5D", fortran: true) == nil)
        #expect(parse("1D999", fortran: true) == nil) // not finite
    }
}
