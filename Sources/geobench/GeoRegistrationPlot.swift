import Foundation
import GeoAnchorKit
import GeoAnchorKitSimulation

/// `geobench align --truth TRACE --plot FILE.svg`: the output against a truth trace (positions and
/// device headings, e.g. `simulate --truth`), with the compass alone (latest raw fix + latest
/// compass reading) for comparison. Panels: |heading error| over time, anchor error at 50 m and
/// at 200 m straight ahead over time. Reuses AccuracyPlot's frame and polyline drawing.
enum GeoRegistrationPlot {
    /// One output row compared with the truth.
    struct Row {
        var time: Double
        var fusedHeading: Double, sigma: Double, compassHeading: Double?
        var fused50: Double, fused200: Double
        var compass50: Double? = nil, compass200: Double? = nil
    }

    /// Compares output rows with `truth` (linearly interpolated; rows outside it are left out).
    static func compare(outputs: [(time: Double, estimate: GeoRegistrationEstimate)], truth: [Fix],
                        fixes: [Fix], compass: [CompassReading]) -> [Row] {
        guard let t0 = truth.first, let frame = try? LocalTangentFrame(origin: GeodeticCoordinate(latitude: t0.latitude, longitude: t0.longitude, ellipsoidalHeight: 0))
        else { return [] }
        let enu = truth.map { frame.enu(latitude: $0.latitude, longitude: $0.longitude, ellipsoidalHeight: 0) }
        var rows: [Row] = []
        var j = 0, fi = 0, ci = 0
        var lastFix: Fix?, lastCompass: CompassReading?
        for (t, e) in outputs {
            while j + 1 < truth.count && truth[j + 1].time <= t { j += 1 }
            guard j + 1 < truth.count, truth[j].time <= t, let ha = truth[j].heading, let hb = truth[j + 1].heading else { continue }
            while fi < fixes.count && fixes[fi].time <= t { lastFix = fixes[fi]; fi += 1 }
            while ci < compass.count && compass[ci].time <= t { lastCompass = compass[ci]; ci += 1 }
            let f = (t - truth[j].time) / Swift.max(truth[j + 1].time - truth[j].time, 1e-9)
            let p = SIMD2(enu[j].east + f * (enu[j + 1].east - enu[j].east), enu[j].north + f * (enu[j + 1].north - enu[j].north))
            let heading = Angle.normalizeHeading(ha + f * Angle.difference(from: ha, to: hb))
            let q = frame.enu(latitude: e.position.latitude, longitude: e.position.longitude, ellipsoidalHeight: 0)
            let dh = Angle.difference(from: heading, to: e.heading)
            var row = Row(time: t, fusedHeading: dh, sigma: e.headingSigma, compassHeading: nil,
                          fused50: GeoRegistrationEvaluation.anchorError(distance: 50, trueHeading: heading, truth: p, headingError: dh, position: SIMD2(q.east, q.north)),
                          fused200: GeoRegistrationEvaluation.anchorError(distance: 200, trueHeading: heading, truth: p, headingError: dh, position: SIMD2(q.east, q.north)))
            if let c = lastCompass, let fx = lastFix {
                let dc = Angle.difference(from: heading, to: c.heading)
                let z = frame.enu(latitude: fx.latitude, longitude: fx.longitude, ellipsoidalHeight: 0)
                row.compassHeading = dc
                row.compass50 = GeoRegistrationEvaluation.anchorError(distance: 50, trueHeading: heading, truth: p, headingError: dc, position: SIMD2(z.east, z.north))
                row.compass200 = GeoRegistrationEvaluation.anchorError(distance: 200, trueHeading: heading, truth: p, headingError: dc, position: SIMD2(z.east, z.north))
            }
            rows.append(row)
        }
        return rows
    }

    static func svg(_ rows: [Row], title: String) -> String {
        typealias P = AccuracyPlot
        let ph = P.panelHeight, w = P.width
        let h = 3 * ph + 60
        let q = { (v: [Double]) in GeoRegistrationEvaluation.quantile(v, 0.95) }
        let summary = String(format: "p95 |heading error|: fused %.2f°, compass %.2f° — anchor@50m fused %.2f m, compass %.2f m — anchor@200m fused %.2f m, compass %.2f m",
                             q(rows.map { abs($0.fusedHeading) }), q(rows.compactMap { $0.compassHeading.map(abs) }),
                             q(rows.map(\.fused50)), q(rows.compactMap(\.compass50)), q(rows.map(\.fused200)), q(rows.compactMap(\.compass200)))
        var s = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(w))" height="\(Int(h))" viewBox="0 0 \(Int(w)) \(Int(h))" font-family="sans-serif" font-size="12">
        <rect width="100%" height="100%" fill="white"/>
        <text x="20" y="28" font-size="16" font-weight="bold">\(P.escape(title))</text>
        <text x="20" y="46">\(P.escape(summary))</text>

        """
        guard let t0 = rows.first?.time, let t1 = rows.last?.time else { return s + "<text x=\"80\" y=\"100\">no rows to compare</text>\n</svg>\n" }
        let idx = P.thin(rows.count)
        func panel(_ k: Int, _ title: String, _ unit: String, fused: (Row) -> Double, compass: (Row) -> Double?, band: ((Row) -> Double)?) -> String {
            let fusedV = rows.map(fused), compassV = rows.map(compass)
            // Clip the axis at the compass's p99 so one disturbance does not flatten the rest.
            let top = Swift.max(GeoRegistrationEvaluation.quantile(compassV.compactMap { $0 } + fusedV, 0.99), 1e-3)
            let b = P.Box(x: 80, y: 60 + Double(k) * ph + 30, w: w - 120, h: ph - 90, xMin: 0, xMax: Swift.max(t1 - t0, 1), yMin: 0, yMax: top)
            var s = P.frame(b, title: title, xLabel: "seconds since \(ByteParsing.iso8601String(t0, fractionDigits: 0))", yLabel: unit)
            s += P.polyline(idx.compactMap { i in compassV[i].map { (b.px(rows[i].time - t0), b.py(Swift.min($0, top))) } }, color: "#999", width: 1)
            if let band { s += P.polyline(idx.map { (b.px(rows[$0].time - t0), b.py(Swift.min(band(rows[$0]), top))) }, color: "#2ca02c", width: 1) }
            s += P.polyline(idx.map { (b.px(rows[$0].time - t0), b.py(Swift.min(fusedV[$0], top))) }, color: "#1f77b4", width: 1.5)
            return s
        }
        s += panel(0, "|Heading error| (grey: compass alone, blue: fused, green: fused 2σ)", "degrees",
                   fused: { abs($0.fusedHeading) }, compass: { $0.compassHeading.map(abs) }, band: { 2 * $0.sigma })
        s += panel(1, "Error of an anchor 50 m ahead (grey: latest fix + compass, blue: fused)", "meters",
                   fused: \.fused50, compass: \.compass50, band: nil)
        s += panel(2, "Error of an anchor 200 m ahead (grey: latest fix + compass, blue: fused)", "meters",
                   fused: \.fused200, compass: \.compass200, band: nil)
        return s + "</svg>\n"
    }
}
