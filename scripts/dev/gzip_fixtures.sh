#!/bin/sh
# gzip and compress (.Z) fixtures for the readers' transparent decompression
# (Tests/GeoAnchorKitTests/Support/GzipTests.swift), from committed fixtures, the ways other tools compress them.
#
# Made with:  sh scripts/dev/gzip_fixtures.sh   (needs gzip 1.12 and python3, in Debian 12; and
#             (N)compress 4.2.4.6: apt-get install ncompress)
# Output:     Tests/GeoAnchorKitTests/Fixtures/Gzip/
#   geodetic.211.99o.gz   gzip -9 -n of Fixtures/GNSS/geodetic.211.99o (no name, no time)
#   walk.gpsbabel.nmea.gz gzip -1 of Fixtures/Traces/Other/walk.gpsbabel.nmea (stored name and time)
#   walk.gpx.gz           Python's gzip.compress (mtime 0) of Fixtures/Traces/Other/walk.gpx
#   walk.split.nmea.gz    two members (cat a.gz b.gz): gzip -9 -n of the NMEA's first 5 lines and of the rest
#   geodetic.211.99o.Z    compress (default: codes up to 16 bits, block mode)
#   pixel6.b10.23o.Z      compress -b 10 of Fixtures/GNSS/pixel6.first2min.211.23o: 9- and 10-bit codes,
#                         the dictionary fills and CLEAR codes restart it many times (-b 9 output
#                         is not decodable by compress -d or gzip -d themselves)
#   pixel6.b12.23o.Z      compress -b 12 of the same: widths 9 → 12
#   mixed.b11.Z           compress -b 11 of text, then ZIP archives (compressed, random-looking
#                         bytes), then text: fixtures GNSS/pixel6.first2min.211.23o,
#                         Zip/python-deflate-9.zip, Zip/python-deflate-1.zip, Zip/python-zip64.zip,
#                         GNSS/geodetic.211.99o concatenated — the ratio drops and compress emits CLEAR
#   pixel6.211.23d.gz     gzip -9 -n of Fixtures/GNSS/pixel6.first2min.211.23d (Compact RINEX, as archives serve it)
#   walk.gpx.zip          Python zipfile: walk.gpx alone (deflated)
#   walk.nmea.zip         Info-ZIP zip -9: walk.gpsbabel.nmea and a README.txt (the .nmea is chosen by the
#                         archive's name)
#   two.nmea.zip          Info-ZIP zip -9: two .nmea files (ambiguous: refused, naming them)
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
compress -c "$fx/GNSS/geodetic.211.99o" > "$out/geodetic.211.99o.Z"
gzip -9 -n -c "$fx/GNSS/pixel6.first2min.211.23d" > "$out/pixel6.211.23d.gz"
compress -b 10 -c "$fx/GNSS/pixel6.first2min.211.23o" > "$out/pixel6.b10.23o.Z"
compress -b 12 -c "$fx/GNSS/pixel6.first2min.211.23o" > "$out/pixel6.b12.23o.Z"
cat "$fx/GNSS/pixel6.first2min.211.23o" "$fx/Zip/python-deflate-9.zip" "$fx/Zip/python-deflate-1.zip" "$fx/Zip/python-zip64.zip" \
    "$fx/GNSS/geodetic.211.99o" | compress -b 11 -c > "$out/mixed.b11.Z"
python3 -c 'import sys, zipfile
with zipfile.ZipFile(sys.argv[2], "w") as z:
    i = zipfile.ZipInfo("walk.gpx", date_time=(2026, 11, 27, 12, 0, 0)); z.writestr(i, open(sys.argv[1], "rb").read(), compress_type=zipfile.ZIP_DEFLATED)' \
    "$fx/Traces/Other/walk.gpx" "$out/walk.gpx.zip"
cp "$fx/Traces/Other/walk.gpsbabel.nmea" "$tmp/walk.gpsbabel.nmea"; cp "$fx/Traces/Other/walk.gpsbabel.nmea" "$tmp/copy.nmea"
printf 'exported by a test\n' > "$tmp/README.txt"
touch -d "2026-11-27 12:00:00 UTC" "$tmp/walk.gpsbabel.nmea" "$tmp/copy.nmea" "$tmp/README.txt"
rm -f "$out/walk.nmea.zip" "$out/two.nmea.zip"
(cd "$tmp" && zip -q -X -9 "$out/walk.nmea.zip" README.txt walk.gpsbabel.nmea && zip -q -X -9 "$out/two.nmea.zip" walk.gpsbabel.nmea copy.nmea)
rm -rf "$tmp"
