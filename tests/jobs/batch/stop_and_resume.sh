#!/usr/bin/env bash
# jobs/local.sh and jobs/pbs.qsub stop a sweep cleanly on a signal and resume it when run again.
#
#   tests/jobs/batch/stop_and_resume.sh RMTSWEEP_BINARY [SOURCE_DIR]
#
# 1. local.sh: SIGTERM to the script once the sweep reports done points -> the sweep stops
#    (status 143, a resumable file with points pending); the same command again, with
#    RMTSWEEP_MODULES set, loads those modules (a recording `module`) and finishes every point.
# 2. pbs.qsub outside PBS, with the environment a PBS job has (PBS_O_WORKDIR, PBS_NODEFILE listing
#    this host twice, PBS_JOBID) and PBS_WALLTIME = RMTSWEEP_STOP_MARGIN + 2: the script's own
#    alarm stops the sweep 2 s after its start and the script resubmits itself (a recording qsub)
#    and exits 0, as slurm.sbatch requeues; the same command again resumes to completion.
set -uo pipefail

binary=${1:?usage: stop_and_resume.sh RMTSWEEP_BINARY [SOURCE_DIR]}
source_dir=${2:-$(cd "$(dirname "$0")/../../.." && pwd)}
fail() {
  echo "FAIL: $*"
  for f in "$work"/*.log; do [ -f "$f" ] && { echo "---- $f"; grep -v "points/s" "$f" | tail -n 20; }; done
  exit 1
}
work=$(mktemp -d /tmp/rmtsweep-jobs.XXXXXX)
trap 'rm -rf "$work"' EXIT
cd "$work" || exit 1
export RMTSWEEP=$binary

# 400 points of d = 40 computed one at a time (lines = off), each group waiting 0.02 s after each (the
# test-only unit_pause key, docs/config.md): about 4 s on 2 ranks whatever the machine, with little CPU,
# long enough to be stopped after its first points and by pbs.qsub's alarm 2 s in.
cat > sweep.ini <<EOF
d = 40
T = 10
correlation = prefix:3
seed = 4
trials = 10
unit_pause = 0.02
delta = 0.5
gamma = 0.5
snr = 0:3:20
weighting = mean,optimal
store_spectra = false
lines = off
EOF
counts() {  # file: prints "done pending" from rmtsweep status
  "$binary" status "$1" 2>/dev/null | sed -n 's/^points: \([0-9]*\) total, \([0-9]*\) done, \([0-9]*\) pending.*/\2 \3/p'
}

# ---- 1. local.sh --------------------------------------------------------------------------
bash "$source_dir/jobs/local.sh" sweep.ini local.h5 2 > local.log 2>&1 &
script=$!
for i in $(seq 240); do
  grep -q "points ([0-9]*%; [1-9][0-9]* this run)" local.log 2>/dev/null && break
  sleep 0.25
done
kill -TERM $script
wait $script
status=$?
[ $status -eq 143 ] || fail "local.sh exited with $status after SIGTERM, expected 143 (128 + SIGTERM)"
read -r done pending <<< "$(counts local.h5)"
[ "${pending:-0}" -gt 0 ] && [ "${done:-0}" -gt 0 ] ||
  fail "after SIGTERM local.h5 should hold done and pending points (done ${done:-?}, pending ${pending:-?})"
echo "local.sh stopped by SIGTERM: $done done, $pending pending"
# The resume loads RMTSWEEP_MODULES with the shell's `module` (here one that records its calls).
eval "module() { echo \"module \$*\" >> '$work/modules.log'; }"  # the path fixed now: local.sh has no $work
export -f module
RMTSWEEP_MODULES="mpi/fake hdf5-mpi/fake" bash "$source_dir/jobs/local.sh" sweep.ini local.h5 2 > local_resume.log 2>&1 ||
  fail "local.sh did not resume"
unset -f module
grep -q -- "--resume" local_resume.log || fail "the second local.sh run did not resume"
[ "$(cat modules.log)" = "$(printf 'module load mpi/fake\nmodule load hdf5-mpi/fake')" ] ||
  fail "local.sh did not load RMTSWEEP_MODULES in order: $(cat modules.log)"
read -r done pending <<< "$(counts local.h5)"
[ "$done" = 400 ] && [ "$pending" = 0 ] || fail "after the resume: done $done, pending $pending (expected 400, 0)"
echo "local.sh resumed: 400 done"

# ---- 2. pbs.qsub with its own pre-walltime alarm ------------------------------------------
printf '%s\n%s\n' localhost localhost > nodes
pbs_env=(PBS_O_WORKDIR="$work" PBS_NODEFILE="$work/nodes" PBS_JOBID=test.0 RMTSWEEP_STOP_MARGIN=120)
# A qsub that records what it was given: after its alarm pbs.qsub resubmits itself by default (the
# requeue policy of slurm.sbatch) and exits 0.
mkdir -p bin
printf '#!/bin/sh\necho "$@" > %s/qsub.log\necho 2.fake\n' "$work" > bin/qsub
chmod +x bin/qsub
env "${pbs_env[@]}" PATH="$work/bin:$PATH" PBS_WALLTIME=122 bash "$source_dir/jobs/pbs.qsub" sweep.ini pbs.h5 > pbs.log 2>&1
status=$?
grep -q "stopping the sweep before the walltime" pbs.log || fail "pbs.qsub's alarm did not fire"
[ $status -eq 0 ] || fail "pbs.qsub exited with $status after its alarm and resubmission, expected 0"
grep -q "RMTSWEEP_OUTPUT=pbs.h5,RMTSWEEP_REQUEUE=1" qsub.log 2>/dev/null ||
  fail "pbs.qsub did not resubmit itself for pbs.h5: $(cat qsub.log 2>/dev/null)"
read -r done pending <<< "$(counts pbs.h5)"
[ "${pending:-0}" -gt 0 ] || fail "the sweep finished before the alarm (done ${done:-?}): nothing to resume"
echo "pbs.qsub stopped by its alarm: $done done, $pending pending"
env "${pbs_env[@]}" bash "$source_dir/jobs/pbs.qsub" sweep.ini pbs.h5 > pbs_resume.log 2>&1 || fail "pbs.qsub did not resume"
read -r done pending <<< "$(counts pbs.h5)"
[ "$done" = 400 ] && [ "$pending" = 0 ] || fail "after the resume: done $done, pending $pending (expected 400, 0)"
echo "pbs.qsub resumed: 400 done"
echo "stop_and_resume: PASS"
