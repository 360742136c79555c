import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitSimulation
import GeoAnchorKitTestSupport

/// gzip-compressed inputs (``Gzip``, ``ByteLineReader/init(url:chunkSize:)``), on files GNU gzip
/// 1.12 and Python's gzip module wrote (scripts/dev/gzip_fixtures.sh). Reference: the committed
/// plain file each was compressed from, read by the same reader.
@Suite("gzip and compress inputs")
struct GzipTests {
    static let fixtures = SharedData.repositoryRoot.appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures")
    static func gz(_ name: String) -> URL { fixtures.appendingPathComponent("Gzip/" + name) }
    static func plain(_ path: String) -> URL { fixtures.appendingPathComponent(path) }

    static func fixes(_ url: URL) throws -> [Fix] {
        var out: [Fix] = []
        _ = try TraceReader.read(url: url, onFix: { out.append($0) })
        return out
    }

    /// `compress` (.Z) files (N)compress 4.2.4.6 wrote with code widths up to 16, 12 and 10 bits
    /// (CLEAR codes and width changes, each skipping to the end of its group of eight codes)
    /// decompress to the file compressed (reference: that file; `uncompress` gives the same), and
    /// read as it.
    @Test(arguments: [("geodetic.211.99o.Z", "GNSS/geodetic.211.99o"), ("pixel6.b12.23o.Z", "GNSS/pixel6.first2min.211.23o"),
                      ("pixel6.b10.23o.Z", "GNSS/pixel6.first2min.211.23o")])
    func unixCompress(z: String, original: String) throws {
        let text = try UnixCompress.decompress(try Data(contentsOf: Self.gz(z)))
        #expect(Data(text) == (try Data(contentsOf: Self.plain(original))), "\(z)")
        let a = try RinexObservationFile.read(contentsOf: Self.gz(z)), b = try RinexObservationFile.read(contentsOf: Self.plain(original))
        #expect(a.epochs == b.epochs)
        #expect(TraceFormat(fileName: "log.nmea.Z") == .nmea)
        // A code beyond the dictionary, a bad header: typed errors.
        var bytes = Array(try Data(contentsOf: Self.gz(z)))
        bytes[2] = 0x80 | 20
        #expect(throws: ZipError("compress (.Z) header: maximum code width 20 bits is not in 9...16")) { try UnixCompress.decompress(Data(bytes)) }
    }

    /// A `.Z` whose input turns from text to compressed bytes and back: compress 4.2.4.6 emits a
    /// CLEAR code (block mode) when its ratio drops, and the decoder restarts its dictionary
    /// with 9-bit codes from the end of that group of codes. Reference: the five committed
    /// files compress read, concatenated (scripts/dev/gzip_fixtures.sh).
    @Test func unixCompressClear() throws {
        let parts = ["GNSS/pixel6.first2min.211.23o", "Zip/python-deflate-9.zip", "Zip/python-deflate-1.zip", "Zip/python-zip64.zip", "GNSS/geodetic.211.99o"]
        var original = Data()
        for p in parts { original += try Data(contentsOf: Self.plain(p)) }
        let z = try Data(contentsOf: Self.gz("mixed.b11.Z"))
        #expect(z[2] == 0x80 | 11)   // block mode, codes up to 11 bits
        #expect(Data(try UnixCompress.decompress(z)) == original)
    }

