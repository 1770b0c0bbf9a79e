#!/usr/bin/python3
"""The detection table of docs/detection.md from assembled sweep files (`rmtsweep assemble FILE` first).

Per file and weighting: the number of snr = 0 trials, each rule's false-detection rate at snr = 0 with its
binomial standard error (/phase/detection/<rule>/false_detection_rate, rule edge, eigengap, null, finite_t_edge; the null rule's is its exact level by
exchangeability, see assemble/detection_tables.hpp), each rule's threshold (/phase/detection/<rule>/threshold:
lambda_1 for edge, null and finite_t_edge (trial 0's edge), the ratio R for eigengap) and, where the file has an snr grid, each rule's
empirical threshold snr (the half crossing of its detected fraction).
Usage: detection_summary.py FILE.h5 [FILE.h5 ...]
"""
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import rmtsweep  # noqa: E402  (python/rmtsweep: the files' readers)

RULES = ("edge", "eigengap", "null", "finite_t_edge")


def main():
    print("# file d table weighting null_trials | false detections % (se) edge eigengap null finite_t_edge | thresholds edge "
          "eigengap null finite_t_edge | empirical threshold snr edge eigengap null finite_t_edge")
    for path in sys.argv[1:]:
        with h5py.File(path, "r") as f:
            p, ph = f["points"], f["phase"]
            d = int(p["d"][0])
            table = rmtsweep.read_config(f)["table"]
            snr_axis = ph["snr"][:]
            done = p["status"][:] == 1
            weighting = np.array([w.decode() for w in p["weighting"][:]])
            names = list(dict.fromkeys(weighting))
            null_trials = {w: int(np.sum(done & (weighting == w) & (p["snr"][:] == 0))) for w in names}
            for i, w in enumerate(names):
                n = null_trials[w]
                fa = [float(ph[f"detection/{r}/false_detection_rate"][i, 0, 0]) for r in RULES]
                se = [np.sqrt(x * (1 - x) / n) if n else np.nan for x in fa]
                thr = [float(ph[f"detection/{r}/threshold"][i, 0, 0]) for r in RULES]
                emp = [float(ph[f"detection/{r}/empirical_threshold_snr"][i, 0, 0]) for r in RULES]
                rates = " ".join(f"{100 * x:5.1f} ({100 * s:3.1f})" for x, s in zip(fa, se))
                emps = " ".join(f"{x:.3f}" for x in emp) if len(snr_axis) > 2 else " ".join("-" for _ in RULES)
                print(f"{path.split('/')[-1]} {d} {table} {w} {n} | {rates} | "
                      f"{thr[0]:.4f} {thr[1]:.3f} {thr[2]:.4f} {thr[3]:.4f} | {emps}")


if __name__ == "__main__":
    main()
