import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport

@Suite("Magnetometer calibration — x-io Fusion log")
struct XioLogTests {
    /// The x-io Fusion sample log (../shared/data/magnetometer_imu/xio_fusion/sensor_data.csv,
    /// 13,514 samples at 100 Hz, µT). Its motion keeps the body z axis of the field negative
    /// (only ≈ a quarter of the sphere is visited) and contains a disturbed stretch
    /// (|m| ≈ 38 µT at 100–110 s against 43.5 µT elsewhere). Reference: those properties of the
    /// raw data, computed here — coverage of raw directions < 0.35 — so a calibration must not
    /// be graded better than `poor`, the soft iron must be reported as undetermined (the full
    /// ellipsoid is not identifiable), and the fitted field stays within 15 % of the raw median
    /// magnitude (43.5 µT).
    @Test(.enabled(if: SharedData.shouldRun))
    func xioLogIsGradedHonestly() throws {
        let text = try SharedData.text("magnetometer_imu/xio_fusion/sensor_data.csv")
        var mags: [SIMD3<Double>] = []
        for line in text.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",").compactMap { Double($0) }
            guard f.count == 10 else { continue }
            mags.append(SIMD3(f[7], f[8], f[9]))
        }
        #expect(mags.count == 13_514)
        let norms = mags.map { ($0 * $0).sum().squareRoot() }.sorted()
        let median = norms[norms.count / 2]
        let c = try MagnetometerCalibrator.fit(mags)
        #expect(c.quality == .poor)
        #expect(c.issues.contains(.softIronUndetermined))
        #expect(c.coverage < 0.35)
        #expect(abs(c.fieldStrength - median) / median < 0.15)
        print(String(format: "x-io: offset (%.2f, %.2f, %.2f) µT, field %.2f µT (raw median |m| %.2f), residual RMS %.3f µT, coverage %.2f, %@",
                     c.offset.x, c.offset.y, c.offset.z, c.fieldStrength, median, c.residualRMS, c.coverage, c.quality.rawValue))
    }
}
