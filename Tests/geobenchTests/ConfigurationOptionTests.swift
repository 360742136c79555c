import Foundation
import Testing
import GeoAnchorKit

/// Options that set library configuration values: a value outside the configuration's range
/// exits 2 naming the option and the allowed range — never a library precondition (a trap) and
/// never a run with a silently changed value. Reference: the configurations' documented ranges.
@Suite("geobench: configuration options out of range")
struct ConfigurationOptionTests {
    let cli = GeobenchInterfaceTests()

    @Test func anchorsPlacementOptions() throws {
        let anchors = try cli.temporaryFile("anchors.csv", "id,latitude,longitude,altitude,altitude_reference\ngate,49.9625,14.3960,360,ellipsoid\n")
        for (option, value, message) in [("--max-range", "0", "--max-range: max range 0.0 is outside (0, ∞) m"),
                                         ("--fov", "400", "--fov: field of view 400.0 is outside (0, 360] degrees"),
                                         ("--fov", "0", "--fov: field of view 0.0 is outside (0, 360] degrees")] {
            let r = try cli.geobench(["anchors", "--device", "49.9617,14.3950,390", "--heading", "0", "--anchors", anchors, option, value])
            #expect(r.status == 2 && r.stderr == message + "\n", "\(option) \(value): \(r.stderr)")
        }
        let ok = try cli.geobench(["anchors", "--device", "49.9617,14.3950,390", "--heading", "0", "--anchors", anchors, "--fov", "360"])
        #expect(ok.status == 0, "\(ok.stderr)")
    }

    @Test func routeSearchOptions() throws {
        let stops = try cli.temporaryFile("stops.csv", "id,latitude,longitude\na,47.37,8.54\nb,47.371,8.541\nc,47.372,8.54\n")
        let r = try cli.geobench(["route", "--stops", stops, "--iterations=-1"])
        #expect(r.status == 2 && r.stderr == "--iterations: expected a count in 0…1000000000000, got -1\n", "\(r.stderr)")
        let t = try cli.geobench(["route", "--stops", stops, "--time-limit=-1"])
        #expect(t.status == 2 && t.stderr.hasPrefix("--time-limit: "), "\(t.stderr)")
        let ok = try cli.geobench(["route", "--stops", stops, "--iterations", "0"])
        #expect(ok.status == 0, "\(ok.stderr)")
    }

    @Test func accuracyTimeOffset() throws {
        let r = try cli.geobench(["accuracy", "--trace", "traces/zavist-tour.raw.csv", "--truth", "traces/zavist-tour.truth.csv",
                                  "--time-offset", "1e15"])
        #expect(r.status == 2 && r.stderr.hasPrefix("--time-offset: time offset 1000000000000000.0 is outside [-315537897599.999, 315537897599.999] s"),
                "\(r.stderr)")
    }
}
