import Foundation

/// The accuracy convention shared by every module: a horizontal accuracy is the radius of
/// 68 % confidence (CoreLocation semantics) of an isotropic 2-D Gaussian position error.
public enum CircularError {
    /// `√(−2 ln(1 − 0.68))` ≈ 1.5096: the 68 % radius of a 2-D isotropic Gaussian in units of
    /// its per-axis standard deviation σ (the Rayleigh quantile).
    public static let radius68PerSigma = (-2 * Foundation.log(1 - 0.68)).squareRoot()

    /// Per-axis standard deviation σ (m) of the isotropic Gaussian whose 68 % radius is
    /// `horizontalAccuracy` (m).
    @inlinable
    public static func sigma(horizontalAccuracy: Double) -> Double { horizontalAccuracy / radius68PerSigma }
}
