import ArgumentParser
import Foundation
import GeoAnchorKit

struct MagneticCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "magnetic",
        abstract: "World Magnetic Model: declination, inclination and field components.",
        discussion: """
        Input CSV columns: latitude,longitude,height,date (degrees, degrees, meters above the \
        WGS84 ellipsoid, decimal year such as 2026.5). Output CSV columns: \
        declination,inclination,horizontal_intensity,north,east,down,total_intensity (degrees, \
        degrees, then nT). Declination is positive east, inclination positive down.

        The model is the file (WMM.COF format) named by --model, else $GEOANCHORKIT_WMM_COF, \
        else the WMM2025 compiled into the library (NOAA's coefficients verbatim). Rows \
        outside the model's validity window or altitude range (-1 km...850 km) or in the blackout (H < 2000 nT) / caution \
        (H < 6000 nT) zones are computed and reported on stderr as `FILE:LINE: warning: …`.
        """
    )

    @Option(help: "WMM.COF coefficient file (default: $GEOANCHORKIT_WMM_COF, else the built-in WMM2025).")
    var model: String?

    @OptionGroup var files: CSVFiles

    func run() throws {
        try withInputErrors {
            let wmm = try located(model ?? "WMM.COF") { try MagneticModel.load(path: model) }
            let table = try CSVTable.read(path: files.input)
            let names = ["latitude", "longitude", "height", "date"]
            let cols = try names.map { try table.column($0) }
            var rows: [(line: Int, lat: Double, lon: Double, h: Double, t: Double)] = []
            rows.reserveCapacity(table.rows.count)
            for row in table.rows {
                let v = try (0..<4).map { try table.double(row, cols[$0], names[$0]) }
                if abs(v[0]) > 90 {
                    throw InputError(file: table.source, line: row.line, message: "latitude \(v[0]) is outside [-90, 90]")
                }
                rows.append((row.line, v[0], v[1], v[2], v[3]))
            }
            let w = try CSVWriter(path: files.output, header: ["declination", "inclination", "horizontal_intensity",
                                                         "north", "east", "down", "total_intensity"])
            for r in rows {
                let f = wmm.field(latitude: r.lat, longitude: r.lon, ellipsoidalHeight: r.h, decimalYear: r.t)
                for warning in f.warnings { Stderr.print("\(table.source):\(r.line): warning: \(warning)") }
                let values = [f.declination, f.inclination, f.horizontalIntensity, f.north, f.east, f.down, f.totalIntensity]
                guard values.allSatisfy(\.isFinite) else {
                    throw InputError(file: table.source, line: r.line,
                                     message: "date \(r.t), height \(r.h) m: the model gives no finite field there (far outside its validity window)")
                }
                try w.write([f.declination, f.inclination, f.horizontalIntensity, f.north, f.east, f.down, f.totalIntensity])
            }
            try w.finish()
        }
    }
}
