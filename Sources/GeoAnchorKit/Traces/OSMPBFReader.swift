import Foundation

/// OpenStreetMap PBF (`.osm.pbf`: Geofabrik and BBBike extracts, `osmium extract`, Osmosis),
/// read into the same ``OSMData`` as OSM XML (``OSMReader/read(url:)`` tells them apart by
/// content).
///
/// Format (OSM wiki "PBF Format"; `osmformat.proto`, `fileformat.proto`): blobs of at most
/// 32 MiB, each a 4-byte big-endian header length, a `BlobHeader` (`OSMHeader` or `OSMData`) and
/// a `Blob` (raw or zlib; LZMA, bzip2, LZ4 and Zstandard blobs are refused naming the
/// compression). A `HeaderBlock` whose required features are other than `OsmSchema-V0.6` and
/// `DenseNodes` is refused naming the feature (a history file, `HistoricalInformation`, holds
/// several versions of each object). `PrimitiveBlock`s: plain and dense nodes (positions from
/// `granularity` and the offsets, exact in nanodegrees) with their tags, ways with their tags and node
/// references (delta-coded; with the `LocationsOnWays` feature their positions too),
/// relations counted. Every length and count is checked against the bytes left: a corrupt or
/// truncated file is a ``TraceFormatError`` naming the byte offset, never a trap.
enum OSMPBF {
    /// True when `head` (a file's first 15 bytes or more) starts an OSM PBF file: a BlobHeader
    /// of type `OSMHeader`.
    static func looksLike(_ head: Data) -> Bool {
        let b = [UInt8](head.prefix(15))
        return b.count == 15 && b[0] == 0 && b[1] == 0 && b[4] == 0x0A && b[5] == 9 && Array(b[6..<15]) == Array("OSMHeader".utf8)
    }

    /// The largest blob (header or data) the format allows: 32 MiB (and 64 KiB for a header).
    static let maximumBlobSize = 32 << 20
    static let maximumHeaderSize = 64 << 10

    struct Failure: Error { let offset: Int; let message: String }

    /// Reads a whole PBF file in memory; `source` names it in errors.
    static func read(data: Data, source: String) throws(TraceFormatError) -> OSMData {
        let bytes = [UInt8](data)
        var out = OSMData()
        var at = 0, sawHeader = false
        do {
            while at < bytes.count {
                guard bytes.count - at >= 4 else { throw Failure(offset: at, message: "file ends inside a blob header length") }
                let headerSize = Int(bytes[at]) << 24 | Int(bytes[at + 1]) << 16 | Int(bytes[at + 2]) << 8 | Int(bytes[at + 3])
                guard headerSize <= maximumHeaderSize else {
                    throw Failure(offset: at, message: "BlobHeader of \(headerSize) bytes (at most \(maximumHeaderSize))")
                }
                guard bytes.count - at - 4 >= headerSize else { throw Failure(offset: at, message: "file ends inside a BlobHeader") }
                var header = Protobuf(bytes, (at + 4)..<(at + 4 + headerSize))
                var type = "", dataSize = -1
                while let (field, value) = try header.next() {
                    switch (field, value) {
                    case (1, .bytes(let r)): type = String(decoding: bytes[r], as: UTF8.self)
                    case (3, .varint(let v)): dataSize = Int(clamping: v)
                    default: break
                    }
                }
                let blobStart = at + 4 + headerSize
                guard (0...maximumBlobSize).contains(dataSize) else {
                    throw Failure(offset: at, message: dataSize < 0 ? "BlobHeader without datasize" : "Blob of \(dataSize) bytes (at most \(maximumBlobSize))")
                }
                guard bytes.count - blobStart >= dataSize else {
                    throw Failure(offset: blobStart, message: "file ends inside a \(type) blob (\(dataSize) bytes announced, \(bytes.count - blobStart) left)")
                }
                let block = try blob(bytes, blobStart..<(blobStart + dataSize))
                switch type {
                case "OSMHeader":
                    try checkHeader(block, offset: blobStart)
                    sawHeader = true
                case "OSMData":
                    guard sawHeader else { throw Failure(offset: at, message: "OSMData blob before the OSMHeader blob") }
                    try primitiveBlock(block, offset: blobStart, into: &out)
                default: break   // unknown blob types are skipped (the format allows them)
                }
                at = blobStart + dataSize
            }
        } catch let e as Failure {
            throw TraceFormatError(source: source, line: nil, message: "OSM PBF at byte \(e.offset): \(e.message)")
        } catch {
            throw TraceFormatError(source: source, line: nil, message: "OSM PBF: \(error)")
        }
        guard sawHeader else { throw TraceFormatError(source: source, line: nil, message: "OSM PBF without an OSMHeader blob") }
        return out
    }

