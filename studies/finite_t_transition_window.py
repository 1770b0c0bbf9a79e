#!/usr/bin/python3
"""Where the finite-T overlap of `last` pooling misses the simulated one: the snr window around each trial's
own threshold, at several d (docs/finite_t.md, "The transition window of `last` pooling").

For every sweep file (one d each, one line per trial): each point's distance x = snr - snr_c of the
trial's own finite-T threshold (/points theory_finite_t_threshold_snr), binned. Per bin, over the trials
(each trial's points in the bin averaged first: trials are the independent units):
  - the simulated minus the finite-T overlap, its standard error and z;
  - the finite-T overlap, the simulated overlaps of the top three eigenvectors and the sum of all k stored;
  - lambda_1 and lambda_2 over the trial's finite-T bulk edge, and the finite-T outlier over that edge.
If the excess near x = 0 were the finite-d smoothing of a transition at a continuous bulk edge, it would
narrow with d (like d^(-1/3)) at a fixed x.
A third table asks whether a trial's excess follows where its own top level sits: per trial, lambda_1 over the
finite-T edge at the line's lowest snr (every trial below its threshold there: the top level of the bulk,
hardly lifted) against the trial's mean excess within |x| < 0.2, as a correlation over the trials and as the
mean excess of the trials whose top level lies lowest (below the median) and highest.

Usage: finite_t_transition_window.py FILE.h5 [FILE.h5 ...]
Output: two markdown tables on stdout.
"""
import sys

import h5py
import numpy as np

BINS = [-1.0, -0.4, -0.2, -0.1, 0.0, 0.1, 0.2, 0.4, 0.7, 1.0, 1.5]


def per_trial_mean(values, mask, trial):
    return np.array([values[mask & (trial == t)].mean() for t in np.unique(trial[mask])])


def level_against_excess(x, excess, eigen, edge, snr, trial):
    """Per trial: lambda_1 / edge at the lowest snr, and the mean excess within |x| < 0.2."""
    level, near = [], []
    for t in np.unique(trial):
        m = trial == t
        low = np.argmin(np.where(m, snr, np.inf))
        w = m & (np.abs(x) < 0.2)
        if not w.any() or x[low] >= 0:
            continue
        level.append(eigen[low, 0] / edge[low])
        near.append(excess[w].mean())
    return np.array(level), np.array(near)


def main(paths):
    rows_excess, rows_shares, rows_level = [], [], []
    for path in paths:
        p = h5py.File(path, "r")["points"]
        d = int(p["d"][0])
        done = p["status"][...] == 1
        x = p["snr"][...] - p["theory_finite_t_threshold_snr"][...]
        ft = p["theory_finite_t_overlap"][...]
        overlaps = p["overlaps"][...]
        eigen = p["top_eigenvalues"][...]
        edge = p["theory_finite_t_bulk_edge_right"][...]
        outlier = np.where(np.isfinite(p["theory_finite_t_top_eigenvalue"][...]),
                           p["theory_finite_t_top_eigenvalue"][...], edge)
        trial = p["trial"][...]
        ok = done & np.isfinite(x) & np.isfinite(ft)
        level, near = level_against_excess(np.where(ok, x, np.nan), overlaps[:, 0] - ft, eigen, edge,
                                           np.where(ok, p["snr"][...], np.inf), trial)
        r = np.corrcoef(level, near)[0, 1]
        low = level < np.median(level)
        se = lambda v: v.std(ddof=1) / np.sqrt(len(v))  # noqa: E731
        rows_level.append(f"| {d} | {len(level)} | {level.min():.3f}-{level.max():.3f} | {r:+.2f} | "
                          f"{r * np.sqrt((len(level) - 2) / (1 - r * r)):+.1f} | "
                          f"{near[low].mean():+.3f} ± {se(near[low]):.3f} | "
                          f"{near[~low].mean():+.3f} ± {se(near[~low]):.3f} |")
        for lo, hi in zip(BINS[:-1], BINS[1:]):
            m = ok & (x >= lo) & (x < hi)
            if m.sum() < 4:
                continue
            diff = per_trial_mean(overlaps[:, 0] - ft, m, trial)
            se = diff.std(ddof=1) / np.sqrt(len(diff))
            span = f"[{lo:+.1f}, {hi:+.1f})"
            rows_excess.append(f"| {d} | {span} | {len(diff)} | {m.sum()} | {diff.mean():+.3f} ± {se:.3f} | "
                               f"{diff.mean() / se:+.1f} |")
            if -0.4 <= lo and hi <= 0.7:
                mean = lambda v: per_trial_mean(v, m, trial).mean()  # noqa: E731
                rows_shares.append(
                    f"| {d} | {span} | {mean(ft):.3f} | {mean(overlaps[:, 0]):.3f} | {mean(overlaps[:, 1]):.3f} | "
                    f"{mean(overlaps[:, 2]):.3f} | {mean(overlaps.sum(axis=1)):.3f} | "
                    f"{mean(eigen[:, 0] / edge):.4f} | {mean(eigen[:, 1] / edge):.4f} | {mean(outlier / edge):.4f} |")
    print("| d | x = snr − own threshold | trials | points | sim − finite-T overlap | z |")
    print("|---|---|---|---|---|---|")
    print("\n".join(rows_excess))
    print()
    print(f"| d | x | finite-T overlap | sim overlap 1 | 2 | 3 | sum of top {overlaps.shape[1]} | "
          "λ₁ / edge | λ₂ / edge | finite-T λ / edge |")
    print("|---|---|---|---|---|---|---|---|---|---|")
    print("\n".join(rows_shares))
    print()
    print("| d | trials | λ₁ / edge at the lowest snr | correlation with the excess at \\|x\\| < 0.2 | t | "
          "excess, top level lowest half | highest half |")
    print("|---|---|---|---|---|---|---|")
    print("\n".join(rows_level))


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    main(sys.argv[1:])
