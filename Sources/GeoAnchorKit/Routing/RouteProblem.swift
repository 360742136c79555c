import Foundation

/// A place the visitor wants to see.
public struct RouteStop: Sendable, Hashable {
    /// Unique id (used in results and constraints).
    public var id: String
    /// Position; the height (any vertical reference, the same for all stops) gives the climbs.
    /// Heights must lie in ``heightRange``. The height is ignored when ``hasHeight`` is false.
    ///
    /// A horizontal `GeodeticCoordinate(latitude:longitude:)` *has* a height (0 m above the
    /// ellipsoid): on paths with heights it makes a climb to the path (400 m for a path at
    /// 400 m). A stop whose height is not known is made with ``init(id:latitude:longitude:dwell:timeWindow:priority:)``.
    public var coordinate: GeodeticCoordinate
    /// Whether ``coordinate``'s height is the stop's height (true, the default) or the stop has
    /// no height of its own (false; its coordinate's height and vertical reference are ignored).
    ///
    /// A stop without a height takes the height of the path where it is snapped on a
    /// ``PathNetwork`` with heights (interpolated along the segment), so the short leg between
    /// the stop and the path is level. Over direct legs, or on a network without heights
    /// (``PathNetwork/hasHeights``), there is nothing to take a height from: the tour is level
    /// when no stop, start or end has a height, and refused with
    /// ``RoutingError/mixedVerticalReferences(_:)`` when some have one and others not — the
    /// climbs between them would be invented.
    public var hasHeight: Bool
    /// Seconds spent at the stop, in ``dwellRange`` ([0, 1 week]).
    public var dwell: TimeInterval
    /// Opening hours in seconds after the tour starts: the visit may begin at `lowerBound`
    /// (the visitor waits if early) and the visitor must arrive by `upperBound`. nil: always open.
    /// Both bounds in ``RouteProblem/timeRange``; `upperBound` may also be `+∞` (never closes).
    public var timeWindow: ClosedRange<TimeInterval>?
    /// nil: the stop is mandatory. A value > 0: the stop is optional with this priority (prize);
    /// with a ``RouteProblem/timeBudget`` the planner keeps the most priority that fits.
    public var priority: Double?

    /// A stop with a height: its coordinate's height gives the climbs.
    /// - Parameters:
    ///   - id: unique id (used in results and constraints).
    ///   - coordinate: position; its height gives the climbs.
    ///   - dwell: seconds spent at the stop, in ``dwellRange``.
    ///   - timeWindow: opening hours, seconds after the tour starts (nil: always open).
    ///   - priority: nil for a mandatory stop, > 0 for an optional one (its prize).
    public init(id: String, coordinate: GeodeticCoordinate, dwell: TimeInterval = 0,
                timeWindow: ClosedRange<TimeInterval>? = nil, priority: Double? = nil) {
        self.id = id
        self.coordinate = coordinate
        self.hasHeight = true
        self.dwell = dwell
        self.timeWindow = timeWindow
        self.priority = priority
    }

    /// A stop without a height (``hasHeight`` false): on a ``PathNetwork`` with heights it takes
    /// the path's height where it is snapped.
    /// - Parameters:
    ///   - id: unique id (used in results and constraints).
    ///   - latitude: degrees (WGS84), [−90, 90].
    ///   - longitude: degrees (WGS84).
    ///   - dwell: seconds spent at the stop, in ``dwellRange``.
    ///   - timeWindow: opening hours, seconds after the tour starts (nil: always open).
    ///   - priority: nil for a mandatory stop, > 0 for an optional one (its prize).
    public init(id: String, latitude: Double, longitude: Double, dwell: TimeInterval = 0,
                timeWindow: ClosedRange<TimeInterval>? = nil, priority: Double? = nil) {
        self.init(id: id, coordinate: GeodeticCoordinate(latitude: latitude, longitude: longitude),
                  dwell: dwell, timeWindow: timeWindow, priority: priority)
        self.hasHeight = false
    }

    /// Heights the planner accepts for stops and start/end locations: ±10 km (the highest
    /// summit is 8.8 km above sea level, the lowest dry land 430 m below; geoid–ellipsoid
    /// separations add ≤ 110 m). Beyond it a leg's slope makes walking times infinite or absurd.
    public static let heightRange = ValueRange.closed(-10_000, 10_000, unit: "m")
    /// Dwell times the planner accepts: [0, 604,800] s (one week), so that sums over the
    /// planner's largest problems stay finite.
    public static let dwellRange = ValueRange.closed(0, 604_800, unit: "s")
}

