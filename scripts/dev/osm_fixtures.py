#!/usr/bin/env python3
"""OpenStreetMap fixtures (Tests/GeoAnchorKitTests/Routing/OSMPathNetworkTests.swift).

Made with:  apt-get install gdal-bin osmium-tool      (GDAL 3.6 OSM driver, osmium 1.15: the references)
            python3 -m venv /tmp/fvenv && /tmp/fvenv/bin/pip install networkx==3.2 geographiclib
            /tmp/fvenv/bin/python scripts/dev/osm_fixtures.py

No map data is copied: the town below is made up (a street grid at Tabor, Czechia, laid out by this
script), written in the formats the tools write it in. Written to
Tests/GeoAnchorKitTests/Fixtures/Routing/OSM/:

  oldtown.osm            as openstreetmap.org's Export button (OSM API 0.6 `map` call, CGImap)
                         writes it: <bounds>, every node of every way, nodes with version/
                         changeset/timestamp/user/uid, tagged nodes (a bench, a bus stop), ways
                         and relations. Its ways (name tag = what each tests):
                           walkable: residential/living_street/tertiary grid, a footway through a
                           park, steps, a path, a closed pedestrian square (area=yes), a footbridge
                           over the motorway (bridge=yes layer=1, no shared node), a trunk road with
                           foot=yes, a cycleway with foot=designated, a private service road with
                           foot=yes (foot before access)
                           not walkable: the motorway, a trunk road, a cycleway (no foot tag), a
                           private service road, a path with foot=no, a footway under
                           construction (highway=construction), a building, a river, a church
                         sights (OSMData.sights): the church (a building way: amenity=place_of_worship,
                         historic=church), a viewpoint (F) and a museum (E) node, two nodes named
                         "Chapel" (a place of worship at H, a memorial); an unnamed wayside cross;
                         a bench and a bus stop (not sights)
                         a locked gate (barrier=gate, access=private) on the park footway: the
                         footway is cut there (the reference leaves the gate's segments out)
  oldtown.osm.gz         it gzipped (as Geofabrik-style extracts and servers deliver .osm.gz)
  oldtown.osmium.osm     osmium cat of it (libosmium's XML writer: other attribute order)
  oldtown.osm.pbf        osmium cat of it to PBF (zlib blobs, dense nodes, metadata: osmium's default)
  oldtown.plain.osm.pbf  the same as plain (not dense) nodes in uncompressed blobs, no metadata
  oldtown.locations.osm.pbf   osmium add-locations-to-ways: ways carry their nodes' positions
                         (LocationsOnWays), untagged nodes dropped
  oldtown.josm.osm       as JOSM saves an edited file (single-quoted attributes, upload='true'): the
                         footbridge deleted (action='delete': the south street is then cut off), a
                         new footway with negative ids (action='modify') from the square's far
                         corner to the north row (a shortcut: E→H 190.7 m instead of 240.3 m)
  oldtown.overpass-geom.osm   Overpass API `way[highway](bbox); out geom;`: ways with inline
                         node positions (<nd ref lat lon>), no <node> elements
  oldtown.overpass-ways.osm   Overpass API `way[highway](bbox); out;` (no `(._;>;)`): ways whose
                         nodes the file does not hold
  oldtown.reference.csv  from,to,meters: shortest walking distances between the stops below over
                         the walkable ways of GDAL's reading of oldtown.osm (ogr2ogr, layers
                         lines + multipolygons, by osm_id), edges = GeographicLib WGS84 geodesics,
                         Dijkstra by networkx (file export); the same for oldtown.josm.osm (file
                         josm; GDAL reads JOSM's deleted way too, the script leaves it out); stop
                         pairs not connected are not listed
  oldtown.stops.csv      id,latitude,longitude of those stops (nodes of the town: A the grid's
                         south-west corner, C and G on the south street beyond the motorway, D the
                         end of the trunk road with foot=yes, E the square's far corner, F the
                         viewpoint above the steps, B and H on the north row)
"""
import csv, gzip, json, math, os, subprocess, tempfile
import networkx as nx
from geographiclib.geodesic import Geodesic

here = os.path.dirname(os.path.abspath(__file__)) + "/../.."
out = here + "/Tests/GeoAnchorKitTests/Fixtures/Routing/OSM"
os.makedirs(out, exist_ok=True)

LAT0, LON0 = 49.4140000, 14.6580000
M_LAT = 111_200.0
M_LON = 111_320.0 * math.cos(math.radians(LAT0))

nodes = {}          # name -> (id, lat, lon)
next_id = [4_812_300_101]


def node(x, y):
    """The node at (x east, y north) meters from the origin (one node per place)."""
    key = (x, y)
    if key not in nodes:
        nodes[key] = (next_id[0], round(LAT0 + y / M_LAT, 7), round(LON0 + x / M_LON, 7))
        next_id[0] += 7
    return nodes[key][0]


