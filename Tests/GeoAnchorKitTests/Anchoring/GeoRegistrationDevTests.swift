import Foundation
import Testing
@testable import GeoAnchorKit

@Suite("dev") struct GeoRegistrationDev {
    @Test func dev() {
        guard ProcessInfo.processInfo.environment["DEV12"] != nil else { return }
        for (name, seed) in GeoRegistrationTests.walks {
            for compass in [true, false] {
                var c = GeoRegistrationConfiguration()
                let env = ProcessInfo.processInfo.environment
                if let v = env["GATE"].flatMap(Double.init) { c.fixGate = v }
                if let v = env["GCT"].flatMap(Double.init) { c.gnssCorrelationTime = v }
                if let v = env["GCF"].flatMap(Double.init) { c.gnssCorrelatedFraction = v }
                if let v = env["YAWM"].flatMap(Double.init) { c.trackingYawNoisePerRootMeter = v }
                if let v = env["CB"].flatMap(Double.init) { c.compassBiasSigma = v }
                if let v = env["CWF"].flatMap(Double.init) { c.compassWhiteFraction = v }
                let e = GeoRegistrationTests.walk(name, seed: seed, compass: compass, configuration: c)
                let m = e.metrics
                func p95(_ lo: Double, _ hi: Double) -> Double {
                    GeoRegistrationEvaluation.quantile(e.samples.filter { $0.walked >= lo && $0.walked < hi }.map { abs($0.headingError) }, 0.95)
                }
                print(name, seed, compass, String(format: "100-300 %.2f 300-600 %.2f 600+ %.2f all100 %.2f pos %.2f 2s %.3f f50 %.2f/%.2f", p95(100, 300), p95(300, 600), p95(600, 1e9), p95(100, 1e9), m.positionP95 / m.rawP95, m.within2Sigma, m.headingP95First50, m.compassP95First50))
            }
        }
    }
}
