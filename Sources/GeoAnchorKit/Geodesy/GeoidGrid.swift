import Foundation

/// A geoid model as a regular latitude/longitude grid of undulations *N* (meters, geoid height
/// above the ellipsoid), read natively from the NOAA/NGS GTX format — e.g. EGM96 at 15′
/// (`/usr/share/proj/egm96_15.gtx` from Debian's `proj-data`), the grid PROJ's `vgridshift` uses.
///
/// Heights relate by *h = H + N*: ellipsoidal height *h* (GNSS, ARCore) = orthometric height
/// *H* (mean sea level, CoreLocation's `altitude`) + undulation *N*. See
/// ``undulation(latitude:longitude:interpolation:)`` and ``converting(_:to:interpolation:)``.
///
/// The whole grid is held in memory as `Float32` (4 MB for EGM96 15′), so lookups cost a few
/// nanoseconds and a value can be shared freely between threads (`Sendable`; copies share
/// storage).
///
/// **GTX layout** (big-endian): a 40-byte header — latitude and longitude of the lower-left
/// node, latitude and longitude spacing (four `Float64`, degrees), rows and columns (two
/// `Int32`) — then `rows × columns` `Float32` values, row by row from south to north, each row
/// from west to east. `-88.8888` marks "no data". As in PROJ, a lower-left longitude ≥ 180° is
/// moved to [−180°, 180°), and a grid spanning 360° of longitude wraps around the antimeridian.
///
/// - Accuracy: bilinear values equal PROJ 9's `vgridshift` on the same grid to ≤ 1 mm (the
///   tests find ≤ 1e-9 m on random points, poles and ±180° included); this is the accuracy of
///   *reading the model*, not of the model (EGM96 itself: ~0.5–1 m globally).
public struct GeoidGrid: Sendable {
    /// Where Debian/Ubuntu's `proj-data` installs the EGM96 15′ grid.
    public static let defaultPath = "/usr/share/proj/egm96_15.gtx"
    /// The value GTX files use for "no data" (PROJ also treats |value| > 1000 m as no data).
    public static let noDataValue: Float = -88.8888

    /// The file the grid was read from (used in error messages).
    public let path: String
    /// Latitude of the southernmost row, degrees.
    public let southLatitude: Double
    /// Longitude of the westernmost column, degrees, in [−180°, 180°).
    public let westLongitude: Double
    /// Row spacing in degrees (> 0).
    public let latitudeSpacing: Double
    /// Column spacing in degrees (> 0).
    public let longitudeSpacing: Double
    /// Number of rows (latitudes), ≥ 1.
    public let rows: Int
    /// Number of columns (longitudes), ≥ 1.
    public let columns: Int
    /// Whether the columns span the whole circle of longitude, so interpolation wraps from the
    /// last column to the first (PROJ's rule: `columns × spacing ≥ 360° − 1e-10`).
    public let wrapsLongitude: Bool

    /// Latitude of the northernmost row, degrees.
    public var northLatitude: Double { southLatitude + Double(rows - 1) * latitudeSpacing }
    /// Longitude of the easternmost column, degrees.
    public var eastLongitude: Double { westLongitude + Double(columns - 1) * longitudeSpacing }

    /// Node values, row-major from the south-west corner, meters.
    @usableFromInline let values: [Float]
    /// Whether any node holds "no data" (EGM96 has none; then interpolation skips the checks).
    @usableFromInline let hasNoData: Bool
    @usableFromInline let inverseLatitudeSpacing: Double
    @usableFromInline let inverseLongitudeSpacing: Double

    /// Reads a GTX grid file.
    /// - Parameter path: file path; defaults to ``defaultPath``.
    /// - Throws: ``GeoAnchorError/fileNotFound(path:)`` if it cannot be read;
    ///   ``GeoAnchorError/corruptFile(path:reason:)`` (naming the path) if the header is
    ///   implausible or the size does not match rows × columns.
    public init(path: String = GeoidGrid.defaultPath) throws(GeoAnchorError) {
        guard let data = FileManager.default.contents(atPath: path) else { throw .fileNotFound(path: path) }
        try self.init(gtxData: data, path: path)
    }

