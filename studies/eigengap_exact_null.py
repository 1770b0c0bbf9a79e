#!/usr/bin/python3
"""The eigengap rule's false-detection rate under the exact snr = 0 law of a point, without rmtsweep.

At snr = 0, S = Z (M/N) Z^T with Z the d x V table noise and M the centred token Gram of the pooling weights
(include/rmtsweep/theory/finite_t_bulk.hpp); Z is Gaussian and independent of the tokens, so given the tokens S
has exactly the law of sum_v tau_v z_v z_v^T, tau the eigenvalues of M/N. With the `iid` table tau keeps the
class direction s (the class-mean noise of model.md 5.2, a spike of strength g delta); with `centered` the
table's projection removes the directions 1 and s, as the table does to Z. One token draw per weighting
(same law as the simulation's draws, not the same numbers), then `draws` independent Gaussian Z: the fraction
with R = (l1 - l2)/(l2 - l3) above the critical value, and R's 95 % point. Independent of any sweep's trials,
so it measures the rule's level without the 64-trial binomial noise (sd 2.7 % at 5 %).

T = 10, prefix:3, delta = 0.5, gamma = 0.25 (the detection tables' point).
Also G_9 = (l1 - l2)/mean(l2 - l3, ..., l9 - l10) (studies/calibrate_eigengap.py) against its own critical value.
Usage: eigengap_exact_null.py d draws critical_value_R critical_value_G9 [seed] [table:weighting,...]
"""
import sys
import numpy as np
from scipy.linalg import eigh

T, L, DELTA, GAMMA = 10, 3, 0.5, 0.25


def weights(name):
    if name == 'mean':
        w = np.ones(T)
    elif name == 'last':
        w = np.zeros(T); w[-1] = 1
    elif name == 'optimal':
        w = np.zeros(T); w[:L] = 1
    elif name == 'harmonic':
        h = np.concatenate([[0], np.cumsum(1 / np.arange(1, T + 1))])
        w = h[T - 1] - h[np.arange(T)]
    return w / w.sum()


def token_gram_spectrum(rng, d, name, table):
    V, N, w = 2 * round(d / (2 * DELTA)), round(d / GAMMA), weights(name)
    y = rng.choice([-1, 1], N)
    xi = rng.choice([-1, 1], (N, T)); xi[:, :L] = y[:, None]
    tokens = rng.integers(0, V // 2, (N, T)) + np.where(xi > 0, 0, V // 2)
    A = np.zeros((V, N))
    for t in range(T):
        if w[t] != 0:
            np.add.at(A, (tokens[:, t], np.arange(N)), w[t])
    A -= A.mean(1, keepdims=True)  # S is the centred covariance
    if table == 'centered':
        s, one = np.where(np.arange(V) < V // 2, 1.0, -1.0), np.ones(V)
        A -= np.outer(one, one @ A) / V + np.outer(s, s @ A) / V
    return np.clip(np.linalg.eigvalsh(A @ A.T / N), 0, None)


def main():
    d, draws, crit, crit9 = int(sys.argv[1]), int(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
    rng = np.random.default_rng(int(sys.argv[5]) if len(sys.argv) > 5 else 1)
    lines = [(t, w) for t in ('iid', 'centered') for w in ('mean', 'harmonic', 'optimal', 'last')]
    if len(sys.argv) > 6:
        lines = [tuple(x.split(':')) for x in sys.argv[6].split(',')]
    print(f"# d = {d}, {draws} draws per line, critical values R {crit}, G_9 {crit9}")
    print("# table weighting false_detection_R se q95_R false_detection_G9 se")
    for table, name in lines:
        root_tau = np.sqrt(token_gram_spectrum(rng, d, name, table))
        r, g9 = np.empty(draws), np.empty(draws)
        for k in range(draws):
            x = rng.standard_normal((d, len(root_tau))) * root_tau
            l = eigh(x @ x.T, eigvals_only=True, subset_by_index=[d - 10, d - 1])[::-1]
            gap = l[:-1] - l[1:]
            r[k], g9[k] = gap[0] / gap[1], gap[0] / np.mean(gap[1:9])
        fa, fa9 = np.mean(r > crit), np.mean(g9 > crit9)
        print(f"{table} {name} {fa:.4f} {np.sqrt(fa * (1 - fa) / draws):.4f} {np.quantile(r, 0.95):.3f} "
              f"{fa9:.4f} {np.sqrt(fa9 * (1 - fa9) / draws):.4f}", flush=True)


if __name__ == "__main__":
    main()
