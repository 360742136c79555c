import Foundation
import Testing
@testable import GeoAnchorKit

/// Configurations and counters an app saved as JSON before a setting or counter existed still
/// decode: the new key (`clockResetFixCount`, `clockResets`, added with the clock-reset rule;
/// `trackingInterruptions`, with the tracking-gap rule; `correlatedErrorShare`, with the position
/// filter's reported-accuracy floor)
/// takes its default, every other key stays required. Reference: the value itself — encode it,
/// remove the new key, decode, and the result must equal the value with that key at its default
/// (exact equality; no tolerance, nothing is computed).
@Suite("Saved JSON compatibility")
struct SavedJSONCompatibilityTests {
    /// Encodes `value`, removes `key` (which must be present with `expected`), decodes.
    static func decodeWithout<T: Codable>(_ key: String, expected: Int, from value: T) throws -> T {
        var json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any])
        #expect(json.removeValue(forKey: key) as? Int == expected)
        return try JSONDecoder().decode(T.self, from: JSONSerialization.data(withJSONObject: json))
    }

    /// Encodes `value`, removes `key`, and expects decoding to fail (the key is required).
    static func expectRequired<T: Codable>(_ key: String, in value: T) throws {
        var json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(value)) as? [String: Any])
        #expect(json.removeValue(forKey: key) != nil)
        let data = try JSONSerialization.data(withJSONObject: json)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(T.self, from: data) }
    }

    @Test func positionFilterConfiguration() throws {
        for preset in [PositionFilter.Configuration.adaptive, .walking, .driving, PositionFilter.Configuration()] {
            var saved = preset
            saved.clockResetFixCount = 9
            #expect(try JSONDecoder().decode(PositionFilter.Configuration.self, from: JSONEncoder().encode(saved)) == saved)
            var expected = preset
            expected.clockResetFixCount = 5
            #expect(try Self.decodeWithout("clockResetFixCount", expected: 9, from: saved) == expected)
        }
        try Self.expectRequired("gateProbability", in: PositionFilter.Configuration.adaptive)
        // correlatedErrorShare (added with the reported-accuracy floor): missing → 0.6.
        var saved = PositionFilter.Configuration.adaptive
        saved.correlatedErrorShare = 0.25
        var json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(saved)) as? [String: Any])
        #expect(json.removeValue(forKey: "correlatedErrorShare") as? Double == 0.25)
        let decoded = try JSONDecoder().decode(PositionFilter.Configuration.self, from: JSONSerialization.data(withJSONObject: json))
        #expect(decoded == PositionFilter.Configuration.adaptive && decoded.correlatedErrorShare == 0.6)
    }

    @Test func positionFilterStatistics() throws {
        var s = PositionFilterStatistics()
        s.fixes = 120; s.accepted = 110; s.gated = 7; s.clockResets = 2; s.outOfOrder = 3
        s.sumMahalanobisSquared = 231.5; s.walkingSeconds = 98.25
        #expect(try JSONDecoder().decode(PositionFilterStatistics.self, from: JSONEncoder().encode(s)) == s)
        var expected = s
        expected.clockResets = 0
        #expect(try Self.decodeWithout("clockResets", expected: 2, from: s) == expected)
        try Self.expectRequired("accepted", in: s)
    }

    @Test func headingFilterStatistics() throws {
        var s = HeadingFilter.Statistics()
        s.compassApplied = 40; s.compassGated = 4; s.disturbed = 1; s.clockResets = 1
        #expect(try JSONDecoder().decode(HeadingFilter.Statistics.self, from: JSONEncoder().encode(s)) == s)
        var expected = s
        expected.clockResets = 0
        #expect(try Self.decodeWithout("clockResets", expected: 1, from: s) == expected)
        try Self.expectRequired("compassGated", in: s)
    }

    @Test func geoRegistrationSummary() throws {
        var s = GeoRegistrationSummary()
        s.trackingSamples = 3000; s.fixesUsed = 280; s.compassGated = 12; s.clockResets = 3
        s.maximumFixAccuracyScale = 1.25
        #expect(try JSONDecoder().decode(GeoRegistrationSummary.self, from: JSONEncoder().encode(s)) == s)
        var expected = s
        expected.clockResets = 0
        #expect(try Self.decodeWithout("clockResets", expected: 3, from: s) == expected)
        // `trackingInterruptions` (added with the tracking-gap rule) likewise.
        var interrupted = s
        interrupted.trackingInterruptions = 2
        var expectedInterruptions = interrupted
        expectedInterruptions.trackingInterruptions = 0
        #expect(try Self.decodeWithout("trackingInterruptions", expected: 2, from: interrupted) == expectedInterruptions)
        // `trackingNoiseRaisedAt` (added with the tracking quality check): absent is nil, and a
        // time round-trips.
        var raised = s
        raised.trackingNoiseRaisedAt = 1_700_000_116.5
        #expect(try JSONDecoder().decode(GeoRegistrationSummary.self, from: JSONEncoder().encode(raised)) == raised)
        var json = try #require(try JSONSerialization.jsonObject(with: JSONEncoder().encode(raised)) as? [String: Any])
        #expect(json.removeValue(forKey: "trackingNoiseRaisedAt") as? Double == 1_700_000_116.5)
        #expect(try JSONDecoder().decode(GeoRegistrationSummary.self, from: JSONSerialization.data(withJSONObject: json)) == s)
        // `trackingDivergences` (added with the divergence check): absent is 0.
        var diverged = s
        diverged.trackingDivergences = 1
        var expectedDivergences = diverged
        expectedDivergences.trackingDivergences = 0
        #expect(try Self.decodeWithout("trackingDivergences", expected: 1, from: diverged) == expectedDivergences)
        try Self.expectRequired("fixesUsed", in: s)
    }
}
