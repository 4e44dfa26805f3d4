#!/bin/sh
# make bench, the verify part: how long `qsim verify` takes to give its verdict, for every
# built-in lock and every lock in tests/broken-locks, under tso (x86 code), arm64 LL/SC and
# arm64 LSE, at 2 threads x 2 acquisitions and 3 x 1, by each engine (--engine graphs: the
# execution-graph explorer; --engine states: the state search), each run under a timeout.
# Prints a Markdown table and keeps it in docs/verify.md between the bench-verify markers.
#
#   sh build-aux/bench-verify.sh [QSIM] [DOC]   QSIM_BENCH_VERIFY_TIMEOUT=S: seconds a run may take
#                                               (default 120); QSIM_BENCH_ONLY=TEXT: only the
#                                               locks whose name holds TEXT (table not kept)
# A cell: the verdict (ok: verified, FAIL: a check failed, cut: a bound cut it short, timeout)
# and the host seconds the search reported (wall time of the search, on a machine that may be
# busy: compare within one table only); "g>s" marks a graphs run that the graph engine refused
# (futex ops with more than 15 threads) and the state search did instead.
set -eu
Q=${1:-./qsim}
DOC=${2:-docs/verify.md}
LIMIT=${QSIM_BENCH_VERIFY_TIMEOUT:-120}
ONLY=${QSIM_BENCH_ONLY:-}
out=$(mktemp)
table=$(mktemp)
trap 'rm -f "$out" "$table"' EXIT

# One cell: verdict and seconds of one run.
cell() { # engine lock-args target-args threads iterations
    engine=$1 lockargs=$2 targs=$3 t=$4 it=$5
    # shellcheck disable=SC2086
    if timeout "$LIMIT" "$Q" verify $lockargs $targs --engine "$engine" --threads "$t" --iterations "$it" \
        --format json > "$out" 2> /dev/null || [ -s "$out" ]; then :; fi
    if ! grep -q '"result"' "$out"; then
        echo "timeout"
        return
    fi
    res=$(sed -n 's/.*"result" : "\([a-z]*\)".*/\1/p' "$out" | head -1)
    secs=$(sed -n 's/.*"seconds" : \([0-9.e+-]*\).*/\1/p' "$out" | head -1)
    case "$res" in verified) v=ok ;; failed) v=FAIL ;; *) v=cut ;; esac
    fb=""
    if grep -q '"graphs_refused"' "$out"; then fb=" g>s"; fi
    printf "%s %.1f s%s" "$v" "$secs" "$fb"
}

{
    echo "| lock | target | 2x2 graphs | 2x2 states | 3x1 graphs | 3x1 states |"
    echo "|---|---|---|---|---|---|"
} > "$table"
cat "$table"
locks=$(cd locks && ls *.qs | sed 's/\.qs$//')
broken=$(cd tests/broken-locks && ls *.qs)
for l in $locks $broken; do
    case "$l" in *"$ONLY"*) ;; *) continue ;; esac
    case "$l" in *.qs) lockargs="--lock-file tests/broken-locks/$l" ;; *) lockargs="--lock $l" ;; esac
    for target in tso "arm64 llsc" "arm64 lse"; do
        case "$target" in
        tso) targs="--model tso" ;;
        "arm64 llsc") targs="--arch arm64" ;;
        *) targs="--arch arm64 --atomics lse" ;;
        esac
        line="| $l | $target | $(cell graphs "$lockargs" "$targs" 2 2) | $(cell states "$lockargs" "$targs" 2 2) |"
        line="$line $(cell graphs "$lockargs" "$targs" 3 1) | $(cell states "$lockargs" "$targs" 3 1) |"
        echo "$line"
        echo "$line" >> "$table"
    done
done
[ -z "$ONLY" ] || exit 0
# Keep the table in the doc, between the markers.
awk -v t="$table" -v lim="$LIMIT" '
    /<!-- bench-verify begin -->/ { print; print "(each run under a " lim " s timeout)"; print ""; while ((getline l < t) > 0) print l; skip = 1; next }
    /<!-- bench-verify end -->/ { skip = 0 }
    !skip' "$DOC" > "$DOC.tmp" && mv "$DOC.tmp" "$DOC"
