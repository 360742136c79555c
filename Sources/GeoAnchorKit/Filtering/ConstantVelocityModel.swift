import Foundation

/// The continuous white-noise-acceleration ("constant velocity") model of one axis: state
/// `(position, velocity)`, acceleration a white noise of power spectral density `q`.
///
/// Discretized exactly for a step `dt` (Bar-Shalom, Li & Kirubarajan, *Estimation with
/// Applications to Tracking and Navigation*, 2001, §6.2.2):
/// `F = [[1, dt], [0, 1]]`, `Q = q · [[dt³/3, dt²/2], [dt²/2, dt]]`.
/// Over one second the velocity random-walks by `√q` m/s (1σ), so `q` reads as "how hard the
/// target manoeuvres": ≈ 0.1–0.5 m²/s³ for a walker, ≈ 1 for a cyclist, ≈ 3–10 for a car.
public enum ConstantVelocityModel {
    /// `F` for a step of `dt` seconds (row-major 2×2).
    @inlinable
    public static func transition(dt: Double) -> SIMD4<Double> { SIMD4(1, dt, 0, 1) }

    /// `Q` for a step of `dt` seconds and acceleration spectral density `q` (m²/s³), row-major 2×2.
    @inlinable
    public static func processNoise(dt: Double, q: Double) -> SIMD4<Double> {
        let dt2 = dt * dt
        let c = q * dt2 * 0.5
        return SIMD4(q * dt2 * dt / 3, c, c, q * dt)
    }
}
