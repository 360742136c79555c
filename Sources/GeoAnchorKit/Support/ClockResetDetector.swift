/// Recognizes a reset clock in a stream that must not go backwards: ``count`` consecutive samples
/// refused for being more than ``minimumJump`` seconds older than the stream's latest time, and in
/// time order among themselves, mean that latest time was wrong (one sample from the future — a
/// corrupted date, a receiver's week-rollover bug — or a clock that was set back), not them. The
/// component then restarts its time base from them instead of refusing the rest of the stream.
/// A sample merely late or out of order (less than ``minimumJump`` behind) never counts.
struct ClockResetDetector: Sendable, Hashable {
    /// Refused samples in a row, in order, needed for a reset.
    static let count = 5
    /// Seconds a refused sample must lie behind the latest time to count (a clock jump, not a
    /// latency or a reordering).
    static let minimumJump = 60.0
    private var streak = 0
    private var last = -Double.infinity

    /// Notes a sample at `time` refused for lying behind `latest`; true when it completes a
    /// reset (the caller restarts its time base at `time`; the streak starts over).
    mutating func refused(_ time: Double, latest: Double) -> Bool {
        guard latest - time > Self.minimumJump else { streak = 0; return false }
        streak = streak > 0 && time >= last ? streak + 1 : 1
        last = time
        if streak >= Self.count { streak = 0; return true }
        return false
    }

    /// Notes an accepted sample (the streak starts over).
    mutating func accepted() { streak = 0 }
}
