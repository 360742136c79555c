import Foundation
import GeoAnchorKit

extension GeoRegistrationSimulator.Output {
    /// How the AR session comes back after an interruption (an app sent to the background, a
    /// phone call): ARKit's and ARCore's three outcomes.
    public enum Resumption: String, Sendable, Hashable, CaseIterable {
        /// A new frame (ARKit `run(_:options: .resetTracking)`, a new session): origin where the
        /// device is when tracking resumes, nominal north along its view then (yaw 0).
        case newFrame = "new frame"
        /// The old frame, continued from the pose the device had when tracking stopped: the
        /// frame moved and turned with the device's unseen motion (ARKit without relocalisation).
        case continued
        /// The old frame (ARKit relocalised against its map): samples as if never interrupted.
        case sameFrame = "same frame"
    }

    /// One interruption of the tracking (see ``interrupted(at:for:resumption:)``).
    public struct Interruption: Sendable, Hashable {
        /// The last tracking sample before it and the first after it (UTC s).
        public var start: Double
        public var end: Double
        public var resumption: Resumption
    }

    /// These streams with the tracking interrupted: no tracking sample and no compass reading
    /// in (`time`, `time` + `seconds`), and the samples after it in the frame `resumption`
    /// gives; the truth arrays follow the samples kept. `time`: the last sample at or before it
    /// ends the tracking. Nil when no sample follows the pause.
    public func interrupted(at time: Double, for seconds: Double, resumption: Resumption) -> Self? {
        guard let k0 = tracking.lastIndex(where: { $0.time <= time }),
              let k1 = tracking.indices.first(where: { $0 > k0 && tracking[$0].time >= tracking[k0].time + seconds }) else { return nil }
        let convention = ARFrameConvention.arkitGravity(sessionHeading: 0)
        let last = tracking[k0], first = tracking[k1]
        let pLast = GeoRegistration.nominal(last.position, convention), pFirst = GeoRegistration.nominal(first.position, convention)
        // The new frame's nominal axes turned clockwise by `turn` degrees and shifted so that the
        // first sample after the pause lands at `origin` (nominal axes).
        let turn: Double, origin: SIMD3<Double>
        switch resumption {
        case .sameFrame: turn = 0; origin = pFirst
        case .newFrame: turn = first.yaw; origin = .zero
        case .continued: turn = first.yaw - last.yaw; origin = pLast
        }
        let (sn, cs) = Angle.sincos(degrees: turn)
        var out = self
        let kept = Array(0...k0) + Array(k1..<tracking.count)
        out.tracking = kept.map { k in
            let t = tracking[k]
            guard k >= k1 else { return t }
            let q = GeoRegistration.nominal(t.position, convention) - pFirst
            // A vector at heading h has heading h − turn in the new axes.
            let e = cs * q.x - sn * q.y, n = sn * q.x + cs * q.y
            let moved = origin + SIMD3(e, n, q.z)
            // Nominal (east, north, up) back to ARKit (x, y up, z south).
            return ARTrackingSample(time: t.time, position: SIMD3(moved.x, moved.z, -moved.y), yaw: t.yaw - turn)
        }
        out.truePositions = kept.map { truePositions[$0] }
        out.trueHeadings = kept.map { trueHeadings[$0] }
        out.trueFrameHeadings = kept.map { k in k >= k1 ? Angle.normalizeHeading(trueFrameHeadings[k] + turn) : trueFrameHeadings[k] }
        out.walked = kept.map { walked[$0] }
        out.isStill = kept.map { isStill[$0] }
        let keep = compass.indices.filter { compass[$0].time <= last.time || compass[$0].time >= first.time }
        out.compass = keep.map { compass[$0] }
        if compassSlowErrors.count == compass.count { out.compassSlowErrors = keep.map { compassSlowErrors[$0] } }
        out.interruption = Interruption(start: last.time, end: first.time, resumption: resumption)
        return out
    }
}
