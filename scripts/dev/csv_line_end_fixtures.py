#!/usr/bin/env python3
"""Writes the CSV inputs of geobench's table subcommands the way other tools write them.

Made with:  python3 scripts/dev/csv_line_end_fixtures.py
Output:     Tests/GeoAnchorKitTests/Fixtures/CSV/<command>.<variant>.csv

Each table is written three times by Python's csv module (the writer of pandas, Jupyter
notebooks and most research scripts):
  lf      - csv.writer(lineterminator="\n"), UTF-8
  crlf    - csv.writer() default dialect 'excel': "\r\n" line ends, minimal quoting (RFC 4180)
  bomcrlf - the same with encoding="utf-8-sig" (a UTF-8 byte-order mark, as Excel writes)
  semicolon - what a spreadsheet in a decimal-comma locale (Czech, German, French) saves as
            "CSV UTF-8": csv.writer(delimiter=";") with the BOM and "\r\n", every number written
            with a decimal comma (str(x).replace(".", ",")); "gate, north" needs no quotes there
One cell per table holds a comma or a doubled quote so that RFC 4180 quoting is exercised, and
the crlf/bomcrlf/semicolon variants end with a blank line (what spreadsheets often leave).
GeobenchInterfaceTests checks that every subcommand prints identical output for the four.
Also trace.semicolon.csv: the first 5 fixes of traces/city-walk.raw.csv in the semicolon variant.
"""
import csv
import os

HERE = os.path.dirname(os.path.abspath(__file__))
OUT = os.path.join(HERE, "..", "..", "Tests", "GeoAnchorKitTests", "Fixtures", "CSV")

TABLES = {
    "geodesic": [["lat1", "lon1", "lat2", "lon2"],
                 [40.6, -73.8, 1.4, 104], [49.96, 14.39, 50.08, 14.42], ["-33.9", "151.2", "51.5", "-0.12"]],
    "enu": [["latitude", "longitude", "height"],
            [55.0, 5.0, 200.0], [55.01, 5.02, 250.5], [54.99, 4.98, 180]],
    "geoid": [["latitude", "longitude"], [49.96, 14.39], [0, 0], [-33.9, 151.2]],
    "magnetic": [["latitude", "longitude", "height", "date"],
                 [49.96, 14.39, 350, 2026.5], [-33.9, 151.2, 0, 2025.0]],
    "crs": [["x", "y"], [14.39, 49.96], [151.2, -33.9]],
    "anchors": [["id", "latitude", "longitude", "altitude", "altitude_reference", "yaw"],
                ["gate, north", 49.9625, 14.3960, 360, "msl", 30],
                ['temple "old"', 49.9610, 14.3940, 430, "ellipsoid", ""]],
    "route": [["id", "latitude", "longitude", "altitude", "dwell_s"],
              ["a, start", 49.96, 14.39, 350, 60], ["b", 49.962, 14.392, 360, 0], ["c", 49.961, 14.395, 355, 30]],
}


def calibrate_rows():
    """A magnetometer rotated through a sphere of directions: field (20, 1.8, 45) uT plus hard iron (10, -20, 5)."""
    import math
    rows = [["mx", "my", "mz"]]
    n = 200
    golden = math.pi * (3 - math.sqrt(5))
    for k in range(n):
        z = 1 - 2 * (k + 0.5) / n
        r = math.sqrt(1 - z * z)
        x, y = r * math.cos(golden * k), r * math.sin(golden * k)
        f = 49.3
        rows.append([round(10 + f * x, 4), round(-20 + f * y, 4), round(5 + f * z, 4)])
    return rows


TABLES["calibrate"] = calibrate_rows()

def comma(rows):
    """Numbers with a decimal comma, as a decimal-comma locale's spreadsheet writes them."""
    return [[str(c).replace(".", ",") if isinstance(c, (int, float)) else c for c in r] for r in rows]


os.makedirs(OUT, exist_ok=True)
for name, rows in TABLES.items():
    path = os.path.join(OUT, f"{name}.semicolon.csv")
    with open(path, "w", newline="", encoding="utf-8-sig") as fh:
        w = csv.writer(fh, delimiter=";")
        w.writerows(comma(rows))
        fh.write("\r\n")
with open(os.path.join(HERE, "..", "..", "traces", "city-walk.raw.csv"), newline="") as fh:
    trace = list(csv.reader(fh))[:6]
def number(x):
    try:
        float(x)
        return x.replace(".", ",")
    except ValueError:
        return x
with open(os.path.join(OUT, "trace.semicolon.csv"), "w", newline="", encoding="utf-8-sig") as fh:
    csv.writer(fh, delimiter=";").writerows([trace[0]] + [[number(c) for c in r] for r in trace[1:]])
for name, rows in TABLES.items():
    for variant, kw, enc, trailing in [("lf", {"lineterminator": "\n"}, "utf-8", False),
                                       ("crlf", {}, "utf-8", True),
                                       ("bomcrlf", {}, "utf-8-sig", True)]:
        path = os.path.join(OUT, f"{name}.{variant}.csv")
        with open(path, "w", newline="", encoding=enc) as fh:
            w = csv.writer(fh, **kw)
            w.writerows(rows)
            if trailing:
                fh.write("\r\n")
print("wrote", len(TABLES) * 4 + 1, "files to", os.path.normpath(OUT))
