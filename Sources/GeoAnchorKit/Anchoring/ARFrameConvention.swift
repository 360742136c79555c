import Foundation

/// The axis conventions of the frames anchors are placed in. **Every** conversion between
/// East-North-Up and an AR frame in GeoAnchorKit goes through this type.
///
/// | case | x | y | z |
/// |---|---|---|---|
/// | ``enu`` | east | north | up |
/// | ``arkitGravityAndHeading`` | east | up | south |
/// | ``arkitGravity(sessionHeading:)`` | right of the start view | up | backwards from the start view |
/// | ``arcoreEarth`` | east | up | south (ARCore Geospatial "EUS") |
///
/// For ``arkitGravity(sessionHeading:)`` the session's −z axis pointed along the true heading
/// `sessionHeading` (degrees clockwise from north) when the session started; with heading 0 it
/// coincides with ``arkitGravityAndHeading``. All frames are right-handed.
///
/// The frames' axes are those of the local tangent plane at the frame's origin (the session's
/// start point), exactly: a point far away keeps its true 3-D position, so it sinks below the
/// origin's horizontal plane with Earth curvature (≈ 7.8 m at 10 km).
public enum ARFrameConvention: Sendable, Hashable {
    /// East, north, up.
    case enu
    /// ARKit `.gravityAndHeading`: x east, y up, z south.
    case arkitGravityAndHeading
    /// ARKit `.gravity`: y up; −z along the true heading (degrees) the device faced at session start.
    case arkitGravity(sessionHeading: Double)
    /// ARCore Earth / Geospatial poses: East-Up-South.
    case arcoreEarth

    /// Rotation ENU → this frame's axes, when the frame's nominal north is actually at true
    /// azimuth `northOffset` degrees (a heading correction; 0 for a perfectly aligned frame).
    @usableFromInline
    func rotationFromENU(northOffset: Double = 0) -> Matrix3 {
        switch self {
        case .enu:
            return Matrix3.rotationAboutZ(degrees: northOffset)
        case .arkitGravityAndHeading, .arcoreEarth:
            return Self.eusFromENU * Matrix3.rotationAboutZ(degrees: northOffset)
        case .arkitGravity(let heading):
            // A frame whose −z points along azimuth ψ is the EUS frame turned clockwise by ψ.
            return Self.eusFromENU * Matrix3.rotationAboutZ(degrees: heading + northOffset)
        }
    }

    /// Rows: x = east, y = up, z = south.
    @usableFromInline
    static let eusFromENU = Matrix3(1, 0, 0, 0, 0, 1, 0, -1, 0)

    /// Converts an ENU vector (meters) to this frame's axes.
    @inlinable
    public func vector(fromENU v: ENUVector) -> SIMD3<Double> {
        rotationFromENU().apply(v.east, v.north, v.up)
    }

    /// Converts a vector in this frame's axes (meters) back to ENU.
    @inlinable
    public func enu(fromFrame p: SIMD3<Double>) -> ENUVector {
        let v = rotationFromENU().transposed.apply(p)
        return ENUVector(east: v.x, north: v.y, up: v.z)
    }

    /// Index (0, 1, 2) of this frame's up axis.
    public var upAxis: Int { self == .enu ? 2 : 1 }

    /// Rotation model → ENU at the anchor: the model's axes (+x right, +y up, −z forward) are
    /// east, up, south at zero orientation, then yaw (clockwise from north), pitch (nose up)
    /// and roll (right side down) are applied intrinsically.
    @usableFromInline
    static func modelToENU(_ o: AnchorOrientation) -> Matrix3 {
        // Model axes in EUS: yaw clockwise seen from above = rotation by −yaw about +y (up);
        // pitch = +rotation about +x; roll (right side down) = −rotation about +z.
        let inEUS = Matrix3.rotationAboutY(degrees: -o.yaw) * Matrix3.rotationAboutX(degrees: o.pitch)
            * Matrix3.rotationAboutZ(degrees: -o.roll)
        return eusFromENU.transposed * inEUS
    }
}

extension LocalTangentFrame {
    /// ECEF → ENU rotation of this frame (rows east, north, up).
    @usableFromInline
    var ecefToENU: Matrix3 { Matrix3(ex, ey, 0, nx, ny, nz, ux, uy, uz) }
}