    /// Parses GTX bytes already in memory; `path` only names them in errors.
    public init(gtxData data: Data, path: String) throws(GeoAnchorError) {
        let headerSize = 40
        guard data.count >= headerSize else {
            throw .corruptFile(path: path, reason: "\(data.count) bytes, shorter than the 40-byte GTX header")
        }
        let header: (Double, Double, Double, Double, Int32, Int32) = data.withUnsafeBytes { raw in
            func f64(_ o: Int) -> Double { Double(bitPattern: UInt64(bigEndian: raw.loadUnaligned(fromByteOffset: o, as: UInt64.self))) }
            func i32(_ o: Int) -> Int32 { Int32(bigEndian: raw.loadUnaligned(fromByteOffset: o, as: Int32.self)) }
            return (f64(0), f64(8), f64(16), f64(24), i32(32), i32(36))
        }
        let (south, west0, dlat, dlon, rowCount, columnCount) = header
        guard south.isFinite, south >= -90, south <= 90, west0.isFinite, west0 >= -360, west0 <= 360 else {
            throw .corruptFile(path: path, reason: "implausible lower-left corner (\(south), \(west0))")
        }
        guard dlat.isFinite, dlat > 0, dlon.isFinite, dlon > 0 else {
            throw .corruptFile(path: path, reason: "implausible spacing (\(dlat), \(dlon)) degrees")
        }
        guard rowCount > 0, columnCount > 0 else {
            throw .corruptFile(path: path, reason: "implausible size \(rowCount) rows × \(columnCount) columns")
        }
        // rows × columns × 4 overflows Int for a header claiming 2³¹ × 2³¹ cells: compare against
        // the bytes actually present before anything is allocated.
        guard let n = Int.checkedProduct(Int(rowCount), Int(columnCount)),
              let bytes = Int.checkedProduct(n, 4), let expected = Int.checkedSum(headerSize, bytes) else {
            throw .corruptFile(path: path, reason: "\(data.count) bytes, but the header claims \(rowCount) rows × \(columnCount) columns (truncated or not GTX)")
        }
        guard data.count == expected else {
            throw .corruptFile(path: path, reason: "\(data.count) bytes, expected \(expected) for \(rowCount) rows × \(columnCount) columns (truncated or not GTX)")
        }
        guard south + Double(rowCount - 1) * dlat <= 90 + 1e-9 else {
            throw .corruptFile(path: path, reason: "rows reach beyond 90° latitude")
        }
        var vals = [Float](repeating: 0, count: n)
        vals.withUnsafeMutableBufferPointer { out in
            data.withUnsafeBytes { raw in
                for i in 0..<n {
                    out[i] = Float(bitPattern: UInt32(bigEndian: raw.loadUnaligned(fromByteOffset: headerSize + 4 * i, as: UInt32.self)))
                }
            }
        }
        self.path = path
        self.southLatitude = south
        // As PROJ: some GTX files use 0…360; move the origin back to [−180, 180).
        self.westLongitude = west0 >= 180 ? west0 - 360 : west0
        self.latitudeSpacing = dlat
        self.longitudeSpacing = dlon
        self.rows = Int(rowCount)
        self.columns = Int(columnCount)
        self.wrapsLongitude = Double(columnCount) * dlon >= 360 - 1e-10
        self.values = vals
        self.hasNoData = vals.contains(where: Self.isNoData)
        self.inverseLatitudeSpacing = 1 / dlat
        self.inverseLongitudeSpacing = 1 / dlon
    }

    /// The value of node (`row`, `column`) in meters (row 0 is the southernmost), or nil when
    /// the node holds "no data" or is outside the grid.
    public func nodeValue(row: Int, column: Int) -> Float? {
        guard row >= 0, row < rows, column >= 0, column < columns else { return nil }
        let v = values[row * columns + column]
        return Self.isNoData(v) ? nil : v
    }

    /// PROJ's no-data rule for GTX: the official marker, or any |value| > 1000 m.
    @inlinable @inline(__always)
    static func isNoData(_ v: Float) -> Bool {
        !(Swift.abs(v) <= 1000) || v == noDataValue
    }
}
