#!/usr/bin/env bash
# Hostile-input pass of issue 15: every example of the issue, run against a (release) geobench,
# printing exit status, wall time, peak memory and a verdict per case.
#
#   scripts/dev/hostile_inputs.sh [GEOBENCH]      (default .build/release/geobench)
#
# A case is green when geobench exits 0 or 2 (the expected one where the case says), within 60 s
# and 1 GB, writes no nan/inf, and its own check (JSON valid, FIFO still a FIFO, ...) holds.
# Needs python3 (input generation, JSON checks). Exits 1 when any case is red.
set -u
ROOT="$(cd "$(dirname "$0")/../.." && pwd)"
GB="${1:-$ROOT/.build/release/geobench}"
GB="$(cd "$(dirname "$GB")" && pwd)/$(basename "$GB")"
T="$(mktemp -d /tmp/hostile.XXXXXX)"
trap 'rm -rf "$T"' EXIT
cd "$T"
WALK="$ROOT/traces/city-walk.raw.csv"
TOUR="$ROOT/traces/city-walk.tour.geojson"
HDR="time,latitude,longitude,altitude,horizontal_accuracy,satellites,quality"

# ---------------------------------------------------------------- inputs
printf 'latitude,longitude\n50,1e308\n' > geoid.csv
python3 - <<'EOF'
import struct, json, math
# GTX header claiming 2e9 x 2e9 cells, no data
open("huge.gtx", "wb").write(struct.pack(">ddddii", 0, 0, 1e-7, 1e-7, 2_000_000_000, 2_000_000_000))
hdr = "time,latitude,longitude,altitude,horizontal_accuracy,satellites,quality\n"
ok = "2026-05-16T14:00:0%d.000Z,50.087,14.4206,190,3,%s,%s\n"
open("sats.csv", "w").write(hdr + ok % (0, "12", "1") + ok % (1, "1e20", "1"))
open("quality.csv", "w").write(hdr + ok % (0, "12", "1") + ok % (1, "12", "1e20"))
open("time.csv", "w").write(hdr + "1e308,50.087,14.4206,190,3,12,1\n")
open("time2.csv", "w").write(hdr + "1700000000,50.087,14.4206,190,3,12,1\n1e17,50.087,14.4206,190,3,12,1\n")
open("year2100.csv", "w").write(hdr + "2100-01-01T00:00:00Z,50.087,14.4206,190,3,12,1\n")
open("year1970.csv", "w").write(hdr + "1975-01-01T00:00:00Z,50.087,14.4206,190,3,12,1\n")
EOF
# tour --raw with a 1e12 m accuracy on one fix
awk -F, -v OFS=, 'NR==1{print; next} NR>=2{$6="1e12"} {print}' "$WALK" > hacc12.csv
# filter input with a 1e308 m accuracy
awk -F, -v OFS=, 'NR==1{print; next} NR==2{$6="1e308"} {print}' "$WALK" > hacc308.csv
python3 - "$TOUR" <<'EOF'
import json, sys, copy
tour = json.load(open(sys.argv[1]))
big = copy.deepcopy(tour)
for f in big["features"]:
    if f["properties"].get("kind") == "stop":
        f["properties"]["radius"] = 1e6; break
json.dump(big, open("bigradius.tour.geojson", "w"))
anti = copy.deepcopy(tour)
lon, lat = [f for f in tour["features"] if f["properties"].get("kind") == "stop"][0]["geometry"]["coordinates"][:2]
anti["features"].append({"type": "Feature", "properties": {"kind": "stop", "id": "antipode", "radius": 20.0},
                         "geometry": {"type": "Point", "coordinates": [lon - 180 if lon > 0 else lon + 180, -lat]}})
json.dump(anti, open("antipodal.tour.geojson", "w"))
# GeoJSON trace with a negative accuracy
json.dump({"type": "FeatureCollection", "features": [{"type": "Feature",
    "properties": {"time": "2026-05-16T14:00:00Z", "horizontal_accuracy": -5},
    "geometry": {"type": "Point", "coordinates": [14.42, 50.08]}}]}, open("negacc.geojson", "w"))
# 5,000 route stops around Prague
import random
r = random.Random(5)
with open("stops5000.csv", "w") as f:
    f.write("id,latitude,longitude\n")
    for i in range(5000):
        f.write("s%d,%.6f,%.6f\n" % (i, 50.08 + r.uniform(-0.05, 0.05), 14.42 + r.uniform(-0.08, 0.08)))