    /// A blob's uncompressed bytes.
    static func blob(_ bytes: [UInt8], _ range: Range<Int>) throws -> [UInt8] {
        var p = Protobuf(bytes, range)
        var raw: Range<Int>?, zlib: Range<Int>?, rawSize = -1
        while let (field, value) = try p.next() {
            switch (field, value) {
            case (1, .bytes(let r)): raw = r
            case (2, .varint(let v)): rawSize = Int(clamping: v)
            case (3, .bytes(let r)): zlib = r
            case (4, .bytes), (5, .bytes), (6, .bytes), (7, .bytes):
                let name = [4: "LZMA", 5: "bzip2", 6: "LZ4", 7: "Zstandard"][field]!
                throw Failure(offset: range.lowerBound, message: "\(name)-compressed blob (read: raw and zlib; `osmium cat -f pbf,pbf_compression=zlib` rewrites it)")
            default: break
            }
        }
        if let raw { return Array(bytes[raw]) }
        guard let zlib else { throw Failure(offset: range.lowerBound, message: "blob without data") }
        guard (0...maximumBlobSize).contains(rawSize) else {
            throw Failure(offset: range.lowerBound, message: rawSize < 0 ? "zlib blob without raw_size" : "blob of \(rawSize) bytes uncompressed (at most \(maximumBlobSize))")
        }
        do { return try Inflate.zlib(bytes[zlib], expectedSize: rawSize, limit: maximumBlobSize) } catch {
            throw Failure(offset: zlib.lowerBound, message: "zlib blob: \(error.message)")
        }
    }

    /// The features a reader must know to read a file correctly.
    static let knownFeatures: Set<String> = ["OsmSchema-V0.6", "DenseNodes"]

    static func checkHeader(_ block: [UInt8], offset: Int) throws {
        var p = Protobuf(block, 0..<block.count)
        while let (field, value) = try p.next() {
            guard field == 4, case .bytes(let r) = value else { continue }
            let feature = String(decoding: block[r], as: UTF8.self)
            guard knownFeatures.contains(feature) else {
                throw Failure(offset: offset, message: "required feature '\(feature.prefix(60))' is not supported"
                    + (feature == "HistoricalInformation" ? " (a history file: use a current extract)" : ""))
            }
        }
    }

