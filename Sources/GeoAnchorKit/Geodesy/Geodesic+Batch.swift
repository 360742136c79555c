import Foundation

// Batch inverse over contiguous buffers (structure of arrays): nothing is allocated per point.

extension Geodesic {
    /// Solves many inverse problems: distance and both azimuths for each pair of points.
    ///
    /// - Parameters:
    ///   - latitude1: first points' latitudes, degrees (all buffers the same count).
    ///   - longitude1: first points' longitudes, degrees.
    ///   - latitude2: second points' latitudes, degrees.
    ///   - longitude2: second points' longitudes, degrees.
    ///   - distance: output, meters.
    ///   - azimuth1: output, azimuth at the first point, degrees clockwise from north in
    ///     [−180, 180] (as ``inverse(latitude1:longitude1:latitude2:longitude2:)``).
    ///   - azimuth2: output, azimuth at the second point, same convention.
    /// - Returns: the indices whose input was invalid (latitude outside [−90, 90] or not finite,
    ///   longitude not finite); their outputs are NaN. Empty when every pair was solved.
    /// - Precondition: all buffers have the same count (a programmer error otherwise).
    /// - *Accuracy*: identical to the scalar ``inverse(latitude1:longitude1:latitude2:longitude2:)``
    ///   (same code path; checked in GeodesicTests).
    @discardableResult
    public func inverse(latitude1: UnsafeBufferPointer<Double>, longitude1: UnsafeBufferPointer<Double>,
                        latitude2: UnsafeBufferPointer<Double>, longitude2: UnsafeBufferPointer<Double>,
                        distance: UnsafeMutableBufferPointer<Double>,
                        azimuth1: UnsafeMutableBufferPointer<Double>,
                        azimuth2: UnsafeMutableBufferPointer<Double>) -> [GeoAnchorError.BatchFailure] {
        let count = latitude1.count
        precondition(longitude1.count == count && latitude2.count == count && longitude2.count == count
                     && distance.count == count && azimuth1.count == count && azimuth2.count == count,
                     "batch buffers differ in count")
        var failures: [GeoAnchorError.BatchFailure] = []
        for i in 0..<count {
            let la1 = latitude1[i], lo1 = longitude1[i], la2 = latitude2[i], lo2 = longitude2[i]
            if _slowPath(!(Swift.abs(la1) <= 90) || !(Swift.abs(la2) <= 90) || !lo1.isFinite || !lo2.isFinite) {
                distance[i] = .nan; azimuth1[i] = .nan; azimuth2[i] = .nan
                do {
                    try Self.validate(latitude: la1, longitude: lo1)
                    try Self.validate(latitude: la2, longitude: lo2)
                } catch {
                    failures.append(.init(index: i, error: error))
                }
                continue
            }
            let r = inverseCore(la1, lo1, la2, lo2, full: false)
            distance[i] = r.s12
            azimuth1[i] = Angle.atan2Degrees(r.salp1, r.calp1)
            azimuth2[i] = Angle.atan2Degrees(r.salp2, r.calp2)
        }
        return failures
    }
}
