#!/usr/bin/python3
"""Critical values of Onatski's eigengap statistic R = (l1 - l2)/(l2 - l3) under the null of no spike.

The null is a plain Wishart matrix X X^T (X: d x n Gaussian, n = d/gamma). Its eigenvalues have exactly the
law of the beta-Laguerre ensemble, which Dumitriu & Edelman (2002, J. Math. Phys. 43, 5830) realise as
B B^T with B lower bidiagonal: diagonal chi_{beta n}, chi_{beta (n-1)}, ..., chi_{beta (n-d+1)}, subdiagonal
chi_{beta (d-1)}, ..., chi_beta. Only the top three eigenvalues of that tridiagonal matrix are needed, so a
draw costs O(d) and 20000 draws take seconds to minutes. beta = 1 is real data (rmtsweep's case); beta = 2 is
complex data, the case of Onatski (2009, Econometrica 77(5), 1447-1479, Table I: 95 % value 4.52 for
k1 - k0 = 1), which this script reproduces as a check of the generator.

Output: one line per (beta, gamma, d) with the 90, 95, 99 % quantiles of R and the Monte-Carlo standard
error of the 95 % one (bootstrap). Usage: calibrate_eigengap.py [reps] [seed] [beta:gamma:d,...]
"""
import sys
import numpy as np
from scipy.linalg import eigvalsh_tridiagonal


def top_three(rng, d, n, beta):
    a = np.sqrt(rng.chisquare(beta * (n - np.arange(d))))          # diagonal of B
    b = np.sqrt(rng.chisquare(beta * (d - 1 - np.arange(d - 1))))  # subdiagonal of B
    diag = a * a
    diag[1:] += b * b
    off = a[:-1] * b
    return eigvalsh_tridiagonal(diag, off, select='i', select_range=(d - 3, d - 1))[::-1]


def main():
    reps = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 20091
    rng = np.random.default_rng(seed)
    print("# beta gamma d reps q90 q95 q99 se95")
    cases = [(1, 0.25, d) for d in (100, 200, 400, 800, 1600, 3200, 6400)]
    cases += [(1, 1.0, 400), (1, 0.0625, 400), (2, 0.25, 400), (2, 0.25, 3200)]
    if len(sys.argv) > 3:
        cases = [(int(b), float(g), int(d)) for b, g, d in (c.split(":") for c in sys.argv[3].split(","))]
    for beta, gamma, d in cases:
        n = int(round(d / gamma))
        r = np.empty(reps)
        for k in range(reps):
            l1, l2, l3 = top_three(rng, d, n, beta)
            r[k] = (l1 - l2) / (l2 - l3)
        q = np.quantile(r, [0.90, 0.95, 0.99])
        boot = [np.quantile(rng.choice(r, reps), 0.95) for _ in range(200)]
        print(f"{beta} {gamma:g} {d} {reps} {q[0]:.3f} {q[1]:.3f} {q[2]:.3f} {np.std(boot):.3f}", flush=True)


if __name__ == "__main__":
    main()
