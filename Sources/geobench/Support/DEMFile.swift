import Foundation
import GeoAnchorKit

/// The `--dem FILE --dem-datum msl|ellipsoid` pair of `align`, `anchors` and `route`: the datum
/// parsed, the grid read (a GeoTIFF, SRTM `.hgt` or ESRI ASCII grid: ``ElevationGrid``), and a
/// vertical datum the file declares that disagrees with `--dem-datum` warned on stderr.
enum DEMFile {
    static func load(_ path: String, datum text: String) throws -> (grid: ElevationGrid, datum: VerticalReference) {
        guard let datum = VerticalReference(rawValue: text) else {
            throw InputError(file: "--dem-datum", line: nil,
                             message: "unknown datum '\(text)' (\(VerticalReference.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        let grid = try located(path) { try ElevationGrid(contentsOf: URL(fileURLWithPath: path), verticalReference: datum) }
        if let note = grid.verticalDatumNote(for: datum) { Stderr.print("warning: \(path): \(note) (--dem-datum)") }
        return (grid, datum)
    }
}
