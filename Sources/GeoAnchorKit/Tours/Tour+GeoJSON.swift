import Foundation

extension Tour {
    /// Loads a tour from a GeoJSON FeatureCollection (RFC 7946, decoded with the Traces
    /// module's ``GeoJSONFeatureCollection`` model).
    ///
    /// A tour file carries a `kind` property on every feature:
    /// - `"stop"`: a Point with `id` (string or number, in `properties` or the feature's `id`)
    ///   and `radius` (meters, in ``TourStop/radiusRange``: (0, 100 km]); optional `name`. Stops
    ///   are visited in file order.
    /// - `"zone"`: a Polygon or MultiPolygon (closed rings) with `id`; optional `name`.
    /// - `"path"`: a LineString (≥ 2 positions) or MultiLineString; several path features are
    ///   joined in file order. The first path feature's `id` (if any) names `off_route` events.
    ///
    /// A GeoJSON drawn elsewhere (geojson.io, uMap, QGIS, ogr2ogr) has no `kind` on any feature:
    /// then each feature is read by its geometry — a Point is a stop (id: `id`, else `name`, else
    /// `title`, else `stop N`; radius: a numeric `radius` property, else `radius`), a LineString
    /// or MultiLineString the path, a Polygon or MultiPolygon a zone (id as a stop's, else
    /// `zone N`). A file where some features have a `kind` and others not is refused, naming
    /// the first without (a mistyped tour file must not be half-guessed).
    ///
    /// - Throws: ``TourError/invalidFeature(index:id:reason:)`` naming the feature's index in
    ///   `features` and its id (unclosed ring, stop without radius, empty path, a path whose
    ///   positions are all equal (length 0), an empty `id`, missing or unknown `kind`, wrong
    ///   geometry type, coordinates out of range),
    ///   ``TourError/duplicateID(_:firstIndex:secondIndex:)``, ``TourError/noStops``, or
    ///   ``TourError/notAFeatureCollection(source:reason:)``.
    /// - Parameters:
    ///   - data: the GeoJSON text (UTF-8).
    ///   - source: names the data in errors (a file path).
    ///   - radius: the trigger radius (m, in ``TourStop/radiusRange``) of a stop in a file
    ///     without `kind`s that has no `radius` property; unused for a tour file.
    public init(geoJSON data: Data, source: String = "<geojson>", radius: Double = 20) throws(TourError) {
        let root: JSONValue
        do { root = try JSONDecoder().decode(JSONValue.self, from: data) } catch {
            // The parser's own words ("Number 1e400 is not representable in Swift."), not
            // localizedDescription's "The data isn't in the correct format."
            let d = GeoJSONFeatureCollection.describe(error, data: data)
            throw .notAFeatureCollection(source: source, reason: d.hasPrefix("invalid JSON") ? d : "invalid JSON: \(d)")
        }
        guard root["type"]?.stringValue == "FeatureCollection" else {
            throw .notAFeatureCollection(source: source, reason: "top-level \"type\" is \(root["type"].map { "\($0)" } ?? "missing"), expected \"FeatureCollection\"")
        }
        guard let features = root["features"]?.arrayValue else {
            throw .notAFeatureCollection(source: source, reason: "missing \"features\" array")
        }
        var stops: [TourStop] = [], zones: [TourZone] = [], path: [GeodeticCoordinate] = []
        var pathID: String?, pathIndex: Int?
        var stopIndex: [String: Int] = [:], zoneIndex: [String: Int] = [:]
        // A file drawn elsewhere: no feature has a kind; each is read by its geometry.
        let untyped = !features.contains { $0["properties"]?["kind"] != nil }
        if untyped {
            do { try TourStop.radiusRange.check(radius, name: "stop radius") } catch {
                throw .notAFeatureCollection(source: source, reason: "\(error)")
            }
        }
        for (i, raw) in features.enumerated() {
            var rawID = raw["properties"]?["id"]?.identifier ?? raw["id"]?.identifier
            func bad(_ reason: String) -> TourError { .invalidFeature(index: i, id: rawID, reason: reason) }
            // An empty id would name events "" (a CSV line ending in a comma).
            if rawID == "" { throw bad("empty \"id\" (a stop, zone or path id names its events)") }
            // Decode one feature with the shared GeoJSON model, so its errors name this feature.
            let feature: GeoJSONFeature
            do {
                let d = try JSONEncoder().encode(raw)
                guard let f = try GeoJSONFeatureCollection.decode(d, source: "feature").features.first else { throw bad("empty feature") }
                feature = f
            } catch let e as TraceFormatError {
                throw bad(e.message)
            } catch let e as TourError {
                throw e
            } catch {
                throw bad("\(error)")
            }
            let kind: String
            if let k = feature.string("kind") {
                kind = k
            } else if untyped {
                switch feature.geometry {
                case .point?: kind = "stop"
                case .lineString?, .multiLineString?: kind = "path"
                case .polygon?, .multiPolygon?: kind = "zone"
                case let g:
                    throw bad("a feature without \"kind\" is read by its geometry — Point: stop, LineString or MultiLineString: path, "
                              + "Polygon or MultiPolygon: zone — got \(g?.typeName ?? "null geometry")")
                }
                if kind != "path" && rawID == nil {
                    let n = (kind == "stop" ? stops.count : zones.count) + 1
                    let named = [feature.string("name"), feature.string("title")].lazy
                        .compactMap { $0?.trimmingCharacters(in: .whitespacesAndNewlines) }.first { !$0.isEmpty }
                    rawID = named ?? "\(kind) \(n)"
                }
            } else {
                throw bad("missing \"kind\" property (expected \"stop\", \"zone\" or \"path\"; another feature has one)")
            }
            func coordinate(_ p: GeoJSONPosition) throws(TourError) -> GeodeticCoordinate {
                let c = GeodeticCoordinate(latitude: p.latitude, longitude: p.longitude, ellipsoidalHeight: 0)
                do { try c.validate() } catch { throw bad("\(error)") }
                return c
            }
            func polygon(_ rings: [[GeoJSONPosition]]) throws(TourError) -> [[GeodeticCoordinate]] {
                var rs: [[GeodeticCoordinate]] = []
                for (k, ring) in rings.enumerated() {
                    // The GeoJSON model already checks closure and length; kept for values built in code.
                    guard ring.count >= 4, ring.first == ring.last else { throw bad("zone ring \(k) is not a closed ring of ≥ 4 positions") }
                    var cs: [GeodeticCoordinate] = []
                    for p in ring { cs.append(try coordinate(p)) }
                    rs.append(cs)
                }
                guard !rs.isEmpty else { throw bad("zone polygon has no rings") }
                return rs
            }
            switch (kind, feature.geometry) {
            case ("stop", .point(let p)?):
                guard let id = rawID else { throw bad("stop without \"id\"") }
                let fallback: JSONValue? = untyped ? .number(radius) : nil
                guard let rv = feature.properties?["radius"] ?? fallback else { throw bad("stop without \"radius\" (meters)") }
                guard let r = rv.doubleValue else { throw bad("stop radius \(rv) must be a number of meters in \(TourStop.radiusRange)") }
                do { try TourStop.radiusRange.check(r, name: "stop radius") } catch { throw bad("\(error)") }
                if let j = stopIndex[id] { throw .duplicateID(id, firstIndex: j, secondIndex: i) }
                stopIndex[id] = i
                stops.append(TourStop(id: id, coordinate: try coordinate(p), radius: r, name: feature.string("name")))
            case ("zone", .polygon(let rings)?):
                guard let id = rawID else { throw bad("zone without \"id\"") }
                if let j = zoneIndex[id] { throw .duplicateID(id, firstIndex: j, secondIndex: i) }
                zoneIndex[id] = i
                zones.append(TourZone(id: id, rings: try polygon(rings), name: feature.string("name")))
            case ("zone", .multiPolygon(let polygons)?):
                guard let id = rawID else { throw bad("zone without \"id\"") }
                if let j = zoneIndex[id] { throw .duplicateID(id, firstIndex: j, secondIndex: i) }
                zoneIndex[id] = i
                guard !polygons.isEmpty else { throw bad("zone MultiPolygon has no polygons") }
                var ps: [[[GeodeticCoordinate]]] = []
                for p in polygons { ps.append(try polygon(p)) }
                zones.append(TourZone(id: id, polygons: ps, name: feature.string("name")))
            case ("path", .lineString(let ps)?):
                guard ps.count >= 2 else { throw bad("empty path: a LineString needs ≥ 2 positions, got \(ps.count)") }
                for p in ps { path.append(try coordinate(p)) }
                if pathID == nil { pathID = rawID }
                if pathIndex == nil { pathIndex = i }
            case ("path", .multiLineString(let ls)?):
                guard !ls.isEmpty else { throw bad("empty path: MultiLineString without lines") }
                for l in ls { for p in l { path.append(try coordinate(p)) } }
                if pathID == nil { pathID = rawID }
                if pathIndex == nil { pathIndex = i }
            case ("stop", let g), ("zone", let g), ("path", let g):
                let expected = kind == "stop" ? "Point" : kind == "zone" ? "Polygon or MultiPolygon" : "LineString or MultiLineString"
                throw bad("a \"\(kind)\" must be a \(expected), got \(g?.typeName ?? "null geometry")")
            default:
                throw bad("unknown \"kind\" \"\(kind)\" (expected \"stop\", \"zone\" or \"path\")")
            }
        }
        guard !stops.isEmpty else { throw .noStops }
        if let pathIndex, let reason = Self.zeroLengthPath(path) {
            throw .invalidFeature(index: pathIndex, id: pathID, reason: reason)
        }
        self.stops = stops; self.zones = zones; self.path = path; self.pathID = pathID ?? "path"
        // Remaining rules (duplicate-free, finite) hold by construction; re-check for safety.
        try validate()
    }

    /// Reads a tour GeoJSON file (compressed, or a member of a ZIP archive, as
    /// ``GeoJSONFeatureCollection/read(contentsOf:)``). See ``init(geoJSON:source:radius:)``.
    public init(contentsOf url: URL, radius: Double = 20) throws(TourError) {
        let d: Data
        do { d = try ByteLineReader.contents(of: url) } catch { throw .notAFeatureCollection(source: url.path, reason: error.message) }
        try self.init(geoJSON: d, source: url.path, radius: radius)
    }
}
