#!/usr/bin/env python3
"""Reference tours for GeoAnchorKit's routing tests: OR-Tools guided local search (5 s) on
random 200-stop city instances.

Each instance: 200 stops drawn uniformly (random.Random(seed)) in a 4 km x 4 km square around
Prague's Old Town Square; the tour is an open path from stop 0 with a free end (the planner's
default problem). Leg costs are WGS84 geodesic distances (geographiclib), given to OR-Tools in
millimetres (integers). Lengths in the fixture are in metres, summed from the float distances.

Usage (writes the committed fixture):
    python3 scripts/dev/ortools_reference.py > Tests/GeoAnchorKitTests/Fixtures/Routing/ortools_city200.json
"""
import json
import math
import random
import sys

from geographiclib.geodesic import Geodesic
from ortools.constraint_solver import pywrapcp, routing_enums_pb2
import ortools

CENTER = (50.0875, 14.4213)
SIZE_M = 4000.0
N = 200
SEEDS = [1, 2, 3]
TIME_LIMIT_S = 5


def instance(seed):
    rng = random.Random(seed)
    lat0, lon0 = CENTER
    m_per_deg_lat = 111_250.0
    m_per_deg_lon = 111_320.0 * math.cos(math.radians(lat0))
    pts = []
    for _ in range(N):
        e = (rng.random() - 0.5) * SIZE_M
        n = (rng.random() - 0.5) * SIZE_M
        pts.append((round(lat0 + n / m_per_deg_lat, 7), round(lon0 + e / m_per_deg_lon, 7)))
    return pts


def solve(pts):
    g = Geodesic.WGS84
    n = len(pts)
    d = [[0.0] * n for _ in range(n)]
    for i in range(n):
        for j in range(i + 1, n):
            s = g.Inverse(pts[i][0], pts[i][1], pts[j][0], pts[j][1])["s12"]
            d[i][j] = d[j][i] = s
    # Node n is a dummy end with zero cost from/to everything: an open path from node 0.
    manager = pywrapcp.RoutingIndexManager(n + 1, 1, [0], [n])
    routing = pywrapcp.RoutingModel(manager)

    def cost(a, b):
        i, j = manager.IndexToNode(a), manager.IndexToNode(b)
        if i == n or j == n:
            return 0
        return int(round(d[i][j] * 1000))

    cb = routing.RegisterTransitCallback(cost)
    routing.SetArcCostEvaluatorOfAllVehicles(cb)
    params = pywrapcp.DefaultRoutingSearchParameters()
    params.first_solution_strategy = routing_enums_pb2.FirstSolutionStrategy.PATH_CHEAPEST_ARC
    params.local_search_metaheuristic = routing_enums_pb2.LocalSearchMetaheuristic.GUIDED_LOCAL_SEARCH
    params.time_limit.seconds = TIME_LIMIT_S
    sol = routing.SolveWithParameters(params)
    order = []
    idx = routing.Start(0)
    while not routing.IsEnd(idx):
        order.append(manager.IndexToNode(idx))
        idx = sol.Value(routing.NextVar(idx))
    length = sum(d[order[k - 1]][order[k]] for k in range(1, len(order)))
    return order, length


def main():
    out = {
        "generator": "python3 scripts/dev/ortools_reference.py > Tests/GeoAnchorKitTests/Fixtures/Routing/ortools_city200.json",
        "ortools_version": ortools.__version__,
        "description": "open path from stop 0, free end; geodesic WGS84 legs (geographiclib); "
                       "OR-Tools PATH_CHEAPEST_ARC + GUIDED_LOCAL_SEARCH, %d s, costs in mm" % TIME_LIMIT_S,
        "time_limit_s": TIME_LIMIT_S,
        "instances": [],
    }
    for seed in SEEDS:
        pts = instance(seed)
        order, length = solve(pts)
        print("seed %d: OR-Tools %.3f m" % (seed, length), file=sys.stderr)
        out["instances"].append({
            "seed": seed,
            "latitudes": [p[0] for p in pts],
            "longitudes": [p[1] for p in pts],
            "ortools_order": order,
            "ortools_length_m": round(length, 3),
        })
    json.dump(out, sys.stdout, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