    static func primitiveBlock(_ block: [UInt8], offset: Int, into out: inout OSMData) throws {
        var p = Protobuf(block, 0..<block.count)
        var strings: [String] = [], groups: [Range<Int>] = []
        var granularity: Int64 = 100, latOffset: Int64 = 0, lonOffset: Int64 = 0
        while let (field, value) = try p.next() {
            switch (field, value) {
            case (1, .bytes(let r)):
                var t = Protobuf(block, r)
                while let (f, v) = try t.next() { if f == 1, case .bytes(let s) = v { strings.append(String(decoding: block[s], as: UTF8.self)) } }
            case (2, .bytes(let r)): groups.append(r)
            case (17, .varint(let v)): granularity = Int64(truncatingIfNeeded: v)
            case (19, .varint(let v)): latOffset = Int64(truncatingIfNeeded: v)
            case (20, .varint(let v)): lonOffset = Int64(truncatingIfNeeded: v)
            default: break
            }
        }
        guard (1...1_000_000_000).contains(granularity) else { throw Failure(offset: offset, message: "granularity \(granularity)") }
        /// Degrees of a coordinate in units of `granularity` nanodegrees (exact: an integer of
        /// nanodegrees below 2⁵³ divided once).
        func degrees(_ v: Int64, _ offset0: Int64, _ limit: Double, _ what: String) throws -> Double {
            let (scaled, o1) = v.multipliedReportingOverflow(by: granularity)
            let (n, o2) = scaled.addingReportingOverflow(offset0)
            let d = Double(n) / 1e9
            guard !o1, !o2, abs(d) <= limit else { throw Failure(offset: offset, message: "\(what) outside ±\(Int(limit))°") }
            return d
        }
        /// The position of coordinates in granularity units (checked: ±90°, ±180°).
        func position(_ lat: Int64, _ lon: Int64) throws -> GeodeticCoordinate {
            GeodeticCoordinate(latitude: try degrees(lat, latOffset, 90, "latitude"), longitude: try degrees(lon, lonOffset, 180, "longitude"))
        }
        func string(_ i: UInt64) throws -> String {
            guard i < UInt64(strings.count) else { throw Failure(offset: offset, message: "string index \(i) beyond the \(strings.count) of the block's table") }
            return strings[Int(i)]
        }
        func addNode(_ id: Int64, _ c: GeodeticCoordinate) throws {
            if let conflict = out.addNode(id, c) { throw Failure(offset: offset, message: conflict) }
        }
        for g in groups {
            var q = Protobuf(block, g)
            while let (field, value) = try q.next() {
                guard case .bytes(let r) = value else { continue }
                switch field {
                case 1:   // Node
                    var n = Protobuf(block, r)
                    var id: Int64?, lat: Int64 = 0, lon: Int64 = 0, hasLat = false, hasLon = false
                    var keys: [UInt64] = [], values: [UInt64] = []
                    while let (f, v) = try n.next() {
                        switch (f, v) {
                        case (1, .varint(let x)): id = Protobuf.zigzag(x)
                        case (2, .bytes(let s)): keys = try Protobuf.packedVarints(block, s)
                        case (3, .bytes(let s)): values = try Protobuf.packedVarints(block, s)
                        case (8, .varint(let x)): lat = Protobuf.zigzag(x); hasLat = true
                        case (9, .varint(let x)): lon = Protobuf.zigzag(x); hasLon = true
                        default: break
                        }
                    }
                    guard let id, hasLat, hasLon else { throw Failure(offset: offset, message: "node without id, lat or lon") }
                    try addNode(id, position(lat, lon))
                    guard keys.count == values.count else { throw Failure(offset: offset, message: "node \(id) with \(keys.count) tag keys and \(values.count) values") }
                    for (k, v) in zip(keys, values) { out.nodeTags[id, default: [:]][try string(k)] = try string(v) }
                case 2:   // DenseNodes
                    var d = Protobuf(block, r)
                    var ids: [Int64] = [], lats: [Int64] = [], lons: [Int64] = [], keysValues: [UInt64] = []
                    while let (f, v) = try d.next() {
                        guard case .bytes(let s) = v else { continue }
                        switch f {
                        case 1: ids = try Protobuf.packedSInt64(block, s)
                        case 8: lats = try Protobuf.packedSInt64(block, s)
                        case 9: lons = try Protobuf.packedSInt64(block, s)
                        case 10: keysValues = try Protobuf.packedVarints(block, s)
                        default: break
                        }
                    }
                    guard ids.count == lats.count, ids.count == lons.count else {
                        throw Failure(offset: offset, message: "dense nodes with \(ids.count) ids, \(lats.count) latitudes, \(lons.count) longitudes")
                    }
                    var id: Int64 = 0, lat: Int64 = 0, lon: Int64 = 0
                    // keys_vals: each node's key and value string indices, a 0 after each node
                    // (empty when no node in the block has tags).
                    var kv = keysValues.startIndex
                    for k in ids.indices {
                        id = id &+ ids[k]; lat = lat &+ lats[k]; lon = lon &+ lons[k]
                        try addNode(id, position(lat, lon))
                        guard !keysValues.isEmpty else { continue }
                        while true {
                            guard kv < keysValues.endIndex else { throw Failure(offset: offset, message: "dense nodes' tags end before node \(k + 1) of \(ids.count)") }
                            let key = keysValues[kv]
                            kv += 1
                            if key == 0 { break }
                            guard kv < keysValues.endIndex else { throw Failure(offset: offset, message: "dense node \(id): a tag key without a value") }
                            out.nodeTags[id, default: [:]][try string(key)] = try string(keysValues[kv])
                            kv += 1
                        }
                    }
                case 3:   // Way
                    var w = Protobuf(block, r)
                    var id: Int64?, keys: [UInt64] = [], values: [UInt64] = [], refs: [Int64] = [], lats: [Int64] = [], lons: [Int64] = []
                    while let (f, v) = try w.next() {
                        switch (f, v) {
                        case (1, .varint(let x)): id = Int64(bitPattern: x)
                        case (2, .bytes(let s)): keys = try Protobuf.packedVarints(block, s)
                        case (3, .bytes(let s)): values = try Protobuf.packedVarints(block, s)
                        case (8, .bytes(let s)): refs = try Protobuf.packedSInt64(block, s)
                        case (9, .bytes(let s)): lats = try Protobuf.packedSInt64(block, s)
                        case (10, .bytes(let s)): lons = try Protobuf.packedSInt64(block, s)
                        default: break
                        }
                    }
                    guard let id else { throw Failure(offset: offset, message: "way without id") }
                    guard keys.count == values.count else {
                        throw Failure(offset: offset, message: "way \(id) with \(keys.count) tag keys and \(values.count) values")
                    }
                    var tags: [String: String] = [:]
                    for (k, v) in zip(keys, values) { tags[try string(k)] = try string(v) }
                    var nodes: [Int64] = [], ref: Int64 = 0
                    nodes.reserveCapacity(refs.count)
                    for delta in refs { ref = ref &+ delta; nodes.append(ref) }
                    // LocationsOnWays: the nodes' positions with the way (delta-coded too).
                    if !lats.isEmpty || !lons.isEmpty {
                        guard lats.count == nodes.count, lons.count == nodes.count else {
                            throw Failure(offset: offset, message: "way \(id) with \(nodes.count) nodes and \(lats.count)/\(lons.count) locations")
                        }
                        var lat: Int64 = 0, lon: Int64 = 0
                        for k in nodes.indices {
                            lat = lat &+ lats[k]; lon = lon &+ lons[k]
                            try addNode(nodes[k], position(lat, lon))
                        }
                    }
                    out.ways.append(OSMData.Way(id: id, nodes: nodes, tags: tags, line: nil))
                case 4: out.relations += 1
                default: break
                }
            }
        }
    }
}

