import Foundation

/// How the device moves, as reported by the adaptive filter (``PositionFilter/Configuration/adaptive``).
public enum MotionKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Standing still (velocity held at zero).
    case stationary
    /// A pedestrian.
    case walking
    /// A car, bus, tram or bicycle.
    case vehicle
}

/// One motion mode of the ``PositionFilter``'s horizontal model.
///
/// Every mode describes each horizontal axis with the state (position `p`, velocity `v`, bias
/// `b`): `p` and `v` follow the constant-velocity model (``ConstantVelocityModel``) with this
/// mode's acceleration spectral density, and `b` is the first-order Gauss–Markov position bias
/// of the configuration (``PositionFilter/Configuration/biasTimeConstant``,
/// ``PositionFilter/Configuration/biasSigma``), shared by all modes. A mode that
/// ``observesBias`` reads a fix as `p + b + w` with the white part `w` of variance
/// `max(σ² − σ_b², σ_min²)` (the slowly varying error is the bias); the others read it as
/// `p + w` with the fix's whole variance σ² and leave `b` unobserved. A mode that
/// ``holdsStill`` constrains the velocity to zero (σ ``PositionFilter/Configuration/stationaryVelocitySigma``)
/// after each prediction.
public struct MotionMode: Sendable, Hashable, Codable {
    /// The motion this mode stands for (modes of the same kind are summed in reports).
    public var kind: MotionKind
    /// Horizontal acceleration power spectral density `q`, m²/s³, per axis.
    public var accelerationSpectralDensity: Double
    /// Whether fixes are read as position + Gauss–Markov bias + white noise (see the type).
    public var observesBias: Bool
    /// Whether the velocity is held at zero.
    public var holdsStill: Bool
    /// Mean time (s) the device stays in this mode before switching to another (the mode
    /// transition probability over a step `dt` is `1 − exp(−dt / meanDuration)`, shared equally
    /// among the other modes).
    public var meanDuration: Double
    /// A soft speed limit (m/s; nil: none): after each fix the mode's likelihood is multiplied by
    /// `exp(−½ (max(0, |v| − limit) / 0.5 m/s)²)` of its own speed estimate — a pedestrian mode
    /// does not explain a car's speed, however well its constant-velocity model would follow it.
    public var maximumSpeed: Double?
    /// ``PositionFilter/Configuration/maximumConsecutiveRejections`` while this is the most
    /// probable mode (nil: the configuration's). A vehicle covers many meters a second, so a
    /// filter that gates a phone's correction after a glitch is soon far off: the vehicle mode of
    /// ``PositionFilter/Configuration/adaptive`` uses the driving preset's 1.
    public var maximumConsecutiveRejections: Int?

    public init(kind: MotionKind, accelerationSpectralDensity: Double, observesBias: Bool = false,
                holdsStill: Bool = false, meanDuration: Double = 60, maximumSpeed: Double? = nil,
                maximumConsecutiveRejections: Int? = nil) {
        self.maximumSpeed = maximumSpeed
        self.maximumConsecutiveRejections = maximumConsecutiveRejections
        self.kind = kind
        self.accelerationSpectralDensity = accelerationSpectralDensity
        self.observesBias = observesBias
        self.holdsStill = holdsStill
        self.meanDuration = meanDuration
    }
}

/// The probability of each ``MotionKind`` at one step of the ``PositionFilter`` (they sum to 1).
@frozen
public struct MotionProbabilities: Sendable, Hashable, Codable {
    public var stationary: Double
    public var walking: Double
    public var vehicle: Double

    @inlinable
    public init(stationary: Double, walking: Double, vehicle: Double) {
        self.stationary = stationary; self.walking = walking; self.vehicle = vehicle
    }

    /// Probability 1 for `kind`.
    public init(_ kind: MotionKind) {
        self.init(stationary: kind == .stationary ? 1 : 0, walking: kind == .walking ? 1 : 0, vehicle: kind == .vehicle ? 1 : 0)
    }

    @inline(__always)
    init(_ m: ModeMixture) {
        let p = m.kindProbabilities
        self.init(stationary: p.stationary, walking: p.walking, vehicle: p.vehicle)
    }

    /// The probability of `kind`.
    public subscript(kind: MotionKind) -> Double {
        switch kind {
        case .stationary: return stationary
        case .walking: return walking
        case .vehicle: return vehicle
        }
    }

    /// The most probable kind (ties: stationary, walking, vehicle in that order).
    public var mostProbable: MotionKind {
        stationary >= walking && stationary >= vehicle ? .stationary : walking >= vehicle ? .walking : .vehicle
    }
}
