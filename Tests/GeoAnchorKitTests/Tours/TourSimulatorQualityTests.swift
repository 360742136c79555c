import Foundation
import Testing
@testable import GeoAnchorKit
@testable import GeoAnchorKitSimulation

/// The quality criteria on the repository's simulated tours (``TraceSimulator``'s
/// `zavistTour` and `cityWalk` scenarios, the ones `traces/` is made from), with the GNSS error
/// raised to 5 m per axis (Gauss–Markov bias σ 4 m, τ 90 s, plus white σ 3 m: √(4² + 3²) = 5 m;
/// the simulator's outliers, dropouts and Závist's forest stretch kept), 20 m trigger radii, and the
/// events fed from the ``PositionFilter`` (walking profile) as `geobench tour` does.
/// Reference: the simulator's ground truth.
@Suite("Tours: quality on the TraceSimulator scenarios")
struct TourSimulatorQualityTests {
    @Test(arguments: ["zavist-tour", "city-walk"]) func criteria(scenario: String) throws {
        var config = try #require(TraceSimulator.Configuration.scenarios[scenario])
        config.gnss.biasSigma = 4
        config.gnss.whiteSigma = 3
        config.sensors.duration = 0
        config.sensors.mainStreamDuration = 0 // no sensor noise in the fixes' stream: the realization these criteria were measured on
        if scenario == "city-walk" {
            // "5 m noise" in the city too: its narrow streets would otherwise multiply it by 3
            // (15 m σ plus a 4 m multipath pull), and then a decoy 40 m away was entered and two
            // of 20 enters were 15 s early / 43 s late (seeds 1–4). Závist keeps its forest
            // stretch (× 2.2). The shipped default-noise traces are measured in the report.
            config.gnss.canyonFactor = 1
            config.gnss.canyonPull = 0
        }
        let tour = try config.tour(radius: 20, decoyOffset: 40)   // decoys 40 m beside the path
        #expect(tour.stops.contains { $0.id.hasPrefix("decoy") })
        var onTime = 0, total = 0
        var latencies: [Double] = []
        for seed in UInt64(1)...4 {
            let out = try TraceSimulator(config: config, seed: seed).run()
            var session = try TourSession(tour: tour)
            var filter: PositionFilter? = PositionFilter(profile: .walking)
            var summary = TourSession.ReplaySummary()
            var events: [TourEvent] = []
            for f in out.raw { events += try session.process(f, filter: &filter, summary: &summary) }
            for (i, stop) in tour.stops.enumerated() {
                let c = session.stopPoints[i]
                let dist = out.truth.map { session.planarPoint(latitude: $0.latitude, longitude: $0.longitude).distance(to: c) }
                let enters = events.filter { $0.id == stop.id && $0.kind == .enter }
                let minTrue = dist.min()!
                if !enters.isEmpty {
                    #expect(minTrue <= stop.radius + 15, "\(scenario) seed \(seed): \(stop.id) entered, true distance ≥ \(minTrue) m")
                }
                if !stop.id.hasPrefix("decoy") {
                    #expect(enters.count == 1, "\(scenario) seed \(seed): \(stop.id) entered \(enters.count)×")
                    #expect(events.filter { $0.id == stop.id && $0.kind == .exit }.count <= 1)
                    let k = try #require(dist.firstIndex { $0 <= stop.radius })
                    if let e = enters.first {
                        total += 1
                        latencies.append(e.time - out.truth[k].time)
                        if abs(e.time - out.truth[k].time) <= 10 { onTime += 1 }
                    }
                }
            }
        }
        // Every enter within 10 s of the true crossing (seeds 1–4: max |Δ| 8 s Závist, 6 s city).
        #expect(onTime == total, "\(scenario): \(onTime)/\(total) within 10 s; latencies \(latencies)")
    }

    /// The city walk *with* its narrow streets (errors × 3 and a 4 m pull across the street on
    /// top of the 5 m), which the test above has to leave out, fed through the path-aided filter
    /// (``PathConstraint`` on the tour's own path, as `geobench tour --path-aided`). Reference: the
    /// simulator's ground truth. Required on seeds 1–4: no decoy entered, nothing entered that the
    /// truth never came within r + 15 m of, every stop entered exactly once, every enter within
    /// 20 s of the true crossing. Measured (report, seeds 1–10, default configuration): path-aided
    /// 46/50 within 10 s, max 17 s, no decoy; the plain filter 44/50, max 82 s, two decoys entered.
    @Test func narrowStreetsPathAided() throws {
        var config = try #require(TraceSimulator.Configuration.scenarios["city-walk"])
        config.gnss.biasSigma = 4
        config.gnss.whiteSigma = 3
        config.sensors.duration = 0; config.sensors.mainStreamDuration = 0
        let tour = try config.tour(radius: 20, decoyOffset: 40)
        let path = try PathConstraint(lines: [tour.path])
        var latencies: [Double] = []
        for seed in UInt64(1)...4 {
            let out = try TraceSimulator(config: config, seed: seed).run()
            var session = try TourSession(tour: tour)
            var filter: PositionFilter? = PositionFilter(path: path)
            var summary = TourSession.ReplaySummary()
            var events: [TourEvent] = []
            for f in out.raw { events += try session.process(f, filter: &filter, summary: &summary) }
            #expect((filter?.statistics.pathUpdates ?? 0) > 1000)
            for (i, stop) in tour.stops.enumerated() {
                let c = session.stopPoints[i]
                let dist = out.truth.map { session.planarPoint(latitude: $0.latitude, longitude: $0.longitude).distance(to: c) }
                let enters = events.filter { $0.id == stop.id && $0.kind == .enter }
                if !enters.isEmpty {
                    #expect(dist.min()! <= stop.radius + 15, "seed \(seed): \(stop.id) entered, true distance ≥ \(dist.min()!) m")
                }
                if stop.id.hasPrefix("decoy") { continue }
                #expect(enters.count == 1, "seed \(seed): \(stop.id) entered \(enters.count)×")
                let k = try #require(dist.firstIndex { $0 <= stop.radius })
                if let e = enters.first { latencies.append(e.time - out.truth[k].time) }
            }
        }
        #expect(latencies.count == 20 && latencies.allSatisfy { abs($0) <= 20 }, "latencies \(latencies)")
    }
}
