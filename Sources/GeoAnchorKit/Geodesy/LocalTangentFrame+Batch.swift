import Foundation

// Batch conversions over contiguous buffers (structure of arrays, like PROJ's
// proj_trans_generic). Nothing is allocated per point; invalid elements produce NaN outputs
// and are reported by index.

extension LocalTangentFrame {
    /// Converts many geodetic points to ENU.
    ///
    /// - Parameters:
    ///   - latitude: degrees (all buffers the same count).
    ///   - longitude: degrees.
    ///   - ellipsoidalHeight: meters.
    ///   - east: caller-provided output buffer of the same count (meters).
    ///   - north: output buffer, meters.
    ///   - up: output buffer, meters.
    /// - Returns: the indices whose input was invalid (latitude outside [−90, 90] or non-finite
    ///   values); their outputs are NaN. Empty when every point converted.
    /// - Precondition: all buffers have the same count (a programmer error otherwise).
    @inlinable
    @discardableResult
    public func enu(latitude: UnsafeBufferPointer<Double>, longitude: UnsafeBufferPointer<Double>,
                    ellipsoidalHeight: UnsafeBufferPointer<Double>,
                    east: UnsafeMutableBufferPointer<Double>, north: UnsafeMutableBufferPointer<Double>,
                    up: UnsafeMutableBufferPointer<Double>) -> [GeoAnchorError.BatchFailure] {
        let n = latitude.count
        precondition(longitude.count == n && ellipsoidalHeight.count == n &&
                     east.count == n && north.count == n && up.count == n, "batch buffers differ in count")
        var failures: [GeoAnchorError.BatchFailure] = []
        // The scalar path (Ellipsoid.ecef + enu(fromECEF:)) written out with BatchKernels' table
        // sincos, which avoids two libm sin/cos pairs per point; equal to the scalar path to ≤ 5e-9 m
        // (tested in LocalTangentFrameBatchTests).
        let a = ellipsoid.semiMajorAxis, e2 = ellipsoid.eccentricitySquared
        let ox = originECEF.x, oy = originECEF.y, oz = originECEF.z
        BatchKernels.sinCosTable.withUnsafeBufferPointer { table in
        for i in 0..<n {
            let lat = latitude[i], lon = longitude[i], h = ellipsoidalHeight[i]
            if _slowPath(!(Swift.abs(lat) <= 90) || !lon.isFinite || !h.isFinite) {
                east[i] = .nan; north[i] = .nan; up[i] = .nan
                let c = GeodeticCoordinate(latitude: lat, longitude: lon, ellipsoidalHeight: h)
                do throws(GeoAnchorError) { try c.validate() } catch { failures.append(.init(index: i, error: error)) }
                continue
            }
            let (sphi, cphi) = BatchKernels.sincos(degrees: lat, table: table)
            let (slam, clam) = BatchKernels.sincos(degrees: lon, table: table)
            let nu = a / (1 - e2 * sphi * sphi).squareRoot()
            let r = (nu + h) * cphi
            let dx = r * clam - ox, dy = r * slam - oy, dz = ((1 - e2) * nu + h) * sphi - oz
            east[i] = ex * dx + ey * dy
            north[i] = nx * dx + ny * dy + nz * dz
            up[i] = ux * dx + uy * dy + uz * dz
        }
        }
        return failures
    }

