#!/bin/sh
# KMZ (zipped KML) fixtures, from the committed KML/GPX fixtures, the ways other tools zip them.
#
# Made with:  sh scripts/dev/kmz_fixtures.sh   (needs: apt-get install gdal-bin zip; python3)
# Output:     Tests/GeoAnchorKitTests/Fixtures/Traces/Other/
#   walk.libkml-track-points.kmz  ogr2ogr -f LIBKML … walk.gpx track_points (GDAL 3.6.2): doc.kml
#                                 holds only a NetworkLink to layers/track_points.kml
#   walk.gpsbabel-track.kmz       Info-ZIP zip 3.0 -9 of walk.gpsbabel-track.kml as doc.kml
#   stops.python.kmz              Python zipfile: images/ (directory), images/icon-1.png (stored),
#                                 doc.kml = stops.gpsbabel.kml (deflated) — the document after
#                                 other entries, as in Google Earth's exports with icons
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
out="$here/Tests/GeoAnchorKitTests/Fixtures/Traces/Other"
tmp=$(mktemp -d)
rm -f "$out"/*.kmz
ogr2ogr -f LIBKML "$out/walk.libkml-track-points.kmz" "$out/walk.gpx" track_points 2>/dev/null
cp "$out/walk.gpsbabel-track.kml" "$tmp/doc.kml"
(cd "$tmp" && zip -q -X -9 "$out/walk.gpsbabel-track.kmz" doc.kml)
python3 - "$out/stops.gpsbabel.kml" "$out/stops.python.kmz" <<'EOF'
import sys, zipfile
kml = open(sys.argv[1], "rb").read()
png = bytes.fromhex("89504e470d0a1a0a0000000d4948445200000001000000010806000000")  # a PNG header, 1×1
with zipfile.ZipFile(sys.argv[2], "w") as z:
    z.writestr(zipfile.ZipInfo("images/", date_time=(2026, 11, 27, 12, 0, 0)), b"")
    z.writestr(zipfile.ZipInfo("images/icon-1.png", date_time=(2026, 11, 27, 12, 0, 0)), png, compress_type=zipfile.ZIP_STORED)
    i = zipfile.ZipInfo("doc.kml", date_time=(2026, 11, 27, 12, 0, 0))
    z.writestr(i, kml, compress_type=zipfile.ZIP_DEFLATED)
EOF
rm -rf "$tmp"
