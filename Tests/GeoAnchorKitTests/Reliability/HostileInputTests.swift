import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport
@testable import GeoAnchorKitSimulation

/// Issue 15: each mechanism against the hostile inputs that trapped, hung or produced garbage
/// before it. Every expectation is a typed error or a finite answer; a trap would end the run.
@Suite("Hostile inputs")
struct HostileInputTests {
    static let repo = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    // MARK: checked conversion

    @Test func checkedConversionNeverTraps() throws {
        #expect(try Int(checking: 41.9, "x") == 41)
        #expect(try Int(checking: -2.5, "x", rounding: .down) == -3)
        for bad in [Double.nan, .infinity, -.infinity, 1e20, -1e19, 9.3e18] {
            #expect(throws: IntegerConversionError.self) { try Int(checking: bad, "x") }
        }
        #expect(throws: IntegerConversionError.self) { try Int(checking: 2.5, "satellites", rounding: nil) }
        #expect(throws: IntegerConversionError.self) { try Int(checking: 9, "quality", in: 0...8) }
        #expect(Int.checkedProduct(Int(Int32.max), Int(Int32.max) * 4) == nil)
    }

    // MARK: geoid grid

    /// A global 3 × 4 grid (spacing 90°) built in memory; header per the GTX layout (big-endian).
    static func gtx(rows: Int32, columns: Int32, values: Int) -> Data {
        var d = Data()
        for v in [-90.0, 0, 90, 90] { withUnsafeBytes(of: v.bitPattern.bigEndian) { d.append(contentsOf: $0) } }
        for v in [rows, columns] { withUnsafeBytes(of: v.bigEndian) { d.append(contentsOf: $0) } }
        for _ in 0..<values { withUnsafeBytes(of: Float(10).bitPattern.bigEndian) { d.append(contentsOf: $0) } }
        return d
    }

    @Test func gtxHeaderClaimingTooManyCellsIsCorrupt() {
        // 2e9 × 2e9 × 4 bytes overflows Int: before, a trap; now the size check names the header.
        #expect(throws: GeoAnchorError.self) { try GeoidGrid(gtxData: Self.gtx(rows: 2_000_000_000, columns: 2_000_000_000, values: 0), path: "huge.gtx") }
    }

    @Test func geoidAtLongitude1e308IsFinite() throws {
        let grid = try GeoidGrid(gtxData: Self.gtx(rows: 3, columns: 4, values: 12), path: "g.gtx")
        // Constant grid: any covered point has N = 10 m (weights sum to 1: tolerance 1e-9 m).
        let a = try grid.undulation(latitude: 50, longitude: 1e308)
        let b = try grid.undulation(latitude: 50, longitude: -1e308, interpolation: .bicubic)
        #expect(abs(a - 10) < 1e-9 && abs(b - 10) < 1e-9, "\(a) \(b)")
    }

    // MARK: trace readers agree

    static func csv(_ row: String) throws {
        let text = "time,latitude,longitude,horizontal_accuracy,satellites,quality\n" + row + "\n"
        _ = try CSVTraceReader.read(ByteLineReader(data: Data(text.utf8), source: "t.csv"), onFix: { _ in })
    }

    @Test(arguments: ["1700000000,50,14,3,1e20,1", "1700000000,50,14,3,12,1e20", "1e308,50,14,3,12,1",
                      "1e17,50,14,3,12,1", "1700000000,50,14,-1,12,1", "1700000000,50,14,3,2.5,1"])
    func csvRejectsExtremeValues(row: String) {
        #expect(throws: TraceFormatError.self) { try Self.csv(row) }
    }

