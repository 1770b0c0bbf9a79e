#!/usr/bin/env bash
# Checks the shared MPI test main (tests/mpi_listener.cpp) on 3 ranks with listener_probe, whose
# tests fail on some ranks only: rank 0's report must call each such test FAILED, name the ranks
# and show their messages, count them in the summary, and the program must exit non-zero.
#   check_listener.sh MPIEXEC PROBE
set -uo pipefail
mpiexec=$1 probe=$2
out=$("$mpiexec" -n 3 --oversubscribe "$probe" 2>&1)
status=$?
fail() { echo "FAIL: $1"; echo "--- output ---"; echo "$out"; exit 1; }
[ "$status" -ne 0 ] || fail "the probe exited 0 although tests failed on ranks 1 and 2"
grep -qF '[       OK ] ListenerProbe.PassesOnEveryRank' <<< "$out" || fail "the passing test is not OK"
grep -qF '[  FAILED  ] ListenerProbe.FailsOnRankOneOnly (rank 1)' <<< "$out" ||
  fail "a failure on rank 1 alone is not reported FAILED naming rank 1"
grep -qF '[  FAILED  ] ListenerProbe.FailsOnEveryRankButZero (ranks 1, 2)' <<< "$out" ||
  fail "a failure on ranks 1 and 2 is not reported naming both"
grep -qF 'deliberate failure on rank 1' <<< "$out" || fail "rank 1's message is not shown"
grep -qE '^\[rank 1\] .*listener_probe.cpp' <<< "$out" || fail "rank 1's message is not marked with its rank"
grep -qF '[  FAILED  ] 2 test(s), listed below:' <<< "$out" || fail "the summary does not count both failures"
grep -qF '[  PASSED  ] 1 test(s).' <<< "$out" || fail "the summary does not count one passed test"
[ "$(grep -c 'ListenerProbe.PassesOnEveryRank' <<< "$out")" -le 2 ] || fail "ranks other than 0 print too"
echo "the MPI listener reports failures on any rank: ok"
