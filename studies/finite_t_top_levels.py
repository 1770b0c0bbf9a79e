#!/usr/bin/python3
"""The finite-T overlap of `last` pooling at finite d, with its top levels kept exactly, against the simulated
one and the d -> infinity finite-T overlap (docs/finite_t.md, "A finite-d model of the top levels").

The sweep stores both beside each point: theory_finite_t_overlap (the limit given the tokens) and
theory_finite_t_levels_overlap (theory/finite_t_top_levels.hpp: the k largest directions of Pi exact, the
rest by the limit, the mean over the model's seeded draws). Per cell (d, delta, gamma, snr): the paper's, both
finite-T and the simulated trial means, the paired differences simulated - finite-T and simulated - levels over
the trials with their z, and in how many trials the finite-T outlier exists; for files with many snr per line,
the same binned by x = snr - the trial's own finite-T threshold (as studies/finite_t_transition_window.py).

Usage: finite_t_top_levels.py FILE.h5 [FILE.h5 ...]
Output: markdown tables on stdout.
"""
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import rmtsweep  # noqa: E402  (python/rmtsweep: the files' readers)

BINS = [-1.0, -0.4, -0.2, -0.1, 0.0, 0.1, 0.2, 0.4, 0.7, 1.0]


def se(v):
    return v.std(ddof=1) / np.sqrt(len(v))


def study(path):
    cfg = rmtsweep.read_config(path)
    with h5py.File(path, "r") as f:
        p = f["points"]
        c = {n: p[n][:] for n in ("d", "delta", "gamma", "snr", "trial", "status", "overlap", "theory_overlap",
                                  "theory_finite_t_overlap", "theory_finite_t_threshold_snr",
                                  "theory_finite_t_levels_overlap", "theory_finite_t_levels_overlap_error")}
    ok = (c["status"] == 1) & np.isfinite(c["theory_finite_t_levels_overlap"])
    sim, ft, lv = c["overlap"], c["theory_finite_t_overlap"], c["theory_finite_t_levels_overlap"]
    print(f"\n{path}: table = {cfg['table']}, correlation = {cfg['correlation']}, seed = {cfg['seed']}; "
          f"median standard error of a point's levels overlap {np.median(c['theory_finite_t_levels_overlap_error'][ok]):.4f}\n")
    print("| d | delta | gamma | snr | trials | paper | finite-T | finite-T, levels | simulated | "
          "sim - finite-T (z) | sim - levels (z) | closer: levels or paper | finite-T detects |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    cells = sorted({(int(d), float(x), float(g), float(s)) for d, x, g, s in
                    zip(c["d"][ok], c["delta"][ok], c["gamma"][ok], c["snr"][ok])})
    for d, delta, gamma, snr in cells:
        m = ok & (c["d"] == d) & (c["delta"] == delta) & (c["gamma"] == gamma) & (c["snr"] == snr)
        a, b = sim[m] - ft[m], sim[m] - lv[m]
        detects = int((c["theory_finite_t_threshold_snr"][m] < snr).sum())
        off_levels, off_paper = abs(lv[m].mean() - sim[m].mean()), abs(c["theory_overlap"][m].mean() - sim[m].mean())
        closer = "tie" if abs(off_levels - off_paper) < 5e-4 else ("levels" if off_levels < off_paper else "paper")
        print(f"| {d} | {delta:g} | {gamma:g} | {snr:g} | {m.sum()} | {c['theory_overlap'][m].mean():.3f} | "
              f"{ft[m].mean():.3f} | {lv[m].mean():.3f} | {sim[m].mean():.3f} ± {se(sim[m]):.3f} | "
              f"{a.mean():+.3f} ({a.mean() / se(a):+.1f}) | {b.mean():+.3f} ({b.mean() / se(b):+.1f}) | {closer} | "
              f"{detects}/{m.sum()} |")
    if len(np.unique(c["snr"][ok])) < 12:
        return
    x = c["snr"] - c["theory_finite_t_threshold_snr"]
    print("\n| d | x = snr − own threshold | trials | sim − finite-T (z) | sim − levels (z) |")
    print("|---|---|---|---|---|")
    for lo, hi in zip(BINS[:-1], BINS[1:]):
        m = ok & (x >= lo) & (x < hi)
        trials = np.unique(c["trial"][m])
        if len(trials) < 4:
            continue
        per = lambda v: np.array([v[m & (c["trial"] == t)].mean() for t in trials])  # noqa: E731
        a, b = per(sim - ft), per(sim - lv)
        print(f"| {int(c['d'][ok][0])} | [{lo:+.1f}, {hi:+.1f}) | {len(trials)} | "
              f"{a.mean():+.3f} ± {se(a):.3f} ({a.mean() / se(a):+.1f}) | "
              f"{b.mean():+.3f} ± {se(b):.3f} ({b.mean() / se(b):+.1f}) |")


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    for path in sys.argv[1:]:
        study(path)


if __name__ == "__main__":
    main()
