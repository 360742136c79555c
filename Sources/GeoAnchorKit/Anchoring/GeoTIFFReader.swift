import Foundation

/// A single-band GeoTIFF DEM read into an ``ElevationGrid`` (TIFF 6.0 or BigTIFF, the GeoTIFF
/// 1.0/1.1 keys, GDAL's `GDAL_NODATA` tag). Pure Swift; every offset, count and size read from the file
/// is checked before use, so a damaged file is a ``GeoAnchorError/corruptFile(path:reason:)``
/// naming the tag or the strip/tile, never a trap.
enum GeoTIFFReader {
    /// The TIFF tags read.
    enum Tag: Int {
        case imageWidth = 256, imageLength = 257, bitsPerSample = 258, compression = 259, stripOffsets = 273
        case samplesPerPixel = 277, rowsPerStrip = 278, stripByteCounts = 279, planarConfiguration = 284, predictor = 317
        case tileWidth = 322, tileLength = 323, tileOffsets = 324, tileByteCounts = 325, sampleFormat = 339
        case modelPixelScale = 33550, modelTiepoint = 33922, modelTransformation = 34264
        case geoKeyDirectory = 34735, geoDoubleParams = 34736, geoASCIIParams = 34737, gdalNoData = 42113
    }

    struct Failure: Error { let reason: String }

    /// The file's bytes with its byte order.
    struct Bytes {
        let b: [UInt8]
        let little: Bool
        func u16(_ o: Int) throws(Failure) -> Int {
            guard o >= 0, o <= b.count - 2 else { throw Failure(reason: "offset \(o) is beyond the file's \(b.count) bytes") }
            return little ? Int(b[o]) | Int(b[o + 1]) << 8 : Int(b[o]) << 8 | Int(b[o + 1])
        }
        func u32(_ o: Int) throws(Failure) -> Int {
            let hi = try u16(little ? o + 2 : o), lo = try u16(little ? o : o + 2)
            return hi << 16 | lo
        }
        func u64(_ o: Int) throws(Failure) -> UInt64 {
            let hi = UInt64(try u32(little ? o + 4 : o)), lo = UInt64(try u32(little ? o : o + 4))
            return hi << 32 | lo
        }
    }

    /// One IFD entry: type, count and where its values start.
    struct Entry { let type: Int, count: Int, at: Int }

    static func grid(_ b: [UInt8], name: String, verticalReference: VerticalReference) throws(GeoAnchorError) -> ElevationGrid {
        do {
            return try read(Bytes(b: b, little: b[0] == 0x49), name: name, verticalReference: verticalReference)
        } catch let f as Failure {
            throw .corruptFile(path: name, reason: "GeoTIFF: " + f.reason)
        } catch let e as GeoAnchorError {
            throw e
        } catch {
            throw .corruptFile(path: name, reason: "GeoTIFF: \(error)")
        }
    }

