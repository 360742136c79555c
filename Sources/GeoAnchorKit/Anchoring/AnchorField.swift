import Foundation

/// Bounded-rate drift correction: how fast a changed pose estimate may move the placed anchors.
public struct DriftCorrectionOptions: Sendable, Hashable {
    /// Maximum translation rate of the correction, meters per second (> 0; `.infinity` jumps).
    public var maxTranslationRate: Double
    /// Maximum rotation rate of the heading correction, degrees per second (> 0; `.infinity` jumps).
    public var maxRotationRate: Double
    /// Corrections larger than this (meters) are applied at once (a relocalisation, not drift).
    public var snapDistance: Double

    /// Defaults: 0.5 m/s, 5°/s (below what a walking visitor notices), snap above 50 m.
    public init(maxTranslationRate: Double = 0.5, maxRotationRate: Double = 5, snapDistance: Double = 50) {
        self.maxTranslationRate = maxTranslationRate; self.maxRotationRate = maxRotationRate
        self.snapDistance = snapDistance
    }
}

/// Many anchors re-posed every frame: ECEF precomputed once; per frame one rotation + translation
/// per anchor, written as Float transforms relative to a re-centred origin.
///
/// The AR session frame (axes from ``ARFrameConvention``, tangent at the session origin) is tied
/// to the Earth by the latest pose estimate: the device's geodetic position and true heading, and
/// its position in the session frame from AR tracking. When the estimate changes (a new GNSS fix,
/// a better heading), the correction is not applied in one jump but approached at the bounded
/// rates of ``DriftCorrectionOptions`` by ``advance(by:)``.
///
/// Re-centring: Float spacing at distance r is `r.ulp`; the output origin is moved to the device
/// whenever the device is ``recentreDistance`` (the smallest power of two whose Float ulp exceeds
/// 1 mm: 16 384 m) or more from it, so every coordinate near the device keeps ≤ 1 mm spacing.
/// Positions are computed in Double and rounded to Float only at the end.
///
/// *Speed*: the Anchoring benchmark re-poses 100 000 anchors per call (see README).
public struct AnchorField: Sendable {
    /// Ids of the anchors, in input order (the transform buffer has one entry per anchor).
    public let ids: [String]
    /// Anchors that could not be resolved (index, error); their transforms are all-NaN.
    public private(set) var failures: [GeoAnchorError.BatchFailure]
    public let convention: ARFrameConvention
    public var drift: DriftCorrectionOptions
    public let environment: AnchorEnvironment

    /// The tangent frame of the session origin: the frame's axes.
    public let sessionFrame: LocalTangentFrame
    @usableFromInline let baseRotation: Matrix3          // ECEF → frame axes (no heading correction)

    // Per anchor (structure of arrays): ECEF minus session origin, meters; model rotation·scale in ECEF.
    @usableFromInline var rx: [Double], ry: [Double], rz: [Double]
    @usableFromInline var model: [Double]               // 9 per anchor, row-major, ECEF ← model, × scale
    // Floor-relative anchors: ECEF at h = 0 (minus origin), unit up, offset above the floor.
    let floorAnchors: [(index: Int, base: SIMD3<Double>, up: SIMD3<Double>, offset: Double)]

    // Alignment target and applied state.
    var targetOriginInSession: SIMD3<Double>
    var targetNorthOffset: Double
    public private(set) var appliedOriginInSession: SIMD3<Double>
    public private(set) var appliedNorthOffset: Double
    /// The output origin in session-frame coordinates (Double); transforms are relative to it.
    public private(set) var renderOrigin: SIMD3<Double>
    /// The device's latest position in the session frame (from ``update(pose:devicePositionInSession:nominalHeading:)``).
    public private(set) var devicePositionInSession: SIMD3<Double>
    var floorHeight: Double

    /// Smallest power-of-two distance (meters) at which Float spacing exceeds 1 mm (16 384 m).
    public static let recentreDistance: Double = {
        var d: Float = 1
        while d.ulp <= 0.001 { d *= 2 }
        return Double(d)
    }()

