import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitGEOS
import GeoAnchorKitPROJ

/// Every public error type reads the same through `localizedDescription` as through
/// `description` (before this, Foundation printed "The operation could not be completed.
/// (GeoAnchorKit.GeoAnchorError error 5.)").
@Suite("Errors: LocalizedError")
struct ErrorDescriptionTests {
    @Test func localizedDescriptionIsTheMessage() {
        let errors: [any Error & CustomStringConvertible] = [
            GeoAnchorError.invalidLatitude(95),
            RoutingError.duplicateStopID("a"),
            TourError.noStops,
            TraceFormatError(source: "x.csv", line: 3, message: "bad latitude 95"),
            ByteParsing.TimeParseError(message: "bad time 'x'"),
            GEOSError.invalidInput(reason: "point (nan, 0) is not finite"),
            ProjError.invalidDefinition("EPSG:0", code: 1027, message: "crs not found"),
            IntegerConversionError(name: "satellites", value: 1e300, range: 0...255),
            GeoAnchorError.outOfRange(name: "walkingSpeed", value: 0, allowed: .greaterThan(0, unit: "m/s")),
            TourError.zoneEvaluationFailed(reason: "GEOS: point is not finite"),
        ]
        for e in errors {
            #expect((e as Error).localizedDescription == e.description, "\(type(of: e))")
            #expect(!e.description.contains("could not be completed"))
        }
        let located: any SourceLocatedError = TraceFormatError(source: "x.csv", line: 3, message: "bad latitude 95")
        #expect(located.description == "x.csv:3: bad latitude 95")
    }
}
