#!/usr/bin/env python3
"""Elevation grids as GDAL writes them (Tests/GeoAnchorKitTests/Anchoring/ElevationGridTests.swift).

Made with:  apt-get install gdal-bin      (GDAL 3.6.2: gdal_translate, gdalwarp, gdallocationinfo)
            python3 scripts/dev/dem_fixtures.py
GDAL writes every file from one ESRI ASCII grid, and GDAL's gdallocationinfo reads every file
back at cell centres: the reference values (dem.gdal-values.csv.gz) the reader must reproduce.

Written below (Tests/GeoAnchorKitTests/Fixtures/DEM/):
  hill.asc                  48 × 36 cells of 3" (1/1200°) at Závist (14.38–14.42° E, 49.94–49.97° N):
                            a 300 m plain with an 80 m hill (σ 700 m), heights in 0.25 m steps (exact in
                            float32), a 2 × 2 NODATA (−9999) block in the north-east
  hill.f32.tif              gdal_translate -a_srs EPSG:4326 -ot Float32 (strips, no compression)
  hill.deflate-p3.tif       Float32, COMPRESS=DEFLATE PREDICTOR=3, TILED 16 × 16 (as COGs are: the
                            Copernicus DEM's layout)
  hill.lzw-p2.i16.tif       Int16, COMPRESS=LZW PREDICTOR=2 (SRTM-style integer metres)
  hill.point.be.f64.tif     Float64, ENDIANNESS=BIG, COMPRESS=PACKBITS, AREA_OR_POINT=Point (GDAL
                            writes RasterPixelIsPoint and a tiepoint at the first cell's centre)
  hill.bigtiff.be.tif       Float32 as a BigTIFF (BIGTIFF=YES: 64-bit offsets, as GDAL writes
                            files past 4 GB), big-endian, LZW, tiled 16 × 16
  hill.rect.i32.tif         Int32, COMPRESS=DEFLATE PREDICTOR=2, the same cells re-georeferenced
                            with -a_ullr to 4.5" × 3" (non-square, as Copernicus north of 50°)
  hill.utm.tif              gdalwarp -t_srs EPSG:32633 (projected: to be refused)
  hill.egm2008.tif          Float32 with -a_srs EPSG:4326+3855 (WGS 84 + EGM2008 height, as the
                            Copernicus DEM declares its heights): VerticalCSTypeGeoKey 3855
  N49E014.hgt.gz            an SRTM3 tile (1201 × 1201, gdal_translate -of SRTMHGT), a 350 m
                            plain with the hill near 14.4° E 49.96° N, gzip -9n
  N49E014.SRTMGL1.hgt.zip   the same tile as NASA's LP DAAC serves SRTMGL tiles: a ZIP holding
                            N49E014.hgt (Python zipfile, deflate)
  dem.gdal-values.csv.gz    file,latitude,longitude,value: gdallocationinfo -wgs84 -valonly at
                            cell centres of each file (every 7th cell of the small grids and the
                            NODATA block with its neighbours, 200 of the tile's: 160 random, 36
                            on the hill, its 4 corners); NODATA cells as the file's NODATA value
"""
import gzip, math, os, random, subprocess, tempfile, zipfile

here = os.path.dirname(os.path.abspath(__file__)) + "/../.."
out = here + "/Tests/GeoAnchorKitTests/Fixtures/DEM"
os.makedirs(out, exist_ok=True)

cols, rows, cell = 48, 36, 1 / 1200
west, south = 14.38, 49.94


def hill(lon, lat, base, lon0=14.40, lat0=49.955):
    dx = (lon - lon0) * 71.7e3 / 700     # ≈ metres / 700 m
    dy = (lat - lat0) * 111.2e3 / 700
    return round((base + 80 * math.exp(-(dx * dx + dy * dy))) * 4) / 4


with open(out + "/hill.asc", "w") as f:
    f.write("ncols %d\nnrows %d\nxllcorner %.2f\nyllcorner %.2f\ncellsize %.12f\nNODATA_value -9999\n" % (cols, rows, west, south, cell))
    for r in range(rows):
        lat = south + (rows - r - 0.5) * cell
        vals = []
        for c in range(cols):
            lon = west + (c + 0.5) * cell
            vals.append("-9999" if (r in (2, 3) and c in (40, 41)) else ("%g" % hill(lon, lat, 300)))
        f.write(" ".join(vals) + "\n")


def run(*args):
    subprocess.run(args, check=True, stdout=subprocess.DEVNULL)


asc = out + "/hill.asc"
tr = ["gdal_translate", "-q", "-a_srs", "EPSG:4326"]
run(*tr, "-ot", "Float32", asc, out + "/hill.f32.tif")
run(*tr, "-ot", "Float32", "-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=3", "-co", "TILED=YES",
    "-co", "BLOCKXSIZE=16", "-co", "BLOCKYSIZE=16", asc, out + "/hill.deflate-p3.tif")
