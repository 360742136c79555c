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

    /// Horizontal errors (m) of estimates against the simulator's truth at the same time (meters
    /// on a 6371 km sphere: far finer than the tolerances below need).
    static func errors(_ es: [FilteredFix]) -> [Double] {
        let truth = Dictionary(Self.walk.truth.map { ($0.time, $0) }, uniquingKeysWith: { a, _ in a })
        let k = 6_371_000 * Double.pi / 180
        return es.map { e in
            let t = truth[e.time]!
            return hypot((e.latitude - t.latitude) * k, (e.longitude - t.longitude) * k * cos(t.latitude * Double.pi / 180))
        }
    }

    /// A wrong clock (one fix dated 1e6 s ahead: a corrupted NMEA date, a week-rollover bug; or the
    /// receiver's clock jumping back an hour) no longer locks the filter out: after
    /// `clockResetFixCount` (5) fixes in a row going back in time, in order among themselves, it
    /// re-initializes on the 5th (status `.clockReset`, counted; the 4 before refused as out of
    /// order) and the smoother starts a new segment there. Before: 805 of the 806 later fixes were
    /// refused. Reference: the same filter on the walk without the damage (the future fix
    /// removed; the clock jump undone), compared on the 700 fixes from 60 s after the reset to
    /// the end; tolerance: filtered and smoothed RMSE within 5 % + 0.1 m of the reference's.
    @Test("a wrong clock is recovered from after 5 fixes going back in time",
          arguments: ["future fix", "clock jumps back"], ["adaptive", "walking"])
    func clockResetRecovers(_ damage: String, _ preset: String) throws {
        let configuration: PositionFilter.Configuration = preset == "walking" ? .walking : .adaptive
        let raw = Self.walk.raw
        var damaged = raw, reference = raw
        let jump = 3600.0
        if damage == "future fix" {
            damaged[800].time += 1e6
            reference.remove(at: 800)
        } else {
            for i in 801..<raw.count { damaged[i].time -= jump }
        }
        let a = PositionFilter.track(damaged, configuration: configuration, smooth: true)
        let b = PositionFilter.track(reference, configuration: configuration, smooth: true)
        #expect(a.statistics.clockResets == 1 && b.statistics.clockResets == 0)
        #expect(a.statistics.outOfOrder == 4)
        #expect(a.filtered.count == raw.count - 4)
        let reset = try #require(a.filteredLocal.firstIndex { $0.status == .clockReset })
        #expect(a.inputIndices[reset] == 805)
        // Compare from 60 s after the reset to the end (the undamaged times for the clock jump).
        func tail(_ es: [FilteredFix], shift: Double) -> [FilteredFix] {
            es.filter { $0.time > raw[805].time + 60 - shift }.map { var e = $0; e.time += shift; return e }
        }
        let shift = damage == "future fix" ? 0 : jump
        let fa = tail(Array(a.filtered[reset...]), shift: shift), fb = tail(b.filtered, shift: 0)
        let sa = tail(Array(a.smoothed![reset...]), shift: shift), sb = tail(b.smoothed!, shift: 0)
        #expect(fa.count == fb.count && sa.count == sb.count && fa.count > 700)
        let (rfa, rfb) = (rms(Self.errors(fa)), rms(Self.errors(fb)))
        let (rsa, rsb) = (rms(Self.errors(sa)), rms(Self.errors(sb)))
        print("clock reset \(damage) \(preset): filtered RMSE \(rfa) vs \(rfb) m, smoothed \(rsa) vs \(rsb) m")
        #expect(rfa <= 1.05 * rfb + 0.1, "filtered RMSE \(rfa) vs reference \(rfb)")
        #expect(rsa <= 1.05 * rsb + 0.1, "smoothed RMSE \(rsa) vs reference \(rsb)")
        #expect((a.smoothed ?? []).allSatisfy { $0.latitude.isFinite && $0.longitude.isFinite && ($0.height?.isFinite ?? true) })
        // Streaming gives the same estimates as the track.
        var f = PositionFilter(configuration: configuration)
        #expect(damaged.compactMap { f.process($0) }.map(\.fix) == a.filtered.map(\.fix))
        // 0 disables the reset: the filter then refuses the rest of the walk, as before.
        var off = configuration
        off.clockResetFixCount = 0
        let c = PositionFilter.track(damaged, configuration: off)
        #expect(c.statistics.clockResets == 0 && c.statistics.outOfOrder == raw.count - 801)
    }

    /// The smoother treats a clock reset as a segment boundary, in both of its passes and in the
    /// adaptive schedule's time windows (which assume times that only grow). References: the
    /// smoothed track of the fixes before the future fix (tolerance 1e-6 m: identical) and that of
    /// the fixes from the reset on (tolerance 1 m; measured ≤ 0.36 m, the causal mode
    /// probabilities carried over; without the second pass's restart the difference was 27 m on
    /// the city walk, without the windows' separation 17 m on the rides).
    @Test("the smoother does not smooth across a clock reset",
          arguments: [("city walk", 800), ("walk-ride-walk", 360), ("walk-ride-walk", 500), ("walk-ride-walk", 900)])
    func smootherSegmentsAtClockReset(_ trace: String, _ index: Int) throws {
        let raw = trace == "city walk" ? Self.walk.raw : TraceSimulator.walkRideWalk(seed: 1).raw
        var fixes = raw
        fixes[index].time += 1e6
        func meters(_ x: FilteredFix, _ y: FilteredFix) -> Double {
            let k = 6_371_000 * Double.pi / 180
            return hypot((x.latitude - y.latitude) * k, (x.longitude - y.longitude) * k * cos(x.latitude * Double.pi / 180))
        }
        for configuration in [PositionFilter.Configuration.adaptive, .walking] {
            let a = PositionFilter.track(fixes, configuration: configuration, smooth: true)
            let before = PositionFilter.track(Array(fixes[..<index]), configuration: configuration, smooth: true)
            let after = PositionFilter.track(Array(fixes[(index + 5)...]), configuration: configuration, smooth: true)
            let reset = try #require(a.filteredLocal.firstIndex { $0.status == .clockReset })
            #expect(reset == index + 1)
            let sa = try #require(a.smoothed), sb = try #require(before.smoothed), sc = try #require(after.smoothed)
            #expect(sa.count == index + 1 + sc.count)
            let d0 = zip(sa[..<index], sb).map(meters).max() ?? 0
            let d1 = zip(sa[reset...], sc).map(meters).max() ?? 0
            #expect(d0 <= 1e-6, "before the future fix: \(d0) m from the reference")
            #expect(d1 <= 1, "after the reset: \(d1) m from the reference")
        }
    }
}
