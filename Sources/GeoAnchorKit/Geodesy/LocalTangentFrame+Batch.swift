import Foundation

// Batch conversions over contiguous buffers (structure of arrays, like PROJ's
// proj_trans_generic). Nothing is allocated per point; invalid elements produce NaN outputs
// and are reported by index.

extension LocalTangentFrame {
    /// Converts many geodetic points to ENU.
    ///
    /// - Parameters:
    ///   - latitude, longitude: degrees; `ellipsoidalHeight`: meters. All the same count.
    ///   - east, north, up: caller-provided output buffers of the same count (meters).
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
        // The scalar path (ecef(fromENU:) + Ellipsoid.geodetic) with the final atan2s taken
        // relative to the origin (see below); equal to the scalar path to ≤ 5e-9 m on the ground
        // (tested in LocalTangentFrameBatchTests).
        let ox = originECEF.x, oy = originECEF.y, oz = originECEF.z
        let lat0 = origin.latitude, lon0 = Angle.normalizeLongitude(origin.longitude)
        let sinLat0 = uz, cosLat0 = nz, sinLon0 = -ex, cosLon0 = ey
        for i in 0..<n {
            let e = east[i], no = north[i], u = up[i]
            if _slowPath(!e.isFinite || !no.isFinite || !u.isFinite) {
                latitude[i] = .nan; longitude[i] = .nan; ellipsoidalHeight[i] = .nan
                let bad = !e.isFinite ? ("east", e) : !no.isFinite ? ("north", no) : ("up", u)
                failures.append(.init(index: i, error: .nonFinite(name: bad.0, value: bad.1)))
                continue
            }
            let x = ox + ex * e + nx * no + ux * u
            let y = oy + ey * e + ny * no + uy * u
            let z = oz + nz * no + uz * u
            // Near the surface Bowring's two-step iteration is as exact as the closed form and
            // about twice as fast; elsewhere the closed form.
            let c = ellipsoid.nearSurface(r2: x * x + y * y + z * z)
                ? ellipsoid.geodeticComponentsNearSurface(x: x, y: y, z: z)
                : ellipsoid.geodeticComponents(x: x, y: y, z: z)
            // Angles relative to the origin's: for points near it the differences are small, and
            // atan of a small argument is a short series instead of a libm atan2.
            let latNum = c.sinLatitude * cosLat0 - c.cosLatitude * sinLat0
            let latDen = c.cosLatitude * cosLat0 + c.sinLatitude * sinLat0
            if Swift.abs(latNum) <= 0.125 * latDen && latDen > 0 {
                let lat = lat0 + BatchKernels.atanSmall(latNum / latDen) * Angle.degreesPerRadian
                latitude[i] = Swift.min(90, Swift.max(-90, lat))
            } else {
                latitude[i] = Angle.atan2Degrees(c.sinLatitude, c.cosLatitude)
            }
            let lonNum = c.sinLongitude * cosLon0 - c.cosLongitude * sinLon0
            let lonDen = c.cosLongitude * cosLon0 + c.sinLongitude * sinLon0
            if Swift.abs(lonNum) <= 0.125 * lonDen && lonDen > 0 {
                var lon = lon0 + BatchKernels.atanSmall(lonNum / lonDen) * Angle.degreesPerRadian
                if lon > 180 { lon -= 360 } else if lon < -180 { lon += 360 }
                longitude[i] = lon
            } else {
                longitude[i] = Angle.atan2Degrees(c.sinLongitude, c.cosLongitude)
            }
            ellipsoidalHeight[i] = c.height
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
