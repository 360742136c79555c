import Foundation
import GeoAnchorKit

extension GeoRegistrationSimulator.Output {
    /// One divergence of the tracking (see ``diverged(at:for:acceleration:direction:spin:resumption:)``).
    public struct Divergence: Sendable, Hashable {
        /// The first tracking sample that diverged and the first one after the divergence (UTC s).
        public var start: Double
        public var end: Double
        /// How far the tracked position ran away, meters, and how far its yaw turned, degrees,
        /// by the divergence's last sample.
        public var meters: Double
        public var degrees: Double
        public var resumption: Resumption
    }

    /// These streams with the AR tracking diverging, as visual-inertial odometry does when it
    /// loses its features (ADVIO: one of four outdoor iPhone sequences "diverged completely within
    /// 10 s"; `shared/notes/ar-tracking-drift.md`): from `time` on, for `seconds`, the tracked
    /// position runs away from the truth at `acceleration` m/s² along the nominal bearing
    /// `direction` (degrees clockwise from the frame's nominal north; ½ a τ² meters after τ s),
    /// and its yaw turns at `spin` °/s — samples keep coming at the usual rate and nothing in them
    /// says they are wrong. After it the session comes back as `resumption` says: `.sameFrame`
    /// (relocalised: the samples as if it never diverged), `.continued` (the frame carried on from
    /// the diverged pose: the later motion starts there, turned by the yaw's error); `.newFrame`
    /// is taken as `.continued`. Truth and compass are unchanged. Nil when no sample follows.
    public func diverged(at time: Double, for seconds: Double, acceleration: Double, direction: Double = 0,
                         spin: Double = 0, resumption: Resumption) -> Self? {
        guard let k0 = tracking.firstIndex(where: { $0.time >= time }),
              let k1 = tracking.indices.first(where: { $0 > k0 && tracking[$0].time >= tracking[k0].time + seconds }) else { return nil }
        let convention = ARFrameConvention.arkitGravity(sessionHeading: 0)
        let t0 = tracking[k0].time
        let (east, north) = Angle.sincos(degrees: direction)
        func runaway(_ t: Double) -> (offset: SIMD3<Double>, yaw: Double) {
            let tau = Swift.min(Swift.max(0, t - t0), seconds)
            let d = 0.5 * acceleration * tau * tau
            return (SIMD3(d * east, d * north, 0), spin * tau)
        }
        // The runaway at the divergence's last sample: where a continued frame carries on from.
        let (endOffset, endYaw) = runaway(tracking[k1 - 1].time)
        let (sn, cs) = Angle.sincos(degrees: endYaw)
        let pLastTrue = GeoRegistration.nominal(tracking[k1 - 1].position, convention)
        var out = self
        for k in k0..<tracking.count {
            let t = tracking[k]
            let q = GeoRegistration.nominal(t.position, convention)
            let moved: SIMD3<Double>, yaw: Double
            if k < k1 {
                let r = runaway(t.time)
                moved = q + r.offset; yaw = t.yaw + r.yaw
            } else if resumption == .sameFrame {
                break
            } else {
                // A vector at heading h has heading h + endYaw in the continued frame; the first
                // sample after the divergence steps from the diverged pose as the truth stepped.
                let v = q - pLastTrue
                let e = cs * v.x + sn * v.y, n = -sn * v.x + cs * v.y
                moved = pLastTrue + endOffset + SIMD3(e, n, v.z); yaw = t.yaw + endYaw
            }
            out.tracking[k] = ARTrackingSample(time: t.time, position: SIMD3(moved.x, moved.z, -moved.y), yaw: yaw)
            if k >= k1 { out.trueFrameHeadings[k] = Angle.normalizeHeading(trueFrameHeadings[k] - endYaw) }
        }
        out.divergence = Divergence(start: t0, end: tracking[k1].time, meters: (endOffset * endOffset).sum().squareRoot(),
                                    degrees: endYaw, resumption: resumption == .sameFrame ? .sameFrame : .continued)
        return out
    }
}