    private static func read(_ f: Bytes, name: String, verticalReference: VerticalReference) throws -> ElevationGrid {
        // Classic TIFF: 32-bit offsets, 12-byte entries; BigTIFF (version 43): 64-bit offsets and
        // counts, 20-byte entries, values of up to 8 bytes inline.
        let big = try f.u16(2) == 43
        if big { guard try f.u16(4) == 8, try f.u16(6) == 0 else { throw Failure(reason: "BigTIFF header with offsets of \(try f.u16(4)) bytes") } }
        func offset(_ o: Int) throws(Failure) -> Int {
            guard big else { return try f.u32(o) }
            let v = try f.u64(o)
            guard v <= UInt64(f.b.count) else { throw Failure(reason: "offset \(v) is beyond the file's \(f.b.count) bytes") }
            return Int(v)
        }
        let ifd = try offset(big ? 8 : 4)
        let n = big ? try offset(ifd) : try f.u16(ifd)
        let entrySize = big ? 20 : 12, inline = big ? 8 : 4
        guard n <= (f.b.count - ifd) / entrySize else { throw Failure(reason: "IFD of \(n) entries at byte \(ifd) beyond the file's \(f.b.count) bytes") }
        var entries: [Int: Entry] = [:]
        for k in 0..<n {
            let e = ifd + (big ? 8 : 2) + entrySize * k
            let tag = try f.u16(e), type = try f.u16(e + 2), count = try offset(e + 4)
            let size = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 6: 1, 7: 1, 8: 2, 9: 4, 10: 8, 11: 4, 12: 8, 16: 8, 17: 8, 18: 8][type] ?? 0
            guard size > 0 else { continue }   // a type this reader does not use: skipped with its tag
            let (bytes, overflow) = count.multipliedReportingOverflow(by: size)
            guard !overflow, bytes <= f.b.count else { throw Failure(reason: "tag \(tag): \(count) values do not fit the file") }
            let at = bytes <= inline ? e + (big ? 12 : 8) : try offset(e + (big ? 12 : 8))
            guard at <= f.b.count - bytes else { throw Failure(reason: "tag \(tag): values at byte \(at) beyond the file's \(f.b.count) bytes") }
            entries[tag] = Entry(type: type, count: count, at: at)
        }
        func numbers(_ t: Tag) throws(Failure) -> [Double]? {
            guard let e = entries[t.rawValue] else { return nil }
            var out: [Double] = []
            out.reserveCapacity(e.count)
            for k in 0..<e.count {
                switch e.type {
                case 1, 7: out.append(Double(f.b[e.at + k]))
                case 6: out.append(Double(Int8(bitPattern: f.b[e.at + k])))
                case 3: out.append(Double(try f.u16(e.at + 2 * k)))
                case 8: out.append(Double(Int16(truncatingIfNeeded: try f.u16(e.at + 2 * k))))
                case 4: out.append(Double(try f.u32(e.at + 4 * k)))
                case 9: out.append(Double(Int32(truncatingIfNeeded: try f.u32(e.at + 4 * k))))
                case 5, 10:
                    let num = try f.u32(e.at + 8 * k), den = try f.u32(e.at + 8 * k + 4)
                    out.append(e.type == 5 ? Double(num) / Double(den) : Double(Int32(truncatingIfNeeded: num)) / Double(Int32(truncatingIfNeeded: den)))
                case 11: out.append(Double(Float(bitPattern: UInt32(try f.u32(e.at + 4 * k)))))
                case 12: out.append(Double(bitPattern: try f.u64(e.at + 8 * k)))
                case 16, 17, 18: out.append(Double(try f.u64(e.at + 8 * k)))
                default: throw Failure(reason: "tag \(t.rawValue) (\(t)) has text where numbers are expected")
                }
            }
            return out
        }
        func integer(_ t: Tag, default d: Int? = nil) throws(Failure) -> Int {
            guard let v = try numbers(t)?.first else {
                guard let d else { throw Failure(reason: "tag \(t.rawValue) (\(t)) missing") }
                return d
            }
            guard v >= 0, v < 1e12, v == v.rounded() else { throw Failure(reason: "tag \(t.rawValue) (\(t)) value \(v) is not a count") }
            return Int(v)
        }
        func text(_ t: Tag) -> String? {
            guard let e = entries[t.rawValue], e.type == 2 else { return nil }
            return String(decoding: f.b[e.at..<(e.at + e.count)].prefix { $0 != 0 }, as: UTF8.self)
        }

