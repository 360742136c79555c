import Foundation

/// A polyline in a local planar frame with its cumulative arc length: the one polyline type of
/// the library (tour paths, the filter's path constraint, zone rings, path-network edges).
public struct PlanarPolyline: Sendable, Hashable, Codable {
    /// Vertices, meters (x east, y north).
    public let points: [PlanarPoint]
    /// `cumulative[i]` = length of the path from the start to vertex `i`, meters.
    public let cumulative: [Double]

    /// - Precondition: at least 2 points (checked by ``Tour/validate()`` for tour paths and by
    ///   every initializer that builds polylines from user data).
    public init(_ points: [PlanarPoint]) {
        precondition(points.count >= 2, "a polyline needs ≥ 2 points")
        self.points = points
        var c = [0.0]
        c.reserveCapacity(points.count)
        for i in 1..<points.count { c.append(c[i - 1] + points[i - 1].distance(to: points[i])) }
        cumulative = c
    }

    /// Total length, meters.
    public var length: Double { cumulative[cumulative.count - 1] }

    /// Number of segments (`points.count − 1`).
    @inlinable public var segmentCount: Int { points.count - 1 }

    /// Whether the last vertex returns to the first (within 1 µm).
    public var isClosed: Bool { points[0].distance(to: points[points.count - 1]) < 1e-6 }

    /// The orthogonal projection of a point onto the polyline.
    public struct Projection: Sendable, Hashable, Codable {
        /// Distance along the path from its start to the projected point, meters, in [0, length].
        public var along: Double
        /// Distance from the point to the path, meters (≥ 0).
        public var distance: Double
        /// The closest point on the path.
        public var point: PlanarPoint
        /// Index of the segment (from vertex `segment` to `segment + 1`).
        public var segment: Int

        @inlinable
        public init(along: Double, distance: Double, point: PlanarPoint, segment: Int) {
            self.along = along; self.distance = distance; self.point = point; self.segment = segment
        }
    }

    /// Projection onto segment `i` (0 ≤ i < ``segmentCount``).
    @inlinable
    public func project(_ p: PlanarPoint, segment i: Int) -> Projection {
        let r = p.projection(onSegmentFrom: points[i], to: points[i + 1])
        return Projection(along: cumulative[i] + r.t * (cumulative[i + 1] - cumulative[i]),
                          distance: r.distance, point: r.point, segment: i)
    }

    /// The closest point of the path to `p`.
    ///
    /// When the path passes near `p` more than once (a loop, an out-and-back street), every
    /// projection within `tieTolerance` meters of the closest distance is a candidate, and the
    /// one whose arc length is nearest to `previousAlong` wins — so progress does not jump to
    /// the other leg of an out-and-back on GPS noise. Ties go to the lower segment index.
    ///
    /// - Parameters:
    ///   - p: the point to project, in the polyline's plane (meters).
    ///   - previousAlong: the last known progress (m), or nil for the plain closest point.
    ///   - tieTolerance: meters (≥ 0). Default 5 m.
    ///   - index: a ``SegmentGrid`` built from this polyline alone (`SegmentGrid(lines: [self])`):
    ///     the same answer from the segments near `p` instead of every segment.
    /// - Complexity: O(number of segments) without `index`; with it, the segments in the grid
    ///   cells near `p`. Exact (checked against brute-force sampling and the linear scan in the tests).
    public func project(_ p: PlanarPoint, previousAlong: Double? = nil, tieTolerance: Double = 5,
                        index: SegmentGrid? = nil) -> Projection {
        if let index {
            guard let nearest = index.nearest(to: p) else { return project(p, segment: 0) }
            let best = project(p, segment: nearest.segment)
            guard let prev = previousAlong else { return best }
            let candidates = index.segments(within: best.distance + tieTolerance, of: p)
            return Self.choose(best: best, previousAlong: prev, tieTolerance: tieTolerance,
                               candidates: candidates.lazy.map { project(p, segment: $0) })
        }
        var best = project(p, segment: 0)
        for i in 1..<segmentCount {
            let q = project(p, segment: i)
            if q.distance < best.distance { best = q }
        }
        guard let prev = previousAlong else { return best }
        return Self.choose(best: best, previousAlong: prev, tieTolerance: tieTolerance,
                           candidates: (0..<segmentCount).lazy.map { project(p, segment: $0) })
    }

    /// Among `candidates` (in increasing segment order) within `tieTolerance` of `best`, the one
    /// whose progress is nearest to `previousAlong` (the first such on ties).
    private static func choose(best: Projection, previousAlong prev: Double, tieTolerance: Double,
                               candidates: some Sequence<Projection>) -> Projection {
        var chosen = best
        for q in candidates where q.distance <= best.distance + tieTolerance
            && Swift.abs(q.along - prev) < Swift.abs(chosen.along - prev) {
            chosen = q
        }
        return chosen
    }
}
