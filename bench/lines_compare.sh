#!/usr/bin/env bash
# A line of snr values from one factorization against its points computed one at a time, side by side:
#
#   bash bench/lines_compare.sh [--build DIR] [--rounds R] [--dims "2000 4000"] [--sample P] [--skip-sweep]
#                               [--skip-line] [--finite-size]
#
# 1. jobs/configs/phase_transitions_laptop.ini (49 snr values per line) on 2 ranks with lines = auto and
#    lines = off, R rounds in alternation: the sweep's wall time, and both files kept for bench/lines_report.py
#    (the largest difference of every stored number).
# 2. One line of 64 snr values (0 ... 3.15, delta 0.5, gamma 0.25, T 10, prefix:3, mean, k 4) at each d, on 1 rank
#    with both cores: `rmtsweep point --snr 0:3.15:64` with the dense and the Krylov engine, against the points
#    one at a time with each engine and bench/scipy_krylov_reference.py (the peer a researcher would write). A
#    point's time hardly depends on its snr, so P of the 64 (spread over the line) are timed and the line's cost
#    taken as 64 x their mean; the report says so.
# 3. With --finite-size: jobs/local.sh on jobs/configs/finite_size_laptop.ini and its iid twin (2 ranks x 1 thread),
#    the wall time of each whole study.
# Every engine reports its own seconds (generation to test accuracy, no process start): one JSON line each into
# DIR/bench-results/lines.jsonl. Alternating the programs within a round spreads a shared machine's noise over all
# of them. Nothing here is a test: ctest never runs it.
set -euo pipefail
SRC=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD="$SRC/build"
ROUNDS=2
DIMS="2000 4000"
SAMPLE=4
SWEEP=1
LINE=1
FINITE=0
while [ $# -gt 0 ]; do
  case "$1" in
    --build) BUILD=$2; shift 2 ;;
    --rounds) ROUNDS=$2; shift 2 ;;
    --dims) DIMS=$2; shift 2 ;;
    --sample) SAMPLE=$2; shift 2 ;;
    --skip-sweep) SWEEP=0; shift ;;
    --skip-line) LINE=0; shift ;;
    --finite-size) FINITE=1; shift ;;
    *) echo "usage: bash bench/lines_compare.sh [--build DIR] [--rounds R] [--dims LIST] [--sample P] [--skip-sweep] [--skip-line] [--finite-size]" >&2; exit 2 ;;
  esac
done
# Debian's OpenBLAS 0.3.21 does not recognise every CPU: pick its kernels by the CPU's flags.
if [ -z "${OPENBLAS_CORETYPE:-}" ]; then
  if grep -q avx512f /proc/cpuinfo; then export OPENBLAS_CORETYPE=SkylakeX; else export OPENBLAS_CORETYPE=Haswell; fi
fi
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
RMTSWEEP="$BUILD/rmtsweep"
RESULTS="$BUILD/bench-results"
OUT="$RESULTS/lines.jsonl"
mkdir -p "$RESULTS"
load() { cut -d' ' -f1 /proc/loadavg; }
now() { date +%s.%N; }
record() { echo "{\"load\":$(load),$1}" >> "$OUT"; }

if [ "$SWEEP" = 1 ]; then
  config="$SRC/jobs/configs/phase_transitions_laptop.ini"
  for round in $(seq "$ROUNDS"); do
    for lines in auto off; do
      file="$RESULTS/phase_transitions_lines_$lines.h5"
      rm -rf "$file" "$file.journal" "$file.lock"
      echo "== sweep lines = $lines round $round ($(date -u +%H:%M:%S), load $(load))" >&2
      start=$(now)
      mpirun -np 2 --oversubscribe "$RMTSWEEP" run --config "$config" --output "$file" --lines "$lines" >/dev/null 2>&1
      end=$(now)
      record "\"kind\":\"sweep\",\"lines\":\"$lines\",\"round\":$round,\"seconds\":$(/usr/bin/python3 -c "print($end - $start)")"
    done
  done
fi

if [ "$LINE" = 1 ]; then
  common=(--delta 0.5 --gamma 0.25 --T 10 --correlation prefix:3 --weighting mean --k 4)
  for d in $DIMS; do
    for round in $(seq "$ROUNDS"); do
      for engine in dense krylov; do
        echo "== d $d round $round line $engine ($(date -u +%H:%M:%S), load $(load))" >&2
        seconds=$(mpirun -np 1 --bind-to none "$RMTSWEEP" point --d "$d" "${common[@]}" --snr 0:3.15:64 \
                    --eigensolver "$engine" --json | /usr/bin/python3 -c "import json,sys; print(json.load(sys.stdin)['line']['seconds']['total'])")
        record "\"kind\":\"line\",\"d\":$d,\"engine\":\"$engine\",\"round\":$round,\"snr_values\":64,\"seconds\":$seconds"
      done
      # P points of the 64, spread over the line: each engine one at a time, and the scipy peer.
      for i in $(seq 0 $((SAMPLE - 1))); do
        snr=$(/usr/bin/python3 -c "print(round(0.05 * round($i * 63 / max(1, $SAMPLE - 1)), 2))")
        for engine in dense krylov scipy; do
          echo "== d $d round $round point snr $snr $engine ($(date -u +%H:%M:%S), load $(load))" >&2
          if [ "$engine" = scipy ]; then
            seconds=$(/usr/bin/python3 "$SRC/bench/scipy_krylov_reference.py" --d "$d" --delta 0.5 --gamma 0.25 --T 10 --L 3 \
                        --snr "$snr" --k 4 | /usr/bin/python3 -c "import json,sys; print(json.load(sys.stdin)['seconds']['total'])")
          else
            seconds=$(mpirun -np 1 --bind-to none "$RMTSWEEP" point --d "$d" "${common[@]}" --snr "$snr" \
                        --eigensolver "$engine" --json | /usr/bin/python3 -c "import json,sys; print(json.load(sys.stdin)['empirical']['seconds']['total'])")
          fi
          record "\"kind\":\"point\",\"d\":$d,\"engine\":\"$engine\",\"round\":$round,\"snr\":$snr,\"seconds\":$seconds"
        done
      done
    done
  done
fi

if [ "$FINITE" = 1 ]; then
  for name in finite_size_laptop finite_size_laptop_iid; do
    file="$RESULTS/$name.h5"
    rm -rf "$file" "$file.journal" "$file.lock"
    echo "== $name ($(date -u +%H:%M:%S), load $(load))" >&2
    start=$(now)
    RMTSWEEP="$RMTSWEEP" bash "$SRC/jobs/local.sh" "$SRC/jobs/configs/$name.ini" "$file" 2 >/dev/null 2>&1
    end=$(now)
    record "\"kind\":\"study\",\"name\":\"$name\",\"seconds\":$(/usr/bin/python3 -c "print($end - $start)")"
  done
fi
echo "wrote $OUT; report: /usr/bin/python3 $SRC/bench/lines_report.py $RESULTS" >&2
