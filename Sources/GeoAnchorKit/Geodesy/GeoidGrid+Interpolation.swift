import Foundation

/// How a ``GeoidGrid`` is interpolated between its nodes.
public enum GeoidInterpolation: String, Sendable, Hashable, CaseIterable, Codable {
    /// Bilinear in the four surrounding nodes — what PROJ's `vgridshift` does (same weights, same
    /// no-data handling), continuous but with kinks at grid lines.
    case bilinear
    /// Bicubic convolution (Keys 1981, a = −½) in the 4 × 4 surrounding nodes: continuous first
    /// derivatives, reproduces polynomials up to degree 2 exactly. Across a pole it uses the
    /// nodes on the opposite meridian (for global grids ending at ±90°), elsewhere at the edges
    /// it repeats the edge nodes. Falls back to bilinear where one of the 16 nodes has no data.
    case bicubic
}

extension GeoidGrid {
    /// A location in grid units: lower-left node (`ix`, `iy`) and fractions in [0, 1].
    @usableFromInline
    struct Cell {
        @usableFromInline var ix: Int, iy: Int
        @usableFromInline var fx: Double, fy: Double
        @inlinable init(ix: Int, iy: Int, fx: Double, fy: Double) { self.ix = ix; self.iy = iy; self.fx = fx; self.fy = fy }
    }

    /// The cell containing a point, or nil when it is outside the grid's coverage.
    /// Latitude/longitude must be finite.
    @inlinable @inline(__always)
    func cell(latitude lat: Double, longitude lon: Double) -> Cell? {
        // Grid units; tolerate rounding of points exactly on the border (1e-9 of a cell).
        let eps = 1e-9
        let w = Double(columns)
        var gx = (lon - westLongitude) * inverseLongitudeSpacing
        if !(gx >= 0 && gx <= w - 1) {
            // A finite longitude far beyond ±720° (1e308) overflows to ±∞ in grid units and
            // fmod(∞) is NaN: reduce it first, so the index below is always finite and in range.
            guard lon.isFinite else { return nil }
            let lon = Swift.abs(lon) <= 720 ? lon : Angle.normalizeLongitude(lon)
            gx = (lon - westLongitude) * inverseLongitudeSpacing
            if wrapsLongitude {
                // Longitude wraps: reduce into [0, columns) (the interval includes the gap between
                // the last column and the first, which is interpolated across the antimeridian).
                gx = fmod(fmod(gx, w) + w, w)
            } else if gx < -eps || gx > w - 1 + eps {
                // Regional grid: try the same meridian one turn away (as PROJ does).
                let alt = ((lon < westLongitude ? lon + 360 : lon - 360) - westLongitude) * inverseLongitudeSpacing
                guard alt >= -eps, alt <= w - 1 + eps else { return nil }
                gx = alt
            }
        }
        let gy = (lat - southLatitude) * inverseLatitudeSpacing
        guard gy >= -eps, gy <= Double(rows - 1) + eps, gx >= -eps, gx <= w else { return nil }
        // gx ≥ −eps and gy ≥ −eps here, so truncation is floor (or 0 for a tiny negative,
        // clamped below) — and avoids a libm call.
        var ix = Int(gx), iy = Int(gy)
        var fx = gx - Double(ix), fy = gy - Double(iy)
        if ix < 0 { ix = 0; fx = 0 } else if ix > columns - 1 { ix = columns - 1; fx = 0 }
        if iy < 0 { iy = 0; fy = 0 } else if iy > rows - 1 { iy = rows - 1; fy = 0 }
        return Cell(ix: ix, iy: iy, fx: Swift.min(Swift.max(fx, 0), 1), fy: Swift.min(Swift.max(fy, 0), 1))
    }

    /// Bilinear value in a cell, with PROJ's weights and its no-data rule (weights of nodes
    /// without data are dropped and the rest renormalized). NaN when all four nodes lack data.
    @inlinable @inline(__always)
    func bilinear(_ v: UnsafeBufferPointer<Float>, _ c: Cell) -> Double {
        let ix2 = c.ix + 1 < columns ? c.ix + 1 : (wrapsLongitude ? 0 : columns - 1)
        let iy2 = c.iy + 1 < rows ? c.iy + 1 : rows - 1
        let r1 = c.iy * columns, r2 = iy2 * columns
        let a = v[r1 + c.ix], b = v[r1 + ix2], cc = v[r2 + c.ix], d = v[r2 + ix2]
        let fxy = c.fx * c.fy
        let wa = 1 - c.fx - c.fy + fxy, wb = c.fx - fxy, wc = c.fy - fxy, wd = fxy
        if _fastPath(!hasNoData || !(Self.isNoData(a) || Self.isNoData(b) || Self.isNoData(cc) || Self.isNoData(d))) {
            return Double(a) * wa + Double(b) * wb + Double(cc) * wc + Double(d) * wd
        }
        // Some nodes without data: drop their weights and renormalize (as PROJ does); NaN when
        // none has data (or only data-less nodes carry weight).
        var sum = 0.0, total = 0.0, valid = 0
        for (value, weight) in [(a, wa), (b, wb), (cc, wc), (d, wd)] where !Self.isNoData(value) {
            sum += Double(value) * weight
            total += weight
            valid += 1
        }
        return valid == 0 ? .nan : sum / total
    }

    /// Whether rows beyond the first/last continue over the pole on the opposite meridian.
    @inlinable
    var reflectsAtPoles: Bool {
        wrapsLongitude && columns % 2 == 0
            && Swift.abs(Double(columns) * longitudeSpacing - 360) < 1e-9
            && Swift.abs(southLatitude + 90) < 1e-9 && Swift.abs(northLatitude - 90) < 1e-9
    }