with open("stops20000.csv", "w") as f:
    f.write("id,latitude,longitude\n")
    for i in range(20000):
        f.write("s%d,%.6f,%.6f\n" % (i, 50.08 + r.uniform(-0.05, 0.05), 14.42 + r.uniform(-0.08, 0.08)))
open("dwell.csv", "w").write("id,latitude,longitude,dwell_s\na,50.08,14.42,1e308\nb,50.081,14.421,1e308\nc,50.082,14.42,1\n")
open("stops3.csv", "w").write("id,latitude,longitude\na,50.08,14.42\nb,50.081,14.421\nc,50.082,14.42\n")
open("anchors.csv", "w").write("id,latitude,longitude,altitude,altitude_reference\n"
                               "good,50.0871,14.4207,200,ellipsoid\nbad,50.0872,14.4208,1e308,ellipsoid\n")
# TSPLIB
open("nan.tsp", "w").write("NAME: nan\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 nan 1\n3 1 1\nEOF\n")
open("int64.tsp", "w").write("NAME: big\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: FULL_MATRIX\n"
    "EDGE_WEIGHT_SECTION\n0 9223372036854775807 9223372036854775807\n9223372036854775807 0 9223372036854775807\n"
    "9223372036854775807 9223372036854775807 0\nEOF\n")
open("dim.tsp", "w").write("NAME: d\nTYPE: TSP\nDIMENSION: 1000000000\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\nEOF\n")
open("asym.tsp", "w").write("NAME: a\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: FULL_MATRIX\n"
    "EDGE_WEIGHT_SECTION\n0 1 2\n5 0 1\n2 1 0\nEOF\n")
open("neg.tsp", "w").write("NAME: n\nTYPE: TSP\nDIMENSION: 3\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: FULL_MATRIX\n"
    "EDGE_WEIGHT_SECTION\n0 -1 2\n-1 0 1\n2 1 0\nEOF\n")
open("good.tsp", "w").write("NAME: g\nTYPE: TSP\nDIMENSION: 4\nEDGE_WEIGHT_TYPE: EUC_2D\nNODE_COORD_SECTION\n1 0 0\n2 0 10\n3 10 10\n4 10 0\nEOF\n")
# GPX billion laughs: a 100 KB entity referenced a million times
ent = "x" * 100_000
with open("laughs.gpx", "w") as f:
    f.write('<?xml version="1.0"?>\n<!DOCTYPE gpx [<!ENTITY a "%s">]>\n<gpx version="1.1" creator="t"><trk><name>' % ent)
    f.write("&a;" * 1_000_000)
    f.write('</name><trkseg><trkpt lat="50" lon="14"><time>2026-01-01T00:00:00Z</time></trkpt></trkseg></trk></gpx>\n')
# magnetometer samples for calibrate
import math
with open("mag.csv", "w") as f:
    f.write("mx,my,mz\n")
    for i in range(200):
        th = math.acos(1 - 2 * (i + 0.5) / 200); ph = i * 2.399963
        f.write("%.4f,%.4f,%.4f\n" % (10 + 48 * math.sin(th) * math.cos(ph), -5 + 48 * math.sin(th) * math.sin(ph), 3 + 48 * math.cos(th)))
EOF
printf 'east,north,up\n1e308,0,0\n' > enu.csv
printf 'latitude,longitude,height,date\n50,14,0,1e300\n' > magnetic.csv
head -20 "$WALK" > short.csv
# WMM.COF truncated after degree 8 (header + coefficients n <= 8 + the end marker)
WMM="${GEOANCHORKIT_WMM_COF:-$ROOT/.data/WMM.COF}"
if [ -f "$WMM" ]; then
  awk 'NR==1{print; next} /^9999/{print; next} {if ($1+0 <= 8) print}' "$WMM" > wmm8.cof
fi

