import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport

@Suite("Tours: session quality on simulated walks")
struct TourSessionTests {
    static let origin = GeodeticCoordinate(latitude: 49.9577, longitude: 14.3953, ellipsoidalHeight: 0)

    /// A 1.6 km walk with 6 stops on the path (radius 20 m) and 3 decoy stops 36–45 m off it.
    struct Scenario {
        let frame: LocalTangentFrame
        let path: [PlanarPoint]
        let stopVertices: [Int]
        let decoys: [PlanarPoint]
        let tour: Tour
        init() throws {
            frame = try LocalTangentFrame(origin: TourSessionTests.origin)
            path = [PlanarPoint(x: 0, y: 0), PlanarPoint(x: 250, y: 40), PlanarPoint(x: 420, y: 260), PlanarPoint(x: 380, y: 520),
                    PlanarPoint(x: 150, y: 600), PlanarPoint(x: -80, y: 430), PlanarPoint(x: -150, y: 180)]
            stopVertices = [0, 1, 2, 3, 4, 6]
            decoys = [PlanarPoint(x: 125, y: 20) + PlanarPoint(x: -0.158, y: 0.987) * 36,   // 36 m left of leg 0→1
                      PlanarPoint(x: 400, y: 390) + PlanarPoint(x: 40, y: 6),               // ≈ 40 m east of leg 2→3
                      PlanarPoint(x: -115, y: 305) + PlanarPoint(x: -43, y: -12)]           // ≈ 45 m west of leg 5→6
            let f = frame
            func geo(_ p: PlanarPoint) -> GeodeticCoordinate {
                let g = f.geodetic(east: p.x, north: p.y, up: 0)
                return GeodeticCoordinate(latitude: g.latitude, longitude: g.longitude, ellipsoidalHeight: 0)
            }
            let (pts, sv, dc) = (path, stopVertices, decoys)
            var stops = sv.enumerated().map { TourStop(id: "stop\($0.offset + 1)", coordinate: geo(pts[$0.element]), radius: 20) }
            stops += dc.enumerated().map { TourStop(id: "decoy\($0.offset + 1)", coordinate: geo($0.element), radius: 20) }
            tour = try Tour(stops: stops, path: pts.map(geo))
        }
        /// Stop centres in `frame` (the simulation's frame; the session uses its own).
        var centers: [PlanarPoint] { stopVertices.map { path[$0] } + decoys }
    }

    /// The quality criteria, replaying raw fixes with 5 m per-axis GPS noise through
    /// 20 m fences (defaults of ``GeofenceConfiguration``). Reference: the simulation's ground truth.
    /// White noise (6 seeds): every stop entered exactly once, exited at most once (no
    /// flapping), enter within 10 s of the true crossing (first time the true distance ≤ 20 m),
    /// no stop entered whose true distance never came within radius + 15 m (3 decoys 36–45 m
    /// off the path). Gauss–Markov noise τ = 15 s (20 seeds): the same, except that a persistent
    /// bias can shift the apparent crossing, so ≥ 97 % of enters within 10 s is required
    /// (measured on seeds 100–200 while choosing the defaults: 98.7 %).
    @Test(arguments: [(0.0, UInt64(1)...6, 1.0), (15.0, UInt64(1)...20, 0.97)])
    func qualityOnSimulatedWalks(tau: Double, seeds: ClosedRange<UInt64>, requiredOnTime: Double) throws {
        let sc = try Scenario()
        let pauses = Dictionary(uniqueKeysWithValues: sc.stopVertices.map { ($0, 40.0) })
        var onTime = 0, total = 0
        for seed in seeds {
            let walk = TourWalk(frame: sc.frame, path: sc.path, pauses: pauses, sigma: 5, tau: tau, seed: seed)
            var session = try TourSession(tour: sc.tour)
            var events: [TourEvent] = []
            for s in walk.samples { events += try session.update(s.fix).events }
            for (i, stop) in sc.tour.stops.enumerated() {
                let center = sc.centers[i]
                let minTrue = walk.samples.map { $0.truth.distance(to: center) }.min()!
                let enters = events.filter { $0.id == stop.id && $0.kind == .enter }
                let exits = events.filter { $0.id == stop.id && $0.kind == .exit }
                if !enters.isEmpty {
                    #expect(minTrue <= stop.radius + 15, "seed \(seed) τ \(tau): \(stop.id) entered but true distance ≥ \(minTrue) m")
                }
                if stop.id.hasPrefix("stop") {
                    #expect(enters.count == 1, "seed \(seed) τ \(tau): \(stop.id) entered \(enters.count)×")
                    #expect(exits.count <= 1, "seed \(seed) τ \(tau): \(stop.id) exited \(exits.count)×")
                    let crossing = walk.samples.first { $0.truth.distance(to: center) <= stop.radius }!.time
                    if let e = enters.first {
                        total += 1
                        if abs(e.time - crossing) <= 10 { onTime += 1 }
                    }
                } else {
                    #expect(enters.isEmpty, "seed \(seed) τ \(tau): decoy \(stop.id) entered")
                }
            }
            // Every on-path stop except the last is left again; the walk never leaves the corridor.
            #expect(events.filter { $0.kind == .exit }.count == sc.stopVertices.count - 1)
            #expect(!events.contains { $0.kind == .offRoute })
            #expect(session.state.visitedStopIDs == (1...6).map { "stop\($0)" })
            #expect(events.filter { $0.kind == .dwell }.count == 6)   // 40 s pauses > 20 s minimum dwell
        }
        #expect(Double(onTime) >= requiredOnTime * Double(total), "\(onTime)/\(total) enters within 10 s of the true crossing")
    }

