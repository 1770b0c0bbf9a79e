#!/usr/bin/env bash
# The finite-T theory of one trial at any size (docs/performance.md, "The finite-T theory at any size"): the
# quadrature of theory/gram_quadrature.hpp against the dense spectrum where both run (accuracy), and its cost up
# to min(V, N) = 64 000 (the largest size jobs/configs/finite_size_cluster.ini asks for). One core, OpenBLAS's
# fast kernels for both. Usage: bench/finite_t_compare.sh [BUILD_DIR] > table.txt
set -euo pipefail
build=${1:-build}
bench=$build/bench/rmtsweep_bench_finite_t
export OPENBLAS_NUM_THREADS=1 OMP_NUM_THREADS=1 OPENBLAS_CORETYPE=${OPENBLAS_CORETYPE:-SkylakeX}
row() { /usr/bin/python3 -c '
import json, sys
r = json.loads(sys.stdin.read())
cpu = r["cpu_seconds"]
fields = [r["weighting"], str(r["trial"]), str(r["d"]), str(r["n"]), str(r["probes"]), "%.2f" % cpu]
if "dense_seconds" in r:
    fields += ["%.2f" % r["dense_cpu_seconds"], "%+.1e" % r["edge_error"], "%+.1e" % r["threshold_error"]]
else:
    fields += ["-", "-", "-"]
fields += ["%.1e" % r["edge_error_estimate"], "%.1e" % r["threshold_error_estimate"]]
print("| " + " | ".join(fields) + " |")'; }
echo "| weighting | trial | d | min(V, N) | probes | quadrature CPU s | dense CPU s | edge error | threshold error | edge SE (est.) | threshold SE (est.) |"
echo "|---|---|---|---|---|---|---|---|---|---|---|"
# Accuracy: delta 0.5, gamma 0.25 (min(V, N) = V = 2d), prefix:3, centered: sizes both reach.
for d in 1600 2000 3200; do
  for w in mean harmonic optimal; do
    for trial in 0 1; do
      "$bench" "$d" 0.5 0.25 "$w" "$trial" --dense --table centered | row
    done
  done
done
# Cost: the quadrature alone up to the cluster config's largest size (d = 32000: V = 64000, N = 128000).
for d in 8000 16000 32000; do
  for w in mean harmonic optimal; do
    "$bench" "$d" 0.5 0.25 "$w" 0 --table centered | row
  done
done
