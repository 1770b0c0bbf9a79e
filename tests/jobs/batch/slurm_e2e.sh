#!/usr/bin/env bash
# End-to-end test of jobs/slurm.sbatch on a real, private, single-node Slurm cluster.
#
#   tests/jobs/batch/slurm_e2e.sh RMTSWEEP_BINARY [SOURCE_DIR]
#
# 1. Installs Debian's slurm-wlm and munge when missing (apt-get; needs root).
# 2. Starts munged, slurmctld and slurmd by hand in a temporary directory: its own munge key
#    and socket, a slurm.conf for this host only (NodeName=$(hostname), proctrack/linuxproc,
#    task/none, no cgroups, no accounting), ports on the loopback address only; cred_expire=10
#    so that a requeued job may start again after 10 s instead of the default 120 s.
# 3. Submits jobs/slurm.sbatch with sbatch on a tiny sweep (2 tasks), waits for it (bounded)
#    and checks the HDF5 file with h5py: every point done, the expected shapes.
# 4. Submits a longer sweep, sends the batch script SIGTERM once the first points are done
#    (`scancel --batch --signal=TERM`, what `#SBATCH --signal=B:TERM@120` does before the time
#    limit), and checks that the script stopped the sweep, requeued itself, and that the rerun
#    resumed the file to completion.
# 5. Submits jobs/slurm_array.sbatch as an array of 3 tasks (shards) on the tiny sweep, and its merge as a
#    job depending on the array (--dependency=afterok), and checks that the merged file holds the same
#    numbers as the tiny sweep run whole (tests/python/compare_sweep_files.py).
# 6. Stops the daemons it started (by their pids) and removes the directory.
#
# Exit status: 0 passed, 1 failed, 77 skipped (with a line "SKIP: why"; ctest shows it skipped).
set -uo pipefail

