import Foundation

/// Something that knows the geoid undulation *N* (meters, ellipsoidal height = MSL height + N).
///
/// Anchoring needs only this one function, so it asks for a protocol rather than a concrete grid:
/// GeoAnchorKit's ``GeoidGrid`` (EGM96 GTX reader in Geodesy/) conforms, and an app may supply its
/// own (e.g. a regional quasi-geoid). Conformers must be thread-safe values (`Sendable`).
public protocol GeoidModel: Sendable {
    /// Geoid undulation *N* in meters at a point.
    /// - Parameters: latitude, longitude: degrees (WGS84).
    /// - Throws: ``GeoAnchorError/outsideCoverage(latitude:longitude:what:)`` where the model has
    ///   no data; range errors for invalid coordinates.
    func geoidUndulation(latitude: Double, longitude: Double) throws(GeoAnchorError) -> Double
}

/// A terrain surface: height of the ground at a latitude/longitude.
public protocol TerrainModel: Sendable {
    /// The datum of the heights ``terrainHeight(latitude:longitude:)`` returns (most DEMs are MSL).
    var verticalReference: VerticalReference { get }
    /// Ground height in meters above ``verticalReference``.
    /// - Throws: ``GeoAnchorError/outsideCoverage(latitude:longitude:what:)`` outside the model or
    ///   where it has no data.
    func terrainHeight(latitude: Double, longitude: Double) throws(GeoAnchorError) -> Double
}
