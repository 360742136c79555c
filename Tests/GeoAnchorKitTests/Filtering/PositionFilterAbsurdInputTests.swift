import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitSimulation
import GeoAnchorKitTestSupport

/// Absurd-but-finite inputs on the shipped city walk (`TraceSimulator` cityWalk, seed 2,
/// 1606 fixes): the filter must not make its input much worse, and must never lock up.
@Suite("Position filter: absurd but finite inputs")
struct PositionFilterAbsurdInputTests {
    static let walk = try! TraceSimulator(config: .cityWalk, seed: 2).run()

    /// Heights (and vertical accuracies) of a track, filtered then smoothed.
    static func heights(_ t: PositionTrack) -> [(h: Double?, v: Double?)] {
        (t.filtered + (t.smoothed ?? [])).map { ($0.height, $0.verticalAccuracy) }
    }

    /// A height no walk has, or a σ of its height beyond 100 km, is not used: the fix's
    /// horizontal part still is (counted `heightGated`). Before: a first fix with height 1e20 left
    /// the output height at 1e20 for 1514 of 1606 fixes (smoothed: all 1606); verticalAccuracy
    /// 1e200 made every output verticalAccuracy infinite. Reference: the same filter on the same
    /// fixes with that fix's height removed (nil); tolerance 1e-9 m on every filtered and smoothed
    /// height and vertical accuracy (the same arithmetic, so equal).
    @Test("an unusable height on the first fix or after a gap is dropped, the fix's position kept",
          arguments: ["height 1e20", "height 1e300", "height -2e5", "verticalAccuracy 1e200", "vdop 1e200"],
                     ["adaptive", "walking"])
    func unusableHeightIsDropped(_ damage: String, _ preset: String) {
        let configuration: PositionFilter.Configuration = preset == "walking" ? .walking : .adaptive
        var base = Self.walk.raw
        // A 60 s gap before fix 800 (maximumGap is 30 s): the filter re-initializes on fix 800.
        let gapEnd = 800
        let shift = 60 - (base[gapEnd].time - base[gapEnd - 1].time)
        for i in gapEnd..<base.count { base[i].time += shift }
        var damaged = base, reference = base
        for i in [0, gapEnd] {
            switch damage {
            case "height 1e20": damaged[i].height = 1e20
            case "height 1e300": damaged[i].height = 1e300
            case "height -2e5": damaged[i].height = -2e5
            case "verticalAccuracy 1e200": damaged[i].verticalAccuracy = 1e200
            default: damaged[i].verticalAccuracy = nil; damaged[i].vdop = 1e200
            }
            reference[i].height = nil
        }
        let a = PositionFilter.track(damaged, configuration: configuration, smooth: true)
        let b = PositionFilter.track(reference, configuration: configuration, smooth: true)
        #expect(a.statistics.gapReinitializations == 1)
        #expect(a.statistics.heightGated == b.statistics.heightGated + 2, "the two dropped heights are counted")
        #expect(a.filtered.count == base.count && b.filtered.count == base.count)
        let ha = Self.heights(a), hb = Self.heights(b)
        var far = 0
        for (x, y) in zip(ha, hb) {
            guard let hx = x.h, let hy = y.h, let vx = x.v, let vy = y.v else {
                if (x.h == nil) != (y.h == nil) { far += 1 }
                continue
            }
            if !(abs(hx - hy) <= 1e-9 && abs(vx - vy) <= 1e-9 && vx.isFinite) { far += 1 }
        }
        #expect(far == 0, "\(far) of \(ha.count) heights differ from the reference")
        // The horizontal track is the reference's (the position of the damaged fix was used).
        for (x, y) in zip(a.filtered, b.filtered) { #expect(x.latitude == y.latitude && x.longitude == y.longitude) }
    }

    /// A time beyond the years 0001…9999 (1e300 s; year 10000) is an invalid value, refused and
    /// named like any other (``Fix/unusablePositionValue``, shared with ``TourSession``): before,
    /// a fix at 1e300 s became the filter's time and all 1053 later fixes were refused as going
    /// backwards. Reference: the run without that fix; tolerance: identical estimates.
    @Test("a time outside the years 0001…9999 is refused as invalid", arguments: [1e300, Fix.latestTime + 1, Fix.earliestTime - 1])
    func timeOutOfRangeIsInvalid(_ time: Double) throws {
        let raw = Array(Self.walk.raw.prefix(600))
        var fixes = raw
        fixes[300].time = time
        var f = PositionFilter()
        let seen = RefusalLog()
        f.onRefusal = { seen.append($0) }
        let out = fixes.compactMap { f.process($0) }
        var clean = raw
        clean.remove(at: 300)
        let ref = PositionFilter.track(clean).filtered
        #expect(f.statistics.invalid == 1 && f.statistics.outOfOrder == 0)
        #expect(seen.items == [InputRefusal(reason: .invalidValue, time: time,
                                            error: .outOfRange(name: "time", value: time, allowed: .closed(Fix.earliestTime, Fix.latestTime, unit: "s")))])
        #expect(out.map(\.fix) == ref.map(\.fix))   // (the estimates' d² is NaN at initialization: compare the fixes)
        // Through step(_:) too (a local measurement with the same time).
        var g = PositionFilter()
        _ = g.step(LocalMeasurement(time: 0, east: 0, north: 0, horizontalSigma: 3))
        #expect(g.step(LocalMeasurement(time: time, east: 0, north: 0, horizontalSigma: 3)) == nil)
        #expect(g.lastRefusal?.reason == .invalidValue && g.statistics.invalid == 1)
        #expect(g.step(LocalMeasurement(time: 1, east: 0, north: 0, horizontalSigma: 3)) != nil)
    }
}
