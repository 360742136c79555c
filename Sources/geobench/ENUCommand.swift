import ArgumentParser
import Foundation
import GeoAnchorKit

struct ENUCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "enu",
        abstract: "Geodetic (WGS84) ↔ local East-North-Up about an origin.",
        discussion: """
        Input CSV columns: latitude,longitude,height (degrees, degrees, meters above the WGS84 \
        ellipsoid). Output CSV columns: east,north,up (meters). With --inverse the other way round.
        """
    )

    enum Engine: String, ExpressibleByArgument, CaseIterable { case native, proj }

    @Option(help: "Frame origin LAT,LON,H (degrees, degrees, meters above the ellipsoid).")
    var origin: String

    @Flag(help: "Convert east,north,up → latitude,longitude,height.")
    var inverse = false

    @Option(help: "native (GeoAnchorKit) or proj (PROJ cart+topocentric pipeline).")
    var engine: Engine = .native

    @OptionGroup var files: CSVFiles

    func run() throws {
        try withInputErrors {
            let (lat, lon, h) = try parseTriple(origin, name: "origin")
            let frame = try located("--origin") {
                try LocalTangentFrame(origin: GeodeticCoordinate(latitude: lat, longitude: lon, ellipsoidalHeight: h))
            }
            let table = try CSVTable.read(path: files.input)
            let inNames = inverse ? ["east", "north", "up"] : ["latitude", "longitude", "height"]
            let outNames = inverse ? ["latitude", "longitude", "height"] : ["east", "north", "up"]
            let cols = try inNames.map { try table.column($0) }
            // Parse everything first so invalid input produces no partial output.
            var a = [Double](), b = [Double](), c = [Double](), lines = [Int]()
            a.reserveCapacity(table.rows.count); b.reserveCapacity(table.rows.count); c.reserveCapacity(table.rows.count)
            for row in table.rows {
                let x = try table.double(row, cols[0], inNames[0])
                let y = try table.double(row, cols[1], inNames[1])
                let z = try table.double(row, cols[2], inNames[2])
                if !inverse, abs(x) > 90 {
                    throw InputError(file: table.source, line: row.line, message: "latitude \(x) is outside [-90, 90]")
                }
                a.append(x); b.append(y); c.append(z); lines.append(row.line)
            }
            var o1 = [Double](repeating: 0, count: a.count), o2 = o1, o3 = o1
            switch engine {
            case .native:
                a.withUnsafeBufferPointer { pa in b.withUnsafeBufferPointer { pb in c.withUnsafeBufferPointer { pc in
                    o1.withUnsafeMutableBufferPointer { q1 in o2.withUnsafeMutableBufferPointer { q2 in o3.withUnsafeMutableBufferPointer { q3 in
                        if inverse {
                            _ = frame.geodetic(east: pa, north: pb, up: pc, latitude: q1, longitude: q2, ellipsoidalHeight: q3)
                        } else {
                            _ = frame.enu(latitude: pa, longitude: pb, ellipsoidalHeight: pc, east: q1, north: q2, up: q3)
                        }
                    } } }
                } } }
            case .proj:
                if let f = try runPROJ(origin: (lat, lon, h), inverse: inverse, a, b, c, &o1, &o2, &o3) {
                    let i = f.index
                    throw InputError(file: table.source, line: lines[i],
                                     message: "\(inNames.joined(separator: ",")) \(a[i]),\(b[i]),\(c[i]): \(f.error)")
                }
            }
            // A finite input can still overflow (east 1e308): an error naming the row, never nan in the CSV.
            if let i = a.indices.first(where: { !(o1[$0].isFinite && o2[$0].isFinite && o3[$0].isFinite) }) {
                throw InputError(file: table.source, line: lines[i],
                                 message: "\(inNames.joined(separator: ",")) \(a[i]),\(b[i]),\(c[i]) has no finite \(outNames.joined(separator: ",")) (out of range)")
            }
            let w = try CSVWriter(path: files.output, header: outNames)
            for i in 0..<a.count { try w.write([o1[i], o2[i], o3[i]]) }
            try w.finish()
        }
    }
}
