#!/usr/bin/env bash
# `pip install ./python` into a fresh venv made with --system-site-packages, with no registry (Debian's
# setuptools, --no-build-isolation), used from a directory outside the repository (docs/python.md): import
# rmtsweep from the venv, `python -m rmtsweep --help` and `python -m rmtsweep.cli --help`, the compiled theory
# module installed with it (equal to `rmtsweep theory --json`), open_phase on a small sweep.
#
#   tests/cli/install/venv_install.sh SOURCE_DIR RMTSWEEP_BINARY [PYTHON]   (PYTHON: the one CMake found with h5py)
set -euo pipefail
source_dir=$1 binary=$2 python=${3:-/usr/bin/python3}
work=$(mktemp -d /tmp/rmtsweep-venv.XXXXXX)
trap 'rm -rf "$work"' EXIT
fail() { echo "FAIL: $*"; exit 1; }
# A copy of python/: pip builds in the tree it installs from (build/, *.egg-info), which must not be the source's.
cp -r "$source_dir/python" "$work/python"
find "$work/python" -name __pycache__ -prune -exec rm -rf {} +
"$python" -m venv --system-site-packages "$work/venv"
"$work/venv/bin/pip" install --no-index --no-build-isolation --quiet "$work/python" ||
  fail "pip install --no-index --no-build-isolation ./python"
py="$work/venv/bin/python"
mkdir "$work/elsewhere" && cd "$work/elsewhere"
export PYTHONDONTWRITEBYTECODE=1
unset PYTHONPATH
"$py" -m rmtsweep --help | grep -q "usage: python -m rmtsweep" || fail "python -m rmtsweep --help"
"$py" -m rmtsweep.cli --help | grep -q "usage: rmtsweep plot" || fail "python -m rmtsweep.cli --help"
"$py" -m rmtsweep info | tee "$work/info"
grep -q "rmtsweep 0.1.0 (Python package) at $work/venv/" "$work/info" || fail "not imported from the venv"
expected=$("$binary" --version)
[ "rmtsweep $("$py" -c 'import rmtsweep; print(rmtsweep.__version__)')" = "$expected" ] ||
  fail "the package's version is not the program's ($expected)"
if compgen -G "$source_dir/python/rmtsweep/_theory*.so" > /dev/null; then
  grep -q "theory module: $work/venv/.*_theory" "$work/info" || fail "the theory module is not the venv's"
  "$binary" theory --json --delta 0.7 --snr 2 --weighting optimal > "$work/theory.json"
  "$py" - "$work/theory.json" <<'PY' || fail "the venv's theory differs from rmtsweep theory --json"
import json, sys
import numpy as np
from rmtsweep import theory
expected = json.load(open(sys.argv[1]))
got = theory.paper(delta=0.7, snr=2.0, weighting="optimal")
assert all(np.float64(expected[k]).view(np.int64) == got[k].view(np.int64)
           for k in expected if isinstance(expected[k], float)), (expected, got)
PY
fi
OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 "$binary" run --output sweep.h5 --d 16 --delta 0.5,1 \
  --gamma 0.5 --snr 0:2:3 --weighting mean --trials 2 --quiet > /dev/null
"$binary" assemble sweep.h5 --quiet > /dev/null
"$py" -c 'import rmtsweep; p = rmtsweep.open_phase("sweep.h5"); assert p.overlap_mean.dims == ("weighting", "d", "delta", "gamma", "snr")' ||
  fail "open_phase from the venv"
echo "venv_install: PASS"