# ---------------------------------------------------------------- runner
RED=0
printf '%-34s %4s %8s %9s  %s\n' case exit time_s peak_MB verdict
# run NAME EXPECT CHECK -- command...   (EXPECT: 0, 2, 02 = either, nz = non-zero; CHECK: shell test or '-')
run() {
  local name="$1" expect="$2" check="$3"; shift 4
  # 3 GB address-space cap and a 90 s timeout protect the machine from the "before" behaviour.
  ( ulimit -v 3000000; exec /usr/bin/time -v -o "$name.time" timeout 90 "$@" ) > "$name.out" 2> "$name.err" < /dev/null
  local rc=$?
  [ -s "$name.time" ] && grep -q 'Exit status' "$name.time" && rc=$(awk -F': ' '/Exit status/{print $2}' "$name.time")
  # time(1) reports a child killed by a signal (a Swift trap is SIGILL/SIGTRAP) as exit status 0.
  if grep -q 'terminated by signal' "$name.time" 2>/dev/null; then
    rc=$((128 + $(sed -n 's/.*terminated by signal \([0-9]*\).*/\1/p' "$name.time" | head -1)))
  fi
  local secs mb
  secs=$(awk -F': ' '/Elapsed \(wall clock\)/{n=split($2,a,":"); s=0; for(i=1;i<=n;i++) s=s*60+a[i]; print s}' "$name.time")
  mb=$(awk -F': ' '/Maximum resident/{printf "%.0f", $2/1024}' "$name.time")
  local why=""
  case "$expect" in
    0|2) [ "$rc" = "$expect" ] || why="exit $rc, expected $expect" ;;
    02) { [ "$rc" = 0 ] || [ "$rc" = 2 ]; } || why="exit $rc" ;;
    nz) { [ "$rc" != 0 ] && [ "$rc" -lt 128 ]; } || why="exit $rc, expected a non-zero error" ;;
  esac
  awk -v s="${secs:-999}" 'BEGIN{exit !(s > 60)}' && why="$why; ${secs}s > 60 s"
  [ "${mb:-0}" -gt 1024 ] && why="$why; ${mb} MB > 1 GB"
  if grep -qiE '(^|[^a-z])(nan|[-+]?inf(inity)?)([^a-z]|$)' "$name.out" 2>/dev/null; then why="$why; non-finite value in output"; fi
  if [ "$check" != "-" ] && ! (eval "$check") > /dev/null 2>&1; then why="$why; check failed: $check"; fi
  if [ "$rc" != 0 ] && [ ! -s "$name.err" ]; then why="$why; no message on stderr"; fi
  why="${why#; }"
  if [ -z "$why" ]; then v="green"; else v="RED: $why"; RED=1; fi
  printf '%-34s %4s %8s %9s  %s\n' "$name" "$rc" "${secs:-?}" "${mb:-?}" "$v"
  [ -z "$why" ] || sed -n '1,2s/^/      stderr: /p' "$name.err" | cut -c1-160
}
json_ok() { python3 -c 'import json,sys; json.loads(open(sys.argv[1]).read(), parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))' "$1"; }
jsonl_ok() { python3 -c 'import json,sys
for l in open(sys.argv[1]):
    json.loads(l, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))' "$1"; }

# traps
run geoid_lon_1e308          02 - -- sh -c "'$GB' geoid < geoid.csv"
run gtx_header_2e9x2e9       2  - -- sh -c "'$GB' geoid --grid huge.gtx < geoid.csv"
run trace_satellites_1e20    2  - -- "$GB" convert --input sats.csv --output sats.gpx
run trace_quality_1e20       2  - -- "$GB" convert --input quality.csv --output quality.gpx
run trace_time_1e308         2  - -- "$GB" convert --input time.csv --output time.nmea
run trace_time_1e17_gpx      2  - -- "$GB" convert --input time2.csv --output time2.gpx
run tour_raw_hacc_1e12       02 - -- "$GB" tour --tour "$TOUR" --trace hacc12.csv --raw
run tsplib_nan_coordinate    2  - -- "$GB" tsplib nan.tsp
run tsplib_int64max_weights  2  - -- "$GB" tsplib int64.tsp
# memory / time
run tsplib_dimension_1e9     2  - -- "$GB" tsplib dim.tsp
run tour_stop_radius_1e6     02 - -- "$GB" tour --tour bigradius.tour.geojson --trace "$WALK" --raw
run route_5000_time_limit_2  0  "python3 -c 'import json;d=json.load(open(\"route_5000_time_limit_2.out\"));assert len(d[\"order\"])==5000'" -- "$GB" route --stops stops5000.csv --time-limit 2 --json
run route_20000_time_limit_5 0  "python3 -c 'import json;d=json.load(open(\"route_20000_time_limit_5.out\"));assert len(d[\"order\"])==20000'" -- "$GB" route --stops stops20000.csv --time-limit 5 --json
run gpx_entity_expansion     2  - -- "$GB" convert --input laughs.gpx --output laughs.csv
# output: full disk
run full_route_json          nz - -- sh -c "'$GB' route --stops stops3.csv --json > /dev/full"
run full_route_table         nz - -- sh -c "'$GB' route --stops stops3.csv > /dev/full"
run full_tsplib              nz - -- sh -c "'$GB' tsplib good.tsp > /dev/full"
run full_calibrate           nz - -- sh -c "'$GB' calibrate --input mag.csv --json > /dev/full"
run full_accuracy            nz - -- sh -c "'$GB' accuracy --trace '$WALK' --truth '$ROOT/traces/city-walk.truth.csv' > /dev/full"
run full_filter_json         nz - -- sh -c "'$GB' filter --input short.csv --output filtered.csv --json > /dev/full"
run full_geoid_output        nz - -- "$GB" geoid --input geoid.csv --output /dev/full
ln -s /dev/full full.csv
run full_convert_via_symlink nz "[ -L full.csv ]" -- "$GB" convert --input short.csv --output full.csv
run full_tour                nz - -- sh -c "'$GB' tour --tour '$TOUR' --trace '$WALK' --raw > /dev/full"
run full_anchors_json        nz - -- sh -c "'$GB' anchors --device 50.087,14.42,200 --heading 0 --anchors anchors.csv --json > /dev/full"
# output: symlink / FIFO / device
printf 'latitude,longitude\n50,14\n' > ok.csv
echo old > target.csv; ln -s target.csv link.csv
run output_symlink           0  "[ -L link.csv ] && grep -q undulation target.csv" -- "$GB" geoid --input ok.csv --output link.csv
mkfifo pipe.csv; (cat pipe.csv > fromfifo.txt &)
run output_fifo              0  "[ -p pipe.csv ] && grep -q undulation fromfifo.txt" -- "$GB" geoid --input ok.csv --output pipe.csv
if mknod mynull.csv c 1 3 2>/dev/null; then
  run output_char_device     0  "[ -c mynull.csv ]" -- "$GB" geoid --input ok.csv --output mynull.csv
  run output_device_convert  0  "[ -c mynull.csv ]" -- "$GB" convert --input short.csv --output mynull.csv