ways = []           # (id, [node ids], {tags}, walkable)
way_id = [37_400_001]


def way(points, walkable, **tags):
    ways.append((way_id[0], [node(x, y) for x, y in points], {k.replace("__", ":"): v for k, v in tags.items()}, walkable))
    way_id[0] += 13


# The grid: rows y = 0, 100, 200 (x 0…360), columns x = 0, 120, 240, 360 (y 0…200).
for y, name in [(0, "Pražská"), (100, "Klokotská"), (200, "Žižkovo náměstí")]:
    way([(x, y) for x in (0, 120, 240, 360)], True, highway="residential", name=name)
for x, kind in [(0, "living_street"), (120, "residential"), (240, "residential"), (360, "tertiary")]:
    way([(x, y) for y in (0, 100, 200)], True, highway=kind, name=f"column {x}")
way([(120, 100), (150, 115), (180, 130), (240, 200)], True, highway="footway", name="park footway")
way([(360, 200), (360, 260)], True, highway="steps", name="steps")
way([(360, 260), (400, 300)], True, highway="path", name="to the viewpoint")
way([(0, 200), (-60, 200), (-60, 260), (0, 260), (0, 200)], True, highway="pedestrian", area="yes", name="square")
way([(-100, -80), (100, -80), (300, -80), (460, -80)], False, highway="motorway", name="D3 motorway", ref="D3")
way([(240, 0), (240, -60), (240, -100), (240, -160)], True, highway="footway", bridge="yes", layer="1", name="footbridge")
way([(0, -160), (120, -160), (240, -160), (360, -160)], True, highway="residential", name="south street")
way([(360, 200), (440, 200), (520, 200)], True, highway="trunk", foot="yes", name="trunk with foot=yes")
way([(520, 200), (520, 0), (360, 0)], False, highway="trunk", name="trunk")
way([(0, 0), (0, -160)], False, highway="cycleway", name="cycleway")
way([(360, 100), (460, 100), (520, 200)], True, highway="cycleway", foot="designated", name="cycleway with foot=designated")
way([(120, 0), (180, 50), (240, 100)], False, highway="service", access="private", name="private service")
way([(0, 100), (60, 150), (120, 200)], True, highway="service", access="private", foot="yes", name="private service with foot=yes")
way([(240, 200), (300, 150), (360, 100)], False, highway="path", foot="no", name="path with foot=no")
way([(0, 0), (60, 50), (120, 100)], False, highway="construction", construction="footway", name="footway under construction")
way([(150, 20), (210, 20), (210, 80), (150, 80), (150, 20)], False, building="yes", name="building")
way([(-100, -200), (200, -210), (460, -200)], False, waterway="river", name="river")
way([(270, 120), (330, 120), (330, 180), (270, 180), (270, 120)], False, building="church", amenity="place_of_worship",
    name="St. Giles", historic="church")
tagged_nodes = {node(180, 130): {"amenity": "bench"}, node(240, 0): {"highway": "bus_stop", "name": "Pražská"},
                node(400, 300): {"tourism": "viewpoint", "name": "Kotnov viewpoint"},
                node(-60, 260): {"tourism": "museum", "name": "Hussite Museum"},
                node(60, 50): {"historic": "wayside_cross"},
                node(120, 200): {"amenity": "place_of_worship", "name": "Chapel"},
                node(240, 100): {"historic": "memorial", "name": "Chapel"},
                node(150, 115): {"barrier": "gate", "access": "private"}}
BLOCKED = {(150, 115)}   # nodes a walker cannot pass (OSMWalkability.blocks): their segments left out

STOPS = {"A": (0, 0), "B": (360, 200), "C": (240, -160), "D": (520, 200), "E": (-60, 260), "F": (400, 300),
         "G": (0, -160), "H": (120, 200)}
for s in STOPS.values():
    assert s in nodes
lats = [n[1] for n in nodes.values()]
lons = [n[2] for n in nodes.values()]


def esc(s):
    return s.replace("&", "&amp;").replace('"', "&quot;").replace("<", "&lt;").replace(">", "&gt;")


