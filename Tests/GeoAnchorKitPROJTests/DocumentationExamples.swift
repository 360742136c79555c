import Foundation
import Testing
import GeoAnchorKit
@testable import GeoAnchorKitPROJ

/// The ```swift examples of the GeoAnchorKitPROJ DocC catalogue, each verbatim inside a test
/// (DocumentationExamplesCheckTests in GeoAnchorKitTests fails when a documented block is not
/// found here). Code before a block sets up what the prose assumes; code after it checks the
/// results against an independent reference named in the comment.
///
/// `cs2cs` values were computed with PROJ 9.1.1's command-line tool (Debian `proj-bin`), which
/// chooses its operation with `proj_create_crs_to_crs` like ``ProjTransformer/init(from:to:)``:
/// it is the same library reached through another path, so agreement is expected to well below
/// a millimetre.
@Suite("Documentation examples (PROJ)")
struct DocumentationExamples {
    // MARK: - GeoAnchorKitPROJ.md, Transforming coordinates

    /// Reference: `echo "49.9617 14.3950" | cs2cs -f "%.9f" EPSG:4326 EPSG:32633` →
    /// 456607.121954992 5534547.751602761; tolerance 1 mm. The inverse must return the input to
    /// 1e-8° (1 mm on the ground).
    @Test func utmScalar() throws {
        let utm = try ProjTransformer(from: "EPSG:4326", to: "EPSG:32633")   // WGS 84 → WGS 84 / UTM zone 33N
        let gate = try utm.transform(x: 14.3950, y: 49.9617)   // x = longitude, y = latitude (degrees)
        print(gate.x, gate.y)                                  // easting, northing (meters)
        let back = try utm.transform(x: gate.x, y: gate.y, direction: .inverse)   // degrees again

        #expect(abs(gate.x - 456_607.121954992) < 1e-3 && abs(gate.y - 5_534_547.751602761) < 1e-3, "\(gate)")
        #expect(abs(back.x - 14.3950) < 1e-8 && abs(back.y - 49.9617) < 1e-8, "\(back)")
    }

    /// References: `printf "50.0870 14.4208\n49.1951 16.6080\n" | cs2cs -f "%.9f" EPSG:4326
    /// EPSG:5514` → Prague −742848.862318538 −1043059.714066234, Brno −598161.793542055
    /// −1160754.083775582 (1 mm). Anchorage: cs2cs answers a finite (−349357.899, −7043884.524)
    /// whose inverse (`cs2cs EPSG:5514 EPSG:4326`) is 0.50° N 22.35° E, 13,127 km from
    /// Anchorage (GeographicLib), so the round-trip check must fail it; latitude 95° is
    /// rejected before PROJ as `invalidCoordinate`. Failed outputs are not finite.
    @Test func krovakBatchWithFailures() throws {
        let krovak = try ProjTransformer(from: "EPSG:4326", to: "EPSG:5514")   // WGS 84 → S-JTSK / Krovak East North
        let points = [(x: 14.4208, y: 50.0870, z: 0.0),    // Prague, Old Town Square (longitude, latitude, height)
                      (x: 16.6080, y: 49.1951, z: 0.0),    // Brno
                      (x: -149.90, y: 61.22, z: 0.0),      // Anchorage: far outside Krovak's area
                      (x: 14.3950, y: 95.0, z: 0.0)]       // not a latitude
        let result = krovak.transform(points, roundTripTolerance: ProjTransformer.crsRoundTripTolerance)
        for failure in result.failures {
            print(failure.index, failure.error)            // 2: it comes back thousands of km away; 3: latitude outside [−90, 90]
        }
        let prague = result.points[0]                      // easting, northing (meters)

        #expect(abs(prague.x - -742_848.862318538) < 1e-3 && abs(prague.y - -1_043_059.714066234) < 1e-3, "\(prague)")
        let brno = result.points[1]
        #expect(abs(brno.x - -598_161.793542055) < 1e-3 && abs(brno.y - -1_160_754.083775582) < 1e-3, "\(brno)")
        try #require(result.failures.map(\.index) == [2, 3])
        guard case .transformFailed(_, _, _, 0, let message) = result.failures[0].error else {
            Issue.record("\(result.failures[0].error)"); return
        }
        #expect(message.hasPrefix("outside the transformation's domain"), "\(message)")
        guard case .invalidCoordinate(_, 95, _) = result.failures[1].error else {
            Issue.record("\(result.failures[1].error)"); return
        }
        #expect(!result.points[2].x.isFinite && !result.points[3].x.isFinite)
        // Without the check PROJ's garbage would pass: the finite answer cs2cs also gives.
        let unchecked = krovak.transform(Array(points.prefix(3)))
        #expect(unchecked.failures.isEmpty)
        #expect(abs(unchecked.points[2].x - -349_357.899347) < 1e-3 && abs(unchecked.points[2].y - -7_043_884.523976) < 1e-3)
    }

