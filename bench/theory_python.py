#!/usr/bin/python3
"""The theory over a 200 x 200 (snr, delta) surface: rmtsweep.theory.paper in one call against the loop a
notebook had before it, one `rmtsweep theory --json` subprocess per point (docs/performance.md, "The theory
from Python"). The loop is timed on a sample of points spread over the surface and extrapolated to all of
them; both give the same numbers (checked on the sample, bit for bit).

    OPENBLAS_CORETYPE=SkylakeX /usr/bin/python3 bench/theory_python.py --binary build/rmtsweep [--sample 200]

Prints one JSON line: the seconds of the call, of the sampled loop and its extrapolation, and their ratio.
Nothing here is a test: ctest never runs it (tests/python/theory checks the bits).
"""
import argparse
import json
import os
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", required=True, help="the rmtsweep program")
    parser.add_argument("--size", type=int, default=200, help="points along snr and along delta (default 200)")
    parser.add_argument("--sample", type=int, default=200, help="subprocess calls timed (default 200)")
    parser.add_argument("--weighting", default="optimal")
    parser.add_argument("--repeat", type=int, default=3, help="calls of the module, the fastest kept")
    args = parser.parse_args()
    sys.path.insert(0, os.path.join(HERE, "..", "python"))
    from rmtsweep import theory

    snr = np.linspace(0.0, 3.0, args.size)
    delta = np.linspace(0.05, 2.0, args.size)
    options = {"gamma": 0.5, "weighting": args.weighting}
    module_seconds = []
    for _ in range(args.repeat):
        started = time.perf_counter()
        surface = theory.paper(snr=snr[:, None], delta=delta[None, :], **options)
        module_seconds.append(time.perf_counter() - started)

    rng = np.random.default_rng(0)
    picks = rng.choice(args.size * args.size, size=min(args.sample, args.size * args.size), replace=False)
    started = time.perf_counter()
    for flat in picks:
        i, j = divmod(int(flat), args.size)
        done = subprocess.run([args.binary, "theory", "--json", "--snr", repr(float(snr[i])), "--delta",
                               repr(float(delta[j])), "--gamma", "0.5", "--weighting", args.weighting],
                              capture_output=True, text=True, check=True)
        expected = json.loads(done.stdout)
        if np.float64(expected["overlap"]).view(np.int64) != surface["overlap"][i, j].view(np.int64):
            raise SystemExit(f"the module and the command differ at snr {snr[i]!r}, delta {delta[j]!r}")
    loop_seconds = time.perf_counter() - started
    per_call = loop_seconds / len(picks)
    extrapolated = per_call * args.size * args.size
    print(json.dumps({"points": args.size * args.size, "weighting": args.weighting,
                      "module_seconds": min(module_seconds), "sampled_calls": len(picks),
                      "sampled_loop_seconds": loop_seconds, "seconds_per_call": per_call,
                      "loop_seconds_extrapolated": extrapolated, "ratio": extrapolated / min(module_seconds)}))


if __name__ == "__main__":
    main()
