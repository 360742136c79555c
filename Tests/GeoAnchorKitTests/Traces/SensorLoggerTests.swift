import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport

/// Sensor Logger's location files (scripts/dev/sensorlogger_fixtures.py: the names and units
/// of the app's UNITS.md, written from traces/zavist-tour.raw.csv's first 20 fixes). Reference:
/// Python's csv module reading the same files (reference.json), and the project trace.
@Suite("Sensor Logger CSV")
struct SensorLoggerTests {
    static let dir = GeoJSONTests.other.appendingPathComponent("SensorLogger")

    struct Row: Decodable {
        var time: Double, lat: Double, lon: Double, height: Double, separation: Double
        var horizontal_accuracy: Double?, vertical_accuracy: Double?, speed: Double?, course: Double?
    }

    /// Every row is a fix with Python's values exactly: time = ns / 1e9, the ellipsoidal
    /// height with N = altitude − MSL altitude (phone: altitude / altitudeAboveMeanSeaLevel;
    /// watch: ellipsoidalAltitude / altitude), accuracies, speed, course; Sensor Logger's −1
    /// ("invalid": standing still, no vertical accuracy) absent, not refused.
    @Test(arguments: ["Location.csv", "WatchLocation.csv"]) func rowsAsPythonReadsThem(name: String) throws {
        let ref = try JSONDecoder().decode([String: [Row]].self, from: Data(contentsOf: Self.dir.appendingPathComponent("reference.json")))[name] ?? []
        var fixes: [Fix] = []
        let s = try TraceReader.read(url: Self.dir.appendingPathComponent(name), onFix: { fixes.append($0) })
        #expect(fixes.count == 20 && ref.count == 20 && s.fixes == 20)
        for (f, r) in zip(fixes, ref) {
            #expect(f.time == r.time && f.latitude == r.lat && f.longitude == r.lon)
            #expect(f.height == r.height && f.verticalReference == .ellipsoid && f.geoidSeparation == r.separation)
            #expect(f.horizontalAccuracy == r.horizontal_accuracy && f.verticalAccuracy == r.vertical_accuracy)
            #expect(f.speed == r.speed && f.course == r.course)
        }
        #expect(fixes[0].speed == nil && fixes[0].course == nil && fixes[5].verticalAccuracy == nil && fixes[2].speed != nil)
    }

    /// The fixes are the project trace's: times to 1 µs (ns / 1e9 in a double), positions exact,
    /// MSL heights (h − N) within 1e-9 m.
    @Test func theTraceTheyCameFrom() throws {
        let fixes = try TraceReader.load(url: Self.dir.appendingPathComponent("Location.csv")).fixes
        let trace = Array(try TraceReader.load(url: SharedData.repositoryRoot.appendingPathComponent("traces/zavist-tour.raw.csv")).fixes.prefix(20))
        #expect(fixes.count == trace.count)
        for (f, t) in zip(fixes, trace) {
            #expect(abs(f.time - t.time) < 1e-6 && f.latitude == t.latitude && f.longitude == t.longitude)
            #expect(abs(f.height! - f.geoidSeparation! - t.height!) < 1e-9)
        }
    }

    /// A recording as the app exports it (recording.zip: Location, WatchLocation, Magnetometer and
    /// Metadata CSVs): `recording.zip/Location.csv` reads as the file itself; the archive alone is
    /// refused naming its files and how to pick one; a file it lacks is named.
    @Test func recordingZip() throws {
        let zip = Self.dir.appendingPathComponent("recording.zip")
        for name in ["Location.csv", "WatchLocation.csv"] {
            let a = try TraceReader.load(url: zip.appendingPathComponent(name)).fixes
            let b = try TraceReader.load(url: Self.dir.appendingPathComponent(name)).fixes
            #expect(a == b && a.count == 20, "\(name)")
        }
        #expect { _ = try ByteLineReader(url: zip) } throws: { e in
            "\(e)".contains("ZIP archive with 4 files (Location.csv, WatchLocation.csv, Magnetometer.csv, Metadata.csv): name the one to read as \(zip.path)/Location.csv")
        }
        #expect { _ = try TraceReader.load(url: zip.appendingPathComponent("Gyroscope.csv")) } throws: { e in
            "\(e)".contains("ZIP archive has no file 'Gyroscope.csv'")
        }
    }

    /// Seeded mutations (as GNSSReaderFuzzTests): fixes within their ranges, or a
    /// TraceFormatError naming the mutant — never a trap.
    @Test func mutants() throws {
        try GNSSReaderFuzzTests.expectMutantsReadOrRefused(["Location.csv", "WatchLocation.csv"].map { Self.dir.appendingPathComponent($0) }, seed: 0x5E45, count: 150) { data, source in
            var fixes: [Fix] = []
            _ = try CSVTraceReader.read(ByteLineReader(data: data, source: source), onFix: { fixes.append($0) })
            return fixes
        }
    }
}
