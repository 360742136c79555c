import Foundation
import GeoAnchorKit
import GeoAnchorKitPROJ

// The Geodesy section's PROJ comparisons: native ENU vs PROJ on trace points (or a deterministic
// set when traces/ has none) and geoid undulations at sample sites, native vs PROJ vgridshift.
extension GeodesyReport {
    static func projComparisons(_ context: ReportContext) throws -> [String] {
        var lines: [String] = []
        // Points: every fix of the traces in traces/ with an ellipsoidal height, else generated.
        var lat = [Double](), lon = [Double](), h = [Double]()
        var source = ""
        let files = (try? FileManager.default.contentsOfDirectory(at: context.tracesDirectory, includingPropertiesForKeys: nil)) ?? []
        var used = 0
        // Fixes whose file states the geoid separation N (raw phone traces): compared with EGM96 below.
        var separations: [(lat: Double, lon: Double, n: Double)] = []
        for url in files.sorted(by: { $0.path < $1.path }) where TraceFormat(pathExtension: url.pathExtension) != nil {
            guard let trace = try? TraceReader.load(url: url) else { continue }
            var any = false
            for f in trace.fixes {
                if let n = f.geoidSeparation { separations.append((f.latitude, f.longitude, n)) }
                guard f.verticalReference == .ellipsoid, let fh = f.height else { continue }
                lat.append(f.latitude); lon.append(f.longitude); h.append(fh)
                any = true
            }
            if any { used += 1 }
        }
        let origin: GeodeticCoordinate
        if !lat.isEmpty {
            origin = GeodeticCoordinate(latitude: lat[0], longitude: lon[0], ellipsoidalHeight: h[0])
            source = "\(lat.count) fixes of \(used) trace(s) in \(context.tracesDirectory.lastPathComponent)/, origin = first fix"
        } else {
            origin = GeodeticCoordinate(latitude: 49.96, longitude: 14.39, ellipsoidalHeight: 350)
            let p = PerfPoints.local(count: 200_000, around: origin, radius: 100_000, seed: 7)
            (lat, lon, h) = (p.lat, p.lon, p.h)
            source = "no traces with ellipsoidal heights yet: 200,000 generated points ≤ 100 km from Závist (seed 7)"
        }
        context.progress("Geodesy: native vs PROJ ENU")
        let (fwd, inv) = try PerfPoints.enu(origin: origin, points: (lat, lon, h), repeats: 3)
        lines.append("  native ENU vs PROJ (unitconvert+cart+topocentric, proj_trans_generic) on \(source):")
        lines.append(String(format: "    forward: max |Δ| = %.2e m; %.2e points/s native, %.2e PROJ (%.1f×)",
                            fwd.maxDifference, fwd.nativePerSecond, fwd.projPerSecond, fwd.nativePerSecond / fwd.projPerSecond))
        lines.append(String(format: "    inverse: max |Δ| = %.2e m; %.2e points/s native, %.2e PROJ (%.1f×)",
                            inv.maxDifference, inv.nativePerSecond, inv.projPerSecond, inv.nativePerSecond / inv.projPerSecond))

        context.progress("Geodesy: geoid")
        let grid: GeoidGrid
        do { grid = try GeoidGrid() } catch {
            lines.append("  geoid: \(error) (install proj-data)")
            return lines
        }
        let proj = try ProjTransformer.verticalGridShift(gridPath: grid.path)
        lines.append("  geoid undulation N (EGM96 15′, \(grid.path)), h = H + N:")
        for (name, la, lo) in [("Závist", 49.96, 14.39), ("Mountain View", 37.4235760, -122.0941320),
                               ("Longyearbyen", 78.223172, 15.626723), ("Fiji, antimeridian", -17.0, 179.999)] {
            let bilinear = try grid.undulation(latitude: la, longitude: lo)
            let bicubic = try grid.undulation(latitude: la, longitude: lo, interpolation: .bicubic)
            let p = try proj.transform(x: lo, y: la, z: 0)
            let site = name.padding(toLength: 19, withPad: " ", startingAt: 0)
            lines.append(String(format: "    %@ %8.4f°, %9.4f°: bilinear %8.4f m, bicubic %8.4f m, PROJ vgridshift %8.4f m (Δ %.1e m)",
                                site as NSString, la, lo, bilinear, bicubic, p.z, abs(bilinear - p.z)))
        }
        if !separations.isEmpty {
            var sum = 0.0, worst = 0.0
            for p in separations {
                let d = try grid.undulation(latitude: p.lat, longitude: p.lon) - p.n
                sum += d
                worst = max(worst, abs(d))
            }
            lines.append(String(format: "    traces' stated geoid separation vs EGM96 at %d fixes: mean (EGM96 − stated) %+.3f m, max |Δ| %.3f m",
                                separations.count, sum / Double(separations.count), worst))
        }
        let g = try PerfPoints.geoid(grid, count: 200_000, repeats: 3)
        lines.append(String(format: "    200,000 global points (Halton, uniform on the sphere): max |native − PROJ| = %.2e m; %.2e points/s native, %.2e PROJ (%.1f×)",
                            g.maxDifference, g.nativePerSecond, g.projPerSecond, g.nativePerSecond / g.projPerSecond))
        return lines
    }
}
