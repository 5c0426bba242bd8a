"""Bradley-Terry ratings in numpy: the comparator of `witness rank` in bench/agreement.bench.ts.

Usage: python3 bench/rank_numpy.py FILE [ROUNDS]
FILE is CSV with header model_a,model_b,winner (winner: model_a | model_b | tie | tie (bothbad)).
The whole pipeline a Python user would run: import numpy, read the file (np.loadtxt as strings),
index the models (np.unique), aggregate the battles into an M x M win matrix (ties half a win
each way), fit by maximum likelihood with Newton's method on that matrix (LMArena's Elo scale:
R = 400 * log10-strength + 1000, mean 1000), then ROUNDS bootstrap rounds (default 1000): the
battles resampled with replacement as one multinomial draw over the (pair, outcome) cells,
refitted from the point estimate, 2.5% / 97.5% percentiles. Prints one JSON object like
`witness rank --json` ({"ratings": [{"model", "rating", "ci", "battles"}]}, best first) plus
load_ms and compute_ms. The graph is assumed strongly connected (the bench's data is).
"""
import json
import sys
import time

import numpy as np

SCALE = 400.0 / np.log(10.0)


def fit(W, start=None):
    M = W.shape[0]
    beta = np.zeros(M) if start is None else start.copy()
    N = W + W.T
    for _ in range(100):
        d = beta[:, None] - beta[None, :]
        p = 1.0 / (1.0 + np.exp(-d))
        g = (W - N * p).sum(axis=1)
        h = N * p * (1.0 - p)
        A = -h
        A[np.diag_indices(M)] = h.sum(axis=1) - np.diag(h)
        A += max(np.trace(A) / M, 1e-12) / M  # pin the mean (the likelihood is shift-invariant)
        step = np.linalg.solve(A, g)
        beta = beta + step
        if np.abs(step).max() < 1e-10:
            break
    beta -= beta.mean()
    return beta


def main():
    path = sys.argv[1]
    rounds = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    t0 = time.perf_counter()
    data = np.loadtxt(path, delimiter=",", skiprows=1, dtype=str)
    load_ms = (time.perf_counter() - t0) * 1000
    t0 = time.perf_counter()
    models, idx = np.unique(data[:, :2], return_inverse=True)
    idx = idx.reshape(-1, 2)
    a, b, winner = idx[:, 0], idx[:, 1], data[:, 2]
    M = len(models)
    wa = np.where(winner == "model_a", 1.0, np.where(winner == "model_b", 0.0, 0.5))
    # cells: (a, b, outcome) with outcome 0 a won, 1 b won, 2 tie
    outcome = np.where(winner == "model_a", 0, np.where(winner == "model_b", 1, 2))
    cell = (a * M + b) * 3 + outcome
    counts = np.bincount(cell, minlength=M * M * 3).astype(np.float64)
    value_a = np.tile([1.0, 0.0, 0.5], M * M)
    cell_a = np.repeat(np.arange(M * M), 3)

    def win_matrix(c):
        w = np.bincount(cell_a, weights=c * value_a, minlength=M * M).reshape(M, M)
        l = np.bincount(cell_a, weights=c * (1.0 - value_a), minlength=M * M).reshape(M, M)
        return w + l.T  # W[i, j]: wins of i over j, from both orders of the pair

    point = fit(win_matrix(counts))
    rng = np.random.default_rng(1)
    n = len(cell)
    samples = np.empty((rounds, M))
    probs = counts / n
    for r in range(rounds):
        samples[r] = SCALE * fit(win_matrix(rng.multinomial(n, probs).astype(np.float64)), point) + 1000
    low, high = (np.percentile(samples, [2.5, 97.5], axis=0) if rounds > 0 else (None, None))
    played = np.bincount(a, minlength=M) + np.bincount(b, minlength=M)
    ratings = SCALE * point + 1000
    compute_ms = (time.perf_counter() - t0) * 1000
    order = sorted(range(M), key=lambda i: (-ratings[i], models[i]))
    out = [
        {
            "model": str(models[i]),
            "rating": float(ratings[i]),
            "ci": [float(low[i]), float(high[i])] if rounds > 0 else None,
            "battles": int(played[i]),
        }
        for i in order
    ]
    print(json.dumps({"ratings": out, "load_ms": load_ms, "compute_ms": compute_ms, "wins_a": float(wa.sum())}))


if __name__ == "__main__":
    main()
