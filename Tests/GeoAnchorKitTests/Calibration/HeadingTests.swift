import Foundation
import Testing
@testable import GeoAnchorKit
@testable import GeoAnchorKitSimulation

@Suite("Tilt-compensated heading")
struct HeadingTests {
    /// Reference: exact geometry. A level device (accelerometer +z up) whose +y axis points at
    /// magnetic north reads 0°, east 90°, etc.; tilting it (pitch/roll up to 80°) must not
    /// change the heading. Tolerance 1e-9°. Field: Závist, dip ≈ 65°.
    @Test(arguments: [0.0, 37.5, 90, 180, 270, 359.9])
    func exactGeometry(yaw: Double) throws {
        var sim = MagnetometerSimulator(field: zavistField, hardIron: .zero, softIron: .identity, noise: 0, seed: 1)
        let declination = Angle.atan2Degrees(zavistField.x, zavistField.y)
        for (pitch, roll) in [(0.0, 0.0), (30, -20), (-80, 10), (45, 80)] {
            let s = sim.sample(rotation: MagnetometerSimulator.rotation(yaw: yaw + declination, pitch: pitch, roll: roll))
            let h = try #require(TiltCompensation.heading(magnetometer: s.magnetometer, accelerometer: s.accelerometer,
                                                          declination: declination))
            #expect(abs(Angle.difference(from: yaw, to: h.magneticHeading)) < 1e-9, "\(pitch),\(roll): \(h.magneticHeading)")
            #expect(abs(Angle.difference(from: yaw + declination, to: h.trueHeading!)) < 1e-9)
            // Dip of the Závist field: atan(44.9 / √(1.7² + 20.5²)).
            #expect(abs(h.inclination - atan2(44.9, (1.7 * 1.7 + 20.5 * 20.5).squareRoot()) * 180 / .pi) < 1e-9)
        }
    }

    /// Undefined headings return nil: forward axis vertical, zero acceleration.
    @Test func undefined() {
        let m = SIMD3<Double>(0, 20, -45)
        #expect(TiltCompensation.heading(magnetometer: m, accelerometer: SIMD3(0, 9.8, 0)) == nil)
        #expect(TiltCompensation.heading(magnetometer: m, accelerometer: .zero) == nil)
    }

    /// Reference: Monte Carlo. 4000 noisy readings (0.5 µT magnetometer, 0.05 m/s²
    /// accelerometer) at a fixed tilted orientation; the observed heading scatter must match the
    /// predicted 1σ `accuracy` within 10 % (sampling error of a 4000-sample σ is ≈ 1.1 %; the
    /// first-order propagation is good to a few %).
    @Test func accuracyMatchesMonteCarlo() throws {
        var sim = MagnetometerSimulator(field: zavistField, hardIron: .zero, softIron: .identity, noise: 0.5,
                                        accelerometerNoise: 0.05, seed: 3)
        let rot = MagnetometerSimulator.rotation(yaw: 30, pitch: 20, roll: -15)
        var errors: [Double] = []
        var predicted = 0.0
        for _ in 0..<4000 {
            let s = sim.sample(rotation: rot)
            let h = try #require(TiltCompensation.heading(magnetometer: s.magnetometer, accelerometer: s.accelerometer,
                                                          magnetometerNoise: 0.5, accelerometerNoise: 0.05))
            errors.append(Angle.difference(from: s.magneticHeading, to: h.magneticHeading))
            predicted = h.accuracy
        }
        let mean = errors.reduce(0, +) / Double(errors.count)
        let sd = (errors.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(errors.count - 1)).squareRoot()
        #expect(abs(sd / predicted - 1) < 0.10, "observed σ \(sd)° vs predicted \(predicted)°")
    }
}
