import Foundation

extension SpatialIndex {
    /// The one place the index measures distances: the ellipsoidal geodesic (Karney's algorithm,
    /// ``Geodesic/distance(latitude1:longitude1:latitude2:longitude2:)``), in meters.
    @inline(__always)
    func surfaceDistance(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        geodesic.distance(latitude1: lat1, longitude1: lon1, latitude2: lat2, longitude2: lon2)
    }
}
