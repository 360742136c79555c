import Foundation

/// A walking path the target is known to follow — a tour's path, a trail — used by
/// ``PositionFilter`` as a soft cross-track constraint (map aiding).
///
/// After each fix the filter picks the path segment its estimate is walking along (the nearest,
/// or among those within 5 m of the nearest the one whose direction best matches the estimated
/// velocity — so at a junction, or where a loop closes, it keeps to the leg it is on) and applies
/// the scalar pseudo-measurement "the distance from that segment's line is 0 ±
/// √(``crossTrackSigma``² + ``mapSigma``²)" along the segment's normal. Only the cross-track direction is
/// constrained (a corner never pulls the estimate along the path): progress along the path still
/// comes from the fixes and the Doppler velocity, so the filter's east/north channels become
/// correlated and it runs one joint horizontal state (``KalmanFilter8``): ≈ 2.6 µs a fix with a
/// 500-vertex path against ≈ 0.08 µs unconstrained (release, one core).
///
/// **Release.** A pedestrian leaves a tour path (a detour, a shop, the far side of a square), so
/// the constraint is skipped — and counted in ``PositionFilterStatistics/pathSkipped`` — when the
/// fix — or the estimate — lies farther from every line than `corridorSigmas × σ_fix +
/// corridorWidth` (σ_fix the fix's own per-axis σ), when the estimate projects beyond a line's free end, or when the
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
/// - Complexity: the segments sit in a uniform grid (cells ≥ 10 m, ≤ 400,000 cells), so a fix near
///   the path visits a few cells and one far from it (outside the corridor) none.
public struct PathConstraint: Sendable, Hashable {
    /// The paths: each at least two vertices (latitude/longitude degrees; heights ignored).
    public let lines: [[GeodeticCoordinate]]
    /// σ (m) of the walker's distance from the drawn line.
    public var crossTrackSigma: Double
    /// σ (m, per axis) of the drawn vertices' error against where the path really is — the map's
    /// drawing or digitizing error (0: an exact map, the default). Unlike the walker's stray
    /// (``crossTrackSigma``), it is the same for every step along a segment: a vertex off by 2 m
    /// turns a 50 m segment by ≈ 3°, however long the walker follows it. ``PositionFilter`` (and
    /// its smoothing pass) adds it to the cross-track variance (√(crossTrackSigma² + mapSigma²));
    /// ``GeoRegistration`` estimates each walked segment's offset and turn as two states, so the
    /// heading it takes from a segment is no more certain than the segment's drawn direction.
    /// OpenStreetMap traced from orthophotos is typically within 1–3 m in towns.
    public var mapSigma: Double
    /// The corridor half-width in σ of the fix (see the type's discussion).
    public var corridorSigmas: Double
    /// The corridor's fixed part, meters.
    public var corridorWidth: Double

