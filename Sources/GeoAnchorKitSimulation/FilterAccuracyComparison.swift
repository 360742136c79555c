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

    /// The GSDC 2020 drives in `../shared/data` (`gnss_traces/gsdc2020_AILocAR/<drive>/`): each
    /// phone's chipset NMEA (`<phone>_chipset.nmea`, 1 Hz) and the NovAtel SPAN reference beside it
    /// (`SPAN_<phone>_10Hz.nmea`).
    public static let gsdc2020Drives: [(drive: String, phone: String)] = [
        ("2020-05-14-US-MTV-1", "Pixel4"), ("2020-05-14-US-MTV-1", "Pixel4XLModded"),
        ("2020-06-05-US-MTV-2", "Pixel4"), ("2020-06-05-US-MTV-2", "Pixel4XL")]

    /// The chipset trace and SPAN reference of one of ``gsdc2020Drives`` under `sharedData`
    /// (the `../shared/data` folder); nil when either file is missing.
    public static func gsdc2020Files(_ sharedData: URL, drive: String, phone: String) -> (trace: URL, reference: URL)? {
        let dir = sharedData.appendingPathComponent("gnss_traces/gsdc2020_AILocAR/\(drive)")
        let trace = dir.appendingPathComponent("\(phone)_chipset.nmea"), ref = dir.appendingPathComponent("SPAN_\(phone)_10Hz.nmea")
        guard FileManager.default.fileExists(atPath: trace.path), FileManager.default.fileExists(atPath: ref.path) else { return nil }
        return (trace, ref)
    }

    /// Loads a phone trace and its reference (any ``TraceFormat``). A reference that never states
    /// a date (the GSDC 2020 SPAN NMEA files) takes the trace's UTC day; its invalid lines (the
    /// SPAN files' RMC checksums are wrong) are skipped.
    public static func loadPair(trace: URL, reference: URL) throws -> (fixes: [Fix], reference: ReferenceTrack) {
        let pair = try loadFixes(trace: trace, reference: reference)
        return (pair.fixes, ReferenceTrack(pair.reference))
    }

    /// ``loadPair(trace:reference:)`` with the reference's epochs as read (e.g. for
    /// ``GeoRegistrationSimulator/truth(fromReference:window:movingSpeed:stillSpeed:)``).
    public static func loadFixes(trace: URL, reference: URL) throws -> (fixes: [Fix], reference: [Fix]) {
        let fixes = try TraceReader.load(url: trace).fixes
        let day = ((fixes.first?.time ?? 0) / 86_400).rounded(.down) * 86_400
        let ref = try TraceReader.load(url: reference, options: TraceReadConfiguration(skipInvalid: true, defaultDate: day)).fixes
        return (fixes, ref)
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