    /// Resolves and precomputes every anchor about a session started at `session` (the device's
    /// pose when the AR session began: origin of the session frame, device at its origin).
    /// - Throws: errors of the session pose; per-anchor errors are collected in ``failures``.
    public init(anchors: [GeoAnchor], environment: AnchorEnvironment = AnchorEnvironment(),
                convention: ARFrameConvention, session: DevicePose,
                drift: DriftCorrectionOptions = DriftCorrectionOptions()) throws(GeoAnchorError) {
        try session.validate()
        let origin = try environment.ellipsoidal(session.position)
        let frame = try LocalTangentFrame(origin: origin, ellipsoid: environment.ellipsoid)
        self.sessionFrame = frame
        self.environment = environment
        self.convention = convention
        self.drift = drift
        self.ids = anchors.map(\.id)
        self.baseRotation = convention.rotationFromENU() * frame.ecefToENU
        let n = anchors.count
        rx = [Double](repeating: .nan, count: n); ry = rx; rz = rx
        model = [Double](repeating: .nan, count: 9 * n)
        var failures: [GeoAnchorError.BatchFailure] = []
        var floors: [(Int, SIMD3<Double>, SIMD3<Double>, Double)] = []
        let floor = origin.height - session.heightAboveFloor
        let o = frame.originECEF
        let ell = environment.ellipsoid
        for (i, a) in anchors.enumerated() {
            do throws(GeoAnchorError) {
                let h = try environment.ellipsoidalHeight(of: a, floorEllipsoidalHeight: floor)
                let af = try LocalTangentFrame(
                    origin: GeodeticCoordinate(latitude: a.latitude, longitude: a.longitude, ellipsoidalHeight: h), ellipsoid: ell)
                let x = af.originECEF
                rx[i] = x.x - o.x; ry[i] = x.y - o.y; rz[i] = x.z - o.z
                let m = (af.ecefToENU.transposed * ARFrameConvention.modelToENU(a.orientation)).array
                for k in 0..<9 { model[9 * i + k] = m[k] * a.scale }
                if case .aboveFloor(let dh) = a.altitude {
                    let b = ell.ecef(latitude: a.latitude, longitude: a.longitude, ellipsoidalHeight: 0)
                    floors.append((i, SIMD3(b.x - o.x, b.y - o.y, b.z - o.z), SIMD3(af.ux, af.uy, af.uz), dh))
                }
            } catch {
                failures.append(.init(index: i, error: error))
            }
        }
        self.failures = failures
        self.floorAnchors = floors
        self.floorHeight = floor
        targetOriginInSession = .zero; appliedOriginInSession = .zero
        targetNorthOffset = 0; appliedNorthOffset = 0
        renderOrigin = .zero; devicePositionInSession = .zero
    }

    /// Number of anchors (including failed ones).
    public var count: Int { ids.count }

    /// Sets a new pose estimate (target of the drift correction).
    /// - Parameters:
    ///   - pose: the device's estimated geodetic position (ellipsoidal or MSL) and true heading.
    ///   - devicePositionInSession: where AR tracking puts the device in the session frame, meters.
    ///   - nominalHeading: the true heading the session frame *believes* the device has (from the
    ///     tracked camera orientation and the frame convention); the difference `pose.heading −
    ///     nominalHeading` is the heading correction. `nil` means no correction (the frame's north
    ///     is trusted).
    /// - Throws: errors of the pose (invalid values, MSL without geoid).
    public mutating func update(pose: DevicePose, devicePositionInSession: SIMD3<Double>,
                                nominalHeading: Double? = nil) throws(GeoAnchorError) {
        try pose.validate()
        let device = try environment.ellipsoidal(pose.position)
        let e = environment.ellipsoid.ecef(latitude: device.latitude, longitude: device.longitude, ellipsoidalHeight: device.height)
        let o = sessionFrame.originECEF
        let offset = nominalHeading.map { Angle.difference(from: $0, to: pose.heading) } ?? 0
        // Session-frame position of the session origin implied by this estimate:
        // p_session(X) = A·(X − E) + D  ⇒  origin at A·(O − E) + D (rotation about the device).
        let a = Matrix3.rotationAboutFrameUp(convention, degrees: offset) * baseRotation
        targetOriginInSession = a.apply(o.x - e.x, o.y - e.y, o.z - e.z) + devicePositionInSession
        targetNorthOffset = offset
        self.devicePositionInSession = devicePositionInSession
        let newFloor = device.height - pose.heightAboveFloor
        if newFloor != floorHeight {
            floorHeight = newFloor
            for f in floorAnchors {
                let p = f.base + f.up * (newFloor + f.offset)
                rx[f.index] = p.x; ry[f.index] = p.y; rz[f.index] = p.z
            }
        }
    }

    /// Moves the applied alignment toward the latest estimate by at most the configured rates
    /// over `dt` seconds, and re-centres the output origin if the device has gone
    /// ``recentreDistance`` from it.
    /// - Returns: `true` when the output origin was re-centred (move the scene root to
    ///   ``renderOrigin``).
    @discardableResult
    public mutating func advance(by dt: Double) -> Bool {
        let dt = Swift.max(0, dt.isFinite ? dt : 0)
        let dAngle = Angle.difference(from: appliedNorthOffset, to: targetNorthOffset)
        let maxAngle = drift.maxRotationRate * dt
        appliedNorthOffset = Swift.abs(dAngle) <= maxAngle ? targetNorthOffset
            : appliedNorthOffset + (dAngle < 0 ? -maxAngle : maxAngle)
        let dp = targetOriginInSession - appliedOriginInSession
        let dist = (dp * dp).sum().squareRoot()
        let maxStep = drift.maxTranslationRate * dt
        if dist <= maxStep || dist > drift.snapDistance {
            appliedOriginInSession = targetOriginInSession
        } else {
            appliedOriginInSession += dp * (maxStep / dist)
        }
        let fromOrigin = devicePositionInSession - renderOrigin
        if (fromOrigin * fromOrigin).sum().squareRoot() >= Self.recentreDistance {
            renderOrigin = devicePositionInSession
            return true
        }
        return false
    }

