import Foundation

extension MagneticModel {
    /// Environment variable naming a `WMM.COF` file: `GEOANCHORKIT_WMM_COF`.
    public static let environmentVariable = "GEOANCHORKIT_WMM_COF"

    /// The coefficient file ``load(path:environment:)`` reads, or nil when it uses the
    /// compiled-in ``wmm2025``: `path` when given, else `$GEOANCHORKIT_WMM_COF` when set and
    /// non-empty, else nil. Nothing else is searched (no current directory, no source checkout):
    /// an app gets the same model everywhere.
    public static func fileLocation(path: String? = nil,
                                    environment: [String: String] = ProcessInfo.processInfo.environment) -> String? {
        if let path { return path }
        if let env = environment[environmentVariable], !env.isEmpty { return env }
        return nil
    }

    /// The World Magnetic Model: the file named by `path` or `$GEOANCHORKIT_WMM_COF` (a newer
    /// release, or WMM2020 for old data), else the compiled-in ``wmm2025``.
    ///
    /// An app normally uses ``wmm2025`` directly; to ship a newer `WMM.COF` in its bundle, pass
    /// `Bundle.main.path(forResource: "WMM", ofType: "COF")`.
    ///
    /// - Throws: ``GeoAnchorError/fileNotFound(path:)`` naming the file and where its name came
    ///   from; ``GeoAnchorError/corruptFile(path:reason:)`` for a file that is not in `WMM.COF` format.
    public static func load(path: String? = nil,
                            environment: [String: String] = ProcessInfo.processInfo.environment) throws(GeoAnchorError) -> MagneticModel {
        guard let file = fileLocation(path: path, environment: environment) else { return wmm2025 }
        guard FileManager.default.isReadableFile(atPath: file) else {
            let origin = path != nil ? "the path given" : "$\(environmentVariable)"
            throw .fileNotFound(path: "\(file) (named by \(origin); without a file the built-in WMM2025 is used)")
        }
        return try MagneticModel(contentsOf: URL(fileURLWithPath: file))
    }
}
