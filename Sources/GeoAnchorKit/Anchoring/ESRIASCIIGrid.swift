import Foundation

/// A digital elevation model in ESRI ASCII grid format (`.asc`), geographic coordinates.
///
/// Header keywords (case-insensitive, any order, one per line): `ncols`, `nrows`,
/// `xllcorner`|`xllcenter`, `yllcorner`|`yllcenter`, `cellsize`, optional `NODATA_value`
/// (default −9999); then `nrows` rows of `ncols` heights, north row first (values may wrap across
/// lines). x is longitude and y latitude, in degrees (WGS84): projected grids need a CRS
/// transform first (GeoAnchorKitPROJ), which the pure-Swift core does not do.
///
/// Heights are interpolated bilinearly between cell centres. Between the outermost cell centres
/// and the grid's outer edge (half a cell) the edge values are extended. A point outside the grid
/// or whose interpolation touches a `NODATA` cell throws
/// ``GeoAnchorError/outsideCoverage(latitude:longitude:what:)``.
///
/// *Accuracy*: bilinear interpolation reproduces any plane exactly (checked in
/// ESRIASCIIGridTests against a hand-written planar grid, 1e-9 m); the DEM's own error is the
/// data's.
public struct ESRIASCIIGrid: TerrainModel, Sendable, Hashable {
    /// Number of columns (west → east) and rows (north → south).
    public let columns: Int, rows: Int
    /// Longitude of the centre of the south-west cell, degrees.
    public let westCentre: Double
    /// Latitude of the centre of the south-west cell, degrees.
    public let southCentre: Double
    /// Cell size in degrees.
    public let cellSize: Double
    /// The no-data marker of the file.
    public let noDataValue: Double
    /// Datum of the heights (default MSL).
    public let verticalReference: VerticalReference
    /// Heights, row-major, row 0 = southernmost row (flipped from the file's order).
    @usableFromInline let heights: [Double]
    /// Name used in error messages (file path or label).
    public let name: String

    /// Reads a grid file.
    /// - Throws: ``GeoAnchorError/fileNotFound(path:)``, ``GeoAnchorError/corruptFile(path:reason:)``
    ///   naming the line.
    public init(contentsOf url: URL, verticalReference: VerticalReference = .meanSeaLevel) throws(GeoAnchorError) {
        guard let data = FileManager.default.contents(atPath: url.path) else { throw .fileNotFound(path: url.path) }
        guard let text = String(data: data, encoding: .utf8) else {
            throw .corruptFile(path: url.path, reason: "not UTF-8 text")
        }
        try self.init(text: text, name: url.path, verticalReference: verticalReference)
    }

