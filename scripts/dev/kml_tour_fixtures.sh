#!/bin/sh
# A whole tour as KML/KMZ — stops, path and zones — for KMLReader.areas and
# Tour(waypoints:path:areas:radius:) (Tests/geobenchTests/GeobenchRealWorldFilesTests.swift,
# Tests/GeoAnchorKitTests/Traces/KMLAreaTests.swift).
#
# Made with:  sh scripts/dev/kml_tour_fixtures.sh   (needs GDAL 3.6: apt-get install gdal-bin)
# Output:     Tests/GeoAnchorKitTests/Fixtures/Traces/Other/
#   zavist-tour.gdal.kml     ogr2ogr -f KML of traces/zavist-tour.tour.geojson with each feature's
#                            "name" (a stop's name, a zone's id): Point, LineString and Polygon
#                            placemarks as GDAL's KML driver writes them (ExtendedData beside)
#   zavist-tour.libkml.kmz   ogr2ogr -f LIBKML of the same: a KMZ whose doc.kml links the layer
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
out="$here/Tests/GeoAnchorKitTests/Fixtures/Traces/Other"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
python3 - "$here/traces/zavist-tour.tour.geojson" "$tmp/tour.geojson" <<'EOF'
import json, sys
d = json.load(open(sys.argv[1]))
for f in d["features"]:
    p = f["properties"]
    f["properties"] = {"name": p.get("name", p["id"]), "kind": p["kind"]}
json.dump(d, open(sys.argv[2], "w"))
EOF
rm -f "$out/zavist-tour.gdal.kml" "$out/zavist-tour.libkml.kmz"
ogr2ogr -f KML -dsco NameField=name "$out/zavist-tour.gdal.kml" "$tmp/tour.geojson"
ogr2ogr -f LIBKML "$out/zavist-tour.libkml.kmz" "$tmp/tour.geojson"
