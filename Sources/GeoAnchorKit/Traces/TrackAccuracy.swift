import Foundation

/// Summary statistics of a set of error magnitudes (meters).
///
/// Percentiles use linear interpolation between order statistics (Hyndman & Fan 1996 type 7,
/// NumPy's default `np.percentile`, the definition the Google Smartphone Decimeter Challenge
/// scores with): for sorted errors x₀ ≤ … ≤ xₙ₋₁ and p ∈ [0, 1], h = (n − 1)·p and
/// P(p) = x⌊h⌋ + (h − ⌊h⌋)(x⌊h⌋₊₁ − x⌊h⌋).
public struct ErrorStatistics: Sendable, Hashable, Codable {
    /// Number of errors.
    public var count: Int
    /// Median (for horizontal errors: CEP50), meters.
    public var p50: Double
    /// 95th percentile (horizontal: CEP95), meters.
    public var p95: Double
    /// Root mean square, meters.
    public var rmse: Double
    /// 2DRMS = 2 × RMS (for horizontal errors ≈ the 95–98 % radius), meters.
    public var drms2: Double
    /// Largest error, meters.
    public var max: Double
    /// Mean, meters.
    public var mean: Double

    /// Statistics of `values` (absolute values are taken). Empty input gives count 0 and NaN
    /// statistics.
    public init(_ values: [Double]) {
        var v = values.map { Swift.abs($0) }
        v.sort()
        count = v.count
        guard !v.isEmpty else { p50 = .nan; p95 = .nan; rmse = .nan; drms2 = .nan; max = .nan; mean = .nan; return }
        p50 = Self.percentile(sorted: v, 0.50)
        p95 = Self.percentile(sorted: v, 0.95)
        var s2 = 0.0, s = 0.0
        for x in v { s2 += x * x; s += x }
        rmse = (s2 / Double(v.count)).squareRoot()
        drms2 = 2 * rmse
        max = v[v.count - 1]
        mean = s / Double(v.count)
    }

    /// Type-7 percentile of sorted values, p in [0, 1].
    public static func percentile(sorted v: [Double], _ p: Double) -> Double {
        precondition(!v.isEmpty && p >= 0 && p <= 1, "percentile of an empty array or p outside [0, 1]")
        let h = Double(v.count - 1) * p
        let lo = Int(h.rounded(.down))
        let hi = Swift.min(lo + 1, v.count - 1)
        return v[lo] + (h - Double(lo)) * (v[hi] - v[lo])
    }
}

/// One matched epoch: the trace fix, the interpolated reference and the error between them.
public struct EpochError: Sendable, Hashable, Codable {
    /// Trace fix time (UTC seconds, before the time offset).
    public var time: Double
    public var latitude: Double, longitude: Double
    public var referenceLatitude: Double, referenceLongitude: Double
    /// Error vector trace − reference in the ENU frame at the reference point, meters.
    public var east: Double, north: Double
    /// Ellipsoidal height difference trace − reference, meters (nil when a height is unknown).
    public var up: Double?
    /// √(east² + north²), meters.
    public var horizontal: Double
    /// Error along the reference direction of travel (positive = ahead), meters; nil when the
    /// reference is (nearly) stationary.
    public var alongTrack: Double?
    /// Error across the direction of travel (positive = to the right), meters; nil when stationary.
    public var crossTrack: Double?
    /// The trace fix's reported horizontal accuracy (m, 68 %), to judge how honest it is.
    public var horizontalAccuracy: Double?
}

