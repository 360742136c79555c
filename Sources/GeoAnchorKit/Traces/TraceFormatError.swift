import Foundation

/// A problem in a trace file: which file, which line (1-based, when known) and what is wrong,
/// naming the offending value. Prints as `FILE:LINE: message`.
public struct TraceFormatError: Error, Sendable, Hashable, CustomStringConvertible {
    /// File path or a name such as `<stdin>`.
    public var source: String
    /// 1-based line number, nil when the problem is not tied to a line (e.g. an empty file).
    public var line: Int?
    /// What is wrong, naming the value.
    public var message: String
    /// True when the only problem is that an NMEA file never states a date (callers may retry
    /// with ``TraceReadConfiguration/defaultDate``).
    public var isMissingDate: Bool

    public init(source: String, line: Int?, message: String, isMissingDate: Bool = false) {
        self.source = source; self.line = line; self.message = message; self.isMissingDate = isMissingDate
    }

    public var description: String {
        if let line { return "\(source):\(line): \(message)" }
        return "\(source): \(message)"
    }
}

/// Options shared by the trace readers.
public struct TraceReadConfiguration: Sendable, Hashable {
    /// When true, an invalid line (bad checksum, unparsable value, out-of-range coordinate) is
    /// skipped and counted in ``TraceReadSummary/skippedLines`` instead of ending the read with a
    /// ``TraceFormatError``. Structural errors (unreadable or empty file, missing CSV columns,
    /// malformed XML) still throw.
    public var skipInvalid: Bool
    /// NMEA: reject sentences without a `*hh` checksum (NMEA 0183 makes it optional for some
    /// talkers; default false — sentences without one are accepted, bad ones always rejected).
    public var requireChecksum: Bool
    /// NMEA: UTC day (seconds since 1970 at 00:00 of that day) to use when a file never states a
    /// date (no RMC/ZDA, no GnssLogger wrapper time). nil: such files are an error. Within
    /// ``Fix/earliestTime``…``Fix/latestTime`` (``validate()``).
    public var defaultDate: Double?
    /// GnssLogger logs and GPSLogger CSV logs: which location provider's fixes (`Fix` records,
    /// rows by their `provider`) become fixes (default `.gps`, the chipset's own fix). Ignored
    /// by the other formats.
    public var provider: GnssLoggerProvider

    public init(skipInvalid: Bool = false, requireChecksum: Bool = false, defaultDate: Double? = nil,
                provider: GnssLoggerProvider = .gps) {
        self.skipInvalid = skipInvalid; self.requireChecksum = requireChecksum; self.defaultDate = defaultDate
        self.provider = provider
    }

    /// The values ``defaultDate`` accepts: ``Fix/earliestTime``…``Fix/latestTime`` (years
    /// 0001–9999), the times a fix may carry. Before this check a NaN or 1e300 date trapped the
    /// NMEA reader converting it to a day number.
    public static let defaultDateRange = ValueRange.closed(Fix.earliestTime, Fix.latestTime, unit: "s")

    /// Checks ``defaultDate`` (when set) against ``defaultDateRange``; the other options are
    /// flags and a provider, any value of which is valid. Every reader taking these options
    /// refuses an invalid one first, as a ``TraceFormatError`` for the source naming the option
    /// (`FILE: options: defaultDate … is outside …`).
    /// - Throws: ``GeoAnchorError/nonFinite(name:value:)`` or
    ///   ``GeoAnchorError/outOfRange(name:value:allowed:)`` naming the value.
    public func validate() throws(GeoAnchorError) {
        if let d = defaultDate { try Self.defaultDateRange.check(d, name: "defaultDate") }
    }

    /// ``validate()`` as the readers' error about `source`.
    func check(source: String) throws(TraceFormatError) {
        do { try validate() } catch { throw TraceFormatError(source: source, line: nil, message: "options: \(error)") }
    }
}

/// What a reader did besides producing fixes.
public struct TraceReadSummary: Sendable, Hashable {
    /// Lines read (including blank lines and comments).
    public var lines = 0
    /// Fixes delivered.
    public var fixes = 0
    /// Sensor samples delivered (CSV sensor streams).
    public var sensorSamples = 0
    /// Records understood but not producing a fix (no-fix epochs, unsupported NMEA sentence types).
    public var ignoredRecords = 0
    /// GPX and GeoJSON: positions that are not fixes because they have no time — a planned
    /// track, a route, an export that dropped its timestamps. (Each untimed GPX point is also one
    /// of ``ignoredRecords``; an untimed GeoJSON LineString is one ignored record and all its
    /// positions here.) Not counted when the caller takes untimed points
    /// (``GPXReader/read(url:options:onFix:onUntimedPoint:onWaypoint:)``).
    public var untimedPoints = 0
    /// GnssLogger and GPSLogger CSV: valid fixes of providers not selected by ``TraceReadConfiguration/provider``.
    public var otherProviderFixes = 0
    /// GnssLogger: `Raw` GNSS measurement records (checked and counted, not turned into fixes).
    public var rawMeasurements = 0
    /// GPX: track segments read (`trkseg`; a new segment may follow a gap in recording).
    public var segments = 0
    /// GPX: waypoints (`wpt`) read; they are points of interest, never fixes of the trace.
    public var waypoints = 0
    /// Invalid lines skipped (only with ``TraceReadConfiguration/skipInvalid``).
    public var skippedLines = 0
    /// The first few skip reasons, for diagnostics (at most 10).
    public var firstSkipped: [TraceFormatError] = []

    public init() {}

    /// Adds another read's counts (the documents of one KMZ).
    mutating func add(_ o: TraceReadSummary) {
        lines += o.lines; fixes += o.fixes; sensorSamples += o.sensorSamples; ignoredRecords += o.ignoredRecords
        untimedPoints += o.untimedPoints; otherProviderFixes += o.otherProviderFixes; rawMeasurements += o.rawMeasurements
        segments += o.segments; waypoints += o.waypoints; skippedLines += o.skippedLines
        firstSkipped += o.firstSkipped.prefix(Swift.max(0, 10 - firstSkipped.count))
    }

    mutating func skip(_ e: TraceFormatError) {
        skippedLines += 1
        if firstSkipped.count < 10 { firstSkipped.append(e) }
    }
}
