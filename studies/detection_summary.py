#!/usr/bin/python3
"""The detection table of docs/detection.md from assembled sweep files (`rmtsweep assemble FILE` first).

Nothing is decided here: every number is what `rmtsweep assemble` wrote under /phase/detection/<rule>
(include/rmtsweep/assemble/detection.hpp), read with the rmtsweep package, for every rule the file holds
(edge, eigengap, finite_t_edge, null). Per file and line (weighting, d, delta, gamma): the number of
snr = 0 trials, each rule's false-detection rate at snr = 0 with its binomial standard error
(false_detection_rate; the null rule's is its exact level by exchangeability), each rule's threshold
(threshold: on lambda_1, or on the ratio R for eigengap) and its empirical threshold snr
(empirical_threshold_snr; nan where undetermined, e.g. without an snr grid). With --power, each rule's
detected fraction per cell at snr > 0 (detected_fraction).

Usage: detection_summary.py [--power] FILE.h5 [FILE.h5 ...]
"""
import argparse
import os
import sys

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import rmtsweep  # noqa: E402  (python/rmtsweep: the files' readers)


def rules_of(path):
    """The detection rules assembled into the file, as /phase/detection names them."""
    with h5py.File(path, "r") as f:
        return list(f["phase/detection"])


def lines_of(phase):
    """Every (weighting, d, delta, gamma) of the phase tables."""
    return [dict(weighting=w, d=d, delta=x, gamma=g) for w in phase.weighting.values for d in phase.d.values
            for x in phase.delta.values for g in phase.gamma.values]


def summary(path, rules, phase, detection):
    """One row per line: snr = 0 trials | false detections % (se) | thresholds | empirical threshold snr."""
    table = rmtsweep.read_config(path)["table"]
    has_null = 0.0 in phase.snr.values
    for line in lines_of(phase):
        n = int(phase.trials_done.sel(**line, snr=0.0)) if has_null else 0
        fa = [float(detection[r].false_detection_rate.sel(**line)) for r in rules]
        se = [np.sqrt(x * (1 - x) / n) if n else np.nan for x in fa]
        thr = [float(detection[r].threshold.sel(**line)) for r in rules]
        emp = [float(detection[r].empirical_threshold_snr.sel(**line)) for r in rules]
        print(f"{os.path.basename(path)} {line['d']} {line['delta']:g} {line['gamma']:g} {table} {line['weighting']} {n} | "
              + " ".join(f"{100 * x:5.1f} ({100 * s:3.1f})" for x, s in zip(fa, se)) + " | "
              + " ".join(f"{x:.4f}" for x in thr) + " | " + " ".join(f"{x:.3f}" for x in emp))


def power(path, rules, phase, detection):
    """One row per cell at snr > 0: done trials and each rule's detected fraction."""
    for line in lines_of(phase):
        for snr in phase.snr.values[phase.snr.values > 0]:
            n = int(phase.trials_done.sel(**line, snr=snr))
            fractions = " ".join(f"{float(detection[r].detected_fraction.sel(**line, snr=snr)):.3f}" for r in rules)
            print(f"{os.path.basename(path)} {line['d']} {line['delta']:g} {line['gamma']:g} {line['weighting']} "
                  f"snr {snr:g} n {n} | {fractions}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--power", action="store_true", help="also each rule's detected fraction per cell at snr > 0")
    parser.add_argument("files", nargs="+", metavar="FILE.h5", help="assembled sweep files (or phase files)")
    args = parser.parse_args()
    for path in args.files:
        rules = rules_of(path)
        phase = rmtsweep.open_phase(path)
        detection = {r: rmtsweep.open_phase(path, group=f"detection/{r}") for r in rules}
        names = " ".join(rules)
        print(f"# {path}: d delta gamma table weighting null_trials | false detections % (se) {names} | "
              f"thresholds {names} | empirical threshold snr {names}")
        summary(path, rules, phase, detection)
        if args.power:
            print(f"# {path}: d delta gamma weighting snr done_trials | detected fraction {names}")
            power(path, rules, phase, detection)


if __name__ == "__main__":
    main()