    /// Converts many ENU vectors to geodetic coordinates (degrees, degrees, meters above the ellipsoid).
    /// - Returns: indices with non-finite input (outputs NaN).
    /// - Precondition: all buffers have the same count.
    @inlinable
    @discardableResult
    public func geodetic(east: UnsafeBufferPointer<Double>, north: UnsafeBufferPointer<Double>,
                         up: UnsafeBufferPointer<Double>,
                         latitude: UnsafeMutableBufferPointer<Double>, longitude: UnsafeMutableBufferPointer<Double>,
                         ellipsoidalHeight: UnsafeMutableBufferPointer<Double>) -> [GeoAnchorError.BatchFailure] {
        let n = east.count
        precondition(north.count == n && up.count == n && latitude.count == n &&
                     longitude.count == n && ellipsoidalHeight.count == n, "batch buffers differ in count")
        var failures: [GeoAnchorError.BatchFailure] = []
        // Pairs of points near the origin and near the surface take a two-lane fast path:
        // Bowring's iteration instead of the closed form, and atan series of the angles relative
        // to the origin's instead of libm atan2. Everything else takes the scalar path. Equal to
        // the scalar path to ≤ 5e-9 m on the ground and in height (LocalTangentFrameBatchTests).
        let ox = originECEF.x, oy = originECEF.y, oz = originECEF.z
        let lat0 = origin.latitude, lon0 = Angle.normalizeLongitude(origin.longitude)
        let sinLat0 = uz, cosLat0 = nz, sinLon0 = -ex, cosLon0 = ey
        let earthLike = ellipsoid.flattening >= 0 && ellipsoid.flattening < 0.01
        var i = 0
        while i < n {
            if earthLike && i + 1 < n {
                let e = SIMD2(east[i], east[i + 1]), no = SIMD2(north[i], north[i + 1]), u = SIMD2(up[i], up[i + 1])
                let x = ox + ex * e + nx * no + ux * u
                let y = oy + ey * e + ny * no + uy * u
                let z = oz + nz * no + uz * u
                let r2 = x * x + y * y + z * z // NaN/∞ input fails the range test below
                if ellipsoid.nearSurface(r2: r2[0]) && ellipsoid.nearSurface(r2: r2[1]) {
                    let c = ellipsoid.geodeticNearSurface(x: x, y: y, z: z)
                    let latNum = c.sinLatitude * cosLat0 - c.cosLatitude * sinLat0
                    let latDen = c.cosLatitude * cosLat0 + c.sinLatitude * sinLat0
                    let lonNum = y * cosLon0 - x * sinLon0
                    let lonDen = x * cosLon0 + y * sinLon0
                    if Swift.abs(latNum[0]) <= 0.125 * latDen[0] && Swift.abs(latNum[1]) <= 0.125 * latDen[1]
                        && Swift.abs(lonNum[0]) <= 0.125 * lonDen[0] && Swift.abs(lonNum[1]) <= 0.125 * lonDen[1]
                        && latDen[0] > 0 && latDen[1] > 0 && lonDen[0] > 0 && lonDen[1] > 0 {
                        let lat = lat0 + BatchKernels.atanSmall(latNum / latDen) * Angle.degreesPerRadian
                        let lon = lon0 + BatchKernels.atanSmall(lonNum / lonDen) * Angle.degreesPerRadian
                        for k in 0..<2 {
                            latitude[i + k] = Swift.min(90, Swift.max(-90, lat[k]))
                            var l = lon[k]
                            if l > 180 { l -= 360 } else if l < -180 { l += 360 }
                            longitude[i + k] = l
                            ellipsoidalHeight[i + k] = c.height[k]
                        }
                        i += 2
                        continue
                    }
                }
            }
            // Scalar path for this point.
            let e = east[i], no = north[i], u = up[i]
            if _slowPath(!e.isFinite || !no.isFinite || !u.isFinite) {
                latitude[i] = .nan; longitude[i] = .nan; ellipsoidalHeight[i] = .nan
                let bad = !e.isFinite ? ("east", e) : !no.isFinite ? ("north", no) : ("up", u)
                failures.append(.init(index: i, error: .nonFinite(name: bad.0, value: bad.1)))
            } else {
                let g = geodetic(east: e, north: no, up: u)
                latitude[i] = g.latitude; longitude[i] = g.longitude; ellipsoidalHeight[i] = g.ellipsoidalHeight
            }
            i += 1
        }
        return failures
    }

    /// Array convenience: converts every coordinate; invalid ones (range, non-finite, MSL height)
    /// give a NaN vector at their index and are listed in `failures`.
    public func enu(from coordinates: [GeodeticCoordinate]) -> (vectors: [ENUVector], failures: [GeoAnchorError.BatchFailure]) {
        var out = [ENUVector]()
        out.reserveCapacity(coordinates.count)
        var failures: [GeoAnchorError.BatchFailure] = []
        for (i, c) in coordinates.enumerated() {
            do { out.append(try enu(from: c)) } catch {
                failures.append(.init(index: i, error: error))
                out.append(ENUVector(east: .nan, north: .nan, up: .nan))
            }
        }
        return (out, failures)
    }
}