    @Test func geoJSONRejectsWhatCSVRejects() {
        for props in [#""horizontal_accuracy": -5"#, #""satellites": 1e20"#, #""quality": 1e20"#, #""hdop": -1"#] {
            let text = #"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{"time":"2026-05-16T14:00:00Z","#
                + props + #"},"geometry":{"type":"Point","coordinates":[14.42,50.08]}}]}"#
            #expect(throws: TraceFormatError.self, "\(props)") {
                let fc = try GeoJSONFeatureCollection.decode(Data(text.utf8), source: "t.geojson")
                _ = try GeoJSONTrace.fixes(from: fc, source: "t.geojson", options: TraceReadConfiguration(), onFix: { _ in })
            }
        }
    }

    @Test func gpxRejectsWhatCSVRejects() {
        let gpx = """
        <?xml version="1.0"?><gpx version="1.1" creator="t"><trk><trkseg>
        <trkpt lat="50" lon="14"><time>2026-01-01T00:00:00Z</time><hdop>-1</hdop></trkpt></trkseg></trk></gpx>
        """
        #expect(throws: TraceFormatError.self) { _ = try GPXReader.read(data: Data(gpx.utf8), source: "t.gpx", onFix: { _ in }) }
    }

    /// Before: a 100 KB entity referenced many times never finished parsing.
    @Test func gpxEntityDeclarationsAreRefused() {
        let gpx = """
        <?xml version="1.0"?><!DOCTYPE gpx [<!ENTITY a "\(String(repeating: "x", count: 1000))">]>
        <gpx version="1.1" creator="t"><trk><name>\(String(repeating: "&a;", count: 1000))</name></trk></gpx>
        """
        #expect(throws: TraceFormatError.self) { _ = try GPXReader.read(data: Data(gpx.utf8), source: "laughs.gpx", onFix: { _ in }) }
    }

    // MARK: writers

    @Test func writerRefusesWhatReadersReject() {
        let w = TraceWriter(format: .csv) { _ in }
        #expect(throws: TraceFormatError.self) { try w.write(Fix(time: 0, latitude: 50, longitude: 14, horizontalAccuracy: .nan)) }
        #expect(throws: TraceFormatError.self) { try w.write(Fix(time: 1e308, latitude: 50, longitude: 14)) }
    }

    /// NMEA RMC years have two digits: 1980…2079 only (before: 2100 was written as 00 = 2000).
    @Test func nmeaYearsOutsideTheWindowAreErrors() throws {
        let w = TraceWriter(format: .nmea) { _ in }
        #expect(throws: TraceFormatError.self) { try w.write(Fix(time: 4_102_444_800, latitude: 50, longitude: 14)) } // 2100-01-01
        #expect(throws: TraceFormatError.self) { try w.write(Fix(time: 157_766_400, latitude: 50, longitude: 14)) }   // 1975-01-01
        try w.write(Fix(time: 1_795_262_400, latitude: 50, longitude: 14))
    }

    struct DiskFull: Error {}

    @Test func writeErrorsAreReported() throws {
        let w = TraceWriter(format: .csv, name: "out.csv") { _ in throw DiskFull() }
        try w.write(Fix(time: 0, latitude: 50, longitude: 14))
        #expect(throws: TraceFormatError.self) { try w.finish() }
    }

    // MARK: routing

    static func tsp(_ body: String) throws -> TSPLIBInstance { try TSPLIBInstance.parse(body, source: "t.tsp") }

    @Test func tsplibHostileInstancesAreTypedErrors() {
        let head = "NAME: t\nTYPE: TSP\nDIMENSION: 3\n"
        let cases = [
            head + "EDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 nan 1\n3 1 1\nEOF\n",
            head + "EDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\nEDGE_WEIGHT_SECTION\n9223372036854775807 1 1\nEOF\n",
            head + "EDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\nEDGE_WEIGHT_SECTION\n1e300 1 1\nEOF\n",
            head + "EDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: FULL_MATRIX\nEDGE_WEIGHT_SECTION\n0 1 2\n5 0 1\n2 1 0\nEOF\n",
            head + "EDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: FULL_MATRIX\nEDGE_WEIGHT_SECTION\n0 -1 2\n-1 0 1\n2 1 0\nEOF\n",
            "NAME: d\nTYPE: TSP\nDIMENSION: 1000000000\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\nEOF\n",
            "NAME: d\nTYPE: TSP\nDIMENSION: 2000\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: FULL_MATRIX\nEDGE_WEIGHT_SECTION\n0 1\nEOF\n",
        ]
        for text in cases {
            #expect(throws: RoutingError.self, "\(text)") { try Self.tsp(text) }
        }
        #expect(throws: RoutingError.self) { try TSPLIBInstance.parseTour("TOUR_SECTION\n-9223372036854775808\n", source: "t.tour") }
    }

    /// Beyond the matrix limit a constrained problem is refused before any n × n allocation.
    @Test func constrainedRouteStopCountIsBoundedBeforeTheMatrix() {
        var stops = (0...VisitOrderSolver.maximumNodes).map {
            RouteStop(id: "s\($0)", coordinate: GeodeticCoordinate(latitude: 50 + Double($0) * 1e-5, longitude: 14, altitude: 0))
        }
        stops[3].timeWindow = 0...3600
        #expect(throws: RoutingError.tooManyStops(count: stops.count, limit: VisitOrderSolver.maximumNodes)) {
            _ = try RoutePlanner.plan(RouteProblem(stops: stops))
        }
    }

    /// A plain tour beyond the sparse threshold (before: a 1 GB matrix and no time limit at 5,000
    /// stops) is ordered by SparseTourSolver. Reference: stops on one meridian, start at the
    /// southern end, free end: the optimum visits them by latitude (exact order expected).
    @Test func manyStopsUseTheSparseSolver() throws {
        var rng = SplitMix64(seed: 3)
        var lats = (0..<3_000).map { 50 + Double($0) * 2e-5 }
        for i in stride(from: lats.count - 1, to: 1, by: -1) { lats.swapAt(i, 1 + rng.below(i)) } // keep the first
        let stops = lats.enumerated().map { RouteStop(id: "s\($0.offset)", coordinate: GeodeticCoordinate(latitude: $0.element, longitude: 14, altitude: 0)) }
        let plan = try RoutePlanner.plan(RouteProblem(stops: stops), options: SolverConfiguration(timeLimit: 1))
        let byLatitude = stops.sorted { $0.coordinate.latitude < $1.coordinate.latitude }.map(\.id)
        #expect(plan.order == byLatitude)
        // Length: (3000 − 1) × 2e-5° of latitude ≈ 6.67 km; geodesic sum to 1e-6 relative.
        #expect(abs(plan.estimate.distance - plan.estimate.legs.reduce(0) { $0 + $1.distance }) < 1e-6)
        #expect(plan.estimate.distance.isFinite && plan.estimate.distance < 6_700)
    }

    // MARK: tours

    @Test func fenceIndexStaysSmallForHugeRadiiAndReaches() {
        var index = CircleFenceIndex(centers: [PlanarPoint(x: 0, y: 0), PlanarPoint(x: 50, y: 0)], radii: [1e6, 20])
        var seen: [Int] = []
        index.forEachCandidate(near: PlanarPoint(x: 9e5, y: 0), reach: 10) { seen.append($0) }
        #expect(seen == [0]) // the 1000 km fence is found without registering (2e6/40)² cells
        seen = []
        index.forEachCandidate(near: PlanarPoint(x: 0, y: 0), reach: 1e15) { seen.append($0) } // before: Int64 overflow trap
        #expect(seen.sorted() == [0, 1])
    }

    @Test func antipodalStopIsRefusedByName() throws {
        let stops = [TourStop(id: "a", coordinate: GeodeticCoordinate(latitude: 50.087, longitude: 14.42), radius: 20),
                     TourStop(id: "b", coordinate: GeodeticCoordinate(latitude: 50.088, longitude: 14.43), radius: 20),
                     TourStop(id: "antipode", coordinate: GeodeticCoordinate(latitude: -50.087, longitude: -165.58), radius: 20)]
        do {
            _ = try TourSession(tour: try Tour(stops: stops))
            Issue.record("an antipodal stop was accepted")
        } catch {
            #expect("\(error)".contains("antipode"))
        }
    }

    // MARK: simulator

    /// Before: `--sensor-duration 30` changed every raw fix of the same seed (sensor noise and
    /// GNSS noise shared one stream). Compared exactly (same seed → bit-identical fixes).
    @Test func simulatedFixesDoNotDependOnSensorDuration() throws {
        var config = try #require(TraceSimulator.Configuration.scenarios["city-walk"])
        config.sensors.duration = 30
        let short = try TraceSimulator(config: config, seed: 7).run()
        config.sensors.duration = nil
        let long = try TraceSimulator(config: config, seed: 7).run()
        config.sensors.duration = 0
        let none = try TraceSimulator(config: config, seed: 7).run()
        #expect(short.raw == long.raw && short.truth == long.truth && none.raw == long.raw)
        #expect(long.sensors.count > short.sensors.count && none.sensors.isEmpty)
    }

    // MARK: magnetic model

    @Test(.enabled(if: SharedData.shouldRun)) func wmmTruncatedAfterDegree8IsCorrupt() throws {
        let full = try SharedData.text("wmm/WMM2025/WMM.COF")
        let truncated = full.split(separator: "\n", omittingEmptySubsequences: false).filter { line in
            let f = line.split(separator: " ")
            guard f.count == 6, let n = Int(f[0]) else { return true }
            return n <= 8
        }.joined(separator: "\n")
        #expect(throws: GeoAnchorError.self) { try MagneticModel(cofText: truncated, source: "wmm8.cof") }
        _ = try MagneticModel(cofText: full, source: "WMM.COF")
    }
}
