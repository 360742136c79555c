import Foundation

/// The horizontal part of ``PositionFilter``: one abstraction for every motion model, so the
/// filter's step (gating, recovery, statistics, height), its smoother and its path constraint are
/// written once. Two models conform:
///
/// - ``ModeMixture``: per-axis (east, north independent) states of one or more motion modes
///   (``MotionMode``), combined by an interacting multiple model (IMM) when there are several — the
///   profiles are one-mode mixtures, ``PositionFilter/Configuration/adaptive`` has four;
/// - ``JointPathModel``: one joint state for both axes, which a ``PathConstraint`` couples.
///
/// The step calls `predict`, then optionally `updateVelocity`, then `positionInnovation` (which
/// returns the gate statistic and keeps what it computed; `predictInnovation` when there is no
/// velocity measurement in between) and `applyPosition` when the fix passes
/// the gate; `marginals` gives the per-axis (position, velocity) estimate.
protocol HorizontalModel {
    /// What the smoother's backward pass needs from one step.
    associatedtype Record
    /// The smoothed state the backward pass carries from step to step.
    associatedtype Smoothed

    /// Starts over on a fix at (`east`, `north`) with per-axis variance `r` (m²) and velocity
    /// variance `velocityVariance` (m²/s²) at zero velocity.
    mutating func reset(east: Double, north: Double, noise r: Double, velocityVariance: Double)
    /// Propagates over `dt` seconds (> 0).
    mutating func predict(dt: Double)
    /// The squared Mahalanobis distance (2 degrees of freedom) of a fix (per-axis variance `r`)
    /// against the prediction; kept for ``applyPosition()``.
    mutating func positionInnovation(east: Double, north: Double, noise r: Double) -> Double
    /// ``predict(dt:)`` immediately followed by ``positionInnovation(east:north:noise:)`` (a
    /// model may do both in one pass; the results must be the same).
    mutating func predictInnovation(dt: Double, east: Double, north: Double, noise r: Double) -> Double
    /// Applies the fix given to the last ``positionInnovation(east:north:noise:)``.
    mutating func applyPosition()
    /// The fix given to the last ``positionInnovation(east:north:noise:)`` failed the χ² `gate`
    /// (the state stays the prediction; a model may still learn from it, e.g. its mode
    /// probabilities).
    mutating func rejectPosition(gate: Double)
    /// A 2-D velocity measurement (m/s, isotropic variance `r`) gated at `gate` (χ², 2 degrees of
    /// freedom); false (state unchanged) when gated or refused.
    mutating func updateVelocity(east: Double, north: Double, noise r: Double, gate: Double) -> Bool
    /// A path constraint's pseudo-measurement after the fix (see ``PathConstraint``): true when
    /// applied, false when released, nil for a model without a path.
    mutating func applyPath(fixEast: Double, fixNorth: Double, sigma: Double, fixAccepted: Bool, gate: Double) -> Bool?
    /// A rejection-streak limit that overrides the configuration's (nil: none).
    var maximumConsecutiveRejections: Int? { get }
    /// The per-axis (position, velocity) estimate.
    var marginals: (east: KalmanFilter2, north: KalmanFilter2) { get }

    /// This step's record (call after the step's updates).
    var record: Record { get }
    /// The record of a zero-length step after the current one (no motion, no process noise).
    var zeroStepRecord: Record { get }
    /// The smoothed state of the last step of a segment (its filtered posterior).
    static func smoothedEnd(_ r: Record) -> Smoothed
    /// One backward (RTS) step: the smoothed state at a step from its record, the next step's
    /// record and the next step's smoothed state.
    static func smoothed(_ r: Record, next: Record, smoothedNext: Smoothed) -> Smoothed
    /// The per-axis (position, velocity) of a smoothed state.
    static func marginals(of s: Smoothed) -> (east: KalmanFilter2, north: KalmanFilter2)
}

extension HorizontalModel {
    mutating func predictInnovation(dt: Double, east: Double, north: Double, noise r: Double) -> Double {
        predict(dt: dt)
        return positionInnovation(east: east, north: north, noise: r)
    }
    var maximumConsecutiveRejections: Int? { nil }
    func rejectPosition(gate: Double) {}
    func applyPath(fixEast: Double, fixNorth: Double, sigma: Double, fixAccepted: Bool, gate: Double) -> Bool? { nil }
}

/// How a bias-observing horizontal model reads a fix of per-axis variance r as
/// `p + b + white`: the Gauss–Markov bias b gets ``current`` and the white part ``white(_:)``.
/// With a share κ (``PositionFilter/Configuration/biasShare``, or `pathBiasShare` for the
/// path model) the bias variance is `min(σ_b², κ r)` of the latest fix and the white part the
/// rest, so the model's total error is what the fix states; without (nil, the legacy split)
/// σ_b² is taken out of r and the white part floored. One implementation for `ModeMixture` and
/// `JointPathModel`.
struct BiasSplit: Sendable {
    /// The configured stationary bias variance σ_b² (1 without a bias state).
    let biasVariance: Double
    /// κ in (0, 1), or nil for the legacy split.
    let share: Double?
    /// The legacy split's floor for the white part (minimum horizontal σ²).
    let minimumWhite: Double
    /// The bias variance in use: σ_b², or with a share min(σ_b², κ r) of the latest fix.
    private(set) var current: Double

    init(biasVariance: Double, share: Double?, minimumWhite: Double) {
        self.biasVariance = biasVariance
        self.share = share.flatMap { $0 > 0 && $0 < 1 ? $0 : nil }
        self.minimumWhite = minimumWhite
        current = biasVariance
    }

    /// Sets ``current`` from a fix of variance `r` (no-op for the legacy split).
    @inline(__always)
    mutating func observe(fixVariance r: Double) {
        if let k = share { current = Swift.min(biasVariance, k * r) }
    }

    /// The white-noise variance of a fix of variance `r`.
    @inline(__always)
    func white(_ r: Double) -> Double {
        share != nil ? r - current : Swift.max(r - biasVariance, minimumWhite)
    }
}
