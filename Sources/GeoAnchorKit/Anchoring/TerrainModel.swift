import Foundation

/// A terrain surface: height of the ground at a latitude/longitude.
public protocol TerrainModel: Sendable {
    /// The datum of the heights ``terrainHeight(latitude:longitude:)`` returns (most DEMs are MSL).
    var verticalReference: VerticalReference { get }
    /// Ground height in meters above ``verticalReference``.
    /// - Throws: ``GeoAnchorError/outsideCoverage(latitude:longitude:what:)`` outside the model or
    ///   where it has no data.
    func terrainHeight(latitude: Double, longitude: Double) throws(GeoAnchorError) -> Double
}