    /// Applies the latest estimate at once (no smoothing).
    public mutating func snapToEstimate() {
        appliedOriginInSession = targetOriginInSession
        appliedNorthOffset = targetNorthOffset
    }

    /// The applied ECEF → frame rotation and the translation `t` such that a point's output
    /// position is `R·(X − O) + t` (O = session origin ECEF).
    @inlinable
    var currentTransform: (rotation: Matrix3, translation: SIMD3<Double>) {
        (Matrix3.rotationAboutFrameUp(convention, degrees: appliedNorthOffset) * baseRotation,
         appliedOriginInSession - renderOrigin)
    }

    /// Writes every anchor's model transform (Float, relative to ``renderOrigin``) into `out`.
    /// Failed anchors get NaN. Allocates nothing.
    /// - Precondition: `out.count == count`.
    @inlinable
    public func repose(into out: UnsafeMutableBufferPointer<Float4x4>) {
        precondition(out.count == ids.count, "output buffer must hold one transform per anchor")
        let (r, t) = currentTransform
        let (a0, a1, a2, a3, a4, a5, a6, a7, a8) = r.m
        rx.withUnsafeBufferPointer { px in ry.withUnsafeBufferPointer { py in rz.withUnsafeBufferPointer { pz in
            model.withUnsafeBufferPointer { pm in
                for i in 0..<out.count {
                    let x = px[i], y = py[i], z = pz[i]
                    let tx = a0 * x + a1 * y + a2 * z + t.x
                    let ty = a3 * x + a4 * y + a5 * z + t.y
                    let tz = a6 * x + a7 * y + a8 * z + t.z
                    let b = 9 * i
                    let m0 = pm[b], m1 = pm[b + 1], m2 = pm[b + 2], m3 = pm[b + 3], m4 = pm[b + 4]
                    let m5 = pm[b + 5], m6 = pm[b + 6], m7 = pm[b + 7], m8 = pm[b + 8]
                    // Columns of R·M.
                    out[i] = Float4x4(
                        SIMD4(Float(a0 * m0 + a1 * m3 + a2 * m6), Float(a3 * m0 + a4 * m3 + a5 * m6), Float(a6 * m0 + a7 * m3 + a8 * m6), 0),
                        SIMD4(Float(a0 * m1 + a1 * m4 + a2 * m7), Float(a3 * m1 + a4 * m4 + a5 * m7), Float(a6 * m1 + a7 * m4 + a8 * m7), 0),
                        SIMD4(Float(a0 * m2 + a1 * m5 + a2 * m8), Float(a3 * m2 + a4 * m5 + a5 * m8), Float(a6 * m2 + a7 * m5 + a8 * m8), 0),
                        SIMD4(Float(tx), Float(ty), Float(tz), 1))
                }
            }
        } } }
    }

    /// Array convenience for ``repose(into:)``.
    public func reposed() -> [Float4x4] {
        [Float4x4](unsafeUninitializedCapacity: count) { buf, n in
            repose(into: buf)
            n = count
        }
    }

    /// One anchor's orientation in the frame as a unit quaternion (x, y, z, w), scale removed.
    public func orientation(at index: Int) -> FloatQuaternion {
        let r = currentTransform.rotation
        let b = 9 * index
        var m = Matrix3(model[b], model[b + 1], model[b + 2], model[b + 3], model[b + 4], model[b + 5],
                        model[b + 6], model[b + 7], model[b + 8])
        let s = (model[b] * model[b] + model[b + 3] * model[b + 3] + model[b + 6] * model[b + 6]).squareRoot()
        m = Matrix3(m.m.0 / s, m.m.1 / s, m.m.2 / s, m.m.3 / s, m.m.4 / s, m.m.5 / s, m.m.6 / s, m.m.7 / s, m.m.8 / s)
        let q = (r * m).quaternion
        return FloatQuaternion(vector: SIMD4(Float(q.x), Float(q.y), Float(q.z), Float(q.w)))
    }
}

extension Matrix3 {
    /// Rotation of frame coordinates about the frame's up axis, equivalent to turning the frame's
    /// north by `degrees` (see ``ARFrameConvention/rotationFromENU(northOffset:)``).
    @usableFromInline
    static func rotationAboutFrameUp(_ c: ARFrameConvention, degrees: Double) -> Matrix3 {
        if degrees == 0 { return .identity }
        let f = c.rotationFromENU()
        return c.rotationFromENU(northOffset: degrees) * f.transposed
    }
}
