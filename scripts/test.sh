#!/usr/bin/env bash
# The whole test suite on a fresh Debian 12 machine: dependencies, build, ctest.
# Extra arguments go to ctest (for example: scripts/test.sh -L unit).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
ctest --test-dir "${BUILD_DIR:-build}" --output-on-failure "$@"