fi
# /proc/self/fd/1 rather than /dev/stdout: an old geobench replaces the path it is given with a
# regular file, and run as root that would destroy the machine's /dev/stdout (it did, once).
run output_proc_self_fd_1    0  "grep -q undulation output_proc_self_fd_1.out" -- "$GB" geoid --input ok.csv --output /proc/self/fd/1
# silent garbage
run enu_inverse_1e308        02 - -- sh -c "'$GB' enu --origin 50,14,0 --inverse < enu.csv"
run magnetic_far_date        02 - -- sh -c "'$GB' magnetic --model '$WMM' < magnetic.csv"
run filter_accuracy_1e308    2  "[ ! -s filtered308.csv ] || '$GB' convert --input filtered308.csv --output back.gpx" -- "$GB" filter --input hacc308.csv --output filtered308.csv
run route_duration_inf       02 "[ ! -s route_duration_inf.out ] || python3 -c 'import json,sys; json.loads(open(\"route_duration_inf.out\").read(), parse_constant=lambda c: 1/0)'" -- "$GB" route --stops dwell.csv --json
run anchors_json_per_row     2  "python3 -c 'import json; d=json.load(open(\"anchors_json_per_row.out\")); assert [a[\"id\"] for a in d[\"anchors\"]]==[\"good\"] and len(d[\"errors\"])==1'" -- "$GB" anchors --device 50.087,14.42,200 --heading 0 --anchors anchors.csv --json
run geojson_negative_acc     2  - -- "$GB" convert --input negacc.geojson --output negacc.csv
if [ -f wmm8.cof ]; then
  run wmm_truncated_degree8  2  - -- sh -c "printf 'latitude,longitude,height,date\n50,14,0,2026.5\n' | '$GB' magnetic --model wmm8.cof"
fi
run tsplib_asymmetric        2  - -- "$GB" tsplib asym.tsp
run tsplib_negative          2  - -- "$GB" tsplib neg.tsp
"$GB" tour --tour "$TOUR" --trace "$WALK" --raw > tour_plain.csv 2>/dev/null
run tour_antipodal_stop      2  "grep -q antipode tour_antipodal_stop.err" -- "$GB" tour --tour antipodal.tour.geojson --trace "$WALK" --raw
"$GB" simulate --scenario city-walk --seed 7 --raw sim_a.csv --truth sim_a_truth.csv > /dev/null 2>&1
run simulate_sensor_duration 0  "cmp sim_a.csv sim_b.csv" -- "$GB" simulate --scenario city-walk --seed 7 --raw sim_b.csv --truth sim_b_truth.csv --sensors sim_b_sensors.csv --sensor-duration 30
run nmea_year_2100           2  - -- "$GB" convert --input year2100.csv --output year2100.nmea
run nmea_year_1975           2  - -- "$GB" convert --input year1970.csv --output year1970.nmea
exit $RED
