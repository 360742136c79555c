#!/bin/sh
# Models placed in Google Earth style KML, for GeoAnchor.anchors(kml:)
# (Tests/GeoAnchorKitTests/Anchoring/GeoAnchorKMLTests.swift).
#
# Made with:  sh scripts/dev/kml_anchor_fixtures.sh   (needs GDAL 3.6 with LIBKML: apt-get install gdal-bin)
# Output:     Tests/GeoAnchorKitTests/Fixtures/Traces/Other/
#   site-models.geojson   the models' values, written below: GDAL LIBKML's feature fields `model`
#                         (Link href), `heading`, `tilt`, `roll`, `scale_x/y/z`, `altitudeMode`
#                         — an absolute gate, a tower 2 m above the ground, a clamped well Point, a
#                         tilted statue and a stretched wall (both refused by the reader)
#   site-models.kmz       ogr2ogr -f LIBKML of it: Model placemarks (Location, Orientation, Scale,
#                         Link) as GDAL writes them, the well a Point
#   survey.gpsbabel.gpx   gpsbabel -i unicsv -o gpx of three surveyed points (Name, Latitude,
#                         Longitude, Altitude MSL; the well without one): waypoints as anchors
#                         (needs gpsbabel 1.8.0)
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
out="$here/Tests/GeoAnchorKitTests/Fixtures/Traces/Other"
cat > "$out/site-models.geojson" <<'EOF'
{"type":"FeatureCollection","features":[
{"type":"Feature","properties":{"name":"gate","model":"models/gate.dae","heading":95.0,"tilt":0.0,"roll":0.0,"scale_x":1.5,"scale_y":1.5,"scale_z":1.5,"altitudeMode":"absolute"},"geometry":{"type":"Point","coordinates":[14.388,49.9578,331.2]}},
{"type":"Feature","properties":{"name":"tower","model":"models/tower.dae","heading":10.0,"altitudeMode":"relativeToGround"},"geometry":{"type":"Point","coordinates":[14.3962,49.9632,2.0]}},
{"type":"Feature","properties":{"name":"well","altitudeMode":"clampToGround"},"geometry":{"type":"Point","coordinates":[14.3935,49.9595]}},
{"type":"Feature","properties":{"name":"statue","model":"models/statue.dae","heading":180.0,"tilt":5.0,"altitudeMode":"absolute"},"geometry":{"type":"Point","coordinates":[14.3905,49.9605,340.0]}},
{"type":"Feature","properties":{"name":"wall","model":"models/wall.dae","scale_x":2.0,"scale_y":1.0,"scale_z":1.0,"altitudeMode":"absolute"},"geometry":{"type":"Point","coordinates":[14.3915,49.9615,338.0]}}
]}
EOF
rm -f "$out/site-models.kmz"
ogr2ogr -f LIBKML "$out/site-models.kmz" "$out/site-models.geojson"
printf 'Name,Latitude,Longitude,Altitude\ngate,49.9578,14.388,331.2\ntower,49.9632,14.3962,336.5\nwell,49.9595,14.3935,\n' > "$out/survey.csv.tmp"
gpsbabel -i unicsv -f "$out/survey.csv.tmp" -o gpx -F "$out/survey.gpsbabel.gpx"
rm -f "$out/survey.csv.tmp"
