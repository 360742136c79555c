import Foundation
import GeoAnchorKit

extension GeoRegistrationSimulator {
    /// A recorded reference track as the truth ``run(truth:)`` expects, so the streams can be
    /// simulated along a real trajectory and ``GeoRegistration`` measured against a real phone's
    /// fixes (e.g. the GSDC 2020 drives: a NovAtel SPAN track at 10 Hz beside each phone).
    ///
    /// Reference files such as SPAN's NMEA GGA carry positions only: each epoch's heading is
    /// the direction of motion over the epochs within ±`window` seconds (the device faces where
    /// it goes, as a phone mounted in a car or carried ahead does), held through stops (the
    /// first moving heading before the first motion); its speed is the same span's distance /
    /// time, exactly 0 below `stillSpeed` (what ``Output/isStill`` and the report's
    /// standing-still figures look for). Positions and times are kept; a heading stated in the
    /// file is replaced (a course or attitude would have its own noise).
    /// - Parameters:
    ///   - reference: the reference epochs in time order (at least two; fewer are returned as is).
    ///   - window: seconds either side over which motion is measured (default 0.5 s).
    ///   - movingSpeed: m/s from which the direction of motion is taken as the heading (0.5).
    ///   - stillSpeed: m/s below which the epoch is standing still (0.1).
    public static func truth(fromReference reference: [Fix], window: Double = 0.5, movingSpeed: Double = 0.5,
                             stillSpeed: Double = 0.1) -> [Fix] {
        guard reference.count >= 2, let first = reference.first,
              let frame = try? LocalTangentFrame(origin: GeodeticCoordinate(latitude: first.latitude, longitude: first.longitude,
                                                                          ellipsoidalHeight: 0))
        else { return reference }
        let enu = reference.map { frame.enu(latitude: $0.latitude, longitude: $0.longitude, ellipsoidalHeight: 0) }
        var out = reference
        var lo = 0, hi = 0
        var held: Double?
        var firstMoving: Int?
        for i in reference.indices {
            let t = reference[i].time
            while lo < i && reference[lo].time < t - window { lo += 1 }
            if hi < i { hi = i }
            while hi + 1 < reference.count && reference[hi + 1].time <= t + window { hi += 1 }
            let dt = reference[hi].time - reference[lo].time
            let de = enu[hi].east - enu[lo].east, dn = enu[hi].north - enu[lo].north
            let speed = dt > 0 ? (de * de + dn * dn).squareRoot() / dt : 0
            if speed >= movingSpeed {
                held = Angle.normalizeHeading(Foundation.atan2(de, dn) * 180 / .pi)
                if firstMoving == nil { firstMoving = i }
            }
            out[i].heading = held
            out[i].speed = speed < stillSpeed ? 0 : speed
        }
        if let f = firstMoving { for i in 0..<f { out[i].heading = out[f].heading } }
        return out
    }
}

extension GeoRegistrationEvaluation {
    /// A recorded phone trace and its reference (e.g. ``FilterAccuracyComparison/gsdc2020Files(_:drive:phone:)``)
    /// as evaluation input: the phone's fixes, and streams simulated (seed `seed`) along the
    /// reference cropped to the fixes' span ± 1 s, through
    /// ``GeoRegistrationSimulator/truth(fromReference:window:movingSpeed:stillSpeed:)``; `tracking`
    /// the AR tracking's error model (default: a modern phone's;
    /// ``GeoRegistrationSimulator/TrackingModel/olderPhone`` for ADVIO's iPhone 6s).
    /// - Throws: the readers' errors.
    public static func recorded(trace: URL, reference: URL, seed: UInt64 = 1,
                                tracking: GeoRegistrationSimulator.TrackingModel = .init()) throws -> (raw: [Fix], streams: GeoRegistrationSimulator.Output) {
        let pair = try FilterAccuracyComparison.loadFixes(trace: trace, reference: reference)
        return (pair.fixes, recorded(fixes: pair.fixes, reference: pair.reference, seed: seed, tracking: tracking))
    }

    /// The streams of ``recorded(trace:reference:seed:tracking:)`` for fixes and reference epochs already
    /// in memory (e.g. positions solved from raw measurements); `window` as in
    /// ``GeoRegistrationSimulator/truth(fromReference:window:movingSpeed:stillSpeed:)`` (1 s for a
    /// 1 Hz reference). Empty streams without fixes.
    public static func recorded(fixes: [Fix], reference: [Fix], seed: UInt64 = 1, window: Double = 0.5,
                                tracking: GeoRegistrationSimulator.TrackingModel = .init()) -> GeoRegistrationSimulator.Output {
        var simulator = GeoRegistrationSimulator(seed: seed)
        simulator.tracking = tracking
        guard let t0 = fixes.first?.time, let t1 = fixes.last?.time else { return simulator.run(truth: []) }
        let truth = GeoRegistrationSimulator.truth(fromReference: reference.filter { $0.time >= t0 - 1 && $0.time <= t1 + 1 }, window: window)
        return simulator.run(truth: truth)
    }
}
