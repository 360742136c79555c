import Foundation
import GeoAnchorKit

/// xoshiro256** (Blackman & Vigna 2018, https://prng.di.unimi.it/), seeded through SplitMix64:
/// a small, fast generator whose output depends only on the seed — on every platform and Swift
/// version, unlike `SystemRandomNumberGenerator`. Used by ``TraceSimulator`` so a seed always
/// produces the same trace.
///
/// The floating-point helpers are implemented here (not with `Double.random(in:using:)`, whose
/// algorithm the standard library does not promise to keep).
public struct SeededRandom: RandomNumberGenerator, Sendable, Hashable {
    private var s0: UInt64, s1: UInt64, s2: UInt64, s3: UInt64
    private var spareGaussian: Double? = nil

    /// Seeds the state with four SplitMix64 outputs of `seed` (the seeding Vigna recommends).
    public init(seed: UInt64) {
        var seeder = SplitMix64(seed: seed)
        s0 = seeder.next(); s1 = seeder.next(); s2 = seeder.next(); s3 = seeder.next()
    }

    @inlinable
    static func rotl(_ x: UInt64, _ k: UInt64) -> UInt64 { (x << k) | (x >> (64 - k)) }

    public mutating func next() -> UInt64 {
        let result = Self.rotl(s1 &* 5, 7) &* 9
        let t = s1 << 17
        s2 ^= s0; s3 ^= s1; s1 ^= s2; s0 ^= s3
        s2 ^= t
        s3 = Self.rotl(s3, 45)
        return result
    }

    /// Uniform in [0, 1) with 53 random bits.
    public mutating func uniform() -> Double { Double(next() >> 11) * 0x1p-53 }

    /// Uniform in [a, b).
    public mutating func uniform(_ a: Double, _ b: Double) -> Double { a + (b - a) * uniform() }

    /// Standard normal (Marsaglia's polar method; the second value is kept for the next call).
    public mutating func gaussian() -> Double {
        if let g = spareGaussian { spareGaussian = nil; return g }
        while true {
            let u = 2 * uniform() - 1, v = 2 * uniform() - 1
            let s = u * u + v * v
            if s > 0 && s < 1 {
                let m = (-2 * Foundation.log(s) / s).squareRoot()
                spareGaussian = v * m
                return u * m
            }
        }
    }

    /// Normal with mean `mu` and standard deviation `sigma`.
    public mutating func gaussian(mean mu: Double, sigma: Double) -> Double { mu + sigma * gaussian() }

    /// True with probability p.
    public mutating func bernoulli(_ p: Double) -> Bool { uniform() < p }
}
