import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport

/// RINEX 3.04 observation output (`RinexObservationWriter`). References: RTKLIB 2.4.3's reading
/// of the file geobench wrote from the u-blox fixture (scripts/dev/rinex_writer_fixtures.sh:
/// convbin -r rinex, its RINEX read back: every value of the log to 0.0005, every signal
/// including L5/E5a, except the Doppler-only signals RTKLIB does not keep); the readers' own epochs read back (RINEX input: equal; GnssLogger and
/// u-blox input: to RINEX's 0.001 resolution).
@Suite("RINEX observation writer")
struct RinexObservationWriterTests {
    static let dir = SharedData.repositoryRoot.appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/GNSS")
    static let ubx = "pixel5.first30.rawx.ubx"
    static let creation = Date(timeIntervalSince1970: 1_795_824_000)   // 2026-11-28 00:00:00 UTC

    static func written(_ epochs: [GNSSEpoch], channels: [Int: Int] = [:], from name: String) -> RinexObservationWriter.Result {
        var h = RinexObservationWriter.Header()
        h.markerName = String(name.prefix { $0 != "." }); h.program = "geobench"; h.comments = ["from " + name]
        return RinexObservationWriter.text(epochs: epochs, glonassChannels: channels, header: h, creation: creation)
    }

    /// Every observation of `a` is in `b` at the same time, satellite and signal, values within
    /// `tolerance`, the phase's loss-of-lock bits equal; and nothing more in `b`.
    static func expectSame(_ a: [GNSSEpoch], _ b: [GNSSEpoch], tolerance: Double, _ what: String,
                           sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(a.count == b.count, "\(what): \(a.count) vs \(b.count) epochs", sourceLocation: sourceLocation)
        func close(_ x: Double?, _ y: Double?) -> Bool {
            guard let x, let y else { return x == nil && y == nil }
            return abs(x - y) <= tolerance
        }
        var differ = 0
        for (e, r) in zip(a, b) {
            #expect(abs(e.time - r.time) < 1e-7 && e.flag == r.flag, "\(what) epoch at \(r.time)", sourceLocation: sourceLocation)
            #expect(e.observations.count == r.observations.count, "\(what) epoch at line \(r.line)", sourceLocation: sourceLocation)
            for o in e.observations {
                guard let x = r.observations.first(where: { $0.satellite == o.satellite && $0.signal == o.signal }),
                      close(o.pseudorange, x.pseudorange), close(o.carrierPhase, x.carrierPhase), close(o.doppler, x.doppler),
                      close(o.cn0, x.cn0), o.frequency == x.frequency,
                      o.carrierPhase == nil || o.lossOfLockIndicator == x.lossOfLockIndicator else { differ += 1; continue }
            }
        }
        #expect(differ == 0, "\(what): \(differ) observations differ", sourceLocation: sourceLocation)
    }

    /// The u-blox log as geobench writes it is the committed file RTKLIB read (byte for byte,
    /// creation time fixed), and RTKLIB's reading holds every value of the log.
    @Test func rtklibReadsIt() throws {
        let log = try UBXRawLog.read(contentsOf: Self.dir.appendingPathComponent(Self.ubx))
        let ours = Self.written(log.epochs, channels: log.glonassChannels, from: Self.ubx)
        let committed = try #require(try ByteLineReader.decompressedContents(of: Self.dir.appendingPathComponent("pixel5.first30.rawx.geobench304.rnx.gz")))
        #expect(ours.text == String(decoding: committed, as: UTF8.self), "the writer changed: run scripts/dev/rinex_writer_fixtures.sh")
        #expect(ours.epochs == 30 && ours.satelliteRecords == 441 && ours.unrepresentable == 0 && ours.epochsLeftOut == 0)
        let rtklib = try RinexObservationFile.read(contentsOf: Self.dir.appendingPathComponent("pixel5.first30.rawx.geobench304.rtklib304.rnx.gz"))
        // RTKLIB keeps a signal only with a code or a phase: the 12 with Doppler and C/N0 alone
        // (prValid clear, no phase) are in our file and not in its.
        let withRange = log.epochs.map { e in
            var e = e
            e.observations.removeAll { $0.pseudorange == nil && $0.carrierPhase == nil }
            return e
        }
        #expect(log.epochs.reduce(0) { $0 + $1.observations.count } - withRange.reduce(0) { $0 + $1.observations.count } == 12)
        Self.expectSame(withRange, rtklib.epochs, tolerance: 0.0005, "RTKLIB's reading")
        #expect(rtklib.glonassChannels == log.glonassChannels)
    }

