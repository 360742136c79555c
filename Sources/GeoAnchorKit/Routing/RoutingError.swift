import Foundation

/// Why a routing problem cannot be solved as posed. Each case names the offending stop ids,
/// values or constraint so that an app (or `geobench`) can tell the user what to change.
public enum RoutingError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The problem has no stops at all.
    case noStops
    /// Two or more stops share this id.
    case duplicateStopID(String)
    /// A constraint, start or end refers to a stop id that is not in the problem.
    case unknownStopID(String)
    /// A stop has an invalid attribute (negative dwell, a window opening before the start, a
    /// non-positive priority, an invalid coordinate); `error` names the value and its allowed range.
    case invalidStop(id: String, error: GeoAnchorError)
    /// These stops cannot be reached from the start (disconnected path network, too far from any
    /// path, or an infinite entry in a user matrix).
    case unreachableStops([String])
    /// The precedence constraints contain a cycle (the ids along it, first repeated at the end),
    /// or put a stop before the start / after the fixed end.
    case contradictoryPrecedence([String])
    /// No order visits the mandatory stops within their time windows. `stops` names the windows
    /// that are violated (a stop that cannot be reached in time even directly from the start is
    /// named alone).
    case infeasibleTimeWindows(stops: [String])
    /// The mandatory stops alone need `requiredDuration` seconds, more than `budget`: their
    /// dwell alone, or the least duration of an order through them (exact up to
    /// ``SolverConfiguration/exactLimit`` free stops, the heuristic's best beyond).
    case timeBudgetExceeded(budget: Double, requiredDuration: Double)
    /// A cost matrix whose size or entries are unusable.
    case invalidCostMatrix(String)
    /// The exact solver was asked for more free stops than it supports.
    case tooManyStopsForExactSolver(count: Int, limit: Int)
    /// A malformed input file (TSPLIB, path network); `line` is 1-based when known.
    case malformedInput(source: String, line: Int?, reason: String)
    /// More nodes than the solvers handle within their memory bound: ``VisitOrderSolver/maximumNodes``
    /// with full matrices, ``RoutePlanner/maximumSparseNodes`` for plain tours.
    case tooManyStops(count: Int, limit: Int)
    /// Heights to be compared (climbs) are above different datums — e.g. a start with
    /// CoreLocation's MSL `altitude` and stops with ellipsoidal heights, ≈ 45 m apart in Prague.
    /// Convert them to one datum first (``GeoidGrid``). Also thrown when some stops or start/end
    /// locations have a height and others none (``RouteStop/hasHeight``) and nothing gives
    /// them one: over direct legs or on a network without heights (``PathNetwork/hasHeights``).
    /// `what` names the first mismatching pair.
    case mixedVerticalReferences(String)
    /// The ``WalkingModel`` has a parameter outside its range (``WalkingModel/validate()``);
    /// `error` names it, its value and the allowed range.
    case invalidWalkingModel(GeoAnchorError)
    /// The ``SolverConfiguration`` has a value outside its range (``SolverConfiguration/validate()``);
    /// `error` names it, its value and the allowed range.
    case invalidSolverConfiguration(GeoAnchorError)

    public var description: String {
        switch self {
        case .noStops: return "the problem has no stops"
        case .duplicateStopID(let id): return "duplicate stop id '\(id)'"
        case .unknownStopID(let id): return "unknown stop id '\(id)'"
        case .invalidStop(let id, let e): return "stop '\(id)': \(e)"
        case .unreachableStops(let ids): return "unreachable stops: \(ids.joined(separator: ", "))"
        case .contradictoryPrecedence(let ids):
            return "contradictory precedence constraints: \(ids.joined(separator: " → "))"
        case .infeasibleTimeWindows(let ids):
            return "infeasible time windows at stops: \(ids.joined(separator: ", "))"
        case .timeBudgetExceeded(let b, let r):
            return String(format: "the mandatory stops need %.0f s, more than the time budget of %.0f s", r, b)
        case .invalidCostMatrix(let r): return "invalid cost matrix: \(r)"
        case .tooManyStopsForExactSolver(let c, let l): return "\(c) stops exceed the exact solver's limit of \(l)"
        case .tooManyStops(let c, let l):
            return "\(c) nodes (stops and start/end locations) exceed the limit of \(l) for this kind of problem (README: Limits and errors)"
        case .mixedVerticalReferences(let what):
            return "heights cannot be compared (\(what)); give all of them heights above one vertical reference (convert with a geoid), or none"
        case .invalidWalkingModel(let e): return "walking model: \(e)"
        case .invalidSolverConfiguration(let e): return "solver options: \(e)"
        case .malformedInput(let s, let l, let r):
            if let l { return "\(s):\(l): \(r)" }
            return "\(s): \(r)"
        }
    }
}
