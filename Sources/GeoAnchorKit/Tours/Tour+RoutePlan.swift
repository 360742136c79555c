import Foundation

extension Tour {
    /// The tour a route plan describes: its stops in visiting order, each with a trigger radius,
    /// and the walking path joined from the plan's legs (``WalkLeg/path``: along the path
    /// network when the plan was made on one), ready for ``TourSession`` and, as
    /// ``pathConstraint(crossTrackSigma:)``, for the position filter's map aiding.
    ///
    /// - Parameters:
    ///   - plan: from ``RoutePlanner``.
    ///   - problem: the problem the plan solved (stop coordinates and names).
    ///   - radius: trigger radius (m, in ``TourStop/radiusRange``) of every stop, unless `radii`
    ///     names the stop.
    ///   - radii: per-stop radius by id.
    ///   - zones: zones to add (any order).
    /// - Throws: ``TourError`` for a plan that visits no stop, a stop id unknown to `problem`,
    ///   or the rules of ``init(stops:zones:path:pathID:)``.
    public init(plan: RoutePlan, problem: RouteProblem, radius: Double = 20, radii: [String: Double] = [:],
                zones: [TourZone] = []) throws(TourError) {
        var stops: [TourStop] = []
        let byID = Dictionary(problem.stops.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        for id in plan.order {
            guard let s = byID[id] else {
                throw .invalidFeature(index: stops.count, id: id, reason: "stop \"\(id)\" of the plan is not in the problem")
            }
            let c = s.coordinate
            stops.append(TourStop(id: id, coordinate: GeodeticCoordinate(latitude: c.latitude, longitude: c.longitude),
                                  radius: radii[id] ?? radius))
        }
        var path: [GeodeticCoordinate] = []
        for leg in plan.estimate.legs {
            for c in leg.path {
                let flat = GeodeticCoordinate(latitude: c.latitude, longitude: c.longitude)
                if path.last != flat { path.append(flat) }
            }
        }
        try self.init(stops: stops, zones: zones, path: path.count >= 2 ? path : [], pathID: "path")
    }

    /// The tour's path as the position filter's map-aiding constraint (nil without a path).
    /// - Throws: the errors of ``PathConstraint/init(lines:crossTrackSigma:mapSigma:corridorSigmas:corridorWidth:)``.
    public func pathConstraint(crossTrackSigma: Double = 1.5) throws(GeoAnchorError) -> PathConstraint? {
        path.count >= 2 ? try PathConstraint(lines: [path], crossTrackSigma: crossTrackSigma) : nil
    }
}
