import Foundation
import Testing
@testable import GeoAnchorKit
import GeoAnchorKitSimulation
import GeoAnchorKitTestSupport

/// DEM files as GDAL 3.6 writes them (scripts/dev/dem_fixtures.py: GeoTIFFs in strips and tiles,
/// uncompressed, Deflate + floating-point predictor, LZW + horizontal predictor, PackBits,
/// big-endian, pixel-is-point, non-square cells, BigTIFF; an SRTM3 tile). References: GDAL's own
/// `gdallocationinfo` reading each file at cell centres (dem.gdal-values.csv.gz: the heights must
/// be the same to 1e-6 m, no-data cells refused), and the ESRI ASCII grid they were written from
/// (bilinear heights everywhere equal to 1e-9 m; integer files within their 0.5 m rounding).
@Suite("Anchoring: elevation grids (GeoTIFF, SRTM HGT)")
struct ElevationGridTests {
    static let dir = SharedData.repositoryRoot.appendingPathComponent("Tests/GeoAnchorKitTests/Fixtures/DEM")
    static func grid(_ name: String) throws -> ElevationGrid { try ElevationGrid(contentsOf: dir.appendingPathComponent(name)) }

    @Test func asGDALReadsThem() throws {
        let data = try #require(try ByteLineReader.decompressedContents(of: Self.dir.appendingPathComponent("dem.gdal-values.csv.gz")))
        let rows = String(decoding: data, as: UTF8.self).split(separator: "\n").dropFirst().map { $0.split(separator: ",") }
        var grids: [String: ElevationGrid] = [:]
        var checked: [String: Int] = [:], noData = 0
        for r in rows {
            let file = String(r[0])
            let lat = try #require(Double(r[1])), lon = try #require(Double(r[2])), value = try #require(Double(r[3]))
            let g = try grids[file] ?? Self.grid(file)
            grids[file] = g
            if value == g.noDataValue {
                noData += 1
                #expect(throws: GeoAnchorError.self) { try g.terrainHeight(latitude: lat, longitude: lon) }
            } else {
                let h = try g.terrainHeight(latitude: lat, longitude: lon)
                #expect(abs(h - value) <= 1e-6, "\(file) at \(lat), \(lon): \(h) vs GDAL \(value)")
            }
            checked[file, default: 0] += 1
        }
        #expect(checked.count == 7 && checked.values.allSatisfy { $0 >= 200 }, "\(checked)")
        #expect(noData == 6 * 4)   // the 2 × 2 block in each small grid
        #expect(grids["hill.point.be.f64.tif"]?.format == .geoTIFF && grids["N49E014.hgt.gz"]?.format == .srtmHGT)
        #expect(grids["hill.rect.i32.tif"].map { abs($0.longitudeSpacing / $0.latitudeSpacing - 1.5) < 1e-9 } == true)
        #expect(grids["N49E014.hgt.gz"].map { $0.columns == 1201 && $0.westCentre == 14 && $0.southCentre == 49 } == true)
    }

    /// Everywhere (random points, the edges' half cells, outside), each GeoTIFF interpolates as the
    /// ASCII grid it was written from.
    @Test(arguments: [("hill.f32.tif", 1e-9), ("hill.deflate-p3.tif", 1e-9), ("hill.point.be.f64.tif", 1e-9), ("hill.bigtiff.be.tif", 1e-9),
                      ("hill.lzw-p2.i16.tif", 0.5)])
    func asTheASCIIGrid(file: String, tolerance: Double) throws {
        let ascii = try ESRIASCIIGrid(contentsOf: Self.dir.appendingPathComponent("hill.asc"))
        let tiff = try Self.grid(file)
        #expect(tiff.columns == ascii.columns && tiff.rows == ascii.rows)
        #expect(abs(tiff.westCentre - ascii.westCentre) < 1e-9 && abs(tiff.southCentre - ascii.southCentre) < 1e-9)
        var rng = SeededRandom(seed: 0xDE)
        var compared = 0
        for k in 0..<600 {
            // A margin of a cell around the grid: the half-cell border and outside.
            let lat = Double.random(in: 49.94 - 0.001...49.97 + 0.001, using: &rng)
            let lon = Double.random(in: 14.38 - 0.001...14.42 + 0.001, using: &rng)
            let a = Result { () throws(GeoAnchorError) in try ascii.terrainHeight(latitude: lat, longitude: lon) }
            let b = Result { () throws(GeoAnchorError) in try tiff.terrainHeight(latitude: lat, longitude: lon) }
            switch (a, b) {
            case (.success(let x), .success(let y)):
                #expect(abs(x - y) <= tolerance, "\(file) #\(k) at \(lat), \(lon)")
                compared += 1
            case (.failure, .failure): break
            default: Issue.record("\(file) #\(k) at \(lat), \(lon): \(a) vs \(b)")
            }
        }
        #expect(compared > 400)
    }

