import Foundation

extension Tour {
    /// The tour as a tour GeoJSON file — what ``init(geoJSON:source:radius:)`` reads back to an
    /// equal tour, `geobench tour --tour` replays and an app ships: each stop a Point with
    /// `"kind": "stop"`, `id`, `name` (when it has one) and `radius`, in visiting order; each
    /// zone a Polygon (MultiPolygon for several) with `"kind": "zone"`, `id`, `name`; the path a
    /// LineString with `"kind": "path"` and ``pathID`` (none without a path). Positions are
    /// `[longitude, latitude]` in degrees (RFC 7946; a tour keeps no heights), written as the
    /// shortest decimals that read back to the same `Double`s.
    public func geoJSON() -> Data {
        let string = JSONValue.quoted
        let number = JSONValue.numberText
        func position(_ c: GeodeticCoordinate) -> String { "[\(number(c.longitude)), \(number(c.latitude))]" }
        func ring(_ r: [GeodeticCoordinate]) -> String { "[" + r.map(position).joined(separator: ", ") + "]" }
        func polygon(_ p: [[GeodeticCoordinate]]) -> String { "[" + p.map(ring).joined(separator: ", ") + "]" }
        func feature(_ properties: [(String, String)], _ geometry: String) -> String {
            "  {\"type\": \"Feature\", \"properties\": {" + properties.map { "\(string($0.0)): \($0.1)" }.joined(separator: ", ")
                + "}, \"geometry\": " + geometry + "}"
        }
        var features: [String] = []
        for s in stops {
            var p = [("kind", string("stop")), ("id", string(s.id))]
            if let n = s.name { p.append(("name", string(n))) }
            p.append(("radius", number(s.radius)))
            features.append(feature(p, "{\"type\": \"Point\", \"coordinates\": \(position(s.coordinate))}"))
        }
        for z in zones {
            var p = [("kind", string("zone")), ("id", string(z.id))]
            if let n = z.name { p.append(("name", string(n))) }
            let g = z.polygons.count == 1
                ? "{\"type\": \"Polygon\", \"coordinates\": \(polygon(z.polygons[0]))}"
                : "{\"type\": \"MultiPolygon\", \"coordinates\": [" + z.polygons.map(polygon).joined(separator: ", ") + "]}"
            features.append(feature(p, g))
        }
        if path.count >= 2 {
            features.append(feature([("kind", string("path")), ("id", string(pathID))],
                                    "{\"type\": \"LineString\", \"coordinates\": \(ring(path))}"))
        }
        return Data(("{\"type\": \"FeatureCollection\", \"features\": [\n" + features.joined(separator: ",\n") + "\n]}\n").utf8)
    }
}
