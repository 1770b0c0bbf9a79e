#!/usr/bin/python3
"""Detected fractions of G_m = g_1/mean(g_2, ..., g_m) per cell of an assembled sweep (k >= 10 stored), beside
the edge and eigengap rules' that `rmtsweep assemble` wrote.

G_3 needs four eigenvalues, G_9 ten (g_j = l_j - l_{j+1}); G_2 is Onatski's R, the eigengap rule, whose
column, like the edge rule's, is /phase/detection/<rule>/detected_fraction as assemble computed it (its
margin, its critical value). Only G_3 and G_9, which rmtsweep does not compute, are formed here from the
trials' top eigenvalues, against critical values from studies/calibrate_eigengap.py at the sweep's d
(studies/results/eigengap_calibration.txt).
Usage: gap_statistic_rates.py FILE.h5 crit_G3 crit_G9   (`rmtsweep assemble FILE.h5` first)
"""
import os
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import rmtsweep  # noqa: E402  (python/rmtsweep: the files' readers)

CELL = ["weighting", "d", "delta", "gamma", "snr"]


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.strip().splitlines()[-1])
    path, crit = sys.argv[1], dict(G3=float(sys.argv[2]), G9=float(sys.argv[3]))
    assembled = {rule: rmtsweep.open_phase(path, group=f"detection/{rule}").detected_fraction
                 for rule in ("edge", "eigengap")}
    points = rmtsweep.read_points(path, top_k="list")
    done = points[points.status == "done"]
    top = np.stack(done.top_eigenvalues.to_numpy())
    if top.shape[1] < 10:
        sys.exit(f"{path}: k = {top.shape[1]} eigenvalues stored per point; G_9 needs k >= 10")
    g = top[:, :-1] - top[:, 1:]
    stat = dict(G3=g[:, 0] / g[:, 1:3].mean(1), G9=g[:, 0] / g[:, 1:9].mean(1))
    for key, rows in done.groupby(CELL, sort=False, observed=True).indices.items():
        cell = dict(zip(CELL, key))
        out = [f"{cell['weighting']:9s} d {cell['d']} delta {cell['delta']:g} gamma {cell['gamma']:g} "
               f"snr {cell['snr']:4.2f} n {len(rows):4d}"]
        out += [f"{rule} {float(fraction.sel(**cell)):.3f}" for rule, fraction in assembled.items()]
        out += [f"{name} {np.mean(stat[name][rows] > crit[name]):.3f}" for name in crit]
        print(" ".join(out))


if __name__ == "__main__":
    main()
