#!/usr/bin/python3
"""Relative bias of the paper's bulk edge against the finite-T edge, as a function of T_eff.

For T = 10, prefix:3, delta = 0.5, gamma = 0.25 and k = 1..10 equal nonzero weights on the last k positions
(custom:0,...,0,1,...,1; T_eff = k), runs `rmtsweep theory --bulk finite-T --json` for a few trials (each
trial is an independent token draw, the simulation's own) and prints the mean and spread of
finite_t_bulk_edge_right / bulk_edge_right - 1. Also harmonic and optimal (non-equal weights).
Peaked weights custom:0,...,0,r,1 (T_eff = (1 + r)^2/(1 + r^2), between 1 and 2) fill the gap below 2.
Usage: finite_t_edge_bias.py RMTSWEEP_BINARY d1,d2,... trials1,trials2,... [weighting;weighting;...]
"""
import json
import subprocess
import sys
import numpy as np

T = 10


def run(binary, d, weighting, trial):
    out = subprocess.run([binary, "theory", "--json", "--bulk", "finite-T", "--d", str(d), "--snr", "0",
                          "--weighting", weighting, "--correlation", "prefix:3", "--trial", str(trial)],
                         check=True, capture_output=True, text=True).stdout
    j = json.loads(out)
    return j["effective_tokens"], j["finite_t_bulk_edge_right"] / j["bulk_edge_right"] - 1.0


def main():
    binary = sys.argv[1]
    ds = [int(x) for x in sys.argv[2].split(",")]
    trials = [int(x) for x in sys.argv[3].split(",")]
    weightings = ["custom:" + ",".join(["0"] * (T - k) + ["1"] * k) for k in range(1, T + 1)]
    weightings += ["custom:" + ",".join(["0"] * (T - 2) + [r, "1"]) for r in ("0.25", "0.5")]
    weightings += ["harmonic", "optimal"]
    if len(sys.argv) > 4:
        weightings = sys.argv[4].split(";")
    print("# d weighting T_eff trials mean(edge_finiteT/edge_paper - 1) std  d^(-2/3)")
    for d, n in zip(ds, trials):
        for w in weightings:
            res = [run(binary, d, w, t) for t in range(n)]
            teff = res[0][0]
            b = np.array([r[1] for r in res])
            sd = b.std(ddof=1) if n > 1 else float("nan")
            name = w
            if w.startswith("custom"):
                nonzero = [x for x in w[7:].split(",") if float(x) != 0]
                name = f"equal{len(nonzero)}" if len(set(nonzero)) == 1 else "peaked:" + ",".join(nonzero)
            print(f"{d} {name} {teff:.3f} {n} {b.mean():+.5f} {sd:.5f} {d ** (-2 / 3):.5f}", flush=True)


if __name__ == "__main__":
    main()
