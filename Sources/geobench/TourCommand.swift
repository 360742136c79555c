import ArgumentParser
import Foundation
import GeoAnchorKit
import GeoAnchorKitGEOS

struct TourCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "tour",
        abstract: "Replay a trace through a tour and print the geofence and route events.",
        discussion: """
        --tour: a GeoJSON FeatureCollection. Point features with "kind": "stop" carry "id" and \
        "radius" (meters); Polygon features with "kind": "zone" carry "id"; LineString features \
        with "kind": "path" form the walking path (joined in file order). A GeoJSON drawn elsewhere \
        (geojson.io, uMap, QGIS) without any "kind" is read by geometry: Points are stops (id = "id", \
        else "name", else "stop N"; radius = a "radius" property, else --radius), LineStrings the \
        path, Polygons zones. Or a GPX file (.gpx): its \
        waypoints are the stops (id = <name>, or "waypoint N" without one; radius --radius) and its \
        track segments, else its routes, the path; or a KML file (.kml, or zipped .kmz as Google My Maps and Google Earth export it): \
        its untimed Point placemarks are the stops, its LineStrings the path and its Polygons the zones \
        (id = <name>, or "zone N"); or a TCX or FIT course (.tcx, .fit: a route planned in Garmin \
        Connect, Ride with GPS, Komoot or Strava): its course points are the stops (id = name, or \
        "waypoint N"; turn instructions — Left, Right, Straight, forks, U-turns — are not stops: left \
        out, counted on stderr) and its tracks the path.
        --trace: a trace file, format from its extension (.nmea/.log/.txt, .gpx, .csv, .geojson, .kml/.kmz, .fit, .tcx, .ubx).
        Zones are evaluated in pure Swift (--zones native, the default: PlanarTourZones) or with \
        GEOS prepared geometries (--zones geos: TourZones); both give the same events.
        Fixes go through the position filter (PositionFilter, default adaptive configuration) unless --raw; \
        the events come from the filtered position and its accuracy. --path-aided also \
        constrains the filter to the tour's own path (PathConstraint, σ 1.5 m; released outside a \
        corridor of 2 σ of the fix + 3 m, so a detour is still reported as off_route).

        Output, one line per event in time order: with --json one JSON object per line with keys \
        "time" (ISO 8601 UTC), "type" (enter | exit | dwell | off_route | on_route) and "id" \
        (the stop's, zone's or path's id); without --json CSV with columns time,type,id. \
        A summary (fixes, positions, events per type) goes to stderr.
        Invalid input: exit status 2 and FILE[:LINE]: message on stderr.
        """
    )

    @Option(help: "Tour GeoJSON file, or a GPX/KML/KMZ file (waypoints/Points the stops, tracks/LineStrings the path), or a TCX/FIT course (course points the stops, tracks the path).")
    var tour: String

    @Option(help: "Trigger radius, meters, of every stop the --tour file gives none (GPX, KML, TCX, FIT, a GeoJSON drawn elsewhere; default 20); refused with a tour GeoJSON, whose stops have their own.")
    var radius: Double?

    @Option(help: "Trace file (.nmea, .gpx, .csv, .geojson, .kml/.kmz, .fit, .tcx, .ubx).")
    var trace: String

    @Flag(help: "Print JSON lines (keys time, type, id) instead of CSV.")
    var json = false

    @Flag(help: "Feed raw fixes (with their accuracy) instead of the filtered position.")
    var raw = false

    @Flag(help: "Constrain the position filter to the tour's path (map aiding); ignored with --raw.")
    var pathAided = false

    @Option(help: "Zone evaluator: native (pure Swift, default) or geos.")
    var zones: TourReplay.ZoneEngine = .native

    @Option(help: "GnssLogger or GPSLogger CSV trace: whose fixes to replay: gps (default), fused, network or all.")
    var provider: GnssLoggerProvider = .gps

    /// Whether `path` is a GeoJSON whose features carry `kind`s (a tour file, whose stops
    /// have radii), not one drawn elsewhere; false when it cannot be read (the load says why).
    static func isTourFile(_ path: String) -> Bool {
        guard let d = FileManager.default.contents(atPath: path),
              let root = try? JSONSerialization.jsonObject(with: d) as? [String: Any],
              let features = root["features"] as? [[String: Any]] else { return false }
        return features.contains { ($0["properties"] as? [String: Any])?["kind"] != nil }
    }

    func run() throws {
        try withInputErrors {
            if let radius {
                try located("--radius") { try TourStop.radiusRange.check(radius, name: "stop radius") }
                // A tour file gives every stop its radius: --radius would change nothing.
                if !StopFile.kinds.contains(TraceIO.kind(of: tour)), Self.isTourFile(tour) {
                    throw InputError(file: "--radius", line: nil, message: "applies to stops without a radius: the tour GeoJSON's features have a \"kind\", and each stop its \"radius\"")
                }
            }
            let result = try TourReplay.run(tour: URL(fileURLWithPath: tour), trace: URL(fileURLWithPath: trace), filtered: !raw,
                                            pathAided: pathAided && !raw, zones: zones, provider: provider, gpxRadius: radius ?? 20)
            var out = ""
            if !json { out += "time,type,id\n" }
            for e in result.events {
                let t = TourReplay.iso8601(e.time)
                if json {
                    out += "{\"time\":\(jsonString(t)),\"type\":\(jsonString(e.kind.rawValue)),\"id\":\(jsonString(e.id))}\n"
                } else {
                    out += "\(t),\(e.kind.rawValue),\(csvField(e.id))\n"
                }
            }
            try OutputFile.write(out)
            Stderr.print(result.summaryLine)
        }
    }

    private func jsonString(_ s: String) -> String { JSONValue.quoted(s) }

    private func csvField(_ s: String) -> String {
        s.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) ? "\"" + s.replacingOccurrences(of: "\"", with: "\"\"") + "\"" : s
    }
}

