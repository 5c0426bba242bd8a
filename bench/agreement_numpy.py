"""Vectorised numpy Krippendorff's alpha: the comparator of bench/agreement.bench.ts.

Usage: python3 bench/agreement_numpy.py FILE [REPEATS]
       python3 bench/agreement_numpy.py FILE --pipeline LEVEL   (end to end: load, one alpha, print)
FILE is CSV with header unit,rater,value and numeric fields (missing ratings are absent rows).
Prints one JSON object: alpha per level, the median compute time per level in ms over REPEATS
runs (default 5; file load excluded), and the load time.

The method is the usual vectorised one (as in the `krippendorff` PyPI package): map units and
values to indices with np.unique, count values per unit with one bincount into a dense
units x values matrix, keep units with >= 2 values, coincidences o = (N/(m-1))^T N minus the
diagonal self-pairs, then alpha = 1 - (n-1) sum(o*delta) / sum(n_c n_k delta).
"""
import json
import sys
import time

import numpy as np


def alpha(units, values, level):
    _, u = np.unique(units, return_inverse=True)
    cats, v = np.unique(values, return_inverse=True)
    n_units, n_cats = int(u.max()) + 1, len(cats)
    counts = np.bincount(u * n_cats + v, minlength=n_units * n_cats).reshape(n_units, n_cats).astype(np.float64)
    m = counts.sum(axis=1)
    keep = m >= 2
    counts, m = counts[keep], m[keep]
    scaled = counts / (m - 1.0)[:, None]
    o = scaled.T @ counts
    o[np.diag_indices(n_cats)] -= scaled.sum(axis=0)
    nc = o.sum(axis=1)
    n = nc.sum()
    if level == "nominal":
        delta = 1.0 - np.eye(n_cats)
    elif level == "interval":
        delta = (cats[:, None] - cats[None, :]) ** 2
    elif level == "ratio":
        s = cats[:, None] + cats[None, :]
        delta = np.where(s == 0, 0.0, ((cats[:, None] - cats[None, :]) / np.where(s == 0, 1.0, s)) ** 2)
    elif level == "ordinal":
        mid = np.cumsum(nc) - nc / 2.0
        delta = (mid[:, None] - mid[None, :]) ** 2
    else:
        raise ValueError(level)
    return 1.0 - (n - 1.0) * (o * delta).sum() / (np.outer(nc, nc) * delta).sum()


def pipeline(path, level):
    """What a Python user's script does end to end: load, compute once, print."""
    data = np.loadtxt(path, delimiter=",", skiprows=1, dtype=np.float64)
    a = alpha(data[:, 0].copy(), data[:, 2].copy(), level)
    print(json.dumps({"alpha": float(a), "n_ratings": int(len(data))}))


def main():
    if len(sys.argv) > 3 and sys.argv[2] == "--pipeline":
        pipeline(sys.argv[1], sys.argv[3])
        return
    path = sys.argv[1]
    repeats = int(sys.argv[2]) if len(sys.argv) > 2 else 5
    t0 = time.perf_counter()
    data = np.loadtxt(path, delimiter=",", skiprows=1, dtype=np.float64)
    load_ms = (time.perf_counter() - t0) * 1000
    units, values = data[:, 0].copy(), data[:, 2].copy()
    out = {"n_ratings": int(len(values)), "load_ms": load_ms, "alpha": {}, "compute_ms": {}, "numpy": np.__version__}
    for level in ("interval", "nominal"):
        times = []
        for _ in range(repeats):
            t = time.perf_counter()
            a = alpha(units, values, level)
            times.append((time.perf_counter() - t) * 1000)
        out["alpha"][level] = float(a)
        out["compute_ms"][level] = float(np.median(times))
    print(json.dumps(out))


if __name__ == "__main__":
    main()
