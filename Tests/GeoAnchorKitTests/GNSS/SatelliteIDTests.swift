import Testing
@testable import GeoAnchorKit

/// `SatelliteID`'s text form as RINEX, SP3 and CLK files write it (RINEX 3.05 §4.5: a system
/// letter and a two-digit number, a blank allowed for the tens; RINEX 2 without the letter).
@Suite("Satellite identifiers")
struct SatelliteIDTests {
    @Test func parsesTheFileForms() {
        #expect(SatelliteID("G05") == SatelliteID(system: .gps, number: 5))
        #expect(SatelliteID("G 5") == SatelliteID(system: .gps, number: 5))
        #expect(SatelliteID(" 5") == SatelliteID(system: .gps, number: 5))
        #expect(SatelliteID(" 5", defaultSystem: .glonass) == SatelliteID(system: .glonass, number: 5))
        #expect(SatelliteID("R21") == SatelliteID(system: .glonass, number: 21))
        #expect(SatelliteID("E13 ") == SatelliteID(system: .galileo, number: 13))
        #expect(SatelliteID("\tC01\t") == SatelliteID(system: .beidou, number: 1))
        #expect(SatelliteID("J 2") == SatelliteID(system: .qzss, number: 2))
    }

    @Test func refusesEverythingElse() {
        for s in ["", "   ", "G", "G  ", "G00", "G0a", "G1234", "X01", "G-1", "G+1", "G１２", "GG1", "5 G"] {
            #expect(SatelliteID(Substring(s)) == nil, "'\(s)'")
        }
    }
}
