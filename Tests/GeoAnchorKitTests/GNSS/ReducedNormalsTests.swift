import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitSimulation

/// The solver eliminates the clock columns from the normal equations (``ReducedNormals``). Reference:
/// the full (3 + groups)² normal matrix, inverted by ``GNSSPositionSolver/inverse(_:_:)`` (Cholesky
/// of the whole matrix, the filter's routine), on seeded random geometries with 1–5 clock groups.
/// Tolerance: 1e-9 relative (the two differ by rounding in a different elimination order).
@Suite("GNSS reduced normal equations")
struct ReducedNormalsTests {
    @Test func matchesTheFullNormalEquations() {
        var rng = SeededRandom(seed: 0x5C4_0E1)
        for trial in 0..<300 {
            let groups = 1 + trial % 5
            let n = 4 + groups + Int(rng.uniform(0, 12))
            let m = 3 + groups
            var full = [Double](repeating: 0, count: m * m), rhs = [Double](repeating: 0, count: m)
            var sums = [Double](repeating: 0, count: 5 * groups)
            var reduced = ReducedNormals()
            for k in 0..<n {
                // A unit line of sight above the horizon-ish, a weight and a residual.
                var u = SIMD3(rng.uniform(-1, 1), rng.uniform(-1, 1), rng.uniform(0.1, 1))
                u /= (u * u).sum().squareRoot()
                let h = -u, w = rng.uniform(0.01, 4), v = rng.uniform(-50, 50)
                let g = k < groups ? k : Int(rng.uniform(0, Double(groups) - 1e-9))
                let row = [h.x, h.y, h.z] + (0..<groups).map { $0 == g ? 1.0 : 0.0 }
                for a in 0..<m { rhs[a] += w * row[a] * v; for b in 0..<m { full[a * m + b] += w * row[a] * row[b] } }
                sums.withUnsafeMutableBufferPointer { reduced.add(h: h, weight: w, residual: v, groupSums: $0.baseAddress! + 5 * g) }
            }
            let inv = GNSSPositionSolver.inverse(full, m)
            var factor = SIMD16<Double>()
            let dx = sums.withUnsafeMutableBufferPointer { reduced.solve(groupSums: $0.baseAddress!, groupCount: groups, factor: &factor) }
            if inv.isEmpty { #expect(dx == nil); continue }
            guard let dx else { Issue.record("trial \(trial): reduced system singular, full one not"); continue }
            let x = (0..<m).map { a in (0..<m).reduce(0.0) { $0 + inv[a * m + $1] * rhs[$1] } }
            let scale = x.map(abs).max()! + 1
            for a in 0..<3 { #expect(abs(dx[a] - x[a]) <= 1e-9 * scale, "trial \(trial) position \(a)") }
            // Clocks from the eliminated rows, as the solver computes them.
            for j in 0..<groups {
                let g = Array(sums[(5 * j)..<(5 * j + 5)])
                let c = (g[4] - (g[0] * dx.x + g[1] * dx.y + g[2] * dx.z)) / g[3]
                #expect(abs(c - x[3 + j]) <= 1e-9 * scale, "trial \(trial) clock \(j)")
            }
            // Position block of the inverse.
            let cov = ReducedNormals.inverse(factor: factor)
            let covScale = (0..<3).map { abs(inv[$0 * m + $0]) }.max()!
            for a in 0..<3 { for b in 0..<3 { #expect(abs(cov[a * 3 + b] - inv[a * m + b]) <= 1e-9 * covScale, "trial \(trial) cov \(a)\(b)") } }
        }
    }

    /// A solution's clocks and per-system counts: the dictionaries, the single lookups and the
    /// setters agree, and equality does not depend on the order the clocks were given in.
    @Test func solutionAccessorsAgree() {
        var s = GNSSSolution(time: 0, position: SIMD3(6.3e6, 0, 0), latitude: 0, longitude: 0, ellipsoidalHeight: 0, velocity: nil,
                             clocks: [GNSSSignalGroup(system: .galileo, band: "5"): 3, GNSSSignalGroup(system: .gps, band: "1"): 1],
                             satellitesUsed: 9, satellitesPerSystem: [.gps: 6, .galileo: 3], excluded: 0, pdop: 1,
                             residualRMS: 1, horizontalAccuracy: 1, verticalAccuracy: 1, residuals: [])
        #expect(s.clock(of: GNSSSignalGroup(system: .gps, band: "1")) == 1)
        #expect(s.clock(of: GNSSSignalGroup(system: .galileo, band: "5")) == 3)
        #expect(s.clock(of: GNSSSignalGroup(system: .glonass, band: "1")) == nil)
        #expect(s.clocks.count == 2 && s.satellitesPerSystem == [.gps: 6, .galileo: 3])
        #expect(s.satellites(of: .gps) == 6 && s.satellites(of: .beidou) == 0)
        var t = s
        t.clocks = [GNSSSignalGroup(system: .gps, band: "1"): 1, GNSSSignalGroup(system: .galileo, band: "5"): 3]
        #expect(t == s, "same clocks in another order are equal")
        s.satellitesPerSystem[.beidou] = 2
        #expect(s.satellites(of: .beidou) == 2 && s.satellitesPerSystem.count == 3)
    }
}
