import Foundation

/// Which OpenStreetMap ways a walker may use: the rules ``PathNetwork/openStreetMap(_:walkability:distance:)``
/// applies to each way's tags.
///
/// ``standard`` follows the foot profile of OSRM (Project OSRM's `profiles/foot.lua`), the
/// router behind openstreetmap.org's walking directions:
/// 1. A way that does not exist on the ground (``nonexistent``: `highway=construction`,
///    `proposed`, `abandoned`, `razed`, `disused`) or has no `highway` tag (buildings,
///    landuse, rivers) — except `man_made=pier` — is not walkable.
/// 2. Access, most specific first (`foot`, then `access`): a value in ``forbidden`` (`no`,
///    `private`, `agricultural`, `forestry`, `use_sidepath`) closes the way; a value in
///    ``allowed`` (`yes`, `designated`, `permissive`, `foot`) opens it whatever its highway
///    type (a cycleway or trunk road with `foot=yes`).
/// 3. Otherwise the highway type decides: ``highways`` (footway, path, steps, pedestrian,
///    track, living_street, residential, service, unclassified, tertiary, secondary, primary
///    and their links, road, pier, platform). Motorways, trunk roads, cycleways and bridleways
///    are not walkable unless tagged so.
/// 4. A node a walker cannot pass cuts the ways through it (``blocks(node:)``): closed by
///    `foot`/`access` as a way is (a castle gate with `access=private`), or a `barrier` not in
///    ``passableBarriers`` (a fence or wall mapped as a node) unless `foot`/`access` allows it.
///
/// Not modelled: one-way rules (walkers may go both ways; OSRM too, except `oneway:foot`),
/// turn restrictions, `surface` speeds, opening hours. A closed pedestrian area
/// (`highway=pedestrian` + `area=yes`, a square) is walked along its outline.
public struct OSMWalkability: Sendable, Hashable {
    /// Walkable `highway` values.
    public var highways: Set<String>
    /// `foot`/`access` values that close a way to walkers.
    public var forbidden: Set<String>
    /// `foot`/`access` values that open any highway to walkers.
    public var allowed: Set<String>
    /// `highway` values of ways not (or no longer) on the ground: never walkable.
    public var nonexistent: Set<String>

    /// `barrier` values a walker passes (OSRM's foot profile: gates, bollards, stiles, …).
    public var passableBarriers: Set<String>

    public init(highways: Set<String>, forbidden: Set<String>, allowed: Set<String>, nonexistent: Set<String>,
                passableBarriers: Set<String> = OSMWalkability.standardPassableBarriers) {
        self.highways = highways; self.forbidden = forbidden; self.allowed = allowed; self.nonexistent = nonexistent
        self.passableBarriers = passableBarriers
    }

    /// The barriers OSRM's foot profile lets walkers through.
    public static let standardPassableBarriers: Set<String> = [
        "no", "gate", "lift_gate", "swing_gate", "kissing_gate", "hampshire_gate", "bollard", "block", "cycle_barrier",
        "entrance", "cattle_grid", "border_control", "toll_booth", "sally_port", "kerb", "stile", "turnstile", "chain"]

    /// Why a walker cannot pass a node with these tags (`access=private`, `barrier=fence`), nil
    /// when they can (untagged nodes, benches, open gates).
    public func blocks(node tags: [String: String]) -> String? {
        for key in ["foot", "access"] {
            guard let v = tags[key] else { continue }
            if forbidden.contains(v) { return "\(key)=\(v)" }
            if allowed.contains(v) { return nil }
            if key == "foot" { break }
        }
        if let b = tags["barrier"], !passableBarriers.contains(b) { return "barrier=\(b)" }
        return nil
    }

    /// OSRM's foot profile (see the type's description).
    public static let standard = OSMWalkability(
        highways: ["primary", "primary_link", "secondary", "secondary_link", "tertiary", "tertiary_link",
                   "unclassified", "residential", "road", "living_street", "service", "track", "path", "steps",
                   "pedestrian", "footway", "pier", "platform"],
        forbidden: ["no", "private", "agricultural", "forestry", "use_sidepath"],
        allowed: ["yes", "designated", "permissive", "foot"],
        nonexistent: ["construction", "proposed", "abandoned", "razed", "disused"])

