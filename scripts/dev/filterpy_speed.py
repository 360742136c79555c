#!/usr/bin/env python3
"""Measures FilterPy's speed on the position filter's work, for the side-by-side figure in the
Filtering benchmark (issue 4 quotes "FilterPy manages ~45,000 steps/s").

Usage (from the repository root):  python3 scripts/dev/filterpy_speed.py [STEPS]
Needs: pip install filterpy numpy.

One step = what `PositionFilter.step` does per fix in `Benchmarks/Filtering` ("PositionFilter.step
(local ENU)"): predict (variable-dt constant velocity, east and north as one 4-state filter, plus
a 2-state height channel), a 2-D position update and a scalar height update. The same synthetic
walk (10 Hz, white noise σ 3 m, 2 % 80 m jumps) is generated here; the χ² gate is FilterPy's own
Mahalanobis distance after the update (FilterPy has no pre-update gate), so FilterPy does slightly
less work per step than GeoAnchorKit. Prints steps/s of the best of three runs.
"""
import math
import sys
import time

import numpy as np
from filterpy.kalman import KalmanFilter


def walk(count, rate):
    s = 0x5EED
    def u():
        nonlocal s
        s = (s * 6364136223846793005 + 1442695040888963407) & 0xFFFFFFFFFFFFFFFF
        return (s >> 11) * 2.0**-53
    def g():
        return math.sqrt(-2 * math.log(max(u(), 1e-300))) * math.cos(2 * math.pi * u())
    e = n = h = 0.0
    out = []
    for i in range(count):
        t = i / rate
        h += 0.02 * g()
        e += 1.4 * math.sin(h) / rate
        n += 1.4 * math.cos(h) / rate
        jump = 80.0 if u() < 0.02 else 0.0
        out.append((t, e + 3 * g() + jump, n + 3 * g(), 30 + 4 * g()))
    return out


def run(meas, q=0.1):
    kf = KalmanFilter(dim_x=4, dim_z=2)
    kf.H = np.array([[1.0, 0, 0, 0], [0, 1.0, 0, 0]])
    kf.R = np.eye(2) * 9.0
    kf.P = np.diag([9.0, 9.0, 2.25, 2.25])
    kf.x = np.array([meas[0][1], meas[0][2], 0.0, 0.0])
    hk = KalmanFilter(dim_x=2, dim_z=1)
    hk.H = np.array([[1.0, 0]])
    hk.R = np.array([[16.0]])
    hk.x = np.array([meas[0][3], 0.0])
    last = meas[0][0]
    for t, e, n, h in meas[1:]:
        dt = t - last
        last = t
        kf.F = np.array([[1, 0, dt, 0], [0, 1, 0, dt], [0, 0, 1, 0], [0, 0, 0, 1.0]])
        qb = q * np.array([[dt**3 / 3, dt**2 / 2], [dt**2 / 2, dt]])
        kf.Q = np.kron(qb, np.eye(2))
        kf.predict()
        kf.update(np.array([e, n]))
        hk.F = np.array([[1, dt], [0, 1.0]])
        hk.Q = 0.05 * np.array([[dt**3 / 3, dt**2 / 2], [dt**2 / 2, dt]])
        hk.predict()
        hk.update(np.array([h]))


def main():
    steps = int(sys.argv[1]) if len(sys.argv) > 1 else 20_000
    meas = walk(steps + 1, 10.0)
    best = float("inf")
    for _ in range(3):
        t0 = time.perf_counter()
        run(meas)
        best = min(best, time.perf_counter() - t0)
    print(f"FilterPy {steps} steps: {best * 1e3:.1f} ms, {steps / best:,.0f} steps/s")


if __name__ == "__main__":
    main()
