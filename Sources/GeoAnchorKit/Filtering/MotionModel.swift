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

    /// Checks every value: finite and in its range — ``accelerationSpectralDensity`` in
    /// ``PositionFilter/Configuration/accelerationSpectralDensityRange`` (0, 10⁴] m²/s³;
    /// ``meanDuration`` in (0, 86,400] s (``PositionFilter/Configuration/maximumInterval``: 0 or
    /// less silently meant "never leaves the mode", and a longer stay means that too);
    /// ``maximumSpeed`` in [0, 1000] m/s (``PositionFilter/Configuration/maximumSpeed``) and
    /// ``maximumConsecutiveRejections`` in [0, 86,400] (``PositionFilter/Configuration/maximumCount``)
    /// when set (nil is no limit, the configuration's count). Within a configuration
    /// (``PositionFilter/Configuration/validate()``) the names are prefixed `modes[i].`. A decoded
    /// mode is checked when decoded (this error wrapped in `DecodingError.dataCorrupted`).
    /// - Throws: ``GeoAnchorError/nonFinite(name:value:)`` or
    ///   ``GeoAnchorError/outOfRange(name:value:allowed:)`` naming the first bad value.
    public func validate() throws(GeoAnchorError) { try validate(prefix: "") }

    /// ``validate()`` with `prefix` before every value's name.
    func validate(prefix: String) throws(GeoAnchorError) {
        typealias C = PositionFilter.Configuration
        try C.accelerationSpectralDensityRange.check(accelerationSpectralDensity, name: prefix + "accelerationSpectralDensity")
        try ValueRange(lower: .exclusive(0), upper: .inclusive(C.maximumInterval), unit: "s").check(meanDuration, name: prefix + "meanDuration")
        if let v = maximumSpeed { try ValueRange.closed(0, C.maximumSpeed, unit: "m/s").check(v, name: prefix + "maximumSpeed") }
        if let n = maximumConsecutiveRejections {
            try ValueRange.closed(0, Double(C.maximumCount)).check(Double(n), name: prefix + "maximumConsecutiveRejections")
        }
    }

    enum CodingKeys: String, CodingKey {
        case kind, accelerationSpectralDensity, observesBias, holdsStill, meanDuration, maximumSpeed, maximumConsecutiveRejections
    }

    /// Decodes and validates (``validate()``'s error wrapped in `DecodingError.dataCorrupted`).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        self.init(kind: try c.decode(MotionKind.self, forKey: .kind),
                  accelerationSpectralDensity: try c.decode(Double.self, forKey: .accelerationSpectralDensity),
                  observesBias: try c.decode(Bool.self, forKey: .observesBias),
                  holdsStill: try c.decode(Bool.self, forKey: .holdsStill),
                  meanDuration: try c.decode(Double.self, forKey: .meanDuration),
                  maximumSpeed: try c.decodeIfPresent(Double.self, forKey: .maximumSpeed),
                  maximumConsecutiveRejections: try c.decodeIfPresent(Int.self, forKey: .maximumConsecutiveRejections))
        do { try validate() } catch {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: error.description, underlyingError: error))
        }
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
