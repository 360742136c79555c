#!/usr/bin/env python3
"""Cuts a small window out of a GTX geoid grid (default: EGM96 15' from Debian's proj-data,
public domain, NGA) — for the Examples app, which ships it as a bundle resource to show how an
app loads a geoid grid without /usr/share/proj.

Usage: python3 scripts/dev/geoid_excerpt.py SOUTH WEST NORTH EAST OUT.gtx [IN.gtx]
Made Examples/TourApp/Sources/TourAppCore/Resources/egm96-prague.gtx with:
  python3 scripts/dev/geoid_excerpt.py 49.75 14 50.5 15 Examples/TourApp/Sources/TourAppCore/Resources/egm96-prague.gtx
"""
import struct, sys

south, west, north, east = map(float, sys.argv[1:5])
out = sys.argv[5]
src = sys.argv[6] if len(sys.argv) > 6 else "/usr/share/proj/egm96_15.gtx"
data = open(src, "rb").read()
lat0, lon0, dlat, dlon = struct.unpack(">4d", data[:32])
rows, cols = struct.unpack(">2i", data[32:40])
grid = struct.unpack(f">{rows * cols}f", data[40:40 + 4 * rows * cols])
r0, r1 = round((south - lat0) / dlat), round((north - lat0) / dlat)
c0, c1 = round(((west - lon0) % 360) / dlon), round(((east - lon0) % 360) / dlon)
vals = [grid[r * cols + c] for r in range(r0, r1 + 1) for c in range(c0, c1 + 1)]
header = struct.pack(">4d2i", lat0 + r0 * dlat, (lon0 + c0 * dlon + 180) % 360 - 180, dlat, dlon, r1 - r0 + 1, c1 - c0 + 1)
open(out, "wb").write(header + struct.pack(f">{len(vals)}f", *vals))
print(f"{out}: {r1 - r0 + 1} x {c1 - c0 + 1} cells from {src}")