    /// Why a way is or is not walkable.
    public enum Verdict: Sendable, Hashable {
        /// A walkable way.
        case walkable
        /// No `highway` tag (and not a pier): a building, a river, a boundary …
        case notAPath
        /// A `highway` value of ``OSMWalkability/nonexistent`` (the value).
        case notBuilt(String)
        /// Closed by `foot` or `access` (the key and value, e.g. `access=private`).
        case closed(String)
        /// A highway type walkers do not use without a tag allowing it (the value, e.g. `motorway`).
        case notForWalking(String)
    }

    /// The verdict on a way's tags.
    public func verdict(_ tags: [String: String]) -> Verdict {
        guard let highway = tags["highway"] ?? (tags["man_made"] == "pier" ? "pier" : nil) else { return .notAPath }
        if nonexistent.contains(highway) { return .notBuilt(highway) }
        for key in ["foot", "access"] {
            guard let v = tags[key] else { continue }
            if forbidden.contains(v) { return .closed("\(key)=\(v)") }
            if allowed.contains(v) { return .walkable }
            if key == "foot" { break }   // another foot value (destination, customers …): the highway type decides
        }
        return highways.contains(highway) ? .walkable : .notForWalking(highway)
    }
}

extension OSMWalkability {
    /// What the rules kept of a file's ways: for a report, so nothing is dropped silently.
    public struct Summary: Sendable, Hashable {
        /// Walkable ways used as paths.
        public var walkableWays = 0
        /// Ways left out, by reason: `highway=motorway`, `access=private`, `not a path`, …
        public var leftOut: [String: Int] = [:]
        /// Walkable ways with node references the file does not hold (an Overpass query without
        /// `>;` or a clipped `out geom(bbox)`): their pieces with known nodes are used.
        public var waysMissingNodes = 0
        /// Node references of walkable ways the file does not hold.
        public var missingNodes = 0
        /// Walkable ways with fewer than two known nodes (nothing to walk): left out.
        public var degenerateWays = 0
        /// Nodes on walkable ways that cut them (``OSMWalkability/blocks(node:)``), by reason
        /// (`access=private`, `barrier=fence`).
        public var blockedNodes: [String: Int] = [:]
    }
}

extension OSMData {
    /// The walkable ways' lines (WGS84, no heights; a way split where the file lacks a node),
    /// the way each line comes from, and what was used and left out — the paths of
    /// ``PathNetwork/openStreetMap(_:walkability:distance:)`` and, for map aiding, of a
    /// ``PathConstraint`` (`PathConstraint(lines: paths.lines)`: every street the visitor may
    /// walk, not only a tour's).
    public func walkablePaths(_ walkability: OSMWalkability = .standard) -> (lines: [[GeodeticCoordinate]], ways: [Way], summary: OSMWalkability.Summary) {
        var summary = OSMWalkability.Summary()
        var lines: [[GeodeticCoordinate]] = [], wayOf: [Way] = []
        var blockedSeen = Set<Int64>()
        for way in ways {
            switch walkability.verdict(way.tags) {
            case .walkable: break
            case .notAPath: summary.leftOut["not a path", default: 0] += 1; continue
            case .notBuilt(let h), .notForWalking(let h): summary.leftOut["highway=\(h)", default: 0] += 1; continue
            case .closed(let tag): summary.leftOut[tag, default: 0] += 1; continue
            }
            // Pieces between references the file does not hold and nodes a walker cannot pass
            // (the node and its segments left out).
            var piece: [GeodeticCoordinate] = [], pieces: [[GeodeticCoordinate]] = []
            var missing = 0
            for ref in way.nodes {
                let blocked = nodeTags[ref].flatMap { walkability.blocks(node: $0) }
                if let p = nodes[ref], blocked == nil { piece.append(p) } else {
                    if let blocked {
                        if blockedSeen.insert(ref).inserted { summary.blockedNodes[blocked, default: 0] += 1 }
                    } else { missing += 1 }
                    if piece.count >= 2 { pieces.append(piece) }
                    piece = []
                }
            }
            if piece.count >= 2 { pieces.append(piece) }
            if missing > 0 { summary.waysMissingNodes += 1; summary.missingNodes += missing }
            guard !pieces.isEmpty else { summary.degenerateWays += 1; continue }
            summary.walkableWays += 1
            for p in pieces { lines.append(p); wayOf.append(way) }
        }
        return (lines, wayOf, summary)
    }