run(*tr, "-ot", "Int16", "-co", "COMPRESS=LZW", "-co", "PREDICTOR=2", asc, out + "/hill.lzw-p2.i16.tif")
run(*tr, "-ot", "Float64", "-co", "ENDIANNESS=BIG", "-co", "COMPRESS=PACKBITS", "-mo", "AREA_OR_POINT=Point",
    asc, out + "/hill.point.be.f64.tif")
run(*tr, "-ot", "Float32", "-co", "BIGTIFF=YES", "-co", "ENDIANNESS=BIG", "-co", "COMPRESS=LZW", "-co", "TILED=YES",
    "-co", "BLOCKXSIZE=16", "-co", "BLOCKYSIZE=16", asc, out + "/hill.bigtiff.be.tif")
run(*tr, "-ot", "Int32", "-co", "COMPRESS=DEFLATE", "-co", "PREDICTOR=2",
    "-a_ullr", "%.10f" % west, "%.10f" % (south + rows * cell), "%.10f" % (west + cols * 1.5 * cell), "%.10f" % south,
    asc, out + "/hill.rect.i32.tif")
if os.path.exists(out + "/hill.utm.tif"):
    os.remove(out + "/hill.utm.tif")
run("gdalwarp", "-q", "-s_srs", "EPSG:4326", "-t_srs", "EPSG:32633", "-ot", "Float32", out + "/hill.f32.tif", out + "/hill.utm.tif")
run("gdal_translate", "-q", "-a_srs", "EPSG:4326+3855", "-ot", "Float32", asc, out + "/hill.egm2008.tif")

# The SRTM3 tile.
with tempfile.TemporaryDirectory() as d:
    n = 1201
    with open(d + "/tile.asc", "w") as f:
        f.write("ncols %d\nnrows %d\nxllcenter 14\nyllcenter 49\ncellsize %.12f\nNODATA_value -32768\n" % (n, n, 1 / 1200))
        for r in range(n):
            lat = 50 - r / 1200
            f.write(" ".join("%d" % round(hill(14 + c / 1200, lat, 350, 14.4, 49.96)) for c in range(n)) + "\n")
    run("gdal_translate", "-q", "-a_srs", "EPSG:4326", "-ot", "Int16", "-of", "SRTMHGT", d + "/tile.asc", d + "/N49E014.hgt")
    with open(d + "/N49E014.hgt", "rb") as f, open(out + "/N49E014.hgt.gz", "wb") as g:
        g.write(gzip.compress(f.read(), 9, mtime=0))
    with zipfile.ZipFile(out + "/N49E014.SRTMGL1.hgt.zip", "w", zipfile.ZIP_DEFLATED) as z:
        info = zipfile.ZipInfo("N49E014.hgt", date_time=(2000, 2, 11, 0, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        z.writestr(info, open(d + "/N49E014.hgt", "rb").read())

    # gdallocationinfo at cell centres.
    def values(path, points):
        text = "\n".join("%.12f %.12f" % (lon, lat) for lat, lon in points) + "\n"
        r = subprocess.run(["gdallocationinfo", "-wgs84", "-valonly", path], input=text, capture_output=True, text=True, check=True)
        return r.stdout.split("\n")[:len(points)]

    lines = ["file,latitude,longitude,value"]
    # Every 7th cell (rows and columns all visited) and the NODATA block with its neighbours.
    picked = [(r, c) for r in range(rows) for c in range(cols) if (r * cols + c) % 7 == 0 or (30 <= r <= 34 and 39 <= c <= 42)]
    grid = [(south + (r + 0.5) * cell, west + (c + 0.5) * cell) for r, c in picked]
    for name in ["hill.f32.tif", "hill.deflate-p3.tif", "hill.lzw-p2.i16.tif", "hill.point.be.f64.tif", "hill.bigtiff.be.tif"]:
        for (lat, lon), v in zip(grid, values(out + "/" + name, grid)):
            lines.append("%s,%.10f,%.10f,%s" % (name, lat, lon, v))
    rect = [(south + (r + 0.5) * cell, west + (c + 0.5) * 1.5 * cell) for r, c in picked]
    for (lat, lon), v in zip(rect, values(out + "/hill.rect.i32.tif", rect)):
        lines.append("hill.rect.i32.tif,%.10f,%.10f,%s" % (lat, lon, v))
    rng = random.Random(1201)
    tile = [(49 + rng.randrange(1201) / 1200, 14 + rng.randrange(1201) / 1200) for _ in range(160)]
    tile += [(49.96 + (k // 6 - 3) / 1200, 14.4 + (k % 6 - 3) / 1200) for k in range(36)]
    tile += [(49, 14), (50, 15), (49, 15), (50, 14)]
    for (lat, lon), v in zip(tile, values(d + "/N49E014.hgt", tile)):
        lines.append("N49E014.hgt.gz,%.10f,%.10f,%s" % (lat, lon, v))
    with open(out + "/dem.gdal-values.csv.gz", "wb") as g:
        g.write(gzip.compress(("\n".join(lines) + "\n").encode(), 9, mtime=0))
for f in os.listdir(out):
    if f.endswith(".aux.xml"):
        os.remove(out + "/" + f)
