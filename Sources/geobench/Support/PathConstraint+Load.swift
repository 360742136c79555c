import Foundation
import GeoAnchorKit

extension PathConstraint {
    /// The `--path FILE.geojson` option of `filter` and `align`: the file's path lines (see
    /// ``PathConstraint/init(geoJSON:crossTrackSigma:corridorSigmas:corridorWidth:)``) with the
    /// `--path-sigma` cross-track σ.
    /// - Throws: ``InputError`` naming `--path-sigma` for a non-positive σ, or the file for an
    ///   unreadable or line-less GeoJSON.
    static func load(_ file: String, crossTrackSigma: Double) throws -> PathConstraint {
        guard crossTrackSigma > 0, crossTrackSigma.isFinite else {
            throw InputError(file: "--path-sigma", line: nil, message: "\(crossTrackSigma) must be a positive number of meters")
        }
        let collection = try GeoJSONFeatureCollection.read(contentsOf: URL(fileURLWithPath: file))
        return try located(file, context: "not a usable path") { try PathConstraint(geoJSON: collection, crossTrackSigma: crossTrackSigma) }
    }
}
