#!/usr/bin/env bash
# Configures and builds rmtsweep in ${BUILD_DIR:-build} (Release), after installing the missing
# Debian packages where it can (scripts/install-deps.sh: as root; RMTSWEEP_SKIP_DEPS=1 skips it).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
build=${BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-Release} ${CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j "$(nproc)"
