#!/usr/bin/python3
"""Critical values of eigengap statistics under the null of no spike, from exact draws of real Wishart spectra.

Statistics, from the top eigenvalues l1 >= l2 >= ... (gaps g_j = l_j - l_{j+1}):
  R    = g_1 / g_2, Onatski's ratio (2009, Econometrica 77(5), 1447-1479; k0 = 0, k1 = 1), three eigenvalues;
  G_m  = g_1 / mean(g_2, ..., g_m), m >= 2, the first gap over the mean of the next m - 1 gaps (m + 1
         eigenvalues; G_2 = R). The denominator is a sum of gaps, so it is rarely tiny, and the null law of
         G_m has a much lighter upper tail than R's: its 95 % point is known more precisely from the same
         draws and a spike needs a smaller first gap to pass it. Like R it is scale and shift free, and its
         null law is a function of the joint law of the top m + 1 eigenvalues, which at a soft edge is
         universal (Tracy-Widom, beta = 1 for real data) as d grows.

The null is a plain Wishart matrix X X^T (X: d x n Gaussian, n = d/gamma). Its eigenvalues have exactly the
law of the beta-Laguerre ensemble, which Dumitriu & Edelman (2002, J. Math. Phys. 43, 5830) realise as
B B^T with B lower bidiagonal: diagonal chi_{beta n}, chi_{beta (n-1)}, ..., chi_{beta (n-d+1)}, subdiagonal
chi_{beta (d-1)}, ..., chi_beta. Only the top ten eigenvalues of that tridiagonal matrix are needed, so a
draw costs O(d). beta = 1 is real data (rmtsweep's case); beta = 2 is complex data, the case of Onatski's
Table I (95 % value of R 4.52), which this script reproduces as a check of the generator.

Output: one line per (beta, gamma, d, statistic) with the 90, 95, 99 % quantiles and the Monte-Carlo standard
error of the 95 % one (bootstrap, 200 resamples).
Usage: calibrate_eigengap.py [reps] [seed] [beta:gamma:d,...]
"""
import sys
import numpy as np
from scipy.linalg import eigvalsh_tridiagonal

TOP = 10  # eigenvalues per draw: G_m for m = 2..9


def top_eigenvalues(rng, d, n, beta, k=TOP):
    a = np.sqrt(rng.chisquare(beta * (n - np.arange(d))))          # diagonal of B
    b = np.sqrt(rng.chisquare(beta * (d - 1 - np.arange(d - 1))))  # subdiagonal of B
    diag = a * a
    diag[1:] += b * b
    off = a[:-1] * b
    return eigvalsh_tridiagonal(diag, off, select='i', select_range=(d - k, d - 1))[::-1]


def gap_statistics(top):
    """G_m for m = 2..len(top)-1 (G_2 = Onatski's R) from descending eigenvalues."""
    g = top[:-1] - top[1:]
    return {m: g[0] / np.mean(g[1:m]) for m in range(2, len(top))}


def main():
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 10000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 20091
    rng = np.random.default_rng(seed)
    print("# beta gamma d reps statistic q90 q95 q99 se95   (statistic m: G_m; m = 2 is Onatski's R)")
    cases = [(1, 0.25, d) for d in (100, 200, 400, 800, 1600, 3200)]
    if len(sys.argv) > 3:
        cases = [(int(b), float(g), int(d)) for b, g, d in (c.split(":") for c in sys.argv[3].split(","))]
    for beta, gamma, d in cases:
        n = int(round(d / gamma))
        stats = {}
        for _ in range(reps):
            for m, v in gap_statistics(top_eigenvalues(rng, d, n, beta)).items():
                stats.setdefault(m, []).append(v)
        for m, v in stats.items():
            v = np.array(v)
            q = np.quantile(v, [0.90, 0.95, 0.99])
            boot = [np.quantile(rng.choice(v, reps), 0.95) for _ in range(200)]
            print(f"{beta} {gamma:g} {d} {reps} {m} {q[0]:.3f} {q[1]:.3f} {q[2]:.3f} {np.std(boot):.3f}", flush=True)


if __name__ == "__main__":
    main()
