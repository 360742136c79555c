import Foundation

/// A digital elevation model on a regular latitude/longitude grid (WGS84), read from the files
/// DEMs come in: GeoTIFF (SRTM, Copernicus DEM, OpenTopography, anything GDAL writes), SRTM
/// `.hgt` tiles, or ESRI ASCII grids (``ESRIASCIIGrid``).
///
/// ``init(contentsOf:verticalReference:)`` tells the format from the content (gzip and single-file
/// ZIP archives are opened first, as `N49E014.SRTMGL1.hgt.zip` arrives; `ARCHIVE.zip/MEMBER`
/// names one file of a larger archive):
/// - **GeoTIFF** (classic TIFF or BigTIFF, either byte order; the first image, not its overviews): one band
///   of 8–64-bit integers or 32/64-bit floats, in strips or tiles, uncompressed, LZW, Deflate or
///   PackBits, with the horizontal (2) or floating-point (3) predictor; georeferenced by
///   `ModelTiepoint` + `ModelPixelScale` or an unrotated `ModelTransformation`, in a geographic
///   WGS84 CRS (EPSG:4326 or 4979) — a projected one (UTM, national grids) is refused by its EPSG
///   code: reproject it first (`gdalwarp -t_srs EPSG:4326`). `RasterPixelIsArea` (default) and
///   `RasterPixelIsPoint` are both honoured, GDAL's `GDAL_NODATA` tag gives the no-data value.
/// - **SRTM HGT** (`N49E014.hgt`: 1201 × 1201 or 3601 × 3601 big-endian 16-bit heights, the
///   south-west corner in the file name, −32768 void).
/// - **ESRI ASCII grid** otherwise (``ESRIASCIIGrid``'s format).
///
/// Heights are interpolated bilinearly between cell centres; between the outermost centres and
/// the grid's outer edge (half a cell) the edge values are extended. A point outside the grid or
/// whose interpolation touches a no-data cell throws
/// ``GeoAnchorError/outsideCoverage(latitude:longitude:what:)``. The heights' datum is the
/// caller's `verticalReference` (most DEMs are MSL: SRTM on EGM96, Copernicus on EGM2008).
///
/// *Cost*: the heights are held as `Double`s (8 bytes a cell: a 3601 × 3601 tile is 104 MB); a
/// 1° Copernicus-style tile (3601², Float32, Deflate + predictor 3, 1024² tiles) reads in 0.44 s
/// (`geobench anchors --dem`, whole process), an SRTM-style Int16 LZW one in 0.29 s (release
/// build, this 2-core VM; GDAL's `gdalinfo -stats` reads the first in 0.43 s).
///
/// *Accuracy*: at cell centres the file's values exactly (checked against GDAL 3.6's
/// `gdallocationinfo` on files GDAL wrote, ElevationGridTests); bilinear interpolation
/// reproduces a plane exactly; the DEM's own error is the data's.
public struct ElevationGrid: TerrainModel, Sendable, Hashable {
    /// The file formats read.
    public enum Format: String, Sendable, Hashable { case geoTIFF = "GeoTIFF", srtmHGT = "SRTM HGT", esriASCII = "ESRI ASCII grid" }

    /// Number of columns (west → east) and rows (north → south).
    public let columns: Int, rows: Int
    /// Longitude of the centre of the south-west cell, degrees.
    public let westCentre: Double
    /// Latitude of the centre of the south-west cell, degrees.
    public let southCentre: Double
    /// Distance between cell centres, degrees of longitude and of latitude (they differ in
    /// Copernicus DEM tiles north of 50°).
    public let longitudeSpacing: Double, latitudeSpacing: Double
    /// The file's no-data value, nil when it declares none (NaN cells are no data too).
    public let noDataValue: Double?
    /// Datum of the heights (default MSL).
    public let verticalReference: VerticalReference
    /// The format the grid was read from.
    public let format: Format
    /// The vertical CRS the file declares, as an EPSG code: a GeoTIFF's `VerticalCSTypeGeoKey`
    /// (5773 EGM96 height, 3855 EGM2008 height — the Copernicus DEM's —, 5703 NAVD88 height, …) or
    /// 4979 for a 3-D WGS84 GeoTIFF (ellipsoidal heights); 5773 for an SRTM tile (EGM96 by its
    /// specification); nil when the file declares none (ESRI ASCII grids). Informative: the
    /// heights are taken in ``verticalReference``; ``verticalDatumNote(for:)`` says when the two
    /// disagree.
    public internal(set) var declaredVerticalCRS: Int? = nil
    /// Heights, row-major, row 0 = southernmost row.
    @usableFromInline let heights: [Double]
    /// Name used in error messages (file path or label).
    public let name: String

