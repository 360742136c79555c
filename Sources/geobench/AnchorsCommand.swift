import ArgumentParser
import Foundation
import GeoAnchorKit

struct AnchorsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "anchors",
        abstract: "Place geo anchors relative to a device pose in an AR frame, with expected error and visibility.",
        discussion: """
        Anchors CSV (--anchors FILE, header row): id,latitude,longitude,altitude,altitude_reference \
        and optional yaw. latitude/longitude in degrees (WGS84); altitude in meters above \
        altitude_reference: `ellipsoid` (WGS84) or `msl` (EGM96 geoid, --geoid); yaw in degrees \
        clockwise from true north (model orientation, default 0).

        Output CSV columns: id,x,y,z,distance,bearing,error_m,visible
          x,y,z     the anchor relative to the device in the chosen --frame, meters:
                    enu = east,north,up; arkit = ARKit gravityAndHeading
                    (x east, y up, z south); arkit-gravity = ARKit
                    gravity-only session whose −z pointed along --heading
                    at start (y up); arcore = ARCore Earth East-Up-South.
                    Exact 3-D: far anchors sink with Earth curvature.
          distance  straight-line distance from the device, meters
          bearing   degrees clockwise from true north, [0, 360)
          error_m   expected 68 % placement error, meters:
                    √(σ_pos² + (d·σ_heading)²) with σ_pos =
                    --position-accuracy, σ_heading = --heading-accuracy
                    (radians), d the horizontal distance
          visible   true/false: within --max-range, above the horizon
                    (smooth Earth through the lower of the device's floor,
                    --height-above-floor below the device, and the
                    anchor's point) and within the horizontal --fov
                    centred on --heading

        --json writes {"anchors": [...], "errors": [...]} instead: each anchor has the CSV keys \
        plus error_deg (expected angular error, degrees) and quaternion [x, y, z, w] (model \
        orientation in the frame); each error has file, line, id, message.

        Or a GPX file's waypoints (--anchors FILE.gpx: points surveyed with a GNSS app; id = <name>, \
        altitude <ele> MSL; a waypoint without <ele> is an error naming it). \
        Or a KML/KMZ (--anchors FILE.kml: models placed in Google Earth or SketchUp): every Model and \
        untimed Point placemark is an anchor (id = <name>; altitudeMode absolute = MSL, \
        relativeToGround and clampToGround = above the terrain of --dem FILE (GeoTIFF, SRTM .hgt or ESRI ASCII grid, \
        --dem-datum msl through --geoid, or ellipsoid); a Model's heading \
        is the yaw, its scale uniform, tilt and roll 0). Or a GeoJSON (--anchors FILE.geojson: a site's models placed in QGIS or geojson.io): each \
        Point feature is an anchor — id from its id, else name, else "anchor N"; height from the \
        properties altitude and altitude_reference (ellipsoid, msl, terrain, floor), else the third \
        coordinate (meters above the WGS84 ellipsoid, RFC 7946); optional yaw, pitch, roll, scale, \
        bounding_radius, horizontal_accuracy, vertical_accuracy. Its errors name the feature \
        (FILE: feature #N …; in --json "feature" instead of "line"); other geometries are counted \
        on stderr.

        A bad anchor row (unknown altitude_reference, non-numeric or NaN value, latitude out of \
        range, MSL without a loadable geoid) is reported on stderr as FILE:LINE: message and \
        skipped; all other anchors are still placed and written. Exit status: 0 when every row \
        was placed, 2 when any row failed or the arguments/header are invalid (then nothing is \
        written).
        """
    )

    enum Frame: String, ExpressibleByArgument, CaseIterable { case enu, arkit, arkitGravity = "arkit-gravity", arcore }
    enum Reference: String, ExpressibleByArgument, CaseIterable { case ellipsoid, msl }

    @Option(help: "Device position LAT,LON,H (degrees, degrees, meters).")
    var device: String

    @Option(help: "Datum of the device height H: ellipsoid or msl.")
    var deviceReference: Reference = .ellipsoid

    @Option(help: "Device heading, degrees clockwise from true north (for arkit-gravity: the session's start heading).")
    var heading: Double

    @Option(help: "Output frame: enu, arkit, arkit-gravity or arcore.")
    var frame: Frame = .enu

    @Option(help: "Device horizontal accuracy (68 % radius), meters.")
    var positionAccuracy: Double = 0

    @Option(help: "Device heading accuracy (68 %), degrees.")
    var headingAccuracy: Double = 0

    @Option(help: "Device vertical accuracy (68 %), meters (not used for floor-relative anchors).")
    var verticalAccuracy: Double = 0

    @Option(help: "Anchors CSV file ('-' for stdin), a GeoJSON whose Point features are the anchors (.geojson), a KML/KMZ's Models and Points (.kml/.kmz), or a GPX file's waypoints (.gpx, <ele> MSL).")
    var anchors: String

    @Flag(help: "Write JSON instead of CSV.")
    var json = false

    @Option(help: "Output file (default: stdout).")
    var output: String?

    @Option(help: "Geoid grid (GTX) for MSL heights.")
    var geoid: String = GeoidGrid.defaultPath

    @Option(help: "Culling range, meters.")
    var maxRange: Double = 10_000

    @Option(help: "Horizontal field of view centred on --heading, degrees (360 disables).")
    var fov: Double = 60

    @Option(help: "Device height above the floor/ground, meters (horizon test).")
    var heightAboveFloor: Double = 1.5

    @Option(help: "DEM for anchors above the terrain (KML relativeToGround/clampToGround, GeoJSON terrain): a GeoTIFF, an SRTM .hgt tile or an ESRI ASCII grid, geographic WGS84.")
    var dem: String?

    @Option(help: "Vertical datum of the --dem heights: msl (through --geoid, default) or ellipsoid.")
    var demDatum: String = "msl"

    func run() throws {
        var rowErrors = 0
        try withInputErrors {
            let (lat, lon, h) = try parseTriple(device, name: "device")
            for (name, v) in [("heading", heading), ("position-accuracy", positionAccuracy),
                              ("heading-accuracy", headingAccuracy), ("max-range", maxRange), ("fov", fov),
                              ("height-above-floor", heightAboveFloor)] {
                guard v.isFinite, name == "heading" || name == "height-above-floor" || v >= 0 else {
                    throw InputError(file: "--\(name)", line: nil, message: "expected a finite non-negative number, got \(v)")
                }
            }
            // The placement configuration's own ranges (checked here so the error names the option).
            try located("--max-range") { try PlacementConfiguration.maxRangeRange.check(maxRange, name: "max range") }
            try located("--fov") { try PlacementConfiguration.fieldOfViewRange.check(fov, name: "field of view") }
            let parsed: (anchors: [(line: Int, anchor: GeoAnchor)], errors: [(line: Int, id: String, message: String)])
            var source = anchors
            // How an anchor's errors name it: a CSV row's or a KML placemark's line (FILE:LINE:), or
            // a GeoJSON feature's or GPX waypoint's position (`feature` in --json) — with the prefix
            // a placement error adds (the feature, the waypoint, a KMZ's inner document).
            var byLine = true
            var anchorPrefix: (_ line: Int, _ id: String) -> String = { _, _ in "" }
            switch TraceIO.kind(of: anchors) {
            case "geojson", "json":
                let read = GeoAnchor.anchors(geoJSON: try GeoJSONFeatureCollection.read(contentsOf: URL(fileURLWithPath: anchors)), source: anchors)
                parsed = (read.anchors.map { ($0.feature, $0.anchor) }, read.problems.map { ($0.feature, $0.id, $0.error.message) })
                if read.otherFeatures > 0 { Stderr.print("\(anchors): \(read.otherFeatures) feature(s) other than Points: not anchors") }
                byLine = false
                anchorPrefix = { feature, _ in "feature #\(feature) " }
            case "gpx":
                // Surveyed waypoints, <ele> MSL; problems name the waypoint by position.
                let read = try GeoAnchor.anchors(gpx: URL(fileURLWithPath: anchors))
                parsed = (read.anchors.map { ($0.feature, $0.anchor) }, read.problems.map { ($0.feature, $0.id, $0.error.message) })
                byLine = false
                anchorPrefix = { k, _ in "waypoint \(k + 1) " }
            case "kml", "kmz":
                // Google Earth / SketchUp models and untimed Points; lines are the placemark's in
                // its document, a KMZ's inner document named.
                let read = try GeoAnchor.anchors(kml: URL(fileURLWithPath: anchors))
                let archive = URL(fileURLWithPath: anchors).path   // the readers' sources are absolute paths
                func doc(_ s: String) -> String { s.hasPrefix(archive + "/") ? "(\(s.dropFirst(archive.count + 1))) " : "" }
                parsed = (read.anchors.map { ($0.feature, $0.anchor) }, read.problems.map { ($0.feature, $0.id, doc($0.error.source) + $0.error.message) })
                let documents = Dictionary(read.anchors.map { ($0.anchor.id, doc($0.source)) }, uniquingKeysWith: { a, _ in a })
                anchorPrefix = { _, id in documents[id] ?? "" }
            default:
                let table = try CSVTable.read(path: anchors)
                parsed = try AnchorRows.parse(table)
                source = table.source   // "<stdin>" for "-"
            }
            var terrain: ElevationGrid? = nil
            if let dem {
                terrain = try DEMFile.load(dem, datum: demDatum).grid
            }
            let needsGeoid = deviceReference == .msl || terrain?.verticalReference == .meanSeaLevel
                || parsed.anchors.contains { if case .meanSeaLevel = $0.anchor.altitude { return true } else { return false } }
            var geoidModel: GeoidGrid? = nil
            var geoidError: String? = nil
            if needsGeoid {
                do { geoidModel = try GeoidGrid(path: geoid) } catch { geoidError = "\(error)" }
            }
            if deviceReference == .msl, geoidModel == nil {
                throw InputError(file: geoid, line: nil, message: "--device-reference msl needs a geoid: \(geoidError ?? "not loaded")")
            }
            let convention: ARFrameConvention
            switch frame {
            case .enu: convention = .enu
            case .arkit: convention = .arkitGravityAndHeading
            case .arkitGravity: convention = .arkitGravity(sessionHeading: heading)
            case .arcore: convention = .arcoreEarth
            }
            let placer = AnchorPlacer(environment: AnchorEnvironment(geoid: geoidModel, terrain: terrain), convention: convention,
                                      configuration: PlacementConfiguration(maxRange: maxRange, horizontalFieldOfView: fov))
            let pose = DevicePose(
                position: GeodeticCoordinate(latitude: lat, longitude: lon, height: h,
                                             verticalReference: deviceReference == .msl ? .meanSeaLevel : .ellipsoid),
                horizontalAccuracy: positionAccuracy, verticalAccuracy: verticalAccuracy, heading: heading, headingAccuracy: headingAccuracy,
                heightAboveFloor: heightAboveFloor)
            let results = try located("--device") { try placer.place(parsed.anchors.map(\.anchor), from: pose) }
            var errors = parsed.errors
            var placed: [AnchorPlacement] = []
            for (row, r) in zip(parsed.anchors, results) {
                switch r {
                case .success(let p):
                    // An extreme but finite input (altitude 1e308) can overflow: a per-row error,
                    // never inf/nan in the CSV or invalid JSON for the whole file.
                    let q = p.orientation.vector
                    let numbers = [p.position.x, p.position.y, p.position.z, p.distance, p.bearing, p.uncertainty.meters,
                                   p.uncertainty.degrees, Double(q.x), Double(q.y), Double(q.z), Double(q.w)]
                    if numbers.allSatisfy(\.isFinite) { placed.append(p) } else {
                        errors.append((row.line, row.anchor.id, anchorPrefix(row.line, row.anchor.id)
                                       + "anchor '\(row.anchor.id)': its placement is not finite (a coordinate or altitude out of range)"))
                    }
                case .failure(let e):
                    var msg = anchorPrefix(row.line, row.anchor.id) + "anchor '\(row.anchor.id)': \(e)"
                    if case .verticalReferenceMismatch = e, let geoidError { msg += " (geoid: \(geoidError))" }
                    errors.append((row.line, row.anchor.id, msg))
                }
            }
            errors.sort { $0.line < $1.line }
            for e in errors { Stderr.print(byLine ? "\(source):\(e.line): \(e.message)" : "\(source): \(e.message)") }
            rowErrors = errors.count
            if json {
                try writeJSON(placed, errors: errors, source: source, features: !byLine)
            } else {
                let w = try CSVWriter(path: output, header: ["id", "x", "y", "z", "distance", "bearing", "error_m", "visible"])
                for p in placed {
                    try w.write([csvField(p.id), format(p.position.x), format(p.position.y), format(p.position.z),
                             format(p.distance), format(p.bearing), format(p.uncertainty.meters),
                             p.visibility.isVisible ? "true" : "false"])
                }
                try w.finish()
            }
        }
        if rowErrors > 0 { throw ExitCode(2) }
    }

    private func writeJSON(_ placed: [AnchorPlacement], errors: [(line: Int, id: String, message: String)], source: String,
                           features: Bool) throws {
        let anchorsJSON: [[String: Any]] = placed.map { p in
            let q = p.orientation.vector
            return ["id": p.id, "x": p.position.x, "y": p.position.y, "z": p.position.z, "distance": p.distance,
                    "bearing": p.bearing, "error_m": p.uncertainty.meters, "visible": p.visibility.isVisible,
                    "error_deg": p.uncertainty.degrees, "quaternion": [Double(q.x), Double(q.y), Double(q.z), Double(q.w)]]
        }
        // A GeoJSON's errors name their feature (index in "features"), not a line.
        let errorsJSON: [[String: Any]] = errors.map {
            ["file": source, features ? "feature" : "line": $0.line, "id": $0.id, "message": $0.message]
        }
        let data = try JSONSerialization.data(withJSONObject: ["anchors": anchorsJSON, "errors": errorsJSON],
                                              options: [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes])
        let out = try OutputFile(path: output)
        try out.write(data + Data("\n".utf8))
        try out.commit()
    }
}