def export_xml():
    """openstreetmap.org's export (CGImap)."""
    lines = ['<?xml version="1.0" encoding="UTF-8"?>',
             '<osm version="0.6" generator="CGImap 0.8.10 (1234 spike-07.openstreetmap.org)" copyright="OpenStreetMap and contributors" attribution="http://www.openstreetmap.org/copyright" license="http://opendatacommons.org/licenses/odbl/1-0/">',
             f' <bounds minlat="{min(lats):.7f}" minlon="{min(lons):.7f}" maxlat="{max(lats):.7f}" maxlon="{max(lons):.7f}"/>']
    for (nid, la, lo) in sorted(nodes.values()):
        attrs = f'id="{nid}" visible="true" version="3" changeset="101234567" timestamp="2021-04-28T09:12:44Z" user="mapper" uid="12345" lat="{la:.7f}" lon="{lo:.7f}"'
        if nid in tagged_nodes:
            lines.append(f' <node {attrs}>')
            lines += [f'  <tag k="{k}" v="{esc(v)}"/>' for k, v in tagged_nodes[nid].items()]
            lines.append(' </node>')
        else:
            lines.append(f' <node {attrs}/>')
    for (wid, refs, tags, _) in ways:
        lines.append(f' <way id="{wid}" visible="true" version="5" changeset="101234567" timestamp="2021-04-28T09:12:44Z" user="mapper" uid="12345">')
        lines += [f'  <nd ref="{r}"/>' for r in refs]
        lines += [f'  <tag k="{k}" v="{esc(v)}"/>' for k, v in sorted(tags.items())]
        lines.append(' </way>')
    building = next(w for w in ways if w[2].get("building"))
    lines += [' <relation id="9912345" visible="true" version="2" changeset="101234567" timestamp="2021-04-28T09:12:44Z" user="mapper" uid="12345">',
              f'  <member type="way" ref="{building[0]}" role="outer"/>',
              '  <tag k="type" v="multipolygon"/>', '  <tag k="building" v="church"/>', ' </relation>', '</osm>', '']
    return "\n".join(lines)


def josm_xml():
    """JOSM's save of an edited download: the footbridge deleted, a new footway added."""
    new_nodes = [(-1, LAT0 + 260 / M_LAT, LON0 + -60 / M_LON), (-2, LAT0 + 240 / M_LAT, LON0 + 30 / M_LON)]
    top_node = node(120, 200)
    lines = ["<?xml version='1.0' encoding='UTF-8'?>", "<osm version='0.6' upload='true' generator='JOSM'>",
             f"  <bounds minlat='{min(lats):.7f}' minlon='{min(lons):.7f}' maxlat='{max(lats):.7f}' maxlon='{max(lons):.7f}' origin='CGImap 0.8.10' />"]
    square_corner = node(-60, 260)
    for (nid, la, lo) in new_nodes[1:]:
        lines.append(f"  <node id='{nid}' action='modify' visible='true' lat='{la:.7f}' lon='{lo:.7f}' />")
    for (nid, la, lo) in sorted(nodes.values()):
        lines.append(f"  <node id='{nid}' timestamp='2021-04-28T09:12:44Z' uid='12345' user='mapper' visible='true' version='3' changeset='101234567' lat='{la:.7f}' lon='{lo:.7f}' />")
    for (wid, refs, tags, _) in ways:
        action = " action='delete'" if tags.get("name") == "footbridge" else ""
        lines.append(f"  <way id='{wid}'{action} timestamp='2021-04-28T09:12:44Z' uid='12345' user='mapper' visible='true' version='5' changeset='101234567'>")
        lines += [f"    <nd ref='{r}' />" for r in refs]
        lines += [f"    <tag k='{k}' v='{esc(v)}' />" for k, v in sorted(tags.items())]
        lines.append("  </way>")
    lines += ["  <way id='-3' action='modify' visible='true'>", f"    <nd ref='{square_corner}' />", "    <nd ref='-2' />",
              f"    <nd ref='{top_node}' />", "    <tag k='highway' v='footway' />", "    <tag k='name' v='new footway' />", "  </way>",
              "</osm>", ""]
    return "\n".join(lines)


def overpass_xml(geom):
    lines = ['<?xml version="1.0" encoding="UTF-8"?>', '<osm version="0.6" generator="Overpass API 0.7.61.5 4133829e">',
             '<note>The data included in this document is from www.openstreetmap.org. The data is made available under ODbL.</note>',
             '<meta osm_base="2021-04-28T09:20:03Z"/>', '']
    by_id = {n[0]: n for n in nodes.values()}
    for (wid, refs, tags, _) in ways:
        if "highway" not in tags:
            continue
        lines.append(f'  <way id="{wid}">')
        if geom:
            la = [by_id[r][1] for r in refs]
            lo = [by_id[r][2] for r in refs]
            lines.append(f'    <bounds minlat="{min(la):.7f}" minlon="{min(lo):.7f}" maxlat="{max(la):.7f}" maxlon="{max(lo):.7f}"/>')
            lines += [f'    <nd ref="{r}" lat="{by_id[r][1]:.7f}" lon="{by_id[r][2]:.7f}"/>' for r in refs]
        else:
            lines += [f'    <nd ref="{r}"/>' for r in refs]
        lines += [f'    <tag k="{k}" v="{esc(v)}"/>' for k, v in sorted(tags.items())]
        lines.append('  </way>')
    lines += ['', '</osm>', '']
    return "\n".join(lines)


