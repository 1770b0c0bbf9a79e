# shellcheck shell=bash
# The blocks every job script shares (jobs/local.sh, jobs/slurm.sbatch, jobs/pbs.qsub), sourced by
# each of them; not a script of its own. A batch system runs a copy of the job script from its spool
# directory, so each script looks for this file in $RMTSWEEP_HOME/jobs first (set RMTSWEEP_HOME to
# this checkout when the other places fail), then beside itself, then where its scheduler says the
# submitted script was (see each script's header).
#
# Environment read here:
#   RMTSWEEP          the rmtsweep program (default: rmtsweep on PATH, else the fallback each script gives)
#   RMTSWEEP_MODULES  space-separated environment modules to `module load` first, e.g.
#                     "openmpi/4.1 hdf5-mpi/1.12 scalapack boost" (when set and `module` exists)
#   OPENBLAS_CORETYPE OpenBLAS's kernel; chosen from the CPU when unset

# Prints the first of the given directories that holds common.sh (for the scripts' own lookup).
rmtsweep_common_dir() {
  local dir
  for dir in "$@"; do
    [ -n "$dir" ] && [ -r "$dir/common.sh" ] && { echo "$dir"; return 0; }
  done
  return 1
}

# `module load` each of RMTSWEEP_MODULES. A batch shell is often not a login shell and lacks the
# `module` function: the usual init files of Environment Modules and Lmod are tried first. Returns
# 2 (after a message naming it) when a module does not load.
rmtsweep_load_modules() {
  local name=$1 module_name init
  [ -n "${RMTSWEEP_MODULES:-}" ] || return 0
  if ! type module >/dev/null 2>&1; then
    for init in /etc/profile.d/modules.sh /etc/profile.d/lmod.sh /usr/share/lmod/lmod/init/bash \
                /usr/share/modules/init/bash; do
      # shellcheck disable=SC1090
      [ -r "$init" ] && { set +u; . "$init"; set -u; break; }
    done
  fi
  if ! type module >/dev/null 2>&1; then
    echo "$name: RMTSWEEP_MODULES is set but this shell has no 'module' command: not loading $RMTSWEEP_MODULES" >&2
    return 0
  fi
  for module_name in $RMTSWEEP_MODULES; do
    set +u  # module systems' shell functions read unset variables
    module load "$module_name"
    local loaded=$?
    set -u
    [ $loaded -eq 0 ] || { echo "$name: 'module load $module_name' failed (RMTSWEEP_MODULES)" >&2; return 2; }
  done
  echo "$name: loaded modules $RMTSWEEP_MODULES" >&2
}

# Sets `binary`: $RMTSWEEP, else rmtsweep on PATH, else the fallback path $2. Returns 2 (after a
# message) when it is not an executable.
rmtsweep_find_binary() {
  local name=$1 fallback=$2
  binary=${RMTSWEEP:-$(command -v rmtsweep || true)}
  [ -n "$binary" ] || binary=$fallback
  [ -x "$binary" ] && return 0
  echo "$name: rmtsweep program '$binary' not found (build it, or set RMTSWEEP)" >&2
  return 2
}

# OpenBLAS kernel (docs/performance.md): Debian 12's OpenBLAS 0.3.21 runs CPUs newer than it
# knows on its generic Prescott kernels, 3-4x slower. Unless the environment chose a kernel,
# take the one this CPU's instructions allow. Open MPI passes it to ranks on other nodes when
# told to (mca_base_env_list); other MPIs pass the whole environment and ignore the variable.
rmtsweep_openblas_env() {
  if [ -z "${OPENBLAS_CORETYPE:-}" ] && [ -r /proc/cpuinfo ]; then
    if grep -qw avx512f /proc/cpuinfo; then export OPENBLAS_CORETYPE=SkylakeX
    elif grep -qw avx2 /proc/cpuinfo; then export OPENBLAS_CORETYPE=Haswell; fi
  fi
  if [ -n "${OPENBLAS_CORETYPE:-}" ]; then
    export OMPI_MCA_mca_base_env_list="${OMPI_MCA_mca_base_env_list:+$OMPI_MCA_mca_base_env_list;}OPENBLAS_CORETYPE"
  fi
  [ "$(id -u)" -eq 0 ] && export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
  return 0
}

# ---- stopping the sweep on a signal ------------------------------------------------------------
# The caller starts the sweep in the background, sets rmtsweep_sweep=$! (and `launcher` when it is
# not mpirun), calls rmtsweep_trap_stop, then rmtsweep_wait_sweep.
rmtsweep_sweep=
rmtsweep_signalled=0
rmtsweep_status=0

# SIGTERM to the sweep's ranks on this node, rank 0 among them: the sweep stops handing out
# points, finishes the ones in hand and closes a resumable file. (Signalling mpirun instead makes
# it wait odls_base_sigkill_timeout before it signals the ranks and kill them soon after.)
rmtsweep_stop_sweep() {
  if [ "${launcher:-mpirun}" = mpirun ] && command -v pkill >/dev/null && pkill -"$1" -P "$rmtsweep_sweep"; then
    return
  fi
  kill -"$1" "$rmtsweep_sweep" 2>/dev/null
}

# Passes SIGTERM and SIGINT on to the sweep, printing message $1 on SIGTERM (none when empty), and
# records that a signal came (rmtsweep_signalled=1).
rmtsweep_trap_stop() {
  local message
  message=$(printf '%q' "$1")
  trap "rmtsweep_signalled=1; [ -n $message ] && echo $message >&2; rmtsweep_stop_sweep TERM" TERM
  trap 'rmtsweep_signalled=1; rmtsweep_stop_sweep INT' INT
}

# Waits until the sweep has exited (a trapped signal interrupts `wait`: wait again); its exit
# status in rmtsweep_status.
rmtsweep_wait_sweep() {
  while :; do
    wait "$rmtsweep_sweep"
    rmtsweep_status=$?
    kill -0 "$rmtsweep_sweep" 2>/dev/null || break
  done
}

# Whether to requeue (Slurm) or resubmit (PBS) a job stopped by a signal: RMTSWEEP_REQUEUE, 1 by
# default on both (PBS's former RMTSWEEP_RESUBMIT is read when RMTSWEEP_REQUEUE is unset).
rmtsweep_requeue_wanted() {
  [ "$rmtsweep_signalled" -eq 1 ] && [ "${RMTSWEEP_REQUEUE:-${RMTSWEEP_RESUBMIT:-1}}" = 1 ]
}
