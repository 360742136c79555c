#!/bin/sh
# Compact RINEX (Hatanaka) fixtures for CompactRinex (Tests/GeoAnchorKitTests/GNSS/CompactRinexTests.swift),
# compressed by Hatanaka's own RNX2CRX 4.1.0 (the PyPI package `hatanaka` 2.8.1 bundles it).
#
# Made with:  python3 -m venv /tmp/hvenv && /tmp/hvenv/bin/pip install hatanaka==2.8.1
#             sh scripts/dev/crx_fixtures.sh   (also needs RTKLIB's convbin and ../shared/data)
# Output:     Tests/GeoAnchorKitTests/Fixtures/GNSS/
#   pixel6.first2min.211.23d     CRINEX 1.0 of pixel6.first2min.211.23o (9 epochs, arcs of up to 9 epochs)
#   geodetic-noslips.211.99d     CRINEX 1.0 of geodetic.211.99o without its flag-6 record (RNX2CRX
#                                refuses cycle-slip records): events 1, 4 (new type list), 5
#   geodetic.rtklib304.crx       CRINEX 3.0 of geodetic.rtklib304.99o
#   pixel6.first2min.304.rnx     convbin -v 3.04 of the first two minutes of gnss_lib_py's pixel6.23o
#   pixel6.first2min.304.crx     CRINEX 3.0 of it
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
out="$here/Tests/GeoAnchorKitTests/Fixtures/GNSS"
rnx2crx=${RNX2CRX:-/tmp/hvenv/bin/rnx2crx}
tmp=$(mktemp -d)
cp "$out/pixel6.first2min.211.23o" "$tmp/p.23o"
sed '52,56d' "$out/geodetic.211.99o" > "$tmp/g.99o"
cp "$out/geodetic.rtklib304.99o" "$tmp/g3.rnx"
convbin -r rinex -v 3.04 -od -os -ts 2023/11/07 23:43:00 -te 2023/11/07 23:45:00 -o "$out/pixel6.first2min.304.rnx" \
    "$here/../shared/data/gnss_raw/gnss_lib_py_more/pixel6.23o" >/dev/null 2>&1
cp "$out/pixel6.first2min.304.rnx" "$tmp/p3.rnx"
(cd "$tmp" && "$rnx2crx" -f p.23o && "$rnx2crx" -f g.99o && "$rnx2crx" -f g3.rnx && "$rnx2crx" -f p3.rnx)
cp "$tmp/p.23d" "$out/pixel6.first2min.211.23d"
cp "$tmp/g.99d" "$out/geodetic-noslips.211.99d"
cp "$tmp/g3.crx" "$out/geodetic.rtklib304.crx"
cp "$tmp/p3.crx" "$out/pixel6.first2min.304.crx"
rm -rf "$tmp"
