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
# checkout), MPIRUN (default mpirun), RMTSWEEP_KILL_GRACE (seconds between SIGTERM and SIGKILL).
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
binary=${RMTSWEEP:-$(command -v rmtsweep || true)}
[ -n "$binary" ] || binary=$here/build/rmtsweep
[ -x "$binary" ] || { echo "local.sh: rmtsweep program '$binary' not found (build it, or set RMTSWEEP)" >&2; exit 2; }

extra=("$@")
resume=()
if [ -e "$output" ]; then
  resume=(--resume)
  for option in "${extra[@]}"; do [ "$option" = --force ] && resume=(); done
fi
mkdir -p "$(dirname "$output")"
export OPENBLAS_NUM_THREADS=${OPENBLAS_NUM_THREADS:-1} OMP_NUM_THREADS=${OMP_NUM_THREADS:-1}
export OMPI_MCA_odls_base_sigkill_timeout=${RMTSWEEP_KILL_GRACE:-60}
[ "$(id -u)" -eq 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

echo "local.sh: $ranks ranks, config $config, output $output ${resume[*]}" >&2
${MPIRUN:-mpirun} --oversubscribe -np "$ranks" "$binary" run --config "$config" --output "$output" \
  "${resume[@]}" "${extra[@]}" &
sweep=$!
trap 'kill -TERM $sweep 2>/dev/null' TERM
trap 'kill -INT $sweep 2>/dev/null' INT
while :; do  # a trapped signal interrupts wait: wait again until the sweep has exited
  wait $sweep
  status=$?
  kill -0 $sweep 2>/dev/null || break
done
exit $status
