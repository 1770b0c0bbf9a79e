#!/usr/bin/python3
"""The finite-T bulk edge against simulation (model.md 5.5; theory/finite_t_bulk.hpp).

For T = 10, prefix:3, delta = 0.5, gamma = 0.25, no signal, this draws sequences exactly as model.md 1-2
describes (numpy's generator, not rmtsweep's, so the draws are independent of the C++ code), forms the
centred S = (1/N) sum_n (c_n - cbar)(c_n - cbar)^T of pooled noise vectors c_n = sum_t w_t z_{v_{n,t}}, and
records its largest eigenvalue. From the SAME draw of tokens it computes tau = eig(A (I - 11^T/N) A^T / N)
and the finite-T edge min_g z(g), z(g) = -d/g + sum tau/(1 + tau g) (an independent implementation of
token_gram_spectrum, with the table directions 1 and s projected out, and of finite_t_edge), so simulation and finite-T theory are paired per trial. The paper's edge kappa u(psi_+) and
the C++ finite-T edge (`rmtsweep theory --bulk finite-T --json`, trial 0 of rmtsweep's own draws) are
printed beside them.

Usage: finite_t_validation.py RMTSWEEP_BINARY [d1,d2,...] [trials per d, comma list]
Output: one row per (d, weighting): T_eff, trials, mean and standard error of lambda_1, mean finite-T edge
(python, paired), C++ finite-T edge (trial 0), paper edge, relative biases.
"""
import json
import subprocess
import sys
import numpy as np

T, L, DELTA, GAMMA = 10, 3, 0.5, 0.25
WEIGHTINGS = {
    "last": "last",
    "custom2": "custom:0,0,0,0,0,0,0,0,1,1",
    "custom3": "custom:0,0,0,0,0,0,0,1,1,1",
    "mean": "mean",
}


def weights(name):
    if name == "last":
        w = np.zeros(T); w[-1] = 1.0
    elif name == "mean":
        w = np.full(T, 1.0 / T)
    else:
        w = np.array([float(x) for x in name.split(":")[1].split(",")]); w /= w.sum()
    return w


def draw_tokens(rng, N, V):
    y = rng.choice([1, -1], size=N)
    xi = rng.choice([1, -1], size=(N, T))
    xi[:, :L] = y[:, None]
    u = rng.integers(0, V // 2, size=(N, T))
    return np.where(xi > 0, u, V // 2 + u)


def tau_of(w, tokens, V):
    N = tokens.shape[0]
    rows, cols, vals = [], [], []
    for t in np.nonzero(w)[0]:
        rows.append(tokens[:, t]); cols.append(np.arange(N)); vals.append(np.full(N, w[t]))
    A = np.zeros((V, N))
    np.add.at(A, (np.concatenate(rows), np.concatenate(cols)), np.concatenate(vals))
    b = A.sum(axis=1)
    M = (A @ A.T - np.outer(b, b) / N) / N
    # Remove the table directions 1 and s (class signs), as token_gram_spectrum does: along s the class-mean
    # noise is part of the spike theta = g (snr + delta), not of the bulk.
    U = np.stack([np.ones(V), np.where(np.arange(V) < V // 2, 1.0, -1.0)], axis=1) / np.sqrt(V)
    MU = M @ U
    M = M - U @ MU.T - MU @ U.T + U @ (U.T @ MU) @ U.T
    return np.clip(np.linalg.eigvalsh(M), 0.0, None), A


def edge_of(tau, d):
    tau = tau[tau > 0]
    tmax = tau.max(); r = tau / tmax
    lo, hi = 0.0, 1.0
    for _ in range(200):
        mid = 0.5 * (lo + hi)
        if mid <= lo or mid >= hi:
            break
        slope = d / mid**2 - np.sum(r**2 / (1 - mid * r) ** 2)
        lo, hi = (mid, hi) if slope > 0 else (lo, mid)
    g = -0.5 * (lo + hi) / tmax
    return -d / g + np.sum(tau / (1 + tau * g))


def top_eigenvalue(rng, A, d):
    V, N = A.shape
    Z = rng.standard_normal((d, V))
    C = Z @ A
    C -= C.mean(axis=1, keepdims=True)
    return np.linalg.eigvalsh(C @ C.T / N)[-1]


def cpp_edges(binary, d, weighting):
    out = subprocess.run([binary, "theory", "--json", "--bulk", "finite-T", "--d", str(d), "--snr", "0",
                          "--weighting", weighting, "--correlation", f"prefix:{L}", "--delta", str(DELTA),
                          "--gamma", str(GAMMA)], check=True, capture_output=True, text=True).stdout
    j = json.loads(out)
    return j["finite_t_bulk_edge_right"], j["bulk_edge_right"], j["effective_tokens"]


def main():
    binary = sys.argv[1]
    ds = [int(x) for x in (sys.argv[2] if len(sys.argv) > 2 else "400,1000,2000").split(",")]
    trials = [int(x) for x in (sys.argv[3] if len(sys.argv) > 3 else "16,6,3").split(",")]
    rng = np.random.default_rng(955)
    print("# d weighting T_eff trials lambda1_mean lambda1_se finiteT_edge_py(paired) finiteT_edge_cpp(trial0) "
          "paper_edge lambda1/paper-1 lambda1/finiteT-1 finiteT/paper-1")
    for d, n_trials in zip(ds, trials):
        V, N = 2 * round(d / (2 * DELTA)), round(d / GAMMA)
        for name, weighting in WEIGHTINGS.items():
            w = weights(weighting)
            tops, edges = [], []
            for _ in range(n_trials):
                tau, A = tau_of(w, draw_tokens(rng, N, V), V)
                edges.append(edge_of(tau, d))
                tops.append(top_eigenvalue(rng, A, d))
            cpp_edge, paper, teff = cpp_edges(binary, d, weighting)
            lam, se, fe = np.mean(tops), np.std(tops, ddof=1) / np.sqrt(n_trials), np.mean(edges)
            print(f"{d} {name} {teff:.3g} {n_trials} {lam:.5g} {se:.2g} {fe:.5g} {cpp_edge:.5g} {paper:.5g} "
                  f"{lam / paper - 1:+.4f} {lam / fe - 1:+.4f} {fe / paper - 1:+.4f}", flush=True)


if __name__ == "__main__":
    main()
