import Foundation

/// A function returning the distance in meters between two positions.
public typealias DistanceFunction = @Sendable (GeodeticCoordinate, GeodeticCoordinate) -> Double

/// Distance functions for building ``RoutingCosts``.
public enum RoutingDistance {
    /// The ellipsoidal (WGS84) geodesic distance in meters between the positions' footprints
    /// (heights ignored), by ``Geodesic/distance(latitude1:longitude1:latitude2:longitude2:)``
    /// (Karney's algorithm; ≤ 15 nm against GeographicLib's GeodTest).
    public static let geodesic: DistanceFunction = { a, b in
        Geodesic.wgs84.distance(latitude1: a.latitude, longitude1: a.longitude,
                                latitude2: b.latitude, longitude2: b.longitude)
    }
}

/// Everything the tour solvers and the walk estimate need about travelling between nodes:
/// distance (m), walking time (s), ascent and descent (m) for every ordered pair.
///
/// Build it from coordinates (geodesic legs, walking time from the height difference by a
/// ``WalkingModel``: Tobler's hiking function, the steep-terrain model on stairs and steep legs),
/// from a ``PathNetwork`` (shortest paths along real paths), or from user matrices.
public struct RoutingCosts: Sendable, Hashable {
    /// Meters along the leg (horizontal).
    public var distances: CostMatrix
    /// Walking seconds along the leg (no dwell).
    public var durations: CostMatrix
    /// Meters climbed along the leg.
    public var ascents: CostMatrix
    /// Meters descended along the leg.
    public var descents: CostMatrix

    /// Number of nodes.
    public var count: Int { distances.count }

    /// Costs from user matrices. Missing durations are derived from the distances at Tobler's
    /// flat speed (5.04 km/h); missing ascent/descent are 0.
    /// - Throws: ``RoutingError/invalidCostMatrix(_:)`` if the sizes differ.
    public init(distances: CostMatrix, durations: CostMatrix? = nil,
                ascents: CostMatrix? = nil, descents: CostMatrix? = nil) throws(RoutingError) {
        let n = distances.count
        for (name, m) in [("durations", durations), ("ascents", ascents), ("descents", descents)] {
            if let m, m.count != n { throw .invalidCostMatrix("\(name) is \(m.count)×\(m.count), distances \(n)×\(n)") }
        }
        self.distances = distances
        let flat = WalkingModel.tobler.speed(slope: 0)
        self.durations = durations ?? CostMatrix(count: n) { i, j in distances[i, j] / flat }
        self.ascents = ascents ?? CostMatrix(count: n)
        self.descents = descents ?? CostMatrix(count: n)
    }

    /// Direct legs between coordinates: `distance` for the horizontal length (geodesic by
    /// default), the height difference of the endpoints for ascent/descent, and `walking` for
    /// the time at the leg's mean slope.
    ///
    /// Heights must share one vertical reference (only differences are used). With the steep
    /// model (the default) every leg gets a finite duration; without it (`steepTerrain` nil) a
    /// leg too steep to walk (Tobler's speed underflowing to 0) gets an infinite one.
    /// - Throws: ``RoutingError/mixedVerticalReferences(_:)`` when they do not;
    ///   ``RoutingError/invalidWalkingModel(_:)`` when `walking` fails ``WalkingModel/validate()``.
    public init(coordinates: [GeodeticCoordinate], distance: DistanceFunction = RoutingDistance.geodesic,
                walking: WalkingModel = .tobler) throws(RoutingError) {
        try walking.check()
        try Self.checkOneDatum(coordinates, names: { "point \($0)" })
        let n = coordinates.count
        var d = CostMatrix(count: n), t = CostMatrix(count: n), up = CostMatrix(count: n), down = CostMatrix(count: n)
        for i in 0..<n {
            for j in (i + 1)..<max(i + 1, n) {
                let s = distance(coordinates[i], coordinates[j])
                let dh = coordinates[j].height - coordinates[i].height
                d[i, j] = s; d[j, i] = s
                t[i, j] = walking.duration(horizontalDistance: s, heightChange: dh)
                t[j, i] = walking.duration(horizontalDistance: s, heightChange: -dh)
                up[i, j] = max(0, dh) + 0; up[j, i] = max(0, -dh) + 0
                down[i, j] = max(0, -dh) + 0; down[j, i] = max(0, dh) + 0
            }
        }
        self.distances = d; self.durations = t; self.ascents = up; self.descents = down
    }

    /// Throws when `coordinates` mix vertical references (`names(i)` names coordinate i).
    static func checkOneDatum(_ coordinates: [GeodeticCoordinate], names: (Int) -> String) throws(RoutingError) {
        guard let first = coordinates.first else { return }
        if let k = coordinates.firstIndex(where: { $0.verticalReference != first.verticalReference }) {
            throw .mixedVerticalReferences("\(names(0)) is \(first.verticalReference.rawValue), \(names(k)) is \(coordinates[k].verticalReference.rawValue)")
        }
    }
}
