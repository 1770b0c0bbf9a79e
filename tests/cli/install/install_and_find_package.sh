#!/usr/bin/env bash
# Installs the build tree into a temporary prefix, then configures, builds and runs a downstream
# project that finds it with find_package(rmtsweep): the export works, headers and dependencies included.
set -euo pipefail
build_dir=$1 source_dir=$2
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
cmake -S "$source_dir/tests/cli/install/consumer" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/build" >/dev/null
"$work/build/consumer" | tee "$work/out"
grep -q "right edge 0.374669" "$work/out"
test -x "$work/prefix/bin/rmtsweep"
