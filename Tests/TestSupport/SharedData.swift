import Foundation
import Testing

/// Locates the third-party reference data in `../shared/data` (next to the repository) or in
/// `$GEOANCHORKIT_SHARED_DATA`.
///
/// Suites that need it use `.enabled(if: SharedData.shouldRun)`: they run when the data is
/// present, and also when `GEOANCHORKIT_REQUIRE_SHARED_DATA=1` (set by `.ci/run`), in which case
/// a missing file fails the test instead of skipping it.
package enum SharedData {
    /// Repository root, derived from this file's path.
    package static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent() // TestSupport
        .deletingLastPathComponent() // Tests
        .deletingLastPathComponent() // root

    package static let directory: URL = {
        if let env = ProcessInfo.processInfo.environment["GEOANCHORKIT_SHARED_DATA"], !env.isEmpty {
            return URL(fileURLWithPath: env)
        }
        return repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/data")
    }()

    package static var isRequired: Bool { ProcessInfo.processInfo.environment["GEOANCHORKIT_REQUIRE_SHARED_DATA"] == "1" }
    package static var isAvailable: Bool { FileManager.default.fileExists(atPath: directory.path) }
    /// Whether shared-data tests should run (present, or required so that absence fails).
    package static var shouldRun: Bool { isAvailable || isRequired }

    /// URL of a file below the shared data folder.
    package static func url(_ relativePath: String) -> URL { directory.appendingPathComponent(relativePath) }

    /// Contents of a shared data file as text; records a test failure naming the path if missing.
    package static func text(_ relativePath: String, sourceLocation: SourceLocation = #_sourceLocation) throws -> String {
        let u = url(relativePath)
        guard let d = FileManager.default.contents(atPath: u.path), let s = String(data: d, encoding: .utf8) else {
            Issue.record("shared reference data missing: \(u.path)", sourceLocation: sourceLocation)
            throw CancellationError()
        }
        return s
    }
}
