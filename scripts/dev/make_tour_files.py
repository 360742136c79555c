#!/usr/bin/env python3
"""Makes the tour files traces/<scenario>.tour.geojson from the simulator's points of interest
(traces/<scenario>.geojson, written by `geobench simulate`): every stop gets an `id` (slug of
its name) and a 20 m trigger `radius`; the path is copied; zones are drawn here, in meters
east/north of a stop (small local equirectangular offsets, < 1 mm error at these sizes).

Usage (from the repository root): python3 scripts/dev/make_tour_files.py
"""
import json
import math
import re
import sys

RADIUS = 20.0
# scenario -> list of (zone id, stop name the zone is centred on, half-width east m, half-height north m, offset east m, offset north m)
ZONES = {
    "zavist-tour": [
        ("acropolis-plateau", "Acropolis", 90, 60, 0, 0),
        ("temple-precinct", "Temple platform", 45, 35, 0, 0),
        ("north-field", "Acropolis", 60, 40, 0, 400),   # away from the path: must never be entered
    ],
    "city-walk": [
        ("square", None, 60, 45, 0, 0),                   # around the first stop
    ],
}


def slug(name):
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def offset(lon, lat, east, north):
    r = 6378137.0
    return [round(lon + math.degrees(east / (r * math.cos(math.radians(lat)))), 8),
            round(lat + math.degrees(north / r), 8)]


def main():
    for scenario, zones in ZONES.items():
        src = json.load(open(f"traces/{scenario}.geojson"))
        stops, path = [], None
        for f in src["features"]:
            p = f["properties"]
            if p.get("kind") == "stop":
                stops.append(f)
            elif p.get("kind") == "path":
                path = f
        out = []
        for f in stops:
            p = f["properties"]
            out.append({"type": "Feature",
                        "properties": {"kind": "stop", "id": slug(p["name"]), "name": p["name"], "radius": RADIUS},
                        "geometry": f["geometry"]})
        for zid, stop_name, hw, hh, oe, on in zones:
            st = next((s for s in stops if s["properties"]["name"] == stop_name), stops[0])
            lon, lat = st["geometry"]["coordinates"][:2]
            ring = [offset(lon, lat, oe + dx, on + dy) for dx, dy in [(-hw, -hh), (hw, -hh), (hw, hh), (-hw, hh), (-hw, -hh)]]
            out.append({"type": "Feature", "properties": {"kind": "zone", "id": zid},
                        "geometry": {"type": "Polygon", "coordinates": [ring]}})
        out.append({"type": "Feature", "properties": {"kind": "path", "id": f"{scenario}-path"}, "geometry": path["geometry"]})
        doc = {"type": "FeatureCollection",
               "generated_by": "python3 scripts/dev/make_tour_files.py (from traces/%s.geojson)" % scenario,
               "features": out}
        with open(f"traces/{scenario}.tour.geojson", "w") as fh:
            json.dump(doc, fh, indent=1)
            fh.write("\n")
        print(f"traces/{scenario}.tour.geojson: {len(stops)} stops, {len(zones)} zones", file=sys.stderr)


if __name__ == "__main__":
    main()
