import Foundation
import Testing
@testable import GeoAnchorKit

@Suite("Kalman core")
struct KalmanFilterTests {
    // Reference: FilterPy 2.0 KalmanFilter.predict/update (Joseph form) and rts_smoother,
    // fixture written by scripts/dev/filter_fixtures.py. Tolerance 1e-9 absolute on states
    // (m, m/s), covariances and Mahalanobis distances.
    @Test("4-state, 2-D correlated measurement: filter and RTS smoother match FilterPy to 1e-9")
    func matchesFilterPy4() throws {
        let rows = try filteringFixture("kf4_cv2d.csv")
        #expect(rows.count == 60)
        var kf = KalmanFilter4(x: .zero, variances: SIMD4(100, 100, 25, 25))
        var posts: [KalmanFilter4] = [], preds: [KalmanFilter4] = [], fs: [SIMD16<Double>] = []
        var maxErr = 0.0
        for row in rows {
            let dt = row["dt"]!, q = row["q"]!
            var F = SIMD16<Double>()
            for i in 0..<4 { F[i * 4 + i] = 1 }
            F[0 * 4 + 2] = dt; F[1 * 4 + 3] = dt
            let b = ConstantVelocityModel.processNoise(dt: dt, q: q)
            var Q = SIMD16<Double>()
            for (p, v) in [(0, 2), (1, 3)] {
                Q[p * 4 + p] = b[0]; Q[p * 4 + v] = b[1]; Q[v * 4 + p] = b[2]; Q[v * 4 + v] = b[3]
            }
            let ok = kf.predict(transition: F, noise: Q)
            #expect(ok)
            preds.append(kf); fs.append(F)
            let H = SIMD8<Double>(1, 0, 0, 0, 0, 1, 0, 0)
            let R = SIMD4<Double>(row["r00"]!, row["r01"]!, row["r01"]!, row["r11"]!)
            let o = kf.update(measurement: SIMD2(row["z0"]!, row["z1"]!), observation: H, noise: R)
            #expect(o.isApplied)
            maxErr = max(maxErr, abs(o.mahalanobisSquared.squareRoot() - row["mahalanobis"]!))
            for i in 0..<4 { maxErr = max(maxErr, abs(kf.x[i] - row["x\(i)"]!)) }
            for i in 0..<4 { for j in 0..<4 { maxErr = max(maxErr, abs(kf.covariance(i, j) - row["p\(i)\(j)"]!)) } }
            posts.append(kf)
        }
        #expect(maxErr <= 1e-9, "filter max |Δ| = \(maxErr)")
        var smooth = posts
        for k in stride(from: posts.count - 2, through: 0, by: -1) {
            smooth[k] = posts[k].smoothed(predicted: preds[k + 1], transition: fs[k + 1], next: smooth[k + 1])
        }
        var maxS = 0.0
        for (k, row) in rows.enumerated() {
            for i in 0..<4 { maxS = max(maxS, abs(smooth[k].x[i] - row["xs\(i)"]!)) }
            for i in 0..<4 { for j in 0..<4 { maxS = max(maxS, abs(smooth[k].covariance(i, j) - row["ps\(i)\(j)"]!)) } }
        }
        #expect(maxS <= 1e-9, "smoother max |Δ| = \(maxS)")
    }

    // Same reference and tolerance; exercises the scalar-measurement path the position filter uses.
    @Test("2-state scalar measurement: filter and RTS smoother match FilterPy to 1e-9")
    func matchesFilterPy2() throws {
        let rows = try filteringFixture("kf2_cv1d.csv")
        #expect(rows.count == 80)
        var kf = KalmanFilter2(x: .zero, variances: SIMD2(100, 25))
        var posts: [KalmanFilter2] = [], preds: [KalmanFilter2] = [], fs: [SIMD4<Double>] = []
        var maxErr = 0.0
        for row in rows {
            let F = ConstantVelocityModel.transition(dt: row["dt"]!)
            kf.predict(transition: F, noise: ConstantVelocityModel.processNoise(dt: row["dt"]!, q: row["q"]!))
            preds.append(kf); fs.append(F)
            let o = kf.update(measurement: row["z"]!, observation: SIMD2(1, 0), noise: row["r"]!)
            #expect(o.isApplied)
            maxErr = max(maxErr, abs(o.mahalanobisSquared.squareRoot() - row["mahalanobis"]!))
            maxErr = max(maxErr, abs(kf.x[0] - row["x0"]!), abs(kf.x[1] - row["x1"]!))
            for (i, name) in ["p00", "p01", "p10", "p11"].enumerated() { maxErr = max(maxErr, abs(kf.P[i] - row[name]!)) }
            posts.append(kf)
        }
        #expect(maxErr <= 1e-9, "filter max |Δ| = \(maxErr)")
        var smooth = posts
        for k in stride(from: posts.count - 2, through: 0, by: -1) {
            smooth[k] = posts[k].smoothed(predicted: preds[k + 1], transition: fs[k + 1], next: smooth[k + 1])
        }
        var maxS = 0.0
        for (k, row) in rows.enumerated() {
            maxS = max(maxS, abs(smooth[k].x[0] - row["xs0"]!), abs(smooth[k].x[1] - row["xs1"]!))
            for (i, name) in ["ps00", "ps01", "ps10", "ps11"].enumerated() { maxS = max(maxS, abs(smooth[k].P[i] - row[name]!)) }
        }
        #expect(maxS <= 1e-9, "smoother max |Δ| = \(maxS)")
    }

