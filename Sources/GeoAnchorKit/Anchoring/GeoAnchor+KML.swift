import Foundation

extension GeoAnchor {
    /// The anchors of a KML or KMZ file — models placed in Google Earth or SketchUp: every
    /// `Model` placemark (KML 2.2 §10.10) and every untimed `Point` placemark is an anchor.
    ///
    /// - `id`: the placemark's `<name>` (whitespace trimmed), else `anchor N` (N its 1-based
    ///   position among the anchors).
    /// - Height by KML's `altitudeMode`: `absolute` is above sea level
    ///   (``AnchorAltitude/meanSeaLevel(_:)``, the geoid needed), `relativeToGround` above the
    ///   terrain (``AnchorAltitude/aboveTerrain(_:)``, a ``TerrainModel`` needed), and
    ///   `clampToGround` — KML's default — on the terrain (`aboveTerrain(0)`). The seafloor modes
    ///   are problems.
    /// - A Model's `Orientation/heading` is the yaw (degrees clockwise from north, as in KML);
    ///   its `tilt` and `roll` must be 0 (KML 2.2 does not define their sense unambiguously:
    ///   refused, not guessed); its `Scale` must be uniform (x = y = z) and is the ``scale``; its
    ///   `Link/href` goes to ``metadata`` as `model`.
    ///
    /// - Returns: the anchors with their placemarks' lines as `feature`, and the placemarks that
    ///   are no anchor (named by line). ``FileRead/otherFeatures`` is 0 (paths and areas are read
    ///   by ``KMLReader/lines(url:options:)`` and ``KMLReader/areas(url:options:)``).
    /// - Throws: ``TraceFormatError`` for a file that is not KML/KMZ or a bad coordinate.
    public static func anchors(kml url: URL, options: TraceReadConfiguration = TraceReadConfiguration()) throws(TraceFormatError) -> FileRead {
        var read = FileRead()
        var seen: [String: Int] = [:]
        for (k, o) in try KMLReader.placedObjects(url: url, options: options).enumerated() {
            let name = o.name?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
            let id = name.isEmpty ? "anchor \(k + 1)" : name
            func problem(_ m: String) {
                read.problems.append((o.line, id, TraceFormatError(source: o.source.isEmpty ? url.path : o.source, line: o.line,
                                                                   message: "placemark \"\(id)\": \(m)")))
            }
            guard let lat = o.latitude, let lon = o.longitude else { problem("Model without a Location longitude and latitude"); continue }
            let h = o.altitude ?? 0
            let altitude: AnchorAltitude
            switch o.altitudeMode ?? "clampToGround" {
            case "absolute": altitude = .meanSeaLevel(h)
            case "relativeToGround": altitude = .aboveTerrain(h)
            case "clampToGround": altitude = .aboveTerrain(0)
            case let m: problem("altitudeMode \(m) is not absolute, relativeToGround or clampToGround"); continue
            }
            var orientation = AnchorOrientation.identity
            var scale = 1.0
            var metadata: [String: String] = name.isEmpty ? [:] : ["name": name]
            if let m = o.model {
                orientation.yaw = m.values["Orientation.heading"] ?? 0
                let tilt = m.values["Orientation.tilt"] ?? 0, roll = m.values["Orientation.roll"] ?? 0
                guard tilt == 0, roll == 0 else {
                    problem("Model tilt \(tilt)° and roll \(roll)°: only the heading of a KML Model is converted (give tilt and roll 0)")
                    continue
                }
                let sx = m.values["Scale.x"] ?? 1, sy = m.values["Scale.y"] ?? 1, sz = m.values["Scale.z"] ?? 1
                guard sx == sy, sy == sz else { problem("Model scale \(sx), \(sy), \(sz) is not uniform"); continue }
                scale = sx
                if let href = m.href, !href.isEmpty { metadata["model"] = href }
            }
            if let j = seen[id] { problem("name \"\(id)\" is also the placemark's on line \(j)"); continue }
            let anchor = GeoAnchor(id: id, latitude: lat, longitude: lon, altitude: altitude, orientation: orientation,
                                   scale: scale, metadata: metadata)
            do { try anchor.validate() } catch { problem("\(error)"); continue }
            seen[id] = o.line
            read.anchors.append((o.line, o.source.isEmpty ? url.path : o.source, anchor))
        }
        return read
    }
}

extension GeoAnchor {
    /// The anchors of a GPX file's waypoints (`wpt`) — points surveyed with a GNSS app or planned
    /// in an outdoor app: id = `<name>` (whitespace trimmed) or `waypoint N`, height `<ele>` above
    /// mean sea level (GPX's elevation: ``AnchorAltitude/meanSeaLevel(_:)``, the geoid needed).
    /// A waypoint without `<ele>` (a model needs a height) or with a name already used is a
    /// problem naming it by position among the waypoints (`waypoint 3 ("gate"): …`); `feature` is
    /// that 0-based position.
    /// - Throws: ``TraceFormatError`` for a file that is not GPX or a bad value (with its line).
    public static func anchors(gpx url: URL, options: TraceReadConfiguration = TraceReadConfiguration()) throws(TraceFormatError) -> FileRead {
        var read = FileRead()
        let waypoints = try GPXReader.waypoints(url: url, options: options)
        var seen: [String: Int] = [:]
        for (k, (w, id)) in zip(waypoints, GPXWaypoint.stopIDs(waypoints)).enumerated() {
            func problem(_ m: String) {
                read.problems.append((k, id, TraceFormatError(source: url.path, line: nil, message: "waypoint \(k + 1) (\"\(id)\"): \(m)")))
            }
            guard let ele = w.altitude else { problem("no <ele>: a model needs a height"); continue }
            if let j = seen[id] { problem("name \"\(id)\" is also waypoint \(j + 1)'s"); continue }
            let anchor = GeoAnchor(id: id, latitude: w.latitude, longitude: w.longitude, altitude: .meanSeaLevel(ele),
                                   metadata: w.name.map { ["name": $0] } ?? [:])
            do { try anchor.validate() } catch { problem("\(error)"); continue }
            seen[id] = k
            read.anchors.append((k, url.path, anchor))
        }
        return read
    }
}
