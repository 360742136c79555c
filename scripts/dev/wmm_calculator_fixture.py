#!/usr/bin/env python3
"""Writes Tests/GeoAnchorKitTests/Fixtures/Magnetics/wmm_calculator_2025.csv: NOAA's own
wmm-calculator (PyPI, WMM2025 coefficients) evaluated at deterministic points — a global grid
including points 0.001° from both geographic poles, heights from -1 km to 850 km, dates across 2025.0-2030.0.

Usage: python3 scripts/dev/wmm_calculator_fixture.py   (needs `pip install wmm-calculator`)
"""
import importlib.metadata
import pathlib
import random

from wmm import wmm_calc

OUT = pathlib.Path(__file__).resolve().parents[2] / "Tests/GeoAnchorKitTests/Fixtures/Magnetics/wmm_calculator_2025.csv"

def decimal_year(y, m, d):
    import datetime as dt
    start = dt.date(y, 1, 1)
    days = (dt.date(y + 1, 1, 1) - start).days
    return y + (dt.date(y, m, d) - start).days / days

rng = random.Random(20251)
# Exact poles are left out: geomaglib shifts pole inputs (and its south-pole result has the
# wrong hemisphere); GeoAnchorKit's pole formula is tested against its own limit instead.
points = [(89.999, 0.0, 0.0), (-89.999, 45.0, 10.0), (89.99, -120.0, 400.0), (-89.99, 180.0, 0.0),
          (49.96, 14.39, 0.35), (0.0, 0.0, 0.0), (0.0, 180.0, 850.0), (-0.0, -180.0, -1.0)]
while len(points) < 60:
    points.append((round(rng.uniform(-89.9, 89.9), 4), round(rng.uniform(-180, 180), 4),
                   round(rng.choice([0.0, rng.uniform(-1, 850)]), 3)))
dates = [(2025, 1, 1), (2026, 7, 2), (2027, 3, 15), (2028, 12, 31), (2029, 9, 9)]

m = wmm_calc()
lines = ["# NOAA wmm-calculator %s (WMM2025 WMM.COF) evaluated by scripts/dev/wmm_calculator_fixture.py"
         % importlib.metadata.version("wmm-calculator"),
         "# command: python3 scripts/dev/wmm_calculator_fixture.py",
         "# height: km above the WGS84 ellipsoid; date: decimal year (day resolution); x,y,z,dx,dy,dz in nT and nT/yr; dec,inc deg",
         "date,height_km,latitude,longitude,x,y,z,dx,dy,dz,dec,inc"]
for i, (lat, lon, h) in enumerate(points):
    y, mo, d = dates[i % len(dates)]
    m.setup_env(lat, lon, h, unit="km", msl=False)
    m.setup_time(y, mo, d)
    r = m.get_all()
    t = decimal_year(y, mo, d)
    vals = [r[k][0] for k in ("x", "y", "z", "dx", "dy", "dz", "dec", "inc")]
    lines.append(",".join([repr(t), repr(h), repr(lat), repr(lon)] + ["%.9f" % v for v in vals]))
OUT.write_text("\n".join(lines) + "\n")
print("wrote", OUT)
