import ArgumentParser
import Foundation
import GeoAnchorKit

/// `geobench geoid`: geoid undulation N at each point (h = H + N).
struct GeoidCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geoid",
        abstract: "Geoid undulation N (meters) from a GTX grid (default EGM96 15′), h = H + N.",
        discussion: """
        Input CSV columns: latitude,longitude (degrees, WGS84). Output CSV column: undulation \
        (N in meters: the geoid's height above the WGS84 ellipsoid, so ellipsoidal height \
        h = H + N for an orthometric/MSL height H). Bilinear interpolation, equal to PROJ's \
        vgridshift on the same grid (≤ 1 mm); --bicubic for bicubic convolution. The grid is \
        read natively (GTX format); default \(GeoidGrid.defaultPath) from Debian's proj-data.
        """
    )

    @Option(help: "GTX geoid grid file.")
    var grid: String = GeoidGrid.defaultPath

    @Flag(help: "Bicubic instead of bilinear interpolation.")
    var bicubic = false

    @OptionGroup var files: CSVFiles

    func run() throws {
        try withInputErrors {
            let model = try located(grid) { try GeoidGrid(path: grid) }
            let table = try CSVTable.read(path: files.input)
            let latCol = try table.column("latitude"), lonCol = try table.column("longitude")
            var values = [Double]()
            values.reserveCapacity(table.rows.count)
            // Parse and compute everything first so invalid input produces no partial output.
            for row in table.rows {
                let lat = try table.double(row, latCol, "latitude")
                let lon = try table.double(row, lonCol, "longitude")
                values.append(try located(table.source, line: row.line) {
                    try model.undulation(latitude: lat, longitude: lon, interpolation: bicubic ? .bicubic : .bilinear)
                })
            }
            let w = try CSVWriter(path: files.output, header: ["undulation"])
            for v in values { try w.write([v]) }
            try w.finish()
        }
    }
}