/// A protocol-buffers wire-format walk over a byte range (varints of at most 10 bytes, every
/// length checked against the range): what the PBF reader needs, no schema.
struct Protobuf {
    enum Value { case varint(UInt64), bytes(Range<Int>), fixed }
    let b: [UInt8]
    var at: Int
    let end: Int

    init(_ b: [UInt8], _ range: Range<Int>) { self.b = b; at = range.lowerBound; end = range.upperBound }

    static func varint(_ b: [UInt8], _ at: inout Int, _ end: Int) throws(OSMPBF.Failure) -> UInt64 {
        var v: UInt64 = 0, shift: UInt64 = 0
        while true {
            guard at < end else { throw OSMPBF.Failure(offset: at, message: "protobuf varint cut off") }
            let byte = b[at]
            at += 1
            guard shift < 64 else { throw OSMPBF.Failure(offset: at - 1, message: "protobuf varint longer than 10 bytes") }
            v |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return v }
            shift += 7
        }
    }

    static func zigzag(_ v: UInt64) -> Int64 { Int64(bitPattern: (v >> 1) ^ (0 &- (v & 1))) }

    /// The next field (number, value), nil at the end of the range.
    mutating func next() throws(OSMPBF.Failure) -> (Int, Value)? {
        guard at < end else { return nil }
        let start = at
        let key = try Self.varint(b, &at, end)
        let field = Int(truncatingIfNeeded: key >> 3)
        switch key & 7 {
        case 0: return (field, .varint(try Self.varint(b, &at, end)))
        case 1, 5:
            let n = key & 7 == 1 ? 8 : 4
            guard end - at >= n else { throw OSMPBF.Failure(offset: start, message: "protobuf field \(field) cut off") }
            at += n
            return (field, .fixed)
        case 2:
            let length = try Self.varint(b, &at, end)
            guard length <= UInt64(end - at) else {
                throw OSMPBF.Failure(offset: start, message: "protobuf field \(field) of \(length) bytes, \(end - at) left")
            }
            let r = at..<(at + Int(length))
            at = r.upperBound
            return (field, .bytes(r))
        default:
            throw OSMPBF.Failure(offset: start, message: "protobuf wire type \(key & 7) (field \(field))")
        }
    }

    static func packedVarints(_ b: [UInt8], _ r: Range<Int>) throws(OSMPBF.Failure) -> [UInt64] {
        var out: [UInt64] = [], at = r.lowerBound
        out.reserveCapacity(r.count / 2)
        while at < r.upperBound { out.append(try varint(b, &at, r.upperBound)) }
        return out
    }

    static func packedSInt64(_ b: [UInt8], _ r: Range<Int>) throws(OSMPBF.Failure) -> [Int64] {
        try packedVarints(b, r).map(zigzag)
    }
}
