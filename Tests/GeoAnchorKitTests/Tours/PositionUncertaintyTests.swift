import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport

@Suite("Tours: probability of being inside")
struct PositionUncertaintyTests {
    /// Reference: SciPy's non-central χ² CDF with 2 degrees of freedom (the Rice CDF), fixture
    /// made by scripts/dev/make_rice_cdf_fixture.py (σ = 1). Tolerance 1e-9 absolute. Also checks
    /// scale invariance: the same case with every length × 3.7 gives the same probability (1e-12).
    @Test func riceCDFMatchesSciPy() throws {
        let url = SharedData.repositoryRoot.appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/Tours/rice_cdf.csv")
        let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n").filter { !$0.hasPrefix("#") }.dropFirst()
        #expect(lines.count > 200)
        var worst = 0.0
        for line in lines {
            let v = line.split(separator: ",").map { Double(String($0))! }
            let p = PositionUncertainty.probabilityInsideCircle(distance: v[1], radius: v[0], sigma: 1)
            worst = max(worst, abs(p - v[2]))
            #expect(abs(p - v[2]) <= 1e-9, "R \(v[0]) d \(v[1]): \(p) vs \(v[2])")
            let scaled = PositionUncertainty.probabilityInsideCircle(distance: v[1] * 3.7, radius: v[0] * 3.7, sigma: 3.7)
            #expect(abs(scaled - p) <= 1e-12)
        }
        #expect(worst <= 1e-9)
    }

    /// Reference: Rayleigh CDF at the centre, 1 − exp(−R²/2σ²) (closed form), and the 68 %
    /// radius definition: a circle of radius `horizontalAccuracy` around the estimate holds 68 %.
    @Test func rayleighAtCentre() {
        for r in [0.5, 1.0, 2.0, 5.0] {
            #expect(abs(PositionUncertainty.probabilityInsideCircle(distance: 0, radius: r, sigma: 1) - (1 - exp(-r * r / 2))) <= 1e-12)
        }
        let acc = 7.5
        let p = PositionUncertainty.probabilityInsideCircle(distance: 0, radius: acc, sigma: CircularError.sigma(horizontalAccuracy: acc))
        #expect(abs(p - 0.68) <= 1e-12)
    }

    /// Reference: standard normal CDF table values Φ(1) = 0.841344746068543, Φ(−2) = 0.022750131948179
    /// (Abramowitz & Stegun 26.2). Tolerance 1e-14.
    @Test func halfPlane() {
        #expect(abs(PositionUncertainty.probabilityInsideHalfPlane(signedDistance: 3, sigma: 3) - 0.841344746068543) <= 1e-14)
        #expect(abs(PositionUncertainty.probabilityInsideHalfPlane(signedDistance: -4, sigma: 2) - 0.022750131948179) <= 1e-14)
        #expect(PositionUncertainty.probabilityInsideHalfPlane(signedDistance: 0, sigma: 0) == 1)
        #expect(PositionUncertainty.probabilityInsideCircle(distance: 5, radius: 4, sigma: 0) == 0)
    }

    /// Extreme but finite scales. References: the Rayleigh CDF at the centre, 1 − exp(−½) for
    /// R = σ (closed form), and scale invariance — the d = R = σ case equals the σ = 1 one —
    /// for σ from 5e-324 to 1e308 m (before: 0 at 5e-324 m, as 1/σ overflowed), tolerance 1e-12;
    /// and an estimate on the boundary of a circle ≥ 1e10 σ in radius (locally straight on the
    /// scale of σ, curvature error ≈ σ/R): P = Φ(0) = ½ exactly (before: 0 or 1, the 9σ cut-off
    /// and the integration range lost in R's rounding). Half-plane: Φ(1) = 0.841344746068543 (A&S 26.2) at s = σ = 1e308 m
    /// (before: ½, σ√2 overflowed), tolerance 1e-14.
    @Test func extremeScales() {
        let onBoundary = PositionUncertainty.probabilityInsideCircle(distance: 1, radius: 1, sigma: 1)
        for s in [Double.leastNonzeroMagnitude, 1e-300, 1e-160, 1e160, 1e300, 1e308] {
            let centre = PositionUncertainty.probabilityInsideCircle(distance: 0, radius: s, sigma: s)
            #expect(abs(centre - (1 - exp(-0.5))) <= 1e-12, "σ \(s): \(centre)")
            let edge = PositionUncertainty.probabilityInsideCircle(distance: s, radius: s, sigma: s)
            #expect(abs(edge - onBoundary) <= 1e-12, "σ \(s): \(edge)")
        }
        for (r, s) in [(1e300, 9.0), (1.0, 1e-150), (1e308, 1.0), (100.0, 1e-15)] {
            #expect(PositionUncertainty.probabilityInsideCircle(distance: r, radius: r, sigma: s) == 0.5, "R \(r), σ \(s)")
            #expect(PositionUncertainty.probabilityInsideCircle(distance: 0, radius: r, sigma: s) == 1)
            #expect(PositionUncertainty.probabilityInsideCircle(distance: 3 * r, radius: r, sigma: s) == 0)
        }
        #expect(abs(PositionUncertainty.probabilityInsideHalfPlane(signedDistance: 1e308, sigma: 1e308) - 0.841344746068543) <= 1e-14)
        #expect(abs(PositionUncertainty.probabilityInsideHalfPlane(signedDistance: -.greatestFiniteMagnitude, sigma: .greatestFiniteMagnitude)
                    - (1 - 0.841344746068543)) <= 1e-14)
    }
}

