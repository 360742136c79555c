import Foundation
import Testing
@testable import GeoAnchorKit

/// Walking times on steep legs: Tobler's hiking function with the steep-terrain (Naismith-style)
/// model. Before it, a tower's stairs (50 m up over 30 m) took 7,322 s and 9 km up over 500 m
/// 8.2e29 s.
@Suite("Walking model: steep terrain")
struct WalkingModelTests {
    /// Tobler's function alone (no steep-terrain model).
    static let toblerAlone = WalkingModel(peakSpeed: 6 / 3.6, optimalSlope: -0.05, decay: 3.5, steepTerrain: nil)

    /// Tobler's time written out independently of the library: run / (6 km/h · e^(−3.5·|S + 0.05|)),
    /// with the slope formed as the library forms it (rise / run).
    static func toblerSeconds(run: Double, rise: Double) -> Double {
        let slope = rise / run
        return run / (6 / 3.6 * exp(-3.5 * abs(slope - -0.05)))
    }

    /// Naismith's rule by hand: 5 km forward takes 1 h, 600 m of ascent 1 h; the default descent
    /// rate is twice the ascent rate, 1200 m/h. Reference: these rates; tolerance 1e-9 s.
    @Test func naismithTimesByHand() {
        let n = SteepTerrainModel.naismith
        #expect(abs(n.duration(horizontalDistance: 5000, heightChange: 0) - 3600) < 1e-9)
        #expect(abs(n.duration(horizontalDistance: 0, heightChange: 600) - 3600) < 1e-9)
        #expect(abs(n.duration(horizontalDistance: 0, heightChange: -1200) - 3600) < 1e-9)
        #expect(abs(n.duration(horizontalDistance: 5000, heightChange: 600) - 7200) < 1e-9)
        #expect(abs(n.duration(horizontalDistance: 10_000, heightChange: -600) - 9000) < 1e-9)
        // Its speed is the run over its time: 1000 m at slope 0.6 takes 720 + 3600 s.
        #expect(abs(n.speed(slope: 0.6) - 1000 / 4320) < 1e-15)
        #expect(n.speed(slope: .infinity) == 0)
    }

    /// A tower's stairs, 50 m up over 30 m of run: 30 m at 5 km/h (21.6 s) + 50 m at 600 m/h
    /// (300 s) = 321.6 s, 5.4 min — Tobler alone gave 7,322 s (2 h). Down: 21.6 + 150 = 171.6 s.
    /// Reference: by hand; tolerance 1e-9 s.
    @Test func towerStairsTakeMinutes() {
        let w = WalkingModel.tobler
        #expect(abs(w.duration(horizontalDistance: 30, heightChange: 50) - 321.6) < 1e-9)
        #expect(abs(w.duration(horizontalDistance: 30, heightChange: -50) - 171.6) < 1e-9)
        #expect(abs(Self.toblerAlone.duration(horizontalDistance: 30, heightChange: 50) - 7322.485) < 0.001)
        // Horizontal speed on the stairs: the run over the time.
        #expect(abs(w.speed(slope: 50.0 / 30) - 30 / 321.6) < 1e-15)
    }

    /// 9 km up over 500 m of run (slope 18): 500 m at 5 km/h (360 s) + 9000 m at 600 m/h
    /// (54,000 s) = 54,360 s, 15.1 h — finite; Tobler alone gave 8.2e29 s. Down: 360 + 27,000 s.
    /// Reference: by hand; tolerance 1e-9 s.
    @Test func nineKilometresUpIsFiniteAndSane() {
        let w = WalkingModel.tobler
        #expect(abs(w.duration(horizontalDistance: 500, heightChange: 9000) - 54_360) < 1e-9)
        #expect(abs(w.duration(horizontalDistance: 500, heightChange: -9000) - 27_360) < 1e-9)
        #expect(Self.toblerAlone.duration(horizontalDistance: 500, heightChange: 9000) > 8e29)
    }

    /// Steep descents: a 45° slope (S = −1) over 100 m takes 72 s + 100 m at 1200 m/h (300 s) =
    /// 372 s (Tobler alone: 1,667.9 s); a leg straight down (run 0) 100 m takes 300 s; descending
    /// is faster than climbing the same leg, slower than the flat. Reference: by hand; 1e-9 s.
    @Test func steepDescents() {
        let w = WalkingModel.tobler
        #expect(abs(w.duration(horizontalDistance: 100, heightChange: -100) - 372) < 1e-9)
        #expect(abs(Self.toblerSeconds(run: 100, rise: -100) - 1667.94) < 0.01)
        #expect(abs(w.duration(horizontalDistance: 0, heightChange: -100) - 300) < 1e-9)
        for s in stride(from: 0.5, through: 50, by: 0.5) {
            let down = w.duration(horizontalDistance: 100, heightChange: -100 * s)
            #expect(down < w.duration(horizontalDistance: 100, heightChange: 100 * s), "slope \(s)")
            #expect(down > w.duration(horizontalDistance: 100, heightChange: 0), "slope \(s)")
        }
    }

