import Foundation

/// A digital elevation model in ESRI ASCII grid format (`.asc`), geographic coordinates.
///
/// Header keywords (case-insensitive, any order, one per line): `ncols`, `nrows`,
/// `xllcorner`|`xllcenter`, `yllcorner`|`yllcenter`, `cellsize`, optional `NODATA_value`
/// (default −9999); then `nrows` rows of `ncols` heights, north row first (values may wrap across
/// lines). x is longitude and y latitude, in degrees (WGS84): projected grids need a CRS
/// transform first (GeoAnchorKitPROJ), which the pure-Swift core does not do.
///
/// Heights are interpolated bilinearly between cell centres (``ElevationGrid``, which reads this
/// format too, and GeoTIFF and SRTM tiles). Between the outermost cell centres and the grid's
/// outer edge (half a cell) the edge values are extended. A point outside the grid or whose
/// interpolation touches a `NODATA` cell throws
/// ``GeoAnchorError/outsideCoverage(latitude:longitude:what:)``.
///
/// *Accuracy*: bilinear interpolation reproduces any plane exactly (checked in
/// ESRIASCIIGridTests against a hand-written planar grid, 1e-9 m); the DEM's own error is the
/// data's.
public struct ESRIASCIIGrid: TerrainModel, Sendable, Hashable {
    /// The grid (its heights and interpolation).
    public let grid: ElevationGrid
    /// Number of columns (west → east) and rows (north → south).
    public var columns: Int { grid.columns }
    public var rows: Int { grid.rows }
    /// Longitude of the centre of the south-west cell, degrees.
    public var westCentre: Double { grid.westCentre }
    /// Latitude of the centre of the south-west cell, degrees.
    public var southCentre: Double { grid.southCentre }
    /// Cell size in degrees.
    public var cellSize: Double { grid.latitudeSpacing }
    /// The no-data marker of the file.
    public var noDataValue: Double { grid.noDataValue ?? -9999 }
    /// Datum of the heights (default MSL).
    public var verticalReference: VerticalReference { grid.verticalReference }
    /// Name used in error messages (file path or label).
    public var name: String { grid.name }

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
        grid = try ElevationGrid(columns: ncols, rows: nrows, westCentre: x0, southCentre: y0,
                                 longitudeSpacing: cs, latitudeSpacing: cs, heightsNorthRowFirst: values,
                                 noDataValue: header["nodata_value"]?.0 ?? -9999, verticalReference: verticalReference,
                                 format: .esriASCII, name: name)
    }

    /// Bilinear terrain height in meters above ``verticalReference`` (``ElevationGrid/terrainHeight(latitude:longitude:)``).
    public func terrainHeight(latitude: Double, longitude: Double) throws(GeoAnchorError) -> Double {
        try grid.terrainHeight(latitude: latitude, longitude: longitude)
    }
}
