#!/bin/sh
# make bench, locks in C (docs/c-locks.md): what the C front end costs and what a translated lock
# costs to simulate, beside the hand-written lock of the same algorithm.  Per example lock:
# translating it with an empty cache (GCC and the translator) and from the cache, in wall-clock
# milliseconds; then 4 threads x ACQ acquisitions on haswell, the simulation's CPU time
# (host_cpu_seconds) of the translated lock, of the same compiled instructions written by hand
# (tests/c-locks/same-insns/NAME-x86.qs, where there is one: like with like) and of
# locks/NAME.qs, and the model's cycles per acquisition of each (locks/NAME.qs is a different
# instruction sequence: its cycles need not agree).  Prints a Markdown table and keeps it in
# docs/c-locks.md between its bench markers.
#
#   sh build-aux/bench-c-locks.sh [QSIM] [DOC]
set -u
Q=${1:-./qsim}
DOC=${2:-docs/c-locks.md}
ACQ=${QSIM_BENCH_C_ACQ:-20000}
table=$(mktemp)
cache=$(mktemp -d)
trap 'rm -rf "$table" "$cache"' EXIT

ms() { # command... -> its wall-clock milliseconds
    s=$(date +%s%N)
    "$@" > /dev/null 2>&1 || { echo "bench-c-locks: failed: $*" >&2; exit 1; }
    e=$(date +%s%N)
    echo $(( (e - s) / 1000000 ))
}

# member KEY of a JSON report on stdin (a number at the top level)
member() { sed -n "s/^  \"$1\" : \\([0-9.e+-]*\\),*\$/\\1/p" | head -1; }

{
    echo "| lock (C) | translate, cold (ms) | translate, cached (ms) | simulate C (CPU s) | same instructions (CPU s) | C / same | locks/NAME.qs (CPU s) | C / .qs | cycles per acquisition, C / same / .qs |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
} > "$table"
for c in examples/c-locks/*.c; do
    name=$(basename "$c" .c)
    [ -f "locks/$name.qs" ] || continue
    cold=$(XDG_CACHE_HOME="$cache/$name" ms "$Q" asm "$c")
    warm=$(XDG_CACHE_HOME="$cache/$name" ms "$Q" asm "$c")
    run() { XDG_CACHE_HOME="$cache/$name" "$Q" run --config haswell --lock "$1" --threads 4 --iterations "$ACQ" --jitter 50 --format json; }
    jc=$(run "$c") || exit 1
    jq=$(run "$name") || exit 1
    tc=$(echo "$jc" | member host_cpu_seconds); tq=$(echo "$jq" | member host_cpu_seconds)
    cc=$(echo "$jc" | member cycles_per_acquisition); cq=$(echo "$jq" | member cycles_per_acquisition)
    ratio=$(awk -v a="$tc" -v b="$tq" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
    same="tests/c-locks/same-insns/$name-x86.qs"
    if [ -f "$same" ]; then
        js=$(run "$same") || exit 1
        ts=$(echo "$js" | member host_cpu_seconds); cs=$(echo "$js" | member cycles_per_acquisition)
        rs=$(awk -v a="$tc" -v b="$ts" 'BEGIN { printf "%.2f", (b > 0 ? a / b : 0) }')
        ts=$(printf '%.2f' "$ts"); cs=$(printf '%.1f' "$cs")
    else
        ts="-"; rs="-"; cs="-"
    fi
    printf '| %s | %s | %s | %.2f | %s | %s | %.2f | %s | %.1f / %s / %.1f |\n' "$name" "$cold" "$warm" "$tc" "$ts" "$rs" "$tq" "$ratio" "$cc" "$cs" "$cq" >> "$table"
done
cat "$table"

if [ -f "$DOC" ] && grep -q '<!-- bench:begin -->' "$DOC"; then
    out=$(mktemp)
    awk -v table="$table" -v when="$(date -u +%Y-%m-%d)" -v cpus="$(nproc 2>/dev/null || echo '?')" '
        /<!-- bench:begin -->/ {
            print
            printf "Last run %s (%s CPUs), `make bench`:\n\n", when, cpus
            while ((getline line < table) > 0) print line
            skip = 1
            next
        }
        /<!-- bench:end -->/ { print ""; skip = 0 }
        !skip' "$DOC" > "$out"
    mv "$out" "$DOC"
    echo "bench-c-locks: the table is in $DOC"
fi
