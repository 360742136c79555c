import Foundation
import GeoAnchorKit
import GeoAnchorKitGEOS

/// Tours section: replays every shipped tour (`traces/<scenario>.tour.geojson`) over its
/// simulated trace (`traces/<scenario>.raw.csv`), filtered and raw, prints the events and their
/// counts, and measures them against the ground truth (`traces/<scenario>.truth.csv`): enter
/// latency relative to the true crossing, flapping, and fences entered that the truth never
/// came near.
enum ToursReport: ReportSection {
    static let title = "Tours: geofence events on the shipped tours"

    static func run(_ context: ReportContext) throws -> [String] {
        let fm = FileManager.default
        let files = (try? fm.contentsOfDirectory(atPath: context.tracesDirectory.path)) ?? []
        let tours = files.filter { $0.hasSuffix(".tour.geojson") }.sorted()
        guard !tours.isEmpty else { return ["  no traces/*.tour.geojson found in \(context.tracesDirectory.path)"] }
        var lines: [String] = []
        for file in tours {
            let scenario = String(file.dropLast(".tour.geojson".count))
            let tourURL = context.tracesDirectory.appendingPathComponent(file)
            let rawURL = context.tracesDirectory.appendingPathComponent("\(scenario).raw.csv")
            let truthURL = context.tracesDirectory.appendingPathComponent("\(scenario).truth.csv")
            guard fm.fileExists(atPath: rawURL.path) else {
                lines.append("  \(file): no \(scenario).raw.csv to replay"); continue
            }
            context.progress("tours: \(scenario)")
            let filtered = try TourReplay.run(tour: tourURL, trace: rawURL, filtered: true)
            let raw = try TourReplay.run(tour: tourURL, trace: rawURL, filtered: false)
            let t = filtered.tour
            lines.append("  \(file) over \(scenario).raw.csv: \(t.stops.count) stops (radius \(t.stops.map { String(format: "%g", $0.radius) }.joined(separator: "/")) m), \(t.zones.count) zones, path \(t.path.count) vertices")
            lines.append("    filtered: \(filtered.summaryLine)")
            lines.append("    raw:      \(raw.summaryLine)")
            lines.append("    events (filtered position):")
            for e in filtered.events {
                lines.append("      \(TourReplay.iso8601(e.time))  \(e.kind.rawValue.padding(toLength: 9, withPad: " ", startingAt: 0)) \(e.feature.rawValue) \(e.id)")
            }
            if let g = filtered.finalGuidance {
                lines.append(String(format: "    at the end: visited %d/%d stops, progress %.0f of %.0f m along the path, %.1f m from it",
                                    g.visitedStopIDs.count, t.stops.count, g.progressAlongPath ?? .nan, g.pathLength ?? .nan, g.distanceFromPath ?? .nan))
            }
            if fm.fileExists(atPath: truthURL.path) {
                let truth = try TraceReader.load(url: truthURL).fixes
                for (name, r) in [("filtered", filtered), ("raw", raw)] {
                    lines += try measure(r, truth: truth, label: name)
                }
            }
        }
        return lines
    }

    /// Ground-truth checks for one replay.
    static func measure(_ r: TourReplay.Result, truth: [Fix], label: String) throws -> [String] {
        let session = try TourSession(tour: r.tour)
        let zones = try TourZones(session: session)
        var latencies: [Double] = []
        var problems: [String] = []
        var onceCount = 0, targetCount = 0
        // Stops: true crossing = first truth epoch within the radius.
        for (i, stop) in r.tour.stops.enumerated() {
            let c = session.stopPoints[i]
            let dists = truth.map { session.planarPoint(latitude: $0.latitude, longitude: $0.longitude).distance(to: c) }
            let enters = r.events.filter { $0.feature == .stop && $0.id == stop.id && $0.kind == .enter }
            let minTrue = dists.min() ?? .infinity
            if let k = dists.firstIndex(where: { $0 <= stop.radius }) {
                targetCount += 1
                if enters.count == 1 { onceCount += 1 } else { problems.append("stop \(stop.id) entered \(enters.count)×") }
                if let e = enters.first { latencies.append(e.time - truth[k].time) }
            } else if !enters.isEmpty {
                problems.append(String(format: "stop %@ entered but the truth came only within %.1f m", stop.id, minTrue))
            }
            if !enters.isEmpty && minTrue > stop.radius + 15 {
                problems.append(String(format: "stop %@ entered, true distance never below radius + 15 m (min %.1f m)", stop.id, minTrue))
            }
        }
        // Zones: true crossing = first truth epoch inside the polygon.
        for (i, zone) in r.tour.zones.enumerated() {
            var firstInside: Double?
            for f in truth {
                if try zones.signedDistance(zone: i, at: session.planarPoint(latitude: f.latitude, longitude: f.longitude)) >= 0 {
                    firstInside = f.time; break
                }
            }
            let enters = r.events.filter { $0.feature == .zone && $0.id == zone.id && $0.kind == .enter }
            if let t0 = firstInside {
                targetCount += 1
                if enters.count == 1 { onceCount += 1 } else { problems.append("zone \(zone.id) entered \(enters.count)×") }
                if let e = enters.first { latencies.append(e.time - t0) }
            } else if !enters.isEmpty {
                problems.append("zone \(zone.id) entered but the truth never was inside")
            }
        }
        let sorted = latencies.sorted()
        let within = latencies.filter { abs($0) <= 10 }.count
        var out = [String(format: "    truth check (%@): %d/%d fences the truth entered were entered exactly once; enter − true crossing: median %.0f s, max |Δ| %.0f s, %d/%d within 10 s",
                          label, onceCount, targetCount, sorted.isEmpty ? Double.nan : sorted[sorted.count / 2],
                          sorted.map(abs).max() ?? .nan, within, latencies.count)]
        out.append("      false or repeated enters: " + (problems.isEmpty ? "none" : problems.joined(separator: "; ")))
        return out
    }
}
