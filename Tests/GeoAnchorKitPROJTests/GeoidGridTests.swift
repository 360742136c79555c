import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport
import GeoAnchorKitPROJ

/// Native GTX geoid grids: EGM96 15′ against PROJ's `vgridshift` at run time, synthetic grids
/// against closed-form fields, typed errors for missing/corrupt files and bad input.
@Suite("Geoid grid")
struct GeoidGridTests {
    static var egm96Available: Bool {
        FileManager.default.fileExists(atPath: GeoidGrid.defaultPath) || SharedData.isRequired
    }

    /// Writes a GTX file (big-endian) with `value(row, column)` and returns its path.
    static func writeGTX(south: Double, west: Double, dlat: Double, dlon: Double, rows: Int, columns: Int,
                         value: (Int, Int) -> Float) throws -> String {
        var d = Data()
        for v in [south, west, dlat, dlon] { withUnsafeBytes(of: v.bitPattern.bigEndian) { d.append(contentsOf: $0) } }
        for v in [Int32(rows), Int32(columns)] { withUnsafeBytes(of: v.bigEndian) { d.append(contentsOf: $0) } }
        for r in 0..<rows {
            for c in 0..<columns { withUnsafeBytes(of: value(r, c).bitPattern.bigEndian) { d.append(contentsOf: $0) } }
        }
        let path = FileManager.default.temporaryDirectory
            .appendingPathComponent("geoanchorkit-test-\(UUID().uuidString).gtx").path
        try d.write(to: URL(fileURLWithPath: path))
        return path
    }

    /// Reference: PROJ 9 `vgridshift` (`+multiplier=1`, so forward of height 0 is N) on the same
    /// file, run now: 20,000 random points plus the poles, ±180°, longitudes beyond ±180°, exact
    /// nodes and cell edges. Tolerance: 1 mm (the bound); measured ≤ 1e-9 m.
    @Test(.enabled(if: egm96Available)) func bilinearEqualsPROJVgridshift() throws {
        let grid = try GeoidGrid()
        #expect(grid.rows == 721 && grid.columns == 1440 && grid.wrapsLongitude)
        #expect(grid.southLatitude == -90 && grid.westLongitude == -180 && grid.latitudeSpacing == 0.25)
        var rng = SplitMix64(seed: 42)
        var lat = [Double](), lon = [Double]()
        for _ in 0..<20_000 { lat.append(rng.uniform(-90, 90)); lon.append(rng.uniform(-180, 180)) }
        let special: [(Double, Double)] = [
            (90, 0), (-90, 0), (90, 123.4), (-90, -77.7), (89.9, 179.9), (-89.99, -179.99),
            (0, 180), (0, -180), (12.3, 179.75), (12.3, 179.876), (-45.1, -179.999), (10, 359.9), (10, -359.9),
            (49.96, 14.39), (37.4235760, -122.0941320), (0.25, 0.25), (45, 90), (-0.125, 0.125),
        ]
        for (a, b) in special { lat.append(a); lon.append(b) }
        var native = [Double](repeating: 0, count: lat.count)
        let failures = lat.withUnsafeBufferPointer { la in lon.withUnsafeBufferPointer { lo in
            native.withUnsafeMutableBufferPointer { out in grid.undulations(latitude: la, longitude: lo, undulation: out) }
        } }
        #expect(failures.isEmpty)
        let proj = try ProjTransformer.verticalGridShift(gridPath: GeoidGrid.defaultPath)
        var x = lon, y = lat, z = [Double](repeating: 0, count: lat.count)
        let projFailures = x.withUnsafeMutableBufferPointer { bx in y.withUnsafeMutableBufferPointer { by in
            z.withUnsafeMutableBufferPointer { bz in proj.transform(x: bx, y: by, z: bz) }
        } }
        #expect(projFailures.isEmpty)
        var worst = 0.0
        for i in lat.indices {
            let d = abs(native[i] - z[i])
            worst = max(worst, d)
            #expect(d <= 1e-3, "(\(lat[i]), \(lon[i])): native \(native[i]) vs PROJ \(z[i])")
            // The batch path equals the scalar path bit for bit.
            #expect(try grid.undulation(latitude: lat[i], longitude: lon[i]) == native[i])
        }
        #expect(worst <= 1e-6, "worst |native − PROJ| = \(worst) m")
    }