def write(name, text):
    with open(f"{out}/{name}", "w", encoding="utf-8") as f:
        f.write(text)


write("oldtown.osm", export_xml())
write("oldtown.josm.osm", josm_xml())
write("oldtown.overpass-geom.osm", overpass_xml(True))
write("oldtown.overpass-ways.osm", overpass_xml(False))
with open(f"{out}/oldtown.osm", "rb") as f, open(f"{out}/oldtown.osm.gz", "wb") as g:
    g.write(gzip.compress(f.read(), 9, mtime=0))
subprocess.run(["osmium", "cat", "--overwrite", "-o", f"{out}/oldtown.osmium.osm", f"{out}/oldtown.osm"], check=True)
# PBF as osmium writes it: zlib blobs with dense nodes and metadata (its default), plain nodes in
# uncompressed blobs without metadata, and ways carrying their nodes' locations (LocationsOnWays;
# untagged nodes dropped, as add-locations-to-ways does without -n).
subprocess.run(["osmium", "cat", "--overwrite", "-o", f"{out}/oldtown.osm.pbf", f"{out}/oldtown.osm"], check=True)
subprocess.run(["osmium", "cat", "--overwrite", "-f", "pbf,pbf_dense_nodes=false,pbf_compression=none,add_metadata=false",
                "-o", f"{out}/oldtown.plain.osm.pbf", f"{out}/oldtown.osm"], check=True)
subprocess.run(["osmium", "add-locations-to-ways", "--overwrite", "-o", f"{out}/oldtown.locations.osm.pbf", f"{out}/oldtown.osm"], check=True)


def gdal_lines(path):
    """osm_id -> [(lat, lon)] of every line and area outline GDAL reads from `path`."""
    geometries = {}
    with tempfile.TemporaryDirectory() as d:
        for layer in ("lines", "multipolygons"):
            # Custom indexing off: JOSM's negative ids.
            subprocess.run(["ogr2ogr", "-q", "-f", "GeoJSON", f"{d}/{layer}.geojson", path, layer], check=True,
                           env=dict(os.environ, OSM_USE_CUSTOM_INDEXING="NO"))
            with open(f"{d}/{layer}.geojson") as f:
                for feature in json.load(f)["features"]:
                    p = feature["properties"]
                    g = feature["geometry"]
                    if layer == "lines":
                        geometries[int(p["osm_id"])] = [(c[1], c[0]) for c in g["coordinates"]]
                    elif p.get("osm_way_id"):
                        ring = g["coordinates"][0][0]
                        geometries[int(p["osm_way_id"])] = [(c[1], c[0]) for c in ring]
    return geometries


def distances(geometries, walkable_ids):
    g = nx.Graph()
    blocked = {(nodes[xy][1], nodes[xy][2]) for xy in BLOCKED}
    for wid in walkable_ids:
        pts = geometries[wid]
        for a, b in zip(pts, pts[1:]):
            ka, kb = (round(a[0], 7), round(a[1], 7)), (round(b[0], 7), round(b[1], 7))
            if ka in blocked or kb in blocked:
                continue
            g.add_edge(ka, kb, weight=Geodesic.WGS84.Inverse(a[0], a[1], b[0], b[1])["s12"])
    rows = []
    stop_keys = {s: (nodes[xy][1], nodes[xy][2]) for s, xy in STOPS.items()}
    for s, ks in stop_keys.items():
        if ks not in g:
            continue
        d = nx.single_source_dijkstra_path_length(g, ks, weight="weight")
        for t, kt in stop_keys.items():
            if t != s and kt in d:
                rows.append((s, t, d[kt]))
    return rows


walkable = [w[0] for w in ways if w[3]]
rows = [("export",) + r for r in distances(gdal_lines(f"{out}/oldtown.osm"), walkable)]
josm_geoms = gdal_lines(f"{out}/oldtown.josm.osm")
bridge = next(w[0] for w in ways if w[2].get("name") == "footbridge")
# GDAL reads the deleted way too (it does not know JOSM's action attribute): it is left out here.
new_id = next(k for k in josm_geoms if k < 0)
rows += [("josm",) + r for r in distances(josm_geoms, [w for w in walkable if w != bridge] + [new_id])]
with open(f"{out}/oldtown.reference.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["file", "from", "to", "meters"])
    for r in rows:
        w.writerow([r[0], r[1], r[2], f"{r[3]:.4f}"])
with open(f"{out}/oldtown.stops.csv", "w", newline="") as f:
    w = csv.writer(f, lineterminator="\n")
    w.writerow(["id", "latitude", "longitude"])
    for name, xy in STOPS.items():
        w.writerow([name, f"{nodes[xy][1]:.7f}", f"{nodes[xy][2]:.7f}"])
print(f"{len(nodes)} nodes, {len(ways)} ways, {len(rows)} reference distances")
