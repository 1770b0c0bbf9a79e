#!/usr/bin/env bash
# Runs an rmtsweep sweep on this machine with mpirun, resumable.
#
#   jobs/local.sh CONFIG OUTPUT [RANKS] [-- extra 'rmtsweep run' options]
#
# RANKS defaults to the number of cores. When OUTPUT exists the sweep continues it
# (`rmtsweep run --resume`), so the same command run again after Ctrl-C, a kill or a crash
# finishes the sweep; pass `-- --force` to start over instead. Ctrl-C (or SIGTERM) stops the
# sweep cleanly: it stops handing out points and leaves a resumable file.
#
# Environment: RMTSWEEP (the program; default: rmtsweep on PATH, else build/rmtsweep of this
# checkout), MPIRUN (default mpirun), RMTSWEEP_MODULES (modules to `module load` first). The blocks
# shared with the batch scripts are in jobs/common.sh, beside this script.
set -uo pipefail

if [ $# -lt 2 ]; then
  echo "usage: jobs/local.sh CONFIG OUTPUT [RANKS] [-- extra 'rmtsweep run' options]" >&2
  exit 2
fi
config=$1
output=$2
shift 2
ranks=$(nproc)
if [ $# -gt 0 ] && [ "$1" != "--" ]; then
  ranks=$1
  shift
fi
[ $# -gt 0 ] && [ "$1" = "--" ] && shift
[ -f "$config" ] || { echo "local.sh: config '$config' not found" >&2; exit 2; }
case $ranks in '' | *[!0-9]* | 0) echo "local.sh: RANKS must be a positive integer, got '$ranks'" >&2; exit 2 ;; esac

here=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
# shellcheck source=jobs/common.sh
. "$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/common.sh" || exit 2
rmtsweep_load_modules local.sh || exit 2
rmtsweep_find_binary local.sh "$here/build/rmtsweep" || exit 2
rmtsweep_openblas_env
extra=("$@")
resume=()
if [ -e "$output" ]; then
  resume=(--resume)
  for option in "${extra[@]}"; do [ "$option" = --force ] && resume=(); done
fi
mkdir -p "$(dirname "$output")"

echo "local.sh: $ranks ranks, config $config, output $output ${resume[*]}" >&2
# In its own session, so that Ctrl-C reaches this script only, which passes it on to the ranks.
# --bind-to none: Open MPI binds each of <= 2 ranks to one core, which would leave a single rank's
# BLAS threads (cores / ranks per node) sharing one core.
setsid ${MPIRUN:-mpirun} --oversubscribe --bind-to none -np "$ranks" "$binary" run --config "$config" --output "$output" \
  "${resume[@]}" "${extra[@]}" &
rmtsweep_sweep=$!
rmtsweep_trap_stop ""
rmtsweep_wait_sweep
exit $rmtsweep_status
