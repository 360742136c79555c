#!/usr/bin/env python3
"""Reference values of the Rice CDF (probability that a 2-D isotropic Gaussian with per-axis
sigma = 1, centred d from a circle's centre, falls inside the circle of radius R), from SciPy's
non-central chi-square CDF with 2 degrees of freedom: P = ncx2.cdf(R^2, 2, d^2).

Usage: python3 scripts/dev/make_rice_cdf_fixture.py > Tests/GeoAnchorKitTests/Fixtures/Tours/rice_cdf.csv
"""
import sys
import scipy
from scipy.stats import ncx2

print(f"# made by: python3 scripts/dev/make_rice_cdf_fixture.py (scipy {scipy.__version__}); sigma = 1")
print("radius,distance,probability")
for R in [0.05, 0.3, 1, 1.5, 2, 3.7, 5, 10, 20, 30, 100, 200]:
    ds = sorted(set([0, 0.1, 0.5, 1, 2, 3, 5, 8, 13, 21, 34, 55, 89, 144, 233] +
                    [R - 3, R - 1, R - 0.5, R - 0.01, R, R + 0.01, R + 0.5, R + 1, R + 3, R + 8.9]))
    for d in ds:
        if d < 0:
            continue
        print(f"{float(R)!r},{float(d)!r},{float(ncx2.cdf(R * R, 2, d * d))!r}")
