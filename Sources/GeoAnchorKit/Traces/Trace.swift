import Foundation

/// Which inertial/magnetic sensor a ``SensorSample`` comes from.
public enum SensorKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Magnetic field in microtesla (µT), device axes, as the source delivers it: the simulator
    /// and plain sensor logs give it uncalibrated (hard/soft iron included); Android's
    /// `TYPE_MAGNETIC_FIELD` (GnssLogger `Mag`) has the phone's own hard-iron estimate already
    /// removed — its raw values are ``uncalibratedMagnetometer``.
    case magnetometer
    /// Specific force in m/s², device axes (a device lying flat at rest reads ≈ (0, 0, +9.81),
    /// the Android/CoreMotion-raw convention: gravity reaction included).
    case accelerometer
    /// Angular rate in rad/s about the device axes (right-handed, counterclockwise positive).
    case gyroscope
    /// Android `TYPE_MAGNETIC_FIELD_UNCALIBRATED` (GnssLogger `UncalMag`): raw field in µT
    /// (hard iron included); ``SensorSample/bias`` is the phone's hard-iron estimate (µT), so
    /// the phone's calibrated value is `x − bias.x` etc. CSV name `uncalibrated_magnetometer`.
    case uncalibratedMagnetometer = "uncalibrated_magnetometer"
    /// Android `TYPE_ACCELEROMETER_UNCALIBRATED` (GnssLogger `UncalAccel`): m/s² without the
    /// factory bias correction; ``SensorSample/bias`` is the phone's bias estimate (m/s²).
    /// CSV name `uncalibrated_accelerometer`.
    case uncalibratedAccelerometer = "uncalibrated_accelerometer"
    /// Android `TYPE_GYROSCOPE_UNCALIBRATED` (GnssLogger `UncalGyro`): rad/s without drift
    /// compensation; ``SensorSample/bias`` is the phone's drift estimate (rad/s).
    /// CSV name `uncalibrated_gyroscope`.
    case uncalibratedGyroscope = "uncalibrated_gyroscope"

    /// The physical quantity: the calibrated kind measuring the same thing (same unit and axes).
    public var quantity: SensorKind {
        switch self {
        case .uncalibratedMagnetometer: return .magnetometer
        case .uncalibratedAccelerometer: return .accelerometer
        case .uncalibratedGyroscope: return .gyroscope
        default: return self
        }
    }
}

/// One timestamped three-axis sensor reading.
///
/// Device axes follow Android/iOS: x to the right of the screen, y to the top of the screen,
/// z out of the screen.
public struct SensorSample: Sendable, Hashable, Codable {
    /// UTC seconds since 1970.
    public var time: Double
    /// Which sensor; fixes the unit of x/y/z (see ``SensorKind``).
    public var kind: SensorKind
    public var x: Double
    public var y: Double
    public var z: Double
    /// The device's own estimate of the bias contained in x/y/z (same unit), reported with the
    /// `uncalibrated…` kinds (Android's uncalibrated sensor events); nil otherwise.
    public var bias: SIMD3<Double>?

    public init(time: Double, kind: SensorKind, x: Double, y: Double, z: Double, bias: SIMD3<Double>? = nil) {
        self.time = time; self.kind = kind; self.x = x; self.y = y; self.z = z; self.bias = bias
    }

    /// The device's own calibrated reading: for an uncalibrated kind with a bias, `x − bias.x` etc.
    /// as the calibrated kind (``SensorKind/quantity``) — what Android reports as the calibrated
    /// sensor and what the heading filter's gyro rate expects; other samples unchanged.
    public var biasCorrected: SensorSample {
        guard let b = bias else { return self }
        return SensorSample(time: time, kind: kind.quantity, x: x - b.x, y: y - b.y, z: z - b.z)
    }
}

/// A recorded or simulated trace: position fixes plus optional sensor streams, each sorted by
/// time. The in-memory container for code that wants everything at once; the readers also
/// stream (see ``TraceReader``).
public struct Trace: Sendable, Hashable, Codable {
    /// Position fixes in time order.
    public var fixes: [Fix]
    /// Sensor samples in time order (all kinds interleaved).
    public var sensors: [SensorSample]
    /// Free-form name (file name, simulator scenario).
    public var name: String

    public init(fixes: [Fix] = [], sensors: [SensorSample] = [], name: String = "") {
        self.fixes = fixes; self.sensors = sensors; self.name = name
    }

    /// The samples of one sensor.
    public func samples(of kind: SensorKind) -> [SensorSample] { sensors.filter { $0.kind == kind } }

    /// Time span covered by the fixes, seconds (0 for fewer than two fixes).
    public var duration: Double {
        guard let a = fixes.first?.time, let b = fixes.last?.time else { return 0 }
        return b - a
    }
}
