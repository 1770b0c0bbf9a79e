#!/usr/bin/env bash
# Configures and builds rmtsweep in ${BUILD_DIR:-build} (Release), after installing dependencies.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/install-deps.sh
build=${BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=${BUILD_TYPE:-Release} ${CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j "$(nproc)"
