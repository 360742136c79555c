/// Recognizes a reset clock in a stream that must not go backwards: `count` consecutive samples
/// refused for lying more than `minimumJump` seconds behind the stream's latest time, and in time
/// order among themselves, mean that latest time was wrong (one sample from the future — a
/// corrupted date, a receiver's week-rollover bug — or a clock that was set back), not them. The
/// component then restarts its time base from them instead of refusing the rest of the stream.
/// The one implementation for ``PositionFilter``, ``TourSession`` (fixes: any step back counts,
/// their own configurable count), ``HeadingFilter`` and ``GeoRegistration`` (five inputs over a
/// minute behind: a lagging compass reading or fix is normal there, a clock jump is not).
struct ClockResetDetector: Sendable, Hashable, Codable {
    /// Default refused samples in a row, in order, needed for a reset.
    static let count = 5
    /// Default seconds a refused sample must lie behind the latest time to count.
    static let minimumJump = 60.0
    private var streak = 0
    private var last = -Double.infinity

    /// Notes a sample at `time` refused for lying behind `latest`; true when it completes a
    /// reset (the caller restarts its time base at `time`; the streak starts over). `count` ≤ 0
    /// turns resets off.
    mutating func refused(_ time: Double, latest: Double, count: Int = Self.count, minimumJump: Double = Self.minimumJump) -> Bool {
        guard latest - time > minimumJump else { streak = 0; return false }
        streak = streak > 0 && time >= last ? streak + 1 : 1
        last = time
        guard count > 0, streak >= count else { return false }
        streak = 0
        return true
    }

    /// Notes an accepted sample (the streak starts over).
    mutating func accepted() { streak = 0 }
}
