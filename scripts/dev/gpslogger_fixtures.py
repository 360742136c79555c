#!/usr/bin/env python3
"""GPSLogger for Android CSV fixtures (Tests/GeoAnchorKitTests/Traces/GPSLoggerCSVTests.swift).

GPSLogger (mendhak/gpslogger, gpslogger.app) writes its CSV log with the header and value formats
of its CSVFileLogger: newer versions 24 columns (values via String.valueOf: Java's shortest
double repr, a float altitude widened to double — 561.6000366210938 —, `time` ISO 8601 UTC with
milliseconds and `Z`, `timestamp_ms`, `time_offset` in local time with its offset, an annotation
quoted as RFC 4180), older versions 18 columns (lat/lon with Java's %f: 6 decimals). Rows of the
network provider have no bearing, speed or satellites.

Written below from traces/zavist-tour.raw.csv's first 20 fixes as Android reports them:
`elevation` = altitude + geoid_separation (Android's Location altitude is above the WGS84
ellipsoid, GPSLogger's default), `accuracy` = horizontal_accuracy, `bearing` = course. Three
network rows are interleaved, one row carries an annotation with a comma and a quote.

Outputs (Tests/GeoAnchorKitTests/Fixtures/Traces/Other/):
  gpslogger.csv          the newer 24-column log
  gpslogger-v1.csv       the older 18-column log (first 5 fixes)
  gpslogger.ref.json     both files read back by Python's csv module (an independent reader):
                         per row the provider, time (timestamp_ms / 1000, else the ISO time), lat,
                         lon, elevation, geoidheight, accuracy, bearing, speed, satellites, hdop
Run: python3 scripts/dev/gpslogger_fixtures.py
"""
import csv, datetime, io, json, os, struct

here = os.path.dirname(os.path.abspath(__file__)) + "/../.."
out = here + "/Tests/GeoAnchorKitTests/Fixtures/Traces/Other"
rows = list(csv.DictReader(open(here + "/traces/zavist-tour.raw.csv", newline="")))[:20]

def f32(x):
    """A Java float widened to double, printed as Java's Double.toString would (Python repr)."""
    return repr(struct.unpack("f", struct.pack("f", x))[0])

def iso(t, offset_hours=0):
    tz = datetime.timezone(datetime.timedelta(hours=offset_hours))
    d = datetime.datetime.fromtimestamp(t, tz)
    s = d.strftime("%Y-%m-%dT%H:%M:%S.") + "%03d" % round((t % 1) * 1000)
    return s + ("Z" if offset_hours == 0 else d.strftime("%z")[:3] + ":" + d.strftime("%z")[3:])

def unix(s):
    return datetime.datetime.fromisoformat(s.replace("Z", "+00:00")).timestamp()

header = ("time,lat,lon,elevation,accuracy,bearing,speed,satellites,provider,hdop,vdop,pdop,geoidheight,"
          "ageofdgpsdata,dgpsid,activity,battery,annotation,timestamp_ms,time_offset,distance,starttimestamp_ms,"
          "profile_name,battery_charging")
start = unix(rows[0]["time"])
lines = [header]
for k, r in enumerate(rows):
    t = unix(r["time"])
    ms = int(round(t * 1000))
    h = float(r["altitude"]) + float(r["geoid_separation"])
    note = '"Gate, north side ""Brána"""' if k == 7 else ""
    geoid = r["geoid_separation"] if k % 5 == 0 else ""
    lines.append(",".join([iso(t), repr(float(r["latitude"])), repr(float(r["longitude"])), f32(h), f32(float(r["horizontal_accuracy"])),
                           f32(float(r["course"])), f32(float(r["speed"])), r["satellites"], "gps", r["hdop"], "", "", geoid,
                           "", "", "", "87", note, str(ms), iso(t, 2), repr(12.5 * k), str(int(start * 1000)), "Default Profile", "false"]))
    if k in (3, 9, 15):
        tn = t + 0.5
        lines.append(",".join([iso(tn), repr(float(r["latitude"]) + 0.0003), repr(float(r["longitude"]) - 0.0002), f32(h + 7), f32(24.0 + k),
                               "", "", "0", "network", "", "", "", "", "", "", "", "87", "", str(int(round(tn * 1000))), iso(tn, 2),
                               repr(12.5 * k), str(int(start * 1000)), "Default Profile", "false"]))
open(out + "/gpslogger.csv", "w", newline="").write("\n".join(lines) + "\n")

old = ["time,lat,lon,elevation,accuracy,bearing,speed,satellites,provider,hdop,vdop,pdop,geoidheight,ageofdgpsdata,dgpsid,activity,battery,annotation"]
for r in rows[:5]:
    t = unix(r["time"])
    h = float(r["altitude"]) + float(r["geoid_separation"])
    old.append(",".join([iso(t), "%f" % float(r["latitude"]), "%f" % float(r["longitude"]), f32(h), f32(float(r["horizontal_accuracy"])),
                         f32(float(r["course"])), f32(float(r["speed"])), r["satellites"], "gps", r["hdop"], "", "", "", "", "", "", "91.0", ""]))
open(out + "/gpslogger-v1.csv", "w", newline="").write("\n".join(old) + "\n")

def reference(name):
    res = []
    for r in csv.DictReader(open(out + "/" + name, newline="")):
        num = lambda k: float(r[k]) if r.get(k) else None
        t = int(r["timestamp_ms"]) / 1000 if r.get("timestamp_ms") else unix(r["time"])
        res.append({"provider": r["provider"], "time": t, "lat": float(r["lat"]), "lon": float(r["lon"]),
                    "elevation": num("elevation"), "geoidheight": num("geoidheight"), "accuracy": num("accuracy"),
                    "bearing": num("bearing"), "speed": num("speed"), "satellites": int(r["satellites"]) if r["satellites"] else None,
                    "hdop": num("hdop"), "annotation": r["annotation"]})
    return res
json.dump({"gpslogger.csv": reference("gpslogger.csv"), "gpslogger-v1.csv": reference("gpslogger-v1.csv")},
          open(out + "/gpslogger.ref.json", "w"), indent=1, sort_keys=True)
