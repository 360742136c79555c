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
        for i in 0..<n {
            let lat = latitude[i], lon = longitude[i], h = ellipsoidalHeight[i]
            if _slowPath(!(Swift.abs(lat) <= 90) || !lon.isFinite || !h.isFinite) {
                east[i] = .nan; north[i] = .nan; up[i] = .nan
                let c = GeodeticCoordinate(latitude: lat, longitude: lon, ellipsoidalHeight: h)
                do { try c.validate() } catch { failures.append(.init(index: i, error: error)) }
                continue
            }
            let v = enu(latitude: lat, longitude: lon, ellipsoidalHeight: h)
            east[i] = v.east; north[i] = v.north; up[i] = v.up
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
        for i in 0..<n {
            let e = east[i], no = north[i], u = up[i]
            if _slowPath(!e.isFinite || !no.isFinite || !u.isFinite) {
                latitude[i] = .nan; longitude[i] = .nan; ellipsoidalHeight[i] = .nan
                let bad = !e.isFinite ? ("east", e) : !no.isFinite ? ("north", no) : ("up", u)
                failures.append(.init(index: i, error: .nonFinite(name: bad.0, value: bad.1)))
                continue
            }
            let g = geodetic(east: e, north: no, up: u)
            latitude[i] = g.latitude; longitude[i] = g.longitude; ellipsoidalHeight[i] = g.ellipsoidalHeight
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
