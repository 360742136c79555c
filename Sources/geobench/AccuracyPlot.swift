import Foundation
import GeoAnchorKit

/// A self-contained SVG (no scripts, no external resources) for `geobench accuracy --plot`:
/// horizontal-error CDF, errors over time, and a map of trace vs truth in local meters.
enum AccuracyPlot {
    static let width = 1200.0, panelHeight = 360.0

    static func svg(result r: TrackAccuracy, reference: ReferenceTrack, title: String) -> String {
        let h = 3 * panelHeight + 60
        var s = """
        <svg xmlns="http://www.w3.org/2000/svg" width="\(Int(width))" height="\(Int(h))" viewBox="0 0 \(Int(width)) \(Int(h))" font-family="sans-serif" font-size="12">
        <rect width="100%" height="100%" fill="white"/>
        <text x="20" y="28" font-size="16" font-weight="bold">\(escape(title))</text>
        <text x="20" y="46">\(escape(String(format: "matched %d, unmatched %d — horizontal p50 %.2f m, p95 %.2f m, RMSE %.2f m, max %.2f m; GSDC score %.2f m", r.matched, r.unmatched, r.horizontal.p50, r.horizontal.p95, r.horizontal.rmse, r.horizontal.max, r.gsdcScore)))</text>

        """
        s += cdfPanel(r, y0: 60)
        s += timePanel(r, y0: 60 + panelHeight)
        s += mapPanel(r, reference, y0: 60 + 2 * panelHeight)
        s += "</svg>\n"
        return s
    }

    static func escape(_ t: String) -> String {
        t.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;").replacingOccurrences(of: ">", with: "&gt;")
    }

    /// Plot box inside a panel.
    struct Box {
        var x: Double, y: Double, w: Double, h: Double
        var xMin: Double, xMax: Double, yMin: Double, yMax: Double
        func px(_ v: Double) -> Double { x + (v - xMin) / max(xMax - xMin, 1e-12) * w }
        func py(_ v: Double) -> Double { y + h - (v - yMin) / max(yMax - yMin, 1e-12) * h }
    }

    static func frame(_ b: Box, title: String, xLabel: String, yLabel: String) -> String {
        var s = "<rect x=\"\(b.x)\" y=\"\(b.y)\" width=\"\(b.w)\" height=\"\(b.h)\" fill=\"none\" stroke=\"#444\"/>\n"
        s += "<text x=\"\(b.x)\" y=\"\(b.y - 8)\" font-weight=\"bold\">\(escape(title))</text>\n"
        s += "<text x=\"\(b.x + b.w / 2)\" y=\"\(b.y + b.h + 32)\" text-anchor=\"middle\">\(escape(xLabel))</text>\n"
        s += "<text x=\"\(b.x - 48)\" y=\"\(b.y + b.h / 2)\" text-anchor=\"middle\" transform=\"rotate(-90 \(b.x - 48) \(b.y + b.h / 2))\">\(escape(yLabel))</text>\n"
        for i in 0...4 {
            let fx = b.xMin + Double(i) / 4 * (b.xMax - b.xMin), fy = b.yMin + Double(i) / 4 * (b.yMax - b.yMin)
            s += "<text x=\"\(b.px(fx))\" y=\"\(b.y + b.h + 16)\" text-anchor=\"middle\" fill=\"#444\">\(label(fx))</text>\n"
            s += "<text x=\"\(b.x - 6)\" y=\"\(b.py(fy) + 4)\" text-anchor=\"end\" fill=\"#444\">\(label(fy))</text>\n"
            s += "<line x1=\"\(b.x)\" x2=\"\(b.x + b.w)\" y1=\"\(b.py(fy))\" y2=\"\(b.py(fy))\" stroke=\"#ddd\"/>\n"
        }
        return s
    }

    static func label(_ v: Double) -> String {
        let a = abs(v)
        if a >= 1000 { return String(format: "%.0f", v) }
        if a >= 10 { return String(format: "%.1f", v) }
        return String(format: "%.2f", v)
    }

    /// At most `n` evenly spaced indices (keeps SVGs small for long traces).
    static func thin(_ count: Int, _ n: Int = 4000) -> [Int] {
        guard count > n else { return Array(0..<count) }
        return (0..<n).map { $0 * (count - 1) / (n - 1) }
    }

    static func polyline(_ pts: [(Double, Double)], color: String, width: Double = 1.5) -> String {
        guard !pts.isEmpty else { return "" }
        let d = pts.map { String(format: "%.1f,%.1f", $0.0, $0.1) }.joined(separator: " ")
        return "<polyline fill=\"none\" stroke=\"\(color)\" stroke-width=\"\(width)\" points=\"\(d)\"/>\n"
    }