    /// A vertical leg (run 0) takes the steep model's vertical time: 50 m up 300 s, down 150 s;
    /// no height, 0 s. Tobler alone keeps its old answer (0 s). A run that is not a number
    /// still takes 0 s. Reference: by hand; tolerance 1e-9 s.
    @Test func verticalLegs() {
        let w = WalkingModel.tobler
        #expect(abs(w.duration(horizontalDistance: 0, heightChange: 50) - 300) < 1e-9)
        #expect(abs(w.duration(horizontalDistance: 0, heightChange: -50) - 150) < 1e-9)
        #expect(w.duration(horizontalDistance: 0, heightChange: 0) == 0)
        #expect(Self.toblerAlone.duration(horizontalDistance: 0, heightChange: 50) == 0)
        #expect(w.duration(horizontalDistance: .nan, heightChange: 50) == 0)
    }

    /// On every slope where Tobler's time is the shorter — with the defaults −0.367 < S < 0.445,
    /// so at least all |S| ≤ 0.3 — the time and the speed are Tobler's bit for bit: route figures
    /// on ordinary paths do not change. Reference: Tobler's formula written out in the test and
    /// the model without a steep part; tolerance: none (==). Grid: S from −0.36 to +0.44 in
    /// steps of 0.0005, runs from 1 cm to 100 km.
    @Test func toblerBitForBitBelowTheCrossover() {
        let w = WalkingModel.tobler
        for k in -720...880 {
            let s = Double(k) * 0.0005
            #expect(w.speed(slope: s) == Self.toblerAlone.speed(slope: s), "slope \(s)")
            #expect(w.speed(slope: s) == w.toblerSpeed(slope: s), "slope \(s)")
            for run in [0.01, 1, 37.5, 213.7, 1000, 100_000] {
                let rise = s * run
                let t = w.duration(horizontalDistance: run, heightChange: rise)
                #expect(t == Self.toblerSeconds(run: run, rise: rise), "slope \(s), run \(run)")
                #expect(t == Self.toblerAlone.duration(horizontalDistance: run, heightChange: rise), "slope \(s), run \(run)")
            }
        }
    }

    /// Crossover slopes: where Tobler's time per meter of run, e^(3.5·|S + 0.05|) / (6 km/h),
    /// equals the steep model's, 1 / (5 km/h) + S / (600 m/h) uphill or |S| / (1200 m/h)
    /// downhill. Reference: bisection on those closed forms (written out here); the crossovers
    /// are documented as +0.445 and −0.367 (tolerance 5e-4). The time is continuous there:
    /// 1e-7 of slope either side changes a 100 m leg's time by < 1 ms; below the crossover it is
    /// Tobler's, above it the steep model's (tolerance 1e-9 relative to each formula).
    @Test func continuousAtTheCrossover() {
        func tobler(_ s: Double) -> Double { exp(3.5 * abs(s + 0.05)) / (6 / 3.6) }
        func steep(_ s: Double) -> Double { 3.6 / 5 + (s > 0 ? s / (600 / 3600) : -s / (1200 / 3600)) }
        func root(_ lo: Double, _ hi: Double) -> Double {
            var lo = lo, hi = hi   // tobler < steep at lo, > at hi
            for _ in 0..<200 {
                let m = (lo + hi) / 2
                if tobler(m) < steep(m) { lo = m } else { hi = m }
            }
            return (lo + hi) / 2
        }
        let up = root(0, 2), down = root(0, -2)
        #expect(abs(up - 0.445) < 5e-4 && abs(down - -0.367) < 5e-4, "crossovers \(up), \(down)")
        let w = WalkingModel.tobler
        for s in [up, down] {
            let step = s > 0 ? 1e-7 : -1e-7   // toward steeper
            let below = s - step, above = s + step
            let tBelow = w.duration(horizontalDistance: 100, heightChange: 100 * below)
            let tAbove = w.duration(horizontalDistance: 100, heightChange: 100 * above)
            #expect(abs(tAbove - tBelow) < 1e-3, "slope \(s): \(tBelow) → \(tAbove)")
            #expect(abs(tBelow / (100 * tobler(below)) - 1) < 1e-9)
            #expect(abs(tAbove / (100 * steep(above)) - 1) < 1e-9)
        }
        // Continuous in the run too: as the run of a 50 m climb goes to 0, the time tends to
        // the vertical leg's 300 s.
        #expect(abs(w.duration(horizontalDistance: 1e-9, heightChange: 50) - 300) < 1e-6)
    }

