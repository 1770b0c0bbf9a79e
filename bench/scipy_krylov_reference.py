#!/usr/bin/python3
"""One point of model.md by a matrix-free Krylov method the way a researcher would write it in scipy.

The reference the C++ Krylov engine is benchmarked against: the same outputs as
`rmtsweep point` (top k eigenvalues, overlaps with u, ridge accuracy) for `table = iid`,
`correlation = prefix:L`, `weighting = mean`, with S never formed:

  table E (d x V), tokens and signs (N x T) generated vectorised as in bench/numpy_reference.py,
  A (V x N) sparse with sequence n's weights at its tokens (c_n = E a_n), and
  S x = E (A (A^T (E^T x)) / N - a-bar (a-bar^T E^T x)) as a scipy LinearOperator;
  eigsh(k, which='LA', tol=1e-10) for the top eigenpairs, overlap |u_j^T u|^2 with u = e_1,
  ridge (S + lambda I) beta = b by scipy.sparse.linalg.cg (rtol 1e-11), tested on N fresh sequences.

Prints one JSON object like numpy_reference.py, with the operator products of eigsh and cg.
Threads: set OPENBLAS_NUM_THREADS in the environment (numpy's BLAS reads it at import).
"""
import inspect
import json
import os
import resource
import sys
import time

import numpy as np
import scipy
import scipy.sparse as sp
import scipy.sparse.linalg as sla


sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from numpy_reference import openblas_core, point_parser  # noqa: E402  (the same options and BLAS report)


def sequences(rng, V, n, T, L):
    """Signs (prefix:L), labels, tokens drawn in the sign's class (model.md 1.2)."""
    y = rng.choice(np.array([-1, 1], dtype=np.int8), size=n)
    xi = rng.choice(np.array([-1, 1], dtype=np.int8), size=(n, T))
    xi[:, :L] = y[:, None]
    tokens = rng.integers(0, V // 2, size=(n, T)) + np.where(xi > 0, 0, V // 2)
    return tokens, y


def pooling_matrix(tokens, weights, V):
    """A (V x N): column n holds w_t at token v_{n,t} (repeated tokens add up)."""
    n, T = tokens.shape
    cols = np.repeat(np.arange(n), T)
    return sp.csc_matrix((np.tile(weights, n), (tokens.ravel(), cols)), shape=(V, n))


def one_point(args):
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
    table = rng.standard_normal((d, V))  # E, column v the embedding of token v
    table[0, :] += np.sqrt(args.snr) * classes
    tokens, y = sequences(rng, V, N, T, args.L)
    A = pooling_matrix(tokens, weights, V)
    At = A.T.tocsr()
    abar = np.asarray(A.mean(axis=1)).ravel()
    seconds["generate"] = time.perf_counter() - t0

    products = {"eigen": 0, "ridge": 0}
    stage = ["eigen"]

    def matvec(x):
        x = np.asarray(x).reshape(d, -1)
        products[stage[0]] += x.shape[1]
        u = table.T @ x
        w = A @ (At @ u) / N - np.outer(abar, abar @ u)
        return table @ w

    S = sla.LinearOperator((d, d), matvec=matvec, matmat=matvec, dtype=np.float64)
    t0 = time.perf_counter()
    values, vectors = sla.eigsh(S, k=args.k, which="LA", tol=1e-10)
    order = np.argsort(values)[::-1]
    top = values[order]
    overlaps = vectors[0, order] ** 2
    seconds["eigen"] = time.perf_counter() - t0

    t0 = time.perf_counter()
    stage[0] = "ridge"
    mean = table @ abar
    b = table @ (A @ y.astype(float) / N - abar * y.mean())
    lam = args.ridge * kappa
    shifted = sla.LinearOperator((d, d), matvec=lambda x: matvec(x).ravel() + lam * np.ravel(x), dtype=np.float64)
    tol_name = "rtol" if "rtol" in inspect.signature(sla.cg).parameters else "tol"
    beta, info = sla.cg(shifted, b, maxiter=10 * d, **{tol_name: 1e-11})
    test_tokens, y_test = sequences(rng, V, N, T, args.L)
    scores = (beta @ table)[test_tokens] @ weights - beta @ mean
    accuracy = float(np.mean(np.sign(scores) == y_test))
    seconds["ridge"] = time.perf_counter() - t0
    seconds["total"] = time.perf_counter() - start
    return seconds, top, overlaps, accuracy, V, N, products, info


def main():
    args = point_parser(__doc__.splitlines()[0]).parse_args()
    runs = [one_point(args) for _ in range(max(1, args.reps))]
    seconds, top, overlaps, accuracy, V, N, products, info = min(runs, key=lambda run: run[0]["total"])
    print(json.dumps({
        "kind": "scipy_krylov_point", "d": args.d, "delta": args.delta, "gamma": args.gamma, "T": args.T,
        "V": V, "N": N, "threads": int(os.environ.get("OPENBLAS_NUM_THREADS", "0")),
        "blas_core": openblas_core(), "numpy": np.__version__, "scipy": scipy.__version__,
        "seconds": seconds,
        "peak_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0,
        "products": products, "cg_info": int(info),
        "top_eigenvalues": top.tolist(), "overlaps": overlaps.tolist(),
        "ridge_accuracy": accuracy,
    }))


if __name__ == "__main__":
    main()
