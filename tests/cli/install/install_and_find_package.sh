#!/usr/bin/env bash
# Installs the build tree into a temporary prefix, then configures, builds and runs a downstream
# project that finds it with find_package(rmtsweep): the export works, headers and dependencies included;
# and `import rmtsweep` works with PYTHONPATH=<prefix>/share/rmtsweep/python, its theory module too where the build
# made one.
set -euo pipefail
build_dir=$1 source_dir=$2 python=${3:-/usr/bin/python3}  # the Python CMake found with h5py
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cmake --install "$build_dir" --prefix "$work/prefix" >/dev/null
cmake -S "$source_dir/tests/cli/install/consumer" -B "$work/build" -DCMAKE_PREFIX_PATH="$work/prefix" >/dev/null
cmake --build "$work/build" >/dev/null
"$work/build/consumer" | tee "$work/out"
grep -q "right edge 0.374669" "$work/out"
test -x "$work/prefix/bin/rmtsweep"
# The Python package beside the binary, without the source tree's bytecode: importable from the prefix
# alone (the README's set-up line).
python_dir="$work/prefix/share/rmtsweep/python"
test -f "$python_dir/rmtsweep/__init__.py"
test -z "$(find "$work/prefix" -name __pycache__)"
(cd "$work" && PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$python_dir" "$python" -c \
  'import rmtsweep, rmtsweep.figures, sys; sys.exit(0 if rmtsweep.__file__.startswith(sys.argv[1]) else 1)' "$python_dir")
# The compiled theory module, installed beside the package where the build made one (pybind11 found).
if compgen -G "$source_dir/python/rmtsweep/_theory*.so" > /dev/null; then
  compgen -G "$python_dir/rmtsweep/_theory*.so" > /dev/null
  (cd "$work" && PYTHONDONTWRITEBYTECODE=1 PYTHONPATH="$python_dir" "$python" -c \
    'from rmtsweep import theory; import sys; sys.exit(0 if theory.module().__file__.startswith(sys.argv[1]) and abs(theory.paper(weighting="mean")["overlap"] - 0.424875) < 5e-7 else 1)' "$python_dir")
fi
