#!/usr/bin/env python3
"""Second opinion for `geobench gnss`: RTKLIB's rnx2rtkp single point on the same RINEX file,
scored against the same ground truth, and both timed in one run (whole process, file reading
included).

    apt-get install rtklib            # Debian package, RTKLIB 2.4.3
    swift build -c release --product geobench --static-swift-stdlib   # as scripts/report builds it
    python3 scripts/dev/gnss_rtklib_reference.py [--shared ../shared/data] [--geobench .build/release/geobench]

Prints, per tool: epochs solved / reference epochs, horizontal p50, p95, GSDC score (mean of the
two) against the GSDC 2021 SPAN ground truth, and the wall time (median of 5 runs).
rnx2rtkp options: single point (-p 0), GPS only, L1 (-f 1), elevation mask 15°, its default
broadcast (Klobuchar) ionosphere and Saastamoinen troposphere (the issue's RTKLIB row).
Only the Python standard library is needed.
"""
import argparse, csv, json, math, os, statistics, subprocess, sys, tempfile, time

LEAP = 18  # GPS - UTC in 2021 (IERS Bulletin C)
GPS_EPOCH_UNIX = 315964800


def percentile(v, p):
    v = sorted(v)
    h = (len(v) - 1) * p
    lo = math.floor(h)
    hi = min(lo + 1, len(v) - 1)
    return v[lo] + (h - lo) * (v[hi] - v[lo])


def horizontal(lat, lon, rlat, rlon):
    a, e2 = 6378137.0, 6.69437999014e-3
    s = math.sin(math.radians(rlat))
    w = math.sqrt(1 - e2 * s * s)
    m, n = a * (1 - e2) / w ** 3, a / w
    dn = math.radians(lat - rlat) * m
    de = math.radians(lon - rlon) * n * math.cos(math.radians(rlat))
    return math.hypot(dn, de)


def truth(path):
    out = {}
    with open(path, newline="") as f:
        for r in csv.DictReader(f):
            t = int(r["millisSinceGpsEpoch"]) / 1000.0  # GPS time
            out[round(t, 1)] = (float(r["latDeg"]), float(r["lngDeg"]))
    return out


def score(points, ref):
    errs = [horizontal(la, lo, *ref[t]) for t, la, lo in points if t in ref]
    if not errs:
        return len(errs), float("nan"), float("nan")
    return len(errs), percentile(errs, 0.5), percentile(errs, 0.95)


def timed(cmd, runs=5):
    ts = []
    for _ in range(runs):
        t0 = time.perf_counter()
        subprocess.run(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        ts.append(time.perf_counter() - t0)
    return statistics.median(ts)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", default="../shared/data")
    ap.add_argument("--geobench", default=".build/release/geobench")
    args = ap.parse_args()
    d = os.path.join(args.shared, "gnss_raw/gsdc2021_mtv1_pixel5_part1")
    obs, nav = os.path.join(d, "Pixel5_GnssLog_part1.21o"), os.path.join(d, "hour1180.21n")
    sp3 = os.path.join(args.shared, "gnss_raw/orbits_2021_118/COD0MGXFIN_20211180000_01D_05M_ORB.SP3")
    ref = truth(os.path.join(d, "ground_truth_part1.csv"))
    tmp = tempfile.mkdtemp()
    rows = []

    pos = os.path.join(tmp, "rtklib.pos")
    cmd = ["rnx2rtkp", "-p", "0", "-f", "1", "-m", "15", "-sys", "G", "-o", pos, obs, nav]
    sec = timed(cmd)
    pts = []
    with open(pos) as f:
        for line in f:
            if line.startswith("%") or not line.strip():
                continue
            p = line.split()
            t = int(p[0]) * 604800 + float(p[1])  # GPS week, seconds of week
            pts.append((round(t, 1), float(p[2]), float(p[3])))
    rows.append(("rnx2rtkp single point, GPS L1", pts, sec))

    for label, extra in [("geobench gnss --mode wls, GPS broadcast", ["--systems", "G"]),
                         ("geobench gnss --mode wls, nav + SP3", ["--sp3", sp3])]:
        out = os.path.join(tmp, "gb.csv")
        cmd = [args.geobench, "gnss", "--input", obs, "--nav", nav, "--mode", "wls", "--output", out] + extra
        sec = timed(cmd)
        pts = []
        with open(out, newline="") as f:
            for r in csv.DictReader(f):
                ts = r["time"]  # UTC ISO 8601 with ms
                import datetime as dt
                u = dt.datetime.strptime(ts, "%Y-%m-%dT%H:%M:%S.%fZ").replace(tzinfo=dt.timezone.utc).timestamp()
                pts.append((round(u - GPS_EPOCH_UNIX + LEAP, 1), float(r["latitude"]), float(r["longitude"])))
        rows.append((label, pts, sec))

    print(f"{'tool':44} {'solved':>12} {'p50':>7} {'p95':>7} {'score':>7} {'seconds':>8}")
    for label, pts, sec in rows:
        n, p50, p95 = score(pts, ref)
        print(f"{label:44} {n:5d}/{len(ref):<6d} {p50:7.2f} {p95:7.2f} {(p50 + p95) / 2:7.2f} {sec:8.3f}")


if __name__ == "__main__":
    main()