/// Where the tour starts.
public enum RouteStart: Sendable, Hashable {
    /// At the first stop of ``RouteProblem/stops``.
    case firstStop
    /// At the stop with this id.
    case stop(String)
    /// At a position that is not a stop (where the visitor stands).
    case location(GeodeticCoordinate)
}

/// Where the tour ends.
public enum RouteEnd: Sendable, Hashable {
    /// At whichever stop makes the tour best (open path).
    case free
    /// Back at the start (round trip).
    case returnToStart
    /// At the stop with this id.
    case stop(String)
    /// At a position that is not a stop (e.g. the car park).
    case location(GeodeticCoordinate)
}

/// "Visit `before` before `after`" (a story told in order). Applies when both are visited.
public struct StopPrecedence: Sendable, Hashable {
    public var before: String
    public var after: String
    public init(before: String, after: String) { self.before = before; self.after = after }
}

/// What the planner minimises.
public enum RouteObjective: String, Sendable, Hashable, Codable {
    /// Total walking distance (meters).
    case distance
    /// Total duration: walking, waiting and dwell (seconds). Always used with time windows or
    /// a time budget, since those constrain time.
    case duration
}

/// A tour to plan: stops, start and end, and optional constraints.
///
/// Nodes of the cost matrix are, in this order: the stops (in ``stops`` order), then the start
/// location if ``start`` is ``RouteStart/location(_:)``, then the end location if ``end`` is
/// ``RouteEnd/location(_:)``. A user-supplied ``RoutingCosts`` must follow that order
/// (``nodeCoordinates`` lists them).
public struct RouteProblem: Sendable, Hashable {
    public var stops: [RouteStop]
    public var start: RouteStart
    public var end: RouteEnd
    public var precedences: [StopPrecedence]
    /// Maximum duration in seconds (walking + waiting + dwell), in ``timeRange``. With optional
    /// stops the planner keeps the highest total priority that fits; if the mandatory stops
    /// alone do not fit it reports ``RoutingError/timeBudgetExceeded(budget:requiredDuration:)``.
    public var timeBudget: Double?
    public var objective: RouteObjective
    /// Whether a ``RouteStart/location(_:)`` start has a height of its own (true, the default)
    /// or not (false: its coordinate's height is ignored and, as for a stop without a height
    /// (``RouteStop/hasHeight``), it takes the path's height where it is snapped). Ignored when
    /// the start is a stop.
    public var startHasHeight = true
    /// Whether a ``RouteEnd/location(_:)`` end has a height of its own; as ``startHasHeight``.
    public var endHasHeight = true

    /// Times the planner accepts for time-window bounds and the time budget, seconds after the
    /// tour starts: [0, 31,622,400] s (366 days). Beyond, a window opening at 1e300 s made the
    /// walk wait 1e300 s and every later time absorbed the dwells and legs (a departure equal
    /// to the arrival after a 3600 s dwell); within it, times keep sub-microsecond resolution.
    public static let timeRange = ValueRange.closed(0, 31_622_400, unit: "s")

    public init(stops: [RouteStop], start: RouteStart = .firstStop, end: RouteEnd = .free,
                precedences: [StopPrecedence] = [], timeBudget: Double? = nil, objective: RouteObjective = .distance) {
        self.stops = stops
        self.start = start
        self.end = end
        self.precedences = precedences
        self.timeBudget = timeBudget
        self.objective = objective
    }

    /// The cost-matrix nodes' positions (stops, then start and end locations when given).
    public var nodeCoordinates: [GeodeticCoordinate] {
        var c = stops.map(\.coordinate)
        if case .location(let s) = start { c.append(s) }
        if case .location(let e) = end { c.append(e) }
        return c
    }

    /// Label of node `i` in results: the stop id, or "start" / "end" for locations.
    public func label(ofNode i: Int) -> String {
        if i < stops.count { return stops[i].id }
        if case .location = start, i == stops.count { return "start" }
        return "end"
    }

    /// True when the objective is time (requested, or forced by windows or a budget).
    var isTimed: Bool { objective == .duration || timeBudget != nil || stops.contains { $0.timeWindow != nil } }

    /// Checks every stop's and start/end location's coordinate (``GeodeticCoordinate/validate()``),
    /// height (``RouteStop/heightRange``; not for one without a height, whose height is ignored)
    /// and every stop's dwell (``RouteStop/dwellRange``).
    func validateValues() throws(RoutingError) {
        func check(_ c: GeodeticCoordinate, _ id: String, hasHeight: Bool) throws(RoutingError) {
            do {
                if hasHeight {
                    try c.validate()
                    try RouteStop.heightRange.check(c.height, name: "height")
                } else {
                    try GeodeticCoordinate(latitude: c.latitude, longitude: c.longitude).validate()
                }
            } catch { throw .invalidStop(id: id, error: error) }
        }
        for s in stops {
            try check(s.coordinate, s.id, hasHeight: s.hasHeight)
            guard s.dwell.isFinite, s.dwell >= 0 else {
                throw .invalidStop(id: s.id, error: .outOfRange(name: "dwell", value: s.dwell, allowed: .atLeast(0, unit: "s")))
            }
            guard RouteStop.dwellRange.contains(s.dwell) else {
                throw .invalidStop(id: s.id, error: .outOfRange(name: "dwell", value: s.dwell, allowed: RouteStop.dwellRange))
            }
        }
        if case .location(let c) = start { try check(c, "start", hasHeight: startHasHeight) }
        if case .location(let c) = end { try check(c, "end", hasHeight: endHasHeight) }
    }

