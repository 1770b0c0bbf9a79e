#!/usr/bin/env bash
# The whole test suite on a fresh Debian 12 machine: dependencies, build, then every tier of ctest in
# parallel (docs/testing.md): unit, mpi, cli, validation (and style, once enabled).
#   bash scripts/test.sh            # every tier: what CI runs
#   bash scripts/test.sh --fast     # the fast tiers only: unit and mpi
#   bash scripts/test.sh -L cli     # other arguments go to ctest
# RMTSWEEP_TEST_JOBS sets how many tests run at once (default: the cores; an MPI test counts its ranks).
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
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure --timeout 900 -j "${RMTSWEEP_TEST_JOBS:-$(nproc)}" \
  ${args[@]+"${args[@]}"}