    /// A file delivered in a ZIP (Python zipfile, Info-ZIP): read as the file inside it — the
    /// only one, or the one whose extension the archive's name gives (`walk.nmea.zip` beside a
    /// README); two candidates are refused, naming them. Reference: the plain files.
    @Test func zippedFiles() throws {
        #expect(try Self.fixes(Self.gz("walk.gpx.zip")) == Self.fixes(Self.plain("Traces/Other/walk.gpx")))
        #expect(try Self.fixes(Self.gz("walk.nmea.zip")) == Self.fixes(Self.plain("Traces/Other/walk.gpsbabel.nmea")))
        #expect(TraceFormat(fileName: "walk.gpx.zip") == .gpx)
        do { _ = try Self.fixes(Self.gz("two.nmea.zip")); Issue.record("accepted") } catch let e as TraceFormatError {
            #expect(e.message.hasPrefix("ZIP archive with 2 files (walk.gpsbabel.nmea, copy.nmea): name the one to read as "
                                        + Self.gz("two.nmea.zip").path + "/walk.gpsbabel.nmea"), "\(e)")
        }
        // `ARCHIVE.zip/MEMBER` names one (GDAL's /vsizip/ naming): the two-file archive's first,
        // a GPX beside nothing else, a KML beside a README (the XML readers take it too).
        #expect(try Self.fixes(Self.gz("two.nmea.zip").appendingPathComponent("walk.gpsbabel.nmea")) == Self.fixes(Self.plain("Traces/Other/walk.gpsbabel.nmea")))
        #expect(try Self.fixes(Self.gz("walk.gpx.zip").appendingPathComponent("walk.gpx")) == Self.fixes(Self.plain("Traces/Other/walk.gpx")))
        let kml = Self.plain("Zip/python-deflate-9.zip").appendingPathComponent("doc.kml")
        #expect(TraceFormat(fileName: kml.path) == .kml)
        let archive = try ZipArchive(data: Data(contentsOf: Self.plain("Zip/python-deflate-9.zip")))
        let doc = try #require(archive.entries.first { $0.name == "doc.kml" })
        #expect(try ByteLineReader.decompressedContents(of: kml) == Data(try archive.data(for: doc)))
        #expect(try KMLReader.areas(url: kml).count >= 0)   // the XML path opens the member (no "cannot open file")
        do { _ = try Self.fixes(Self.gz("two.nmea.zip").appendingPathComponent("other.nmea")); Issue.record("accepted") } catch let e as TraceFormatError {
            #expect(e.message.hasPrefix("ZIP archive has no file 'other.nmea' (2 files: walk.gpsbabel.nmea, copy.nmea)"), "\(e)")
        }
    }

    /// Byte-exact text: the decompressed bytes are the file gzip compressed (its size and
    /// CRC-32 in the trailer are checked too).
    @Test(arguments: [("geodetic.211.99o.gz", "GNSS/geodetic.211.99o"), ("walk.gpsbabel.nmea.gz", "Traces/Other/walk.gpsbabel.nmea"),
                      ("walk.gpx.gz", "Traces/Other/walk.gpx"), ("walk.split.nmea.gz", "Traces/Other/walk.gpsbabel.nmea")])
    func decompressesToTheOriginal(gz: String, original: String) throws {
        let text = try Gzip.decompress(try Data(contentsOf: Self.gz(gz)))
        #expect(Data(text) == (try Data(contentsOf: Self.plain(original))), "\(gz)")
    }

    /// Every reader through the file name: RINEX 2 observations, NMEA (one member and two),
    /// GPX (an XML reader, through `decompressedContents`) read as the plain file, and the format
    /// comes from the extension before `.gz`.
    @Test func readersReadGzipAsPlain() throws {
        let a = try RinexObservationFile.read(contentsOf: Self.gz("geodetic.211.99o.gz"))
        let b = try RinexObservationFile.read(contentsOf: Self.plain("GNSS/geodetic.211.99o"))
        #expect(a.epochs == b.epochs && a.epochs.count == 3)
        let nmea = try Self.fixes(Self.plain("Traces/Other/walk.gpsbabel.nmea"))
        #expect(nmea.count == 5)
        #expect(try Self.fixes(Self.gz("walk.gpsbabel.nmea.gz")) == nmea)
        #expect(try Self.fixes(Self.gz("walk.split.nmea.gz")) == nmea)
        #expect(try Self.fixes(Self.gz("walk.gpx.gz")) == Self.fixes(Self.plain("Traces/Other/walk.gpx")))
        #expect(TraceFormat(fileName: "x/walk.NMEA.gz") == .nmea && TraceFormat(fileName: "a.gpx") == .gpx && TraceFormat(fileName: "a.gz") == nil)
        // Compact RINEX inside gzip (`.crx.gz`/`.YYd.gz`, how station archives serve observations):
        // both layers, as the plain RINEX it came from.
        let crx = try RinexObservationFile.read(contentsOf: Self.gz("pixel6.211.23d.gz"))
        #expect(crx.epochs == (try RinexObservationFile.read(contentsOf: Self.plain("GNSS/pixel6.first2min.211.23o"))).epochs)
        let head = try #require(try ByteLineReader.decompressedContents(of: Self.gz("geodetic.211.99o.gz"))).prefix(9)
        #expect(String(decoding: head, as: UTF8.self) == "     2.11")
    }

    /// Header fields gzip(1) does not write (RFC 1952 FEXTRA, FCOMMENT, FHCRC) are skipped;
    /// a wrong CRC-32, a wrong size, a truncated member, another method and trailing garbage are
    /// typed errors naming the member; trailing zero padding ends the file.
    @Test func headerFieldsAndErrors() throws {
        let member = Array(try Data(contentsOf: Self.gz("walk.gpsbabel.nmea.gz")))
        let original = Array(try Data(contentsOf: Self.plain("Traces/Other/walk.gpsbabel.nmea")))
        // gzip -1 wrote FNAME (flag 8): the name ends at the first 0 after the 10-byte header.
        #expect(member[3] == 8)
        let nameEnd = try #require(member[10...].firstIndex(of: 0))
        let body = Array(member[(nameEnd + 1)...])
        let extra: [UInt8] = [4, 0, 0x41, 0x42, 2, 0]           // XLEN 4, subfield AB of length 2 (RFC 1952 §2.3.1.1)
        var rebuilt = Array(member[0..<3]) + [4 | 8 | 16 | 2] + Array(member[4..<10]) + extra
        rebuilt += Array("walk.nmea".utf8) + [0] + Array("a comment".utf8) + [0]
        rebuilt += [0x12, 0x34] + body                          // FHCRC (not checked, as gzip(1) does not)
        #expect(try Gzip.decompress(Data(rebuilt)) == original)
        #expect(try Gzip.decompress(Data(member + [0, 0, 0, 0])) == original)
        func refusal(_ bytes: [UInt8]) -> String {
            do { _ = try Gzip.decompress(Data(bytes)); return "read" } catch { return error.message }
        }
        var crc = member; crc[crc.count - 8] ^= 1
        #expect(refusal(crc).contains("CRC-32"))
        var size = member; size[size.count - 4] ^= 1
        #expect(refusal(size).contains("the trailer says"))
        #expect(refusal(Array(member.prefix(member.count - 3))).contains("truncated in its trailer"))
        #expect(refusal(Array(member.prefix(12))).contains("truncated"))
        var method = member; method[2] = 9
        #expect(refusal(method) == "gzip member at byte 0: compression method 9 is not deflate (8)")
        #expect(refusal(member + Array("junk".utf8)).hasPrefix("not gzip data at byte \(member.count)"))
        #expect(refusal(member) == "read")
        // Through a reader: FILE: message, no line.
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gak-\(UUID().uuidString).nmea.gz")
        try Data(crc).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        #expect(throws: TraceFormatError.self) { try Self.fixes(url) }
        do { _ = try Self.fixes(url) } catch let e as TraceFormatError { #expect(e.source == url.path && e.line == nil && e.message.contains("CRC-32")) }
    }

    /// Seeded mutations of the RINEX 2 gzip (as GNSSReaderFuzzTests): each mutant reads or is
    /// refused with a TraceFormatError naming it — never a trap.
    @Test(arguments: ["geodetic.211.99o.gz", "pixel6.b12.23o.Z"]) func mutants(name: String) throws {
        let bytes = Array(try Data(contentsOf: Self.gz(name)))
        var rng = SeededRandom(seed: 0x1F8B)
        var read = 0, refused = 0
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gak-gz-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        for k in 0..<120 {
            let url = dir.appendingPathComponent("m\(k)-" + name)
            try Data(GNSSReaderFuzzTests.mutate(bytes, &rng)).write(to: url)
            do { _ = try RinexObservationFile.read(contentsOf: url); read += 1 } catch {
                #expect(error.source.hasPrefix(url.path), "\(error)")
                refused += 1
            }
        }
        #expect(refused > 0 && read + refused == 120)
    }
}
