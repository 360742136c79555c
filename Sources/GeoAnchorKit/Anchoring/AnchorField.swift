import Foundation

/// Bounded-rate drift correction: how fast a changed pose estimate may move the placed anchors.
public struct DriftCorrectionConfiguration: Sendable, Hashable {
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

    /// The values ``maxTranslationRate`` accepts: (0, ∞] m/s — `.infinity` jumps.
    public static let translationRateRange = ValueRange(lower: .exclusive(0), upper: .unbounded, unit: "m/s")
    /// The values ``maxRotationRate`` accepts: (0, ∞] °/s — `.infinity` jumps.
    public static let rotationRateRange = ValueRange(lower: .exclusive(0), upper: .unbounded, unit: "degrees/s")
    /// The values ``snapDistance`` accepts: [0, ∞) m, finite. 0 applies every correction at once;
    /// any finite distance works (it is only compared with the correction's length).
    public static let snapDistanceRange = ValueRange.atLeast(0, unit: "m")

    /// Checks every value: ``maxTranslationRate`` and ``maxRotationRate`` > 0 or `.infinity`
    /// (``translationRateRange``, ``rotationRateRange``; NaN, 0 and negative rates are refused: a
    /// NaN rate made every anchor transform NaN at the next ``AnchorField/advance(by:)``),
    /// ``snapDistance`` finite and ≥ 0 (``snapDistanceRange``).
    /// ``AnchorField/init(anchors:environment:convention:session:drift:)`` and
    /// ``AnchorField/update(pose:devicePositionInSession:nominalHeading:)`` throw this error;
    /// ``AnchorField/advance(by:)``, which cannot throw, stops on it as a programmer error — validate a
    /// ``AnchorField/drift`` that comes from outside before setting it.
    /// - Throws: ``GeoAnchorError/nonFinite(name:value:)`` or
    ///   ``GeoAnchorError/outOfRange(name:value:allowed:)`` naming the first bad value.
    public func validate() throws(GeoAnchorError) {
        if maxTranslationRate != .infinity { try Self.translationRateRange.check(maxTranslationRate, name: "maxTranslationRate") }
        if maxRotationRate != .infinity { try Self.rotationRateRange.check(maxRotationRate, name: "maxRotationRate") }
        try Self.snapDistanceRange.check(snapDistance, name: "snapDistance")
    }
}