/// Anchors CSV rows → anchors, with per-row errors (line, id, message) for the rows that fail.
enum AnchorRows {
    static func parse(_ table: CSVTable) throws -> (anchors: [(line: Int, anchor: GeoAnchor)], errors: [(line: Int, id: String, message: String)]) {
        let cId = try table.column("id"), cLat = try table.column("latitude"), cLon = try table.column("longitude")
        let cAlt = try table.column("altitude"), cRef = try table.column("altitude_reference")
        let cYaw = table.optionalColumn("yaw")
        var anchors: [(Int, GeoAnchor)] = []
        var errors: [(Int, String, String)] = []
        for row in table.rows {
            let id = cId < row.fields.count ? row.fields[cId].trimmingCharacters(in: .whitespaces) : ""
            do {
                guard !id.isEmpty else { throw InputError(file: table.source, line: row.line, message: "missing id") }
                let lat = try table.double(row, cLat, "latitude"), lon = try table.double(row, cLon, "longitude")
                let alt = try table.double(row, cAlt, "altitude")
                let yaw = try table.optionalDouble(row, cYaw, "yaw") ?? 0
                let ref = cRef < row.fields.count ? row.fields[cRef].trimmingCharacters(in: .whitespaces).lowercased() : ""
                let altitude: AnchorAltitude
                switch ref {
                case "ellipsoid": altitude = .ellipsoidal(alt)
                case "msl": altitude = .meanSeaLevel(alt)
                default:
                    throw InputError(file: table.source, line: row.line,
                                     message: "altitude_reference '\(ref)' is not 'ellipsoid' or 'msl'")
                }
                let a = GeoAnchor(id: id, latitude: lat, longitude: lon, altitude: altitude, orientation: AnchorOrientation(yaw: yaw))
                try located(table.source, line: row.line, context: "anchor '\(id)'") { try a.validate() }
                anchors.append((row.line, a))
            } catch let e as InputError {
                errors.append((row.line, id, e.message))
            }
        }
        return (anchors, errors)
    }
}

/// A CSV field, quoted when it contains a comma, quote or newline.
func csvField(_ s: String) -> String {
    guard s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) else { return s }
    return "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\""
}
