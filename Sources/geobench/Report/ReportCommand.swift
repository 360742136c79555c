import ArgumentParser
import Foundation

/// One section of the main report. Each capability adds a type conforming to this and lists it
/// in ``ReportCommand/sections``.
protocol ReportSection: Sendable {
    /// Heading printed above the section.
    static var title: String { get }
    /// Runs the measurements and returns the section's text lines.
    static func run(_ context: ReportContext) throws -> [String]
}

/// What report sections get: where the repository's data lives.
struct ReportContext {
    /// The repository's own traces folder (simulated traces with ground truth).
    var tracesDirectory: URL
    /// ../shared/data when present (optional extra comparisons), else nil.
    var sharedDataDirectory: URL?
    /// Where sections write their plots (SVG), when `--plots DIR` is given; nil: no plots.
    var plotsDirectory: URL? = nil
    /// Progress on stderr (only when it is a terminal).
    func progress(_ s: String) { Stderr.progress(s) }
}

struct ReportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "report",
        abstract: "The main job: a report of every capability on the data the repository ships (traces/)."
    )

    /// The report's sections, in order. Add one line per finished capability.
    static let sections: [any ReportSection.Type] = [
        GeodesyReport.self,
        TracesReport.self,
        CompassReport.self,
        RoutingReport.self,
        ToursReport.self,
        AnchoringReport.self,
        GeoRegistrationReport.self,
        FilteringReport.self,
        GnssReport.self,
    ]

    @Option(help: "The repository's traces folder.")
    var traces: String = "traces"

    @Option(help: "Reference data folder (../shared/data); used only where a section says so.")
    var sharedData: String = "../shared/data"

    @Option(help: "Run only sections whose title contains this text (case-insensitive).")
    var only: String?

    @Option(help: "Write the sections' plots (SVG) into this folder (created if missing): geo-registration writes <scenario>-geo-registration.svg.")
    var plots: String?

    func run() throws {
        var isDir: ObjCBool = false
        let shared = FileManager.default.fileExists(atPath: sharedData, isDirectory: &isDir) && isDir.boolValue
            ? URL(fileURLWithPath: sharedData) : nil
        var plotsDirectory: URL?
        if let plots {
            do { try FileManager.default.createDirectory(atPath: plots, withIntermediateDirectories: true) } catch {
                throw InputError(file: plots, line: nil, message: "cannot create the plots folder: \(error.localizedDescription)")
            }
            plotsDirectory = URL(fileURLWithPath: plots)
        }
        let ctx = ReportContext(tracesDirectory: URL(fileURLWithPath: traces), sharedDataDirectory: shared, plotsDirectory: plotsDirectory)
        print("GeoAnchorKit report")
        print("===================")
        var failures = 0
        for section in Self.sections {
            if let only, !section.title.lowercased().contains(only.lowercased()) { continue }
            print("")
            print("## \(section.title)")
            let start = Date()
            do {
                for line in try section.run(ctx) { print(line) }
            } catch {
                failures += 1
                print("  FAILED: \(error)")
            }
            Stderr.endProgress()
            print(String(format: "  (%.2f s)", Date().timeIntervalSince(start)))
        }
        if failures > 0 { throw ExitCode(1) }
    }
}
