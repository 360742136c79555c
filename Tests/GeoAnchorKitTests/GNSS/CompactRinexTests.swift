import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitSimulation
import GeoAnchorKitTestSupport

/// Compact RINEX (Hatanaka) files as RNX2CRX 4.1.0 — Hatanaka's own compressor — writes them
/// (scripts/dev/crx_fixtures.sh). Reference: the RINEX file each was compressed from, read by
/// the same reader: every epoch (time, flag, each observation's code, phase, Doppler, C/N0,
/// LLI, frequency) equal.
@Suite("Compact RINEX")
struct CompactRinexTests {
    static let dir = SharedData.repositoryRoot.appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/GNSS")
    static func read(_ name: String) throws -> RinexObservationFile {
        try RinexObservationFile.read(contentsOf: dir.appendingPathComponent(name))
    }

    @Test(arguments: [
        ("pixel6.first2min.211.23d", "pixel6.first2min.211.23o"),   // CRINEX 1.0, arcs over 9 epochs, satellites coming and going
        ("geodetic-noslips.211.99d", "geodetic.211.99o"),           // CRINEX 1.0, two lines per satellite, events 1, 4, 5
        ("geodetic.rtklib304.crx", "geodetic.rtklib304.99o"),       // CRINEX 3.0, 5 systems
        ("pixel6.first2min.304.crx", "pixel6.first2min.304.rnx"),   // CRINEX 3.0, arcs over 9 epochs
    ]) func restoresTheRinexItCameFrom(crx: String, rinex: String) throws {
        let a = try Self.read(crx), b = try Self.read(rinex)
        #expect(a.version == b.version && a.observationTypes == b.observationTypes && a.timeSystem == b.timeSystem)
        #expect(a.epochs.count == b.epochs.count && a.epochs.count >= 3)
        for (x, y) in zip(a.epochs, b.epochs) {
            #expect(x.time == y.time && x.flag == y.flag)
            #expect(x.observations == y.observations, "epoch at \(y.line) of \(rinex)")
        }
        #expect(a.epochs.reduce(0) { $0 + $1.observations.count } > 20)
    }

    /// The restored text goes through the gzip layer too (`.crx.gz`, how archives serve it) and
    /// is recognised as observations by its first line.
    @Test func detectionAndErrors() throws {
        let first = try String(contentsOf: Self.dir.appendingPathComponent("geodetic.rtklib304.crx"), encoding: .utf8)
            .split(separator: "\n").first.map(String.init) ?? ""
        #expect(CompactRinex.looksLike(firstLine: first) && RinexObservationFile.looksLike(firstLine: first))
        let text = try String(contentsOf: Self.dir.appendingPathComponent("pixel6.first2min.211.23d"), encoding: .utf8)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        if lines.last == "" { lines.removeLast() }
        func refusal(_ edit: (inout [String]) -> Void) -> String {
            var l = lines
            edit(&l)
            do { _ = try RinexObservationFile.read(data: Data((l.joined(separator: "\n") + "\n").utf8), source: "p.23d"); return "read" }
            catch { return error.description }
        }
        // Line 19 is the first epoch (an `&` initialisation), 20 its clock, 21–39 its satellites.
        try #require(lines[18].hasPrefix("&23 11 07"))
        #expect(refusal { $0[18] = " " + $0[18].dropFirst() }.hasPrefix("p.23d:19: epoch line is a difference but there is no previous epoch"))
        #expect(refusal { $0[20] = $0[20].replacingOccurrences(of: "3&", with: "") }.hasPrefix("p.23d:21: difference '"))
        #expect(refusal { $0[20] = "3&2344x243757" + $0[20].drop { $0 != " " } } == "p.23d:21: '3&2344x243757' (type 1) is not an integer")
        #expect(refusal { $0[20] = "3&99999999999999999999" + $0[20].drop { $0 != " " } } == "p.23d:21: '3&99999999999999999999' (type 1) is not an integer")
        #expect(refusal { $0[20] = "3&99999999999999" + $0[20].drop { $0 != " " } } == "p.23d:21: value 99999999999.999 does not fit RINEX's F14.3")
        #expect(refusal { $0 = Array($0.prefix(30)) } == "p.23d:30: file ends inside an epoch (satellite lines missing)")
        #expect(refusal { $0[0] = "2.0" + $0[0].dropFirst(3) } == "p.23d:1: Compact RINEX version '2.0' is not supported (1.0 and 3.0 are)")
        #expect(refusal { _ in } == "read")
    }

    /// Seeded mutations (as GNSSReaderFuzzTests): each mutant reads, or is refused with a
    /// TraceFormatError naming it (the file, or its restored text) — never a trap.
    @Test func mutants() throws {
        try GNSSReaderFuzzTests.expectMutantsReadOrRefused(["pixel6.first2min.211.23d", "pixel6.first2min.304.crx"].map { Self.dir.appendingPathComponent($0) },
                                                           seed: 0xC8C, count: 100) { data, source in
            _ = try RinexObservationFile.read(data: data, source: source)
            return []
        }
    }
}
