#!/bin/sh
# gzip fixtures for the readers' transparent gzip support (Tests/GeoAnchorKitTests/Support/GzipTests.swift),
# from committed fixtures, the ways other tools compress them.
#
# Made with:  sh scripts/dev/gzip_fixtures.sh   (needs gzip 1.12 and python3; both in Debian 12)
# Output:     Tests/GeoAnchorKitTests/Fixtures/Gzip/
#   geodetic.211.99o.gz   gzip -9 -n of Fixtures/GNSS/geodetic.211.99o (no name, no time)
#   walk.gpsbabel.nmea.gz gzip -1 of Fixtures/Traces/Other/walk.gpsbabel.nmea (stored name and time)
#   walk.gpx.gz           Python's gzip.compress (mtime 0) of Fixtures/Traces/Other/walk.gpx
#   walk.split.nmea.gz    two members (cat a.gz b.gz): gzip -9 -n of the NMEA's first 5 lines and of the rest
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
fx="$here/Tests/GeoAnchorKitTests/Fixtures"
out="$fx/Gzip"
tmp=$(mktemp -d)
mkdir -p "$out"
gzip -9 -n -c "$fx/GNSS/geodetic.211.99o" > "$out/geodetic.211.99o.gz"
cp "$fx/Traces/Other/walk.gpsbabel.nmea" "$tmp/walk.gpsbabel.nmea"
touch -d "2026-11-27 12:00:00 UTC" "$tmp/walk.gpsbabel.nmea"
gzip -1 -c "$tmp/walk.gpsbabel.nmea" > "$out/walk.gpsbabel.nmea.gz"
python3 -c 'import gzip,sys; open(sys.argv[2],"wb").write(gzip.compress(open(sys.argv[1],"rb").read(), mtime=0))' "$fx/Traces/Other/walk.gpx" "$out/walk.gpx.gz"
head -5 "$fx/Traces/Other/walk.gpsbabel.nmea" | gzip -9 -n > "$tmp/a.gz"
tail -n +6 "$fx/Traces/Other/walk.gpsbabel.nmea" | gzip -9 -n > "$tmp/b.gz"
cat "$tmp/a.gz" "$tmp/b.gz" > "$out/walk.split.nmea.gz"
rm -rf "$tmp"