/// Accuracy of a trace against a reference track.
public struct TrackAccuracy: Sendable, Hashable {
    /// How trace fixes are matched with the reference.
    public struct Configuration: Sendable, Hashable {
        /// Seconds added to every trace time before matching (e.g. a known receiver latency).
        public var timeOffset: Double
        /// The reference is interpolated linearly between two samples at most this far apart
        /// (seconds); a trace time in a wider gap, or outside the reference's time span, is
        /// unmatched. Times within 1 ms of a reference sample use that sample.
        public var maximumGap: Double
        /// Reference speeds below this (m/s) leave along/cross-track undefined for the epoch.
        public var minimumSpeedForTrack: Double
        public init(timeOffset: Double = 0, maximumGap: Double = 1.5, minimumSpeedForTrack: Double = 0.5) {
            self.timeOffset = timeOffset; self.maximumGap = maximumGap; self.minimumSpeedForTrack = minimumSpeedForTrack
        }

        /// The values ``timeOffset`` accepts: ± the span of the times a fix may carry
        /// (``Fix/earliestTime``…``Fix/latestTime``, years 0001–9999, ≈ 3.2e11 s). A larger
        /// offset moves every fix outside any reference: nothing could match.
        public static let timeOffsetRange = ValueRange.closed(-(Fix.latestTime - Fix.earliestTime), Fix.latestTime - Fix.earliestTime, unit: "s")

        /// The values ``maximumGap`` accepts: [0, ≈ 3.2e11] s. 0 matches only trace times within
        /// 1 ms of a reference sample; beyond the span of fix times (as ``timeOffsetRange``) every
        /// gap is bridged already.
        public static let maximumGapRange = ValueRange.closed(0, Fix.latestTime - Fix.earliestTime, unit: "s")

        /// The values ``minimumSpeedForTrack`` accepts: (0, ∞) m/s, finite. Along/cross-track is
        /// the error projected on the reference's direction of travel, which a reference at rest
        /// does not have: with 0 a stationary epoch divided by a zero speed and its along/cross-track
        /// errors were NaN.
        public static let minimumSpeedRange = ValueRange.greaterThan(0, unit: "m/s")

        /// Checks every value: finite and in its range — ``timeOffset`` in ``timeOffsetRange``,
        /// ``maximumGap`` in ``maximumGapRange``, ``minimumSpeedForTrack`` in ``minimumSpeedRange``.
        /// ``TrackAccuracy/evaluate(trace:reference:options:geoid:)`` cannot throw: it stops on an
        /// invalid configuration as a programmer error — validate one that comes from outside
        /// (command-line options, a settings file) first.
        /// - Throws: ``GeoAnchorError/nonFinite(name:value:)`` or
        ///   ``GeoAnchorError/outOfRange(name:value:allowed:)`` naming the first bad value.
        public func validate() throws(GeoAnchorError) {
            try Self.timeOffsetRange.check(timeOffset, name: "timeOffset")
            try Self.maximumGapRange.check(maximumGap, name: "maximumGap")
            try Self.minimumSpeedRange.check(minimumSpeedForTrack, name: "minimumSpeedForTrack")
        }
    }

    public var horizontal: ErrorStatistics
    /// Vertical errors (|Δ ellipsoidal height|) of the epochs where both heights are known.
    public var vertical: ErrorStatistics
    /// |along-track| and |cross-track| errors of the epochs with a moving reference.
    public var alongTrack: ErrorStatistics
    public var crossTrack: ErrorStatistics
    /// GSDC score: mean of the horizontal p50 and p95, meters.
    public var gsdcScore: Double { (horizontal.p50 + horizontal.p95) / 2 }
    /// Trace fixes matched with the reference.
    public var matched: Int
    /// Trace fixes outside the reference's time span or in one of its gaps.
    public var unmatched: Int
    /// Per-epoch errors, in trace order.
    public var epochs: [EpochError]

    /// Matched epochs whose fix states a usable horizontal accuracy
    /// (``EpochError/horizontalAccuracy`` finite and ≥ 0; CoreLocation's −1 "invalid" and NaN
    /// state none — the rule ``GNSSAccuracySummary/withinAccuracy`` uses too).
    public var accuracyStated: Int { epochs.reduce(0) { $0 + (Fix.statedHorizontalAccuracy($1.horizontalAccuracy) == nil ? 0 : 1) } }

