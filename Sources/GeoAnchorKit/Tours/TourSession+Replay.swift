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
        if filter != nil {
            guard let f = filter!.process(fix) else { summary.refusedByFilter += 1; return [] }
            position = f.fix
            position.heading = fix.heading
            position.headingAccuracy = fix.headingAccuracy
        }
        summary.positions += 1
        let u = try update(position, zones: zones)
        if u.refusal != nil { summary.refusedBySession += 1 }
        return u.events
    }
}