    /// The datums files declare: GDAL's compound WGS 84 + EGM2008 height (as the Copernicus DEM's
    /// files) gives VerticalCSTypeGeoKey 3855 and a note when taken as MSL (converted through
    /// EGM96) or as ellipsoidal; SRTM is EGM96 by definition; an ASCII grid declares nothing. A
    /// zipped SRTM tile (as NASA serves them) is the same grid as the gzipped one, also named as
    /// the archive's member; a missing file is `fileNotFound`.
    @Test func declaredVerticalDatums() throws {
        let egm2008 = try Self.grid("hill.egm2008.tif"), f32 = try Self.grid("hill.f32.tif")
        #expect(egm2008.declaredVerticalCRS == 3855 && f32.declaredVerticalCRS == nil && egm2008.heights == f32.heights)
        #expect(egm2008.verticalDatumNote(for: .meanSeaLevel)?.contains("declares EPSG:3855 (EGM2008 height); MSL heights are converted through EGM96") == true)
        #expect(egm2008.verticalDatumNote(for: .ellipsoid)?.contains("taken as ellipsoidal") == true)
        #expect(f32.verticalDatumNote(for: .meanSeaLevel) == nil)
        let hgt = try Self.grid("N49E014.hgt.gz"), zipped = try Self.grid("N49E014.SRTMGL1.hgt.zip")
        #expect(hgt.declaredVerticalCRS == 5773 && hgt.verticalDatumNote(for: .meanSeaLevel) == nil)
        #expect(zipped.heights == hgt.heights && zipped.westCentre == 14 && zipped.southCentre == 49 && zipped.format == .srtmHGT)
        // The tile named inside the archive (ARCHIVE.zip/MEMBER) is the same grid; the tile's name comes from the member.
        let member = try Self.grid("N49E014.SRTMGL1.hgt.zip/N49E014.hgt")
        #expect(member.heights == hgt.heights && member.westCentre == 14 && member.southCentre == 49)
        #expect(throws: GeoAnchorError.fileNotFound(path: Self.dir.appendingPathComponent("missing.hgt").path)) { try Self.grid("missing.hgt") }
    }

    /// What is refused, by name: a projected GeoTIFF (with the gdalwarp that fixes it), a
    /// BigTIFF header that is not one, a    /// cut file; a file that is none of the formats. SRTM tile names, south and west too.
    @Test func refusals() throws {
        #expect { _ = try Self.grid("hill.utm.tif") } throws: { e in
            (e as? GeoAnchorError).map { "\($0)".contains("projected CRS (EPSG:32633)") && "\($0)".contains("gdalwarp -t_srs EPSG:4326") } == true
        }
        let tiff = [UInt8](try Data(contentsOf: Self.dir.appendingPathComponent("hill.f32.tif")))
        func refusal(_ bytes: [UInt8], name: String = "x.tif") -> String {
            do { _ = try ElevationGrid(data: Data(bytes), name: name); return "read" } catch { return "\(error)" }
        }
        #expect(refusal([0x49, 0x49, 0x2B, 0x00, 4, 0, 0, 0]).contains("BigTIFF header with offsets of 4 bytes"))
        #expect(refusal(Array(tiff.prefix(3000))).contains("beyond the file"))
        #expect(refusal(Array("hello\n".utf8)).contains("unknown header keyword 'hello'"))
        #expect(refusal([0xFF, 0xFE, 0x00, 0x01]).contains("not a GeoTIFF, an SRTM .hgt tile"))
        #expect(refusal(tiff) == "read")
        #expect(ElevationGrid.hgtTile(name: "/x/s01w075.SRTMGL1.hgt.zip").map { $0 == (-1, -75) } == true)
        #expect(ElevationGrid.hgtTile(name: "N49E014.hgt").map { $0 == (49, 14) } == true)
        #expect(ElevationGrid.hgtTile(name: "hill.asc") == nil)
    }

    /// Seeded byte mutations of each GeoTIFF (header, tags, compressed blocks): each is read or
    /// refused with a GeoAnchorError — never a trap.
    @Test func mutants() throws {
        var rng = SeededRandom(seed: 0x71F)
        var read = 0, refused = 0
        for file in ["hill.f32.tif", "hill.deflate-p3.tif", "hill.lzw-p2.i16.tif", "hill.point.be.f64.tif", "hill.rect.i32.tif", "hill.bigtiff.be.tif"] {
            let bytes = [UInt8](try Data(contentsOf: Self.dir.appendingPathComponent(file)))
            for _ in 0..<80 {
                var b = bytes
                for _ in 0..<(1 + Int(rng.next() % 4)) {
                    // Mostly the header and tags (the first 200 bytes and the IFD at the end), sometimes anywhere.
                    let i = rng.next() % 3 == 0 ? Int(rng.next() % UInt64(b.count)) : (rng.next() % 2 == 0 ? Int(rng.next() % 200) : b.count - 1 - Int(rng.next() % 300) % b.count)
                    b[max(0, i)] = UInt8(truncatingIfNeeded: rng.next())
                }
                do {
                    let g = try ElevationGrid(data: Data(b), name: file)
                    _ = try? g.terrainHeight(latitude: 49.955, longitude: 14.40)
                    read += 1
                } catch {
                    refused += 1
                }
            }
        }
        #expect(read > 0 && refused > 0, "read \(read), refused \(refused)")
    }
}
