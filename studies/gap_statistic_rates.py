#!/usr/bin/python3
"""Detected fractions of Onatski's R and of G_m = g_1/mean(g_2, ..., g_m) per cell of a sweep (k >= 10 stored).

G_3 needs four eigenvalues, G_9 ten; R = G_2. Critical values from studies/calibrate_eigengap.py at the
sweep's d (results in studies/results/eigengap_calibration.txt). The edge rule's column is for comparison.
Usage: gap_statistic_rates.py FILE.h5 crit_R crit_G3 crit_G9
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import rmtsweep  # noqa: E402  (python/rmtsweep: the files' readers)


def main():
    crit = dict(R=float(sys.argv[2]), G3=float(sys.argv[3]), G9=float(sys.argv[4]))
    points = rmtsweep.read_points(sys.argv[1], top_k="list")
    done = points[points.status == 1]
    top = np.stack(done.top_eigenvalues.to_numpy())
    w = done.weighting.to_numpy()
    snr, edge, d = done.snr.to_numpy(), done.theory_bulk_edge_right.to_numpy(), int(points.d.iloc[0])
    g = top[:, :-1] - top[:, 1:]
    stat = dict(R=g[:, 0] / g[:, 1], G3=g[:, 0] / g[:, 1:3].mean(1), G9=g[:, 0] / g[:, 1:9].mean(1))
    thr = edge * (1 + d ** (-2 / 3))
    for name in dict.fromkeys(w):
        for s in np.unique(snr[w == name]):
            c = (w == name) & (snr == s)
            out = [f"{name:9s} snr {s:4.2f} n {c.sum():4d} edge {np.mean(top[c, 0] > thr[c]):.3f}"]
            out += [f"{k} {np.mean(stat[k][c] > crit[k]):.3f}" for k in crit]
            print(" ".join(out))


if __name__ == "__main__":
    main()
