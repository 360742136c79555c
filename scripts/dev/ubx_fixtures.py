#!/usr/bin/env python3
"""u-blox UBX fixtures (Tests/GeoAnchorKitTests/Traces/UBXReaderTests.swift).

Made with:  python3 -m venv /tmp/fvenv && /tmp/fvenv/bin/pip install pyubx2==1.4.0
            /tmp/fvenv/bin/python scripts/dev/ubx_fixtures.py
(pyubx2, Semuconsulting's UBX library, an independent encoder and decoder of the u-blox protocol.)

Written below (Tests/GeoAnchorKitTests/Fixtures/Traces/Other/):
  rover.ubx          traces/zavist-tour.raw.csv's first 30 fixes as a u-blox F9P logs them:
                     NAV-PVT (92 bytes) with the fix's UTC (nano −12 µs … +12 µs), position,
                     ellipsoidal height (MSL + N) and hMSL, hAcc/vAcc, gSpeed/headMot, numSV, pDOP;
                     fixes 0–9 plain GNSS, 10–19 RTK float (diffSoln, carrSoln 1), 20–29 RTK
                     fixed; fix 3 without a fix (fixType 0) and fix 7 without a valid time; a
                     NAV-DOP before every NAV-PVT and NMEA GGA sentences between the frames, as a
                     receiver with both protocols enabled writes them
  nmea-only.ubx      the same GGA/RMC sentences alone (a u-blox log with NAV-PVT disabled)
  rover.ref.json     rover.ubx decoded back by pyubx2's UBXReader: per NAV-PVT the fields the
                     reader uses (scaled as pyubx2 scales them)
"""
import csv, datetime, io, json, os
from pyubx2 import GET, UBXMessage, UBXReader

here = os.path.dirname(os.path.abspath(__file__)) + "/../.."
out = here + "/Tests/GeoAnchorKitTests/Fixtures/Traces/Other"
rows = list(csv.DictReader(open(here + "/traces/zavist-tour.raw.csv", newline="")))[:30]

def nmea(body):
    ck = 0
    for c in body.encode():
        ck ^= c
    return ("$%s*%02X\r\n" % (body, ck)).encode()

def dm(v, lat):
    a = abs(v); d = int(a); m = (a - d) * 60
    return ("%02d%09.6f" % (d, m) if lat else "%03d%09.6f" % (d, m)), ("N" if v >= 0 else "S") if lat else ("E" if v >= 0 else "W")

frames = b""
plain = b""
for k, r in enumerate(rows):
    d = datetime.datetime.fromisoformat(r["time"].replace("Z", "+00:00"))
    nano = (k % 5 - 2) * 6000        # −12 µs … +12 µs, as a receiver's rounding of its epoch
    lat, lon = float(r["latitude"]), float(r["longitude"])
    msl, n = float(r["altitude"]), float(r["geoid_separation"])
    carr = 0 if k < 10 else 1 if k < 20 else 2
    pvt = UBXMessage("NAV", "NAV-PVT", GET, iTOW=(k + 1) * 1000, year=d.year, month=d.month, day=d.day, hour=d.hour,
                     min=d.minute, second=d.second, validDate=1, validTime=0 if k == 7 else 1, fullyResolved=1, tAcc=25,
                     nano=nano, fixType=0 if k == 3 else 3, gnssFixOk=0 if k == 3 else 1, diffSoln=1 if carr else 0,
                     carrSoln=carr, numSV=int(r["satellites"]), lon=lon, lat=lat, height=round((msl + n) * 1000),
                     hMSL=round(msl * 1000), hAcc=round(float(r["horizontal_accuracy"]) * 1000 / (10 if carr else 1)),
                     vAcc=round(float(r["vertical_accuracy"]) * 1000), velN=0, velE=0, velD=0,
                     gSpeed=round(float(r["speed"]) * 1000), headMot=float(r["course"]), sAcc=200, headAcc=5.0, pDOP=1.4)
    dop = UBXMessage("NAV", "NAV-DOP", GET, iTOW=(k + 1) * 1000, gDOP=1.9, pDOP=1.4, tDOP=1.0, vDOP=1.1, hDOP=0.8, nDOP=0.6, eDOP=0.5)
    la, ns = dm(lat, True); lo, ew = dm(lon, False)
    gga = nmea("GNGGA,%s,%s,%s,%s,%s,1,%02d,0.8,%.1f,M,%.1f,M,," % (d.strftime("%H%M%S.00"), la, ns, lo, ew, int(r["satellites"]), msl, n))
    rmc = nmea("GNRMC,%s,A,%s,%s,%s,%s,%.3f,%.2f,%s,,,A,V" % (d.strftime("%H%M%S.00"), la, ns, lo, ew, float(r["speed"]) / 0.514444,
                                                              float(r["course"]), d.strftime("%d%m%y")))
    frames += dop.serialize() + pvt.serialize() + gga + rmc
    plain += gga + rmc
open(out + "/rover.ubx", "wb").write(frames)
open(out + "/nmea-only.ubx", "wb").write(plain)

ref = []
for raw, m in UBXReader(io.BytesIO(frames), protfilter=2):
    if m.identity != "NAV-PVT":
        continue
    ref.append({k: getattr(m, k) for k in ["year", "month", "day", "hour", "min", "second", "nano", "validDate", "validTime",
                                           "fixType", "gnssFixOk", "diffSoln", "carrSoln", "numSV", "lat", "lon", "height",
                                           "hMSL", "hAcc", "vAcc", "gSpeed", "headMot", "pDOP"]})
json.dump(ref, open(out + "/rover.ref.json", "w"), indent=1, sort_keys=True)
