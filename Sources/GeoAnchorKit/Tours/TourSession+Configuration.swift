import Foundation

extension TourSession {
    /// Everything tunable about a running tour. Defaults suit walking with phone GPS.
    public struct Configuration: Sendable, Hashable, Codable {
        /// Stop and zone hysteresis.
        public var geofence: GeofenceConfiguration
        /// `off_route` when P(distance from path > this) ≥ ``corridor``'s enter probability, meters,
        /// in ``routeDistanceRange`` (0, 100 km]. Default 30 m.
        public var offRouteDistance: Double
        /// `on_route` again when P(distance from path > this) ≤ ``corridor``'s exit probability,
        /// meters, in (0, ``offRouteDistance``]. Default 20 m.
        public var onRouteDistance: Double
        /// Probabilities and confirmation times of the corridor (its `exitMargin` and
        /// `minimumDwell` are not used). Default: 0.7 / 0.3, 5 s to go off route, 3 s back.
        public var corridor: GeofenceConfiguration
        /// Walking speed for ETAs, m/s, in ``walkingSpeedRange`` (0, 100]. Default 1.3 m/s (a
        /// leisurely sightseeing pace; the `Routing` walk estimate can supply a better one). A
        /// tour by bike or car sets its own speed (the position filter has cycling and driving
        /// presets).
        public var walkingSpeed: Double
        /// 68 % accuracy (m) assumed for fixes that carry none, in ``uncertaintyRange``
        /// (0, 100 km]. Default 10 m.
        public var defaultHorizontalAccuracy: Double
        /// Lower bound of σ (m): receivers overstate precision. In ``uncertaintyRange``
        /// (0, 100 km]. Default 0.5 m.
        public var minimumSigma: Double
        /// After this many consecutive fixes refused as going backwards, each at or after the one
        /// before it, the session concludes that its own time was wrong (a fix from the future, a
        /// receiver clock reset) and continues from the last of them (counted in
        /// ``TourSession/Statistics/clockResets``; the ones before stay refused). In
        /// [0, ``maximumClockResetFixCount``]; 0 disables (one fix 1e6 s ahead then made the
        /// session refuse the rest of a walk). Default 5.
        public var clockResetFixCount: Int

        public init(geofence: GeofenceConfiguration = GeofenceConfiguration(), offRouteDistance: Double = 30,
                    onRouteDistance: Double = 20,
                    corridor: GeofenceConfiguration = GeofenceConfiguration(enterProbability: 0.7, exitProbability: 0.3, exitMargin: 0,
                                                                      enterConfirmation: 5, exitConfirmation: 3, minimumDwell: 0),
                    walkingSpeed: Double = 1.3, defaultHorizontalAccuracy: Double = 10, minimumSigma: Double = 0.5,
                    clockResetFixCount: Int = 5) {
            self.geofence = geofence; self.offRouteDistance = offRouteDistance; self.onRouteDistance = onRouteDistance
            self.corridor = corridor; self.walkingSpeed = walkingSpeed
            self.defaultHorizontalAccuracy = defaultHorizontalAccuracy; self.minimumSigma = minimumSigma
            self.clockResetFixCount = clockResetFixCount
        }

        enum CodingKeys: String, CodingKey {
            case geofence, offRouteDistance, onRouteDistance, corridor, walkingSpeed, defaultHorizontalAccuracy, minimumSigma
            case clockResetFixCount
        }