    /// Checks ids and values and builds the solver instance over `costs`.
    func instance(costs: RoutingCosts) throws(RoutingError) -> (VisitOrderInstance, startNode: Int, endNode: Int?) {
        guard !stops.isEmpty else { throw .noStops }
        var index: [String: Int] = [:]
        for (i, s) in stops.enumerated() {
            guard index[s.id] == nil else { throw .duplicateStopID(s.id) }
            index[s.id] = i
            if let w = s.timeWindow {
                do {
                    try Self.timeRange.check(w.lowerBound, name: "timeWindow.lowerBound")
                    if w.upperBound != .infinity { try Self.timeRange.check(w.upperBound, name: "timeWindow.upperBound") }
                } catch { throw .invalidStop(id: s.id, error: error) }
            }
            if let p = s.priority, !(p.isFinite && p > 0) {
                throw .invalidStop(id: s.id, error: .outOfRange(name: "priority", value: p, allowed: .greaterThan(0)))
            }
        }
        try validateValues()
        if let b = timeBudget {
            do { try Self.timeRange.check(b, name: "timeBudget") } catch { throw .invalidStop(id: "time budget", error: error) }
        }
        let n = nodeCoordinates.count
        guard costs.count == n else {
            throw .invalidCostMatrix("\(costs.count) nodes, the problem has \(n) (stops, then start/end locations)")
        }
        let startNode: Int
        switch start {
        case .firstStop: startNode = 0
        case .stop(let id):
            guard let i = index[id] else { throw .unknownStopID(id) }
            startNode = i
        case .location: startNode = stops.count
        }
        let end: VisitOrderEnd
        var endNode: Int? = nil
        switch self.end {
        case .free: end = .free
        case .returnToStart: end = .roundTrip
        case .stop(let id):
            guard let i = index[id] else { throw .unknownStopID(id) }
            end = .node(i); endNode = i
        case .location: endNode = n - 1; end = .node(n - 1)
        }
        let timed = isTimed
        // A leg whose walking time is infinite (so steep that Tobler's speed underflows, without
        // a steep-terrain model) cannot be walked: the distance objective must avoid it too.
        var objective = timed ? costs.durations : costs.distances
        if !timed, costs.durations.values.contains(where: { !$0.isFinite }) {
            objective = CostMatrix(count: n) { i, j in costs.durations[i, j].isFinite ? costs.distances[i, j] : .infinity }
        }
        var p = VisitOrderInstance(cost: objective, start: startNode, end: end)
        p.timed = timed
        for (i, s) in stops.enumerated() {
            p.service[i] = s.dwell
            if let w = s.timeWindow { p.windowOpen[i] = w.lowerBound; p.windowClose[i] = w.upperBound }
            if let pr = s.priority, i != startNode, i != endNode { p.optional[i] = true; p.prize[i] = pr }
        }
        for c in precedences {
            guard let a = index[c.before] else { throw .unknownStopID(c.before) }
            guard let b = index[c.after] else { throw .unknownStopID(c.after) }
            if a == b || b == startNode || (endNode != nil && a == endNode! && !(end == .roundTrip)) {
                throw .contradictoryPrecedence([c.before, c.after])
            }
            p.successors[a].append(b)
        }
        if let cycle = p.precedenceCycle() { throw .contradictoryPrecedence(cycle.map { label(ofNode: $0) }) }
        p.budget = timeBudget
        // Reachability: every stop (and an end location) must be reachable from the start and
        // back (finite legs, in distance and walking time, both ways); the others are reported
        // by label.
        var unreachable: [String] = []
        for i in 0..<n where i != startNode {
            if !costs.distances[startNode, i].isFinite || !costs.distances[i, startNode].isFinite
                || !costs.durations[startNode, i].isFinite || !costs.durations[i, startNode].isFinite {
                unreachable.append(label(ofNode: i))
            }
        }
        if !unreachable.isEmpty { throw .unreachableStops(unreachable) }
        return (p, startNode, endNode)
    }
}
