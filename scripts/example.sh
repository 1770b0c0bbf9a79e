#!/usr/bin/env bash
# A real default run end to end on a fresh Debian 12 machine: dependencies, build, run, plots.
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/build.sh
build=${BUILD_DIR:-build}
"$build/rmtsweep" theory --weighting optimal
