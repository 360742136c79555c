import Foundation

/// The result of filtering (and optionally smoothing) a recorded trace.
public struct PositionTrack: Sendable {
    /// One estimate per fix that produced one (refused fixes are counted in ``statistics``),
    /// in time order: the causal filter's output.
    public var filtered: [FilteredFix]
    /// The Rauch–Tung–Striebel smoothed estimates at the same times (nil unless requested).
    public var smoothed: [FilteredFix]?
    /// What the filter did.
    public var statistics: PositionFilterStatistics
}

extension PositionFilter {
    /// Filters a recorded trace, and with `smooth` also runs the Rauch–Tung–Striebel smoother
    /// over it (offline: every estimate then uses all fixes, before and after).
    ///
    /// Fixes are processed in the given order with the online filter's rules (out-of-order,
    /// duplicate and invalid fixes are refused and counted). The smoother runs backwards over
    /// each segment between (re-)initializations, per channel; gated fixes contribute only their
    /// prediction step, so an outlier the filter rejected does not reach the smoothed track.
    ///
    /// - Complexity: O(n) time; O(n) memory for the per-step channel states (~400 bytes a step).
    /// - Accuracy: the backward step matches FilterPy's `rts_smoother` to 1e-9 (test suite); on
    ///   the repository's simulated pedestrian traces the smoothed RMSE is ≥ 45 % below the
    ///   raw fixes' (test suite, `geobench report`).
    public static func track<S: Sequence>(_ fixes: S, configuration: Configuration = .walking,
                                          smooth: Bool = false) -> PositionTrack where S.Element == Fix {
        var f = PositionFilter(configuration: configuration)
        var records: [StepRecord] = []
        records.reserveCapacity(fixes.underestimatedCount)
        for fix in fixes {
            guard let m = f.measurement(from: fix), let r = f.stepRecording(m) else { continue }
            records.append(r)
        }
        let filtered = records.map { f.filteredFix($0.estimate) }
        guard smooth, !records.isEmpty else {
            return PositionTrack(filtered: filtered, smoothed: smooth ? [] : nil, statistics: f.statistics)
        }
        let n = records.count
        var se = [KalmanFilter2](repeating: KalmanFilter2(x: .zero, P: .zero), count: n)
        var sn = se, sh = se
        for k in stride(from: n - 1, through: 0, by: -1) {
            let rec = records[k]
            if k == n - 1 || records[k + 1].startsSegment {
                se[k] = rec.posterior.0; sn[k] = rec.posterior.1; sh[k] = rec.posterior.2
                continue
            }
            let next = records[k + 1]
            let F = ConstantVelocityModel.transition(dt: next.dt)
            se[k] = rec.posterior.0.smoothed(predicted: next.predicted.0, transition: F, next: se[k + 1])
            sn[k] = rec.posterior.1.smoothed(predicted: next.predicted.1, transition: F, next: sn[k + 1])
            if rec.hasHeight && next.hasHeight && !next.heightStartsSegment {
                sh[k] = rec.posterior.2.smoothed(predicted: next.predicted.2, transition: F, next: sh[k + 1])
            } else {
                sh[k] = rec.posterior.2
            }
        }
        var smoothed: [FilteredFix] = []
        smoothed.reserveCapacity(n)
        for k in 0..<n {
            var e = records[k].estimate
            e.east = se[k].x[0]; e.north = sn[k].x[0]
            e.velocityEast = se[k].x[1]; e.velocityNorth = sn[k].x[1]
            e.horizontalSigma = (0.5 * (se[k].P[0] + sn[k].P[0])).squareRoot()
            if records[k].hasHeight {
                e.height = sh[k].x[0]
                e.heightSigma = sh[k].P[0].squareRoot()
            }
            smoothed.append(f.filteredFix(e))
        }
        return PositionTrack(filtered: filtered, smoothed: smoothed, statistics: f.statistics)
    }
}
