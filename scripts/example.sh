#!/usr/bin/env bash
# A real default run end to end on a fresh Debian 12 machine: dependencies, build, a small sweep
# on configs/example.ini with mpirun, the phase tables (assemble) and the figures (plot).
# Run it again and the sweep resumes (nothing left to compute) instead of starting over.
# Environment: BUILD_DIR (default build), RANKS (default: the number of cores), OUT (default out).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
build=${BUILD_DIR:-build}
out=${OUT:-out}
mkdir -p "$out"
binary=$build/rmtsweep

echo "example: theory of one point (docs/model.md 5.3):"
"$binary" theory --weighting optimal

echo "example: sweep configs/example.ini into $out/example.h5"
RMTSWEEP=$binary bash jobs/local.sh configs/example.ini "$out/example.h5" "${RANKS:-$(nproc)}"

echo "example: phase tables into $out/example.h5:/phase"
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
"$binary" assemble "$out/example.h5"

echo "example: figures"
# --force: a rerun redraws the figures of the (resumed, reassembled) sweep over the last run's.
"$binary" plot "$out/example.h5" --output "$out/figures" --force
echo "example: done. The sweep file is $out/example.h5; the figures are in $out/figures/:"
ls -1 "$out/figures"
