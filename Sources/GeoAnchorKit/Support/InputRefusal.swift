/// Why a streaming component refused one input.
///
/// GeoAnchorKit's streaming components — ``PositionFilter``, ``HeadingFilter`` and
/// ``TourSession`` — share one bad-input policy: an input they cannot use (a NaN, a latitude of
/// 91°, a time going backwards, a duplicate, a compass reading older than the allowed latency)
/// never stops the stream and is never dropped silently. The component
/// 1. leaves its state unchanged and returns a value that says so (`nil` from
///    ``PositionFilter/process(_:)``, `.refused` from ``HeadingFilter``'s outcomes,
///    an ``TourSession/Update`` with a ``TourSession/Update/refusal`` from ``TourSession/update(_:zones:)``),
/// 2. counts it by ``Reason`` in its statistics,
/// 3. keeps it as `lastRefusal` and passes it to its optional `onRefusal` handler (for a log or a
///    diagnostics screen).
/// Errors that are not about an input (a zone evaluator that fails) are thrown, typed.
public struct InputRefusal: Sendable, Hashable, CustomStringConvertible {
    /// The kind of problem.
    public enum Reason: String, Sendable, Hashable, Codable, CaseIterable {
        /// A value that cannot be used (NaN, infinite, latitude outside ±90°, negative accuracy);
        /// ``InputRefusal/error`` names it.
        case invalidValue
        /// The input's time is before the component's current time.
        case outOfOrder
        /// Same time and position as the previous input.
        case duplicate
        /// Older than the latency the component accepts (e.g. a compass reading lagging the gyro
        /// by more than ``HeadingFilter/Configuration/maximumCompassLatency``).
        case tooOld
    }

    /// The kind of problem.
    public var reason: Reason
    /// The input's time (s; as given, so possibly NaN for an invalid input).
    public var time: Double
    /// The offending value with its allowed range, when one value is to blame.
    public var error: GeoAnchorError?

    public init(reason: Reason, time: Double, error: GeoAnchorError? = nil) {
        self.reason = reason
        self.time = time
        self.error = error
    }

    /// E.g. `refused input at t=12.0: outOfOrder: time (must not go backwards) 12.0 is outside [15, ∞) s`.
    public var description: String {
        "refused input at t=\(time): \(reason.rawValue)" + (error.map { ": \($0)" } ?? "")
    }
}

/// Receives each refused input of a streaming component (see ``InputRefusal``). Called
/// synchronously on the caller's thread, before the refusing call returns.
public typealias InputRefusalHandler = @Sendable (InputRefusal) -> Void
