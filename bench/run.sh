#!/usr/bin/env bash
# The performance benchmark of rmtsweep in one command, one table (issue "Performance"):
#
#   bash bench/run.sh [--quick] [--build DIR] [--blas tuned|installed]
#
# Measures, in one run on this machine: the linked BLAS's DGEMM rate and LAPACK's dsyevd /
# dsyevr / dsytrd (bench/machine_limits.cpp); one point by stage at d = 1000, 2000, 4000
# (delta 0.5, gamma 0.25, T 10, prefix:3, mean) on 1 rank x 2 BLAS threads and 2 ranks x 1
# thread (bench/point_bench.cpp, i.e. simulate_point), the numpy reference on the same points
# (bench/numpy_reference.py) and C++ with S forced through dsyrk; peak memory at gamma 0.05 vs
# 1; the N < d point at gamma 4 vs 1; sweep throughput (`rmtsweep run`) on 1 and 2 ranks. Then
# prints the table
# (bench/report.py). --quick drops d = 4000. Nothing here is a test: ctest never runs it.
#
# BLAS kernel: Debian's OpenBLAS 0.3.21 does not recognise some recent Xeons and falls back to
# its Prescott (SSE3) kernels, 4-8x slower. --blas tuned (default) sets OPENBLAS_CORETYPE to
# SkylakeX on CPUs with AVX-512 (Haswell with AVX2) for every program here, C++ and numpy
# alike, and unsets OPENBLAS_L2_SIZE; --blas installed keeps the environment as it is.
set -euo pipefail

SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD="$SRC/build-bench"
DIMS=(1000 2000 4000)
BLAS=tuned
while [ $# -gt 0 ]; do
  case "$1" in
    --quick) DIMS=(1000 2000); shift ;;
    --build) BUILD=$2; shift 2 ;;
    --blas) BLAS=$2; shift 2 ;;
    *) echo "usage: bash bench/run.sh [--quick] [--build DIR] [--blas tuned|installed]" >&2; exit 2 ;;
  esac
done
PY=/usr/bin/python3
OUT="$BUILD/bench-results"
RESULTS="$OUT/results.jsonl"
mkdir -p "$OUT"
: > "$RESULTS"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1

echo "== building in $BUILD" >&2
cmake -S "$SRC" -B "$BUILD" -DCMAKE_BUILD_TYPE=Release >/dev/null
cmake --build "$BUILD" -j2 --target rmtsweep rmtsweep_bench_limits rmtsweep_bench_point >/dev/null
LIMITS="$BUILD/bench/rmtsweep_bench_limits"
POINT="$BUILD/bench/rmtsweep_bench_point"
RMTSWEEP="$BUILD/rmtsweep"

core_of() { sed -n '1s/.*"blas_core":"\([^"]*\)".*/\1/p' <<< "$1"; }
installed=$(env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE "$LIMITS" gemm --d 2000 --panels 512 --threads 2)
echo "$installed" >> "$RESULTS"
default_core=$(core_of "$installed")
if [ "$BLAS" = tuned ]; then
  # One point at d = 2000 as installed, C++ and numpy, to show what the kernel choice costs.
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE mpirun -np 1 --bind-to none -x OPENBLAS_NUM_THREADS=2 \
    "$POINT" --d 2000 --delta 0.5 --gamma 0.25 --T 10 >> "$RESULTS"
  env -u OPENBLAS_CORETYPE -u OPENBLAS_L2_SIZE OPENBLAS_NUM_THREADS=2 \
    $PY "$SRC/bench/numpy_reference.py" --d 2000 --delta 0.5 --gamma 0.25 --T 10 >> "$RESULTS"
  unset OPENBLAS_L2_SIZE
  if grep -q avx512f /proc/cpuinfo; then export OPENBLAS_CORETYPE=SkylakeX
  elif grep -q avx2 /proc/cpuinfo; then export OPENBLAS_CORETYPE=Haswell; fi
fi
core=$(core_of "$("$LIMITS" gemm --d 200 --panels 64 --threads 1)")
load_before=$(uptime | sed 's/.*load average: //')

# mpirun for R ranks with B BLAS threads each; no core binding, so 1 rank can use 2 threads.
run_mpi() { local ranks=$1 threads=$2; shift 2; mpirun -np "$ranks" --bind-to none -x OPENBLAS_NUM_THREADS="$threads" \
  ${OPENBLAS_CORETYPE:+-x OPENBLAS_CORETYPE} "$@"; }

dims_csv=$(IFS=,; echo "${DIMS[*]}")
echo "== BLAS/LAPACK limits (kernel $core)" >&2
"$LIMITS" gemm --d "$dims_csv" --panels 512 --threads 1,2 >> "$RESULTS"
"$LIMITS" lapack --d "$dims_csv" --threads 2 --k 4 >> "$RESULTS"

