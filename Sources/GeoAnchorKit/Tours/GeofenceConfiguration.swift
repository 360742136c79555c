import Foundation

/// Hysteresis and timing of geofence events (stops, zones, and the off-route corridor).
///
/// A fence is *entered* once the probability of being inside (see ``PositionUncertainty``) has
/// stayed ≥ ``enterProbability`` for ``enterConfirmation`` seconds, and *exited* once the
/// probability of being inside the fence grown by ``exitMargin`` meters has stayed ≤
/// ``exitProbability`` for ``exitConfirmation`` seconds. The gap between the two thresholds
/// (in probability and in meters) is the hysteresis that keeps GPS noise from flapping the state.
/// A ``TourEventKind/dwell`` event follows once the visitor has been inside for ``minimumDwell``
/// seconds without exiting.
///
/// The defaults were chosen on simulated walks (raw 1 Hz fixes, 5 m per-axis noise, 20 m
/// fences, 101 seeds × 6 stops, 3 decoy stops 36–45 m off the path): with white noise every
/// stop was entered once, 0 of 606 enters were more than 10 s from the true crossing (median
/// 1 s late); with Gauss–Markov noise (τ = 15 s / 30 s) 8 resp. 6 of 606 were (a persistent 5 m
/// bias moves the apparent crossing by several seconds at walking speed); no decoy was entered
/// and no fence flapped. 0.7 / 2 s gave 33–53 of 606 beyond 10 s.
///
/// ``validate()`` checks the ranges; ``TourSession/init(tour:configuration:resuming:)`` calls it
/// (decoding does not, so a decoded value out of range gets the same typed error there).
public struct GeofenceConfiguration: Sendable, Hashable, Codable {
    /// Enter when P(inside) ≥ this, in (0, 1]. Default 0.5 (more likely inside than not).
    public var enterProbability: Double
    /// Exit when P(inside the fence grown by ``exitMargin``) ≤ this, in [0, ``enterProbability``). Default 0.2.
    public var exitProbability: Double
    /// Meters added to the fence for the exit test, in ``exitMarginRange`` [0, 100 km]. Default 5 m.
    public var exitMargin: Double
    /// Seconds the enter condition must hold, in ``durationRange`` [0, 604,800] (0 = first fix).
    /// Default 1 s (two 1 Hz fixes).
    public var enterConfirmation: Double
    /// Seconds the exit condition must hold, in ``durationRange`` [0, 604,800]. Default 4 s.
    public var exitConfirmation: Double
    /// Seconds inside before a `dwell` event, in ``durationRange`` [0, 604,800]. Default 20 s.
    public var minimumDwell: Double

    public init(enterProbability: Double = 0.5, exitProbability: Double = 0.2, exitMargin: Double = 5,
                enterConfirmation: Double = 1, exitConfirmation: Double = 4, minimumDwell: Double = 20) {
        self.enterProbability = enterProbability; self.exitProbability = exitProbability
        self.exitMargin = exitMargin; self.enterConfirmation = enterConfirmation
        self.exitConfirmation = exitConfirmation; self.minimumDwell = minimumDwell
    }

    /// The margins ``exitMargin`` accepts: [0, ``TourStop/maximumRadius``] = [0, 100 km] m, the
    /// scale of a whole tour. A fence grown by more than the tour is never left: before this
    /// bound, 1e308 m was accepted and an entered stop or zone never reported its exit.
    public static let exitMarginRange = ValueRange.closed(0, TourStop.maximumRadius, unit: "m")

    /// Longest confirmation time or minimum dwell, seconds: one week (604,800 s), the longest
    /// dwell the route planner accepts at a stop (``RouteStop/dwellRange``), so every dwell a
    /// planned tour can contain can also be reported, and far beyond any confirmation that
    /// smooths GPS noise (seconds). A longer time only means "never": before this bound, 1e308 s
    /// was accepted and the fence silently never entered, exited or reported a dwell.
    public static let maximumDuration = 604_800.0