    /// Keys' cubic convolution weights (a = −½) for offsets −1, 0, 1, 2 at fraction t.
    @inlinable
    static func keysWeights(_ t: Double) -> (Double, Double, Double, Double) {
        let t2 = t * t
        return (((-0.5 * t + 1) * t - 0.5) * t,
                (1.5 * t - 2.5) * t2 + 1,
                ((-1.5 * t + 2) * t + 0.5) * t,
                (0.5 * t - 0.5) * t2)
    }

    /// Bicubic value in a cell (see ``GeoidInterpolation/bicubic``).
    @inlinable
    func bicubic(_ v: UnsafeBufferPointer<Float>, _ c: Cell) -> Double {
        let wx = Self.keysWeights(c.fx), wy = Self.keysWeights(c.fy)
        let reflect = reflectsAtPoles
        var sum = 0.0
        for j in 0..<4 {
            var row = c.iy - 1 + j
            var shift = 0
            if row < 0 || row > rows - 1 {
                if reflect {
                    // Over the pole: the node at latitude ±(90 + d) is the one at ±(90 − d),
                    // on the meridian 180° away.
                    row = row < 0 ? -row : 2 * (rows - 1) - row
                    shift = columns / 2
                }
                row = Swift.min(Swift.max(row, 0), rows - 1)
            }
            var rowSum = 0.0
            for i in 0..<4 {
                let weightX = i == 0 ? wx.0 : i == 1 ? wx.1 : i == 2 ? wx.2 : wx.3
                var col = c.ix - 1 + i + shift
                if wrapsLongitude {
                    col %= columns
                    if col < 0 { col += columns }
                } else {
                    col = Swift.min(Swift.max(col, 0), columns - 1)
                }
                let value = v[row * columns + col]
                if Self.isNoData(value) { return bilinear(v, c) }
                rowSum += Double(value) * weightX
            }
            sum += rowSum * (j == 0 ? wy.0 : j == 1 ? wy.1 : j == 2 ? wy.2 : wy.3)
        }
        return sum
    }

    // MARK: - Public API

    /// The geoid undulation *N* (geoid height above the ellipsoid) at a point, meters.
    ///
    /// - Parameters:
    ///   - latitude: degrees, [−90, 90].
    ///   - longitude: degrees (any finite value; wrapped).
    ///   - interpolation: ``GeoidInterpolation/bilinear`` (default; equals PROJ's `vgridshift`)
    ///     or ``GeoidInterpolation/bicubic``.
    /// - Throws: ``GeoAnchorError/invalidLatitude(_:)`` / ``GeoAnchorError/invalidLongitude(_:)``
    ///   for bad input; ``GeoAnchorError/outsideCoverage(latitude:longitude:what:)`` outside a
    ///   regional grid or where the surrounding nodes have no data.
    /// - Accuracy: see ``GeoidGrid``; bilinear ≤ 1 mm from PROJ (measured ≤ 1e-9 m).
    public func undulation(latitude: Double, longitude: Double,
                           interpolation: GeoidInterpolation = .bilinear) throws(GeoAnchorError) -> Double {
        guard latitude.isFinite, Swift.abs(latitude) <= 90 else { throw .invalidLatitude(latitude) }
        guard longitude.isFinite else { throw .invalidLongitude(longitude) }
        guard let c = cell(latitude: latitude, longitude: longitude) else {
            throw .outsideCoverage(latitude: latitude, longitude: longitude, what: "geoid grid \(path)")
        }
        let n = values.withUnsafeBufferPointer { v in
            interpolation == .bilinear ? bilinear(v, c) : bicubic(v, c)
        }
        guard n.isFinite else {
            throw .outsideCoverage(latitude: latitude, longitude: longitude, what: "geoid grid \(path) (no data here)")
        }
        return n
    }

    /// Undulations *N* (meters) for many points over contiguous buffers; nothing is allocated
    /// per point.
    ///
    /// - Parameters: latitudes and longitudes in degrees, output buffer, all the same count.
    /// - Returns: the failed indices with their errors (as
    ///   ``undulation(latitude:longitude:interpolation:)`` would throw); their outputs are NaN.
    /// - Precondition: equal counts.
    @discardableResult
    public func undulations(latitude: UnsafeBufferPointer<Double>, longitude: UnsafeBufferPointer<Double>,
                            undulation out: UnsafeMutableBufferPointer<Double>,
                            interpolation: GeoidInterpolation = .bilinear) -> [GeoAnchorError.BatchFailure] {
        let count = latitude.count
        precondition(longitude.count == count && out.count == count, "batch buffers differ in count")
        var failures: [GeoAnchorError.BatchFailure] = []
        let bicubic = interpolation == .bicubic
        values.withUnsafeBufferPointer { v in
            for i in 0..<count {
                let lat = latitude[i], lon = longitude[i]
                if _fastPath(Swift.abs(lat) <= 90 && lon.isFinite), let c = cell(latitude: lat, longitude: lon) {
                    let n = bicubic ? self.bicubic(v, c) : bilinear(v, c)
                    out[i] = n
                    if _fastPath(n.isFinite) { continue }
                }
                out[i] = .nan
                do throws(GeoAnchorError) {
                    _ = try undulation(latitude: lat, longitude: lon, interpolation: interpolation)
                } catch {
                    failures.append(.init(index: i, error: error))
                }
            }
        }
        return failures
    }
}
