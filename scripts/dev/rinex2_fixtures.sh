#!/bin/sh
# RINEX 2.11 observation fixtures for the RINEX 2 reader (Tests/GeoAnchorKitTests/GNSS/RinexVersion2Tests.swift).
#
# Made with:  sh scripts/dev/rinex2_fixtures.sh   (needs ../shared/data and RTKLIB's convbin:
#             apt-get install rtklib; Debian 12's is RTKLIB 2.4.3)
# Output:     Tests/GeoAnchorKitTests/Fixtures/GNSS/
#   pixel6.first2min.211.23o  convbin -v 2.11 of the first two minutes of gnss_lib_py's pixel6.23o
#                             (RINEX 3.03 from GnssLogger): C1 L1 D1 S1 C5 L5 D5 S5, GPS/GLONASS/Galileo
#   geodetic.211.99o          written below by hand from RINEX 2.11 §5 and table A1 (values random,
#                             seed 7): P1/P2/C2 types on two lines per satellite, 15 satellites
#                             (a continuation line), a blank system letter, a receiver clock offset,
#                             two-digit years across 1999/2000, power failure (flag 1), a new type
#                             list after event flag 4, cycle slips (flag 6), an external event (flag 5)
#   geodetic.rtklib304.99o    convbin -v 3.04 of geodetic.211.99o: RTKLIB's reading of the RINEX 2
#                             types as RINEX 3 signals (reference for the mapping)
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
out="$here/Tests/GeoAnchorKitTests/Fixtures/GNSS"
shared="$here/../shared/data"
tmp=$(mktemp -d)
mkdir -p "$out"
cp "$shared/gnss_raw/gnss_lib_py_more/pixel6.23o" "$tmp/pixel6.23o"
convbin -r rinex -v 2.11 -od -os -ts 2023/11/07 23:43:00 -te 2023/11/07 23:45:00 -o "$out/pixel6.first2min.211.23o" "$tmp/pixel6.23o" >/dev/null 2>&1
python3 - "$out/geodetic.211.99o" <<'EOF'
import random, sys
random.seed(7)
def hdr(text, label): return f"{text:<60}{label:<20}\n"
def typeslines(types):
    out = []
    for i in range(0, len(types), 9):
        s = (f"{len(types):6d}" if i == 0 else " " * 6) + "".join(f"{t:>6}" for t in types[i:i + 9])
        out.append(hdr(s, "# / TYPES OF OBSERV"))
    return out
def obsline(vals):
    s = ""
    for v in vals:
        if v is None: s += " " * 16
        else:
            val, lli, ssi = v
            s += f"{val:14.3f}" + (str(lli) if lli else " ") + (str(ssi) if ssi else " ")
    return s.rstrip() + "\n"
def epoch(yy, mo, dd, hh, mi, ss, flag, sats, clock=None):
    s = f" {yy:02d} {mo:2d} {dd:2d} {hh:2d} {mi:2d}{ss:11.7f}  {flag:1d}{len(sats):3d}"
    lines = []
    for i in range(0, len(sats), 12):
        chunk = "".join(sats[i:i + 12])
        line = s + chunk if i == 0 else " " * 32 + chunk
        if i == 0 and clock is not None: line = f"{line:<68}{clock:12.9f}"
        lines.append(line + "\n")
    return lines
def satdata(sat, types):
    vals = []
    for t in types:
        if sat.startswith("R") and t == "C2": vals.append(None); continue
        if sat.startswith("E") and t in ("P1", "P2", "C2", "L2", "S2"): vals.append(None); continue
        if t[0] in "CP": v = (20000000 + random.random() * 5000000, 0, random.choice([0, 5, 7]))
        elif t[0] == "L": v = (random.random() * 1e8 - 5e7, random.choice([0, 0, 1]), random.choice([0, 6]))
        elif t[0] == "D": v = (random.random() * 8000 - 4000, 0, 0)
        else: v = (30 + random.random() * 20, 0, 0)
        vals.append(v)
    return [obsline(vals[i:i + 5]) for i in range(0, len(vals), 5)]
types = ["L1", "L2", "C1", "P1", "C2", "P2", "D1", "S1", "S2"]
L = [hdr("     2.11           OBSERVATION DATA    M (MIXED)", "RINEX VERSION / TYPE"),
     hdr("handwritten         GeoAnchorKit        20261127 120000 UTC", "PGM / RUN BY / DATE"),
     hdr("SYNT", "MARKER NAME"),
     hdr("  3979316.4389  1050312.2606  4857066.8928", "APPROX POSITION XYZ"),
     hdr("     1     1", "WAVELENGTH FACT L1/2")]
L += typeslines(types)
L += [hdr("    30.000", "INTERVAL"),
      hdr("  1999    12    31    23    59   30.0000000     GPS", "TIME OF FIRST OBS"),
      hdr("", "END OF HEADER")]
sats1 = ["G05", "G 7", " 12", "G13", "G15", "G18", "G21", "G24", "G26", "G29", "R01", "R02", "R10", "E11", "S20"]
L += epoch(99, 12, 31, 23, 59, 30, 0, sats1, clock=0.000123456)
for s in sats1: L += satdata(s, types)
sats2 = ["G05", "G07", "R10"]
L += epoch(0, 1, 1, 0, 0, 0, 1, sats2)
for s in sats2: L += satdata(s, types)
types2 = ["C1", "L1", "D1", "S1", "P2", "L2", "C5", "L5"]
L.append(f"{'':28}4{1 + len(typeslines(types2)):3d}\n")
L.append(hdr("types change", "COMMENT"))
L += typeslines(types2)
sats3 = ["G05", "G07"]
L += epoch(0, 1, 1, 0, 0, 30, 6, sats3)
for s in sats3: L += satdata(s, types2)
sats4 = ["G05", "G07", "R10", "E11"]
L += epoch(0, 1, 1, 0, 1, 0, 0, sats4)
for s in sats4: L += satdata(s, types2)
L.append(" 00  1  1  0  1 15.0000000  5  0\n")
open(sys.argv[1], "w").write("".join(L))
EOF
convbin -r rinex -v 3.04 -od -os -o "$out/geodetic.rtklib304.99o" "$out/geodetic.211.99o" >/dev/null 2>&1
rm -rf "$tmp"
