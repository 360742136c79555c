import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitTestSupport

/// ``ZipArchive`` and ``Inflate`` on archives and raw DEFLATE streams that other tools wrote
/// (scripts/dev/zip_fixtures.sh: Python 3.11's zipfile and zlib 1.2.13, Info-ZIP zip 3.0).
/// References: each member's name, size, CRC-32, method and flags as Python's zipfile reads
/// them (`expected.tsv`); each raw stream's input size and `zlib.crc32` (`inflate-vectors.tsv`);
/// zlib's verdict on hand-made streams (`inflate-crafted.tsv`); and the exact bytes, regenerated
/// here from the content spec the script wrote each member from (the same generator).
@Suite("ZIP archives and DEFLATE")
struct ZipArchiveTests {
    static let dir = SharedData.repositoryRoot.appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/Zip")

    static let archives = ["cli-cp437-name.zip", "cli-dir-comment.zip", "cli-streamed.zip", "encrypted-flag.zip",
                           "python-deflate-1.zip", "python-deflate-9.zip", "python-fixed.zip", "python-methods.zip",
                           "python-stored.zip", "python-utf8-name.zip", "python-zip64.zip"]

    static func bytes(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: dir.appendingPathComponent(name)))
    }

    /// The first offset of `signature` in `bytes`.
    static func find(_ signature: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= signature.count else { return nil }
        return (0...(bytes.count - signature.count)).first { Array(bytes[$0..<($0 + signature.count)]) == signature }
    }

    static func archive(_ name: String) throws -> ZipArchive {
        try ZipArchive(data: Data(contentsOf: dir.appendingPathComponent(name)))
    }

    /// The tab-separated rows of a fixture table, without its `#` comments.
    static func rows(_ name: String) throws -> [[String]] {
        let text = try String(contentsOf: dir.appendingPathComponent(name), encoding: .utf8)
        return text.split(separator: "\n").filter { !$0.hasPrefix("#") }
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
    }

    // MARK: - The fixture script's content generator (gen.py), in Swift

    static func step(_ x: UInt64) -> UInt64 { (x &* 1_103_515_245 &+ 12_345) & 0x7FFF_FFFF }

    /// A KML document of `count` placemarks with LCG coordinates (gen.py `kml`).
    static func kml(seed: UInt64, count: Int) -> [UInt8] {
        func six(_ v: UInt64) -> String { let s = String(v); return String(repeating: "0", count: 6 - s.count) + s }
        var x = seed
        var s = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<kml xmlns=\"http://www.opengis.net/kml/2.2\"><Document>\n"
        for i in 0..<count {
            x = step(x); let lon = 14_000_000 + x % 1_000_000
            x = step(x); let lat = 50_000_000 + x % 1_000_000
            x = step(x); let alt = x % 500
            s += "<Placemark><name>Stop \(i)</name><Point><coordinates>\(lon / 1_000_000).\(six(lon % 1_000_000)),"
                + "\(lat / 1_000_000).\(six(lat % 1_000_000)),\(alt)</coordinates></Point></Placemark>\n"
        }
        s += "</Document></kml>\n"
        return Array(s.utf8)
    }

    /// `count` LCG bytes (gen.py `lcg`).
    static func lcg(seed: UInt64, count: Int) -> [UInt8] {
        var x = seed
        return (0..<count).map { _ in x = step(x); return UInt8((x >> 16) & 0xFF) }
    }

    /// URL-safe base64 (RFC 4648 §5), as the specs hold it.
    static func base64URL(_ s: String) -> [UInt8] {
        let standard = s.replacingOccurrences(of: "-", with: "+").replacingOccurrences(of: "_", with: "/")
        return [UInt8](Data(base64Encoded: standard)!)
    }

    /// The bytes a content spec describes (gen.py `content`).
    static func content(_ spec: String) -> [UInt8] {
        var out: [UInt8] = []
        for part in spec.split(separator: "+") {
            let f = part.split(separator: ":").map(String.init)
            switch f[0] {
            case "kml": out += kml(seed: UInt64(f[1])!, count: Int(f[2])!)
            case "lcg": out += lcg(seed: UInt64(f[1])!, count: Int(f[2])!)
            case "rep": out += Array([[UInt8]](repeating: base64URL(f[1]), count: Int(f[2])!).joined())
            case "b64": out += base64URL(f[1])
            default: precondition(f[0] == "empty", "unknown content spec \(spec)")
            }
        }
        return out
    }

    // MARK: - CRC-32

    /// Reference: the CRC-32/ISO-HDLC check value 0xCBF43926 of "123456789" (Greg Cook's
    /// catalogue of parametrised CRC algorithms; RFC 1952's CRC), and 0x414FA339 for "The quick
    /// brown fox jumps over the lazy dog" (as Python's `zlib.crc32` gives). Continuing a CRC over
    /// a split gives the whole's, at every split (the 8-byte slicing's tail and head).
    @Test func crc32CheckValues() {
        #expect(ZipArchive.crc32(Array("123456789".utf8)) == 0xCBF4_3926)
        let fox = Array("The quick brown fox jumps over the lazy dog".utf8)
        #expect(ZipArchive.crc32(fox) == 0x414F_A339)
        #expect(ZipArchive.crc32([UInt8]()) == 0)
        for k in 0...fox.count {
            #expect(ZipArchive.crc32(fox[k...], continuing: ZipArchive.crc32(fox[..<k])) == 0x414F_A339)
        }
    }

    // MARK: - Archives other tools wrote

    /// Every member of every fixture against Python's zipfile: the entries in central-directory
    /// order with the same names, sizes, CRC-32s, methods and flags; each stored or deflated,
    /// unencrypted member's bytes equal the content the script wrote (so also Python's size and
    /// `zlib.crc32`).
    @Test(arguments: archives) func membersMatchPython(archive name: String) throws {
        let expected = try Self.rows("expected.tsv").filter { $0[0] == name }
        #expect(!expected.isEmpty)
        let archive = try Self.archive(name)
        #expect(archive.entries.map(\.name) == expected.map { $0[1] })
        for (entry, row) in zip(archive.entries, expected) {
            #expect(entry.uncompressedSize == Int(row[2]) && entry.crc32 == UInt32(row[3], radix: 16), "\(row)")
            #expect(entry.method == Int(row[4]) && entry.flags == UInt16(row[5], radix: 16), "\(row)")
            guard [0, 8].contains(entry.method), !entry.isEncrypted else { continue }
            let data = try archive.data(for: entry)
            #expect(data == Self.content(row[6]), "\(name) \(entry.name)")
            #expect(data.count == Int(row[2]) && ZipArchive.crc32(data) == UInt32(row[3], radix: 16))
        }
    }

    /// Info-ZIP's `zip -9 -r` archive: its comment (from `zip -z`), directory entries, and the
    /// KMZ rule (the first `.kml` file, found case-insensitively). Reference: the script's input.
    @Test func cliArchiveWithDirectoriesAndComment() throws {
        let zip = try Self.archive("cli-dir-comment.zip")
        #expect(zip.comment == "GeoAnchorKit test archive")
        #expect(zip.entries.filter(\.isDirectory).map(\.name) == ["kmz/", "kmz/files/"])
        let doc = try #require(zip.firstEntry(withExtension: "KML"))
        #expect(doc.name == "kmz/doc.kml" && doc.method == 8)
        #expect(try zip.data(for: doc) == Self.kml(seed: 3, count: 100))
        #expect(zip.entry(named: "kmz/files/note.txt")?.uncompressedSize == 42)
        #expect(zip.entry(named: "missing.kml") == nil && zip.firstEntry(withExtension: "gpx") == nil)
        #expect(try zip.data(for: zip.entries[0]).isEmpty)
    }

    /// Names: Python writes a non-ASCII name as UTF-8 with flag bit 11; zip 3.0 stores the
    /// file system's UTF-8 bytes without the flag, and the byte 0x82 as it is (CP437 'é', as
    /// Python decodes it). Reference: the names the script gave and Python's CP437 decoding.
    @Test func namesInUTF8AndCP437() throws {
        let flagged = try Self.archive("python-utf8-name.zip").entries[0]
        #expect(flagged.name == "Brno–Praha ž.kml" && flagged.flags & 0x800 != 0)
        let unflagged = try Self.archive("cli-dir-comment.zip").entries[4]
        #expect(unflagged.name == "kmz/files/žluťoučký kůň.txt" && unflagged.flags & 0x800 == 0)
        let cp437 = try Self.archive("cli-cp437-name.zip").entries[0]
        #expect(cp437.rawName == Array("caf".utf8) + [0x82] + Array(".txt".utf8) && cp437.name == "café.txt")
        #expect(ZipArchive.decodeName([0x80, 0xE1, 0xFE, 0x41], utf8: false) == "Çß■A")
    }

    /// The structures the fixtures are there for are in them: a data descriptor (flag bit 3)
    /// and a ZIP64 local header from zip's pipe-to-pipe mode, a ZIP64 end record, locator and
    /// extra fields from Python, fixed Huffman in the tiny member (BTYPE 01), and each member
    /// still reads. Reference: APPNOTE 4.3.9, 4.3.14, 4.3.15, 4.5.3 and RFC 1951 §3.2.3.
    @Test func fixturesHoldTheStructuresTheyTest() throws {
        let streamed = try Self.bytes("cli-streamed.zip")
        let s = try ZipArchive(bytes: streamed)
        #expect(s.entries.count == 1 && s.entries[0].flags & 8 != 0 && s.entries[0].name == "-")
        #expect(Array(streamed[18..<26]) == [UInt8](repeating: 0xFF, count: 8))   // sizes in the ZIP64 extra
        #expect(try s.data(for: s.entries[0]) == Self.kml(seed: 4, count: 30))

        let zip64 = try Self.bytes("python-zip64.zip")
        #expect(Self.find([0x50, 0x4B, 0x06, 0x06], in: zip64) != nil)   // ZIP64 end record
        #expect(Self.find([0x50, 0x4B, 0x06, 0x07], in: zip64) != nil)   // and its locator
        let z = try ZipArchive(bytes: zip64)
        #expect(z.entries.map(\.localHeaderOffset) == [0, 1130, 3465])   // Python's header_offset
        #expect(try z.data(for: z.entries[1]) == Self.kml(seed: 10, count: 20))

        let fixed = try Self.bytes("python-fixed.zip")
        let start = 30 + Int(fixed[26]) + Int(fixed[28])
        #expect((fixed[start] >> 1) & 3 == 1)
    }

    /// Methods other than stored and deflate, and encryption, are refused by name. Reference:
    /// Python's `compress_type` (12, 14) and the patched flag bit 0.
    @Test func unsupportedMethodsAndEncryption() throws {
        let zip = try Self.archive("python-methods.zip")
        #expect(throws: ZipError("compression method 12 (bzip2) is not supported (stored and deflate are)", entry: "bzip2.kml")) {
            try zip.data(for: zip.entries[0])
        }
        #expect(throws: ZipError("compression method 14 (LZMA) is not supported (stored and deflate are)", entry: "lzma.kml")) {
            try zip.data(for: zip.entries[1])
        }
        #expect(try zip.data(for: zip.entries[2]) == Self.kml(seed: 8, count: 10))
        let encrypted = try Self.archive("encrypted-flag.zip")
        do {
            _ = try encrypted.data(for: encrypted.entries[0])
            Issue.record("an encrypted entry was read")
        } catch {
            #expect(error.description == "entry 'tiny.txt': is encrypted (general-purpose flag bit 0); encrypted entries are not supported")
        }
    }

    /// A changed byte in a stored member fails the CRC check, naming both values. Reference:
    /// Python's CRC of the member (0x70782e2e) and the CRC-32 check value test above.
    @Test func crcMismatch() throws {
        var b = try Self.bytes("python-stored.zip")
        let zip = try ZipArchive(bytes: b)
        let e = zip.entries[0]
        let at = e.localHeaderOffset + 30 + Int(b[e.localHeaderOffset + 26]) + Int(b[e.localHeaderOffset + 28]) + 100
        b[at] ^= 0x20
        var changed = Self.kml(seed: 2, count: 20)
        changed[100] ^= 0x20
        let got = ZipArchive.hex(ZipArchive.crc32(changed))
        #expect(throws: ZipError("CRC-32 0x\(got) does not match the stored 0x70782e2e", entry: "stored.kml")) {
            try ZipArchive(bytes: b).data(for: e)
        }
    }

    /// The size cap: refused from the directory's size before decoding; a stream that inflates
    /// past a (lying) directory size stops there; a raw stream past the limit stops at it.
    /// Reference: Python's size of doc.kml (16,473 bytes) and zlib.crc32's input sizes.
    @Test func sizeLimits() throws {
        let zip = try Self.archive("python-deflate-9.zip")
        #expect(throws: ZipError("uncompressed size of 16473 bytes exceeds the limit of 16000 bytes", entry: "doc.kml")) {
            try zip.data(for: zip.entries[0], limit: 16_000)
        }
        #expect(try zip.data(for: zip.entries[0], limit: 16_473).count == 16_473)
        // A directory that understates the size (a zip bomb's trick): patch it to 100 bytes.
        var b = try Self.bytes("python-deflate-9.zip")
        let cd = try #require(Self.find([0x50, 0x4B, 0x01, 0x02], in: b))
        b[cd + 24] = 100; b[cd + 25] = 0; b[cd + 26] = 0; b[cd + 27] = 0
        let lying = try ZipArchive(bytes: b)
        #expect(throws: ZipError("deflate data decompresses to more than the expected 100 bytes", entry: "doc.kml")) {
            try lying.data(for: lying.entries[0])
        }
        let rle = try #require(try Self.rows("inflate-vectors.tsv").first { $0[0] == "rle-runs" })
        let raw = [UInt8](try #require(Data(base64Encoded: rle[4])))
        #expect(throws: ZipError("decompressed data exceeds the limit of 1000 bytes")) {
            try Inflate.decompress(raw, expectedSize: nil, limit: 1000)
        }
        #expect(try Inflate.decompress(raw, expectedSize: nil, limit: 26_003).count == 26_003)
    }

    /// Input that is not a ZIP archive is named as such. Reference: APPNOTE 4.3.16 (the end
    /// record is 22 bytes, its signature `PK\u{5}\u{6}`); an empty archive is that record alone.
    @Test func notAZipArchive() throws {
        let kml = Self.kml(seed: 1, count: 3)
        #expect(throws: ZipError("not a ZIP archive: no end-of-central-directory record in the last \(kml.count) bytes")) {
            try ZipArchive(bytes: kml)
        }
        #expect(throws: ZipError("not a ZIP archive: 5 bytes, too short for an end-of-central-directory record")) {
            try ZipArchive(bytes: Array("<kml>".utf8))
        }
        #expect(!ZipArchive.looksLike(kml) && !ZipArchive.looksLike([0x50, 0x4B]))
        for name in Self.archives { #expect(ZipArchive.looksLike(try Self.bytes(name)), "\(name)") }
        let empty: [UInt8] = [0x50, 0x4B, 0x05, 0x06] + [UInt8](repeating: 0, count: 18)
        #expect(ZipArchive.looksLike(empty))
        let zip = try ZipArchive(bytes: empty)
        #expect(zip.entries.isEmpty && zip.comment.isEmpty)
    }

    /// Data prepended to an archive (a self-extractor stub) shifts every offset; the reader
    /// finds the directory before the end record and corrects them, as Info-ZIP's unzip and
    /// Python's zipfile do. Reference: the members' contents.
    @Test func prependedData() throws {
        let b = [UInt8](repeating: 0x4D, count: 1000) + (try Self.bytes("python-deflate-9.zip"))
        let zip = try ZipArchive(bytes: b)
        #expect(zip.entries[0].localHeaderOffset == 1000)
        #expect(try zip.data(for: zip.entries[0]) == Self.kml(seed: 1, count: 150))
        #expect(try zip.data(for: zip.entries[1]) == Array("Made by Python zipfile, level 9.\n".utf8))
    }

    // MARK: - Raw DEFLATE

    /// Raw streams zlib 1.2.13 wrote (stored, fixed and dynamic blocks; Huffman-only, RLE,
    /// sync and full flushes with their empty stored blocks, a 32,400-byte distance).
    /// Reference: the input regenerated from its spec, and zlib.crc32 and size of it.
    @Test(arguments: ["level0-stored", "level1-dynamic", "level9-dynamic", "fixed-strategy", "huffman-only", "rle-runs",
                      "flushes-mixed", "far-distance", "binary", "empty", "one-byte"])
    func inflateMatchesZlib(vector: String) throws {
        let row = try #require(try Self.rows("inflate-vectors.tsv").first { $0[0] == vector })
        let raw = [UInt8](try #require(Data(base64Encoded: row[4])))
        let size = try #require(Int(row[2]))
        let out = try Inflate.decompress(raw, expectedSize: nil, limit: 1 << 20)
        #expect(out.count == size && ZipArchive.crc32(out) == UInt32(row[3], radix: 16))
        #expect(out == Self.content(row[1]))
        #expect(try Inflate.decompress(Data(raw), expectedSize: size, limit: size) == out)   // Data, exact size
        #expect(throws: ZipError("deflate data decompresses to \(size) bytes, expected \(size + 1)")) {
            try Inflate.decompress(raw, expectedSize: size + 1, limit: 1 << 20)
        }
    }

    /// Hand-made streams for RFC 1951's corners (a single one-bit distance code, a block with
    /// only end-of-block) and for each invalid construct. Reference: zlib's verdict on each
    /// (its output, or an error); our message names the construct.
    @Test func craftedStreamsAgreeWithZlib() throws {
        let messages = [
            "incomplete-literal-code": "deflate data: incomplete literal/length Huffman code (2 codes)",
            "oversubscribed-code-length-code": "deflate data: over-subscribed code-length Huffman code",
            "incomplete-code-length-code": "deflate data: incomplete code-length Huffman code (1 code)",
            "distance-before-start": "deflate data: distance 1 reaches before the start of the output (0 bytes so far)",
            "length-code-286": "deflate data: invalid literal/length code 286 (286 and 287 are reserved)",
            "length-code-287": "deflate data: invalid literal/length code 287 (286 and 287 are reserved)",
            "distance-code-30": "deflate data: invalid distance code 30 (30 and 31 are reserved)",
            "distance-code-31": "deflate data: invalid distance code 31 (30 and 31 are reserved)",
            "reserved-block-type": "deflate data: reserved block type 3 at input byte 0",
            "stored-length-complement": "deflate data: stored block length 5 does not match its complement 65535",
            "stored-truncated": "deflate data: stored block of 5 bytes, only 2 left in the compressed data",
            "no-final-block": "deflate data is truncated: its 5 bytes end before the final block does",
            "empty-input": "deflate data is truncated: its 0 bytes end before the final block does",
        ]
        let rows = try Self.rows("inflate-crafted.tsv")
        #expect(rows.count == 16)
        for row in rows {
            var input: [UInt8] = []
            var hex = Substring(row[1])
            while !hex.isEmpty { input.append(UInt8(hex.prefix(2), radix: 16)!); hex = hex.dropFirst(2) }
            if row[2].hasPrefix("ok:") {
                let expected = [UInt8](try #require(Data(base64Encoded: String(row[2].dropFirst(3)))))
                #expect(try Inflate.decompress(input, expectedSize: nil, limit: 1000) == expected, "\(row[0])")
            } else {
                #expect(throws: ZipError(messages[row[0]] ?? "?"), "\(row[0])") {
                    try Inflate.decompress(input, expectedSize: nil, limit: 1000)
                }
            }
        }
    }

    /// Every prefix of a dynamic-Huffman stream is truncated, and says so (or names what it
    /// cuts). Reference: zlib's vector, whole, decodes to the input.
    @Test func everyTruncationThrows() throws {
        let row = try #require(try Self.rows("inflate-vectors.tsv").first { $0[0] == "level9-dynamic" })
        let raw = [UInt8](try #require(Data(base64Encoded: row[4])))
        for n in 0..<raw.count {
            #expect(throws: ZipError.self) { try Inflate.decompress(raw[..<n], expectedSize: nil, limit: 1 << 20) }
        }
    }

    // MARK: - Corrupt input never traps

    /// 300 seeded mutations (flipped bits, random bytes, truncations, runs of 0xFF or 0x00) of
    /// an archive: each opens and reads, or throws a ``ZipError`` with a message; a member that
    /// reads is the original (a mutation outside its data) — the CRC check catches the rest.
    /// Reference: the members' contents.
    @Test func mutatedArchivesThrowOrRead() throws {
        let original = try Self.bytes("python-deflate-9.zip")
        let contents = [Self.kml(seed: 1, count: 150), Array("Made by Python zipfile, level 9.\n".utf8)]
        var rng = SplitMix64(seed: 2026)
        var failures = 0, reads = 0
        for _ in 0..<300 {
            let b = Self.mutate(original, &rng)
            do {
                let zip = try ZipArchive(bytes: b)
                for entry in zip.entries {
                    do {
                        let data = try zip.data(for: entry, limit: 1 << 20)
                        #expect(contents.contains(data), "\(entry.name)")
                        reads += 1
                    } catch {
                        #expect(!error.description.isEmpty)
                        failures += 1
                    }
                }
            } catch {
                #expect(!error.description.isEmpty)
                failures += 1
            }
        }
        #expect(failures > 100 && reads > 50, "\(failures) failures, \(reads) reads")
    }

    /// 300 seeded mutations of a raw dynamic-Huffman stream (no CRC to catch them): each
    /// decodes to at most the limit or throws a ``ZipError``.
    @Test func mutatedStreamsThrowOrDecode() throws {
        let row = try #require(try Self.rows("inflate-vectors.tsv").first { $0[0] == "level1-dynamic" })
        let original = [UInt8](try #require(Data(base64Encoded: row[4])))
        var rng = SplitMix64(seed: 1951)
        var failures = 0
        for _ in 0..<300 {
            do {
                let out = try Inflate.decompress(Self.mutate(original, &rng), expectedSize: nil, limit: 10_000)
                #expect(out.count <= 10_000)
            } catch {
                #expect(!error.message.isEmpty)
                failures += 1
            }
        }
        #expect(failures > 150, "\(failures) of 300 mutations failed")
    }

    /// One random corruption of `b`.
    static func mutate(_ original: [UInt8], _ rng: inout SplitMix64) -> [UInt8] {
        var b = original
        switch rng.below(4) {
        case 0: for _ in 0...rng.below(4) { b[rng.below(b.count)] ^= UInt8(1 << rng.below(8)) }
        case 1: for _ in 0...rng.below(8) { b[rng.below(b.count)] = UInt8(rng.below(256)) }
        case 2: b = Array(b[0..<rng.below(b.count)])
        default:
            let at = rng.below(b.count), value: UInt8 = rng.below(2) == 0 ? 0xFF : 0x00
            for i in at..<min(b.count, at + 1 + rng.below(8)) { b[i] = value }
        }
        return b
    }
}
