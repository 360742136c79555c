import Foundation

extension TourSession {
    /// What a replay did besides producing events.
    public struct ReplaySummary: Sendable, Hashable {
        /// Fixes read.
        public var fixes = 0
        /// Positions fed to the session (filtered estimates, or raw fixes without a filter).
        public var positions = 0
        /// Fixes the ``PositionFilter`` refused (invalid values, time going backwards,
        /// duplicates; counted by reason in the filter's statistics), which produce no position.
        public var refusedByFilter = 0
        /// Positions the session refused (see ``TourSession/update(_:zones:)``), which produce no events.
        public var refusedBySession = 0
        /// Clock resets (``PositionFilter/Configuration/clockResetFixCount``,
        /// ``TourSession/Configuration/clockResetFixCount``): fixes going back in time, after which
        /// the filter, or the session without a filter, continued from their time. With a filter the
        /// session follows the filter's reset at once.
        public var clockResets = 0
        public init() {}
    }

    /// Feeds one raw fix through `filter` (when given) and the session.
    ///
    /// With a filter, the session sees the filtered position and its accuracy (the heading of
    /// the raw fix is kept for the arrow); a fix the filter refuses produces no events and is
    /// counted in `summary`.
    /// `zones`: as in ``update(_:zones:)`` (nil: the session's own pure-Swift evaluator).
    public mutating func process(_ fix: Fix, filter: inout PositionFilter?, zones: (any TourZoneEvaluator)? = nil,
                                 summary: inout ReplaySummary) throws(TourError) -> [TourEvent] {
        summary.fixes += 1
        var position = fix
        var filterReset = false
        if filter != nil {
            guard let f = filter!.process(fix) else { summary.refusedByFilter += 1; return [] }
            position = f.fix
            position.heading = fix.heading
            position.headingAccuracy = fix.headingAccuracy
            filterReset = f.status == .clockReset
        }
        summary.positions += 1
        let resets = statistics.clockResets
        let u = try update(position, zones: zones, clockReset: filterReset)
        if u.refusal != nil { summary.refusedBySession += 1 }
        if filterReset || statistics.clockResets > resets { summary.clockResets += 1 }
        return u.events
    }
}