binary=${1:?usage: slurm_e2e.sh RMTSWEEP_BINARY [SOURCE_DIR]}
source_dir=${2:-$(cd "$(dirname "$0")/../../.." && pwd)}
python=/usr/bin/python3
skip() { echo "SKIP: $*"; exit 77; }
fail() {
  echo "FAIL: $*"
  for f in "$work"/log/*.log "$work"/*.out; do [ -f "$f" ] && { echo "---- $f"; tail -n 40 "$f"; }; done
  exit 1
}
step() { echo "slurm_e2e [${SECONDS}s]: $*"; }

[ -x "$binary" ] || fail "rmtsweep program '$binary' not found"

# ---- 1. packages ------------------------------------------------------------------------
if ! command -v slurmctld >/dev/null || ! command -v slurmd >/dev/null || ! command -v sbatch >/dev/null ||
   ! command -v munged >/dev/null; then
  [ "$(id -u)" -eq 0 ] || skip "slurm-wlm and munge are not installed and installing them needs root"
  step "installing slurm-wlm and munge with apt-get"
  if ! DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null 2>&1; then
    apt-get update -qq >/dev/null 2>&1
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends slurm-wlm munge >/dev/null 2>&1 ||
      skip "apt-get could not install slurm-wlm and munge (no package mirror reachable?)"
  fi
fi
[ "$(id -u)" -eq 0 ] || skip "slurmd must run as root to launch jobs (SlurmdUser=root); run this test as root"

# ---- 2. a private single-node cluster -----------------------------------------------------
work=$(mktemp -d /tmp/rmtsweep-slurm.XXXXXX)
chmod 0711 "$work"
mkdir -p "$work/munge" "$work/state" "$work/spool" "$work/log" "$work/run"
chmod 0711 "$work/munge"
pids=()
cleanup() {
  local pid
  [ -n "${SLURM_CONF:-}" ] && scancel --quiet --user="$(id -un)" >/dev/null 2>&1
  for pid in "${pids[@]}"; do kill -TERM "$pid" 2>/dev/null; done
  sleep 1
  for pid in "${pids[@]}"; do kill -0 "$pid" 2>/dev/null && kill -KILL "$pid" 2>/dev/null; done
  [ -n "${RMTSWEEP_E2E_KEEP:-}" ] && { echo "slurm_e2e: kept $work"; return; }
  rm -rf "$work"
}
trap cleanup EXIT

pid_from() {  # waits up to 10 s for a pid file, prints the pid
  local i
  for i in $(seq 50); do [ -s "$1" ] && { cat "$1"; return 0; }; sleep 0.2; done
  return 1
}
port_free() { ! (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
pick_port() {
  local port
  for _ in $(seq 50); do
    port=$((20000 + RANDOM % 20000))
    port_free "$port" && port_free $((port + 1)) && { echo "$port"; return 0; }
  done
  return 1
}

step "starting munged"
mungekey --create --keyfile="$work/munge/munge.key" >/dev/null 2>&1 ||
  { dd if=/dev/urandom of="$work/munge/munge.key" bs=1024 count=1 2>/dev/null; }
chmod 0400 "$work/munge/munge.key"
socket=$work/munge/munge.socket.2
munged --force --socket="$socket" --key-file="$work/munge/munge.key" --log-file="$work/log/munged.log" \
  --pid-file="$work/munge/munged.pid" --seed-file="$work/munge/munged.seed" || fail "munged did not start"
pids+=("$(pid_from "$work/munge/munged.pid")") || fail "munged wrote no pid file"
munge -S "$socket" -n | unmunge -S "$socket" >/dev/null || fail "munge cannot encode and decode a credential"

host=$(hostname)
port=$(pick_port) || fail "no free port pair found"
memory=$(($(awk '/MemTotal/ { print $2 }' /proc/meminfo) / 1024 / 2))
export SLURM_CONF=$work/slurm.conf
cat > "$SLURM_CONF" <<EOF
ClusterName=rmtsweepe2e
SlurmctldHost=$host(127.0.0.1)
SlurmctldPort=$port
SlurmdPort=$((port + 1))
AuthType=auth/munge
AuthInfo=socket=$socket,cred_expire=10
CredType=cred/munge
SlurmUser=root
SlurmdUser=root
StateSaveLocation=$work/state
SlurmdSpoolDir=$work/spool
SlurmctldPidFile=$work/run/slurmctld.pid
SlurmdPidFile=$work/run/slurmd.pid
SlurmctldLogFile=$work/log/slurmctld.log
SlurmdLogFile=$work/log/slurmd.log
MailProg=/bin/true
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
JobCompType=jobcomp/none
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
SchedulerType=sched/builtin
SchedulerParameters=sched_interval=1
MpiDefault=none
ReturnToService=2
MinJobAge=600
KillWait=30
NodeName=$host NodeAddr=127.0.0.1 CPUs=2 RealMemory=$memory State=UNKNOWN
PartitionName=e2e Nodes=$host Default=YES MaxTime=INFINITE State=UP
EOF

step "starting slurmctld and slurmd (ports $port, $((port + 1)))"
slurmctld -f "$SLURM_CONF" -c -i || fail "slurmctld did not start"
pids+=("$(pid_from "$work/run/slurmctld.pid")") || fail "slurmctld wrote no pid file"
slurmd -f "$SLURM_CONF" || fail "slurmd did not start"
pids+=("$(pid_from "$work/run/slurmd.pid")") || fail "slurmd wrote no pid file"
for i in $(seq 60); do
  state=$(sinfo -h -n "$host" -o %T 2>/dev/null)
  [ "$state" = idle ] && break
  sleep 1
done
[ "$state" = idle ] || fail "the node never became idle (state '$state')"

# ---- 3. a tiny sweep through sbatch --------------------------------------------------------
wait_job() {  # job id, seconds: waits until the job has left the queue; prints its final state
  local i state=""
  for i in $(seq "$2"); do
    state=$(scontrol show job "$1" 2>/dev/null | sed -n 's/.*JobState=\([A-Z_]*\).*/\1/p')
    case $state in COMPLETED | FAILED | CANCELLED | TIMEOUT | NODE_FAIL | OUT_OF_MEMORY | BOOT_FAIL) break ;; esac
    sleep 1
  done
  echo "$state"
}
write_config() {  # file, d, snr axis, trials
  cat > "$1" <<EOF
d = $2
T = 6
correlation = prefix:2
table = iid
seed = 11
trials = $4
delta = 0.5
gamma = 0.5
snr = $3
weighting = mean,optimal
k = 4
EOF
}
check_file() {  # file, expected points: all done, shapes right
  "$python" - "$1" "$2" <<'EOF'
import sys, h5py, numpy as np
path, expected = sys.argv[1], int(sys.argv[2])
with h5py.File(path, "r") as f:
    status = f["points/status"][...]
    assert status.shape == (expected,), f"status has shape {status.shape}, expected ({expected},)"
    assert np.all(status == 1), f"points not done: {np.count_nonzero(status != 1)} of {expected}"
    for name in ("overlap", "top_eigenvalue", "ridge_accuracy", "theory_overlap"):
        values = f["points/" + name][...]
        assert values.shape == (expected,) and np.all(np.isfinite(values)), f"points/{name} incomplete"
    assert f["points/top_eigenvalues"].shape[0] == expected
    assert int(f.attrs["mpi_ranks"]) == 2, f"mpi_ranks = {f.attrs['mpi_ranks']}, expected 2"
print(f"{path}: {expected} points done")
EOF
}