    /// A 90 s sideways detour of 80 m from the path: exactly one `off_route`, then one
    /// `on_route` after returning. Reference: the simulated truth (the detour's timing).
    @Test func offRouteDetour() throws {
        let sc = try Scenario()
        var path = sc.path
        // Insert the detour into the walked polyline (not into the tour's path): out 80 m, back.
        let a = path[1], b = path[2]
        let mid = a + (b - a) * 0.5
        let normal = PlanarPoint(x: -(b - a).y, y: (b - a).x) * (1 / (b - a).length)
        path.insert(contentsOf: [mid, mid + normal * 80, mid + normal * 80, mid], at: 2)
        let walk = TourWalk(frame: sc.frame, path: path, pauses: [:], sigma: 5, tau: 15, seed: 9)
        var session = try TourSession(tour: sc.tour)
        var events: [TourEvent] = []
        for s in walk.samples { events += try session.update(s.fix).events }
        let route = events.filter { $0.feature == .path }
        #expect(route.map(\.kind) == [.offRoute, .onRoute], "\(route)")
        // True times beyond 30 m / back within 20 m of the tour path.
        let poly = PlanarPolyline(sc.path)   // the tour path in the simulation's frame
        let out = walk.samples.first { poly.project($0.truth).distance > 30 }!.time
        let back = walk.samples.last { poly.project($0.truth).distance > 20 }!.time
        if route.count == 2 {
            #expect(route[0].time >= out - 5 && route[0].time <= out + 15)
            #expect(route[1].time >= back - 5 && route[1].time <= back + 15)
        }
    }

    /// Pause/resume: encoding the state to JSON halfway and resuming in a new session gives
    /// exactly the events of an uninterrupted run (reference: the uninterrupted run).
    @Test func pauseResumeIsSeamless() throws {
        let sc = try Scenario()
        let walk = TourWalk(frame: sc.frame, path: sc.path, pauses: [1: 40, 2: 40], sigma: 5, tau: 15, seed: 3)
        var full = try TourSession(tour: sc.tour)
        var expected: [TourEvent] = []
        for s in walk.samples { expected += try full.update(s.fix).events }
        var first = try TourSession(tour: sc.tour)
        var got: [TourEvent] = []
        // Split inside stop 2's visit (while a fence is inside / pending).
        let split = walk.samples.firstIndex { $0.truth.distance(to: sc.path[1]) < 1 }! + 10
        for s in walk.samples[..<split] { got += try first.update(s.fix).events }
        let data = try JSONEncoder().encode(first.state)
        let restored = try JSONDecoder().decode(TourState.self, from: data)
        #expect(!restored.stops.isEmpty)
        var second = try TourSession(tour: sc.tour, resuming: restored)
        for s in walk.samples[split...] { got += try second.update(s.fix).events }
        #expect(got == expected)
        #expect(second.state == full.state)
    }

