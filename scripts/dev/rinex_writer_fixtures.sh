#!/usr/bin/env bash
# RINEX 3.04 written by geobench, read back by RTKLIB (Tests/GeoAnchorKitTests/GNSS/RinexObservationWriterTests.swift).
#
# Made with:  apt-get install rtklib      (convbin 2.4.3 b34)
#             scripts/dev/rinex_writer_fixtures.sh
#
# Written below (Tests/GeoAnchorKitTests/Fixtures/GNSS/):
#   pixel5.first30.rawx.geobench304.rnx.gz   geobench rinex of pixel5.first30.rawx.ubx (the u-blox log of
#                                            the Pixel 5 drive's first 30 s), its creation time set to
#                                            20261128 000000 UTC (the test writes the same text)
#   pixel5.first30.rawx.geobench304.rtklib304.rnx.gz
#                                            RTKLIB's convbin -r rinex -v 3.04 of it: how RTKLIB reads it
set -euo pipefail
cd "$(dirname "$0")/../.."
out=Tests/GeoAnchorKitTests/Fixtures/GNSS
tmp=$(mktemp -d); trap 'rm -rf "$tmp"' EXIT
swift build --product geobench >/dev/null
.build/debug/geobench rinex --input "$out/pixel5.first30.rawx.ubx" --output "$tmp/ours.rnx" 2>/dev/null
sed -i -E '2s/[0-9]{8} [0-9]{6} UTC/20261128 000000 UTC/' "$tmp/ours.rnx"
gzip -9n < "$tmp/ours.rnx" > "$out/pixel5.first30.rawx.geobench304.rnx.gz"
convbin -r rinex -v 3.04 -f 5 -od -os -o "$tmp/rtklib.rnx" "$tmp/ours.rnx" >/dev/null 2>&1
# The run's date is the only line that varies between runs.
sed -i -E '2s/[0-9]{8} [0-9]{6} UTC/20261128 000000 UTC/' "$tmp/rtklib.rnx"
grep -v '^log: ' "$tmp/rtklib.rnx" | gzip -9n > "$out/pixel5.first30.rawx.geobench304.rtklib304.rnx.gz"