    /// Why a file gave no walkable line (``walkablePaths(_:)`` empty): what it holds.
    package func noWalkableWayReason(_ summary: OSMWalkability.Summary) -> String {
        let held = "\(ways.count) way(s), \(nodes.count) node(s)"
        return summary.missingNodes > 0
            ? "no walkable way has two nodes in the file (\(held); \(summary.missingNodes) node reference(s) missing: an Overpass query needs `(._;>;); out;` or `out geom;`)"
            : "no walkable way (\(held)" + (summary.leftOut.isEmpty ? ")" : "; left out: " + PathNetwork.describe(summary.leftOut) + ")")
    }
}

extension PathNetwork {
    /// A walking network from an OpenStreetMap XML or PBF file (openstreetmap.org's Export, JOSM,
    /// Overpass, osmium; ``OSMReader``): each walkable way (``OSMWalkability``,
    /// ``OSMData/walkablePaths(_:)``) is a path, and ways connect where they share a node, as in
    /// OSM itself (a bridge over a road shares none). Without heights (OSM has none): give stops
    /// their altitudes, or sample a DEM with ``withHeights(from:spacing:)``.
    /// - Parameters:
    ///   - url: the `.osm`, `.osm.gz` or `.osm.pbf` file.
    ///   - walkability: which ways are walkable (OSRM's foot profile by default).
    ///   - distance: as in ``init(lineStrings:distance:hasHeights:)``.
    /// - Returns: the network and what was used and left out.
    /// - Throws: ``RoutingError/malformedInput(source:line:reason:)`` for a file that is not OSM
    ///   or has a bad element (with its line), or when no walkable way has two known nodes
    ///   (the reason says what the file holds).
    public static func openStreetMap(_ url: URL, walkability: OSMWalkability = .standard,
                                     distance: DistanceFunction = RoutingDistance.geodesic) throws(RoutingError) -> (network: PathNetwork, summary: OSMWalkability.Summary) {
        let data = try reading { () throws(TraceFormatError) in try OSMReader.read(url: url) }
        return try openStreetMap(data: data, source: url.path, walkability: walkability, distance: distance)
    }

    /// ``openStreetMap(_:walkability:distance:)`` of data already read (``OSMReader``); `source` names it in errors.
    public static func openStreetMap(data: OSMData, source: String, walkability: OSMWalkability = .standard,
                                     distance: DistanceFunction = RoutingDistance.geodesic) throws(RoutingError) -> (network: PathNetwork, summary: OSMWalkability.Summary) {
        let (lines, wayOf, summary) = data.walkablePaths(walkability)
        guard !lines.isEmpty else { throw .malformedInput(source: source, line: nil, reason: data.noWalkableWayReason(summary)) }
        do { return (try PathNetwork(lineStrings: lines, distance: distance, hasHeights: false), summary) } catch {
            if case .malformedInput(_, let l?, let r) = error {
                let way = wayOf[l - 1]
                throw .malformedInput(source: source, line: way.line, reason: "way \(way.id): \(r)")
            }
            throw error
        }
    }

    /// `highway=motorway 3, access=private 1` (largest first, then by name).
    package static func describe(_ counts: [String: Int]) -> String {
        counts.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.map { "\($0.key) \($0.value)" }.joined(separator: ", ")
    }
}
