#!/bin/sh
# FIT fixtures for FITReader (Tests/GeoAnchorKitTests/Traces/FITReaderTests.swift).
#
# Made with:  python3 -m venv /tmp/hvenv && /tmp/hvenv/bin/pip install garmin-fit-sdk==21.218.0 fitdecode==0.11.0
#             sh scripts/dev/fit_fixtures.sh   (needs gpsbabel 1.8.0: apt-get install gpsbabel)
# Output:     Tests/GeoAnchorKitTests/Fixtures/Traces/FIT/
#   walk.gpsbabel.fit    gpsbabel -o garmin_fit of Fixtures/Traces/Other/walk.gpx (a course file)
#   features.fit         written below byte by byte from the FIT protocol (Garmin FIT SDK docs,
#                        "FIT File Types" and "FIT Protocol"): a big-endian record definition with a
#                        developer field, compressed-timestamp records (one rolling over the 32-s
#                        window), enhanced altitude/speed and plain altitude/speed, a record whose
#                        position is FIT's invalid value, and a second FIT file chained after the first
#   *.ref.json           each file (each chained part) decoded by fitdecode 0.11 (pip), an independent
#                        FIT decoder: the record messages' timestamp (FIT seconds), position_lat/long
#                        (semicircles) and altitude/speed — the tests' reference; Garmin's FIT SDK
#                        for Python checks the files' integrity (it does not decode compressed timestamps)
set -eu
here=$(cd "$(dirname "$0")/../.." && pwd)
out="$here/Tests/GeoAnchorKitTests/Fixtures/Traces/FIT"
py=${FITPY:-/tmp/hvenv/bin/python}
export FIXTURE_SCRIPTS="$here/scripts/dev"
mkdir -p "$out"
gpsbabel -i gpx -f "$here/Tests/GeoAnchorKitTests/Fixtures/Traces/Other/walk.gpx" -o garmin_fit -F "$out/walk.gpsbabel.fit"
"$py" - "$out" <<'EOF'
import json, struct, sys, os
from garmin_fit_sdk import Decoder, Stream
out = sys.argv[1]
sys.path.insert(0, os.environ["FIXTURE_SCRIPTS"])
from fit_protocol import crc16, definition, fit_file

t0 = 1 + (0x4A8F_2C1E & ~0x1F) + 29   # low 5 bits 30: the third record rolls over
lat = lambda d: round(d / 180 * 2**31)
first = [
    definition(0, 0, [(0, 1, 0x00), (1, 2, 0x84), (4, 4, 0x86)]),                       # file_id
    bytes([0]) + struct.pack("<BHI", 4, 255, t0),
    definition(3, 207, [(3, 1, 0x02), (1, 16, 0x0D)]),                                  # developer_data_id
    bytes([3]) + bytes([0]) + bytes(range(16)),
    definition(4, 206, [(0, 1, 0x02), (1, 1, 0x02), (2, 1, 0x02), (3, 8, 0x07)]),      # field_description
    bytes([4]) + bytes([0, 0, 0x84]) + b"power\0\0\0",
    # record, big-endian: timestamp, lat, long, enhanced_altitude, enhanced_speed, heart_rate + developer field (2 bytes)
    definition(1, 20, [(253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85), (78, 4, 0x86), (73, 4, 0x86), (3, 1, 0x02)], big=True, dev=[(0, 2, 0)]),
    bytes([1]) + struct.pack(">IiiIIB", t0, lat(49.9610), lat(14.3940), (431 + 500) * 5, 1500, 100) + struct.pack(">H", 250),
    # record, little-endian, no timestamp field: times from compressed headers
    definition(2, 20, [(0, 4, 0x85), (1, 4, 0x85), (2, 2, 0x84), (6, 2, 0x84)]),
    bytes([0x80 | (2 << 5) | ((t0 + 1) & 0x1F)]) + struct.pack("<iiHH", lat(49.96101), lat(14.39402), int((431.2 + 500) * 5), 1400),
    bytes([0x80 | (2 << 5) | ((t0 + 3) & 0x1F)]) + struct.pack("<iiHH", lat(49.96103), lat(14.39405), int((431.6 + 500) * 5), 1300),
    # no position (FIT's invalid value), a heart rate only
    bytes([1]) + struct.pack(">IiiIIB", t0 + 4, 0x7FFFFFFF, 0x7FFFFFFF, 0xFFFFFFFF, 0xFFFFFFFF, 101) + struct.pack(">H", 251),
]
second = [
    definition(0, 20, [(253, 4, 0x86), (0, 4, 0x85), (1, 4, 0x85), (2, 2, 0x84)]),
    bytes([0]) + struct.pack("<IiiH", t0 + 60, lat(-33.8568), lat(151.2153), (12 + 500) * 5),
]
parts = [fit_file(first), fit_file(second)]
open(os.path.join(out, "features.fit"), "wb").write(b"".join(parts))

def reference(path):
    """fitdecode 0.11 (an independent FIT decoder with compressed timestamps and chained files):
    each record's timestamp (FIT seconds), position (semicircles, None when invalid) and
    altitude/speed in m, m/s (the enhanced fields where present)."""
    import fitdecode
    parts = []
    with fitdecode.FitReader(path) as fr:
        for frame in fr:
            if isinstance(frame, fitdecode.FitHeader):
                parts.append([])
            elif isinstance(frame, fitdecode.FitDataMessage) and frame.name == "record":
                def v(name):
                    return frame.get_value(name) if frame.has_field(name) else None
                parts[-1].append({"timestamp": frame.get_raw_value("timestamp"), "position_lat": v("position_lat"),
                                  "position_long": v("position_long"),
                                  "altitude": v("enhanced_altitude") if v("enhanced_altitude") is not None else v("altitude"),
                                  "speed": v("enhanced_speed") if v("enhanced_speed") is not None else v("speed")})
    return {"parts": parts}

# Garmin's own SDK checks the GPSBabel file and the parts it can decode (it refuses compressed
# timestamps: the features file's first part).
for data in [open(os.path.join(out, "walk.gpsbabel.fit"), "rb").read(), parts[1]]:
    check = Decoder(Stream.from_byte_array(bytearray(data)))
    assert check.is_fit() and check.check_integrity()
for name in ["features", "walk.gpsbabel"]:
    json.dump(reference(os.path.join(out, name + ".fit")), open(os.path.join(out, name + ".ref.json"), "w"), indent=1, sort_keys=True)
EOF