    /// Share (0–1) of the epochs stating a horizontal accuracy whose horizontal error is within
    /// it: 0.68 for an honest CoreLocation-style 68 % radius, less for an overconfident one; nil
    /// when no epoch states one. One sample per epoch, so a slowly varying error counts as many
    /// times as it lasts — read it with ``accuracyStated`` and the trace's length.
    public var withinAccuracy: Double? {
        let n = accuracyStated
        guard n > 0 else { return nil }
        let inside = epochs.reduce(0) { count, e in count + (Fix.statedHorizontalAccuracy(e.horizontalAccuracy).map { e.horizontal <= $0 ? 1 : 0 } ?? 0) }
        return Double(inside) / Double(n)
    }
}

/// A reference track prepared for matching: sorted times and ellipsoidal positions.
///
/// Heights: each reference fix's ``Fix/ellipsoidalHeight`` (MSL + stated geoid separation);
/// MSL heights without a separation use `geoid` (N in meters at latitude/longitude), or stay
/// unknown (no vertical error for those epochs) when no geoid is given.
public struct ReferenceTrack: Sendable {
    public let times: [Double]
    public let latitudes: [Double]
    public let longitudes: [Double]
    /// Ellipsoidal heights, NaN where unknown.
    public let heights: [Double]

    public init(_ fixes: [Fix], geoid: (@Sendable (Double, Double) -> Double?)? = nil) {
        let sorted = fixes.enumerated().sorted { ($0.element.time, $0.offset) < ($1.element.time, $1.offset) }.map(\.element)
        times = sorted.map(\.time)
        latitudes = sorted.map(\.latitude)
        longitudes = sorted.map(\.longitude)
        heights = sorted.map { f in
            if let h = f.ellipsoidalHeight { return h }
            if let h = f.height, f.verticalReference == .meanSeaLevel, let n = geoid?(f.latitude, f.longitude) { return h + n }
            return .nan
        }
    }

    public var count: Int { times.count }

    /// Interpolated reference at `t`: position, ellipsoidal height (NaN if unknown) and the
    /// ENU velocity direction (m/s) in the frame at the interpolated point; nil outside the
    /// span or in a gap longer than `maximumGap`.
    public func sample(at t: Double, maximumGap: Double) -> (lat: Double, lon: Double, h: Double, ve: Double, vn: Double)? {
        guard let first = times.first, let last = times.last, t >= first - 1e-3, t <= last + 1e-3 else { return nil }
        // Binary search: first index with times[i] >= t.
        var lo = 0, hi = times.count
        while lo < hi { let mid = (lo + hi) / 2; if times[mid] < t { lo = mid + 1 } else { hi = mid } }
        let i1 = Swift.min(lo, times.count - 1)
        let i0 = Swift.max(i1 - 1, 0)
        var a = i0, b = i1
        var frac = 0.0
        if Swift.abs(times[i1] - t) <= 1e-3 { a = i1; b = i1 }
        else if i0 != i1, Swift.abs(times[i0] - t) <= 1e-3 { a = i0; b = i0 }
        else {
            guard i0 != i1, times[i1] - times[i0] <= maximumGap else { return nil }
            frac = (t - times[i0]) / (times[i1] - times[i0])
        }
        let dLon = Angle.difference(from: longitudes[a], to: longitudes[b])
        let lat = latitudes[a] + frac * (latitudes[b] - latitudes[a])
        let lon = Angle.normalizeLongitude(longitudes[a] + frac * dLon)
        let h = heights[a] + frac * (heights[b] - heights[a])
        // Velocity from the neighbouring samples (central where possible).
        let j0 = a == b ? Swift.max(a - 1, 0) : a
        let j1 = a == b ? Swift.min(b + 1, times.count - 1) : b
        var ve = 0.0, vn = 0.0
        if j1 > j0, times[j1] - times[j0] <= 2 * maximumGap,
           let frame = try? LocalTangentFrame(origin: GeodeticCoordinate(latitude: latitudes[j0], longitude: longitudes[j0], ellipsoidalHeight: 0)) {
            let d = frame.enu(latitude: latitudes[j1], longitude: longitudes[j1], ellipsoidalHeight: 0)
            let dt = times[j1] - times[j0]
            ve = d.east / dt; vn = d.north / dt
        }
        return (lat, lon, h, ve, vn)
    }
}

