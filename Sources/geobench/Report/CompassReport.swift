import Foundation
import GeoAnchorKit
import GeoAnchorKitSimulation

/// Compass section: the World Magnetic Model at tour sites, a magnetometer calibration on a
/// deterministic simulated stream (ground truth known), a landmark heading offset, and the
/// x-io Fusion log when ../shared/data is present.
enum CompassReport: ReportSection {
    static let title = "Compass: WMM, magnetometer calibration, heading, landmark offset"

    /// Sites with approximate ellipsoidal heights (MSL + ≈ 45 m geoid in Bohemia).
    static let sites: [(String, Double, Double, Double)] = [
        ("Závist hillfort", 49.96, 14.39, 435),
        ("Prague Castle", 50.0903, 14.4003, 300),
        ("Vyšehrad", 50.0645, 14.4180, 270),
        ("Longyearbyen", 78.2232, 15.6267, 40),
        ("89°N 121°W (WMM test point)", 89, -121, 28_000),
    ]
    static let date = 2026.5

    static func run(_ context: ReportContext) throws -> [String] {
        var out: [String] = []
        let model = try MagneticModel.load()
        out.append("  model \(model.name) (epoch \(model.epoch), valid \(model.validFrom)–\(model.validUntil)) from \(model.source)")
        out.append(String(format: "  WMM at %.1f (D east+, I down+, nT; σ_D = WMM2025 error model):", date))
        out.append("    site                           D (°)   dD/dt   σ_D    I (°)       H        F  warnings")
        let snap = model.snapshot(decimalYear: date)
        var zavist: MagneticField?
        for (name, lat, lon, h) in sites {
            let f = snap.field(latitude: lat, longitude: lon, ellipsoidalHeight: h)
            if zavist == nil { zavist = f }
            let w = f.warnings.isEmpty ? "-" : f.warnings.map { "\($0)" }.joined(separator: "; ")
            out.append(String(format: "    %@ %7.2f %7.3f %5.2f %8.2f %8.0f %8.0f  %@",
                              name.padding(toLength: 30, withPad: " ", startingAt: 0), f.declination, f.declinationRate,
                              f.declinationUncertainty, f.inclination, f.horizontalIntensity, f.totalIntensity, w))
        }
        out += try calibrationLines(field: zavist!)
        out += try landmarkLines(declination: zavist!.declination)
        out += tracesLines(context.tracesDirectory)
        if let shared = context.sharedDataDirectory {
            out += xioLines(shared.appendingPathComponent("magnetometer_imu/xio_fusion/sensor_data.csv"))
        }
        return out
    }