    /// Largest grid read (cells): 4·10⁸ (3.2 GB of heights) — a 1° tile at 1" is 1.3·10⁷.
    public static let maximumCells = 400_000_000

    /// A grid from heights in memory, north row first (as files store them).
    /// - Throws: ``GeoAnchorError/corruptFile(path:reason:)`` (with `name`) for a size that does
    ///   not match the heights, non-positive or non-finite spacings, or latitudes beyond ±90°.
    public init(columns: Int, rows: Int, westCentre: Double, southCentre: Double, longitudeSpacing: Double, latitudeSpacing: Double,
                heightsNorthRowFirst values: consuming [Double], noDataValue: Double?, verticalReference: VerticalReference = .meanSeaLevel,
                format: Format = .esriASCII, name: String) throws(GeoAnchorError) {
        guard columns >= 1, rows >= 1, columns <= Self.maximumCells / rows else {
            throw .corruptFile(path: name, reason: "grid of \(columns) × \(rows) cells (at most \(Self.maximumCells) cells)")
        }
        guard values.count == columns * rows else {
            throw .corruptFile(path: name, reason: "expected \(columns * rows) heights (\(columns) × \(rows)), found \(values.count)")
        }
        guard longitudeSpacing.isFinite, latitudeSpacing.isFinite, longitudeSpacing > 0, latitudeSpacing > 0,
              westCentre.isFinite, southCentre.isFinite else {
            throw .corruptFile(path: name, reason: "cell spacing \(longitudeSpacing)° × \(latitudeSpacing)° from \(westCentre)°, \(southCentre)° is not a grid")
        }
        guard southCentre - latitudeSpacing / 2 >= -90 - 1e-9, southCentre + (Double(rows) - 0.5) * latitudeSpacing <= 90 + 1e-9 else {
            throw .corruptFile(path: name, reason: "grid latitudes exceed [-90, 90]: not a geographic grid")
        }
        // Rows swapped in place (south row first), without a second copy of a large grid.
        values.withUnsafeMutableBufferPointer { h in
            for r in 0..<(rows / 2) {
                let a = r * columns, b = (rows - 1 - r) * columns
                for c in 0..<columns { h.swapAt(a + c, b + c) }
            }
        }
        self.columns = columns; self.rows = rows
        self.westCentre = westCentre; self.southCentre = southCentre
        self.longitudeSpacing = longitudeSpacing; self.latitudeSpacing = latitudeSpacing
        self.noDataValue = noDataValue; self.verticalReference = verticalReference
        self.format = format; self.heights = values; self.name = name
    }

    /// Reads a DEM file (GeoTIFF, SRTM HGT or ESRI ASCII grid, by content; gzip/ZIP opened).
    /// - Throws: ``GeoAnchorError/fileNotFound(path:)``, ``GeoAnchorError/corruptFile(path:reason:)``
    ///   naming what is wrong (a TIFF tag, a byte offset, an ASCII grid's line).
    public init(contentsOf url: URL, verticalReference: VerticalReference = .meanSeaLevel) throws(GeoAnchorError) {
        guard FileManager.default.fileExists(atPath: url.path) || ByteLineReader.zipMember(url.path) != nil else {
            throw .fileNotFound(path: url.path)
        }
        let data: Data
        do throws(TraceFormatError) {
            if let d = try ByteLineReader.decompressedContents(of: url) { data = d } else { data = try ByteLineReader.contents(of: url) }
        } catch {
            throw .corruptFile(path: url.path, reason: error.message)
        }
        try self.init(data: data, name: url.path, verticalReference: verticalReference)
    }

    /// Reads DEM bytes in memory (already decompressed); `name` is the file name, which for an
    /// SRTM tile gives its position (`N49E014…`).
    public init(data: Data, name: String, verticalReference: VerticalReference = .meanSeaLevel) throws(GeoAnchorError) {
        let head = [UInt8](data.prefix(4))
        if head == [0x49, 0x49, 0x2A, 0x00] || head == [0x4D, 0x4D, 0x00, 0x2A] || head == [0x49, 0x49, 0x2B, 0x00] || head == [0x4D, 0x4D, 0x00, 0x2B] {
            self = try GeoTIFFReader.grid([UInt8](data), name: name, verticalReference: verticalReference)
        } else if let tile = Self.hgtTile(name: name), let side = [1201, 3601].first(where: { $0 * $0 * 2 == data.count }) {
            let b = [UInt8](data)
            var values = [Double](repeating: 0, count: side * side)
            for k in values.indices { values[k] = Double(Int16(bitPattern: UInt16(b[2 * k]) << 8 | UInt16(b[2 * k + 1]))) }
            try self.init(columns: side, rows: side, westCentre: Double(tile.longitude), southCentre: Double(tile.latitude),
                          longitudeSpacing: 1 / Double(side - 1), latitudeSpacing: 1 / Double(side - 1), heightsNorthRowFirst: consume values,
                          noDataValue: -32768, verticalReference: verticalReference, format: .srtmHGT, name: name)
            declaredVerticalCRS = 5773
        } else {
            guard let text = String(data: data, encoding: .utf8) else {
                throw .corruptFile(path: name, reason: "not a GeoTIFF, an SRTM .hgt tile (N49E014.hgt, 1201² or 3601² heights) or ESRI ASCII grid text")
            }
            self = try ESRIASCIIGrid(text: text, name: name, verticalReference: verticalReference).grid
        }
    }

