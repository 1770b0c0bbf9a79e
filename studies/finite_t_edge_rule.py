#!/usr/bin/python3
"""Why the finite_t_edge rule detected more than the edge rule for harmonic pooling (docs/finite_t.md).

For each weighting of a null sweep file (snr = 0 only; one d, delta, gamma), takes every trial's lambda_1 from
/points and that trial's own finite-T right edge from `rmtsweep theory --bulk finite-T --json` (the same token
draws: seed and trial from the file), and counts false detections, lambda_1 > edge (1 + c d^(-2/3)), against:
  paper   the paper's edge (model.md 5.1), the edge rule;
  trial0  trial 0's finite-T edge for every trial (what assemble did where T_eff is not small);
  own     each trial's own finite-T edge.
It also prints the spread of the trials' edges, the mean of (lambda_1/edge - 1) d^(2/3) (how far below its edge
lambda_1 sits, in Tracy-Widom units) and, for iid tables, the finite-T threshold in snr of the class-mean noise
(model.md 5.2: with iid tables the class means carry a spike of strength d/V even at snr = 0; a threshold just
above 0 means that spike is just subcritical, which lifts lambda_1 at finite d).

Usage: finite_t_edge_rule.py RMTSWEEP_BINARY FILE.h5 [margin c = 1]
Output: one row per weighting.
"""
import json
import os
import subprocess
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import rmtsweep  # noqa: E402  (python/rmtsweep: the files' readers)


def theory(binary, cfg, weighting, trial):
    args = [binary, "theory", "--bulk", "finite-T", "--json", "--snr", "0", "--trial", str(trial)]
    for key in ("d", "T", "delta", "gamma", "correlation", "table", "seed"):
        args += ["--" + key, str(cfg[key])]
    args += ["--weighting", weighting]
    return json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)


def main():
    binary, path = sys.argv[1], sys.argv[2]
    c = float(sys.argv[3]) if len(sys.argv) > 3 else 1.0
    cfg = rmtsweep.read_config(path)
    for key in ("d", "delta", "gamma"):
        if len(cfg[key]) != 1:
            sys.exit(f"{path}: {key} = {cfg[key]}; this study takes a sweep of one d, delta and gamma")
        cfg[key] = cfg[key][0]
    with h5py.File(path, "r") as f:
        points = f["points"]
        weightings = [w.decode() if isinstance(w, bytes) else w for w in f["grid/weighting"][:]]
        wi, trial = points["weighting_index"][:], points["trial"][:]
        top, snr, status = points["top_eigenvalue"][:], points["snr"][:], points["status"][:]
    d = cfg["d"]
    scale = 1.0 + c * d ** (-2.0 / 3.0)
    print(f"# {path}: d = {d}, delta = {cfg['delta']}, gamma = {cfg['gamma']}, table = {cfg['table']}, "
          f"seed = {cfg['seed']}, margin c = {c}")
    print("# weighting trials | false detections % (se): paper trial0 own | own edges: mean sd (relative) | "
          "trial 0 edge / paper - 1 | mean (l1/own - 1) d^(2/3) | finite-T threshold snr (mean, iid: the class-mean "
          "spike's distance from critical)")
    for w, name in enumerate(weightings):
        keep = (wi == w) & (snr == 0) & (status == 1)
        trials, lam = trial[keep], top[keep]
        out = [theory(binary, cfg, name, int(t)) for t in trials]
        own = np.array([o["finite_t"]["bulk_edge_right"] for o in out])
        thresholds = np.array([o["finite_t"]["threshold_snr"] for o in out])
        paper = out[0]["bulk_edge_right"]
        edge0 = own[list(trials).index(0)] if 0 in trials else np.nan
        n = len(lam)

        def rate(x):
            p = float(np.mean(x))
            return f"{100 * p:5.1f} ({100 * np.sqrt(p * (1 - p) / n):3.1f})"

        print(f"{name:12s} {n:4d} | {rate(lam > paper * scale)} {rate(lam > edge0 * scale)} "
              f"{rate(lam > own * scale)} | {own.mean():.5f} {own.std(ddof=1) / own.mean():.4f} | "
              f"{edge0 / paper - 1:+.4f} | {np.mean((lam / own - 1) * d ** (2 / 3)):+.3f} | "
              f"{thresholds.mean():.4f}")


if __name__ == "__main__":
    main()