    /// Read back by our reader: RINEX input (RTKLIB 3.04, RINEX 2.11, Compact RINEX) gives the
    /// same epochs exactly; the u-blox log to RINEX's resolution.
    @Test(arguments: ["pixel6.first2min.304.rnx", "geodetic.211.99o", "pixel6.first2min.211.23d"])
    func readsBackAsRead(file: String) throws {
        let source = try RinexObservationFile.read(contentsOf: Self.dir.appendingPathComponent(file))
        let text = Self.written(source.epochs, channels: source.glonassChannels, from: file).text
        let back = try RinexObservationFile.read(data: Data(text.utf8), source: "back.rnx")
        Self.expectSame(source.epochs, back.epochs, tolerance: 0, file)
        #expect(back.version == 3.04 && back.timeSystem == .gps)
    }

    @Test func uBloxReadsBack() throws {
        let log = try UBXRawLog.read(contentsOf: Self.dir.appendingPathComponent(Self.ubx))
        let back = try RinexObservationFile.read(data: Data(Self.written(log.epochs, from: Self.ubx).text.utf8), source: "back.rnx")
        Self.expectSame(log.epochs, back.epochs, tolerance: 0.0005, "u-blox")
        #expect(back.glonassChannels == log.glonassChannels)   // from the measurements' frequencies
    }

    /// A GnssLogger log (Google's 2016 demo) to RINEX and back: every measurement to 0.0005.
    @Test(.enabled(if: SharedData.shouldRun)) func gnssLoggerReadsBack() throws {
        let log = try GnssLoggerRawLog.read(contentsOf: SharedData.url("gnss_raw/google_gps_measurement_tools/pseudoranges_log_2016_06_30_21_26_07.txt"))
        let r = Self.written(log.epochs, from: "pseudoranges_log_2016_06_30_21_26_07.txt")
        #expect(r.unrepresentable == 0 && r.epochs == log.epochs.count)
        let back = try RinexObservationFile.read(data: Data(r.text.utf8), source: "back.rnx")
        Self.expectSame(log.epochs, back.epochs, tolerance: 0.0005, "GnssLogger")
    }

    /// What RINEX cannot hold is left out and counted, never written wrong.
    @Test func unrepresentable() throws {
        let g = SatelliteID(system: .gps, number: 5)
        let epochs = [
            GNSSEpoch(time: 1_303_680_000.5, observations: [
                GNSSObservation(satellite: g, signal: "1C", frequency: GNSSConstants.l1Frequency, pseudorange: 2e10, carrierPhase: -123.456, doppler: 1, cn0: 40),
                GNSSObservation(satellite: SatelliteID(system: .beidou, number: 150), signal: "2I", frequency: GNSSConstants.b1iFrequency, pseudorange: 2e7),
            ]),
            GNSSEpoch(time: .nan, observations: [GNSSObservation(satellite: g, signal: "1C", frequency: nil, pseudorange: 2e7)]),
        ]
        let r = RinexObservationWriter.text(epochs: epochs)
        #expect(r.unrepresentable == 2 && r.epochsLeftOut == 1 && r.epochs == 1)
        let back = try RinexObservationFile.read(data: Data(r.text.utf8), source: "back.rnx")
        #expect(back.epochs.count == 1 && back.epochs[0].observations.count == 1)
        let o = try #require(back.epochs.first?.observations.first)
        #expect(o.pseudorange == nil && o.carrierPhase == -123.456 && o.doppler == 1 && o.cn0 == 40)
        #expect(back.epochs[0].time == 1_303_680_000.5)
    }
}
