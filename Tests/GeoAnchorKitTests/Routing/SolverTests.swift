import Foundation
import Testing
@testable import GeoAnchorKit

@Suite("Routing solvers vs brute force")
struct SolverTests {
    static let ends: [VisitOrderEnd] = [.free, .roundTrip, .node(1)]

    /// Reference: brute force over all permutations. Held–Karp must match to 1e-9 relative
    /// on random Euclidean and random asymmetric instances of 2–8 nodes, for every end mode.
    @Test(arguments: 2...8)
    func heldKarpMatchesBruteForce(n: Int) throws {
        for seed in UInt64(1)...3 {
            for matrix in [BruteForce.euclidean(n, seed: seed), BruteForce.asymmetric(n, seed: seed + 100)] {
                for end in Self.ends {
                    if case .node = end, n < 2 { continue }
                    let p = VisitOrderInstance(cost: matrix, start: 0, end: end)
                    let exact = try #require(HeldKarp.solve(p))
                    let brute = try #require(BruteForce.solve(p))
                    #expect(abs(exact.cost - brute.cost) <= 1e-9 * max(1, brute.cost), "n=\(n) seed=\(seed) end=\(end)")
                    // The reported order really has the reported cost.
                    #expect(abs(BruteForce.simulate(p, exact.order)! - exact.cost) <= 1e-9 * max(1, exact.cost))
                    #expect(Set(exact.order).count == n)
                }
            }
        }
    }

    /// Reference: brute force. The heuristic (forced with exactLimit 0, fixed iteration count
    /// so the run is deterministic) must also find the optimum of 9-node instances, Euclidean
    /// and Tobler walking times (asymmetric: exercises reversal pricing by prefix sums).
    @Test func localSearchFindsSmallOptima() throws {
        for seed in UInt64(1)...4 {
            for matrix in [BruteForce.euclidean(9, seed: seed), BruteForce.tobler(9, seed: seed + 50)] {
                for end in Self.ends {
                    let p = VisitOrderInstance(cost: matrix, start: 0, end: end)
                    let brute = try #require(BruteForce.solve(p))
                    let ils = IteratedLocalSearch(cost: matrix, start: 0, end: end,
                                                  options: SolverConfiguration(timeLimit: 10, seed: seed, maxIterations: 300)).run()
                    #expect(Set(ils.order).count == 9)
                    #expect(abs(BruteForce.simulate(p, ils.order)! - ils.cost) <= 1e-9 * ils.cost)
                    #expect(ils.cost <= brute.cost * (1 + 1e-9), "seed \(seed) end \(end): \(ils.cost) vs \(brute.cost)")
                }
            }
        }
    }

    /// Same seed and iteration cap → the same tour (determinism), on a 60-node instance.
    @Test func deterministicPerSeed() throws {
        let m = BruteForce.euclidean(60, seed: 9)
        let o = SolverConfiguration(timeLimit: 100, seed: 42, maxIterations: 200)
        let a = try VisitOrderSolver.solve(cost: m, start: 0, end: .roundTrip, options: o)
        let b = try VisitOrderSolver.solve(cost: m, start: 0, end: .roundTrip, options: o)
        #expect(a.order == b.order)
        #expect(a.solver == .iteratedLocalSearch)
    }

    /// Reference: brute force over subsets and permutations, with random precedence pairs,
    /// time windows, dwell times, optional stops and a budget (objective = time). Held–Karp
    /// must agree on feasibility, prize and objective (1e-9 relative).
    @Test func constrainedHeldKarpMatchesBruteForce() throws {
        var checked = 0, infeasible = 0
        for seed in UInt64(1)...60 {
            var rng = SplitMix64(seed: seed)
            let n = 4 + rng.below(4)
            let p = randomConstrained(n: n, rng: &rng)
            let brute = BruteForce.solve(p)
            let exact = HeldKarp.solve(p)
            #expect((brute == nil) == (exact == nil), "seed \(seed): feasibility differs")
            guard let brute, let exact else { infeasible += 1; continue }
            let prize = exact.order.reduce(0.0) { $0 + p.prize[$1] }
            #expect(abs(prize - brute.prize) <= 1e-9, "seed \(seed): prize \(prize) vs \(brute.prize)")
            #expect(abs(exact.cost - brute.cost) <= 1e-9 * max(1, brute.cost), "seed \(seed): \(exact.cost) vs \(brute.cost)")
            #expect(BruteForce.simulate(p, exact.order) != nil)
            checked += 1
        }
        // The generator must produce both outcomes, or the test would not test much.
        #expect(checked > 20 && infeasible > 0, "checked \(checked), infeasible \(infeasible)")
    }

    /// The constrained heuristic (forced with exactLimit 0) must return feasible routes whose
    /// prize equals the optimum and whose objective is within 5 % of it (reference: brute force).
    @Test func constrainedHeuristicIsFeasibleAndNearOptimal() throws {
        for seed in UInt64(1)...30 {
            var rng = SplitMix64(seed: seed)
            let p = randomConstrained(n: 6, rng: &rng)
            guard let brute = BruteForce.solve(p) else { continue }
            guard let h = ConstrainedSearch(p, options: SolverConfiguration(timeLimit: 10, seed: 1, maxIterations: 60)).run() else {
                Issue.record("seed \(seed): heuristic found no feasible route, brute force did"); continue
            }
            #expect(BruteForce.simulate(p, h.order) != nil, "seed \(seed): infeasible route")
            let prize = h.order.reduce(0.0) { $0 + p.prize[$1] }
            #expect(prize >= brute.prize - 1e-9, "seed \(seed): prize \(prize) < \(brute.prize)")
            #expect(h.cost <= brute.cost * 1.05 + 1e-9, "seed \(seed): \(h.cost) vs \(brute.cost)")
        }
    }

    func randomConstrained(n: Int, rng: inout SplitMix64) -> VisitOrderInstance {
        let m = BruteForce.asymmetric(n, seed: rng.next())
        var p = VisitOrderInstance(cost: m, start: 0, end: [VisitOrderEnd.free, .roundTrip, .node(n - 1)][rng.below(3)])
        p.timed = true
        for i in 1..<n {
            p.service[i] = Double(rng.below(20))
            if rng.below(3) == 0 {
                let open = Double(rng.below(150))
                p.windowOpen[i] = open
                p.windowClose[i] = open + 20 + Double(rng.below(200))
            }
            if rng.below(3) == 0 && p.fixedEnd != i { p.optional[i] = true; p.prize[i] = Double(1 + rng.below(5)) }
        }
        // Acyclic precedence: only from lower to higher index, never involving the start.
        for _ in 0..<rng.below(3) {
            let a = 1 + rng.below(n - 1), b = 1 + rng.below(n - 1)
            if a < b && p.fixedEnd != a { p.successors[a].append(b) }
        }
        if rng.below(2) == 0 { p.budget = Double(150 + rng.below(350)) }
        return p
    }
}
