#!/usr/bin/env bash
# The whole test suite on a fresh Debian 12 machine: dependencies, build, then every tier of ctest in
# parallel (docs/testing.md): unit, mpi, cli, validation (and style, once enabled).
#   bash scripts/test.sh            # every tier: what CI runs
#   bash scripts/test.sh --fast     # the fast tiers only: unit and mpi
#   bash scripts/test.sh -L cli     # other arguments go to ctest
# RMTSWEEP_TEST_JOBS sets ctest's -j (default: twice the cores). A test declares the cores it keeps busy on
# average (PROCESSORS, rounded up; an MPI test its ranks); the tests that launch the program wait on mpirun's
# start and end most of the time (their CPU time is 0.3-1.0 of their wall time), so twice the cores keeps the
# cores busy (docs/testing.md).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
args=()
for arg in "$@"; do
  if [ "$arg" = --fast ]; then
    args+=(-L '^(unit|mpi)$')
  else
    args+=("$arg")
  fi
done
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure --timeout 900 -j "${RMTSWEEP_TEST_JOBS:-$((2 * $(nproc)))}" \
  ${args[@]+"${args[@]}"}
