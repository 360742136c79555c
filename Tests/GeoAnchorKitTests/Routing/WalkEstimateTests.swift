import Foundation
import Testing
@testable import GeoAnchorKit

@Suite("Routing: walk estimate")
struct WalkEstimateTests {
    /// Reference: hand arithmetic on legs of 100 s each — start dwell 30 s, stop 1 dwell 60 s,
    /// stop 2 opens at 400 s (the visitor waits). Exact.
    @Test func arrivalsUseTheLibrarysTimeConvention() {
        let e = WalkEstimate(nodes: [0, 1, 2], leg: { _, _ in (distance: 130, duration: 100, ascent: 0, descent: 0) },
                             label: { "s\($0)" }, dwell: { [30, 60, 0][$0] },
                             window: { $0 == 2 ? 400...900 : nil })
        #expect(e.legs.map(\.arrival) == [130, 290])
        #expect(e.waitingTime == 110 && e.dwellTime == 90 && e.duration == 400)
        // Seconds since 1970 in, seconds since 1970 out (like Fix.time); a Date converts exactly.
        let start = Date(timeIntervalSince1970: 1_750_000_000)
        let etas = e.arrivals(startingAt: start.timeIntervalSince1970)
        #expect(etas.map(\.stop) == ["s1", "s2"])
        #expect(etas.map(\.eta) == [1_750_000_130, 1_750_000_290])
        #expect(Date(timeIntervalSince1970: etas[1].eta) == start.addingTimeInterval(290))
    }
}