    /// Reference: closed-form fields on synthetic grids. Bilinear reproduces any field
    /// a + bx + cy + dxy exactly; Keys' bicubic reproduces polynomials up to degree 2 (Keys 1981).
    /// Node values are small integers (exact in Float32). Tolerance 1e-9 m (rounding only).
    @Test func interpolationReproducesPolynomials() throws {
        // x = column, y = row in grid units; the grid spans 10°–15°E, 40°–44°N at 0.25°.
        func bilinearField(_ x: Double, _ y: Double) -> Double { 3 + 2 * x - y + 0.5 * x * y }
        func quadratic(_ x: Double, _ y: Double) -> Double { x * x - 0.5 * x * y + 2 * y * y - 3 * x + y - 7 }
        let rows = 17, cols = 21
        let p1 = try Self.writeGTX(south: 40, west: 10, dlat: 0.25, dlon: 0.25, rows: rows, columns: cols) {
            Float(bilinearField(Double($1), Double($0)))
        }
        let p2 = try Self.writeGTX(south: 40, west: 10, dlat: 0.25, dlon: 0.25, rows: rows, columns: cols) {
            Float(quadratic(Double($1), Double($0)))
        }
        defer { try? FileManager.default.removeItem(atPath: p1); try? FileManager.default.removeItem(atPath: p2) }
        let g1 = try GeoidGrid(path: p1), g2 = try GeoidGrid(path: p2)
        #expect(!g1.wrapsLongitude)
        var rng = SplitMix64(seed: 1)
        for _ in 0..<500 {
            let x = rng.uniform(0, Double(cols - 1)), y = rng.uniform(0, Double(rows - 1))
            let lat = 40 + y * 0.25, lon = 10 + x * 0.25
            #expect(abs(try g1.undulation(latitude: lat, longitude: lon) - bilinearField(x, y)) <= 1e-9)
            // Interior only: at the edges the bicubic repeats edge nodes (not polynomial there).
            if x >= 1, x <= Double(cols - 2), y >= 1, y <= Double(rows - 2) {
                let b = try g2.undulation(latitude: lat, longitude: lon, interpolation: .bicubic)
                #expect(abs(b - quadratic(x, y)) <= 1e-9, "(\(x), \(y)): \(b) vs \(quadratic(x, y))")
            }
        }
        // Both interpolations return node values exactly at nodes.
        for (r, c) in [(0, 0), (5, 7), (16, 20), (8, 0)] {
            let lat = 40 + Double(r) * 0.25, lon = 10 + Double(c) * 0.25
            #expect(try g2.undulation(latitude: lat, longitude: lon) == quadratic(Double(c), Double(r)))
            #expect(try g2.undulation(latitude: lat, longitude: lon, interpolation: .bicubic) == quadratic(Double(c), Double(r)))
        }
        // Regional grid: outside coverage is a typed error naming the grid.
        #expect {
            try g1.undulation(latitude: 50, longitude: 12)
        } throws: { e in
            guard case .outsideCoverage(let la, let lo, let what) = e as? GeoAnchorError else { return false }
            return la == 50 && lo == 12 && what.contains(p1)
        }
    }

    /// Reference: bilinear (= PROJ) on EGM96. Bicubic must agree with it to within the model's
    /// interpolation uncertainty at 15′ (|Δ| ≤ 0.5 m everywhere sampled; measured RMS a few cm),
    /// equal node values at nodes, and be continuous across the antimeridian and single-valued at
    /// the poles (pole reflection).
    @Test(.enabled(if: egm96Available)) func bicubicOnEGM96() throws {
        let grid = try GeoidGrid()
        var rng = SplitMix64(seed: 9)
        var sumSq = 0.0
        let n = 5_000
        for _ in 0..<n {
            let lat = rng.uniform(-90, 90), lon = rng.uniform(-180, 180)
            let d = try grid.undulation(latitude: lat, longitude: lon, interpolation: .bicubic)
                - grid.undulation(latitude: lat, longitude: lon)
            #expect(abs(d) <= 0.5, "(\(lat), \(lon)): bicubic − bilinear = \(d)")
            sumSq += d * d
        }
        #expect((sumSq / Double(n)).squareRoot() <= 0.05)
        let node = try #require(grid.nodeValue(row: 400, column: 800))
        #expect(try grid.undulation(latitude: -90 + 400 * 0.25, longitude: -180 + 800 * 0.25, interpolation: .bicubic) == Double(node))
        let east = try grid.undulation(latitude: 20.1, longitude: 179.999_999, interpolation: .bicubic)
        let west = try grid.undulation(latitude: 20.1, longitude: -179.999_999, interpolation: .bicubic)
        #expect(abs(east - west) <= 1e-4)
        let poles = try [0.0, 90, 180, -45].map { try grid.undulation(latitude: 90, longitude: $0, interpolation: .bicubic) }
        #expect(poles.allSatisfy { abs($0 - poles[0]) <= 1e-6 })
    }

    /// h = H + N: the sign convention checked against PROJ (vgridshift forward with
    /// `+multiplier=1` maps an orthometric height to an ellipsoidal one); conversions round-trip
    /// exactly up to 1 ulp.
    @Test(.enabled(if: egm96Available)) func heightConversions() throws {
        let grid = try GeoidGrid()
        let proj = try ProjTransformer.verticalGridShift(gridPath: GeoidGrid.defaultPath)
        let msl = GeodeticCoordinate(latitude: 49.96, longitude: 14.39, altitude: 300)
        let ell = try grid.converting(msl, to: .ellipsoid)
        #expect(ell.verticalReference == .ellipsoid)
        let p = try proj.transform(x: 14.39, y: 49.96, z: 300)
        #expect(abs(ell.height - p.z) <= 1e-6, "\(ell.height) vs PROJ \(p.z)")
        let back = try grid.converting(ell, to: .meanSeaLevel)
        #expect(abs(back.height - 300) <= 1e-12 && back.verticalReference == .meanSeaLevel)
        #expect(try grid.converting(msl, to: .meanSeaLevel) == msl)
        let h = try grid.ellipsoidalHeight(latitude: 49.96, longitude: 14.39, altitude: 300)
        #expect(h == ell.height)
        #expect(try grid.altitude(latitude: 49.96, longitude: 14.39, ellipsoidalHeight: h) == back.height)
    }

    /// Bad input and bad files: typed errors naming the value or the path; nothing crashes.
    @Test func typedErrors() throws {
        let missing = "/nonexistent/geoanchorkit/egm.gtx"
        #expect(throws: GeoAnchorError.fileNotFound(path: missing)) { try GeoidGrid(path: missing) }

        // A truncated copy of a valid grid.
        let good = try Self.writeGTX(south: 0, west: 0, dlat: 1, dlon: 1, rows: 3, columns: 4) { Float($0 + $1) }
        defer { try? FileManager.default.removeItem(atPath: good) }
        let truncated = good + ".truncated.gtx"
        let bytes = try Data(contentsOf: URL(fileURLWithPath: good))
        try bytes.prefix(bytes.count - 6).write(to: URL(fileURLWithPath: truncated))
        defer { try? FileManager.default.removeItem(atPath: truncated) }
        #expect {
            try GeoidGrid(path: truncated)
        } throws: { e in
            guard case .corruptFile(let p, let reason) = e as? GeoAnchorError else { return false }
            return p == truncated && reason.contains("expected 88")
        }
        let tiny = good + ".tiny.gtx"
        try Data([1, 2, 3]).write(to: URL(fileURLWithPath: tiny))
        defer { try? FileManager.default.removeItem(atPath: tiny) }
        #expect {
            try GeoidGrid(path: tiny)
        } throws: { e in
            if case .corruptFile(let p, _) = e as? GeoAnchorError { return p == tiny }
            return false
        }
        // Garbage header (NaN spacing).
        let bad = try Self.writeGTX(south: 0, west: 0, dlat: .nan, dlon: 1, rows: 1, columns: 1) { _, _ in 0 }
        defer { try? FileManager.default.removeItem(atPath: bad) }
        #expect {
            try GeoidGrid(path: bad)
        } throws: { e in
            if case .corruptFile(let p, _) = e as? GeoAnchorError { return p == bad }
            return false
        }

        let grid = try GeoidGrid(path: good)
        #expect(throws: GeoAnchorError.invalidLatitude(91)) { try grid.undulation(latitude: 91, longitude: 0) }
        #expect(throws: GeoAnchorError.invalidLongitude(.infinity)) { try grid.undulation(latitude: 1, longitude: .infinity) }
        #expect {
            try grid.undulation(latitude: .nan, longitude: 0)
        } throws: { e in
            if case .invalidLatitude(let v) = e as? GeoAnchorError { return v.isNaN }
            return false
        }
        // Batch: failed indices reported, outputs NaN, others computed.
        let la = [1.0, 91, 1.5, .nan, 30], lo = [1.0, 1, 2.5, 1, 1]
        var out = [Double](repeating: 0, count: 5)
        let f = la.withUnsafeBufferPointer { a in lo.withUnsafeBufferPointer { b in
            out.withUnsafeMutableBufferPointer { o in grid.undulations(latitude: a, longitude: b, undulation: o) }
        } }
        #expect(f.map(\.index) == [1, 3, 4])
        #expect(out[0] == 2 && out[2] == 4 && out[1].isNaN && out[3].isNaN && out[4].isNaN)
    }

    /// No-data nodes (-88.8888): dropped and the remaining weights renormalized, as PROJ does;
    /// a cell with no data at all is an out-of-coverage error. Reference: hand computation.
    @Test func noDataHandling() throws {
        let p = try Self.writeGTX(south: 0, west: 0, dlat: 1, dlon: 1, rows: 2, columns: 4) { r, c in
            c >= 2 ? GeoidGrid.noDataValue : (r == 0 && c == 1 ? GeoidGrid.noDataValue : Float(10 * r + c))
        }
        defer { try? FileManager.default.removeItem(atPath: p) }
        let g = try GeoidGrid(path: p)
        // Cell (0,0): nodes a=0 (0,0), b=nodata (0,1), c=10 (1,0), d=11 (1,1); at fx=fy=0.5 the
        // weights are ¼ each; without b: (0 + 10 + 11)/3 = 7.
        #expect(abs(try g.undulation(latitude: 0.5, longitude: 0.5) - 7) <= 1e-12)
        // Cell (0,1) has one valid node (11 at (1,1)): its value, whatever the weights.
        #expect(try g.undulation(latitude: 0.5, longitude: 1.5) == 11)
        // Cell (0,2): no data at all.
        #expect {
            try g.undulation(latitude: 0.5, longitude: 2.5)
        } throws: { e in
            if case .outsideCoverage(_, _, let what) = e as? GeoAnchorError { return what.contains(p) }
            return false
        }
        #expect(g.nodeValue(row: 0, column: 1) == nil && g.nodeValue(row: 1, column: 1) == 11)
    }
}
