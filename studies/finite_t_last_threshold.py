#!/usr/bin/python3
"""`last` pooling's finite-T sample threshold against d, up to d = 10^6 (docs/finite_t.md, "No large-d
threshold for one token").

For each d, `rmtsweep theory --bulk finite-T --json --weighting last` on trials 0..n-1 (the closed form from the
token counts: about two seconds at d = 10^6) gives the threshold in snr, the finite-T right edge and, from the
same draws, the largest token count at the pooled position is what sets both (printed beside them as the
expected maximum of V Poisson(N/V) counts, a property of the draws, not of the theory). The paper's threshold
(model.md 5.2) does not depend on d.

Usage: finite_t_last_threshold.py RMTSWEEP_BINARY OUT.png [table iid|centered] [delta] [gamma]
Output: a markdown table on stdout and the figure OUT.png.
"""
import json
import math
import subprocess
import sys

import numpy as np

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

SIZES = [(1000, 16), (1500, 16), (3000, 16), (10000, 16), (30000, 8), (100000, 8), (300000, 4), (1000000, 4)]


def theory(binary, d, trial, table, delta, gamma):
    args = [binary, "theory", "--bulk", "finite-T", "--json", "--weighting", "last", "--d", str(d), "--trial",
            str(trial), "--table", table, "--delta", str(delta), "--gamma", str(gamma), "--snr", "0"]
    return json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)


def expected_max_count(V, rate):
    """E[max of V iid Poisson(rate)] = sum_k (1 - P(X < k)^V), k >= 1."""
    total, cdf, pmf, k = 0.0, 0.0, math.exp(-rate), 0
    while True:
        cdf += pmf  # P(X <= k)
        k += 1
        term = 1.0 - cdf ** V
        total += term
        if term < 1e-12:
            return total
        pmf *= rate / k


def main():
    binary, out = sys.argv[1], sys.argv[2]
    table = sys.argv[3] if len(sys.argv) > 3 else "iid"
    delta = float(sys.argv[4]) if len(sys.argv) > 4 else 0.5
    gamma = float(sys.argv[5]) if len(sys.argv) > 5 else 0.25
    rows = []
    print(f"# last pooling, table = {table}, delta = {delta}, gamma = {gamma}: finite-T threshold in snr (trial mean"
          " +- sd), its range, the finite-T edge over the paper's, and E[largest token count]")
    print("| d | trials | finite-T threshold | min - max | paper's | finite-T edge / paper's - 1 | "
          "E[max count] (N/V = " + f"{delta / gamma:g}) |")
    print("|---|---|---|---|---|---|---|")
    for d, trials in SIZES:
        out_json = [theory(binary, d, t, table, delta, gamma) for t in range(trials)]
        thr = np.array([o["finite_t"]["threshold_snr"] for o in out_json])
        edge = np.array([o["finite_t"]["bulk_edge_right"] for o in out_json])
        paper, paper_edge = out_json[0]["sample_threshold_snr"], out_json[0]["bulk_edge_right"]
        V = 2 * round(d / (2 * delta))
        rows.append((d, thr.mean(), thr.std(ddof=1), thr.min(), thr.max(), paper))
        print(f"| {d:g} | {trials} | {thr.mean():.3f} ± {thr.std(ddof=1):.3f} | {thr.min():.3f} - {thr.max():.3f} | "
              f"{paper:.3f} | {edge.mean() / paper_edge - 1:+.1%} | {expected_max_count(V, delta / gamma):.2f} |",
              flush=True)
    d = np.array([r[0] for r in rows], dtype=float)
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    ax.errorbar(d, [r[1] for r in rows], yerr=[r[2] for r in rows], fmt="o-", capsize=3,
                label="finite-T threshold (trial mean ± sd)")
    ax.fill_between(d, [r[3] for r in rows], [r[4] for r in rows], alpha=0.2, label="range over the trials")
    ax.axhline(rows[0][5], color="black", ls="--", label="paper's threshold (model.md 5.2)")
    ax.set_xscale("log")
    ax.set_xlabel("d")
    ax.set_ylabel("sample threshold in snr")
    ax.set_title(f"`last` pooling: no large-d threshold\nδ = {delta:g}, γ = {gamma:g}, table = {table}", fontsize=10)
    ax.grid(alpha=0.3)
    ax.legend(fontsize=8)
    fig.tight_layout()
    fig.savefig(out, dpi=110)


if __name__ == "__main__":
    main()
