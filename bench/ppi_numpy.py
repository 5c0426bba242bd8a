"""Vectorised numpy reference of the prediction-powered estimate: the comparator of bench/ppi.bench.ts.

Usage: python3 bench/ppi_numpy.py FILE
FILE is CSV with header item,prediction,label[,probability] (an empty label = not reviewed).
Prints one JSON object with the estimate (the fields of `witness estimate --json` for one
group) and the time from process start to the result (`total_ms`, numpy import, file load and
compute included) next to the load and compute times.

The estimator is the one lib/stats/ppi.ts documents, written independently with numpy:
theta(lambda) = lambda mean(f) + Hajek-weighted mean over the labelled of (Y - lambda f);
psi = a - lambda b with a = w xi (Y - ybar_w), b = w xi (f - fbar_w) - (f - fbar), weights
normalised to sum N over the labelled; lambda = clip(a.b / b.b, 0, 1);
V = psi.psi / N^2 * n / (n - 1); effective labels = (weighted variance of the labels) / V;
each interval the Wilson score interval at (estimate, effective labels), the human one at n
under uniform sampling.
"""
import time

T0 = time.perf_counter()

import io  # noqa: E402
import json  # noqa: E402
import sys  # noqa: E402

import numpy as np  # noqa: E402

Z975 = 1.959963984540054


def wilson(k, n, z=Z975):
    p = k / n
    z2 = z * z
    denom = 1 + z2 / n
    centre = (p + z2 / (2 * n)) / denom
    half = z / denom * np.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return max(0.0, centre - half), min(1.0, centre + half)


def estimate(f, y, p=None, z=Z975):
    lab = ~np.isnan(y)
    N = f.size
    n = int(lab.sum())
    w = np.ones(n) if p is None else 1.0 / p[lab]
    uniform = p is None or bool(np.all(p == p[0]))
    sum_w, sum_w2 = w.sum(), (w * w).sum()
    w = w * (N / sum_w)
    yl, fl = y[lab], f[lab]
    ybar_w = (w * yl).sum() / N
    fbar_w = (w * fl).sum() / N
    fbar = f.mean()
    a = np.zeros(N)
    b = fbar - f
    ey, ef = yl - ybar_w, fl - fbar_w
    a[lab] = w * ey
    b[lab] = w * ef - (fl - fbar)
    saa, sab, sbb = a @ a, a @ b, b @ b
    corr = n / (n - 1)
    lam = float(np.clip(sab / sbb, 0.0, 1.0)) if sbb > 0 else 0.0
    variance = (w * ey * ey).sum() / N * corr
    v0 = saa / N**2 * corr
    rate = (w * yl).sum() / N
    kish = n if uniform else sum_w**2 / sum_w2
    human_size = n if uniform else (variance / v0 if variance > 0 and v0 > 0 else kish)
    lo, hi = wilson(min(human_size, max(0.0, rate * human_size)), human_size, z)
    human = {"estimate": float(rate), "low": float(lo), "high": float(hi)}
    if lam == 0:
        ppi = dict(human, **{"lambda": 0.0})
        eff = float(human_size)
    else:
        est = float(min(1.0, max(0.0, lam * fbar + ybar_w - lam * fbar_w)))
        v = (saa - 2 * lam * sab + lam * lam * sbb) / N**2 * corr
        eff = float(variance / v) if variance > 0 and v > 0 else float(human_size)
        lo, hi = wilson(min(eff, max(0.0, est * eff)), eff, z)
        ppi = {"estimate": est, "low": float(lo), "high": float(hi), "lambda": lam}
    return {"labeled": n, "unlabeled": N - n, "human": human, "ppi": ppi, "effective_labels": eff}


def load(path):
    """The whole file as floats: the item column skipped, empty labels read as NaN."""
    with open(path, "r", encoding="utf-8") as fh:
        header = fh.readline().strip().split(",")
        raw = fh.read()
    # empty fields -> nan (a label is empty when the item was not reviewed); of the ways tried
    # (bytes.splitlines, BytesIO, StringIO into np.loadtxt) StringIO was the fastest
    raw = raw.replace(",,", ",nan,").replace(",\n", ",nan\n")
    cols = [i for i, name in enumerate(header) if name in ("prediction", "label", "probability")]
    data = np.loadtxt(io.StringIO(raw), delimiter=",", usecols=cols, dtype=np.float64, ndmin=2)
    names = [header[i] for i in cols]
    return {name: data[:, j] for j, name in enumerate(names)}


def main():
    path = sys.argv[1]
    t = time.perf_counter()
    cols = load(path)
    load_ms = (time.perf_counter() - t) * 1000
    t = time.perf_counter()
    result = estimate(cols["prediction"], cols["label"], cols.get("probability"))
    compute_ms = (time.perf_counter() - t) * 1000
    total_ms = (time.perf_counter() - T0) * 1000
    print(json.dumps({"result": result, "load_ms": load_ms, "compute_ms": compute_ms, "total_ms": total_ms, "numpy": np.__version__}))


if __name__ == "__main__":
    main()
