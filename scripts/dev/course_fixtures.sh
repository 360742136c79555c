#!/bin/sh
# Course fixtures (a route planned elsewhere, with its stops as course points) for
# TCXReader.coursePoints / FITReader.coursePoints and the tour/route readers
# (Tests/GeoAnchorKitTests/Traces/CoursePointTests.swift).
#
# Made with:  python3 -m venv /tmp/fvenv && /tmp/fvenv/bin/pip install garmin-fit-sdk==21.218.0 fitdecode==0.11.0
#             sh scripts/dev/course_fixtures.sh   (needs gpsbabel 1.8.0: apt-get install gpsbabel)
# Output:     Tests/GeoAnchorKitTests/Fixtures/Traces/Other/ and .../FIT/
#   Other/course.gpx             written below: traces/zavist-tour.tour.geojson's four stops as
#                                waypoints (<name> the stops' names, an <ele>) and its path as a
#                                track (heights rising 330 → 392 m), as a planner exports a tour
#   FIT/course.gpsbabel.fit      gpsbabel -o garmin_fit of course.gpx: a FIT course file whose
#                                course_point messages GPSBabel made from the waypoints
#   Other/course.tcx             gpsbabel -o gtrnctr of course.gpx (the Course and its Track) with
#                                CoursePoints added below as the TCX v2 schema has them: Generic
#                                (with Notes), Summit, a Left turn, a Water point without
#                                AltitudeMeters, a point with an empty Name
#   Other/course.gpsbabel.gpx    gpsbabel -i gtrnctr -o gpx of course.tcx: GPSBabel's reading of
#                                the course points (reference; it adds a LAP001 waypoint for the
#                                lap's BeginPosition, which is not a course point)
#   FIT/course_points.fit        written below from the FIT protocol: course_point messages of the
#                                types generic, left, summit, slight_left, u_turn, toilet and an
#                                unnamed number (26), one without a name, one big-endian definition
#   FIT/*.course.json            each FIT's course points as fitdecode 0.11 decodes them (name,
#                                type, semicircles, timestamp) — the tests' reference; Garmin's
#                                FIT SDK checks both files' integrity
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
other="$here/Tests/GeoAnchorKitTests/Fixtures/Traces/Other"
fit="$here/Tests/GeoAnchorKitTests/Fixtures/Traces/FIT"
py=${FITPY:-/tmp/fvenv/bin/python}
export FIXTURE_SCRIPTS="$here/scripts/dev"
"$py" - "$here" "$other/course.gpx" <<'EOF'
import json, sys
here, out = sys.argv[1], sys.argv[2]
tour = json.load(open(here + "/traces/zavist-tour.tour.geojson"))
stops = [f for f in tour["features"] if f["properties"]["kind"] == "stop"]
path = [f for f in tour["features"] if f["properties"]["kind"] == "path"][0]["geometry"]["coordinates"]
lines = ['<?xml version="1.0" encoding="UTF-8"?>',
         '<gpx version="1.1" creator="GeoAnchorKit scripts/dev/course_fixtures.sh" xmlns="http://www.topografix.com/GPX/1/1">']
for k, s in enumerate(stops):
    lon, lat = s["geometry"]["coordinates"]
    lines.append(f'<wpt lat="{lat}" lon="{lon}"><ele>{350 + 10 * k}.0</ele><time>2026-05-16T14:{10 * k:02d}:00Z</time><name>{s["properties"]["name"]}</name></wpt>')
lines.append("<trk><name>Zavist tour</name><trkseg>")
for k, (lon, lat) in enumerate(path):
    lines.append(f'<trkpt lat="{lat}" lon="{lon}"><ele>{330 + 6.2 * k:.1f}</ele><time>2026-05-16T14:{3 * k:02d}:00Z</time></trkpt>')
lines += ["</trkseg></trk>", "</gpx>"]
open(out, "w").write("\n".join(lines) + "\n")
EOF
gpsbabel -i gpx -f "$other/course.gpx" -o garmin_fit -F "$fit/course.gpsbabel.fit"
gpsbabel -i gpx -f "$other/course.gpx" -o gtrnctr -F "$other/course.tcx"
"$py" - "$other/course.tcx" <<'EOF'
import sys
p = sys.argv[1]
s = open(p).read()
def cp(name, time, lat, lon, kind, alt=None, notes=None):
    x = "      <CoursePoint>\n"
    x += f"        <Name>{name}</Name>\n"
    x += f"        <Time>{time}</Time>\n"
    x += f"        <Position>\n          <LatitudeDegrees>{lat}</LatitudeDegrees>\n          <LongitudeDegrees>{lon}</LongitudeDegrees>\n        </Position>\n"
    if alt is not None:
        x += f"        <AltitudeMeters>{alt}</AltitudeMeters>\n"
    x += f"        <PointType>{kind}</PointType>\n"
    if notes:
        x += f"        <Notes>{notes}</Notes>\n"
    return x + "      </CoursePoint>\n"
