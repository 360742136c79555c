import Foundation
import GeoAnchorKit

/// The raw compass against a ``HeadingFilter`` fed with it and a gyro, on a simulated walk with
/// ground truth — the measurement behind the heading filter's report lines and tests.
///
/// The gyro is the AR tracking's yaw rate (``GeoRegistrationSimulator/Output/tracking``, 10 Hz:
/// its drift and noise are a phone gyro's after the visual-inertial odometry), the compass the
/// simulator's (2 Hz, bias, slow error, disturbance episodes, stated accuracy). The filter is
/// scored at every tracking sample once the walker has gone 20 m (its first reading is a raw
/// compass heading); the raw compass at each of its readings.
public struct HeadingFilterComparison: Sendable {
    /// |error| of each raw compass reading, degrees.
    public var rawErrors: [Double] = []
    /// Raw readings within their own stated 68 % half-width (`headingAccuracy`).
    public var rawWithinAccuracy = 0
    /// |error| of the filter's heading at each scored tracking sample, degrees.
    public var filteredErrors: [Double] = []
    /// Scored samples within the filter's ``HeadingFilter/Estimate/accuracy68``.
    public var filteredWithinAccuracy = 0
    /// Scored samples within 2 ``HeadingFilter/Estimate/sigma``.
    public var filteredWithinTwoSigma = 0
    /// What the filters did (summed over the walks added).
    public var gated = 0, applied = 0

    public init() {}

    /// Share of raw readings within their stated accuracy (nil before any).
    public var rawHonesty: Double? { rawErrors.isEmpty ? nil : Double(rawWithinAccuracy) / Double(rawErrors.count) }
    /// Share of scored filter estimates within their 68 % half-width (nil before any).
    public var filteredHonesty: Double? { filteredErrors.isEmpty ? nil : Double(filteredWithinAccuracy) / Double(filteredErrors.count) }
    /// Share of scored filter estimates within 2σ (nil before any).
    public var filteredTwoSigma: Double? { filteredErrors.isEmpty ? nil : Double(filteredWithinTwoSigma) / Double(filteredErrors.count) }
    /// Statistics (p50, p95, … in degrees) of the raw compass's and the filter's |errors|.
    public var rawStatistics: ErrorStatistics { ErrorStatistics(rawErrors) }
    public var filteredStatistics: ErrorStatistics { ErrorStatistics(filteredErrors) }

    /// Runs a ``HeadingFilter`` with `configuration` over one simulated walk's streams and adds its
    /// errors. `streams` must come from ``GeoRegistrationSimulator/run(truth:)``.
    public mutating func add(_ streams: GeoRegistrationSimulator.Output, configuration: HeadingFilter.Configuration = .init()) {
        let tracking = streams.tracking, compass = streams.compass
        guard tracking.count > 1 else { return }
        var filter = HeadingFilter(configuration: configuration)
        var next = 0
        for i in 1..<tracking.count {
            let dt = tracking[i].time - tracking[i - 1].time
            guard dt > 0 else { continue }
            let rate = Angle.difference(from: tracking[i - 1].yaw, to: tracking[i].yaw) / dt
            // Readings up to this sample, each at its own time (truth: this sample's heading,
            // 0.1 s away at most).
            while next < compass.count && compass[next].time <= tracking[i].time {
                let c = compass[next]
                next += 1
                _ = filter.predict(to: c.time, headingRate: rate)
                switch filter.update(heading: c.heading, accuracy: c.headingAccuracy, time: c.time) {
                case .applied, .initialized: applied += 1
                case .gated: gated += 1
                case .refused: break
                }
                let e = Swift.abs(Angle.difference(from: streams.trueHeadings[i], to: c.heading))
                rawErrors.append(e)
                if e <= c.headingAccuracy { rawWithinAccuracy += 1 }
            }
            _ = filter.predict(to: tracking[i].time, headingRate: rate)
            guard streams.walked[i] > 20, let estimate = filter.estimate else { continue }
            let e = Swift.abs(Angle.difference(from: streams.trueHeadings[i], to: estimate.heading))
            filteredErrors.append(e)
            if e <= estimate.accuracy68 { filteredWithinAccuracy += 1 }
            if e <= 2 * estimate.sigma { filteredWithinTwoSigma += 1 }
        }
    }
}