/// Replaying a trace through a tour: shared by `geobench tour` and the report section.
enum TourReplay {
    /// Which ``TourZoneEvaluator`` evaluates the zones.
    enum ZoneEngine: String, ExpressibleByArgument, CaseIterable {
        case native, geos
    }

    struct Result {
        var tour: Tour
        var events: [TourEvent]
        var summary: TourSession.ReplaySummary
        var filtered: Bool
        var finalGuidance: TourGuidance?
        var state: TourState
        var lastRefusal: InputRefusal? = nil

        var summaryLine: String {
            let counts = TourEventKind.allCases.map { k in "\(k.rawValue) \(events.filter { $0.kind == k }.count)" }.joined(separator: ", ")
            return "\(summary.fixes) fixes, \(summary.positions) \(filtered ? "filtered" : "raw") positions"
                + (filtered ? " (\(summary.refusedByFilter) refused by the filter)" : "")
                + (summary.refusedBySession > 0 ? " (\(summary.refusedBySession) refused by the session, last: \(lastRefusal.map { "\($0)" } ?? "?"))" : "")
                + (summary.clockResets > 0 ? " (\(summary.clockResets) clock resets: fixes going back in time, continued from)" : "")
                + "; \(events.count) events: \(counts)"
        }
    }

    /// Loads both files, replays, returns the events. Input problems become `InputError`s.
    static func run(tour tourURL: URL, trace traceURL: URL, filtered: Bool, pathAided: Bool = false,
                    zones engine: ZoneEngine = .native, provider: GnssLoggerProvider = .gps, gpxRadius: Double = 20) throws -> Result {
        let tour = try located(tourURL.path) {
            guard StopFile.kinds.contains(TraceIO.kind(of: tourURL.path)) else { return try Tour(contentsOf: tourURL, radius: gpxRadius) }
            return try Tour(waypoints: StopFile.waypoints(tourURL.path), path: StopFile.lines(tourURL.path),
                            areas: StopFile.areas(tourURL.path), radius: gpxRadius)
        }
        var session = try located(tourURL.path) { try TourSession(tour: tour) }
        // nil: the session's own pure-Swift evaluator (validated when the session was made).
        var zones: TourZones?
        if engine == .geos {
            zones = try located(tourURL.path) { try TourZones(session: session) }
        }
        let path = try located(tourURL.path, context: "path not usable as a filter constraint") {
            pathAided ? try tour.pathConstraint() : nil
        }
        var filter: PositionFilter? = filtered ? PositionFilter(path: path) : nil
        var summary = TourSession.ReplaySummary()
        var events: [TourEvent] = []
        let read = try TraceReader.read(url: traceURL, options: TraceReadConfiguration(provider: provider), onFix: { fix in
            events += try located(traceURL.path, context: "fix #\(summary.fixes + 1) (time \(fix.time))") {
                try session.process(fix, filter: &filter, zones: zones, summary: &summary)
            }
        })
        TraceIO.reportRead(read, source: traceURL.path)
        if read.fixes == 0 { throw TraceIO.noFixesError(read, source: traceURL.path) }
        return Result(tour: tour, events: events, summary: summary, filtered: filtered,
                      finalGuidance: session.guidance(), state: session.state, lastRefusal: session.lastRefusal)
    }

    /// ISO 8601 UTC: `2024-05-01T10:00:03Z`, with milliseconds when the time has a fraction.
    static func iso8601(_ t: Double) -> String {
        let whole = t.rounded(.down)
        let ms = Int(((t - whole) * 1000).rounded())
        let date = Date(timeIntervalSince1970: whole + (ms == 1000 ? 1 : 0))
        let f = ISO8601DateFormatter()
        f.timeZone = TimeZone(identifier: "UTC")
        f.formatOptions = [.withInternetDateTime]
        var s = f.string(from: date)
        if ms != 0 && ms != 1000 {
            s.removeLast() // "Z"
            s += String(format: ".%03dZ", ms)
        }
        return s
    }
}
