#!/usr/bin/python3
"""False-detection rates and power of three outlier rules on a finished sweep (assemble/detection.hpp).

Reads /points of an `rmtsweep run` file (snr must include 0) and, per (weighting, delta, gamma) line and snr,
reports the fraction of done trials detected by
  edge     lambda_1 > theory_bulk_edge_right (1 + c d^(-2/3)), c = 1 (assemble/phase.hpp, the current rule);
  eigengap R = (l1 - l2)/(l2 - l3) > the 95 % real-Wishart critical value (EIGENGAP_95 below, the pooled
           d-free value of src/assemble/detection.cpp, from studies/calibrate_eigengap.py);
  null     lambda_1 > the 95 % conformal quantile (order statistic min(n, ceil(0.95 (n + 1)))) of lambda_1 at snr = 0 on
           the same line. To keep its false-detection rate honest the snr = 0 trials are split in two halves
           by trial parity: the threshold from the even trials is applied to the odd ones and vice versa,
           and the rate is the mean of the two; at snr > 0 the threshold from all null trials is used.
  finiteT  (with a binary given) the edge rule with the paper's edge replaced by the finite-T edge of the
           point's own token draws, `rmtsweep theory --bulk finite-T --trial t` (the sweep's seed must be 0,
           the default; the draws do not depend on snr, so one edge per weighting and trial).
Usage: detection_rates.py FILE.h5 [c] [RMTSWEEP_BINARY] [weighting,weighting,... (default: all)]
"""
import json
import os
import subprocess
import sys

import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import rmtsweep  # noqa: E402  (python/rmtsweep: the files' readers)

# 95 % quantile of R for real Wishart spectra, pooled over d = 100 ... 3200 and d/n = 1/16 ... 1 (14 rows,
# 200000 draws; studies/results/eigengap_calibration.txt): the same value as src/assemble/detection.cpp.
EIGENGAP_95 = 6.885


def eigengap_critical(d):
    return EIGENGAP_95


def null_threshold(values, alpha=0.05):
    v = np.sort(values)
    k = int(np.ceil((1 - alpha) * (len(v) + 1) - 1e-9))
    return v[min(max(k, 1), len(v)) - 1]


def main():
    path = sys.argv[1]
    c = float(sys.argv[2]) if len(sys.argv) > 2 else 1.0
    binary = sys.argv[3] if len(sys.argv) > 3 else None
    only = sys.argv[4].split(",") if len(sys.argv) > 4 else None
    points = rmtsweep.read_points(path, top_k="list")
    done = points[points.status == 1]
    top = np.stack(done.top_eigenvalues.to_numpy())
    cols = {k: done[k].to_numpy() for k in ("weighting", "delta", "gamma", "snr", "trial", "d", "theory_bulk_edge_right")}
    weighting = cols["weighting"]
    d = int(cols["d"][0])
    crit = eigengap_critical(d)
    ratio = (top[:, 0] - top[:, 1]) / (top[:, 1] - top[:, 2])
    print(f"# {path}: d = {d}, edge margin c = {c}, eigengap critical value {crit:.3f}, {len(done)} done points")
    finite_edges = {}

    def finite_edge(w, delta, gamma, trial):
        key = (w, delta, gamma, trial)
        if key not in finite_edges:
            out = subprocess.run([binary, "theory", "--json", "--bulk", "finite-T", "--d", str(d), "--snr", "0",
                                  "--weighting", w, "--delta", repr(float(delta)), "--gamma", repr(float(gamma)),
                                  "--trial", str(int(trial))], check=True, capture_output=True, text=True).stdout
            finite_edges[key] = json.loads(out)["finite_t_bulk_edge_right"]
        return finite_edges[key]

    print("# weighting delta gamma snr trials edge eigengap null" + (" finiteT" if binary else "") +
          "  (detected fractions; at snr=0 the false-detection rate)")
    for w in dict.fromkeys(weighting):
        if only and w not in only:
            continue
        for delta in np.unique(cols["delta"]):
            for gamma in np.unique(cols["gamma"]):
                line = (weighting == w) & (cols["delta"] == delta) & (cols["gamma"] == gamma)
                null = line & (cols["snr"] == 0)
                if not null.any():
                    continue
                l1_null, trial_null = top[null, 0], cols["trial"][null]
                even, odd = l1_null[trial_null % 2 == 0], l1_null[trial_null % 2 == 1]
                null_fa = 0.5 * (np.mean(odd > null_threshold(even)) + np.mean(even > null_threshold(odd)))
                thr_all = null_threshold(l1_null)
                for snr in np.unique(cols["snr"][line]):
                    cell = line & (cols["snr"] == snr)
                    edge = cols["theory_bulk_edge_right"][cell][0] * (1 + c * d ** (-2.0 / 3.0))
                    f_edge = np.mean(top[cell, 0] > edge)
                    f_gap = np.mean(ratio[cell] > crit)
                    f_null = null_fa if snr == 0 else np.mean(top[cell, 0] > thr_all)
                    extra = ""
                    if binary:
                        fe = np.array([finite_edge(w, delta, gamma, t) for t in cols["trial"][cell]])
                        extra = f" {np.mean(top[cell, 0] > fe * (1 + c * d ** (-2.0 / 3.0))):.3f}"
                    print(f"{w} {delta:g} {gamma:g} {snr:g} {cell.sum()} {f_edge:.3f} {f_gap:.3f} {f_null:.3f}{extra}",
                          flush=True)


if __name__ == "__main__":
    main()