        let width = try integer(.imageWidth), height = try integer(.imageLength)
        guard width >= 1, height >= 1, width <= ElevationGrid.maximumCells / height else {
            throw Failure(reason: "image of \(width) × \(height) pixels (at most \(ElevationGrid.maximumCells) cells)")
        }
        let samples = try integer(.samplesPerPixel, default: 1)
        guard samples == 1 else { throw Failure(reason: "\(samples) samples per pixel: a DEM has one band (gdal_translate -b 1)") }
        let bits = try integer(.bitsPerSample, default: 1), format = try integer(.sampleFormat, default: 1)
        guard [8, 16, 32, 64].contains(bits), (1...3).contains(format), format != 3 || bits >= 32 else {
            throw Failure(reason: "\(bits)-bit samples of format \(format) (8–64-bit integers or 32/64-bit floats are read)")
        }
        let compression = try integer(.compression, default: 1), predictor = try integer(.predictor, default: 1)
        guard [1, 5, 8, 32946, 32773].contains(compression) else {
            throw Failure(reason: "compression \(compression) is not read (none, LZW, Deflate, PackBits are): gdal_translate -co COMPRESS=DEFLATE")
        }
        guard (1...3).contains(predictor), predictor != 3 || format == 3, predictor != 2 || format != 3 else {
            throw Failure(reason: "predictor \(predictor) with sample format \(format)")
        }
        let bytesPerSample = bits / 8

        // The blocks: tiles, or strips (a strip is a tile as wide as the image).
        let tiled = entries[Tag.tileWidth.rawValue] != nil
        let blockWidth = tiled ? try integer(.tileWidth) : width
        let blockHeight = tiled ? try integer(.tileLength) : min(try integer(.rowsPerStrip, default: height), height)
        guard blockWidth >= 1, blockHeight >= 1, blockWidth <= 1 << 20, blockHeight <= 1 << 24,
              blockWidth * blockHeight <= ElevationGrid.maximumCells else {
            throw Failure(reason: "blocks of \(blockWidth) × \(blockHeight) pixels")
        }
        let offsets = try numbers(tiled ? .tileOffsets : .stripOffsets) ?? []
        let counts = try numbers(tiled ? .tileByteCounts : .stripByteCounts) ?? []
        let across = (width + blockWidth - 1) / blockWidth, down = (height + blockHeight - 1) / blockHeight
        guard offsets.count == across * down, counts.count == offsets.count else {
            throw Failure(reason: "\(offsets.count) \(tiled ? "tile" : "strip") offsets and \(counts.count) byte counts for \(across * down) \(tiled ? "tiles" : "strips")")
        }
        var values = [Double](repeating: .nan, count: width * height)
        let blockBytes = blockWidth * blockHeight * bytesPerSample
        for k in offsets.indices {
            let start = offsets[k], length = counts[k]
            guard start >= 0, length >= 0, start + length <= Double(f.b.count) else {
                throw Failure(reason: "\(tiled ? "tile" : "strip") \(k) at byte \(start), \(length) bytes, is beyond the file's \(f.b.count) bytes")
            }
            let raw = f.b[Int(start)..<Int(start + length)]
            let rowsHere = tiled ? blockHeight : min(blockHeight, height - (k / across) * blockHeight)
            let expected = tiled ? blockBytes : blockWidth * rowsHere * bytesPerSample
            var block: [UInt8]
            switch compression {
            case 1: block = Array(raw)
            case 5: block = try lzw(raw, limit: expected)
            case 32773: block = try packBits(raw, limit: expected)
            default: block = try zlib(raw, limit: expected)
            }
            guard block.count >= expected else {
                throw Failure(reason: "\(tiled ? "tile" : "strip") \(k) decodes to \(block.count) bytes, \(expected) expected")
            }
            // Samples in file byte order; the floating-point predictor's rows are byte-differenced
            // big-endian planes (plane j holds every sample's j-th most significant byte).
            let rowBytes = blockWidth * bytesPerSample
            let bx = (k % across) * blockWidth, by = (k / across) * blockHeight
            let used = min(blockWidth, width - bx)
            let mask: UInt64 = bits == 64 ? .max : (1 << UInt64(bits)) - 1
            let little = f.little
            @inline(__always) func value(_ u: UInt64) -> Double {
                switch (format, bits) {
                case (3, 32): return Double(Float(bitPattern: UInt32(truncatingIfNeeded: u)))
                case (3, _): return Double(bitPattern: u)
                case (2, _): return Double(Int64(bitPattern: u << UInt64(64 - bits)) >> Int64(64 - bits))
                default: return Double(u)
                }
            }
            block.withUnsafeMutableBufferPointer { blk in
                values.withUnsafeMutableBufferPointer { out in
                    for r in 0..<rowsHere where by + r < height {
                        let o = r * rowBytes, dst = (by + r) * width + bx
                        if predictor == 3 {
                            var acc = blk[o]
                            for i in (o + 1)..<(o + rowBytes) { acc &+= blk[i]; blk[i] = acc }
                            for c in 0..<used {
                                var u: UInt64 = 0
                                for j in 0..<bytesPerSample { u = u << 8 | UInt64(blk[o + j * blockWidth + c]) }
                                out[dst + c] = value(u)
                            }
                            continue
                        }
                        var previous: UInt64 = 0
                        for c in 0..<(predictor == 2 ? blockWidth : used) {
                            let s = o + c * bytesPerSample
                            var u: UInt64 = 0
                            if little {
                                for j in stride(from: bytesPerSample - 1, through: 0, by: -1) { u = u << 8 | UInt64(blk[s + j]) }
                            } else {
                                for j in 0..<bytesPerSample { u = u << 8 | UInt64(blk[s + j]) }
                            }
                            if predictor == 2 {
                                u = (u &+ previous) & mask
                                previous = u
                            }
                            if c < used { out[dst + c] = value(u) }
                        }
                    }
                }
            }
        }

