import Foundation

/// Traces as GeoJSON: one Point feature per fix.
///
/// Writing: `coordinates` = `[lon, lat, h]` with *h* the **ellipsoidal** height when known
/// (RFC 7946 §4 positions; omitted otherwise); properties `time` (ISO 8601 UTC),
/// `altitude` (m MSL, when the fix has one), `geoid_separation`, `horizontal_accuracy`,
/// `vertical_accuracy`, `speed`, `course`, `heading`, `heading_accuracy`, `satellites`,
/// `hdop`, `vdop`, `pdop` when present.
///
/// Reading: every Point feature with a `time` property (ISO 8601 string, GDAL's
/// `YYYY/MM/DD HH:MM:SS+00`, or Unix seconds) is a fix, with the same properties — and the GPX
/// names ogr2ogr's `track_points` layer carries over: `ele` (MSL altitude), `geoidheight`,
/// `sat`; a LineString whose properties carry one time per position —
/// `coordinateProperties.times` (@tmcw/togeojson, today's GPX/KML converter) or `coordTimes`
/// (mapbox/togeojson before 2019) — gives one fix per position, and a MultiLineString (a GPX
/// track of several segments) with one such array per line likewise. Features without times (points of interest, zones)
/// are counted as ignored records; their positions (one per Point, all of a LineString's) are
/// counted in ``TraceReadSummary/untimedPoints``.
public enum GeoJSONTrace {
    /// The FeatureCollection for a list of fixes.
    public static func featureCollection(_ fixes: [Fix]) -> GeoJSONFeatureCollection {
        GeoJSONFeatureCollection(features: fixes.map(feature))
    }

    /// One fix as a Point feature.
    public static func feature(_ f: Fix) -> GeoJSONFeature {
        var p: [String: JSONValue] = ["time": .string(ByteParsing.iso8601String(f.time))]
        if f.verticalReference == .meanSeaLevel, let h = f.height { p["altitude"] = .number(h) }
        func put(_ k: String, _ v: Double?) { if let v { p[k] = .number(v) } }
        put("geoid_separation", f.geoidSeparation)
        put("horizontal_accuracy", f.horizontalAccuracy)
        put("vertical_accuracy", f.verticalAccuracy)
        put("speed", f.speed); put("course", f.course); put("heading", f.heading)
        put("heading_accuracy", f.headingAccuracy)
        put("satellites", f.satellites.map(Double.init))
        put("hdop", f.hdop); put("vdop", f.vdop); put("pdop", f.pdop)
        if let q = f.quality { p["quality"] = .number(Double(q.rawValue)) }
        let pos = GeoJSONPosition(longitude: f.longitude, latitude: f.latitude, height: f.ellipsoidalHeight)
        return GeoJSONFeature(geometry: .point(pos), properties: p)
    }

    /// Extracts fixes from a FeatureCollection (see the type's documentation).
    public static func fixes(from fc: GeoJSONFeatureCollection, source: String,
                             options: TraceReadConfiguration = TraceReadConfiguration(),
                             onFix: (Fix) throws -> Void) throws -> TraceReadSummary {
        try options.check(source: source)
        var summary = TraceReadSummary()
        for (i, feat) in fc.features.enumerated() {
            summary.lines += 1
            do {
                switch feat.geometry {
                case .point(let pos)?:
                    guard let tv = feat.properties?["time"] else { summary.ignoredRecords += 1; summary.untimedPoints += 1; continue }
                    try onFix(try fix(pos, time: try time(tv), props: feat.properties ?? [:]))
                    summary.fixes += 1
                case .lineString(let ps)?:
                    guard let (name, times) = lineTimes(feat.properties) else {
                        summary.ignoredRecords += 1; summary.untimedPoints += ps.count; continue
                    }
                    guard times.count == ps.count else {
                        throw RowError(message: "\(name) has \(times.count) entries for \(ps.count) positions")
                    }
                    for (p, t) in zip(ps, times) { try onFix(try fix(p, time: try time(t), props: [:])); summary.fixes += 1 }
                case .multiLineString(let lines)?:
                    // One time array per line (togeojson's output for a multi-segment track).
                    guard let (name, times) = lineTimes(feat.properties) else {
                        summary.ignoredRecords += 1; summary.untimedPoints += lines.reduce(0) { $0 + $1.count }; continue
                    }
                    guard times.count == lines.count else {
                        throw RowError(message: "\(name) has \(times.count) entries for \(lines.count) lines (one array of times per line)")
                    }
                    for (l, (ps, ts)) in zip(lines, times).enumerated() {
                        guard let ts = ts.arrayValue, ts.count == ps.count else {
                            throw RowError(message: "\(name)[\(l)] is not an array of \(ps.count) times, one per position of line \(l)")
                        }
                        for (p, t) in zip(ps, ts) { try onFix(try fix(p, time: try time(t), props: [:])); summary.fixes += 1 }
                    }
                default:
                    summary.ignoredRecords += 1
                }
            } catch let e as RowError {
                let err = TraceFormatError(source: source, line: nil, message: "feature #\(i): \(e.message)")
                if options.skipInvalid { summary.skip(err) } else { throw err }
            }
        }
        return summary
    }

