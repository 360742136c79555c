import Foundation

/// One leg of a walk: from a stop (or the start) to the next.
public struct WalkLeg: Sendable, Hashable {
    /// Label of the origin (stop id, or "start").
    public var from: String
    /// Label of the destination (stop id, "start" for the return of a round trip, or "end").
    public var to: String
    /// Horizontal meters walked.
    public var distance: Double
    /// Meters climbed.
    public var ascent: Double
    /// Meters descended.
    public var descent: Double
    /// Seconds walking (the ``WalkingModel``: Tobler, steep model on steep legs; or the user's
    /// duration matrix).
    public var walkingTime: Double
    /// Seconds waiting at `to` for its time window to open.
    public var waitingTime: Double
    /// Seconds after the tour starts at which the visitor arrives at `to`.
    public var arrival: Double
    /// Seconds after the tour starts at which the visitor leaves `to` (after waiting and dwell).
    public var departure: Double
    /// Cost-matrix nodes of the leg's ends (see ``RouteProblem/nodeCoordinates``).
    public var fromNode: Int, toNode: Int
    /// Where the leg walks, from `from` to `to`: along the ``PathNetwork`` for a plan on a network
    /// (access leg, path vertices, access leg), the straight line between the two otherwise.
    /// Empty for a plan over bare costs (``RoutePlanner/plan(_:costs:options:)``).
    public var path: [GeodeticCoordinate] = []
}

/// How far and how long a tour is: totals and a per-leg breakdown with arrival times.
public struct WalkEstimate: Sendable, Hashable {
    /// Legs in walking order.
    public var legs: [WalkLeg]
    /// Meters.
    public var distance: Double
    /// Meters climbed.
    public var ascent: Double
    /// Meters descended.
    public var descent: Double
    /// Seconds walking.
    public var walkingTime: Double
    /// Seconds spent at stops (dwell, including the start stop's).
    public var dwellTime: Double
    /// Seconds waiting for opening times.
    public var waitingTime: Double
    /// Total seconds: walking + waiting + dwell.
    public var duration: Double { walkingTime + waitingTime + dwellTime }

    /// Throws ``RoutingError/unreachableStops(_:)`` naming the ends of legs that cannot be
    /// walked (an infinite distance or walking time: off the network, or so steep that Tobler's
    /// speed underflows to 0 when the walking model has no steep-terrain model),
    /// instead of an estimate with ∞ in it. The planners' one check of their final walk.
    func checkWalkable() throws(RoutingError) {
        let cut = legs.filter { !($0.distance.isFinite && $0.walkingTime.isFinite) }.map(\.to)
        if !cut.isEmpty { throw .unreachableStops(cut) }
    }

    /// Arrival at each leg's destination, given the tour's start time — in the library's one
    /// time convention: seconds since 1970-01-01 UTC, like ``Fix/time`` (from a `Date`, pass
    /// `date.timeIntervalSince1970`; back with `Date(timeIntervalSince1970:)`).
    public func arrivals(startingAt start: TimeInterval) -> [(stop: String, eta: TimeInterval)] {
        legs.map { ($0.to, start + $0.arrival) }
    }

    /// The walk through `nodes` (cost-matrix indices, in order); `returnTo` appends a closing leg.
    /// `dwell(i)` and `window(i)` describe node i; labels come from `label(i)`.
    public init(nodes: [Int], returnTo: Int? = nil, costs: RoutingCosts, label: (Int) -> String,
                dwell: (Int) -> Double = { _ in 0 }, window: (Int) -> ClosedRange<Double>? = { _ in nil }) {
        self.init(nodes: nodes, returnTo: returnTo,
                  leg: { a, b in (costs.distances[a, b], costs.durations[a, b], costs.ascents[a, b], costs.descents[a, b]) },
                  label: label, dwell: dwell, window: window)
    }

    /// The walk through `nodes` with each leg's costs computed on demand by `leg(a, b)`:
    /// (distance m, walking time s, ascent m, descent m). Used where no n × n matrix is kept.
    public init(nodes: [Int], returnTo: Int? = nil,
                leg: (Int, Int) -> (distance: Double, duration: Double, ascent: Double, descent: Double),
                label: (Int) -> String,
                dwell: (Int) -> Double = { _ in 0 }, window: (Int) -> ClosedRange<Double>? = { _ in nil }) {
        var legs: [WalkLeg] = []
        var t = nodes.first.map(dwell) ?? 0
        var dist = 0.0, up = 0.0, down = 0.0, walk = 0.0, wait = 0.0, dw = t
        var path = nodes
        if let r = returnTo { path.append(r) }
        if path.count > 1 {
            for k in 1..<path.count {
                let a = path[k - 1], b = path[k]
                let closing = returnTo != nil && k == path.count - 1
                let c = leg(a, b)
                let w = c.duration
                t += w
                let arrival = t
                var waited = 0.0
                if !closing, let win = window(b), t < win.lowerBound { waited = win.lowerBound - t; t = win.lowerBound }
                let stay = closing ? 0 : dwell(b)
                t += stay
                legs.append(WalkLeg(from: label(a), to: label(b), distance: c.distance,
                                    ascent: c.ascent, descent: c.descent,
                                    walkingTime: w, waitingTime: waited, arrival: arrival, departure: t,
                                    fromNode: a, toNode: b))
                dist += c.distance; up += c.ascent; down += c.descent
                walk += w; wait += waited; dw += stay
            }
        }
        self.legs = legs
        self.distance = dist; self.ascent = up; self.descent = down
        self.walkingTime = walk; self.waitingTime = wait; self.dwellTime = dw
    }
}
