import Foundation

/// One anchor placed relative to the device.
public struct AnchorPlacement: Sendable, Hashable {
    /// The anchor's index in the input and its id.
    public var index: Int
    public var id: String
    /// The anchor point relative to the device in East-North-Up about the device, meters
    /// (exact 3-D: far anchors have negative `up` from Earth curvature).
    public var enu: ENUVector
    /// The anchor point relative to the device in the placer's frame convention, meters (Double).
    public var position: SIMD3<Double>
    /// Model transform in the frame, relative to the device position (the re-centred origin of
    /// a one-shot placement), Float: rotation·scale columns and translation.
    public var transform: Float4x4
    /// The model's orientation in the frame as a unit quaternion (x, y, z, w).
    public var orientation: FloatQuaternion
    /// Slant (straight-line) distance from the device, meters.
    public var distance: Double
    /// Horizontal distance in the device's tangent plane, meters.
    public var horizontalDistance: Double
    /// Direction from the device, degrees clockwise from true north, [0, 360).
    public var bearing: Double
    /// Elevation angle above the device's horizontal plane, degrees.
    public var elevation: Double
    /// Expected placement error.
    public var uncertainty: AnchorUncertainty
    /// Range, horizon and field-of-view tests.
    public var visibility: AnchorVisibility
    /// Loading priority score, lower loads first: slant distance + errorWeight × error (m).
    public var loadingScore: Double
}

/// Places anchors relative to a device pose estimate, in Double, with per-anchor errors.
///
/// One-shot: each call resolves heights (geoid, terrain, floor), converts to the device's local
/// tangent frame with ``LocalTangentFrame`` (exact 3-D) and to the frame convention, and
/// evaluates uncertainty and visibility. For re-posing many anchors every frame use
/// ``AnchorField``.
///
/// *Accuracy*: positions agree with PROJ's `vgridshift` + `cart` + `topocentric` pipeline to
/// ≤ 1 mm within 10 km (AnchorPlacerPROJTests; measured ≤ 1e-6 m with EGM96).
public struct AnchorPlacer: Sendable {
    public var environment: AnchorEnvironment
    public var convention: ARFrameConvention
    public var configuration: PlacementConfiguration

    public init(environment: AnchorEnvironment = AnchorEnvironment(), convention: ARFrameConvention = .enu,
                configuration: PlacementConfiguration = PlacementConfiguration()) {
        self.environment = environment; self.convention = convention; self.configuration = configuration
    }

    /// Places every anchor; each result is the placement or that anchor's error (the others are
    /// still placed).
    /// - Throws: an invalid ``configuration`` (``PlacementConfiguration/validate()``), checked
    ///   first; errors of the device pose itself (invalid values, MSL without a geoid).
    public func place(_ anchors: [GeoAnchor], from pose: DevicePose) throws(GeoAnchorError) -> [Result<AnchorPlacement, GeoAnchorError>] {
        try configuration.validate()
        try pose.validate()
        let device = try environment.ellipsoidal(pose.position)
        let frame = try LocalTangentFrame(origin: device, ellipsoid: environment.ellipsoid)
        let floor = device.height - pose.heightAboveFloor
        let toFrame = convention.rotationFromENU()
        let ecefToFrame = toFrame * frame.ecefToENU
        let radius = (environment.ellipsoid.meridionalRadius(latitude: device.latitude)
                      * environment.ellipsoid.primeVerticalRadius(latitude: device.latitude)).squareRoot()
        return anchors.enumerated().map { (i, a) -> Result<AnchorPlacement, GeoAnchorError> in
            do throws(GeoAnchorError) {
                let h = try environment.ellipsoidalHeight(of: a, floorEllipsoidalHeight: floor)
                let x = environment.ellipsoid.ecef(latitude: a.latitude, longitude: a.longitude, ellipsoidalHeight: h)
                let v = frame.enu(fromECEF: x)
                let p = toFrame.apply(v.east, v.north, v.up)
                let anchorFrame = try LocalTangentFrame(
                    origin: GeodeticCoordinate(latitude: a.latitude, longitude: a.longitude, ellipsoidalHeight: h),
                    ellipsoid: environment.ellipsoid)
                let rot = ecefToFrame * anchorFrame.ecefToENU.transposed * ARFrameConvention.modelToENU(a.orientation)
                return .success(makePlacement(index: i, anchor: a, enu: v, position: p, rotation: rot,
                                              pose: pose, heightAboveDevice: h - device.height, earthRadius: radius))
            } catch {
                return .failure(error)
            }
        }
    }