@Suite("Tours: fence hysteresis")
struct FenceStateTests {
    /// Reference: the state machine's specification, timeline worked by hand. Parameters:
    /// enter ≥ 0.7 held 2 s, exit ≤ 0.2 held 4 s, dwell after 20 s.
    @Test func timeline() {
        let p = GeofenceConfiguration(enterProbability: 0.7, exitProbability: 0.2, exitMargin: 5,
                                   enterConfirmation: 2, exitConfirmation: 4, minimumDwell: 20)
        var s = FenceState()
        // (time, enterP, stayP, expected transition)
        let script: [(Double, Double, Double, FenceState.Transition)] = [
            (0, 0.1, 0.1, []), (1, 0.8, 0.9, []),    // enter condition starts at t = 1
            (2, 0.6, 0.9, []),                       // broken: pending resets
            (3, 0.75, 0.9, []), (4, 0.9, 0.95, []),  // starts again at 3
            (5, 0.9, 0.95, [.enter]),                // held 2 s → enter at 5
            (6, 0.1, 0.15, []),                      // exit condition starts
            (9, 0.1, 0.3, []),                       // stay 0.3 > 0.2: pending resets (hysteresis)
            (10, 0.0, 0.1, []), (13, 0.0, 0.1, []),
            (14, 0.0, 0.1, [.exit]),                 // held 4 s → exit at 14 (before the 20 s dwell)
            (15, 1, 1, []), (17, 1, 1, [.enter]),
            (36, 1, 1, []), (37, 1, 1, [.dwell]),    // 20 s after entering at 17
            (60, 1, 1, []),                          // dwell only once per visit
        ]
        for (t, e, st, expected) in script {
            let tr = s.update(time: t, enter: e, stay: st, parameters: p)
            #expect(tr == expected, "t = \(t)")
        }
        #expect(s.isInside)
    }

    @Test func parameterValidation() {
        #expect(throws: TourError.self) { try GeofenceConfiguration(enterProbability: 0.3, exitProbability: 0.4).validate() }
        #expect(throws: TourError.self) { try GeofenceConfiguration(exitMargin: -1).validate() }
        #expect(throws: Never.self) { try GeofenceConfiguration().validate() }
    }
}

@Suite("Tours: spatial prefilter and path projection")
struct TourGeometryTests {
    /// Reference: brute force over all circles (every circle within reach + radius of the query
    /// must be returned; extras are allowed). 3,000 random circles, 300 random queries, seeded.
    @Test func indexFindsEveryNearbyCircle() {
        var rng = SplitMix64(seed: 42)
        let centers = (0..<3000).map { _ in PlanarPoint(x: rng.uniform(-5000, 5000), y: rng.uniform(-5000, 5000)) }
        let radii = (0..<3000).map { _ in rng.uniform(5, 80) }
        var index = CircleFenceIndex(centers: centers, radii: radii)
        for n in 0..<300 {
            let q = PlanarPoint(x: rng.uniform(-5200, 5200), y: rng.uniform(-5200, 5200))
            // Every tenth query is huge (a fix with km-scale accuracy): the linear-scan fallback.
            let reach = n % 10 == 9 ? rng.uniform(2000, 6000) : rng.uniform(1, 300)
            var found = Set<Int>()
            var duplicates = 0
            index.forEachCandidate(near: q, reach: reach) { if !found.insert($0).inserted { duplicates += 1 } }
            #expect(duplicates == 0)
            for i in centers.indices where centers[i].distance(to: q) <= reach + radii[i] {
                #expect(found.contains(i), "circle \(i) missed")
            }
        }
    }

    /// Reference: brute force — the closest of 2,000 points sampled along each segment (the
    /// projection must be at least as close, and within 1e-9 m of the sampled minimum's bound).
    @Test func projectionIsClosestPoint() {
        var rng = SplitMix64(seed: 7)
        let pts = (0..<20).map { i in PlanarPoint(x: Double(i) * 30 + rng.uniform(-10, 10), y: rng.uniform(-40, 40)) }
        let line = PlanarPolyline(pts)
        for _ in 0..<200 {
            let q = PlanarPoint(x: rng.uniform(-50, 650), y: rng.uniform(-100, 100))
            let proj = line.project(q)
            var best = Double.infinity
            for s in 0..<(pts.count - 1) {
                for k in 0...2000 {
                    let t = Double(k) / 2000
                    best = min(best, q.distance(to: pts[s] + (pts[s + 1] - pts[s]) * t))
                }
            }
            #expect(proj.distance <= best + 1e-9)
            #expect(proj.distance >= best - 0.05)   // segment length ≤ 60 m: sampling step ≤ 3 cm
            #expect(abs(proj.point.distance(to: q) - proj.distance) < 1e-9)
            #expect(proj.along >= 0 && proj.along <= line.length)
        }
    }

    /// An out-and-back path: the same street twice. Progress must follow the leg the visitor
    /// is on (nearest to the previous progress), not jump to the other leg.
    @Test func outAndBackFollowsPreviousProgress() {
        let line = PlanarPolyline([PlanarPoint(x: 0, y: 0), PlanarPoint(x: 100, y: 0), PlanarPoint(x: 0, y: 1)])
        let q = PlanarPoint(x: 40, y: 0.6)
        #expect(abs(line.project(q, previousAlong: 30).along - 40) < 0.1)
        #expect(abs(line.project(q, previousAlong: 150).along - 160) < 0.1)
    }
}