    /// A plan through a tower: from the square to the top of a tower 30 m away and 50 m up. The
    /// leg takes the geodesic run at 5 km/h + 300 s (reference: by hand on the planner's own run;
    /// tolerance 1e-9 s), about 5.4 min. Plans over moderate slopes (a ring of stops with
    /// slopes within ±0.3) are identical to Tobler's alone (tolerance: none).
    @Test func plansUseTheSteepModel() throws {
        let square = GeodeticCoordinate(latitude: 50.08, longitude: 14.42, altitude: 200)
        let top = GeodeticCoordinate(latitude: 50.08027, longitude: 14.42, altitude: 250)
        let plan = try RoutePlanner.plan(RouteProblem(stops: [RouteStop(id: "square", coordinate: square),
                                                              RouteStop(id: "tower", coordinate: top)]))
        let leg = try #require(plan.estimate.legs.first)
        #expect(abs(leg.distance - 30) < 0.1)
        #expect(abs(leg.walkingTime - (leg.distance * 3.6 / 5 + 300)) < 1e-9)

        let ring = RoutingInputLimitTests.ring(12, height: { Double(($0 * 37) % 5) * 20 })
        let costs = try RoutingCosts(coordinates: ring.map(\.coordinate))
        var steepest = 0.0
        for i in 0..<12 { for j in 0..<12 where i != j {
            steepest = max(steepest, abs(ring[j].coordinate.height - ring[i].coordinate.height) / costs.distances[i, j])
        } }
        #expect(steepest > 0.1 && steepest <= 0.3, "steepest leg \(steepest)")
        let problem = RouteProblem(stops: ring, end: .returnToStart, objective: .duration)
        #expect(try RoutePlanner.plan(problem) == RoutePlanner.plan(problem, walking: Self.toblerAlone))
        #expect(costs == (try RoutingCosts(coordinates: ring.map(\.coordinate), walking: Self.toblerAlone)))
    }

    /// Steep-model parameters outside their ranges are refused by name (prefixed
    /// `steepTerrain.` on the walking model), by every planner entry point, as the Tobler
    /// parameters are. Reference: the documented ranges.
    @Test func steepParametersOutOfRangeAreNamed() throws {
        let n = SteepTerrainModel.naismith
        func with(_ change: (inout SteepTerrainModel) -> Void) -> WalkingModel {
            var s = n
            change(&s)
            return WalkingModel(peakSpeed: 6 / 3.6, optimalSlope: -0.05, decay: 3.5, steepTerrain: s)
        }
        let cases: [(WalkingModel, GeoAnchorError)] = [
            (with { $0.horizontalSpeed = -1 },
             .outOfRange(name: "steepTerrain.horizontalSpeed", value: -1, allowed: SteepTerrainModel.horizontalSpeedRange)),
            (with { $0.horizontalSpeed = -.infinity }, .nonFinite(name: "steepTerrain.horizontalSpeed", value: -.infinity)),
            (with { $0.ascentRate = 0 },
             .outOfRange(name: "steepTerrain.ascentRate", value: 0, allowed: SteepTerrainModel.ascentRateRange)),
            (with { $0.ascentRate = 1e-300 },
             .outOfRange(name: "steepTerrain.ascentRate", value: 1e-300, allowed: SteepTerrainModel.ascentRateRange)),
            (with { $0.descentRate = .infinity }, .nonFinite(name: "steepTerrain.descentRate", value: .infinity)),
            (with { $0.descentRate = 6 },
             .outOfRange(name: "steepTerrain.descentRate", value: 6, allowed: SteepTerrainModel.descentRateRange)),
        ]
        let stops = RoutingInputLimitTests.ring(8, height: { Double($0) })
        let net = try PathNetwork(lineStrings: [stops.map(\.coordinate)])
        for (model, error) in cases {
            #expect(throws: error) { try model.validate() }
            #expect(throws: RoutingError.invalidWalkingModel(error)) {
                try RoutePlanner.plan(RouteProblem(stops: stops), walking: model)
            }
            #expect(throws: RoutingError.invalidWalkingModel(error)) {
                try RoutingCosts(coordinates: stops.map(\.coordinate), walking: model)
            }
            #expect(throws: RoutingError.invalidWalkingModel(error)) {
                try RoutePlanner.plan(RouteProblem(stops: stops), network: net, walking: model)
            }
        }
        // The steep model on its own names the bare parameter.
        #expect(throws: GeoAnchorError.outOfRange(name: "ascentRate", value: 0, allowed: SteepTerrainModel.ascentRateRange)) {
            try SteepTerrainModel(horizontalSpeed: 1, ascentRate: 0, descentRate: 1).validate()
        }
        // The defaults, the range ends and no steep model at all are accepted.
        try SteepTerrainModel.naismith.validate()
        try SteepTerrainModel(horizontalSpeed: 0.01, ascentRate: 0.01, descentRate: 0.01).validate()
        try SteepTerrainModel(horizontalSpeed: 20, ascentRate: 5, descentRate: 5).validate()
        try Self.toblerAlone.validate()
        // The old initialiser still compiles and carries the default steep model.
        #expect(WalkingModel(peakSpeed: 6 / 3.6, optimalSlope: -0.05, decay: 3.5).steepTerrain == .naismith)
        #expect(WalkingModel.tobler.steepTerrain == .naismith)
    }
}
