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
#   walk.ogr-track-points.kml      ogr2ogr -f KML … track_points      (Points; time and ele as SimpleData)
#   walk.gpsbabel.geojson          gpsbabel -o geojson                (LineString, no times)
#   walk.gpsbabel-unicsv.csv       gpsbabel -t -o unicsv              (Date, Time columns; 6 decimals)
#   walk.gpsbabel.nmea             gpsbabel -o nmea                   (RMC/GGA/GSA, minutes to 3 decimals)
#   walk.gpsbabel.kml              gpsbabel -o kml                    (timed Point placemarks + a LineString)
#   walk.gpsbabel-track.kml        gpsbabel -o kml,track=1,floating=1 (gx:Track, absolute altitudes)
#   stops.gpsbabel.kml             gpsbabel -o kml of two GPX waypoints (untimed Point placemarks: stops)
# Versions used: GDAL 3.6.2 (Debian 12), GPSBabel 1.8.0 (Debian 12).
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
out="$here/Tests/GeoAnchorKitTests/Fixtures/Traces/Other"
tmp=$(mktemp -d)
head -6 "$here/traces/city-walk.raw.csv" > "$tmp/walk.csv"
"$here/.build/release/geobench" convert --input "$tmp/walk.csv" --output "$out/walk.gpx"
rm -f "$out"/walk.*.geojson "$out"/walk.*.kml "$out"/walk.gpsbabel* "$out"/stops.*
ogr2ogr -f GeoJSON "$out/walk.ogr-track-points.geojson" "$out/walk.gpx" track_points
ogr2ogr -f GeoJSON "$out/walk.ogr-tracks.geojson" "$out/walk.gpx" tracks
ogr2ogr -f KML "$out/walk.ogr-track-points.kml" "$out/walk.gpx" track_points
gpsbabel -i gpx -f "$out/walk.gpx" -o geojson -F "$out/walk.gpsbabel.geojson"
gpsbabel -t -i gpx -f "$out/walk.gpx" -o unicsv -F "$out/walk.gpsbabel-unicsv.csv"
gpsbabel -i gpx -f "$out/walk.gpx" -o nmea -F "$out/walk.gpsbabel.nmea"
gpsbabel -i gpx -f "$out/walk.gpx" -o kml -F "$out/walk.gpsbabel.kml"
gpsbabel -i gpx -f "$out/walk.gpx" -o kml,track=1,floating=1,points=0 -F "$out/walk.gpsbabel-track.kml"
printf '%s\n' '<?xml version="1.0"?><gpx version="1.1" creator="x" xmlns="http://www.topografix.com/GPX/1/1">' \
  '<wpt lat="50.0870" lon="14.4207"><ele>200</ele><name>Old Town Hall</name></wpt>' \
  '<wpt lat="50.0865" lon="14.4114"><ele>190</ele><name>Charles Bridge</name></wpt></gpx>' > "$tmp/stops.gpx"
gpsbabel -i gpx -f "$tmp/stops.gpx" -o kml -F "$out/stops.gpsbabel.kml"
rm -r "$tmp"
