import Foundation

/// A small, fast, seedable pseudo-random generator (SplitMix64, Steele, Lea & Flood 2014,
/// doi:10.1145/2714064.2660195) so that solver runs, simulations and tests are reproducible for
/// a given seed on every platform (unlike `SystemRandomNumberGenerator`).
package struct SplitMix64: RandomNumberGenerator, Sendable, Hashable {
    private var state: UInt64
    /// Creates a generator; equal seeds give equal sequences.
    package init(seed: UInt64) { state = seed }
    /// The next 64 random bits.
    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    /// Uniform integer in `0..<bound` (bound > 0; modulo bias < 2⁻⁴⁰ for bounds below 2²⁴).
    package mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
    /// Uniform double in `[0, 1)` from the top 53 bits.
    package mutating func uniform() -> Double { Double(next() >> 11) * 0x1p-53 }
    /// Uniform double in `[a, b)` from the top 53 bits.
    package mutating func uniform(_ a: Double, _ b: Double) -> Double {
        a + (b - a) * Double(next() >> 11) * 0x1p-53
    }
    /// Standard normal deviate (Box–Muller).
    package mutating func gaussian() -> Double {
        let u = Swift.max(uniform(0, 1), 1e-300), v = uniform(0, 1)
        return (-2 * Foundation.log(u)).squareRoot() * Foundation.cos(2 * .pi * v)
    }
}
