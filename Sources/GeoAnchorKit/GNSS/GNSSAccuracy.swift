import Foundation

/// A reference track for raw-GNSS evaluation: GSDC `ground_truth.csv` (2021: `millisSinceGpsEpoch`,
/// `latDeg`, `lngDeg`; 2022/23: `UnixTimeMillis`, `LatitudeDegrees`, `LongitudeDegrees`).
/// Times are stored as UTC Unix seconds (2021's GPS milliseconds converted with the leap-second
/// table). Heights are not read: GSDC 2021 heights are about 63 m off (known defect).
public struct GNSSReferenceTrack: Sendable {
    public var times: [Double]
    public var latitudes: [Double]
    public var longitudes: [Double]

    public static func read(contentsOf url: URL) throws(TraceFormatError) -> GNSSReferenceTrack {
        var t = GNSSReferenceTrack(times: [], latitudes: [], longitudes: [])
        var cols: (time: Int, lat: Int, lon: Int, gpsMillis: Bool)? = nil
        try forEachFixedWidthLine(url: url) { (l: FixedWidthLine) throws(TraceFormatError) in
            let fields = l.text(0, l.count).split(separator: ",", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            guard let c = cols else {
                if let ti = fields.firstIndex(of: "millisSinceGpsEpoch"), let la = fields.firstIndex(of: "latDeg"), let lo = fields.firstIndex(of: "lngDeg") {
                    cols = (ti, la, lo, true)
                } else if let ti = fields.firstIndex(of: "UnixTimeMillis"), let la = fields.firstIndex(of: "LatitudeDegrees"), let lo = fields.firstIndex(of: "LongitudeDegrees") {
                    cols = (ti, la, lo, false)
                } else {
                    throw l.error("not a GSDC ground truth header (needs millisSinceGpsEpoch,latDeg,lngDeg or UnixTimeMillis,LatitudeDegrees,LongitudeDegrees)")
                }
                return
            }
            if fields.count == 1 && fields[0].isEmpty { return }
            guard fields.count > max(c.time, c.lat, c.lon) else { throw l.error("row has \(fields.count) fields") }
            guard let ms = Double(fields[c.time]), ms.isFinite, let la = Double(fields[c.lat]), abs(la) <= 90,
                  let lo = Double(fields[c.lon]), abs(lo) <= 180 else {
                throw l.error("invalid time/latitude/longitude '\(fields[c.time])', '\(fields[c.lat])', '\(fields[c.lon])'")
            }
            t.times.append(c.gpsMillis ? GNSSTime.unixUTC(gpsTime: ms / 1000) : ms / 1000)
            t.latitudes.append(la); t.longitudes.append(lo)
        }
        guard cols != nil else { throw TraceFormatError(source: url.path, line: nil, message: "empty file") }
        return t
    }

    /// Horizontal errors (m) of fixes matched to reference epochs within `tolerance` seconds
    /// (local east/north at the reference point on the WGS84 ellipsoid), and the number of
    /// reference epochs.
    public func horizontalErrors(of fixes: [Fix], tolerance: Double = 0.05) -> [Double] {
        matchedErrors(of: fixes, tolerance: tolerance).map(\.error)
    }

    /// ``horizontalErrors(of:tolerance:)`` with the fix each error belongs to (in time order).
    func matchedErrors(of fixes: [Fix], tolerance: Double = 0.05) -> [(fix: Fix, error: Double)] {
        var out: [(fix: Fix, error: Double)] = []
        let a = Ellipsoid.wgs84.semiMajorAxis, e2 = Ellipsoid.wgs84.eccentricitySquared
        var j = 0
        let sorted = fixes.sorted { $0.time < $1.time }
        for f in sorted {
            while j < times.count && times[j] < f.time - tolerance { j += 1 }
            guard j < times.count, abs(times[j] - f.time) <= tolerance else { continue }
            let lat = latitudes[j] * .pi / 180
            let s = sin(lat)
            let w = (1 - e2 * s * s).squareRoot()
            let mRadius = a * (1 - e2) / (w * w * w), nRadius = a / w
            let dn = (f.latitude - latitudes[j]) * .pi / 180 * mRadius
            let de = (f.longitude - longitudes[j]) * .pi / 180 * nRadius * cos(lat)
            out.append((f, (dn * dn + de * de).squareRoot()))
        }
        return out
    }
}

/// GSDC-style accuracy summary of a raw-GNSS run against a reference track.
public struct GNSSAccuracySummary: Sendable, Hashable, Codable {
    /// Horizontal error percentiles (m) over matched epochs.
    public var p50: Double, p95: Double
    /// GSDC score: mean of p50 and p95 (m).
    public var score: Double { (p50 + p95) / 2 }
    /// Matched epochs and reference epochs (solved fraction = matched / reference).
    public var matched: Int, referenceEpochs: Int
    public var solvedFraction: Double { referenceEpochs > 0 ? Double(matched) / Double(referenceEpochs) : 0 }

    /// The share of matched fixes stating a horizontal accuracy whose error is within it (the
    /// stated 68 % radius: 0.68 if honest; nil when none states one) — as
    /// ``TrackAccuracy/withinAccuracy``.
    public var withinAccuracy: Double?

    public init(fixes: [Fix], reference: GNSSReferenceTrack) {
        let matchedErrors = reference.matchedErrors(of: fixes)
        let e = ErrorStatistics(matchedErrors.map(\.error))
        p50 = e.p50; p95 = e.p95; matched = e.count; referenceEpochs = reference.times.count
        var stated = 0, within = 0
        for m in matchedErrors {
            guard let a = Fix.statedHorizontalAccuracy(m.fix.horizontalAccuracy) else { continue }
            stated += 1
            if m.error <= a { within += 1 }
        }
        withinAccuracy = stated > 0 ? Double(within) / Double(stated) : nil
    }
}
