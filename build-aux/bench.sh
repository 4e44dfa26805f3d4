#!/bin/sh
# make bench: what simulating costs the host, in CPU time (getrusage: user + system of the run,
# so that a busy machine does not inflate it), for locks qspin, mcs, ticket and tas at 2, 8,
# 32, 64 and 256 threads on haswell (2 x 18 cores; 2 x 128 from 64 threads on) and neoverse-n1
# (64 cores; 256 at 256 threads), and at 2 and 8 threads on haswell's hardware threads
# (--placement smt: two threads a core, "haswell 2x18x2 smt", beside the row with one a core);
# then hardware threads at scale: qspin on busy sibling pairs from 8 to 1,024 threads (2 x 128
# cores x 2 threads, 4 x 128 x 2), a few thousand acquisitions each, with the CPU seconds
# 100,000 acquisitions would take at that rate and the peak resident memory beside it.
# Prints a Markdown table and keeps it, with the machine it ran on, in docs/performance.md
# between the bench markers.  Targets: docs/performance.md.
#
#   sh build-aux/bench.sh [QSIM] [DOC]      QSIM_BENCH_QUICK=1: a tenth of the acquisitions
#                                           QSIM_BENCH_ONLY=TEXT: only the rows whose machine
#                                           name holds TEXT (the table is then not kept)
set -eu
AUX=$(dirname "$0")
Q=${1:-./qsim}
DOC=${2:-docs/performance.md}
QUICK=${QSIM_BENCH_QUICK:-}
ONLY=${QSIM_BENCH_ONLY:-}

# Acquisitions per row: enough for a stable figure; fewer where each costs the most (tas and
# ticket wake every waiter at each release), so that the whole bench takes minutes.
acquisitions() { # lock threads
    case "$1:$2" in
    tas:256|ticket:256) n=1280 ;;
    tas:64|ticket:64) n=2560 ;;
    tas:32|ticket:32) n=5120 ;;
    *:256) n=100000 ;;
    *) n=20000 ;;
    esac
    if [ -n "$QUICK" ]; then n=$((n / 10)); fi
    echo "$n"
}

machine() { # config threads -> qsim arguments
    case "$1:$2" in
    haswell:64|haswell:256) echo "--config haswell --set topology.cores_per_socket=128" ;;
    neoverse-n1:256) echo "--config neoverse-n1 --set topology.cores_per_socket=256" ;;
    *) echo "--config $1" ;;
    esac
}

machine_name() { # config threads
    case "$1:$2" in
    haswell:64|haswell:256) echo "haswell 2x128" ;;
    neoverse-n1:256) echo "neoverse-n1 x256" ;;
    haswell:*) echo "haswell 2x18" ;;
    *) echo "$1" ;;
    esac
}

table=$(mktemp)
errs=$(mktemp)
csv=$(mktemp)
trap 'rm -f "$table" "$errs" "$csv"' EXIT
{
    echo "| config | lock | threads | acquisitions | CPU s | µs/acq | M sim cycles/s | M sim instr/s | fast-forward | peak RSS MB |"
    echo "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|"
} > "$table"
cat "$table"

# One row: machine name, lock, threads, then the qsim arguments that make the machine.
row() {
    m=$1 lock=$2 t=$3
    shift 3
    case "$m" in *"$ONLY"*) ;; *) return 0 ;; esac
    n=$(acquisitions "$lock" "$t")
    it=$(( (n + t - 1) / t ))
    # stderr kept apart: a noiseless run may warn that it looks phase-locked, which says nothing
    # about what it cost; shown only if the run failed
    $Q run "$@" --lock "$lock" --threads "$t" --iterations "$it" --format csv > "$csv" 2> "$errs" ||
        { cat "$errs" >&2; exit 1; }
    line=$(awk -f "$AUX/csv-kv.awk" "$csv" | awk -F '\t' -v m="$m" -v l="$lock" -v t="$t" '
        { v[$1] = $2 }
        END { cyc = v["cycles"]; acq = v["acquisitions"]; ins = v["sim_instructions"];
          cpu = v["host_cpu_seconds"]; ff = v["host_fast_forward_share"]; kib = v["host_peak_rss_kib"];
          if (cpu <= 0) cpu = 1e-6;
          printf "| %s | %s | %d | %d | %.2f | %.1f | %.2f | %.2f | %.0f%% | %.0f |\n",
                 m, l, t, acq, cpu, cpu * 1e6 / acq, cyc / cpu / 1e6, ins / cpu / 1e6, ff * 100, kib / 1024 }')
    echo "$line"
    echo "$line" >> "$table"
}

