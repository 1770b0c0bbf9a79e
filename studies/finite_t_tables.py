#!/usr/bin/python3
"""The paper's, the finite-T and the simulated top eigenvalue and overlap, per cell of sweep files
(docs/finite_t.md, "Against simulation").

For every done cell (weighting, d, delta, gamma, snr) of each file: the paper's prediction (/points theory_*),
the trial mean of the finite-T predictions of the trials' own token draws (/points theory_finite_t_*; where a
sweep did not compute them, e.g. mean pooling, `rmtsweep theory --bulk finite-T --json` is run for each trial
and snr when a binary is given), and the simulated trial mean with its standard error. The last columns are
the paired differences simulated - finite-T over the trials (mean and standard error: the same draws enter
both, so the trial-to-trial scatter of the token draws cancels) and their ratio z, which prediction lies
closer to the simulated overlap (a tie within 5e-4), and in how many trials the finite-T outlier exists.

Usage: finite_t_tables.py [--binary RMTSWEEP] FILE.h5 [FILE.h5 ...]
Output: one markdown table per file.
"""
import argparse
import json
import os
import subprocess
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import rmtsweep  # noqa: E402  (python/rmtsweep: the files' readers)


def text(values):
    return [v.decode() if isinstance(v, bytes) else v for v in values]


def finite_t_by_cli(binary, cfg, weighting, d, delta, gamma, snr, trial):
    args = [binary, "theory", "--bulk", "finite-T", "--json", "--snr", repr(snr), "--trial", str(trial),
            "--d", str(d), "--delta", repr(delta), "--gamma", repr(gamma), "--weighting", weighting]
    for key in ("T", "correlation", "table", "seed"):
        args += ["--" + key, str(cfg[key])]
    out = json.loads(subprocess.run(args, capture_output=True, text=True, check=True).stdout)["finite_t"]
    return out["top_eigenvalue"], out["overlap"]


def table(path, binary):
    cfg = rmtsweep.read_config(path)
    with h5py.File(path, "r") as f:
        p = f["points"]
        cols = {name: p[name][:] for name in ("weighting_index", "d", "delta", "gamma", "snr", "trial", "status",
                                              "top_eigenvalue", "overlap", "theory_top_eigenvalue", "theory_overlap")}
        for name in ("theory_finite_t_top_eigenvalue", "theory_finite_t_overlap"):
            cols[name] = p[name][:] if name in p else np.full(len(cols["status"]), np.nan)
        weightings = text(f["grid/weighting"][:])
    done = cols["status"] == 1
    keys = sorted({(int(w), int(d), float(x), float(g), float(s)) for w, d, x, g, s in
                   zip(cols["weighting_index"][done], cols["d"][done], cols["delta"][done], cols["gamma"][done],
                       cols["snr"][done])})
    print(f"\n{path}: table = {cfg['table']}, correlation = {cfg['correlation']}, seed = {cfg['seed']}\n")
    print("| weighting | d | delta | gamma | snr | trials | lambda paper | finite-T | simulated | overlap paper | "
          "finite-T | simulated | sim - finite-T: lambda (z) | overlap (z) | closer | finite-T detects |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for w, d, delta, gamma, snr in keys:
        sel = done & (cols["weighting_index"] == w) & (cols["d"] == d) & (cols["delta"] == delta) & \
              (cols["gamma"] == gamma) & (cols["snr"] == snr)
        n = int(sel.sum())
        lam, ov = cols["top_eigenvalue"][sel], cols["overlap"][sel]
        ft_lam, ft_ov = cols["theory_finite_t_top_eigenvalue"][sel], cols["theory_finite_t_overlap"][sel]
        if np.isnan(ft_lam).any() and binary:
            pairs = [finite_t_by_cli(binary, cfg, weightings[w], d, delta, gamma, snr, int(t))
                     for t in cols["trial"][sel]]
            ft_lam, ft_ov = np.array([x for x, _ in pairs]), np.array([y for _, y in pairs])
        paper_lam, paper_ov = cols["theory_top_eigenvalue"][sel][0], cols["theory_overlap"][sel][0]

        def mean_se(x):
            return x.mean(), x.std(ddof=1) / np.sqrt(len(x))

        lm, ls = mean_se(lam)
        om, os_ = mean_se(ov)
        dl, dls = mean_se(lam - ft_lam)
        do, dos = mean_se(ov - ft_ov)
        gap_ft, gap_paper = abs(om - ft_ov.mean()), abs(om - paper_ov)
        closer = "tie" if abs(gap_ft - gap_paper) < 5e-4 else "finite-T" if gap_ft < gap_paper else "paper"
        print(f"| {weightings[w]} | {d} | {delta:g} | {gamma:g} | {snr:.3g} | {n} | {paper_lam:.4f} | "
              f"{ft_lam.mean():.4f} | {lm:.4f} ± {ls:.4f} | {paper_ov:.3f} | {ft_ov.mean():.3f} | "
              f"{om:.3f} ± {os_:.3f} | {dl:+.4f} ({dl / dls if dls > 0 else 0:+.1f}) | "
              f"{do:+.3f} ({do / dos if dos > 0 else 0:+.1f}) | {closer} | {int((ft_ov > 0).sum())}/{n} |")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--binary", help="rmtsweep, to compute finite-T where the sweep did not store it")
    parser.add_argument("files", nargs="+")
    args = parser.parse_args()
    for path in args.files:
        table(path, args.binary)


if __name__ == "__main__":
    main()
