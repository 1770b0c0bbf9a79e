#!/usr/bin/python3
"""How many directions the levels model keeps exactly (docs/finite_t.md, "How many directions"): the model's
overlap at several k (rows "model" of build/finite_t_levels_k, studies/finite_t_levels_k.cpp) against the
simulated overlap of the same trials (/points of a sweep with the same d, T, correlation, table, delta, gamma
and seed), paired over the trials; and the brute force (rows "brute": S formed in Pi's eigenbasis from the
trial's own measures, many table draws) where the tool computed it.

Usage: finite_t_levels_k.py TOOL_OUTPUT.txt [SWEEP.h5]
Output: markdown tables on stdout.
"""
import sys
from collections import defaultdict

import h5py
import numpy as np


def se(v):
    return v.std(ddof=1) / np.sqrt(len(v)) if len(v) > 1 else float("nan")


def read_tool(path):
    header = {}
    model = defaultdict(dict)   # (snr, label) -> trial -> (k, overlap, error, lambda, limit)
    brute = defaultdict(dict)   # snr -> trial -> (overlap, error, lambda, limit)
    levels = defaultdict(list)  # trial -> [(c, m, weight, pole, rest zeta, rest edge, threshold)]
    for line in open(path):
        f = line.split()
        if not f:
            continue
        if f[0] == "#":
            header.update(zip(f[1::2], f[2::2]))
            continue
        if f[0] == "level":
            levels[int(f[1])].append(tuple(float(x) for x in f[2:]))
        elif f[0] == "model":
            model[(float(f[2]), f[3])][int(f[1])] = (int(f[4]), *map(float, f[5:9]))
        elif f[0] == "brute":
            brute[float(f[2])][int(f[1])] = tuple(map(float, f[5:9]))
    return model, brute, levels, header


def read_sim(path, header):
    with h5py.File(path, "r") as f:
        p = f["points"]
        c = {n: p[n][:] for n in ("d", "delta", "gamma", "snr", "trial", "status", "overlap",
                                  "theory_finite_t_levels_overlap")}
    ok = ((c["status"] == 1) & (c["d"] == int(header["d"])) & np.isclose(c["delta"], float(header["delta"]))
          & np.isclose(c["gamma"], float(header["gamma"])))
    return {(float(s), int(t)): (o, lv) for s, t, o, lv in
            zip(c["snr"][ok], c["trial"][ok], c["overlap"][ok], c["theory_finite_t_levels_overlap"][ok])}


def main():
    if len(sys.argv) < 2:
        sys.exit(__doc__)
    model, brute, levels, header = read_tool(sys.argv[1])
    sim = read_sim(sys.argv[2], header) if len(sys.argv) > 2 else {}
    # The count levels: how many top levels have their pole above the edge of the rest below them.
    isolated = []
    for t, rows in levels.items():
        n = 0
        for c, m, w, pole, zeta, edge, thr in rows:
            if pole > zeta:
                n += int(m)
            else:
                break
        isolated.append(n)
    if isolated:
        isolated = np.array(isolated)
        print(f"{len(isolated)} trials; directions in the isolated top levels: mean {isolated.mean():.2f}, "
              f"0 in {np.mean(isolated == 0):.0%}, quartiles {np.percentile(isolated, [25, 50, 75])}\n")
    labels = sorted({lab for (_, lab) in model}, key=lambda x: (x[0] == "L", int(x.lstrip("L")) if x != "rule" else 99))
    snrs = sorted({s for (s, _) in model})
    if sim:
        print("| snr | k | trials | mean k | model | simulated | sim − model (z) |")
        print("|---|---|---|---|---|---|---|")
        for s in snrs:
            for lab in labels:
                rows = model[(s, lab)]
                trials = [t for t in rows if (s, t) in sim]
                if not trials:
                    continue
                mo = np.array([rows[t][1] for t in trials])
                si = np.array([sim[(s, t)][0] for t in trials])
                k = np.mean([rows[t][0] for t in trials])
                diff = si - mo
                print(f"| {s:g} | {lab} | {len(trials)} | {k:.1f} | {mo.mean():.4f} | {si.mean():.4f} ± {se(si):.4f} | "
                      f"{diff.mean():+.4f} ± {se(diff):.4f} ({diff.mean() / se(diff):+.1f}) |")
    if brute:
        print("\n| snr | k | trials | model | brute force | brute − model (z) | limit |")
        print("|---|---|---|---|---|---|---|")
        for s in sorted(brute):
            bt = brute[s]
            for lab in labels:
                rows = model.get((s, lab), {})
                trials = [t for t in bt if t in rows]
                if not trials:
                    continue
                b = np.array([bt[t][0] for t in trials])
                mo = np.array([rows[t][1] for t in trials])
                err = np.sqrt(np.sum([bt[t][1] ** 2 + rows[t][2] ** 2 for t in trials])) / len(trials)
                lim = np.mean([bt[t][3] for t in trials])
                print(f"| {s:g} | {lab} | {len(trials)} | {mo.mean():.4f} | {b.mean():.4f} | "
                      f"{(b - mo).mean():+.4f} ± {err:.4f} ({(b - mo).mean() / err:+.1f}) | {lim:.4f} |")


if __name__ == "__main__":
    main()
