import Foundation
import GeoAnchorKit

/// A deterministic simulator of a strapdown magnetometer + accelerometer with known hard iron,
/// soft iron and noise — ground truth for testing calibrations and headings.
///
/// World frame: East-North-Up. An orientation R maps body vectors to world vectors; a sensor
/// at rest measures `raw = S · Rᵀ B + offset + noise` (B the world field, S the soft-iron
/// distortion) and the accelerometer `Rᵀ (0, 0, g) + noise` (specific force, pointing up).
/// Randomness comes from a seeded ``SplitMix64`` generator with Box–Muller normals, so a seed
/// reproduces the stream exactly on every platform.
public struct MagnetometerSimulator: Sendable {
    /// Earth field in world ENU axes, µT (e.g. from ``MagneticField``: east, north, −down, / 1000).
    public var field: SIMD3<Double>
    /// Hard-iron offset, µT.
    public var hardIron: SIMD3<Double>
    /// Soft-iron distortion S (symmetric positive definite): raw = S·b + offset.
    public var softIron: SymmetricMatrix3
    /// Magnetometer noise, 1σ per axis, µT.
    public var noise: Double
    /// Gravity magnitude, m/s².
    public var gravity: Double = 9.80665
    /// Accelerometer noise, 1σ per axis, m/s².
    public var accelerometerNoise: Double
    private var rng: SplitMix64
    private var spareNormal: Double?

    /// One simulated reading.
    public struct Sample: Sendable, Hashable {
        /// Raw magnetometer reading, µT.
        public var magnetometer: SIMD3<Double>
        /// Accelerometer reading (specific force, up), m/s².
        public var accelerometer: SIMD3<Double>
        /// True field in the body frame (what a perfect calibration returns, up to its scale), µT.
        public var trueField: SIMD3<Double>
        /// True heading of the body +y axis, degrees from magnetic north, [0, 360).
        public var magneticHeading: Double
    }

    public init(field: SIMD3<Double>, hardIron: SIMD3<Double>, softIron: SymmetricMatrix3, noise: Double,
                accelerometerNoise: Double = 0, seed: UInt64) {
        self.field = field; self.hardIron = hardIron; self.softIron = softIron
        self.noise = noise; self.accelerometerNoise = accelerometerNoise; self.rng = SplitMix64(seed: seed)
    }

    /// A uniformly distributed number in [0, 1).
    public mutating func uniform() -> Double { rng.uniform(0, 1) }

    /// A standard normal number (Box–Muller).
    public mutating func gaussian() -> Double {
        if let s = spareNormal { spareNormal = nil; return s }
        var u = uniform()
        while u == 0 { u = uniform() }
        let v = uniform()
        let r = (-2 * Foundation.log(u)).squareRoot()
        spareNormal = r * Foundation.sin(2 * .pi * v)
        return r * Foundation.cos(2 * .pi * v)
    }

    /// The reading at orientation `rotation` (body→world, rows of a 3×3 matrix).
    public mutating func sample(rotation r: [SIMD3<Double>]) -> Sample {
        // Rᵀ v: body components are the dot products with R's columns.
        func toBody(_ v: SIMD3<Double>) -> SIMD3<Double> {
            SIMD3(r[0].x * v.x + r[1].x * v.y + r[2].x * v.z,
                  r[0].y * v.x + r[1].y * v.y + r[2].y * v.z,
                  r[0].z * v.x + r[1].z * v.y + r[2].z * v.z)
        }
        let b = toBody(field)
        let n = SIMD3(gaussian(), gaussian(), gaussian()) * noise
        let raw = softIron.multiply(b) + hardIron + n
        let an = SIMD3(gaussian(), gaussian(), gaussian()) * accelerometerNoise
        let acc = toBody(SIMD3(0, 0, gravity)) + an
        // Forward (+y body) in world: R·(0,1,0) = column 1 of R.
        let fwd = SIMD3(r[0].y, r[1].y, r[2].y)
        let trueHeading = Angle.atan2Degrees(fwd.x, fwd.y)
        let declination = Angle.atan2Degrees(field.x, field.y)
        return Sample(magnetometer: raw, accelerometer: acc, trueField: b,
                      magneticHeading: Angle.normalizeHeading(trueHeading - declination))
    }

    /// A uniformly random orientation (Shoemake's uniform unit quaternion).
    public mutating func randomRotation() -> [SIMD3<Double>] {
        let u1 = uniform(), u2 = uniform() * 2 * .pi, u3 = uniform() * 2 * .pi
        let a = (1 - u1).squareRoot(), b = u1.squareRoot()
        return Self.rotation(w: b * Foundation.cos(u3), x: a * Foundation.sin(u2), y: a * Foundation.cos(u2), z: b * Foundation.sin(u3))
    }

    /// An orientation with the given yaw (degrees clockwise from north of the +y axis), then
    /// pitch about the body x axis and roll about the body y axis (degrees).
    public static func rotation(yaw: Double, pitch: Double, roll: Double) -> [SIMD3<Double>] {
        func q(_ axis: SIMD3<Double>, _ deg: Double) -> SIMD4<Double> {
            let (s, c) = Angle.sincos(degrees: deg / 2)
            return SIMD4(c, axis.x * s, axis.y * s, axis.z * s)
        }
        func mul(_ p: SIMD4<Double>, _ r: SIMD4<Double>) -> SIMD4<Double> {
            SIMD4(p[0] * r[0] - p[1] * r[1] - p[2] * r[2] - p[3] * r[3],
                  p[0] * r[1] + p[1] * r[0] + p[2] * r[3] - p[3] * r[2],
                  p[0] * r[2] - p[1] * r[3] + p[2] * r[0] + p[3] * r[1],
                  p[0] * r[3] + p[1] * r[2] - p[2] * r[1] + p[3] * r[0])
        }
        // Yaw clockwise from north = rotation by −yaw about up.
        let total = mul(mul(q(SIMD3(0, 0, 1), -yaw), q(SIMD3(1, 0, 0), pitch)), q(SIMD3(0, 1, 0), roll))
        return rotation(w: total[0], x: total[1], y: total[2], z: total[3])
    }

    static func rotation(w: Double, x: Double, y: Double, z: Double) -> [SIMD3<Double>] {
        [SIMD3(1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)),
         SIMD3(2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)),
         SIMD3(2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y))]
    }

    /// `count` readings at uniformly random orientations (motion covering the sphere).
    public mutating func sphereCoveringStream(count: Int) -> [Sample] {
        (0..<count).map { _ in let r = randomRotation(); return sample(rotation: r) }
    }

    /// A random symmetric soft-iron matrix with eigenvalues in [1 − amount, 1 + amount] and
    /// random principal axes (e.g. amount 0.2 for ±20 %).
    public mutating func randomSoftIron(amount: Double) -> SymmetricMatrix3 {
        let r = randomRotation()
        let l = SIMD3(1 + amount * (2 * uniform() - 1), 1 + amount * (2 * uniform() - 1), 1 + amount * (2 * uniform() - 1))
        // S = R diag(l) Rᵀ
        func e(_ i: Int, _ j: Int) -> Double { r[i].x * l.x * r[j].x + r[i].y * l.y * r[j].y + r[i].z * l.z * r[j].z }
        return SymmetricMatrix3(xx: e(0, 0), xy: e(0, 1), xz: e(0, 2), yy: e(1, 1), yz: e(1, 2), zz: e(2, 2))
    }
}