    /// Parses grid text.
    /// - Throws: ``GeoAnchorError/corruptFile(path:reason:)`` with `name` as the path and the
    ///   offending line in the reason.
    public init(text: String, name: String = "<grid>", verticalReference: VerticalReference = .meanSeaLevel) throws(GeoAnchorError) {
        var header: [String: (Double, Int)] = [:]
        var values: [Double] = []
        var lineNo = 0
        var inData = false
        let known: Set<String> = ["ncols", "nrows", "xllcorner", "xllcenter", "yllcorner", "yllcenter", "cellsize", "nodata_value"]
        for raw in text.split(separator: "\n", omittingEmptySubsequences: false) {
            lineNo += 1
            let tokens = raw.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" || $0 == "," })
            if tokens.isEmpty { continue }
            if !inData, let first = tokens.first, first.first.map({ $0.isLetter }) == true {
                let key = first.lowercased()
                guard known.contains(key) else {
                    throw .corruptFile(path: name, reason: "line \(lineNo): unknown header keyword '\(first)'")
                }
                guard tokens.count == 2, let v = Double(tokens[1]), v.isFinite else {
                    throw .corruptFile(path: name, reason: "line \(lineNo): expected '\(first) NUMBER'")
                }
                header[key] = (v, lineNo)
                continue
            }
            inData = true
            for t in tokens {
                guard let v = Double(t), !v.isNaN else {
                    throw .corruptFile(path: name, reason: "line \(lineNo): '\(t)' is not a number")
                }
                values.append(v)
            }
        }
        func need(_ k: String) throws(GeoAnchorError) -> Double {
            guard let v = header[k]?.0 else { throw .corruptFile(path: name, reason: "header keyword '\(k)' missing") }
            return v
        }
        let nc = try need("ncols"), nr = try need("nrows"), cs = try need("cellsize")
        guard nc >= 1, nr >= 1, nc == nc.rounded(), nr == nr.rounded(), nc * nr <= 1e9 else {
            throw .corruptFile(path: name, reason: "ncols/nrows must be positive integers, got \(nc) × \(nr)")
        }
        guard cs > 0 else { throw .corruptFile(path: name, reason: "cellsize must be > 0, got \(cs)") }
        let x0: Double, y0: Double
        if let c = header["xllcenter"]?.0 { x0 = c } else { x0 = try need("xllcorner") + cs / 2 }
        if let c = header["yllcenter"]?.0 { y0 = c } else { y0 = try need("yllcorner") + cs / 2 }
        let ncols = Int(nc), nrows = Int(nr)
        guard values.count == ncols * nrows else {
            throw .corruptFile(path: name, reason: "expected \(ncols * nrows) heights (ncols × nrows), found \(values.count) (line \(lineNo))")
        }
        guard y0 - cs / 2 >= -90 - 1e-9, y0 + (Double(nrows) - 0.5) * cs <= 90 + 1e-9 else {
            throw .corruptFile(path: name, reason: "grid latitudes exceed [-90, 90]: not a geographic grid")
        }
        // File order is north row first; store south row first.
        var flipped = [Double](repeating: 0, count: values.count)
        for r in 0..<nrows {
            let src = (nrows - 1 - r) * ncols
            for c in 0..<ncols { flipped[r * ncols + c] = values[src + c] }
        }
        self.columns = ncols; self.rows = nrows
        self.westCentre = x0; self.southCentre = y0; self.cellSize = cs
        self.noDataValue = header["nodata_value"]?.0 ?? -9999
        self.heights = flipped
        self.name = name
        self.verticalReference = verticalReference
    }

    /// Bilinear terrain height in meters above ``verticalReference``.
    /// - Parameters: latitude, longitude in degrees; the longitude is wrapped into the grid's
    ///   range when it is off by a multiple of 360°.
    /// - Throws: ``GeoAnchorError/outsideCoverage(latitude:longitude:what:)`` outside the grid or
    ///   next to `NODATA`; ``GeoAnchorError/invalidLatitude(_:)``/``GeoAnchorError/invalidLongitude(_:)``.
    public func terrainHeight(latitude: Double, longitude: Double) throws(GeoAnchorError) -> Double {
        guard latitude.isFinite, Swift.abs(latitude) <= 90 else { throw .invalidLatitude(latitude) }
        guard longitude.isFinite else { throw .invalidLongitude(longitude) }
        var lon = longitude
        let west = westCentre - cellSize / 2
        if lon < west { lon += 360 * ((west - lon) / 360).rounded(.up) }
        if lon - 360 >= west { lon -= 360 * ((lon - west) / 360).rounded(.down) }
        // Fractional cell-centre coordinates.
        let fx = (lon - westCentre) / cellSize, fy = (latitude - southCentre) / cellSize
        let maxX = Double(columns - 1), maxY = Double(rows - 1)
        guard fx >= -0.5, fx <= maxX + 0.5, fy >= -0.5, fy <= maxY + 0.5 else {
            throw .outsideCoverage(latitude: latitude, longitude: longitude, what: "DEM \(name)")
        }
        // Half-cell border: extend the edge values (clamp to the outermost centres).
        let cx = Swift.min(Swift.max(fx, 0), maxX), cy = Swift.min(Swift.max(fy, 0), maxY)
        let c0 = Swift.min(Int(cx), Swift.max(columns - 2, 0)), r0 = Swift.min(Int(cy), Swift.max(rows - 2, 0))
        let c1 = Swift.min(c0 + 1, columns - 1), r1 = Swift.min(r0 + 1, rows - 1)
        let tx = cx - Double(c0), ty = cy - Double(r0)
        var sum = 0.0
        for (r, c, w) in [(r0, c0, (1 - tx) * (1 - ty)), (r0, c1, tx * (1 - ty)),
                          (r1, c0, (1 - tx) * ty), (r1, c1, tx * ty)] where w > 0 {
            let v = heights[r * columns + c]
            guard v != noDataValue, v.isFinite else {
                throw .outsideCoverage(latitude: latitude, longitude: longitude, what: "DEM \(name) (NODATA cell)")
            }
            sum += w * v
        }
        return sum
    }
}