    // Reference: the 2-D update of two independent axes equals two scalar updates (block
    // diagonal P and R) — brute-force identity, tolerance 1e-12.
    @Test("vector update with diagonal R equals sequential scalar updates")
    func vectorEqualsSequentialScalar() {
        var a = KalmanFilter4(x: SIMD4(1, 2, 0.5, -0.5), variances: SIMD4(9, 4, 1, 2))
        var b = a
        let H = SIMD8<Double>(1, 0, 0, 0, 0, 1, 0, 0)
        a.update(measurement: SIMD2(3, -1), observation: H, noise: SIMD4(2, 0, 0, 5))
        b.update(measurement: 3, observation: SIMD4(1, 0, 0, 0), noise: 2)
        b.update(measurement: -1, observation: SIMD4(0, 1, 0, 0), noise: 5)
        for i in 0..<4 { #expect(abs(a.x[i] - b.x[i]) < 1e-12) }
        for i in 0..<16 { #expect(abs(a.P[i] - b.P[i]) < 1e-12) }
    }

    // Properties checked by construction: refused inputs leave x and P bit-identical; the
    // gate rejects exactly when d² exceeds it (d² = y²/s computed by hand here).
    @Test("bad inputs and gating never change the state")
    func badInputLeavesStateUntouched() {
        var kf = KalmanFilter2(x: SIMD2(10, 1), variances: SIMD2(4, 1))
        let before = kf
        let s1 = kf.update(measurement: .nan, observation: SIMD2(1, 0), noise: 1).status
        let s2 = kf.update(measurement: 1, observation: SIMD2(1, 0), noise: -1).status
        let s3 = kf.update(measurement: 1, observation: SIMD2(.infinity, 0), noise: 1).status
        let p1 = kf.predict(transition: SIMD4(1, .nan, 0, 1), noise: .zero)
        #expect(s1 == .invalidInput && s2 == .invalidInput && s3 == .invalidInput)
        #expect(!p1)
        // y = 20 − 10 = 10, s = 4 + 1 = 5, d² = 20 > 9 → gated.
        let o = kf.update(measurement: 20, observation: SIMD2(1, 0), noise: 1, gate: 9)
        #expect(o.status == .gated)
        #expect(abs(o.mahalanobisSquared - 20) < 1e-12)
        #expect(kf == before)
        var bad = KalmanFilter4(x: .zero, variances: SIMD4(1, 1, 1, 1))
        let b0 = bad
        // R with a negative eigenvalue makes S indefinite: refused.
        let o2 = bad.update(measurement: SIMD2(1, 1), observation: SIMD8(1, 0, 0, 0, 0, 1, 0, 0),
                            noise: SIMD4(1, 5, 5, 1))
        #expect(o2.status == .notPositiveDefinite)
        #expect(bad == b0)
    }

    // Joseph form keeps P symmetric positive definite over many steps with wildly varying dt
    // and tiny/huge R (checked via Cholesky at every step; symmetry exact after symmetrization).
    @Test("covariance stays symmetric positive definite")
    func covarianceStaysSPD() {
        var rng = FilterTestRNG(seed: 7)
        var kf = KalmanFilter4(x: .zero, variances: SIMD4(1e6, 1e6, 1e2, 1e2))
        let H = SIMD8<Double>(1, 0, 0, 0, 0, 1, 0, 0)
        for _ in 0..<2000 {
            let dt = pow(10, rng.uniform(-4, 2))
            var F = SIMD16<Double>()
            for i in 0..<4 { F[i * 4 + i] = 1 }
            F[2] = dt; F[7] = dt
            let b = ConstantVelocityModel.processNoise(dt: dt, q: 0.5)
            var Q = SIMD16<Double>()
            Q[0] = b[0]; Q[2] = b[1]; Q[8] = b[2]; Q[10] = b[3]
            Q[5] = b[0]; Q[7] = b[1]; Q[13] = b[2]; Q[15] = b[3]
            kf.predict(transition: F, noise: Q)
            let r = pow(10, rng.uniform(-6, 4))
            kf.update(measurement: SIMD2(rng.gaussian(), rng.gaussian()), observation: H, noise: SIMD4(r, 0, 0, r))
            var l = kf.P
            let spd = SmallMatrix.cholesky(&l, m: 4)
            #expect(spd)
            for i in 0..<4 { for j in 0..<4 { #expect(kf.covariance(i, j) == kf.covariance(j, i)) } }
        }
    }

    // The closed-form constant-velocity fast paths (used by the position filter) against the
    // generic predict/update: random states, dt and noises; tolerance 1e-12 relative.
    @Test("constant-velocity fast paths equal the generic core")
    func fastPathsMatchGeneric() {
        var rng = FilterTestRNG(seed: 99)
        for _ in 0..<500 {
            let a = rng.uniform(0.01, 100), d = rng.uniform(0.01, 10)
            let b = rng.uniform(-0.9, 0.9) * (a * d).squareRoot()
            var fast = KalmanFilter2(x: SIMD2(rng.gaussian() * 10, rng.gaussian()), P: SIMD4(a, b, b, d))
            var slow = fast
            let dt = rng.uniform(0, 5), q = rng.uniform(0.01, 5)
            fast.predictConstantVelocity(dt: dt, q: q)
            slow.predict(transition: ConstantVelocityModel.transition(dt: dt), noise: ConstantVelocityModel.processNoise(dt: dt, q: q))
            let i = Int(rng.uniform(0, 2)), z = rng.gaussian() * 5, r = rng.uniform(0.01, 20)
            let inn = fast.componentInnovation(i, measurement: z, noise: r)
            let g = slow.innovation(measurement: z, observation: i == 0 ? SIMD2(1, 0) : SIMD2(0, 1), noise: r)
            #expect(abs(inn.innovation - g.innovation) <= 1e-12 * max(1, abs(g.innovation)))
            #expect(abs(inn.variance - g.variance) <= 1e-12 * g.variance)
            fast.updateComponent(i, innovation: inn.innovation, noise: r)
            slow.update(measurement: z, observation: i == 0 ? SIMD2(1, 0) : SIMD2(0, 1), noise: r)
            for j in 0..<2 { #expect(abs(fast.x[j] - slow.x[j]) <= 1e-12 * max(1, abs(slow.x[j]))) }
            for j in 0..<4 { #expect(abs(fast.P[j] - slow.P[j]) <= 1e-12 * max(1, abs(slow.P[0]) + abs(slow.P[3]))) }
            // RTS step: previous posterior `prior`, its prediction, next smoothed = `fast`.
            let pa = rng.uniform(0.01, 50), pd = rng.uniform(0.01, 5), pb = rng.uniform(-0.9, 0.9) * (pa * pd).squareRoot()
            let prior = KalmanFilter2(x: SIMD2(rng.gaussian() * 10, rng.gaussian()), P: SIMD4(pa, pb, pb, pd))
            var pred = prior
            pred.predictConstantVelocity(dt: dt, q: q)
            let rf = prior.smoothedConstantVelocity(predicted: pred, dt: dt, next: fast)
            let rg = prior.smoothed(predicted: pred, transition: ConstantVelocityModel.transition(dt: dt), next: fast)
            for j in 0..<2 { #expect(abs(rf.x[j] - rg.x[j]) <= 1e-10 * max(1, abs(rg.x[j]))) }
            for j in 0..<4 { #expect(abs(rf.P[j] - rg.P[j]) <= 1e-10 * max(1, abs(rg.P[0]) + abs(rg.P[3]))) }
        }
    }

    // The closed-form bias-augmented (p, v, b) fast paths against the generic predict/update
    // (which match FilterPy): random SPD covariances, dt, φ, noises and observation rows
    // (the filter's [1, 0, 1] and [0, 1, 0] plus random ones); tolerance 1e-12 relative.
    @Test("bias-state fast paths equal the generic core")
    func biasFastPathsMatchGeneric() {
        var rng = FilterTestRNG(seed: 123)
        for trial in 0..<500 {
            // P = L Lᵀ + εI with a random lower-triangular L.
            let l = [rng.gaussian() * 3, 0, 0, rng.gaussian(), rng.uniform(0.1, 2), 0, rng.gaussian(), rng.gaussian(), rng.uniform(0.1, 2)]
            var P = SIMD16<Double>()
            for i in 0..<3 { for j in 0..<3 {
                var v = i == j ? 0.01 : 0
                for k in 0..<3 { v += l[i * 3 + k] * l[j * 3 + k] }
                P[i * 3 + j] = v
            } }
            var fast = KalmanFilter3(x: SIMD3(rng.gaussian() * 10, rng.gaussian(), rng.gaussian() * 2), P: P)
            var slow = fast
            let dt = rng.uniform(0, 5), q = rng.uniform(0.01, 5), phi = exp(-dt / rng.uniform(10, 200)), qb = rng.uniform(0, 2)
            fast.predictBiasedConstantVelocity(dt: dt, q: q, phi: phi, biasNoise: qb)
            var F = SIMD16<Double>(), Q = SIMD16<Double>()
            F[0] = 1; F[1] = dt; F[4] = 1; F[8] = phi
            Q[0] = q * dt * dt * dt / 3; Q[1] = q * dt * dt / 2; Q[3] = Q[1]; Q[4] = q * dt; Q[8] = qb
            slow.predict(transition: F, noise: Q)
            let h: SIMD3<Double> = trial % 3 == 0 ? SIMD3(1, 0, 1) : trial % 3 == 1 ? SIMD3(0, 1, 0) : SIMD3(rng.gaussian(), rng.gaussian(), rng.gaussian())
            let z = rng.gaussian() * 5, r = rng.uniform(0.01, 20)
            let inn = fast.scalarInnovation(measurement: z, observation: h, noise: r)
            let g = slow.innovation(measurement: z, observation: h, noise: r)
            #expect(abs(inn.innovation - g.innovation) <= 1e-12 * max(1, abs(g.innovation)))
            #expect(abs(inn.variance - g.variance) <= 1e-12 * g.variance)
            fast.updateScalar(innovation: inn.innovation, observation: h, noise: r)
            slow.update(innovation: g.innovation, observation: h, noise: r)
            let scale = max(1, slow.P[0] + slow.P[4] + slow.P[8])
            for j in 0..<3 { #expect(abs(fast.x[j] - slow.x[j]) <= 1e-12 * max(1, abs(slow.x[j])) * 10) }
            for j in 0..<9 { #expect(abs(fast.P[j] - slow.P[j]) <= 1e-12 * scale * 10, "P[\(j)] \(fast.P[j]) vs \(slow.P[j])") }
        }
        // Refusals leave the state bit-identical.
        var kf = KalmanFilter3(x: SIMD3(1, 2, 3), variances: SIMD3(4, 5, 6))
        let before = kf
        let r1 = kf.updateScalar(innovation: .nan, observation: SIMD3(1, 0, 1), noise: 1)
        let r2 = kf.updateScalar(innovation: 1, observation: SIMD3(1, 0, 1), noise: -1)
        let r3 = kf.predictBiasedConstantVelocity(dt: .infinity, q: 1, phi: 1, biasNoise: 0)
        #expect(!r1 && !r2 && !r3)
        #expect(kf == before)
    }

    // The joint 8-state fast paths of the path-constrained filter against the generic core (which
    // matches FilterPy): random SPD covariances, dt, φ, one- and two-row measurements, and the
    // RTS step; tolerance 1e-10 relative to the covariance scale.
    @Test("joint 8-state fast paths equal the generic core")
    func jointFastPathsMatchGeneric() {
        var rng = FilterTestRNG(seed: 321)
        func randomSPD() -> SIMD64<Double> {
            var l = [Double](repeating: 0, count: 64)
            for i in 0..<8 { for j in 0...i { l[i * 8 + j] = i == j ? rng.uniform(0.2, 3) : rng.gaussian() } }
            var P = SIMD64<Double>()
            for i in 0..<8 { for j in 0..<8 {
                var v = i == j ? 0.01 : 0
                for k in 0..<8 { v += l[i * 8 + k] * l[j * 8 + k] }
                P[i * 8 + j] = v
            } }
            return P
        }
        func transition(dt: Double, q: Double, phi: Double, qb: Double) -> (SIMD64<Double>, SIMD64<Double>) {
            var F = SIMD64<Double>(), Q = SIMD64<Double>()
            for i in 0..<8 { F[i * 8 + i] = 1 }
            for a in 0..<2 {
                F[a * 8 + 2 + a] = dt
                Q[a * 8 + a] = q * dt * dt * dt / 3; Q[a * 8 + 2 + a] = q * dt * dt / 2; Q[(2 + a) * 8 + a] = q * dt * dt / 2
                Q[(2 + a) * 8 + 2 + a] = q * dt
                F[(4 + a) * 8 + 4 + a] = phi; Q[(4 + a) * 8 + 4 + a] = qb
            }
            return (F, Q)
        }
        func close(_ a: KalmanFilter8, _ b: KalmanFilter8, _ what: String) {
            var scale = 1.0
            for i in 0..<8 { scale = max(scale, b.P[i * 9]) }
            var worst = 0.0
            for i in 0..<8 { worst = max(worst, abs(a.x[i] - b.x[i]) / max(1, abs(b.x[i]))) }
            for i in 0..<64 { worst = max(worst, abs(a.P[i] - b.P[i]) / scale) }
            #expect(worst <= 1e-10, "\(what): \(worst)")
        }
        for _ in 0..<200 {
            var x = SIMD8<Double>()
            for i in 0..<8 { x[i] = rng.gaussian() * 5 }
            var fast = KalmanFilter8(x: x, P: randomSPD()), slow = fast
            let dt = rng.uniform(0, 3), q = rng.uniform(0.01, 3), phi = exp(-dt / rng.uniform(20, 200)), qb = rng.uniform(0, 1)
            fast.predictJointConstantVelocity(dt: dt, q: q, phi: phi, biasNoise: qb)
            let (F, Q) = transition(dt: dt, q: q, phi: phi, qb: qb)
            slow.predict(transition: F, noise: Q)
            close(fast, slow, "predict")
            var H = SIMD16<Double>()
            for i in 0..<16 { H[i] = rng.uniform() < 0.5 ? 0 : rng.gaussian() }
            H[0] = 1; H[9] = 1
            let r0 = rng.uniform(0.1, 5), r1 = rng.uniform(0.1, 5), c = 0.3 * (r0 * r1).squareRoot() * rng.gaussian()
            let R = SIMD4(r0, c, c, r1), y = SIMD2(rng.gaussian() * 3, rng.gaussian() * 3)
            let o1 = fast.updateJoint(innovation: y, observation: H, noise: R)
            let o2 = slow.update(innovation: y, observation: H, noise: R)
            #expect(o1.isApplied && o2.isApplied && abs(o1.mahalanobisSquared - o2.mahalanobisSquared) <= 1e-10 * max(1, o2.mahalanobisSquared))
            close(fast, slow, "2-row update")
            var h = SIMD8<Double>()
            for i in 0..<8 { h[i] = rng.gaussian() }
            let ys = rng.gaussian(), rs = rng.uniform(0.1, 5)
            fast.updateJoint(innovation: ys, observation: h, noise: rs)
            slow.update(innovation: ys, observation: h, noise: rs)
            close(fast, slow, "scalar update")
            // RTS: previous posterior = a random state, its prediction as above, next = fast.
            let prior = KalmanFilter8(x: x, P: randomSPD())
            var pred = prior
            pred.predictJointConstantVelocity(dt: dt, q: q, phi: phi, biasNoise: qb)
            close(prior.smoothedJoint(predicted: pred, dt: dt, phi: phi, next: fast),
                  prior.smoothed(predicted: pred, transition: F, next: fast), "RTS step")
        }
        // Refusals leave the state bit-identical.
        var kf = KalmanFilter8(x: SIMD8(repeating: 1), P: randomSPD())
        let before = kf
        var H = SIMD16<Double>(); H[0] = 1; H[9] = 1
        let a = kf.updateJoint(innovation: SIMD2(.nan, 0), observation: H, noise: SIMD4(1, 0, 0, 1))
        let b = kf.updateJoint(innovation: 1e3, observation: SIMD8(1, 0, 0, 0, 0, 0, 0, 0), noise: 1, gate: 9)
        let c = kf.predictJointConstantVelocity(dt: .nan, q: 1, phi: 1, biasNoise: 0)
        #expect(a.status == .invalidInput && b.status == .gated && !c)
        #expect(kf == before)
    }
}
