import Testing
@testable import GeoAnchorKit

@Suite struct ValueRangeTests {
    @Test func containsHonoursOpenAndClosedEnds() {
        #expect(ValueRange.atLeast(0).contains(0))
        #expect(!ValueRange.greaterThan(0).contains(0))
        #expect(ValueRange.greaterThan(0).contains(.leastNonzeroMagnitude))
        #expect(ValueRange.closed(-90, 90).contains(90) && !ValueRange.closed(-90, 90).contains(90.000001))
        #expect(ValueRange(lower: .unbounded, upper: .exclusive(1)).contains(-1e300))
        #expect(!ValueRange(lower: .unbounded, upper: .exclusive(1)).contains(1))
        #expect(!ValueRange.atLeast(0).contains(.nan))
        #expect(ValueRange.exactly(12).contains(12) && !ValueRange.exactly(12).contains(13))
    }

    /// `check` (the configurations' validation): a non-finite value is `nonFinite` even for an
    /// unbounded range, an out-of-range one `outOfRange` with the range itself.
    @Test func checkNamesTheValue() throws {
        try ValueRange.atLeast(0).check(0, name: "w")
        #expect(throws: GeoAnchorError.nonFinite(name: "w", value: .infinity)) { try ValueRange.atLeast(0).check(.infinity, name: "w") }
        #expect(throws: GeoAnchorError.self) { try ValueRange.atLeast(0).check(.nan, name: "w") }
        #expect(throws: GeoAnchorError.outOfRange(name: "w", value: -1, allowed: .atLeast(0, unit: "s"))) {
            try ValueRange.atLeast(0, unit: "s").check(-1, name: "w")
        }
        // unbounded(): a finiteness check only (the extremes pass, ±∞ and NaN do not).
        try ValueRange.unbounded().check(-1e308, name: "w")
        try ValueRange.unbounded().check(.greatestFiniteMagnitude, name: "w")
        #expect(throws: GeoAnchorError.nonFinite(name: "w", value: -.infinity)) { try ValueRange.unbounded().check(-.infinity, name: "w") }
        #expect(ValueRange.unbounded(unit: "m").description == "(-∞, ∞) m")
    }

    @Test func descriptionIsIntervalNotation() {
        #expect(ValueRange.atLeast(0, unit: "m").description == "[0, ∞) m")
        #expect(ValueRange.greaterThan(0).description == "(0, ∞)")
        #expect(ValueRange(lower: .exclusive(0), upper: .inclusive(0.5)).description == "(0, 0.5]")
        #expect(ValueRange.exactly(12).description == "= 12")
        #expect(ValueRange(lower: .unbounded, upper: .exclusive(1)).description == "(-∞, 1)")
    }

    @Test func errorsCarryTheBoundAsNumbers() throws {
        // A path needs a positive cross-track σ: the bound comes back typed.
        let p = [GeodeticCoordinate(latitude: 50, longitude: 14, ellipsoidalHeight: 0),
                 GeodeticCoordinate(latitude: 50.001, longitude: 14, ellipsoidalHeight: 0)]
        do {
            _ = try PathConstraint(lines: [p], crossTrackSigma: -2)
            Issue.record("accepted a negative σ")
        } catch {
            guard case .outOfRange(let name, let value, let allowed) = error else { Issue.record("\(error)"); return }
            #expect(name == "crossTrackSigma" && value == -2)
            #expect(allowed.lower == .exclusive(0) && allowed.upper == .unbounded && allowed.unit == "m")
            #expect(error.description == "crossTrackSigma -2.0 is outside (0, ∞) m")
        }
    }
}
