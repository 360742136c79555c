import Foundation

/// A polyline in a local planar frame with its arc length, for projecting positions onto a
/// walking path.
public struct PlanarPolyline: Sendable, Hashable, Codable {
    /// Vertices, meters (x east, y north).
    public let points: [PlanarPoint]
    /// `cumulative[i]` = length of the path from the start to vertex `i`, meters.
    public let cumulative: [Double]

    /// - Precondition: at least 2 points (checked by ``Tour/validate()`` for tour paths).
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
    }

    /// Projection onto segment `i`.
    func project(_ p: PlanarPoint, segment i: Int) -> Projection {
        let a = points[i], b = points[i + 1]
        let ab = b - a, ap = p - a
        let len2 = ab.dot(ab)
        // Degenerate (repeated vertex) segments project onto their single point.
        let t = len2 > 0 ? Swift.min(1, Swift.max(0, ap.dot(ab) / len2)) : 0
        let q = a + ab * t
        return Projection(along: cumulative[i] + t * (cumulative[i + 1] - cumulative[i]),
                          distance: p.distance(to: q), point: q, segment: i)
    }

    /// The closest point of the path to `p`.
    ///
    /// When the path passes near `p` more than once (a loop, an out-and-back street), every
    /// projection within `tieTolerance` meters of the closest distance is a candidate, and the
    /// one whose arc length is nearest to `previousAlong` wins — so progress does not jump to
    /// the other leg of an out-and-back on GPS noise.
    ///
    /// - Parameters:
    ///   - previousAlong: the last known progress (m), or nil for the plain closest point.
    ///   - tieTolerance: meters (≥ 0). Default 5 m.
    /// - Complexity: O(number of segments); exact (checked against brute-force sampling in the tests).
    public func project(_ p: PlanarPoint, previousAlong: Double? = nil, tieTolerance: Double = 5) -> Projection {
        var best = project(p, segment: 0)
        for i in 1..<(points.count - 1) {
            let q = project(p, segment: i)
            if q.distance < best.distance { best = q }
        }
        guard let prev = previousAlong else { return best }
        var chosen = best
        for i in 0..<(points.count - 1) {
            let q = project(p, segment: i)
            if q.distance <= best.distance + tieTolerance, Swift.abs(q.along - prev) < Swift.abs(chosen.along - prev) {
                chosen = q
            }
        }
        return chosen
    }
}