    /// Creates a constraint.
    ///
    /// - Throws: ``GeoAnchorError/outOfRange(name:value:allowed:)`` for an empty set of lines, a
    ///   line with fewer than two vertices, a non-positive `crossTrackSigma`, a negative
    ///   `mapSigma`, or a non-positive corridor; ``GeoAnchorError/invalidLatitude(_:)`` /
    ///   ``GeoAnchorError/invalidLongitude(_:)`` for a bad vertex.
    public init(lines: [[GeodeticCoordinate]], crossTrackSigma: Double = 1.5, mapSigma: Double = 0,
                corridorSigmas: Double = 2, corridorWidth: Double = 3) throws(GeoAnchorError) {
        guard !lines.isEmpty else { throw .outOfRange(name: "path lines", value: 0, allowed: .atLeast(1)) }
        for (i, l) in lines.enumerated() {
            guard l.count >= 2 else {
                throw .outOfRange(name: "vertices of path line \(i)", value: Double(l.count), allowed: .atLeast(2))
            }
            for v in l {
                guard v.latitude.isFinite, abs(v.latitude) <= 90 else { throw .invalidLatitude(v.latitude) }
                guard v.longitude.isFinite else { throw .invalidLongitude(v.longitude) }
            }
        }
        guard crossTrackSigma > 0, crossTrackSigma.isFinite else {
            throw .outOfRange(name: "crossTrackSigma", value: crossTrackSigma, allowed: .greaterThan(0, unit: "m"))
        }
        guard mapSigma >= 0, mapSigma.isFinite else {
            throw .outOfRange(name: "mapSigma", value: mapSigma, allowed: .atLeast(0, unit: "m"))
        }
        guard corridorSigmas > 0, corridorSigmas.isFinite else {
            throw .outOfRange(name: "corridorSigmas", value: corridorSigmas, allowed: .greaterThan(0))
        }
        guard corridorWidth >= 0, corridorWidth.isFinite else {
            throw .outOfRange(name: "corridorWidth", value: corridorWidth, allowed: .atLeast(0, unit: "m"))
        }
        self.lines = lines
        self.crossTrackSigma = crossTrackSigma
        self.mapSigma = mapSigma
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

/// A ``PathConstraint`` in a filter's frame: its segments in a ``SegmentGrid``, so a query near
/// the path visits a few cells instead of every segment.
struct LocalPath: Sendable {
    /// The segment index (segment k runs from `grid.start[k]` to `grid.start[k] + grid.direction[k]`).
    let grid: SegmentGrid
    /// Whether segment k begins / ends a line at a free (not closed) end.
    let freeStart: [Bool], freeEnd: [Bool]

    init(lines: [PlanarPolyline]) {
        grid = SegmentGrid(lines: lines)
        var freeStart: [Bool] = [], freeEnd: [Bool] = []
        for l in lines {
            let closed = l.isClosed
            for i in 0..<l.segmentCount {
                freeStart.append(!closed && i == 0)
                freeEnd.append(!closed && i == l.segmentCount - 1)
            }
        }
        self.freeStart = freeStart; self.freeEnd = freeEnd
    }

    /// Distance (m) from `p` to the nearest segment when it is at most `radius`, else infinity
    /// (a bounded radius keeps the cost O(1) far from the path).
    func distance(to p: PlanarPoint, within radius: Double = .infinity) -> Double {
        grid.distance(to: p, within: radius)
    }

    /// The segment that constrains an estimate at `p` moving with `velocity` (m/s): among the
    /// segments within ``legTolerance`` of the nearest distance, the one whose direction agrees
    /// best with the velocity (when moving faster than 0.5 m/s; ties within 0.05 in |cos| go to
    /// the nearer) — so at a junction or where a loop closes the estimate follows the leg it walks
    /// along, not the one it happens to be nearest to. Returns a point on the segment's line,
    /// its unit normal, its index and length (``Leg``): the constraint is to that line, so a projection clamped to a corner never
    /// pulls the estimate along the path. nil beyond a free line end (the walker may go on) or
    /// for a degenerate segment.
    /// Only segments within `radius` of `p` are considered (nil when there are none).
    func constraint(at p: PlanarPoint, velocity: PlanarPoint, within radius: Double = .infinity) -> Leg? {
        let bestDistance = distance(to: p, within: radius)
        guard bestDistance.isFinite else { return nil }
        let limit = bestDistance + Self.legTolerance
        let speed = velocity.length
        var chosen = -1, chosenDistance = Double.infinity, chosenT = 0.0, chosenAgreement = -1.0
        grid.visit(around: p, radius: limit, { i in
            let q = grid.project(p, segment: i)
            guard q.distance <= limit, i != chosen else { return }
            let d = grid.direction[i], len = d.length
            let agreement = speed > 0.5 && len > 0 ? abs(d.dot(velocity)) / (len * speed) : 1
            if chosen >= 0 {
                let better = agreement > chosenAgreement + 0.05
                    || (abs(agreement - chosenAgreement) <= 0.05
                        && (q.distance < chosenDistance || (q.distance == chosenDistance && i < chosen)))
                if !better { return }
            }
            chosen = i; chosenDistance = q.distance; chosenT = q.t; chosenAgreement = agreement
        }, done: { $0 > limit })
        guard chosen >= 0 else { return nil }
        // Beyond a free end the walker may simply go on: no constraint.
        if chosenDistance > 1e-3 && ((freeStart[chosen] && chosenT <= 0) || (freeEnd[chosen] && chosenT >= 1)) { return nil }
        let d = grid.direction[chosen], len = d.length
        guard len > 0 else { return nil }
        return Leg(point: grid.start[chosen], normal: PlanarPoint(x: -d.y / len, y: d.x / len), segment: chosen, length: len)
    }

    /// A chosen leg: a point on the segment's line (its start), the unit normal (the direction
    /// turned left), the segment's index in ``grid`` and its length (m).
    struct Leg {
        let point: PlanarPoint
        let normal: PlanarPoint
        let segment: Int
        let length: Double
    }

    /// The line that constrains an estimate after a fix, or nil when the walker has left the
    /// path: the corridor (``PathConstraint/corridorSigmas`` × `fixSigma` +
    /// ``PathConstraint/corridorWidth``) is judged on the fix — the evidence — or on the estimate
    /// when the fix was gated (`fix` nil), and the leg is ``constraint(at:velocity:within:)``'s
    /// within it. Both searches are bounded by the corridor: far from the path this is O(1).
    func corridorLine(estimate: PlanarPoint, fix: PlanarPoint?, fixSigma: Double, velocity: PlanarPoint,
                      constraint: PathConstraint) -> Leg? {
        let corridor = constraint.corridorSigmas * fixSigma + constraint.corridorWidth
        guard distance(to: fix ?? estimate, within: corridor) <= corridor else { return nil }
        return self.constraint(at: estimate, velocity: velocity, within: corridor)
    }

    /// Meters: segments this much farther than the nearest are still candidates for the leg.
    static let legTolerance = 5.0
}

extension PathConstraint {
    /// The lines of a GeoJSON collection: the LineString/MultiLineString features whose `kind`
    /// property is `"path"` (the tour files' convention) or, when none is marked, every
    /// LineString/MultiLineString feature.
    ///
    /// - Throws: ``GeoAnchorError/outOfRange(name:value:allowed:)`` when the collection holds no
    ///   line, and the errors of ``init(lines:crossTrackSigma:mapSigma:corridorSigmas:corridorWidth:)``.
    public init(geoJSON collection: GeoJSONFeatureCollection, crossTrackSigma: Double = 1.5, mapSigma: Double = 0,
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
        guard !found.isEmpty else { throw .outOfRange(name: "LineString features", value: 0, allowed: .atLeast(1)) }
        try self.init(lines: found, crossTrackSigma: crossTrackSigma, mapSigma: mapSigma, corridorSigmas: corridorSigmas,
                      corridorWidth: corridorWidth)
    }
}
