import Foundation

extension GeoAnchor {
    /// What ``anchors(geoJSON:source:)`` or ``anchors(kml:options:)`` read from a file.
    public struct FileRead: Sendable {
        /// The anchors, each with its feature's index in a GeoJSON's `features` (a KML
        /// placemark's line) and the document it is in (the file; a KMZ's `FILE.kmz/doc.kml`).
        public var anchors: [(feature: Int, source: String, anchor: GeoAnchor)] = []
        /// Features that are no anchor (a bad or missing value), each a ``TraceFormatError``
        /// naming the feature (`feature #3 (id "gate"): …`; a KML placemark by its line): left out.
        public var problems: [(feature: Int, id: String, error: TraceFormatError)] = []
        /// Features with another geometry (paths, areas) or none: not anchors.
        public var otherFeatures = 0
    }

    /// The anchors of a GeoJSON FeatureCollection — a site's models placed in QGIS, geojson.io or
    /// exported from a heritage database: each `Point` feature is an anchor.
    ///
    /// - `id`: the feature's `id` (or `properties.id`; string or number), else `name`, else
    ///   `anchor N` (N its 1-based position among the Point features).
    /// - Height: `properties.altitude` (m) with `properties.altitude_reference` — `ellipsoid`
    ///   (WGS84), `msl` (``AnchorAltitude/meanSeaLevel(_:)``), `terrain`
    ///   (``AnchorAltitude/aboveTerrain(_:)``) or `floor` (``AnchorAltitude/aboveFloor(_:)``);
    ///   else the position's third coordinate, meters above the WGS84 ellipsoid (RFC 7946 §4). A
    ///   Point with neither is a problem: a model needs a height.
    /// - Optional numbers: `yaw`, `pitch`, `roll` (degrees, ``AnchorOrientation``), `scale`,
    ///   `bounding_radius`, `horizontal_accuracy`, `vertical_accuracy` (m).
    /// - Every other property with a string value (`name`, `model`, `title`, …) goes to
    ///   ``metadata``.
    ///
    /// Anchors are validated (``validate()``). Nothing throws: a bad feature is reported in
    /// ``FileRead/problems`` and left out, the others are read — as geobench places the good
    /// rows of an anchors CSV.
    public static func anchors(geoJSON collection: GeoJSONFeatureCollection, source: String = "<geojson>") -> FileRead {
        var read = FileRead()
        var points = 0
        var seen: [String: Int] = [:]
        for (i, feature) in collection.features.enumerated() {
            guard case .point(let p)? = feature.geometry else { read.otherFeatures += 1; continue }
            points += 1
            let props = feature.properties ?? [:]
            func identifier(_ v: JSONValue?) -> String? { v?.identifier.flatMap { $0.isEmpty ? nil : $0 } }
            let id = identifier(feature.id) ?? identifier(props["id"]) ?? identifier(props["name"]) ?? "anchor \(points)"
            func problem(_ m: String) {
                read.problems.append((i, id, TraceFormatError(source: source, line: nil, message: "feature #\(i) (id \"\(id)\"): \(m)")))
            }
            func number(_ key: String) -> Double?? {
                guard let v = props[key], v != .null else { return .some(nil) }
                guard let d = v.doubleValue else { problem("\(key) \(v) is not a number"); return nil }
                return .some(d)
            }
            guard let altitudeValue = number("altitude"), let yaw = number("yaw"), let pitch = number("pitch"), let roll = number("roll"),
                  let scale = number("scale"), let radius = number("bounding_radius"), let hAcc = number("horizontal_accuracy"),
                  let vAcc = number("vertical_accuracy") else { continue }
            let altitude: AnchorAltitude
            if let a = altitudeValue {
                switch props["altitude_reference"]?.stringValue?.lowercased() {
                case "ellipsoid": altitude = .ellipsoidal(a)
                case "msl": altitude = .meanSeaLevel(a)
                case "terrain": altitude = .aboveTerrain(a)
                case "floor": altitude = .aboveFloor(a)
                default:
                    problem("altitude_reference \(props["altitude_reference"].map { "\($0)" } ?? "missing") is not ellipsoid, msl, terrain or floor")
                    continue
                }
            } else if let h = p.height {
                altitude = .ellipsoidal(h)
            } else {
                problem("no height: a third coordinate (meters above the WGS84 ellipsoid, RFC 7946) or altitude and altitude_reference")
                continue
            }
            if let j = seen[id] { problem("id \"\(id)\" is also feature #\(j)'s"); continue }
            var metadata: [String: String] = [:]
            for (k, v) in props where !["id", "altitude", "altitude_reference"].contains(k) { if let s = v.stringValue { metadata[k] = s } }
            let anchor = GeoAnchor(id: id, latitude: p.latitude, longitude: p.longitude, altitude: altitude,
                                   orientation: AnchorOrientation(yaw: yaw ?? 0, pitch: pitch ?? 0, roll: roll ?? 0),
                                   scale: scale ?? 1, boundingRadius: radius ?? 0, horizontalAccuracy: hAcc ?? 0,
                                   verticalAccuracy: vAcc ?? 0, metadata: metadata)
            do { try anchor.validate() } catch { problem("\(error)"); continue }
            seen[id] = i
            read.anchors.append((i, source, anchor))
        }
        return read
    }
}