/// Many anchors re-posed every frame: ECEF precomputed once; per frame one rotation + translation
/// per anchor, written as Float transforms relative to a re-centred origin.
///
/// The AR session frame (axes from ``ARFrameConvention``, tangent at the session origin) is tied
/// to the Earth by the latest pose estimate: the device's geodetic position and true heading, and
/// its position in the session frame from AR tracking. When the estimate changes (a new GNSS fix,
/// a better heading), the correction is not applied in one jump but approached at the bounded
/// rates of ``DriftCorrectionConfiguration`` by ``advance(by:)``.
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
    public var drift: DriftCorrectionConfiguration
    public let environment: AnchorEnvironment

    /// The tangent frame of the session origin: the frame's axes.
    public let sessionFrame: LocalTangentFrame
    @usableFromInline let baseRotation: Matrix3          // ECEF → frame axes (no heading correction)

    // Per anchor: position in the session frame's axes relative to the session origin (Double,
    // meters) and the model's rotation·scale columns in the session frame's axes (Float, w = 0).
    @usableFromInline var px: [Double], py: [Double], pz: [Double]
    @usableFromInline var columns: [SIMD4<Float>]       // 3 per anchor
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
    /// - Throws: an invalid `drift` (``DriftCorrectionConfiguration/validate()``), checked first;
    ///   errors of the session pose; per-anchor errors are collected in ``failures``.
    public init(anchors: [GeoAnchor], environment: AnchorEnvironment = AnchorEnvironment(),
                convention: ARFrameConvention, session: DevicePose,
                drift: DriftCorrectionConfiguration = DriftCorrectionConfiguration()) throws(GeoAnchorError) {
        try drift.validate()
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
        let base = convention.rotationFromENU() * frame.ecefToENU
        px = [Double](repeating: .nan, count: n); py = px; pz = px
        columns = [SIMD4<Float>](repeating: SIMD4(repeating: .nan), count: 3 * n)
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
                let p = base.apply(x.x - o.x, x.y - o.y, x.z - o.z)
                px[i] = p.x; py[i] = p.y; pz[i] = p.z
                let m = (base * af.ecefToENU.transposed * ARFrameConvention.modelToENU(a.orientation)).array
                let s = a.scale
                for c in 0..<3 {
                    columns[3 * i + c] = SIMD4(Float(m[c] * s), Float(m[3 + c] * s), Float(m[6 + c] * s), 0)
                }
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
    /// - Throws: an invalid ``drift`` (``DriftCorrectionConfiguration/validate()``), checked
    ///   first; errors of the pose (invalid values, MSL without geoid).
    public mutating func update(pose: DevicePose, devicePositionInSession: SIMD3<Double>,
                                nominalHeading: Double? = nil) throws(GeoAnchorError) {
        try drift.validate()
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
                let x = f.base + f.up * (newFloor + f.offset)
                let p = baseRotation.apply(x)
                px[f.index] = p.x; py[f.index] = p.y; pz[f.index] = p.z
            }
        }
    }

    /// Moves the applied alignment toward the latest estimate by at most the configured rates
    /// over `dt` seconds, and re-centres the output origin if the device has gone
    /// ``recentreDistance`` from it.
    /// - Returns: `true` when the output origin was re-centred (move the scene root to
    ///   ``renderOrigin``).
    ///
    /// Precondition: ``drift`` passes ``DriftCorrectionConfiguration/validate()`` (a programmer
    /// error otherwise: validate a configuration that comes from outside before setting it).
    @discardableResult
    public mutating func advance(by dt: Double) -> Bool {
        requireValid("DriftCorrectionConfiguration") { () throws(GeoAnchorError) in try drift.validate() }
        let dt = Swift.max(0, dt.isFinite ? dt : 0)
        let dAngle = Angle.difference(from: appliedNorthOffset, to: targetNorthOffset)
        // An infinite rate jumps whatever the interval (∞ · 0 would be NaN at dt = 0).
        let maxAngle = drift.maxRotationRate == .infinity ? .infinity : drift.maxRotationRate * dt
        appliedNorthOffset = Swift.abs(dAngle) <= maxAngle ? targetNorthOffset
            : appliedNorthOffset + (dAngle < 0 ? -maxAngle : maxAngle)
        let dp = targetOriginInSession - appliedOriginInSession
        let dist = (dp * dp).sum().squareRoot()
        let maxStep = drift.maxTranslationRate == .infinity ? .infinity : drift.maxTranslationRate * dt
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

    /// The applied heading-correction rotation (session-frame axes) and the translation `t` such
    /// that an anchor's output position is `R·P + t` (P = its precomputed session-frame position).
    @inlinable
    var currentTransform: (rotation: Matrix3, translation: SIMD3<Double>) {
        (Matrix3.rotationAboutFrameUp(convention, degrees: appliedNorthOffset), appliedOriginInSession - renderOrigin)
    }

    /// Writes every anchor's model transform (Float, relative to ``renderOrigin``) into `out`.
    /// Failed anchors get NaN. Allocates nothing; per anchor one 3×3 rotation and translation of
    /// the precomputed Double position and a Float rotation of the three model columns.
    /// - Precondition: `out.count == count`.
    @inlinable
    public func repose(into out: UnsafeMutableBufferPointer<Float4x4>) {
        precondition(out.count == ids.count, "output buffer must hold one transform per anchor")
        let (r, t) = currentTransform
        let (a0, a1, a2, a3, a4, a5, a6, a7, a8) = r.m
        // The same rotation in Float for the model columns (rotation entries need no Double).
        let k0 = SIMD4<Float>(Float(a0), Float(a3), Float(a6), 0)
        let k1 = SIMD4<Float>(Float(a1), Float(a4), Float(a7), 0)
        let k2 = SIMD4<Float>(Float(a2), Float(a5), Float(a8), 0)
        let w = SIMD4<Float>(0, 0, 0, 1)
        px.withUnsafeBufferPointer { qx in py.withUnsafeBufferPointer { qy in pz.withUnsafeBufferPointer { qz in
            columns.withUnsafeBufferPointer { cols in
                guard let o = out.baseAddress, let c = cols.baseAddress,
                      let x = qx.baseAddress, let y = qy.baseAddress, let z = qz.baseAddress else { return }
                for i in 0..<out.count {
                    let pxi = x[i], pyi = y[i], pzi = z[i]
                    let tx = a0 * pxi + a1 * pyi + a2 * pzi + t.x
                    let ty = a3 * pxi + a4 * pyi + a5 * pzi + t.y
                    let tz = a6 * pxi + a7 * pyi + a8 * pzi + t.z
                    let c0 = c[3 * i], c1 = c[3 * i + 1], c2 = c[3 * i + 2]
                    o[i] = Float4x4(k0 * c0.x + k1 * c0.y + k2 * c0.z,
                                    k0 * c1.x + k1 * c1.y + k2 * c1.z,
                                    k0 * c2.x + k1 * c2.y + k2 * c2.z,
                                    SIMD4<Float>(Float(tx), Float(ty), Float(tz), 0) + w)
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
        let c = (0..<3).map { k in
            let v = columns[3 * index + k]
            return SIMD3<Double>(Double(v.x), Double(v.y), Double(v.z))
        }
        let s = (c[0] * c[0]).sum().squareRoot()
        let q = (r * Matrix3(columns: c[0] / s, c[1] / s, c[2] / s)).quaternion
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

extension AnchorField {
    /// Sets the target alignment from a ``GeoRegistration`` estimate: the device pose with its
    /// uncertainties, its tracked session position, and the heading correction `frameHeading −`
    /// the convention's nominal session heading (the ``ARFrameConvention/arkitGravity(sessionHeading:)``
    /// value, 0 for north-aligned frames). The estimate is already smoothed; the field's own
    /// ``DriftCorrectionConfiguration`` still bound the rates.
    public mutating func update(registration e: GeoRegistrationEstimate) throws(GeoAnchorError) {
        let nominal: Double
        if case .arkitGravity(let h) = convention { nominal = h } else { nominal = 0 }
        try update(pose: e.devicePose, devicePositionInSession: e.devicePositionInSession,
                   nominalHeading: Angle.normalizeHeading(e.yaw + nominal))
    }
}