    /// A simulated 3000-sample sphere-covering stream at Závist (seed 2026).
    static func calibrationLines(field f: MagneticField) throws -> [String] {
        let enu = SIMD3(f.east, f.north, -f.down) / 1000
        var sim = MagnetometerSimulator(field: enu, hardIron: SIMD3(23.4, -41.2, 12.8), softIron: .identity,
                                        noise: 0.5, accelerometerNoise: 0.02, seed: 2026)
        sim.softIron = sim.randomSoftIron(amount: 0.2)
        let stream = sim.sphereCoveringStream(count: 3000)
        let raw = stream.map(\.magnetometer)
        let t0 = Date()
        let cal = try MagnetometerCalibrator.fit(raw, options: .init(expectedFieldStrength: f.totalIntensity / 1000))
        let fitMs = Date().timeIntervalSince(t0) * 1000
        let scale = Foundation.cbrt(sim.softIron.determinant)
        let trueW = sim.softIron.mapEigenvalues { scale / $0 }
        let wErr = zip(cal.softIron.rows.joined(), trueW.rows.joined()).map { abs($0 - $1) }.max()!
        let offErr = ((cal.offset - sim.hardIron) * (cal.offset - sim.hardIron)).sum().squareRoot()
        var lines = [
            "  calibration, simulated stream at Závist: 3000 samples, uniform random orientations, hard iron",
            "  (23.4, −41.2, 12.8) µT, soft iron ±20 % (seed 2026), noise 0.5 µT:",
            String(format: "    offset (%.3f, %.3f, %.3f) µT, |error| %.3f µT; max |ΔW| %.4f; field %.3f µT (true %.3f)",
                   cal.offset.x, cal.offset.y, cal.offset.z, offErr, wErr, cal.fieldStrength,
                   scale * (enu * enu).sum().squareRoot()),
            String(format: "    residual RMS %.3f µT, coverage %.2f, quality %@, %d samples, fit %.2f ms (debug/release as built)",
                   cal.residualRMS, cal.coverage, cal.quality.rawValue, cal.samples, fitMs),
        ]
        // Heading error the calibration causes (noise-free readings), and per-reading accuracy.
        var test = sim
        test.noise = 0; test.accelerometerNoise = 0
        var noisy = sim
        var sq = 0.0, sqNoisy = 0.0, predicted = 0.0
        for k in 0..<360 {
            let rot = MagnetometerSimulator.rotation(yaw: Double(k), pitch: 45 * sin(Double(k) * 0.37), roll: 45 * cos(Double(k) * 0.23))
            let s = test.sample(rotation: rot)
            if let h = TiltCompensation.heading(magnetometer: cal.calibrate(s.magnetometer), accelerometer: s.accelerometer) {
                let e = Angle.difference(from: s.magneticHeading, to: h.magneticHeading); sq += e * e
            }
            let n = noisy.sample(rotation: rot)
            if let h = TiltCompensation.heading(magnetometer: cal.calibrate(n.magnetometer), accelerometer: n.accelerometer,
                                                declination: f.declination, declinationUncertainty: f.declinationUncertainty,
                                                magnetometerNoise: cal.residualRMS, accelerometerNoise: 0.02) {
                let e = Angle.difference(from: n.magneticHeading, to: h.magneticHeading); sqNoisy += e * e
                predicted += h.accuracy * h.accuracy
            }
        }
        lines.append(String(format: "    tilt-compensated heading (tilt ≤ 45°, 360 headings): RMS error %.3f° from the calibration, %.2f° per noisy reading",
                            (sq / 360).squareRoot(), (sqNoisy / 360).squareRoot()))
        lines.append(String(format: "    predicted true-heading accuracy per reading (incl. σ_D %.2f°): %.2f° RMS",
                            f.declinationUncertainty, (predicted / 360).squareRoot()))
        var inc = IncrementalMagnetometerCalibrator()
        var progress: [String] = []
        for (i, m) in raw.enumerated() {
            try inc.add(m)
            if [50, 100, 300, 1000, 3000].contains(i + 1), let e = try? inc.estimate() {
                let d = ((e.offset - sim.hardIron) * (e.offset - sim.hardIron)).sum().squareRoot()
                progress.append(String(format: "%d: %.2f µT %@", i + 1, d, e.quality.rawValue))
            }
        }
        lines.append("    incremental estimate, offset error after n samples: " + progress.joined(separator: ", "))
        // Degenerate motion: spinning flat on a table.
        let flat = (0..<500).map { k in sim.sample(rotation: MagnetometerSimulator.rotation(yaw: Double(k) * 0.72, pitch: 0, roll: 0)).magnetometer }
        do {
            let c = try MagnetometerCalibrator.fit(flat)
            lines.append("    single-axis rotation: NOT refused (quality \(c.quality.rawValue))")
        } catch {
            lines.append("    single-axis rotation (500 samples spun flat): refused — \(error)")
        }
        return lines
    }

    /// Eight simulated sightings from around Závist with a −6.5° compass error, one blunder.
    static func landmarkLines(declination: Double) throws -> [String] {
        let origin = GeodeticCoordinate(latitude: 49.96, longitude: 14.39, ellipsoidalHeight: 435)
        let frame = try LocalTangentFrame(origin: origin)
        var rng = MagnetometerSimulator(field: .zero, hardIron: .zero, softIron: .identity, noise: 0, seed: 7)
        var sightings: [LandmarkSighting] = []
        for i in 0..<8 {
            let b = Double(i) * 45 + 10, d = [60.0, 150, 400, 900, 1500, 250, 700, 2000][i]
            let lm = frame.geodetic(east: d * sin(b * .pi / 180), north: d * cos(b * .pi / 180), up: 0)
            var observed = b + 6.5 + rng.gaussian() * 1.5
            if i == 5 { observed += 25 }
            sightings.append(LandmarkSighting(devicePosition: origin, horizontalAccuracy: 5, observedHeading: Angle.normalizeHeading(observed),
                                              headingAccuracy: 1.5,
                                              landmark: GeodeticCoordinate(latitude: lm.latitude, longitude: lm.longitude, ellipsoidalHeight: lm.ellipsoidalHeight)))
        }
        let est = try LandmarkHeadingOffset.estimate(sightings)
        let flagged = est.sightings.indices.filter { est.sightings[$0].isOutlier }.map { "#\($0)" }
        return [
            "  landmark heading offset: 8 simulated sightings (60 m–2 km, σ 1.5°, position 5 m, true offset −6.5°, blunder +25° at #5):",
            String(format: "    offset %.2f° ± %.2f° (formal %.2f°, χ²ν %.2f); outliers: %@; σ of the 60 m sighting %.2f° vs 2 km %.2f°",
                   est.offset, est.standardError, est.formalStandardError, est.reducedChiSquare,
                   flagged.isEmpty ? "none" : flagged.joined(separator: ","), est.sightings[0].sigma, est.sightings[7].sigma),
        ]
    }

