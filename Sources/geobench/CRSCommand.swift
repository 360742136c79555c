import ArgumentParser
import Foundation
import GeoAnchorKitPROJ

/// `geobench crs`: coordinate transformation between two CRSs with PROJ.
struct CRSCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "crs",
        abstract: "Transform coordinates between two CRSs (EPSG codes, PROJ strings, WKT) with PROJ.",
        discussion: """
        Input CSV columns: x,y[,z]; output CSV columns: x,y[,z] (z only when the input has it). \
        Axis order is normalized (proj_normalize_for_visualization): for geographic CRSs \
        x = longitude and y = latitude in degrees (also for EPSG:4326/4979, whose EPSG order is \
        lat/lon), z = ellipsoidal height in meters for 3-D CRSs; for projected CRSs x = easting, \
        y = northing in the CRS's unit (meters). Example: \
        geobench crs --from EPSG:4979 --to EPSG:5514 (WGS 84 → S-JTSK / Krovak East North). \
        An unknown CRS or a point PROJ cannot transform exits with status 2.
        """
    )

    @Option(help: "Source CRS, e.g. EPSG:4979.")
    var from: String

    @Option(help: "Target CRS, e.g. EPSG:5514.")
    var to: String

    @Option(name: .customLong("round-trip-tolerance"),
            help: ArgumentHelp("Transform each point back and refuse (exit 2, FILE:LINE) one that does not return within this many meters of its input: some projections answer far outside their domain with finite garbage (WGS 84 -> Krovak EPSG:5514 of a point in Alaska: 1e7 m off). The default leaves room for PROJ picking another operation for the way back near the edge of an operation's area (misses up to 133 m measured); 'off' skips the check.", valueName: "meters"))
    var roundTripTolerance: String = String(format: "%g", ProjTransformer.crsRoundTripTolerance)

    @OptionGroup var files: CSVFiles

    func run() throws {
        try withInputErrors {
            let tolerance: Double?
            if roundTripTolerance == "off" { tolerance = nil }
            else if let v = Double(roundTripTolerance), v.isFinite, v >= 0 { tolerance = v }
            else { throw ValidationError("--round-trip-tolerance: '\(roundTripTolerance)' is not 'off' or a distance >= 0 in meters") }
            let t = try located("--from/--to") { try ProjTransformer(from: from, to: to) }
            let table = try CSVTable.read(path: files.input)
            let xc = try table.column("x"), yc = try table.column("y")
            let zc = table.optionalColumn("z")
            var xs = [Double](), ys = [Double](), zs = [Double]()
            for row in table.rows {
                xs.append(try table.double(row, xc, "x"))
                ys.append(try table.double(row, yc, "y"))
                if let zc { zs.append(try table.double(row, zc, "z")) }
            }
            let failures = xs.withUnsafeMutableBufferPointer { bx in
                ys.withUnsafeMutableBufferPointer { by in
                    if zc != nil {
                        return zs.withUnsafeMutableBufferPointer { bz in t.transform(x: bx, y: by, z: bz, roundTripTolerance: tolerance) }
                    }
                    return t.transform(x: bx, y: by, roundTripTolerance: tolerance)
                }
            }
            if let f = failures.first {
                throw InputError(file: table.source, line: table.rows[f.index].line, message: f.error.description)
            }
            // (Every non-finite output is among the failures.)
            let w = try CSVWriter(path: files.output, header: zc == nil ? ["x", "y"] : ["x", "y", "z"])
            for i in xs.indices { try w.write(zc == nil ? [xs[i], ys[i]] : [xs[i], ys[i], zs[i]]) }
            try w.finish()
        }
    }
}
