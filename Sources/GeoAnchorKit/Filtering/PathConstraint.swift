import Foundation

/// A walking path the target is known to follow — a tour's path, a trail — used by
/// ``PositionFilter`` as a soft cross-track constraint (map aiding).
///
/// After each fix the filter picks the path segment its estimate is walking along (the nearest,
/// or among those within 5 m of the nearest the one whose direction best matches the estimated
/// velocity — so at a junction, or where a loop closes, it keeps to the leg it is on) and applies
/// the scalar pseudo-measurement "the distance from that segment's line is 0 ±
/// ``crossTrackSigma``" along the segment's normal. Only the cross-track direction is
/// constrained (a corner never pulls the estimate along the path): progress along the path still
/// comes from the fixes and the Doppler velocity, so the filter's east/north channels become
/// correlated and it runs one joint horizontal state (``KalmanFilter8``, ≈ 4× the work of the
/// unconstrained filter per step).
///
/// **Release.** A pedestrian leaves a tour path (a detour, a shop, the far side of a square), so
/// the constraint is skipped — and counted in ``PositionFilterStatistics/pathSkipped`` — when the
/// fix lies farther from every line than `corridorSigmas × σ_fix + corridorWidth` (σ_fix the fix's
/// own per-axis σ), when the estimate projects beyond a line's free end, or when the
/// pseudo-measurement fails the 1-degree-of-freedom χ² gate. Outside the corridor the filter is
/// the unconstrained one.
///
/// - Accuracy (walking preset, reference: the simulator's truth, change against the raw fixes,
///   RMSE / p95): `traces/zavist-tour` filter −55 % / −46 %, smoother −65 % / −43 %;
///   `traces/city-walk` −52 % / −50 % and −65 % / −66 % (unaided: −44 % / −31 %, −23 % / −25 %).
///   That walker is exactly on the line; one that strays from it with σ 1 m (12 simulated walks)
///   keeps mean ratios to raw of 0.45 / 0.49 (filter) and 0.34 / 0.36 (smoother). A real walker
///   strays by a meter or two, which ``crossTrackSigma`` (default 1.5 m) allows for — widen it for
///   wide squares and promenades. A drawn path that is wrong by more than the walker's spread
///   but less than the corridor pulls the estimate towards it (a vertex 40 m off: Závist RMSE
///   2.18 → 2.47 m against the unaided filter).
/// - Complexity: O(segments) per fix (a linear scan; ≈ 17 µs a fix for 500 segments).
public struct PathConstraint: Sendable, Hashable {
    /// The paths: each at least two vertices (latitude/longitude degrees; heights ignored).
    public let lines: [[GeodeticCoordinate]]
    /// σ (m) of the walker's distance from the drawn line.
    public var crossTrackSigma: Double
    /// The corridor half-width in σ of the fix (see the type's discussion).
    public var corridorSigmas: Double
    /// The corridor's fixed part, meters.
    public var corridorWidth: Double

    /// Creates a constraint.
    ///
    /// - Throws: ``GeoAnchorError/outOfRange(name:value:range:)`` for an empty set of lines, a
    ///   line with fewer than two vertices, or a non-positive σ or corridor;
    ///   ``GeoAnchorError/invalidLatitude(_:)`` / ``GeoAnchorError/invalidLongitude(_:)`` for a bad
    ///   vertex.
    public init(lines: [[GeodeticCoordinate]], crossTrackSigma: Double = 1.5,
                corridorSigmas: Double = 2, corridorWidth: Double = 3) throws(GeoAnchorError) {
        guard !lines.isEmpty else { throw .outOfRange(name: "path lines", value: 0, range: "≥ 1 line") }
        for (i, l) in lines.enumerated() {
            guard l.count >= 2 else {
                throw .outOfRange(name: "vertices of path line \(i)", value: Double(l.count), range: "≥ 2")
            }
            for v in l {
                guard v.latitude.isFinite, abs(v.latitude) <= 90 else { throw .invalidLatitude(v.latitude) }
                guard v.longitude.isFinite else { throw .invalidLongitude(v.longitude) }
            }
        }
        guard crossTrackSigma > 0, crossTrackSigma.isFinite else {
            throw .outOfRange(name: "crossTrackSigma", value: crossTrackSigma, range: "> 0 m")
        }
        guard corridorSigmas > 0, corridorSigmas.isFinite else {
            throw .outOfRange(name: "corridorSigmas", value: corridorSigmas, range: "> 0")
        }
        guard corridorWidth >= 0, corridorWidth.isFinite else {
            throw .outOfRange(name: "corridorWidth", value: corridorWidth, range: "≥ 0 m")
        }
        self.lines = lines
        self.crossTrackSigma = crossTrackSigma
        self.corridorSigmas = corridorSigmas
        self.corridorWidth = corridorWidth
    }

