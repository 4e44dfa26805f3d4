#!/bin/sh
# Runs Check suites in JOBS processes at once (make check's unit and sanitizer passes): the
# suites are dealt out in turn, each process's output goes to LOG-K.log, and the logs are
# printed (less the bare suite-name lines) when all are done.  JOBS 1: one process, its output
# as it comes.  The environment (QSIM_BIN, the test variables) passes through.
#   sh build-aux/run-suites.sh JOBS LOG CHECK_QSIM [SUITE...]     no SUITE: every suite
set -u
jobs=$1 log=$2 check=$3
shift 3
if [ $# -gt 0 ]; then suites=$(printf '%s\n' "$@"); else suites=$("$check" --list) || exit 1; fi
# No more processes than suites: a process dealt none would run the runner without names,
# which runs every suite.
n=$(echo "$suites" | wc -l)
if [ "$jobs" -gt "$n" ]; then jobs=$n; fi
if [ "$jobs" -le 1 ]; then
    exec "$check" "$@"
fi
echo "$(basename "$check"): $n suites in $jobs processes (logs: $log-*.log)"
pids=
for k in $(seq 1 "$jobs"); do
    mine=$(echo "$suites" | awk -v k="$k" -v n="$jobs" '(NR - 1) % n == k - 1')
    # shellcheck disable=SC2086
    "$check" $mine > "$log-$k.log" 2>&1 &
    pids="$pids $!"
done
rc=0
for p in $pids; do wait "$p" || rc=1; done
for k in $(seq 1 "$jobs"); do grep -v '^ [a-z_0-9]*$' "$log-$k.log"; done
exit $rc
