import Foundation
import GeoAnchorKit

/// Raw, filtered and smoothed accuracy of one trace against a reference track — the
/// measurement behind the filter's acceptance tests and `geobench report`.
public struct FilterAccuracyComparison: Sendable {
    /// The raw fixes against the reference.
    public var raw: TrackAccuracy
    /// The causal ``PositionFilter``'s estimates.
    public var filtered: TrackAccuracy
    /// The RTS-smoothed estimates.
    public var smoothed: TrackAccuracy
    /// What the filter did.
    public var statistics: PositionFilterStatistics

    /// Filters and smooths `fixes` with `configuration` and evaluates all three against
    /// `reference` with ``TrackAccuracy/evaluate(trace:reference:options:geoid:)``; with a `path`,
    /// filter and smoother are the path-aided ones (``PathConstraint``).
    public static func evaluate(fixes: [Fix], reference: ReferenceTrack,
                                configuration: PositionFilter.Configuration, path: PathConstraint? = nil,
                                options: TrackAccuracy.Configuration = TrackAccuracy.Configuration()) -> FilterAccuracyComparison {
        let track = PositionFilter.track(fixes, configuration: configuration, smooth: true, path: path)
        func inputs(_ es: [FilteredFix]) -> [Fix] { zip(es, track.inputIndices).map { $0.fix(replacing: fixes[$1]) } }
        return FilterAccuracyComparison(
            raw: TrackAccuracy.evaluate(trace: fixes, reference: reference, options: options),
            filtered: TrackAccuracy.evaluate(trace: inputs(track.filtered), reference: reference, options: options),
            smoothed: TrackAccuracy.evaluate(trace: inputs(track.smoothed ?? []), reference: reference, options: options),
            statistics: track.statistics)
    }

    /// Loads a phone trace and its reference (any ``TraceFormat``). A reference that never states
    /// a date (the GSDC 2020 SPAN NMEA files) takes the trace's UTC day; its invalid lines (the
    /// SPAN files' RMC checksums are wrong) are skipped.
    public static func loadPair(trace: URL, reference: URL) throws -> (fixes: [Fix], reference: ReferenceTrack) {
        let fixes = try TraceReader.load(url: trace).fixes
        let day = ((fixes.first?.time ?? 0) / 86_400).rounded(.down) * 86_400
        let ref = try TraceReader.load(url: reference, options: TraceReadConfiguration(skipInvalid: true, defaultDate: day)).fixes
        return (fixes, ReferenceTrack(ref))
    }

    /// The configuration used for the GSDC 2020 chipset traces: driving, UERE 2 m. The chipset
    /// NMEA positions are already Kalman-filtered by the phone and report a constant HDOP of
    /// 0.38, so HDOP × 2 m / √2 ≈ 0.54 m per axis keeps the second filter from adding lag.
    public static var gsdcConfiguration: PositionFilter.Configuration {
        var c = PositionFilter.Configuration.driving
        c.userEquivalentRangeError = 2
        return c
    }
}