    static func cdfPanel(_ r: TrackAccuracy, y0: Double) -> String {
        let errs = r.epochs.map(\.horizontal).sorted()
        let xMax = max(errs.last ?? 1, 1e-3)
        let b = Box(x: 80, y: y0 + 30, w: width - 120, h: panelHeight - 90, xMin: 0, xMax: xMax, yMin: 0, yMax: 1)
        var s = frame(b, title: "Horizontal error CDF", xLabel: "horizontal error (m)", yLabel: "fraction ≤ x")
        let idx = thin(errs.count)
        s += polyline(idx.map { (b.px(errs[$0]), b.py(Double($0 + 1) / Double(errs.count))) }, color: "#1f77b4", width: 2)
        for (p, v, c) in [(0.5, r.horizontal.p50, "#2ca02c"), (0.95, r.horizontal.p95, "#d62728")] where v.isFinite {
            s += "<line x1=\"\(b.px(v))\" x2=\"\(b.px(v))\" y1=\"\(b.y)\" y2=\"\(b.y + b.h)\" stroke=\"\(c)\" stroke-dasharray=\"4 3\"/>\n"
            s += "<text x=\"\(b.px(v) + 4)\" y=\"\(b.py(p) - 4)\" fill=\"\(c)\">p\(Int(p * 100)) = \(String(format: "%.2f", v)) m</text>\n"
        }
        return s
    }

    static func timePanel(_ r: TrackAccuracy, y0: Double) -> String {
        let t0 = r.epochs.first?.time ?? 0
        let t1 = max(r.epochs.last?.time ?? 1, t0 + 1)
        let hs = r.epochs.map(\.horizontal)
        let vs = r.epochs.map { $0.up.map(abs) ?? .nan }
        let yMax = max(hs.max() ?? 1, vs.filter(\.isFinite).max() ?? 0, 1e-3)
        let b = Box(x: 80, y: y0 + 30, w: width - 120, h: panelHeight - 90, xMin: 0, xMax: t1 - t0, yMin: 0, yMax: yMax)
        var s = frame(b, title: "Error over time (blue: horizontal, orange: |vertical|)", xLabel: "seconds since \(ByteParsing.iso8601String(t0, fractionDigits: 0))", yLabel: "error (m)")
        let idx = thin(r.epochs.count)
        s += polyline(idx.map { (b.px(r.epochs[$0].time - t0), b.py(hs[$0])) }, color: "#1f77b4")
        s += polyline(idx.filter { vs[$0].isFinite }.map { (b.px(r.epochs[$0].time - t0), b.py(vs[$0])) }, color: "#ff7f0e")
        return s
    }

    static func mapPanel(_ r: TrackAccuracy, _ ref: ReferenceTrack, y0: Double) -> String {
        guard let first = r.epochs.first,
              let frame0 = try? LocalTangentFrame(origin: GeodeticCoordinate(latitude: first.referenceLatitude, longitude: first.referenceLongitude, ellipsoidalHeight: 0)) else {
            return "<text x=\"80\" y=\"\(y0 + 40)\">no matched epochs: no map</text>\n"
        }
        let tr = r.epochs.map { frame0.enu(latitude: $0.latitude, longitude: $0.longitude, ellipsoidalHeight: 0) }
        // Truth over the matched time span.
        let tA = first.time, tB = r.epochs.last!.time
        var truth: [ENUVector] = []
        for i in thin(ref.count, 20_000) where ref.times[i] >= tA - 1 && ref.times[i] <= tB + 1 {
            truth.append(frame0.enu(latitude: ref.latitudes[i], longitude: ref.longitudes[i], ellipsoidalHeight: 0))
        }
        let all = tr + truth
        var eMin = all.map(\.east).min()!, eMax = all.map(\.east).max()!
        var nMin = all.map(\.north).min()!, nMax = all.map(\.north).max()!
        // Equal scale on both axes.
        let bw = width - 120, bh = panelHeight - 90
        let scale = max((eMax - eMin) / bw, (nMax - nMin) / bh, 1e-6)
        let ec = (eMin + eMax) / 2, nc = (nMin + nMax) / 2
        eMin = ec - scale * bw / 2; eMax = ec + scale * bw / 2
        nMin = nc - scale * bh / 2; nMax = nc + scale * bh / 2
        let b = Box(x: 80, y: y0 + 30, w: bw, h: bh, xMin: eMin, xMax: eMax, yMin: nMin, yMax: nMax)
        var s = frame(b, title: "Map, meters east/north of the first truth point (black: truth, red: trace)", xLabel: "east (m)", yLabel: "north (m)")
        s += polyline(truth.map { (b.px($0.east), b.py($0.north)) }, color: "#000", width: 1.5)
        let idx = thin(tr.count)
        s += polyline(idx.map { (b.px(tr[$0].east), b.py(tr[$0].north)) }, color: "#d62728", width: 1)
        return s
    }
}