    func makePlacement(index: Int, anchor a: GeoAnchor, enu v: ENUVector, position p: SIMD3<Double>,
                       rotation rot: Matrix3, pose: DevicePose, heightAboveDevice: Double,
                       earthRadius: Double) -> AnchorPlacement {
        let dh = v.horizontalDistance, d = v.length
        let unc = AnchorUncertainty(
            horizontalDistance: dh, slantDistance: d,
            positionSigma: (pose.horizontalAccuracy * pose.horizontalAccuracy + a.horizontalAccuracy * a.horizontalAccuracy).squareRoot(),
            // A floor-relative anchor's height does not depend on the device's height estimate:
            // only the anchor's own vertical accuracy counts.
            verticalSigma: a.altitude.isFloorRelative ? a.verticalAccuracy
                : (pose.verticalAccuracy * pose.verticalAccuracy + a.verticalAccuracy * a.verticalAccuracy).squareRoot(),
            headingSigma: pose.headingAccuracy)
        let bearing = v.bearing
        let halfFOV = configuration.horizontalFieldOfView / 2
        let angularRadius = dh > 0 ? Foundation.asin(Swift.min(1, a.boundingRadius * a.scale / dh)) * Angle.degreesPerRadian : 180
        let inFOV = configuration.horizontalFieldOfView >= 360
            || Swift.abs(Angle.difference(from: pose.heading, to: bearing)) <= halfFOV + angularRadius
        let vis = AnchorVisibility(
            inRange: d <= configuration.maxRange,
            aboveHorizon: AnchorVisibility.isAboveHorizon(enu: v, heightAboveFloor: pose.heightAboveFloor,
                                                          anchorHeightAboveDevice: heightAboveDevice,
                                                          topOffset: a.boundingRadius * a.scale, earthRadius: earthRadius),
            inFieldOfView: inFOV)
        let s = a.scale
        let (r0, r1, r2, r3, r4, r5, r6, r7, r8) = rot.m
        let transform = Float4x4(SIMD4(Float(r0 * s), Float(r3 * s), Float(r6 * s), 0),
                                 SIMD4(Float(r1 * s), Float(r4 * s), Float(r7 * s), 0),
                                 SIMD4(Float(r2 * s), Float(r5 * s), Float(r8 * s), 0),
                                 SIMD4(Float(p.x), Float(p.y), Float(p.z), 1))
        let q = rot.quaternion
        return AnchorPlacement(
            index: index, id: a.id, enu: v, position: p, transform: transform,
            orientation: FloatQuaternion(vector: SIMD4(Float(q.x), Float(q.y), Float(q.z), Float(q.w))),
            distance: d, horizontalDistance: dh, bearing: bearing,
            elevation: Angle.atan2Degrees(v.up, dh), uncertainty: unc, visibility: vis,
            loadingScore: d + configuration.errorWeight * unc.meters)
    }

    /// Indices of successful placements in loading order: visible first, then in-range, then by
    /// ascending ``AnchorPlacement/loadingScore`` (nearest and most certain first); culled
    /// (out-of-range) anchors are left out.
    public static func loadingOrder(_ results: [Result<AnchorPlacement, GeoAnchorError>]) -> [Int] {
        let placed = results.compactMap { try? $0.get() }.filter { $0.visibility.inRange }
        return placed.sorted { a, b in
            if a.visibility.isVisible != b.visibility.isVisible { return a.visibility.isVisible }
            if a.loadingScore != b.loadingScore { return a.loadingScore < b.loadingScore }
            return a.index < b.index
        }.map(\.index)
    }
}

extension AnchorPlacer {
    /// Places every anchor from a ``GeoRegistration`` estimate: its position, heading and their
    /// uncertainties (the estimated heading σ, not the raw compass accuracy, enters
    /// ``AnchorUncertainty``; see ``GeoRegistrationEstimate/devicePose``).
    public func place(_ anchors: [GeoAnchor], registration e: GeoRegistrationEstimate) throws(GeoAnchorError) -> [Result<AnchorPlacement, GeoAnchorError>] {
        try place(anchors, from: e.devicePose)
    }
}