    /// Guidance. References: on the equator a geodesic due east has length a·Δλ and azimuth 90°
    /// (exact); the ENU horizontal distance differs by a·Δλ³/6 (2.6 µm at 1 km) — tolerance 1 mm.
    /// Arrow: wrap-safe difference, heading 350° and bearing 90° → +100°. ETA: path length to
    /// the stop / 1.3 m/s (hand computation on a straight path).
    @Test func guidance() throws {
        let a = Ellipsoid.wgs84.semiMajorAxis
        let dLon = 1000 / a * Angle.degreesPerRadian
        let stop = TourStop(id: "east", coordinate: GeodeticCoordinate(latitude: 0, longitude: 10 + dLon, ellipsoidalHeight: 0), radius: 20)
        let tour = try Tour(stops: [stop], path: [GeodeticCoordinate(latitude: 0, longitude: 10, ellipsoidalHeight: 0), stop.coordinate])
        var session = try TourSession(tour: tour)
        _ = try session.update(Fix(time: 0, latitude: 0, longitude: 10, horizontalAccuracy: 3, heading: 350))
        let g = try #require(session.guidance())
        #expect(g.nextStopID == "east")
        #expect(abs(g.distanceToNextStop! - 1000) < 1e-3)
        #expect(abs(g.bearingToNextStop! - 90) < 1e-9)
        #expect(abs(g.arrowAngle! - 100) < 1e-9)
        #expect(abs(session.guidance(deviceHeading: 100)!.arrowAngle! - -10) < 1e-9)
        // ETA along the (straight) path: its planar length ≈ 1000 m (tour-frame chord), / 1.3 m/s.
        #expect(abs(g.etaToNextStop! - g.pathLength! / 1.3) < 1e-6)
        #expect(abs(g.pathLength! - 1000) < 0.01)
        #expect(g.progressAlongPath! < 1e-6 && !g.isOffRoute)
    }

