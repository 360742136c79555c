import Foundation

extension RouteProblem {
    /// Whether each cost-matrix node (``nodeCoordinates`` order) has a height of its own:
    /// the stops' ``RouteStop/hasHeight``, then ``startHasHeight`` and ``endHasHeight`` for
    /// start and end locations.
    public var nodeHasHeight: [Bool] {
        var h = stops.map(\.hasHeight)
        if case .location = start { h.append(startHasHeight) }
        if case .location = end { h.append(endHasHeight) }
        return h
    }

    /// The nodes' coordinates with the heights the costs are computed from.
    ///
    /// On a network with heights a node without a height takes its snap point's height and the
    /// network's vertical reference (a node farther than `maxSnapDistance` from every path, which
    /// the planner reports as unreachable, gets 0 m in that reference); nodes with a height keep
    /// it and must share the network's reference. Without such a network (direct legs, or a
    /// network without heights, ``PathNetwork/hasHeights``) nothing gives a node a height: with
    /// no heights at all every node is put at 0 m above the ellipsoid (a level tour), with all
    /// heights they must share one reference, and a mix is refused.
    /// - Throws: ``RoutingError/mixedVerticalReferences(_:)`` naming the first node that does
    ///   not fit (by its label: stop id, "start" or "end").
    func heightedNodeCoordinates(network: PathNetwork? = nil, maxSnapDistance: Double = 100,
                                 distance: DistanceFunction = RoutingDistance.geodesic) throws(RoutingError) -> [GeodeticCoordinate] {
        var coordinates = nodeCoordinates
        let has = nodeHasHeight
        func name(_ i: Int) -> String { i < stops.count ? "stop '\(stops[i].id)'" : label(ofNode: i) }
        if let network, network.hasHeights, let first = network.vertices.first {
            let reference = first.verticalReference
            for i in coordinates.indices {
                let c = coordinates[i]
                if has[i] {
                    guard c.verticalReference == reference else {
                        throw .mixedVerticalReferences("network vertex 0 is \(reference.rawValue), \(name(i)) is \(c.verticalReference.rawValue)")
                    }
                    continue
                }
                var h = 0.0
                if let s = network.snap(c, distance: distance), s.distance <= maxSnapDistance { h = s.point.height }
                coordinates[i] = GeodeticCoordinate(latitude: c.latitude, longitude: c.longitude, height: h, verticalReference: reference)
            }
            return coordinates
        }
        if !has.contains(true) {
            return coordinates.map { GeodeticCoordinate(latitude: $0.latitude, longitude: $0.longitude) }
        }
        if let k = has.firstIndex(of: false), let j = has.firstIndex(of: true) {
            let source = network == nil ? "direct legs: no path to take it from" : "the paths have no heights to take it from"
            throw .mixedVerticalReferences("\(name(j)) has a height, \(name(k)) has none (\(source))")
        }
        try RoutingCosts.checkOneDatum(coordinates, names: name)
        return coordinates
    }
}
