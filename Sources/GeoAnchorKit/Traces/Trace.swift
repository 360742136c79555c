import Foundation

/// Which inertial/magnetic sensor a ``SensorSample`` comes from.
public enum SensorKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Magnetic field in microtesla (µT), device axes, *uncalibrated* (hard/soft iron included).
    case magnetometer
    /// Specific force in m/s², device axes (a device lying flat at rest reads ≈ (0, 0, +9.81),
    /// the Android/CoreMotion-raw convention: gravity reaction included).
    case accelerometer
    /// Angular rate in rad/s about the device axes (right-handed, counterclockwise positive).
    case gyroscope
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

    public init(time: Double, kind: SensorKind, x: Double, y: Double, z: Double) {
        self.time = time; self.kind = kind; self.x = x; self.y = y; self.z = z
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
