#!/usr/bin/python3
"""One point of model.md computed the way a researcher would write it in numpy.

The reference the C++ engine is benchmarked against (issue "Performance"): the same outputs as
`rmtsweep point` (top eigenvalues, overlap with u, ridge accuracy) for `table = iid`,
`correlation = prefix:L`, `weighting = mean`, vectorised over sequences:

  table E (V x d), tokens and signs (N x T), pooled C (N x d) = sum_t w_t E[tok[:, t]],
  centred covariance S = Cc^T Cc / N, numpy.linalg.eigh(S), overlap |u_j^T u|^2 with u = e_1,
  ridge beta = solve(S + lambda I, Cc^T y / N) tested on N fresh sequences of the same table.

Prints one JSON object: stage seconds (of the fastest of --reps runs in this process, as the C++
bench does), peak memory (getrusage ru_maxrss, over all runs) and the outputs.
Threads: set OPENBLAS_NUM_THREADS in the environment (numpy's BLAS reads it at import).
"""
import argparse
import ctypes
import json
import os
import resource
import time

import numpy as np


def sequences(rng, table, n, T, L, weights):
    """Signs (prefix:L), labels, tokens drawn in the sign's class, pooled vectors (model.md 1.2)."""
    V = table.shape[0]
    y = rng.choice(np.array([-1, 1], dtype=np.int8), size=n)
    xi = rng.choice(np.array([-1, 1], dtype=np.int8), size=(n, T))
    xi[:, :L] = y[:, None]
    tokens = rng.integers(0, V // 2, size=(n, T)) + np.where(xi > 0, 0, V // 2)
    pooled = np.zeros((n, table.shape[1]))
    for t in range(T):
        pooled += weights[t] * table[tokens[:, t]]
    return pooled, y


def openblas_core():
    try:
        lib = ctypes.CDLL("libopenblas.so.0")
        lib.openblas_get_corename.restype = ctypes.c_char_p
        return lib.openblas_get_corename().decode()
    except OSError:
        return "unknown"


def one_point(args):
    """The point once: (stage seconds, top eigenvalues, overlaps, ridge accuracy, V, N)."""
    d, T = args.d, args.T
    V = 2 * round(d / (2 * args.delta))
    N = round(d / args.gamma)
    weights = np.full(T, 1.0 / T)
    kappa = float(weights @ weights)
    seconds = {}
    start = time.perf_counter()

    t0 = time.perf_counter()
    rng = np.random.default_rng(args.seed)
    classes = np.where(np.arange(V) < V // 2, 1.0, -1.0)
    table = rng.standard_normal((V, d))
    table[:, 0] += np.sqrt(args.snr) * classes
    C, y = sequences(rng, table, N, T, args.L, weights)
    seconds["generate"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    mean = C.mean(axis=0)
    C -= mean
    S = (C.T @ C) / N
    seconds["covariance"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    eigenvalues, vectors = np.linalg.eigh(S)
    top = eigenvalues[::-1][: args.k]
    overlaps = vectors[0, ::-1][: args.k] ** 2
    seconds["eigen"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    beta = np.linalg.solve(S + args.ridge * kappa * np.eye(d), C.T @ y / N)
    C_test, y_test = sequences(rng, table, N, T, args.L, weights)
    accuracy = float(np.mean(np.sign((C_test - mean) @ beta) == y_test))
    seconds["ridge"] = time.perf_counter() - t0
    seconds["total"] = time.perf_counter() - start

    return seconds, top, overlaps, accuracy, V, N


def point_parser(description):
    """The options of one benchmark point (the same for numpy_reference.py and scipy_krylov_reference.py)."""
    parser = argparse.ArgumentParser(description=description)
    parser.add_argument("--d", type=int, default=1000)
    parser.add_argument("--delta", type=float, default=0.5)
    parser.add_argument("--gamma", type=float, default=0.25)
    parser.add_argument("--T", type=int, default=10)
    parser.add_argument("--L", type=int, default=3, help="prefix length of correlation prefix:L")
    parser.add_argument("--snr", type=float, default=1.0)
    parser.add_argument("--k", type=int, default=4)
    parser.add_argument("--ridge", type=float, default=0.1)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--reps", type=int, default=1,
                        help="compute the point this many times in this process; report the fastest")
    return parser


def main():
    args = point_parser(__doc__.splitlines()[0]).parse_args()
    runs = [one_point(args) for _ in range(max(1, args.reps))]
    seconds, top, overlaps, accuracy, V, N = min(runs, key=lambda run: run[0]["total"])
    d, T = args.d, args.T

    print(json.dumps({
        "kind": "numpy_point", "d": d, "delta": args.delta, "gamma": args.gamma, "T": T,
        "V": V, "N": N, "threads": int(os.environ.get("OPENBLAS_NUM_THREADS", "0")),
        "blas_core": openblas_core(), "numpy": np.__version__,
        "seconds": seconds,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0,
        "top_eigenvalues": top.tolist(), "overlaps": overlaps.tolist(),
        "ridge_accuracy": accuracy,
    }))


if __name__ == "__main__":
    main()
