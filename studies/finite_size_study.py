#!/usr/bin/python3
"""How the extrapolated threshold's error falls with trials and sizes, measured on a finished
finite-size sweep (jobs/configs/finite_size_laptop*.ini) with rmtsweep's own assemble.

    /usr/bin/python3 studies/finite_size_study.py SWEEP.h5 [--rmtsweep build/rmtsweep]

For each subset (the first K trials, a subset of the sizes) it copies the file, marks the other
points pending (status 0: assemble counts done points only), runs `rmtsweep assemble` on the copy
and reads /phase: per (weighting, delta, gamma) the extrapolated threshold, its error and the
theory's sample threshold. Nothing is refitted here; the numbers are assemble's.
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

import h5py
import numpy as np

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import rmtsweep  # noqa: E402  (python/rmtsweep: the files' readers)


def subset(source, work, trials, sizes, binary):
    path = os.path.join(work, "subset.h5")
    shutil.copyfile(source, path)
    with h5py.File(path, "r+") as f:
        status = f["points/status"][...]
        keep = (f["points/trial"][...] < trials) & np.isin(f["points/d"][...], sizes)
        f["points/status"][...] = np.where(keep, status, 0)
    done = subprocess.run([binary, "assemble", path, "--quiet"], capture_output=True, text=True)
    if done.returncode != 0:
        raise RuntimeError(done.stderr)
    with h5py.File(path, "r") as f:
        # The edge rule's, which the study measured (the top level of /phase is the default rule's since issue 18).
        p = f["phase/detection/edge"] if "phase/detection/edge/extrapolated_threshold_snr" in f else f["phase"]
        names = [w.decode() if isinstance(w, bytes) else str(w) for w in f["phase/weighting"][...]]
        theory = f["phase/theory_sample_threshold_snr"]
        rows = []
        for w, name in enumerate(names):
            rows.append((name, float(p["extrapolated_threshold_snr"][w, 0, 0]),
                         float(p["extrapolated_threshold_snr_err"][w, 0, 0]), int(p["extrapolation_terms"][w, 0, 0]),
                         float(p["extrapolation_chi2_per_dof"][w, 0, 0]), float(theory[w, -1, 0, 0]),
                         [float(x) for x in p["empirical_threshold_snr"][w, :, 0, 0]],
                         [float(x) for x in p["empirical_threshold_snr_err"][w, :, 0, 0]]))
    return rows


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("file")
    parser.add_argument("--rmtsweep", default="build/rmtsweep")
    args = parser.parse_args()
    with h5py.File(args.file, "r") as f:
        sizes = sorted(int(d) for d in f["grid/d"][...])
        trials = int(f["grid/trial"].size)
        table = f"table = {rmtsweep.read_config(f)['table']}"
    print(f"{args.file}: {table}, sizes {sizes}, {trials} trials")
    subsets = [(trials, sizes)] + [(k, sizes) for k in (trials // 2, trials // 4) if k >= 2]
    subsets += [(trials, sizes[1:]), (trials, sizes[:-1])]
    with tempfile.TemporaryDirectory() as work:
        print(f"{'trials':>6} {'sizes':>22} {'weighting':>10} {'thr_inf':>8} {'err':>7} {'model':>6} "
              f"{'chi2/dof':>8} {'theory':>7} {'(thr-theory)/err':>16}   per-d thresholds +- errors")
        for k, chosen in subsets:
            for name, thr, err, terms, chi2, theory, per_d, per_err in subset(args.file, work, k, chosen, args.rmtsweep):
                pull = (thr - theory) / err if np.isfinite(err) and err > 0 else float("nan")
                per = ", ".join(f"{d}: {t:.3f}+-{e:.3f}" for d, t, e in zip(sizes, per_d, per_err) if d in chosen)
                print(f"{k:>6} {','.join(map(str, chosen)):>22} {name:>10} {thr:8.4f} {err:7.4f} {terms:>6} "
                      f"{chi2:8.2f} {theory:7.4f} {pull:16.2f}   {per}")


if __name__ == "__main__":
    main()
