#!/bin/sh
# Writes GeoJSON traces the way GDAL's ogr2ogr and GPSBabel write them, from a GPX of the
# project's own simulated walk (the first 5 fixes of traces/city-walk.raw.csv).
#
# Made with:  sh scripts/dev/gdal_gpsbabel_fixtures.sh   (needs: apt-get install gdal-bin gpsbabel,
#             and a built geobench: swift build -c release)
# Output:     Tests/GeoAnchorKitTests/Fixtures/Traces/Other/
#   walk.gpx                    the GPX ogr2ogr and GPSBabel read (geobench convert)
#   walk.ogr-track-points.geojson  ogr2ogr -f GeoJSON … track_points  (Point per trkpt; time, ele, sat, …)
#   walk.ogr-tracks.geojson        ogr2ogr -f GeoJSON … tracks        (MultiLineString, no times)
#   walk.gpsbabel.geojson          gpsbabel -o geojson                (LineString, no times)
#   walk.gpsbabel-unicsv.csv       gpsbabel -t -o unicsv              (Date, Time columns; 6 decimals)
#   walk.gpsbabel.nmea             gpsbabel -o nmea                   (RMC/GGA/GSA, minutes to 3 decimals)
# Versions used: GDAL 3.6.2 (Debian 12), GPSBabel 1.8.0 (Debian 12).
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
out="$here/Tests/GeoAnchorKitTests/Fixtures/Traces/Other"
tmp=$(mktemp -d)
head -6 "$here/traces/city-walk.raw.csv" > "$tmp/walk.csv"
"$here/.build/release/geobench" convert --input "$tmp/walk.csv" --output "$out/walk.gpx"
rm -f "$out"/walk.*.geojson "$out"/walk.gpsbabel*
ogr2ogr -f GeoJSON "$out/walk.ogr-track-points.geojson" "$out/walk.gpx" track_points
ogr2ogr -f GeoJSON "$out/walk.ogr-tracks.geojson" "$out/walk.gpx" tracks
gpsbabel -i gpx -f "$out/walk.gpx" -o geojson -F "$out/walk.gpsbabel.geojson"
gpsbabel -t -i gpx -f "$out/walk.gpx" -o unicsv -F "$out/walk.gpsbabel-unicsv.csv"
gpsbabel -i gpx -f "$out/walk.gpx" -o nmea -F "$out/walk.gpsbabel.nmea"
rm -r "$tmp"
