import Foundation
import FuzzSupport
import GeoAnchorKit

// DEMs by content: GeoTIFF (classic and BigTIFF, strips/tiles, LZW/Deflate/PackBits,
// predictors), SRTM .hgt (named as a tile) and ESRI ASCII grids; then a few samples.
FuzzSupport.main { d in
    let grid = try ElevationGrid(data: d, name: "N49E014.hgt")
    for p in [(49.5, 14.5), (grid.southCentre, grid.westCentre), (0, 0)] {
        _ = try? grid.terrainHeight(latitude: p.0, longitude: p.1)
    }
}
