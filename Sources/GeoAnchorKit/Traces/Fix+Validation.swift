import Foundation

/// The one set of rules every trace reader applies to a decoded fix (and every writer can rely
/// on), so that what one reader rejects, every reader rejects, and what a writer writes, the
/// readers read back.
extension Fix {
    /// Earliest time a fix may carry: 0001-01-01T00:00:00Z (Unix seconds). ISO 8601 in GPX, CSV
    /// and GeoJSON needs a four-digit year.
    public static let earliestTime: Double = -62_135_596_800
    /// Latest time a fix may carry: 9999-12-31T23:59:59.999Z (Unix seconds).
    public static let latestTime: Double = 253_402_300_799.999
    /// Largest height magnitude (m) a streaming component (``PositionFilter``,
    /// ``GeoRegistration``, ``DevicePose``) uses: 100 km. Anything a phone is carried on is within
    /// about −500 m … +10 km ellipsoidal (airliners 13 km, balloons 40 km), and geoid separations
    /// are within ±110 m, so a height beyond ±100 km is a corrupted value; fed to the height
    /// channel it stays there (1e20 m on the first fix was the output height for 1514 of 1606
    /// fixes of a city walk; as ``GeoRegistration``'s frame origin it put the walk 1e14 m off).
    /// Such a fix is used horizontally only.
    public static let maximumUsableHeight = 100_000.0
    /// Largest satellite count accepted (no receiver tracks more; 4 constellations ≈ 130).
    public static let maximumSatellites = 1_000

    /// Whether a fix's values are inside their documented ranges: time within
    /// ``earliestTime``…``latestTime``; latitude in [−90, 90]; longitude in [−180, 180]; heights,
    /// geoid separation finite; accuracies, speed, DOPs finite and ≥ 0; course and heading
    /// finite; satellites in 0…``maximumSatellites``.
    /// - Returns: nil when valid, else a message naming the first offending field and value.
    public var validationProblem: String? {
        guard time.isFinite, time >= Self.earliestTime, time <= Self.latestTime else {
            return "time \(time) s is outside the years 0001…9999"
        }
        guard latitude.isFinite, Swift.abs(latitude) <= 90 else { return "latitude \(latitude) is outside [-90, 90]" }
        guard longitude.isFinite, Swift.abs(longitude) <= 180 else { return "longitude \(longitude) is outside [-180, 180]" }
        func finite(_ v: Double?, _ name: String) -> String? {
            if let v, !v.isFinite { return "\(name) \(v) is not a finite number" }
            return nil
        }
        func nonNegative(_ v: Double?, _ name: String) -> String? {
            if let v, !(v >= 0 && v.isFinite) { return v < 0 ? "\(name) \(v) is negative" : "\(name) \(v) is not a finite number" }
            return nil
        }
        if let p = finite(height, "height") ?? finite(geoidSeparation, "geoid separation") { return p }
        if let p = nonNegative(horizontalAccuracy, "horizontal accuracy") ?? nonNegative(verticalAccuracy, "vertical accuracy")
            ?? nonNegative(speed, "speed") ?? nonNegative(headingAccuracy, "heading accuracy") { return p }
        if let p = finite(course, "course") ?? finite(heading, "heading") { return p }
        if let p = nonNegative(hdop, "hdop") ?? nonNegative(vdop, "vdop") ?? nonNegative(pdop, "pdop") { return p }
        if let s = satellites, !(0...Self.maximumSatellites).contains(s) {
            return "satellites \(s) is outside 0…\(Self.maximumSatellites)"
        }
        return nil
    }

    /// The first value a streaming component (``PositionFilter``, ``TourSession``) cannot use as
    /// a position, nil when all are usable: a non-finite time or one outside
    /// ``earliestTime``…``latestTime`` (years 0001…9999), a latitude outside ±90°, a non-finite
    /// longitude, a negative horizontal accuracy or one beyond
    /// ``maximumUsableHorizontalAccuracy`` (100 km; infinity included). Laxer than
    /// ``validationProblem`` (which also bounds longitudes and every optional field for files): a
    /// live stream needs only these. (A time of 1e300 s once became a component's "current time"
    /// and every later fix was refused as going backwards.)
    var unusablePositionValue: GeoAnchorError? {
        if !Self.isUsableTime(time) { return Self.timeOutOfRange(time) }
        if !(latitude.isFinite && Swift.abs(latitude) <= 90) { return .invalidLatitude(latitude) }
        if !longitude.isFinite { return .invalidLongitude(longitude) }
        if let a = horizontalAccuracy, !(a >= 0 && a <= Self.maximumUsableHorizontalAccuracy) {
            return .outOfRange(name: "horizontalAccuracy", value: a, allowed: .closed(0, Self.maximumUsableHorizontalAccuracy, unit: "m"))
        }
        return nil
    }

    /// `accuracy` when it states something (finite and ≥ 0), else nil: CoreLocation's −1
    /// ("invalid"), a negative or a NaN accuracy states no radius. The one rule of the honesty
    /// measures (``TrackAccuracy/withinAccuracy``, ``GNSSAccuracySummary/withinAccuracy``): such
    /// a fix neither holds nor misses its truth.
    static func statedHorizontalAccuracy(_ accuracy: Double?) -> Double? {
        guard let a = accuracy, a.isFinite, a >= 0 else { return nil }
        return a
    }

    /// Whether `time` (Unix seconds) lies within ``earliestTime``…``latestTime`` (false for NaN):
    /// the one time test of the trace readers, writers and streaming components.
    static func isUsableTime(_ time: Double) -> Bool { time >= earliestTime && time <= latestTime }

    /// The error for a time ``isUsableTime(_:)`` refuses: non-finite, or outside
    /// ``earliestTime``…``latestTime``; `name` says whose time it is.
    static func timeOutOfRange(_ time: Double, name: String = "time") -> GeoAnchorError {
        time.isFinite ? .outOfRange(name: name, value: time, allowed: .closed(earliestTime, latestTime, unit: "s"))
                      : .nonFinite(name: name, value: time)
    }
}