    /// The times ``enterConfirmation``, ``exitConfirmation`` and ``minimumDwell`` accept:
    /// [0, ``maximumDuration``] s.
    public static let durationRange = ValueRange.closed(0, maximumDuration, unit: "s")

    /// Checks the documented ranges (every value finite).
    /// - Throws: ``TourError/invalidParameter(name:value:allowed:)`` naming the first value
    ///   outside its range, with the range.
    public func validate() throws(TourError) { try validate(prefix: "") }

    /// ``validate()`` with `prefix` before each name (``TourSession/Configuration`` passes
    /// `"geofence."` and `"corridor."`, so the error says which of its two it is).
    func validate(prefix: String) throws(TourError) {
        guard enterProbability > 0, enterProbability <= 1 else {
            throw .invalidParameter(name: prefix + "enterProbability", value: enterProbability, allowed: ValueRange(lower: .exclusive(0), upper: .inclusive(1)))
        }
        guard exitProbability >= 0, exitProbability < enterProbability else {
            throw .invalidParameter(name: prefix + "exitProbability", value: exitProbability, allowed: ValueRange(lower: .inclusive(0), upper: .exclusive(enterProbability)))
        }
        for (n, v, allowed) in [("exitMargin", exitMargin, Self.exitMarginRange),
                                ("enterConfirmation", enterConfirmation, Self.durationRange),
                                ("exitConfirmation", exitConfirmation, Self.durationRange),
                                ("minimumDwell", minimumDwell, Self.durationRange)] {
            guard v.isFinite, allowed.contains(v) else { throw .invalidParameter(name: prefix + n, value: v, allowed: allowed) }
        }
    }
}

/// The hysteresis state of one fence (Codable for pause/resume).
public struct FenceState: Sendable, Hashable, Codable {
    /// Whether the fence is currently entered.
    public var isInside: Bool = false
    /// Time (s since 1970) the opposite condition started holding, nil when it does not.
    public var pendingSince: Double?
    /// Time of the last enter event.
    public var enteredAt: Double?
    /// Whether the `dwell` event of the current visit was reported.
    public var dwellReported: Bool = false

    public init() {}

    /// Whether the fence needs evaluating even when it is far away (inside or pending).
    @inlinable
    public var isActive: Bool { isInside || pendingSince != nil }

    /// What one update produced.
    public struct Transition: OptionSet, Sendable, Hashable {
        public let rawValue: UInt8
        public init(rawValue: UInt8) { self.rawValue = rawValue }
        public static let enter = Transition(rawValue: 1)
        public static let exit = Transition(rawValue: 2)
        public static let dwell = Transition(rawValue: 4)
    }

    /// Advances the state machine.
    /// - Parameters:
    ///   - time: seconds since 1970, non-decreasing.
    ///   - enter: P(inside the fence); read only while outside, and only compared with
    ///     ``GeofenceConfiguration/enterProbability`` (so an upper bound below it is as good as the value).
    ///   - stay: P(inside the fence grown by the exit margin); read only while inside, and only
    ///     compared with ``GeofenceConfiguration/exitProbability``.
    ///   - p: the fence's thresholds, confirmation times and minimum dwell.
    @inlinable
    public mutating func update(time: Double, enter: Double, stay: Double, parameters p: GeofenceConfiguration) -> Transition {
        var out: Transition = []
        if !isInside {
            if enter >= p.enterProbability {
                let since = pendingSince ?? time
                pendingSince = since
                if time - since >= p.enterConfirmation {
                    isInside = true; pendingSince = nil; enteredAt = time; dwellReported = false
                    out.insert(.enter)
                }
            } else {
                pendingSince = nil
            }
        } else {
            if stay <= p.exitProbability {
                let since = pendingSince ?? time
                pendingSince = since
                if time - since >= p.exitConfirmation {
                    isInside = false; pendingSince = nil; dwellReported = false
                    out.insert(.exit)
                    return out
                }
            } else {
                pendingSince = nil
            }
        }
        if isInside, !dwellReported, let t0 = enteredAt, time - t0 >= p.minimumDwell {
            dwellReported = true
            out.insert(.dwell)
        }
        return out
    }
}