    /// The magnetometer streams shipped in traces/ (walking with the phone held roughly level:
    /// rotation mostly about the vertical). Ground truth hard iron: TraceSimulator.SensorModel.
    static func tracesLines(_ dir: URL) -> [String] {
        var out = ["  shipped sensor streams (traces/*.sensors.csv, walking; true hard iron (12, −25, 40) µT):"]
        for name in ["zavist-tour", "city-walk"] {
            let url = dir.appendingPathComponent("\(name).sensors.csv")
            guard let text = try? String(contentsOf: url, encoding: .utf8) else {
                out.append("    \(name): not found at \(url.path)"); continue
            }
            var mags: [SIMD3<Double>] = []
            for line in text.split(separator: "\n").dropFirst() {
                let f = line.split(separator: ",")
                guard f.count == 5, f[1] == "magnetometer", let x = Double(f[2]), let y = Double(f[3]), let z = Double(f[4]) else { continue }
                mags.append(SIMD3(x, y, z))
            }
            do {
                let c = try MagnetometerCalibrator.fit(mags, options: .init(expectedFieldStrength: 49.5))
                out.append(String(format: "    %@: %d samples → offset (%.1f, %.1f, %.1f) µT, field %.1f µT, coverage %.2f, quality %@ (%@)",
                                  name, mags.count, c.offset.x, c.offset.y, c.offset.z, c.fieldStrength, c.coverage,
                                  c.quality.rawValue, c.issues.map { "\($0)" }.joined(separator: "; ")))
            } catch {
                out.append("    \(name): \(mags.count) samples → refused: \(error)")
            }
        }
        return out
    }

    static func xioLines(_ url: URL) -> [String] {
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return ["  x-io log: not found at \(url.path)"] }
        var mags: [SIMD3<Double>] = []
        var accs: [SIMD3<Double>] = []
        for line in text.split(separator: "\n").dropFirst() {
            let v = line.split(separator: ",").compactMap { Double($0) }
            guard v.count == 10 else { continue }
            accs.append(SIMD3(v[4], v[5], v[6])); mags.append(SIMD3(v[7], v[8], v[9]))
        }
        do {
            let c = try MagnetometerCalibrator.fit(mags)
            let norms = mags.map { ($0 * $0).sum().squareRoot() }.sorted()
            func dipSD(_ cal: (SIMD3<Double>) -> SIMD3<Double>) -> Double {
                let d = zip(mags, accs).map { m, a -> Double in
                    let mc = cal(m)
                    return asin(-(mc * a).sum() / ((mc * mc).sum() * (a * a).sum()).squareRoot()) * 180 / .pi
                }
                let mean = d.reduce(0, +) / Double(d.count)
                return (d.map { ($0 - mean) * ($0 - mean) }.reduce(0, +) / Double(d.count - 1)).squareRoot()
            }
            return [
                "  x-io Fusion log (\(mags.count) samples, ../shared/data):",
                String(format: "    offset (%.2f, %.2f, %.2f) µT, field %.2f µT (raw |m| median %.2f), residual RMS %.3f µT, coverage %.2f, quality %@",
                       c.offset.x, c.offset.y, c.offset.z, c.fieldStrength, norms[norms.count / 2], c.residualRMS, c.coverage, c.quality.rawValue),
                "    reasons: " + c.issues.map { "\($0)" }.joined(separator: "; "),
                String(format: "    dip-angle spread (field vs accelerometer): %.2f° raw, %.2f° calibrated", dipSD { $0 }, dipSD(c.calibrate)),
            ]
        } catch {
            return ["  x-io Fusion log: refused — \(error)"]
        }
    }
}