        // Georeferencing.
        var keys: [Int: Int] = [:]
        if let dir = try numbers(.geoKeyDirectory), dir.count >= 4 {
            let count = min(Int(exactly: dir[3]) ?? 0, (dir.count - 4) / 4)
            for k in 0..<max(count, 0) where dir[4 + 4 * k + 1] == 0 {
                // Short values stored in the directory itself (TIFFTagLocation 0).
                if let key = Int(exactly: dir[4 + 4 * k]), let value = Int(exactly: dir[4 + 4 * k + 3]) { keys[key] = value }
            }
        }
        if keys[1024] == 1 || keys[3072] != nil {
            throw Failure(reason: "projected CRS (EPSG:\(keys[3072].map(String.init) ?? "?")): reproject to latitude/longitude first (gdalwarp -t_srs EPSG:4326)")
        }
        let geographic = keys[2048]
        guard keys[1024] == 2 || geographic != nil else {
            throw Failure(reason: "no geographic CRS in its GeoKeys (GTModelTypeGeoKey \(keys[1024].map(String.init) ?? "missing")): assign one (gdal_translate -a_srs EPSG:4326)")
        }
        guard let g = geographic, g == 4326 || g == 4979 || (g == 32767 && keys[2050] == 6326) else {
            throw Failure(reason: "geographic CRS EPSG:\(geographic.map(String.init) ?? "?") is not WGS84 (4326): gdalwarp -t_srs EPSG:4326")
        }
        let pointPixels = keys[1025] == 2
        let x0: Double, y0: Double, dx: Double, dy: Double
        if let scale = try numbers(.modelPixelScale), scale.count >= 2, let tie = try numbers(.modelTiepoint), tie.count >= 6 {
            dx = scale[0]; dy = scale[1]
            x0 = tie[3] - tie[0] * dx; y0 = tie[4] + tie[1] * dy
        } else if let m = try numbers(.modelTransformation), m.count >= 16, m[1] == 0, m[4] == 0 {
            dx = m[0]; dy = -m[5]; x0 = m[3]; y0 = m[7]
        } else {
            throw Failure(reason: "no ModelTiepoint + ModelPixelScale (or unrotated ModelTransformation): not georeferenced")
        }
        guard dx > 0, dy > 0 else { throw Failure(reason: "pixel size \(dx) × \(dy)° (north-up grids are read)") }
        // PixelIsArea: (x0, y0) is the first pixel's outer corner; PixelIsPoint: its centre.
        let west = pointPixels ? x0 : x0 + dx / 2, north = pointPixels ? y0 : y0 - dy / 2
        let noData = text(.gdalNoData).flatMap { Double($0.trimmingCharacters(in: .whitespaces)) }
        var grid = try ElevationGrid(columns: width, rows: height, westCentre: west, southCentre: north - Double(height - 1) * dy,
                                     longitudeSpacing: dx, latitudeSpacing: dy, heightsNorthRowFirst: consume values, noDataValue: noData,
                                     verticalReference: verticalReference, format: .geoTIFF, name: name)
        // VerticalCSTypeGeoKey (a code, not "user-defined" 32767), or a 3-D geographic CRS.
        if let v = keys[4096], v > 0, v < 32767 { grid.declaredVerticalCRS = v } else if g == 4979 { grid.declaredVerticalCRS = 4979 }
        return grid
    }

    /// A zlib stream (TIFF Deflate, compression 8 or 32946): ``Inflate/zlib(_:expectedSize:limit:)``.
    static func zlib(_ raw: ArraySlice<UInt8>, limit: Int) throws(Failure) -> [UInt8] {
        do { return try Inflate.zlib(raw, limit: limit) } catch { throw Failure(reason: "Deflate: \(error.message)") }
    }

    /// TIFF LZW (TIFF 6.0 § 13: MSB-first codes of 9–12 bits, Clear 256, EndOfInformation 257,
    /// the code width growing one code early), up to `limit` bytes.
    static func lzw(_ raw: ArraySlice<UInt8>, limit: Int) throws(Failure) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(limit)
        var prefix = [Int](repeating: -1, count: 4096), suffix = [UInt8](repeating: 0, count: 4096)
        for k in 0..<256 { suffix[k] = UInt8(k) }
        var next = 258, width = 9, previous = -1
        var bitBuffer: UInt32 = 0, bitCount = 0
        var index = raw.startIndex
        var stack = [UInt8](repeating: 0, count: 4096)
        while out.count < limit {
            while bitCount < width {
                guard index < raw.endIndex else { return out }   // the data ended without EndOfInformation
                bitBuffer = bitBuffer << 8 | UInt32(raw[index]); index += 1; bitCount += 8
            }
            let code = Int((bitBuffer >> UInt32(bitCount - width)) & ((1 << UInt32(width)) - 1))
            bitCount -= width
            bitBuffer &= (1 << UInt32(bitCount)) - 1
            if code == 256 { next = 258; width = 9; previous = -1; continue }
            if code == 257 { break }
            var entry: Int
            if code < next {
                entry = code
            } else if code == next, previous >= 0 {
                entry = previous   // KwKwK: the previous string plus its own first byte
            } else {
                throw Failure(reason: "LZW code \(code) before it is defined (next \(next))")
            }
            // Write the string of `entry` (and for KwKwK its first byte again).
            var n = 0
            while entry >= 0 {
                guard n < 4096 else { throw Failure(reason: "LZW string longer than the table") }
                stack[n] = suffix[entry]; n += 1
                entry = prefix[entry]
            }
            let first = stack[n - 1]
            for i in stride(from: n - 1, through: 0, by: -1) { out.append(stack[i]) }
            if code == next { out.append(first) }
            if previous >= 0, next < 4096 {
                prefix[next] = previous; suffix[next] = first
                next += 1
                if next + 1 >= 1 << width, width < 12 { width += 1 }
            }
            previous = code
        }
        return out
    }

    /// PackBits (TIFF 6.0 § 9), up to `limit` bytes.
    static func packBits(_ raw: ArraySlice<UInt8>, limit: Int) throws(Failure) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(limit)
        var i = raw.startIndex
        while i < raw.endIndex, out.count < limit {
            let n = Int(Int8(bitPattern: raw[i])); i += 1
            if n >= 0 {
                guard raw.endIndex - i >= n + 1 else { throw Failure(reason: "PackBits run beyond its block") }
                out.append(contentsOf: raw[i..<(i + n + 1)]); i += n + 1
            } else if n != -128 {
                guard i < raw.endIndex else { throw Failure(reason: "PackBits run beyond its block") }
                out.append(contentsOf: repeatElement(raw[i], count: 1 - n)); i += 1
            }
        }
        return out
    }
}