export RMTSWEEP=$binary
cd "$work" || fail "cannot enter $work"
write_config tiny.ini 100 0,1,2 2
step "sbatch of a tiny sweep (12 points)"
job=$(sbatch --parsable --ntasks=2 --time=5 --output="$work/tiny.out" "$source_dir/jobs/slurm.sbatch" tiny.ini tiny.h5) ||
  fail "sbatch refused the job"
state=$(wait_job "$job" 180)
[ "$state" = COMPLETED ] || fail "job $job ended in state '$state', expected COMPLETED"
check_file tiny.h5 12 || fail "tiny.h5 is not a complete sweep"
step "job $job completed"

# ---- 4. SIGTERM before the time limit: stop, requeue, resume -----------------------------
# 192 points of d = 40 computed one at a time (lines = off), each group waiting 0.05 s after each (the
# test-only unit_pause key, docs/config.md): about 5 s on 2 ranks whatever the machine, with little CPU,
# so still running when the signal comes (d = 400 points made it as long with their CPU)
write_config long.ini 40 0:3:16 6
printf 'lines = off\nunit_pause = 0.05\n' >> long.ini
step "sbatch of a longer sweep (192 points), SIGTERM to the batch script while it runs"
job=$(sbatch --parsable --ntasks=2 --time=10 --output="$work/long.out" "$source_dir/jobs/slurm.sbatch" long.ini long.h5) ||
  fail "sbatch refused the job"
for i in $(seq 240); do  # signal as soon as the sweep reports its first done points
  grep -q "points ([0-9]*%; [1-9][0-9]* this run)" long.out 2>/dev/null && break
  sleep 0.5
done
step "sending SIGTERM to the batch script of job $job"
scancel --batch --signal=TERM "$job" || fail "scancel --batch --signal=TERM failed"
state=$(wait_job "$job" 300)
[ "$state" = COMPLETED ] || fail "job $job ended in state '$state' after the signal, expected COMPLETED"
step "job $job completed after its requeue"
restarts=$(scontrol show job "$job" | sed -n 's/.*Restarts=\([0-9]*\).*/\1/p')
[ "${restarts:-0}" -ge 1 ] || fail "job $job was not requeued (Restarts=${restarts:-?})"
grep -q "stopped by signal 15" long.out || fail "the sweep was not stopped by the signal (finished too early?)"
grep -q "requeueing job $job" long.out || fail "the batch script did not report its requeue"
grep -q -- "--resume" long.out || fail "the requeued run did not resume the file"
check_file long.h5 192 || fail "long.h5 is not complete after the requeue"

# ---- 5. the tiny sweep as an array of 3 shards, merged by a dependent job ---------------------
step "sbatch --array=0-2 of the tiny sweep's shards, and the merge depending on it"
export RMTSWEEP_JOBS=$source_dir/jobs  # Slurm runs a copy of the script: where slurm.sbatch is
array=$(sbatch --parsable --array=0-2 --ntasks=2 --time=5 --output="$work/array-%a.out" \
  "$source_dir/jobs/slurm_array.sbatch" tiny.ini shards.h5) || fail "sbatch refused the array"
merge=$(sbatch --parsable --dependency=afterok:"$array" --kill-on-invalid-dep=yes --ntasks=1 --time=5 --output="$work/merge.out" \
  "$source_dir/jobs/slurm_array.sbatch" --merge 3 shards.h5) || fail "sbatch refused the merge job"
for i in 0 1 2; do
  state=$(wait_job "${array}_$i" 180)
  [ "$state" = COMPLETED ] || fail "array task ${array}_$i ended in state '$state', expected COMPLETED"
done
state=$(wait_job "$merge" 120)
[ "$state" = COMPLETED ] || fail "the merge job $merge ended in state '$state', expected COMPLETED"
for i in 1 2 3; do
  [ -f "shards.shard-$i-of-3.h5" ] || fail "the array task of shard $i/3 wrote no shards.shard-$i-of-3.h5"
done
grep -q "shard 2/3" array-1.out || fail "array task 1 did not compute shard 2/3"
"$python" "$source_dir/tests/python/compare_sweep_files.py" tiny.h5 shards.h5 --ignore-dataset points/run \
  --ignore-attr runs $(for r in 0 1 2; do for a in mpi_ranks ranks_per_point eigensolver shard; do
    echo --ignore-attr "run_${r}_$a"; done; done) || fail "the merged shards differ from the tiny sweep run whole"
step "array $array and merge $merge completed: the merged file equals the whole run"

echo "slurm_e2e: PASS (tiny sweep through sbatch; SIGTERM, requeue and resume; array of shards and merge)"