        /// Decodes a configuration; `clockResetFixCount` may be missing (configurations saved
        /// before it existed), then 5. The ranges are not checked here but by ``validate()``,
        /// which ``TourSession/init(tour:configuration:resuming:)`` calls: a decoded value out of
        /// range is the same ``TourError/invalidParameter(name:value:allowed:)`` as one set in code.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            self.init(geofence: try c.decode(GeofenceConfiguration.self, forKey: .geofence),
                      offRouteDistance: try c.decode(Double.self, forKey: .offRouteDistance),
                      onRouteDistance: try c.decode(Double.self, forKey: .onRouteDistance),
                      corridor: try c.decode(GeofenceConfiguration.self, forKey: .corridor),
                      walkingSpeed: try c.decode(Double.self, forKey: .walkingSpeed),
                      defaultHorizontalAccuracy: try c.decode(Double.self, forKey: .defaultHorizontalAccuracy),
                      minimumSigma: try c.decode(Double.self, forKey: .minimumSigma),
                      clockResetFixCount: try c.decodeIfPresent(Int.self, forKey: .clockResetFixCount) ?? 5)
        }

        /// The values ``defaultHorizontalAccuracy`` and ``minimumSigma`` accept: (0, 100 km] m, up
        /// to ``Fix/maximumUsableHorizontalAccuracy``, the accuracy beyond which the session
        /// refuses a fix as saying nothing about a walk. A default or a floor beyond it would give
        /// every fix an uncertainty the session refuses from any receiver: with σ = 1e308 m (accepted
        /// before this bound) P(inside) = Φ(d/σ) rounds to ½ for every zone, so every zone was
        /// "entered" from anywhere at the default ½ threshold. With σ ≤ 100 km, Φ(d/σ) tells a
        /// point 1 µm outside a zone from one inside (|d/σ| ≥ 1e-11, far above the 1e-16 at which
        /// ½ + d/(σ√(2π)) rounds to ½).
        public static let uncertaintyRange = ValueRange(lower: .exclusive(0), upper: .inclusive(Fix.maximumUsableHorizontalAccuracy), unit: "m")

        /// The distances ``offRouteDistance`` accepts (and so bounds ``onRouteDistance``): (0, 100 km]
        /// m, the scale of a whole tour (``TourSession/maximumStopDistance``,
        /// ``PathNetwork/maximumExtent``). A corridor wider than the tour never reports `off_route`:
        /// before this bound, 1e308 m was accepted and a visitor any distance from the path stayed
        /// on route.
        public static let routeDistanceRange = ValueRange(lower: .exclusive(0), upper: .inclusive(100_000), unit: "m")

        /// Fastest ``walkingSpeed``, m/s: 100 m/s (360 km/h). Generous on purpose, since the ETA
        /// speed may be a cyclist's or a car's: above any road vehicle's legal speed and the
        /// 83 m/s (300 km/h) service speed of high-speed trains. Beyond it an ETA says nothing:
        /// before this bound, 1e308 m/s was accepted and every ETA was ≈ 1e-305 s ("arrived").
        public static let maximumWalkingSpeed = 100.0

        /// The speeds ``walkingSpeed`` accepts: (0, ``maximumWalkingSpeed``] m/s.
        public static let walkingSpeedRange = ValueRange(lower: .exclusive(0), upper: .inclusive(maximumWalkingSpeed), unit: "m/s")

        /// Largest ``clockResetFixCount``: 86,400, a day of fixes at 1 Hz. A longer streak of fixes
        /// going back in time is never seen on a walk, so a larger count only means "never", which
        /// 0 says explicitly (before this bound, `Int.max` was accepted). The same setting and bound
        /// as the position filter's (``PositionFilter/Configuration/maximumCount``).
        public static let maximumClockResetFixCount = PositionFilter.Configuration.maximumCount

        /// Checks ``geofence`` and ``corridor`` (``GeofenceConfiguration/validate()``, names
        /// prefixed `geofence.` and `corridor.`), then every other setting against its
        /// documented range (each value finite).
        /// - Throws: ``TourError/invalidParameter(name:value:allowed:)`` naming the value and
        ///   its range.
        public func validate() throws(TourError) {
            try geofence.validate(prefix: "geofence.")
            try corridor.validate(prefix: "corridor.")
            guard offRouteDistance.isFinite, Self.routeDistanceRange.contains(offRouteDistance) else {
                throw .invalidParameter(name: "offRouteDistance", value: offRouteDistance, allowed: Self.routeDistanceRange)
            }
            guard onRouteDistance > 0, onRouteDistance <= offRouteDistance else {
                throw .invalidParameter(name: "onRouteDistance", value: onRouteDistance, allowed: ValueRange(lower: .exclusive(0), upper: .inclusive(offRouteDistance), unit: "m"))
            }
            guard walkingSpeed.isFinite, Self.walkingSpeedRange.contains(walkingSpeed) else {
                throw .invalidParameter(name: "walkingSpeed", value: walkingSpeed, allowed: Self.walkingSpeedRange)
            }
            for (n, v) in [("defaultHorizontalAccuracy", defaultHorizontalAccuracy), ("minimumSigma", minimumSigma)] {
                guard v.isFinite, Self.uncertaintyRange.contains(v) else { throw .invalidParameter(name: n, value: v, allowed: Self.uncertaintyRange) }
            }
            guard clockResetFixCount >= 0, clockResetFixCount <= Self.maximumClockResetFixCount else {
                throw .invalidParameter(name: "clockResetFixCount", value: Double(clockResetFixCount),
                                        allowed: .closed(0, Double(Self.maximumClockResetFixCount)))
            }
        }
    }
}

/// What a ``TourSession`` needs of its zones: per zone, the signed distance from a position to
/// the zone's boundary. The core's ``PlanarTourZones`` is the default; GeoAnchorKitGEOS's
/// `TourZones` is the GEOS-backed one (same events, plus buffers, overlays and hulls).
public protocol TourZoneEvaluator {
    /// For each zone of the tour (same order as ``Tour/zones``), the signed distance in meters
    /// from `point` (local frame of ``TourSession/frame``) to the zone's boundary: positive
    /// inside, negative outside. `result` has `tour.zones.count` elements on entry.
    func signedDistances(at point: PlanarPoint, into result: inout [Double]) throws
}