    struct RowError: Error { var message: String }

    /// A line feature's per-position times: `coordinateProperties.times` (@tmcw/togeojson, the
    /// current convention) or `coordTimes` (mapbox/togeojson before 2019), with the name used.
    static func lineTimes(_ props: [String: JSONValue]?) -> (String, [JSONValue])? {
        if let t = props?["coordinateProperties"]?.objectValue?["times"]?.arrayValue { return ("coordinateProperties.times", t) }
        if let t = props?["coordTimes"]?.arrayValue { return ("coordTimes", t) }
        return nil
    }

    static func time(_ v: JSONValue) throws -> Double {
        switch v {
        case .number(let d) where d.isFinite: return d
        case .string(let given):
            var s = ByteParsing.ogrDateTime(given) ?? given
            switch s.withUTF8({ ByteParsing.iso8601($0) }) {
            case .success(let t): return t
            case .failure(let e): throw RowError(message: "time '\(given.prefix(40))': \(e.message)")
            }
        default: throw RowError(message: "time \(v) is neither an ISO 8601 string nor Unix seconds")
        }
    }

    static func fix(_ pos: GeoJSONPosition, time t: Double, props: [String: JSONValue]) throws -> Fix {
        var f = Fix(time: t, latitude: pos.latitude, longitude: pos.longitude)
        func num(_ k: String) throws -> Double? {
            guard let v = props[k], v != .null else { return nil }
            guard let d = v.doubleValue, d.isFinite else { throw RowError(message: "property \(k) \(v) is not a finite number") }
            return d
        }
        // GPX field names as ogr2ogr and QGIS carry them over (`ele` is GPX's MSL elevation).
        f.geoidSeparation = try num("geoid_separation") ?? num("geoidheight")
        if let h = pos.height {
            f.height = h; f.verticalReference = .ellipsoid
        } else if let a = try num("altitude") ?? num("ele") {
            f.height = a; f.verticalReference = .meanSeaLevel
        }
        f.horizontalAccuracy = try num("horizontal_accuracy")
        f.verticalAccuracy = try num("vertical_accuracy")
        f.speed = try num("speed")
        f.course = try num("course").map(Angle.normalizeHeading)
        f.heading = try num("heading").map(Angle.normalizeHeading)
        f.headingAccuracy = try num("heading_accuracy")
        func whole(_ k: String, _ range: ClosedRange<Int>) throws -> Int? {
            guard let v = try num(k) else { return nil }
            do { return try Int(checking: v, k, in: range, rounding: nil) } catch { throw RowError(message: "property \(error)") }
        }
        f.satellites = try whole("satellites", 0...Fix.maximumSatellites) ?? whole("sat", 0...Fix.maximumSatellites)
        f.hdop = try num("hdop"); f.vdop = try num("vdop"); f.pdop = try num("pdop")
        f.quality = try whole("quality", 0...8).flatMap { FixQuality(rawValue: $0) }
        // The same value rules as the CSV, GPX and NMEA readers (negative accuracy, time range …).
        if let problem = f.validationProblem { throw RowError(message: problem) }
        return f
    }
}