for cfg in haswell neoverse-n1; do
    for lock in qspin mcs ticket tas; do
        for t in 2 8 32 64 256; do
            # shellcheck disable=SC2046
            row "$(machine_name "$cfg" "$t")" "$lock" "$t" $(machine "$cfg" "$t")
            # The same threads two a core, on sibling hardware threads (busy pairs fast-forward as one).
            case "$cfg:$t" in
            haswell:2|haswell:8) row "haswell 2x18x2 smt" "$lock" "$t" --config haswell --placement smt ;;
            esac
        done
    done
done

# Hardware threads at scale: every thread beside its sibling (--placement smt), qspin.  The
# figure is per acquisition, so a few thousand stand for 100,000 (start-up, every thread
# arriving at once, weighs more in the few: the projection is on the high side).
scale_head=0
scale_row() {
    m=$1 t=$2 n=$3
    shift 3
    case "$m" in *"$ONLY"*) ;; *) return 0 ;; esac
    if [ -n "$QUICK" ]; then n=$((n / 10)); fi
    it=$(( (n + t - 1) / t ))
    if [ "$scale_head" = 0 ]; then
        scale_head=1
        {
            echo ""
            echo "Hardware threads at scale (qspin, \`--placement smt\`: every thread beside its sibling):"
            echo ""
            echo "| config | threads | acquisitions | CPU s | µs/acq | 100,000 acquisitions, projected CPU s | fast-forward | peak RSS MB |"
            echo "|---|---:|---:|---:|---:|---:|---:|---:|"
        } | tee -a "$table"
    fi
    $Q run "$@" --placement smt --lock qspin --threads "$t" --iterations "$it" --format csv > "$csv" 2> "$errs" ||
        { cat "$errs" >&2; exit 1; }
    line=$(awk -f "$AUX/csv-kv.awk" "$csv" | awk -F '\t' -v m="$m" -v t="$t" '
        { v[$1] = $2 }
        END { acq = v["acquisitions"]; cpu = v["host_cpu_seconds"]; ff = v["host_fast_forward_share"];
          kib = v["host_peak_rss_kib"];
          if (cpu <= 0) cpu = 1e-6;
          printf "| %s | %d | %d | %.2f | %.1f | %.1f | %.0f%% | %.0f |\n",
                 m, t, acq, cpu, cpu * 1e6 / acq, cpu / acq * 100000, ff * 100, kib / 1024 }')
    echo "$line"
    echo "$line" >> "$table"
}
scale_row "haswell 2x18x2" 8 20000 --config haswell
scale_row "haswell 2x18x2" 64 10240 --config haswell
scale_row "haswell 2x128x2" 512 10240 --config haswell --set topology.cores_per_socket=128
scale_row "haswell 4x128x2" 1024 10240 --config haswell --set topology.sockets=4 --set topology.cores_per_socket=128

if [ -z "$ONLY" ] && [ -f "$DOC" ] && grep -q '<!-- bench:begin -->' "$DOC"; then
    model=$(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -1)
    cpus=$(nproc 2>/dev/null || echo '?')
    out=$(mktemp)
    awk -v table="$table" -v model="${model:-unknown}" -v cpus="$cpus" -v when="$(date -u +%Y-%m-%d)" \
        -v quick="$QUICK" '
        /<!-- bench:begin -->/ {
            print
            printf "Last run %s on %s (%s CPUs), `%s`:\n\n", when, model, cpus,
                   quick ? "QSIM_BENCH_QUICK=1 make bench" : "make bench"
            while ((getline line < table) > 0) print line
            skip = 1
            next
        }
        /<!-- bench:end -->/ { print ""; skip = 0 }
        !skip' "$DOC" > "$out"
    mv "$out" "$DOC"
    echo "bench: the table is in $DOC"
fi
if [ -z "$ONLY" ] && [ -f build-aux/bench-sweep.sh ]; then sh build-aux/bench-sweep.sh "$Q"; fi
if [ -z "$ONLY" ] && [ -f build-aux/bench-c-locks.sh ]; then sh build-aux/bench-c-locks.sh "$Q" docs/c-locks.md; fi
