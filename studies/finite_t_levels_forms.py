#!/usr/bin/python3
"""What the levels model's Gaussian forms cost as k grows (docs/finite_t.md, "How many directions").

theory/finite_t_top_levels.hpp draws the kept block Y^T R Y (Y: d x k iid N(0, 1), R = (z - S_R)^(-1)) as its
mean tr R I plus a symmetric Gaussian of the exact variances (2 tr R^2 on the diagonal, tr R^2 off it). The
exact block is sum_i r_i w_i w_i^T (w_i iid N(0, I_k)), whose third cumulant the Gaussian drops; its top
eigenvalue lies above the Gaussian's by about k tr R^3 / tr R^2 (for R = r I, r (d + 2 sqrt(dk) + k) against
r (d + 2 sqrt(dk))). Here R has S_R's spectrum a Marchenko-Pastur sample (d = 800, ratio 0.6) and z 5 % above
its top, 400 draws per k.

Usage: finite_t_levels_forms.py
Output: per k the exact and Gaussian top eigenvalue over tr R, their difference and k tr R^3/(tr R tr R^2).
"""
import numpy as np


def main():
    rng = np.random.default_rng(1)
    d, n, draws = 800, 1334, 400
    x = rng.standard_normal((d, n))
    mu = np.linalg.eigvalsh(x @ x.T / n)
    r = 1.0 / (1.05 * mu[-1] - mu)
    t, t2, t3 = r.sum(), (r ** 2).sum(), (r ** 3).sum()
    for k in (1, 3, 10, 20, 31):
        exact, gauss = [], []
        for _ in range(draws):
            w = rng.standard_normal((d, k))
            exact.append(np.linalg.eigvalsh(w.T @ (r[:, None] * w))[-1])
            g = rng.standard_normal((k, k))
            gauss.append(np.linalg.eigvalsh(t * np.eye(k) + np.sqrt(t2) * (g + g.T) / np.sqrt(2.0))[-1])
        exact, gauss = np.array(exact), np.array(gauss)
        error = np.hypot(exact.std(), gauss.std()) / np.sqrt(draws) / t
        print(f"k = {k:2d}: exact top / tr R {exact.mean() / t:.4f}, Gaussian {gauss.mean() / t:.4f}, "
              f"difference {(exact.mean() - gauss.mean()) / t:+.2%} (+- {error:.2%}), "
              f"k tr R^3 / (tr R tr R^2) {k * t3 / (t * t2):.2%}")


if __name__ == "__main__":
    main()