points = (cp("Main gate", "2026-05-16T14:03:00Z", 49.9578, 14.388, "Generic", 356.2, "Celtic oppidum, east gate")
          + cp("Turn", "2026-05-16T14:06:00Z", 49.96, 14.3895, "Left", 362.4)
          + cp("Acropolis", "2026-05-16T14:12:00Z", 49.9637, 14.3918, "Summit", 374.8)
          + cp("Spring", "2026-05-16T14:15:00Z", 49.9645, 14.394, "Water")
          + cp("", "2026-05-16T14:18:00Z", 49.9632, 14.3962, "Generic", 387.2))
s = s.replace("    </Course>", points + "    </Course>", 1)
open(p, "w").write(s)
EOF
gpsbabel -i gtrnctr -f "$other/course.tcx" -o gpx -F "$other/course.gpsbabel.gpx"
"$py" - "$fit" <<'EOF'
import json, os, struct, sys
from garmin_fit_sdk import Decoder, Stream
import fitdecode
out = sys.argv[1]
sys.path.insert(0, os.environ["FIXTURE_SCRIPTS"])
from fit_protocol import crc16, definition, fit_file

semi = lambda d: round(d / 180 * 2**31)
t0 = 1_778_943_600 - 631_065_600          # 2026-05-16T15:00:00Z in FIT seconds
name = lambda s: s.encode("utf-8").ljust(16, b"\0")[:16]
recs = [
    definition(0, 0, [(0, 1, 0x00), (1, 2, 0x84), (4, 4, 0x86)]),                  # file_id: type course (6)
    bytes([0]) + struct.pack("<BHI", 6, 255, t0),
    # course_point, little-endian: message_index, timestamp, lat, long, distance, type, name
    definition(1, 32, [(254, 2, 0x84), (1, 4, 0x86), (2, 4, 0x85), (3, 4, 0x85), (4, 4, 0x86), (5, 1, 0x00), (6, 16, 0x07)]),
    bytes([1]) + struct.pack("<HIiiIB", 0, t0, semi(49.9578), semi(14.388), 0, 0) + name("Main gate"),
    bytes([1]) + struct.pack("<HIiiIB", 1, t0 + 60, semi(49.96), semi(14.3895), 27000, 6) + name("Left"),
    bytes([1]) + struct.pack("<HIiiIB", 2, t0 + 120, semi(49.9637), semi(14.3918), 69000, 1) + name("Akropole"),
    bytes([1]) + struct.pack("<HIiiIB", 3, t0 + 150, semi(49.9640), semi(14.3925), 75000, 19) + name("slight left"),
    # big-endian, no timestamp and no name field
    definition(2, 32, [(2, 4, 0x85), (3, 4, 0x85), (5, 1, 0x00)], big=True),
    bytes([2]) + struct.pack(">iiB", semi(49.9632), semi(14.3962), 39),      # toilet, unnamed
    bytes([1]) + struct.pack("<HIiiIB", 5, t0 + 240, semi(49.9612), semi(14.3958), 150000, 23) + name("U-turn"),
    bytes([1]) + struct.pack("<HIiiIB", 6, 0xFFFFFFFF, semi(49.9595), semi(14.3935), 170000, 26) + name("Chrám"),
]
data = fit_file(recs)
open(os.path.join(out, "course_points.fit"), "wb").write(data)

def course_points(path):
    """fitdecode 0.11's decoding of each course_point: name, type (its profile name, or the
    number for one it does not name), position (semicircles), timestamp (FIT seconds or None)."""
    pts = []
    with fitdecode.FitReader(path) as fr:
        for frame in fr:
            if isinstance(frame, fitdecode.FitDataMessage) and frame.name == "course_point":
                v = lambda n: frame.get_value(n) if frame.has_field(n) else None
                raw = lambda n: frame.get_raw_value(n) if frame.has_field(n) else None
                pts.append({"name": v("name"), "type": v("type"), "position_lat": v("position_lat"),
                            "position_long": v("position_long"), "timestamp": raw("timestamp")})
    return pts

for f in ["course_points.fit", "course.gpsbabel.fit"]:
    b = open(os.path.join(out, f), "rb").read()
    check = Decoder(Stream.from_byte_array(bytearray(b)))
    assert check.is_fit() and check.check_integrity(), f
    json.dump(course_points(os.path.join(out, f)), open(os.path.join(out, f.replace(".fit", ".course.json")), "w"), indent=1, sort_keys=True)
EOF