echo "== one point by stage, C++ and numpy" >&2
# Below d = 4000: 2 rounds of (C++ 1 rank, best of 3 points in one process; numpy, the same), so
# that the two sides are measured alike and over the same minutes of this machine, whose speed
# drifts; then C++ on 2 ranks (best of 3), and C++ on 1 rank with S forced through panels of
# pooled vectors and dsyrk (where the default forms it through the vocabulary, H E^T), for the
# covariance's GEMM rate. On 2 ranks the eigen stage is ELPA's by default; once more with ScaLAPACK
# forced (pdsytrd), for the comparison. At 4000 one point of each. The table keeps the fastest run of each
# configuration.
for d in "${DIMS[@]}"; do
  reps=3; runs=2; [ "$d" -ge 4000 ] && reps=1 && runs=1
  for _ in $(seq "$runs"); do
    run_mpi 1 2 "$POINT" --d "$d" --delta 0.5 --gamma 0.25 --T 10 --reps "$reps" --limits 1 >> "$RESULTS"
    OPENBLAS_NUM_THREADS=2 $PY "$SRC/bench/numpy_reference.py" --d "$d" --delta 0.5 --gamma 0.25 --T 10 \
      --reps "$reps" >> "$RESULTS"
  done
  run_mpi 2 1 "$POINT" --d "$d" --delta 0.5 --gamma 0.25 --T 10 --reps "$reps" >> "$RESULTS"
  run_mpi 2 1 "$POINT" --d "$d" --delta 0.5 --gamma 0.25 --T 10 --reps "$reps" --eigensolver scalapack >> "$RESULTS"
  run_mpi 1 2 "$POINT" --d "$d" --delta 0.5 --gamma 0.25 --T 10 --reps "$reps" --limits 1 --path panels >> "$RESULTS"
done

echo "== peak memory gamma 0.05 vs 1, N < d (gamma 4) vs gamma 1, at d = 2000" >&2
for gamma in 0.05 1 4; do
  run_mpi 1 2 "$POINT" --d 2000 --delta 0.5 --gamma "$gamma" --T 10 --reps 2 >> "$RESULTS"
done

echo "== sweep throughput (rmtsweep run) on 1 and 2 ranks, 1 BLAS thread each" >&2
# 96 points at d = 800 (2 trials; 6-8 s on one rank): long enough that start-up is a small
# part and the machine's drift averages out somewhat.
# Two rounds of (1 rank, 2 ranks, and, as the machine's own limit for two-way throughput without
# MPI between them, two independent 1-rank sweeps at the same time, each its own mpirun and file);
# the report takes each ratio within its round and averages the rounds.
sweep_args=(--d 800 --delta 0.25,0.5,1 --gamma 0.25,0.5,1,2 --snr 0.5,1,2,4 --weighting mean --trials 2
            --store_spectra false)
points=96
for _ in 1 2; do
  for ranks in 1 2; do
    file="$OUT/sweep-$ranks.h5"
    rm -f "$file"
    start=$(date +%s.%N)
    run_mpi "$ranks" 1 "$RMTSWEEP" run --output "$file" "${sweep_args[@]}" > "$OUT/sweep-$ranks.log" 2>&1
    end=$(date +%s.%N)
    # The run's own wall time (from its last line) excludes mpirun's start-up; fall back to ours.
    wall=$(sed -n 's/.*; wall \([0-9.]*\) s;.*/\1/p' "$OUT/sweep-$ranks.log" | tail -1)
    $PY -c "import json; s=float('${wall:-0}') or ($end-$start); print(json.dumps({'kind': 'sweep', 'ranks': $ranks, 'd': 800, 'points': $points, 'seconds': s, 'points_per_second': $points / s}))" >> "$RESULTS"
  done
  for part in a b; do rm -f "$OUT/sweep-$part.h5"; done
  for part in a b; do
    run_mpi 1 1 "$RMTSWEEP" run --output "$OUT/sweep-$part.h5" "${sweep_args[@]}" > "$OUT/sweep-$part.log" 2>&1 &
  done
  wait
  walls=$(sed -n 's/.*; wall \([0-9.]*\) s;.*/\1/p' "$OUT/sweep-a.log" "$OUT/sweep-b.log" | sort -g | tail -1)
  $PY -c "import json; s=float('$walls'); print(json.dumps({'kind': 'sweep_independent', 'ranks': 2, 'd': 800, 'points': 2 * $points, 'seconds': s, 'points_per_second': 2 * $points / s}))" >> "$RESULTS"
done

load_after=$(uptime | sed 's/.*load average: //')
$PY - "$RESULTS" "$core" "$default_core" "$load_before" "$load_after" <<'EOF' >> "$RESULTS"
import json, re, subprocess, sys
lscpu = subprocess.run(["lscpu"], capture_output=True, text=True).stdout
cpu = re.search(r"Model name:\s*(.*)", lscpu).group(1).strip()
mem = open("/proc/meminfo").read().split("\n")[0].split()[1]
openblas = subprocess.run(["dpkg-query", "-W", "-f", "${Version}", "libopenblas0-pthread"], capture_output=True, text=True).stdout
import os
print(json.dumps({"kind": "machine", "cpu": cpu, "cores": os.cpu_count(), "memory": f"{int(mem) / 2**20:.0f} GiB",
                  "openblas": f"OpenBLAS {openblas} (Debian, pthread)", "blas_core": sys.argv[2],
                  "default_core": sys.argv[3], "load_before": sys.argv[4], "load_after": sys.argv[5]}))
EOF
$PY "$SRC/bench/report.py" "$RESULTS"

# The matrix-free Krylov engine beside the dense point and the scipy reference, in the same run.
if [ ${#DIMS[@]} -eq 2 ]; then krylov_dims="2000"; big=0; else krylov_dims="2000 4000 8000"; big=16000; fi
: > "$OUT/krylov.jsonl"
bash "$SRC/bench/krylov_compare.sh" --build "$BUILD" --rounds 1 --dims "$krylov_dims" --big "$big"
echo
echo "Krylov engine (1 rank x 2 threads, delta 0.5, gamma 0.25; d = 16000 at delta 1, gamma 0.5, Krylov alone):"
$PY "$SRC/bench/krylov_report.py" "$OUT/krylov.jsonl"