    /// Bad fixes are refused with a reason naming the value (outcome, statistics, lastRefusal and
    /// the handler: the InputRefusal policy); the session is unchanged and goes on.
    @Test func badFixes() throws {
        let sc = try Scenario()
        var session = try TourSession(tour: sc.tour)
        let seen = RefusalLog()
        session.onRefusal = { seen.append($0) }
        let lat = try session.update(Fix(time: 0, latitude: 91, longitude: 0))
        #expect(lat.events.isEmpty && lat.refusal == InputRefusal(reason: .invalidValue, time: 0, error: .invalidLatitude(91)))
        #expect(session.state.lastPosition == nil, "a refused fix leaves the session unchanged")
        #expect(try session.update(Fix(time: 10, latitude: 49.9577, longitude: 14.3953)).refusal == nil)
        let back = try session.update(Fix(time: 5, latitude: 49.9577, longitude: 14.3953))
        #expect(back.refusal == InputRefusal(reason: .outOfOrder, time: 5,
                                             error: .outOfRange(name: "time (must not go backwards)", value: 5, allowed: .atLeast(10, unit: "s"))))
        let acc = try session.update(Fix(time: 11, latitude: 49.9577, longitude: 14.3953, horizontalAccuracy: -.infinity))
        #expect(acc.refusal?.reason == .invalidValue)
        // Finite but no use to a walk (P(inside) of every zone rounded to ½ at 1e20 m: "entered").
        let huge = try session.update(Fix(time: 11, latitude: 49.9577, longitude: 14.3953, horizontalAccuracy: 1e20))
        #expect(huge.refusal == InputRefusal(reason: .invalidValue, time: 11,
                                             error: .outOfRange(name: "horizontalAccuracy", value: 1e20, allowed: .closed(0, 100_000, unit: "m"))))
        #expect(session.statistics == { var s = TourSession.Statistics(); s.updates = 1; s.invalid = 3; s.outOfOrder = 1; return s }())
        #expect(session.lastRefusal == huge.refusal)
        #expect(seen.items.map(\.reason) == [.invalidValue, .outOfOrder, .invalidValue, .invalidValue])
        #expect(try session.update(Fix(time: 12, latitude: 49.9577, longitude: 14.3953)).refusal == nil, "the stream goes on")
    }

    /// The σ settings are bounded by ``Fix/maximumUsableHorizontalAccuracy`` (100 km). Before,
    /// `minimumSigma` = 1e308 m was accepted and made P(inside) of every zone round to ½: a
    /// walker 1 km from a zone "entered" it. Reference: the documented range (0, 100000] m; the
    /// zone's signed distance (−1 km) and Φ(−1000/σ) < ½ for σ at the bound.
    @Test func sigmaSettingsAreBounded() throws {
        let range = TourSession.Configuration.uncertaintyRange
        #expect(range == ValueRange(lower: .exclusive(0), upper: .inclusive(100_000), unit: "m"))
        for v in [1e308, 100_000.001, .infinity, 0] {
            #expect(throws: TourError.invalidParameter(name: "minimumSigma", value: v, allowed: range)) {
                try TourSession.Configuration(minimumSigma: v).validate()
            }
            #expect(throws: TourError.invalidParameter(name: "defaultHorizontalAccuracy", value: v, allowed: range)) {
                try TourSession.Configuration(defaultHorizontalAccuracy: v).validate()
            }
        }
        // At the bound, a fix 1 km outside a zone (no accuracy given: the default applies) is
        // still outside: no event.
        let f = try LocalTangentFrame(origin: Self.origin)
        func geo(_ x: Double, _ y: Double) -> GeodeticCoordinate {
            let g = f.geodetic(east: x, north: y, up: 0)
            return GeodeticCoordinate(latitude: g.latitude, longitude: g.longitude, ellipsoidalHeight: 0)
        }
        let zone = TourZone(id: "square", rings: [[geo(1000, -50), geo(1100, -50), geo(1100, 50), geo(1000, 50), geo(1000, -50)]])
        let tour = try Tour(stops: [TourStop(id: "s", coordinate: geo(-500, 0), radius: 20)], zones: [zone])
        var session = try TourSession(tour: tour, configuration: TourSession.Configuration(defaultHorizontalAccuracy: 100_000, minimumSigma: 100_000))
        var events: [TourEvent] = []
        for t in 0..<30 { events += try session.update(Fix(time: Double(t), latitude: geo(0, 0).latitude, longitude: geo(0, 0).longitude)).events }
        #expect(!events.contains { $0.feature == .zone }, "\(events)")
    }

    /// Every distance, time, speed and count setting has an upper bound (before, 1e308 was
    /// accepted and silently meant "never": a fence never exited, a corridor never left, an ETA
    /// of 1e-305 s). Reference: the documented ranges — exit margin [0, 100 km] m, off-route distance (0, 100 km] m, times
    /// [0, 604,800] s (one week, ``RouteStop/dwellRange``), walking speed (0, 100] m/s, clock
    /// reset count [0, 86,400] — checked exactly (error name, value and range); the bounds
    /// themselves are accepted. A configuration decoded from JSON gets the same error from
    /// ``TourSession/init(tour:configuration:resuming:)``.
    @Test func settingsAreBoundedAbove() throws {
        typealias C = TourSession.Configuration
        let margin = ValueRange.closed(0, 100_000, unit: "m"), duration = ValueRange.closed(0, 604_800, unit: "s")
        let route = ValueRange(lower: .exclusive(0), upper: .inclusive(100_000), unit: "m")
        let speed = ValueRange(lower: .exclusive(0), upper: .inclusive(100), unit: "m/s")
        #expect(GeofenceConfiguration.exitMarginRange == margin && GeofenceConfiguration.durationRange == duration)
        #expect(C.routeDistanceRange == route && C.walkingSpeedRange == speed && C.maximumClockResetFixCount == 86_400)
        func geofence(_ name: String, _ v: Double) -> GeofenceConfiguration {
            var g = GeofenceConfiguration()
            switch name {
            case "exitMargin": g.exitMargin = v
            case "enterConfirmation": g.enterConfirmation = v
            case "exitConfirmation": g.exitConfirmation = v
            default: g.minimumDwell = v
            }
            return g
        }
        for (name, range, bound) in [("exitMargin", margin, 100_000.0), ("enterConfirmation", duration, 604_800),
                                     ("exitConfirmation", duration, 604_800), ("minimumDwell", duration, 604_800)] {
            #expect(throws: Never.self) { try C(geofence: geofence(name, bound)).validate() }
            for v in [bound.nextUp, 1e308, .greatestFiniteMagnitude, .infinity, -1] {
                #expect(throws: TourError.invalidParameter(name: name, value: v, allowed: range)) { try geofence(name, v).validate() }
                #expect(throws: TourError.invalidParameter(name: "geofence." + name, value: v, allowed: range)) {
                    try C(geofence: geofence(name, v)).validate()
                }
                let corridor = geofence(name, v).with(probabilitiesOf: C().corridor)
                #expect(throws: TourError.invalidParameter(name: "corridor." + name, value: v, allowed: range)) {
                    try C(corridor: corridor).validate()
                }
            }
        }
        #expect(throws: Never.self) { try C(offRouteDistance: 100_000, walkingSpeed: 100, clockResetFixCount: 86_400).validate() }
        for v in [(100_000.0).nextUp, 1e308, .infinity, 0] {
            #expect(throws: TourError.invalidParameter(name: "offRouteDistance", value: v, allowed: route)) {
                try C(offRouteDistance: v, onRouteDistance: 20).validate()
            }
        }
        for v in [(100.0).nextUp, 1e308, .greatestFiniteMagnitude, .infinity, 0] {
            #expect(throws: TourError.invalidParameter(name: "walkingSpeed", value: v, allowed: speed)) { try C(walkingSpeed: v).validate() }
        }
        for n in [86_401, Int.max, -1] {
            #expect(throws: TourError.invalidParameter(name: "clockResetFixCount", value: Double(n), allowed: .closed(0, 86_400))) {
                try C(clockResetFixCount: n).validate()
            }
        }
        // Decoded (a saved or hand-written configuration): the same error when the session starts.
        let sc = try Scenario()
        var json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(C())) as! [String: Any]
        json["walkingSpeed"] = 1e308
        let fast = try JSONDecoder().decode(C.self, from: JSONSerialization.data(withJSONObject: json))
        #expect(throws: TourError.invalidParameter(name: "walkingSpeed", value: 1e308, allowed: speed)) {
            try TourSession(tour: sc.tour, configuration: fast)
        }
        json["walkingSpeed"] = 1.3
        var g = json["geofence"] as! [String: Any]
        g["minimumDwell"] = 1e308
        json["geofence"] = g
        let slow = try JSONDecoder().decode(C.self, from: JSONSerialization.data(withJSONObject: json))
        #expect(throws: TourError.invalidParameter(name: "geofence.minimumDwell", value: 1e308, allowed: duration)) {
            try TourSession(tour: sc.tour, configuration: slow)
        }
    }

    /// A fix time outside the years 0001…9999 is an invalid value (``Fix/unusablePositionValue``,
    /// shared with ``PositionFilter``): before, one fix at 1e300 s made the session refuse the
    /// rest of the walk as going backwards. Reference: the refusal policy (exact values).
    @Test(arguments: [1e300, Fix.latestTime + 1]) func timeOutOfRangeIsInvalid(_ time: Double) throws {
        let sc = try Scenario()
        var session = try TourSession(tour: sc.tour)
        #expect(try session.update(Fix(time: 10, latitude: 49.9577, longitude: 14.3953)).refusal == nil)
        let bad = try session.update(Fix(time: time, latitude: 49.9577, longitude: 14.3953))
        #expect(bad.refusal == InputRefusal(reason: .invalidValue, time: time,
                                            error: .outOfRange(name: "time", value: time, allowed: .closed(Fix.earliestTime, Fix.latestTime, unit: "s"))))
        #expect(session.state.lastPosition?.time == 10)
        #expect(try session.update(Fix(time: 11, latitude: 49.9577, longitude: 14.3953)).refusal == nil, "the stream goes on")
        #expect(session.statistics.invalid == 1 && session.statistics.outOfOrder == 0 && session.statistics.updates == 2)
    }

    /// A wrong clock (one fix dated 1e6 s ahead: a corrupted NMEA date) no longer locks the session
    /// out: after `clockResetFixCount` (5) fixes in a row going back in time, in order among
    /// themselves, it continues from their time (counted), and timers the future fix started are
    /// restarted then, so the negative time step produces no event. Before: the session refused
    /// the remaining 149 of 150 fixes and the stop was never entered. Walk: due east at 1.3 m/s
    /// through a 20 m stop 100 m ahead, 1 Hz, accuracy 5 m, no noise. Reference: the events of
    /// the same walk without the damage (exact times); with the future fix inside the stop that
    /// fix itself reports the dwell (as a real 1e6 s gap would), nothing else changes.
    @Test(arguments: [30, 62, 75, 99]) func clockResetKeepsTheTourGoing(_ index: Int) throws {
        let frame = try LocalTangentFrame(origin: Self.origin)
        func geo(_ east: Double) -> GeodeticCoordinate {
            let g = frame.geodetic(east: east, north: 0, up: 0)
            return GeodeticCoordinate(latitude: g.latitude, longitude: g.longitude, ellipsoidalHeight: 0)
        }
        let tour = try Tour(stops: [TourStop(id: "s", coordinate: geo(100), radius: 20)])
        let t0 = 1_778_920_200.0
        let clean = (0..<150).map { i -> Fix in
            let p = geo(1.3 * Double(i))
            return Fix(time: t0 + Double(i), latitude: p.latitude, longitude: p.longitude, horizontalAccuracy: 5)
        }
        var damaged = clean
        damaged[index].time += 1e6
        func run(_ fixes: [Fix], _ configuration: TourSession.Configuration = .init()) throws -> (events: [TourEvent], statistics: TourSession.Statistics) {
            var session = try TourSession(tour: tour, configuration: configuration)
            var events: [TourEvent] = []
            for f in fixes { events += try session.update(f).events }
            return (events, session.statistics)
        }
        let ref = try run(clean), a = try run(damaged)
        #expect(ref.events.map(\.kind) == [.enter, .dwell, .exit])
        #expect(a.statistics.clockResets == 1 && a.statistics.outOfOrder == 4 && a.statistics.updates == 146)
        // Reference: enter at fix 63 (P(inside) ≥ ½ from fix 62, confirmed 1 s later), dwell at 83, exit at 103.
        #expect(ref.events.map { $0.time - t0 } == [63, 83, 103])
        func event(_ kind: TourEventKind, _ i: Double) -> TourEvent { TourEvent(time: i == .infinity ? damaged[index].time : t0 + i, kind: kind, id: "s", feature: .stop) }
        switch index {
        case 62:   // the enter condition starts at the future fix: it restarts at the reset (fix 67), confirmed at 68
            #expect(a.events == [event(.enter, 68), event(.dwell, 88), event(.exit, 103)])
        case 75:   // inside: the future fix reports the dwell
            #expect(a.events == [event(.enter, 63), event(.dwell, .infinity), event(.exit, 103)])
        case 99:   // the exit condition starts at the future fix: it restarts at the reset (fix 104), confirmed at 108
            #expect(a.events == [event(.enter, 63), event(.dwell, 83), event(.exit, 108)])
        default:
            #expect(a.events == ref.events)
        }
        // Through a PositionFilter (replay): the session follows the filter's reset at once.
        func replay(_ fixes: [Fix]) throws -> (events: [TourEvent], summary: TourSession.ReplaySummary) {
            var session = try TourSession(tour: tour)
            var filter: PositionFilter? = PositionFilter()
            var summary = TourSession.ReplaySummary(), events: [TourEvent] = []
            for f in fixes { events += try session.process(f, filter: &filter, summary: &summary) }
            return (events, summary)
        }
        let fr = try replay(clean), fa = try replay(damaged)
        #expect(fa.summary.clockResets == 1 && fa.summary.refusedByFilter == 4 && fa.summary.refusedBySession == 0)
        // The stop is entered, dwelt in and left; each event at most 5 s (the refused fixes) after
        // the undamaged replay's, or at the future fix (which confirms a pending exit or the dwell,
        // as a real gap of that length would: at 75 the dwell, at 99 the exit).
        #expect(fa.events.map(\.kind) == [.enter, .dwell, .exit])
        for (x, y) in zip(fa.events, fr.events) {
            #expect(x.time == damaged[index].time || (x.time >= y.time && x.time <= y.time + 5), "\(x) vs \(y)")
        }
        // 0 disables the reset: the rest of the walk is refused, as before.
        let off = try run(damaged, TourSession.Configuration(clockResetFixCount: 0))
        #expect(off.statistics.outOfOrder == 149 - index && off.statistics.clockResets == 0)
        #expect(off.events.map(\.kind) == (index < 63 ? [] : [.enter, .dwell]))   // (at 75 the future fix reports the dwell)
        // A configuration saved before the setting existed decodes with the default.
        var json = try JSONSerialization.jsonObject(with: JSONEncoder().encode(TourSession.Configuration())) as! [String: Any]
        #expect(json.removeValue(forKey: "clockResetFixCount") as? Int == 5)
        let decoded = try JSONDecoder().decode(TourSession.Configuration.self, from: JSONSerialization.data(withJSONObject: json))
        #expect(decoded == TourSession.Configuration())
        #expect(throws: TourError.self) { try TourSession(tour: tour, configuration: .init(clockResetFixCount: -1)) }
    }

    /// Many fences: 2,000 random 20 m circles in a 3 km square (the 10,000-fence speed target is
    /// in Benchmarks/Tours). The session's events equal those of a
    /// brute-force reference that evaluates every fence with the same probability and state
    /// machine (reference: the unfiltered computation).
    @Test func manyFencesMatchBruteForce() throws {
        let frame = try LocalTangentFrame(origin: Self.origin)
        var rng = SplitMix64(seed: 11)
        var stops: [TourStop] = []
        var centers: [PlanarPoint] = []
        for i in 0..<2_000 {
            let p = PlanarPoint(x: rng.uniform(-1500, 1500), y: rng.uniform(-1500, 1500))
            let g = frame.geodetic(east: p.x, north: p.y, up: 0)
            stops.append(TourStop(id: "f\(i)", coordinate: GeodeticCoordinate(latitude: g.latitude, longitude: g.longitude, ellipsoidalHeight: 0), radius: 20))
            centers.append(p)
        }
        let tour = try Tour(stops: stops)
        var session = try TourSession(tour: tour)
        let walk = TourWalk(frame: frame, path: [PlanarPoint(x: -1400, y: -1000), PlanarPoint(x: 1400, y: 900)], pauses: [:], sigma: 5, tau: 15, seed: 5)
        var states = [FenceState](repeating: FenceState(), count: stops.count)
        var got = 0, reference = 0
        for s in walk.samples.prefix(900) {
            let ev = try session.update(s.fix).events
            got += ev.count
            let p = session.planarPoint(latitude: s.fix.latitude, longitude: s.fix.longitude)
            let sigma = CircularError.sigma(horizontalAccuracy: s.fix.horizontalAccuracy!)
            var refIDs: [String] = []
            for i in stops.indices {
                let d = p.distance(to: session.stopPoints[i])
                let e = PositionUncertainty.probabilityInsideCircle(distance: d, radius: 20, sigma: sigma)
                let st = states[i].isInside ? PositionUncertainty.probabilityInsideCircle(distance: d, radius: 25, sigma: sigma) : e
                let tr = states[i].update(time: s.time, enter: e, stay: st, parameters: GeofenceConfiguration())
                if !tr.isEmpty { refIDs.append(stops[i].id); reference += tr.contains(.enter) ? 1 : 0; reference += tr.contains(.exit) ? 1 : 0; reference += tr.contains(.dwell) ? 1 : 0 }
            }
            #expect(Set(ev.map(\.id)) == Set(refIDs))
        }
        #expect(got == reference && got > 10)
        _ = centers
    }
}

private extension GeofenceConfiguration {
    /// `self` with the probabilities of `other` (so a corridor stays a valid corridor).
    func with(probabilitiesOf other: GeofenceConfiguration) -> GeofenceConfiguration {
        var g = self
        g.enterProbability = other.enterProbability; g.exitProbability = other.exitProbability
        return g
    }
}
