import Foundation

extension MagneticModel {
    /// Environment variable naming a `WMM.COF` file: `GEOANCHORKIT_WMM_COF`.
    public static let environmentVariable = "GEOANCHORKIT_WMM_COF"

    /// Where ``load(path:environment:currentDirectory:)`` looks for the model, in order:
    ///
    /// 1. `path`, when given (then nothing else is tried);
    /// 2. `$GEOANCHORKIT_WMM_COF`, when set and non-empty (then nothing else is tried);
    /// 3. `.data/WMM.COF` in the current directory — where `scripts/install-deps.sh` copies the
    ///    file from NOAA's `wmm-calculator` package;
    /// 4. `.data/WMM.COF` at the root of the source checkout this library was built from
    ///    (useful for `swift test` and `swift run` from another directory; never exists in an
    ///    app bundle).
    public static func searchLocations(path: String? = nil,
                                       environment: [String: String] = ProcessInfo.processInfo.environment,
                                       currentDirectory: String = FileManager.default.currentDirectoryPath) -> [String] {
        if let path { return [path] }
        if let env = environment[environmentVariable], !env.isEmpty { return [env] }
        let cwd = URL(fileURLWithPath: currentDirectory).appendingPathComponent(".data/WMM.COF").path
        let checkout = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent() // Magnetics
            .deletingLastPathComponent() // GeoAnchorKit
            .deletingLastPathComponent() // Sources
            .deletingLastPathComponent() // root
            .appendingPathComponent(".data/WMM.COF").path
        return cwd == checkout ? [cwd] : [cwd, checkout]
    }

    /// Loads the World Magnetic Model coefficient file from the first of
    /// ``searchLocations(path:environment:currentDirectory:)`` that exists.
    ///
    /// - Throws: ``GeoAnchorError/fileNotFound(path:)`` whose path lists every place searched
    ///   and how to provide the file; ``GeoAnchorError/corruptFile(path:reason:)`` for a file
    ///   that is not in `WMM.COF` format.
    public static func load(path: String? = nil,
                            environment: [String: String] = ProcessInfo.processInfo.environment,
                            currentDirectory: String = FileManager.default.currentDirectoryPath) throws(GeoAnchorError) -> MagneticModel {
        let places = searchLocations(path: path, environment: environment, currentDirectory: currentDirectory)
        for p in places where FileManager.default.isReadableFile(atPath: p) {
            return try MagneticModel(contentsOf: URL(fileURLWithPath: p))
        }
        let how = "run scripts/install-deps.sh, set \(environmentVariable), or pass a path"
        throw .fileNotFound(path: "WMM.COF — searched: \(places.joined(separator: ", ")) (\(how))")
    }
}
