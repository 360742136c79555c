import ArgumentParser
import Foundation
import GeoAnchorKit

struct GeodesicCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "geodesic",
        abstract: "Geodesics on the WGS84 ellipsoid (Karney 2013): inverse and direct problems.",
        discussion: """
        Inverse (default): input CSV columns lat1,lon1,lat2,lon2 (degrees); output CSV columns \
        distance,azimuth1,azimuth2 (meters along the ellipsoid; degrees clockwise from north in \
        [-180, 180], azimuth2 being the forward azimuth at point 2).
        Direct (--direct): input CSV columns lat1,lon1,azimuth1,distance (degrees, degrees, \
        degrees clockwise from north, meters; negative distances go backwards); output CSV columns \
        lat2,lon2,azimuth2 (degrees; lon2 in [-180, 180]).
        Latitudes must lie in [-90, 90] and every value must be a finite number, otherwise the \
        command exits with status 2 and prints FILE:LINE: message. Accuracy: 15 nm (GeographicLib \
        GeodTest).
        """
    )

    @Flag(help: "Solve the direct problem: lat1,lon1,azimuth1,distance → lat2,lon2,azimuth2.")
    var direct = false

    @OptionGroup var files: CSVFiles

    func run() throws {
        try withInputErrors {
            let table = try CSVTable.read(path: files.input)
            let inNames = direct ? ["lat1", "lon1", "azimuth1", "distance"] : ["lat1", "lon1", "lat2", "lon2"]
            let outNames = direct ? ["lat2", "lon2", "azimuth2"] : ["distance", "azimuth1", "azimuth2"]
            let cols = try inNames.map { try table.column($0) }
            // Parse and validate everything first so invalid input produces no partial output.
            var values = [[Double]](repeating: [], count: 4)
            for k in 0..<4 { values[k].reserveCapacity(table.rows.count) }
            for row in table.rows {
                for k in 0..<4 {
                    let v = try table.double(row, cols[k], inNames[k])
                    if (inNames[k] == "lat1" || inNames[k] == "lat2"), abs(v) > 90 {
                        throw InputError(file: table.source, line: row.line,
                                         message: "\(inNames[k]) \(v) is outside [-90, 90]")
                    }
                    values[k].append(v)
                }
            }
            let g = Geodesic.wgs84
            let n = values[0].count
            var o1 = [Double](repeating: 0, count: n), o2 = o1, o3 = o1
            if direct {
                for i in 0..<n {
                    let r = g.direct(latitude: values[0][i], longitude: values[1][i],
                                     azimuth: values[2][i], distance: values[3][i])
                    o1[i] = r.latitude; o2[i] = r.longitude; o3[i] = r.azimuth2
                }
            } else {
                values[0].withUnsafeBufferPointer { la1 in values[1].withUnsafeBufferPointer { lo1 in
                    values[2].withUnsafeBufferPointer { la2 in values[3].withUnsafeBufferPointer { lo2 in
                        o1.withUnsafeMutableBufferPointer { s in o2.withUnsafeMutableBufferPointer { a1 in
                            o3.withUnsafeMutableBufferPointer { a2 in
                                // Input was validated above, so no element can fail here.
                                _ = g.inverse(latitude1: la1, longitude1: lo1, latitude2: la2, longitude2: lo2,
                                              distance: s, azimuth1: a1, azimuth2: a2)
                            } } } } } } }
            }
            if let i = (0..<n).first(where: { !(o1[$0].isFinite && o2[$0].isFinite && o3[$0].isFinite) }) {
                throw InputError(file: table.source, line: table.rows[i].line,
                                 message: "\(inNames.joined(separator: ",")) give no finite \(outNames.joined(separator: ",")) (out of range)")
            }
            let w = try CSVWriter(path: files.output, header: outNames)
            for i in 0..<n { try w.write([o1[i], o2[i], o3[i]]) }
            try w.finish()
        }
    }
}
