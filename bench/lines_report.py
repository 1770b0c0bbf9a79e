#!/usr/bin/python3
"""The tables of bench/lines_compare.sh: lines against points, from DIR/lines.jsonl and the two sweep files.

    /usr/bin/python3 bench/lines_report.py BUILD/bench-results

Prints, as Markdown: the phase_transitions_laptop sweep with lines = auto against lines = off (median wall time of
the rounds, their ratio) and the largest difference of every stored number between the two files; one line of 64
snr values per d (the line's engines against the points one at a time, scaled from the sampled points to 64) with
each ratio to the per-point Krylov engine; and the finite-size studies' wall times.
"""
import json
import os
import statistics
import sys

import h5py
import numpy as np


def load(directory):
    with open(os.path.join(directory, "lines.jsonl")) as f:
        return [json.loads(line) for line in f if line.strip()]


def median(values):
    return statistics.median(values) if values else float("nan")


def differences(a_path, b_path):
    """Per dataset of /points and /spectra: the largest absolute difference, and relative where |b| > 1e-6."""
    rows = []
    with h5py.File(a_path, "r") as a, h5py.File(b_path, "r") as b:
        names = []
        a.visititems(lambda name, obj: names.append(name) if isinstance(obj, h5py.Dataset) else None)
        for name in sorted(names):
            if not name.startswith(("points/", "spectra/")) or name not in b:
                continue
            x, y = a[name][...], b[name][...]
            if x.dtype.kind not in "fiu" or x.shape != y.shape or name in ("points/seconds", "points/run"):
                continue
            x, y = x.astype(float), y.astype(float)
            finite = np.isfinite(x) & np.isfinite(y)
            if not finite.any():
                continue
            diff = np.abs(x - y)[finite]
            big = finite & (np.abs(y) > 1e-6)
            rel = (np.abs(x - y)[big] / np.abs(y[big])).max() if big.any() else 0.0
            rows.append((name, diff.max(), rel))
    return rows


def main():
    directory = sys.argv[1]
    records = load(directory)
    sweeps = {lines: [r["seconds"] for r in records if r["kind"] == "sweep" and r["lines"] == lines]
              for lines in ("auto", "off")}
    if sweeps["auto"] and sweeps["off"]:
        auto, off = median(sweeps["auto"]), median(sweeps["off"])
        print("| phase_transitions_laptop.ini, 2 ranks | wall (median of %d) |" % len(sweeps["auto"]))
        print("|---|---|")
        print("| lines = off (each point alone) | %.1f s |" % off)
        print("| lines = auto (54 lines of 49 snr) | %.1f s |" % auto)
        print("| ratio | **%.1fx** |" % (off / auto))
        print()
        a = os.path.join(directory, "phase_transitions_lines_auto.h5")
        b = os.path.join(directory, "phase_transitions_lines_off.h5")
        if os.path.exists(a) and os.path.exists(b):
            print("| dataset | largest difference | relative (where > 1e-6) |")
            print("|---|---|---|")
            for name, absolute, relative in differences(a, b):
                print("| %s | %.2g | %.2g |" % (name, absolute, relative))
            print()
    dims = sorted({r["d"] for r in records if r["kind"] in ("line", "point")})
    for d in dims:
        line = {e: median([r["seconds"] for r in records if r["kind"] == "line" and r["d"] == d and r["engine"] == e])
                for e in ("dense", "krylov")}
        point = {e: median([r["seconds"] for r in records if r["kind"] == "point" and r["d"] == d and r["engine"] == e])
                 for e in ("dense", "krylov", "scipy")}
        sampled = len({r["snr"] for r in records if r["kind"] == "point" and r["d"] == d})
        per_point_krylov = 64 * point["krylov"]
        print("| d = %d, 64 snr values, 1 rank x 2 threads | seconds | vs per-point Krylov |" % d)
        print("|---|---|---|")
        for name, seconds in [("line, dense (dsytrd + dstedc, dlaed4 per snr)", line["dense"]),
                              ("line, Krylov (one basis)", line["krylov"]),
                              ("points one at a time, dense (64 x %d sampled)" % sampled, 64 * point["dense"]),
                              ("points one at a time, Krylov (64 x %d sampled)" % sampled, per_point_krylov),
                              ("points one at a time, scipy peer (64 x %d sampled)" % sampled, 64 * point["scipy"])]:
            print("| %s | %.1f | %.1fx |" % (name, seconds, per_point_krylov / seconds))
        print()
    studies = [r for r in records if r["kind"] == "study"]
    if studies:
        print("| study (jobs/local.sh, 2 ranks x 1 thread) | wall |")
        print("|---|---|")
        for r in studies:
            print("| %s | %.0f s |" % (r["name"], r["seconds"]))


if __name__ == "__main__":
    main()