    /// The lines in `frame`'s horizontal plane (points on the ellipsoid, as the filter uses).
    func local(in frame: LocalTangentFrame) -> LocalPath {
        LocalPath(lines: lines.map { l in
            PlanarPolyline(l.map { PlanarPoint(frame.enu(latitude: $0.latitude, longitude: $0.longitude, ellipsoidalHeight: 0)) })
        })
    }
}

/// A ``PathConstraint`` in a filter's frame.
struct LocalPath: Sendable {
    var lines: [PlanarPolyline]

    /// Distance (m) from `p` to the nearest line.
    func distance(to p: PlanarPoint) -> Double {
        var best = Double.infinity
        for l in lines { best = min(best, l.project(p).distance) }
        return best
    }

    /// The segment that constrains an estimate at `p` moving with `velocity` (m/s): among the
    /// segments within ``legTolerance`` of the nearest distance, the one whose direction agrees
    /// best with the velocity (when moving faster than 0.5 m/s; ties within 0.05 in |cos| go to
    /// the nearer) — so at a junction or where a loop closes the estimate follows the leg it walks
    /// along, not the one it happens to be nearest to. Returns a point on the segment's line and
    /// its unit normal: the constraint is to that line, so a projection clamped to a corner never
    /// pulls the estimate along the path. nil beyond a free line end (the walker may go on) or
    /// for a degenerate segment.
    func constraint(at p: PlanarPoint, velocity: PlanarPoint) -> (point: PlanarPoint, normal: PlanarPoint)? {
        var bestDistance = Double.infinity
        for l in lines {
            for i in 0..<(l.points.count - 1) { bestDistance = min(bestDistance, l.project(p, segment: i).distance) }
        }
        guard bestDistance.isFinite else { return nil }
        let speed = velocity.length
        var chosen: (line: Int, projection: PlanarPolyline.Projection, agreement: Double)? = nil
        for (li, l) in lines.enumerated() {
            for i in 0..<(l.points.count - 1) {
                let q = l.project(p, segment: i)
                guard q.distance <= bestDistance + Self.legTolerance else { continue }
                let d = l.points[i + 1] - l.points[i]
                let len = d.length
                let agreement = speed > 0.5 && len > 0 ? abs(d.dot(velocity)) / (len * speed) : 1
                if let c = chosen {
                    let better = agreement > c.agreement + 0.05
                        || (abs(agreement - c.agreement) <= 0.05 && q.distance < c.projection.distance)
                    if !better { continue }
                }
                chosen = (li, q, agreement)
            }
        }
        guard let (li, q, _) = chosen else { return nil }
        let line = lines[li]
        let closed = line.points[0].distance(to: line.points[line.points.count - 1]) < 1e-6
        // Beyond a free end the walker may simply go on: no constraint.
        if !closed && q.distance > 1e-3 && (q.along <= 0 || q.along >= line.length) { return nil }
        let a = line.points[q.segment], b = line.points[q.segment + 1]
        let len = a.distance(to: b)
        guard len > 0 else { return nil }
        return (a, PlanarPoint(x: -(b.y - a.y) / len, y: (b.x - a.x) / len))
    }

    /// Meters: segments this much farther than the nearest are still candidates for the leg.
    static let legTolerance = 5.0
}

extension PathConstraint {
    /// The lines of a GeoJSON collection: the LineString/MultiLineString features whose `kind`
    /// property is `"path"` (the tour files' convention) or, when none is marked, every
    /// LineString/MultiLineString feature.
    ///
    /// - Throws: ``GeoAnchorError/outOfRange(name:value:range:)`` when the collection holds no
    ///   line, and the errors of ``init(lines:crossTrackSigma:corridorSigmas:corridorWidth:)``.
    public init(geoJSON collection: GeoJSONFeatureCollection, crossTrackSigma: Double = 1.5,
                corridorSigmas: Double = 2, corridorWidth: Double = 3) throws(GeoAnchorError) {
        func lines(of g: GeoJSONGeometry?) -> [[GeodeticCoordinate]] {
            func line(_ ps: [GeoJSONPosition]) -> [GeodeticCoordinate] {
                ps.map { GeodeticCoordinate(latitude: $0.latitude, longitude: $0.longitude) }
            }
            switch g {
            case .lineString(let ps): return [line(ps)]
            case .multiLineString(let ls): return ls.map(line)
            default: return []
            }
        }
        let marked = collection.features.filter { f in
            if case .string("path")? = f.properties?["kind"] { return true }
            return false
        }
        var found = marked.flatMap { lines(of: $0.geometry) }
        if found.isEmpty { found = collection.features.flatMap { lines(of: $0.geometry) } }
        guard !found.isEmpty else { throw .outOfRange(name: "LineString features", value: 0, range: "≥ 1") }
        try self.init(lines: found, crossTrackSigma: crossTrackSigma, corridorSigmas: corridorSigmas,
                      corridorWidth: corridorWidth)
    }
}