    /// A sentence for the user when the file's declared vertical CRS and the datum its heights
    /// are taken in disagree (nil when they agree or the file declares none): ellipsoidal heights
    /// (4979) taken as MSL or the reverse, or MSL heights on another geoid than EGM96 (the geoid
    /// ``AnchorEnvironment`` converts MSL with) — EGM2008 and EGM96 differ by up to about a metre.
    public func verticalDatumNote(for reference: VerticalReference) -> String? {
        guard let crs = declaredVerticalCRS else { return nil }
        let names = [5773: "EGM96 height", 3855: "EGM2008 height", 5703: "NAVD88 height", 5714: "mean sea level height", 4979: "WGS 84 ellipsoidal height"]
        let name = "EPSG:\(crs)" + (names[crs].map { " (\($0))" } ?? "")
        switch (reference, crs) {
        case (.meanSeaLevel, 4979):
            return "the file declares ellipsoidal heights (\(name)) but they are taken as MSL: use the ellipsoid datum"
        case (.ellipsoid, let c) where c != 4979:
            return "the file declares \(name) but its heights are taken as ellipsoidal: use the MSL datum (through a geoid)"
        case (.meanSeaLevel, let c) where c != 5773:
            return "the file declares \(name); MSL heights are converted through EGM96, which differs from other geoids and local datums by up to about a metre"
        default:
            return nil
        }
    }

    /// The south-west corner of an SRTM tile from its file name (`N49E014.hgt`, `s01w075.SRTMGL1.hgt.zip`).
    static func hgtTile(name: String) -> (latitude: Int, longitude: Int)? {
        let b = Array(URL(fileURLWithPath: name).lastPathComponent.uppercased().utf8)
        guard b.count >= 7, b[0] == 78 || b[0] == 83, b[3] == 69 || b[3] == 87,
              let lat = Int(String(decoding: b[1...2], as: UTF8.self)), let lon = Int(String(decoding: b[4...6], as: UTF8.self)),
              lat < 90, lon <= 180 else { return nil }
        return (b[0] == 83 ? -lat : lat, b[3] == 87 ? -lon : lon)
    }

    /// Bilinear terrain height in meters above ``verticalReference``.
    /// - Parameters: latitude, longitude in degrees; the longitude is wrapped into the grid's
    ///   range when it is off by a multiple of 360°.
    /// - Throws: ``GeoAnchorError/outsideCoverage(latitude:longitude:what:)`` outside the grid or
    ///   next to no data; ``GeoAnchorError/invalidLatitude(_:)``/``GeoAnchorError/invalidLongitude(_:)``.
    public func terrainHeight(latitude: Double, longitude: Double) throws(GeoAnchorError) -> Double {
        guard latitude.isFinite, Swift.abs(latitude) <= 90 else { throw .invalidLatitude(latitude) }
        guard longitude.isFinite else { throw .invalidLongitude(longitude) }
        var lon = longitude
        let west = westCentre - longitudeSpacing / 2
        if lon < west { lon += 360 * ((west - lon) / 360).rounded(.up) }
        if lon - 360 >= west { lon -= 360 * ((lon - west) / 360).rounded(.down) }
        // Fractional cell-centre coordinates.
        let fx = (lon - westCentre) / longitudeSpacing, fy = (latitude - southCentre) / latitudeSpacing
        let maxX = Double(columns - 1), maxY = Double(rows - 1)
        guard fx >= -0.5, fx <= maxX + 0.5, fy >= -0.5, fy <= maxY + 0.5 else {
            throw .outsideCoverage(latitude: latitude, longitude: longitude, what: "DEM \(name)")
        }
        // Half-cell border: extend the edge values (clamp to the outermost centres).
        // Within a millionth of a cell of a centre (3 mm at 3") the point is on it: its neighbours
        // do not count (a cell beside no-data answers at its centre, as GDAL's lookup does).
        func snapped(_ v: Double) -> Double { Swift.abs(v - v.rounded()) < 1e-6 ? v.rounded() : v }
        let cx = snapped(Swift.min(Swift.max(fx, 0), maxX)), cy = snapped(Swift.min(Swift.max(fy, 0), maxY))
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
