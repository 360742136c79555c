import Foundation

extension PathNetwork {
    /// The same paths with their heights from a terrain model (a DEM: ``ElevationGrid``) — for
    /// paths drawn without heights (My Maps, geojson.io, KML clamped to the ground), so that the
    /// walk's climbs and time follow the ground.
    ///
    /// Every edge is sampled at most `spacing` meters apart (its end vertices kept exactly, so the
    /// network connects as before) and each sample takes the terrain's height above the terrain's
    /// ``TerrainModel/verticalReference`` (MSL for most DEMs: comparable with stops' MSL
    /// altitudes). Edge lengths stay horizontal geodesic lengths.
    ///
    /// - Parameters:
    ///   - terrain: the ground; it must cover every path.
    ///   - spacing: largest distance between samples along an edge, meters (> 0; default 25 m,
    ///     about a 1″ DEM's cell).
    /// - Throws: ``RoutingError/malformedInput(source:line:reason:)`` (source `DEM`, line = edge
    ///   index + 1) naming a position the terrain does not cover or has no data at, or a spacing
    ///   that is not positive.
    public func withHeights(from terrain: any TerrainModel, spacing: Double = 25) throws(RoutingError) -> PathNetwork {
        guard spacing.isFinite, spacing > 0 else {
            throw .malformedInput(source: "DEM", line: nil, reason: "sample spacing \(spacing) m is not positive")
        }
        var lines: [[GeodeticCoordinate]] = []
        lines.reserveCapacity(edges.count)
        for (k, e) in edges.enumerated() {
            let a = vertices[e.a], b = vertices[e.b]
            // Samples along the chord in latitude/longitude (edges are tens to hundreds of meters:
            // the chord departs from the geodesic by millimeters); the longitude difference across
            // the antimeridian taken the short way.
            let n = Int(Swift.min(Swift.max((e.length / spacing).rounded(.up), 1), 1_000_000))
            let dLon = Angle.normalizeLongitude(b.longitude - a.longitude)
            var line: [GeodeticCoordinate] = []
            line.reserveCapacity(n + 1)
            for i in 0...n {
                let t = Double(i) / Double(n)
                let lat = i == n ? b.latitude : a.latitude + (b.latitude - a.latitude) * t
                let lon = i == n ? b.longitude : (i == 0 ? a.longitude : Angle.normalizeLongitude(a.longitude + dLon * t))
                let h: Double
                do { h = try terrain.terrainHeight(latitude: lat, longitude: lon) } catch {
                    throw .malformedInput(source: "DEM", line: k + 1, reason: String(
                        format: "path position (%.7f, %.7f) between vertices %d and %d: %@", lat, lon, e.a, e.b, error.description))
                }
                line.append(GeodeticCoordinate(latitude: lat, longitude: lon, height: h, verticalReference: terrain.verticalReference))
            }
            lines.append(line)
        }
        return try PathNetwork(lineStrings: lines, hasHeights: true)
    }
}
