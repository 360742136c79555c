#!/usr/bin/env python3
"""Sensor Logger fixtures (Tests/GeoAnchorKitTests/Traces/SensorLoggerTests.swift and the geobench
calibrate test).

Sensor Logger (tszheichoi; iOS, Android, watchOS) exports a recording as one CSV per sensor, named
after it, with `time` in nanoseconds since 1970 and `seconds_elapsed`; the units and names are those
of the app's UNITS.md (awesome-sensor-logger): Location's `altitude` above the WGS84 ellipsoid,
`altitudeAboveMeanSeaLevel` (iOS), `horizontalAccuracy`, `verticalAccuracy`, `speed`, `bearing`,
`bearingAccuracy`, `speedAccuracy`, negative values meaning "invalid"; the watch's WatchLocation
with `ellipsoidalAltitude`, `altitude` (MSL), `course`, `courseAccuracy`; Magnetometer x, y, z in
µT, in the column order time,seconds_elapsed,z,y,x.

Written below (Tests/GeoAnchorKitTests/Fixtures/Traces/Other/SensorLogger/):
  Location.csv        traces/zavist-tour.raw.csv's first 20 fixes (altitude = MSL + N); the first
                      two rows standing (speed and bearing -1: invalid), one row without a
                      vertical accuracy (-1)
  WatchLocation.csv   the same fixes under the watch's names
  Magnetometer.csv    Tests/GeoAnchorKitTests/Fixtures/CSV/calibrate.lf.csv's samples at 50 Hz
  recording.zip       the app's "export recording" (Python zipfile, deflate): Location.csv,
                      WatchLocation.csv, Magnetometer.csv and a Metadata.csv, each as above —
                      several files, read as recording.zip/Location.csv
  reference.json      Location.csv and WatchLocation.csv read back by Python's csv module (an
                      independent reader): time (ns / 1e9), lat, lon, ellipsoidal height, N,
                      accuracies, speed, course, with Sensor Logger's negatives as null
Run: python3 scripts/dev/sensorlogger_fixtures.py
"""
import csv, datetime, json, os, zipfile

here = os.path.dirname(os.path.abspath(__file__)) + "/../.."
out = here + "/Tests/GeoAnchorKitTests/Fixtures/Traces/Other/SensorLogger"
os.makedirs(out, exist_ok=True)
rows = list(csv.DictReader(open(here + "/traces/zavist-tour.raw.csv", newline="")))[:20]

def ns(s):
    d = datetime.datetime.fromisoformat(s.replace("Z", "+00:00"))
    return int(round(d.timestamp() * 1000)) * 1_000_000

t0 = ns(rows[0]["time"])
phone = ["time,seconds_elapsed,bearingAccuracy,speedAccuracy,verticalAccuracy,horizontalAccuracy,speed,bearing,altitude,longitude,latitude,altitudeAboveMeanSeaLevel"]
watch = ["time,seconds_elapsed,courseAccuracy,speedAccuracy,verticalAccuracy,horizontalAccuracy,speed,course,ellipsoidalAltitude,altitude,longitude,latitude"]
for k, r in enumerate(rows):
    t = ns(r["time"])
    msl = float(r["altitude"]); n = float(r["geoid_separation"])
    h = round(msl + n, 2)
    speed = "-1" if k < 2 else r["speed"]
    bearing = "-1" if k < 2 else r["course"]
    vacc = "-1" if k == 5 else r["vertical_accuracy"]
    common = [str(t), "%.6f" % ((t - t0) / 1e9), "12.5" if k >= 2 else "-1", "0.4", vacc, r["horizontal_accuracy"], speed, bearing]
    phone.append(",".join(common + [repr(h), r["longitude"], r["latitude"], r["altitude"]]))
    watch.append(",".join(common + [repr(h), r["altitude"], r["longitude"], r["latitude"]]))
open(out + "/Location.csv", "w", newline="").write("\n".join(phone) + "\n")
open(out + "/WatchLocation.csv", "w", newline="").write("\n".join(watch) + "\n")

mags = list(csv.DictReader(open(here + "/Tests/GeoAnchorKitTests/Fixtures/CSV/calibrate.lf.csv", newline="")))
lines = ["time,seconds_elapsed,z,y,x"]
for k, m in enumerate(mags):
    lines.append(",".join([str(t0 + k * 20_000_000), "%.6f" % (k * 0.02), m["mz"], m["my"], m["mx"]]))
open(out + "/Magnetometer.csv", "w", newline="").write("\n".join(lines) + "\n")

def reference(name, h_col, msl_col, course_col):
    res = []
    for r in csv.DictReader(open(out + "/" + name, newline="")):
        def v(k):
            x = float(r[k])
            return None if x < 0 else x
        h = float(r[h_col])
        res.append({"time": int(r["time"]) / 1e9, "lat": float(r["latitude"]), "lon": float(r["longitude"]),
                    "height": h, "separation": h - float(r[msl_col]), "horizontal_accuracy": v("horizontalAccuracy"),
                    "vertical_accuracy": v("verticalAccuracy"), "speed": v("speed"), "course": v(course_col)})
    return res
json.dump({"Location.csv": reference("Location.csv", "altitude", "altitudeAboveMeanSeaLevel", "bearing"),
           "WatchLocation.csv": reference("WatchLocation.csv", "ellipsoidalAltitude", "altitude", "course")},
          open(out + "/reference.json", "w"), indent=1, sort_keys=True)

with zipfile.ZipFile(out + "/recording.zip", "w", zipfile.ZIP_DEFLATED) as z:
    for name in ["Location.csv", "WatchLocation.csv", "Magnetometer.csv"]:
        info = zipfile.ZipInfo(name, date_time=(2026, 11, 27, 10, 0, 0)); info.compress_type = zipfile.ZIP_DEFLATED
        z.writestr(info, open(out + "/" + name, "rb").read())
    info = zipfile.ZipInfo("Metadata.csv", date_time=(2026, 11, 27, 10, 0, 0)); info.compress_type = zipfile.ZIP_DEFLATED
    z.writestr(info, "version,device name,recording time,platform,appVersion\n3,iPhone 15,2026-11-27_10-00-00,ios,1.37.0\n")