extension TrackAccuracy {
    /// Evaluates `trace` against `reference`.
    ///
    /// For each trace fix at time t (+ ``Configuration/timeOffset``) the reference is interpolated
    /// (see ``ReferenceTrack/sample(at:maximumGap:)``), and the error vector is the trace
    /// position in the ``LocalTangentFrame`` at the reference point: horizontal error
    /// √(e² + n²), vertical error Δh (ellipsoidal), along/cross-track the projection on the
    /// reference's direction of travel.
    ///
    /// - Accuracy: exact ellipsoidal geometry (ECEF → ENU, no flat-Earth or spherical step);
    ///   the only approximation is linear interpolation of latitude/longitude/height between
    ///   reference samples (for 10 Hz references at driving speed the chord–arc difference is
    ///   below 1 µm).
    ///
    /// Precondition: `options` passes ``Configuration/validate()`` (a programmer error otherwise:
    /// validate options that come from outside first).
    public static func evaluate(trace: [Fix], reference: ReferenceTrack, options: Configuration = Configuration(),
                                geoid: (@Sendable (Double, Double) -> Double?)? = nil) -> TrackAccuracy {
        requireValid("TrackAccuracy.Configuration") { () throws(GeoAnchorError) in try options.validate() }
        var epochs: [EpochError] = []
        epochs.reserveCapacity(trace.count)
        var unmatched = 0
        for f in trace {
            let t = f.time + options.timeOffset
            guard let r = reference.sample(at: t, maximumGap: options.maximumGap),
                  let frame = try? LocalTangentFrame(origin: GeodeticCoordinate(latitude: r.lat, longitude: r.lon,
                                                                                ellipsoidalHeight: r.h.isNaN ? 0 : r.h)) else {
                unmatched += 1; continue
            }
            var h = f.ellipsoidalHeight
            if h == nil, let H = f.height, f.verticalReference == .meanSeaLevel, let n = geoid?(f.latitude, f.longitude) { h = H + n }
            let v = frame.enu(latitude: f.latitude, longitude: f.longitude, ellipsoidalHeight: h ?? (r.h.isNaN ? 0 : r.h))
            let up: Double? = (h != nil && !r.h.isNaN) ? v.up : nil
            let speed = (r.ve * r.ve + r.vn * r.vn).squareRoot()
            var along: Double? = nil, cross: Double? = nil
            if speed >= options.minimumSpeedForTrack {
                let ue = r.ve / speed, un = r.vn / speed
                along = v.east * ue + v.north * un
                cross = v.east * un - v.north * ue   // right of travel positive
            }
            epochs.append(EpochError(time: f.time, latitude: f.latitude, longitude: f.longitude,
                                     referenceLatitude: r.lat, referenceLongitude: r.lon,
                                     east: v.east, north: v.north, up: up, horizontal: v.horizontalDistance,
                                     alongTrack: along, crossTrack: cross, horizontalAccuracy: f.horizontalAccuracy))
        }
        return TrackAccuracy(horizontal: ErrorStatistics(epochs.map(\.horizontal)),
                             vertical: ErrorStatistics(epochs.compactMap(\.up)),
                             alongTrack: ErrorStatistics(epochs.compactMap(\.alongTrack)),
                             crossTrack: ErrorStatistics(epochs.compactMap(\.crossTrack)),
                             matched: epochs.count, unmatched: unmatched, epochs: epochs)
    }
}
