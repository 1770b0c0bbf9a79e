#!/usr/bin/env bash
# The Krylov engine against the dense engine and the scipy reference, side by side:
#
#   bash bench/krylov_compare.sh [--build DIR] [--rounds R] [--dims "2000 4000 8000"] [--big 16000]
#
# For each d (delta 0.5, gamma 0.25, T 10, prefix:3, mean, k 4) runs, R rounds in alternation,
# rmtsweep_bench_point --engine dense, --engine krylov and bench/scipy_krylov_reference.py, one
# JSON line each into DIR/bench-results/krylov.jsonl; then the Krylov engine alone at --big
# (delta 1, gamma 0.5). Alternating the programs within a round spreads the noise of a shared
# machine over all of them. Nothing here is a test: ctest never runs it.
set -euo pipefail
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD="$SRC/build"
ROUNDS=2
DIMS="2000 4000 8000"
BIG=16000
while [ $# -gt 0 ]; do
  case "$1" in
    --build) BUILD=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --dims) DIMS=$2; shift 2 ;;
    --big) BIG=$2; shift 2 ;;
    *) echo "usage: bash bench/krylov_compare.sh [--build DIR] [--rounds R] [--dims LIST] [--big D]" >&2; exit 2 ;;
  esac
done
# Debian's OpenBLAS 0.3.21 does not recognise every CPU: pick its kernels by the CPU's flags.
if [ -z "${OPENBLAS_CORETYPE:-}" ]; then
  if grep -q avx512f /proc/cpuinfo; then export OPENBLAS_CORETYPE=SkylakeX; else export OPENBLAS_CORETYPE=Haswell; fi
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
POINT="$BUILD/bench/rmtsweep_bench_point"
OUT="$BUILD/bench-results/krylov.jsonl"
mkdir -p "$(dirname "$OUT")"
common=(--delta 0.5 --gamma 0.25 --T 10 --correlation prefix:3 --weighting mean --snr 1 --k 4)
for d in $DIMS; do
  for round in $(seq "$ROUNDS"); do
    for engine in dense krylov scipy; do
      echo "== d $d round $round $engine ($(date -u +%H:%M:%S), load $(cut -d' ' -f1 /proc/loadavg))" >&2
      if [ "$engine" = scipy ]; then
        line=$(/usr/bin/python3 "$SRC/bench/scipy_krylov_reference.py" --d "$d" --delta 0.5 --gamma 0.25 --T 10 --L 3 --snr 1 --k 4)
      else
        line=$("$POINT" --d "$d" "${common[@]}" --engine "$engine")
      fi
      echo "{\"round\":$round,\"load\":$(cut -d' ' -f1 /proc/loadavg),\"result\":$line}" >> "$OUT"
    done
  done
done
if [ "$BIG" -gt 0 ]; then
  echo "== d $BIG krylov alone ($(date -u +%H:%M:%S))" >&2
  line=$("$POINT" --d "$BIG" --delta 1 --gamma 0.5 --T 10 --correlation prefix:3 --weighting mean --snr 1 --k 4 --engine krylov)
  echo "{\"round\":1,\"load\":$(cut -d' ' -f1 /proc/loadavg),\"result\":$line}" >> "$OUT"
fi
echo "wrote $OUT" >&2
