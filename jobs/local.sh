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
# checkout), MPIRUN (default mpirun).
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

# OpenBLAS kernel (docs/performance.md): Debian 12's OpenBLAS 0.3.21 runs CPUs newer than it
# knows on its generic Prescott kernels, 3-4x slower. Unless the environment chose a kernel,
# take the one this CPU's instructions allow. Open MPI passes it to ranks on other nodes when
# told to (mca_base_env_list); other MPIs pass the whole environment and ignore the variable.
if [ -z "${OPENBLAS_CORETYPE:-}" ] && [ -r /proc/cpuinfo ]; then
  if grep -qw avx512f /proc/cpuinfo; then export OPENBLAS_CORETYPE=SkylakeX
  elif grep -qw avx2 /proc/cpuinfo; then export OPENBLAS_CORETYPE=Haswell; fi
fi
if [ -n "${OPENBLAS_CORETYPE:-}" ]; then
  export OMPI_MCA_mca_base_env_list="${OMPI_MCA_mca_base_env_list:+$OMPI_MCA_mca_base_env_list;}OPENBLAS_CORETYPE"
fi
extra=("$@")
resume=()
if [ -e "$output" ]; then
  resume=(--resume)
  for option in "${extra[@]}"; do [ "$option" = --force ] && resume=(); done
fi
mkdir -p "$(dirname "$output")"
[ "$(id -u)" -eq 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1

echo "local.sh: $ranks ranks, config $config, output $output ${resume[*]}" >&2
# In its own session, so that Ctrl-C reaches this script only, which passes it on to the ranks.
# --bind-to none: Open MPI binds each of <= 2 ranks to one core, which would leave a single rank's
# BLAS threads (cores / ranks per node) sharing one core.
setsid ${MPIRUN:-mpirun} --oversubscribe --bind-to none -np "$ranks" "$binary" run --config "$config" --output "$output" \
  "${resume[@]}" "${extra[@]}" &
sweep=$!
# SIGTERM to the sweep's ranks on this node, rank 0 among them: the sweep stops handing out
# points, finishes the ones in hand and closes a resumable file. (Signalling mpirun instead makes
# it wait odls_base_sigkill_timeout before it signals the ranks and kill them soon after.)
stop_sweep() {
  if [ "${launcher:-mpirun}" = mpirun ] && command -v pkill >/dev/null && pkill -"$1" -P "$sweep"; then return; fi
  kill -"$1" "$sweep" 2>/dev/null
}
trap 'stop_sweep TERM' TERM
trap 'stop_sweep INT' INT
while :; do  # a trapped signal interrupts wait: wait again until the sweep has exited
  wait $sweep
  status=$?
  kill -0 $sweep 2>/dev/null || break
done
exit $status