    /// Reference: PROJ's own test file builtins.gie (PROJ commit 52da98bd, /work/shared/data
    /// geodesy/proj_gie/builtins.gie, section `operation +proj=utm +zone=32`, GRS80 by default):
    /// accept 12 56 → expect 687071.43910944 6210141.32674801, tolerance 0.001 mm. The same
    /// tolerance holds here (the unitconvert step is exact to ~1e-16 rad).
    @Test func utmPipeline() throws {
        let etrs89ToUTM32 = try ProjTransformer(pipeline:
            "+proj=pipeline +step +proj=unitconvert +xy_in=deg +xy_out=rad +step +proj=utm +zone=32 +ellps=GRS80")
        print(etrs89ToUTM32.sourceUnits)                      // degrees (a bare "+proj=utm …" takes radians)
        let p = try etrs89ToUTM32.transform(x: 12, y: 56)     // longitude, latitude (degrees) → easting, northing (m)

        #expect(etrs89ToUTM32.sourceUnits == .degrees && etrs89ToUTM32.targetUnits == .linear)
        #expect(try ProjTransformer(pipeline: "+proj=utm +zone=32 +ellps=GRS80").sourceUnits == .radians)
        #expect(abs(p.x - 687_071.43910944) <= 1e-6 && abs(p.y - 6_210_141.32674801) <= 1e-6, "\(p)")
    }

    /// Reference: cs2cs as in `utmScalar` for each stop
    /// (`printf "49.9617 14.3950\n50.0870 14.4208\n49.1951 16.6080\n" | cs2cs -f "%.9f" EPSG:4326 EPSG:32633`),
    /// 1 mm; both tasks' outputs in input order.
    @Test func poolFromTwoTasks() async throws {
        let westStops = [(x: 14.3950, y: 49.9617, z: 0.0), (x: 14.4208, y: 50.0870, z: 0.0)]
        let eastStops = [(x: 16.6080, y: 49.1951, z: 0.0)]

        let pool = try ProjTransformerPool(from: "EPSG:4326", to: "EPSG:32633")
        async let west = pool.withTransformer { utm in utm.transform(westStops).points }   // a transformer no other task uses
        async let east = pool.withTransformer { utm in utm.transform(eastStops).points }
        let (westUTM, eastUTM) = try await (west, east)

        let expected: [(Double, Double)] = [(456_607.121954992, 5_534_547.751602761), (458_565.509312791, 5_548_464.472623862),
                                            (617_150.888359111, 5_450_388.985545509)]
        let got = westUTM + eastUTM
        try #require(got.count == 3)
        for (g, e) in zip(got, expected) {
            #expect(abs(g.x - e.0) < 1e-3 && abs(g.y - e.1) < 1e-3, "\(g) vs \(e)")
        }
    }

    /// Reference: GeographicLib 2.1 (Python), `Geodesic.WGS84.Inverse(50.0870, 14.4208, 49.1951,
    /// 16.6080)`: s12 186528.64984060265 m, azi1 121.28923711404292°, azi2 122.95602458957043°.
    /// Tolerances: 1e-8 m and 1e-12° (Karney 2013: ~15 nm, ~1e-12° for both implementations).
    @Test func projGeodesicReference() throws {
        let reference = ProjGeodesic()                         // WGS 84; share it between threads freely
        let line = reference.inverse(latitude1: 50.0870, longitude1: 14.4208, latitude2: 49.1951, longitude2: 16.6080)
        print(line.distance, line.azimuth1, line.azimuth2)     // meters; degrees clockwise from north

        #expect(abs(line.distance - 186_528.64984060265) < 1e-8, "\(line.distance)")
        #expect(abs(line.azimuth1 - 121.28923711404292) < 1e-12 && abs(line.azimuth2 - 122.95602458957043) < 1e-12,
                "\(line.azimuth1) \(line.azimuth2)")
    }
}
