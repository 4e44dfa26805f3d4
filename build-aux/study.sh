#!/bin/sh
# make study: regenerates the tables of the qspin vs qspin-cmpxchg study from qsim's own runs.
# Each table replaces what lies between its "<!-- table:NAME:begin -->" and "<!-- table:NAME:end -->"
# markers in the document; the prose around them is written by people from these tables.
# Every figure is a mean over STUDY_SEEDS seeded runs with timing noise (`qsim run --repeat`,
# jitter as its default) and its 95% interval; a ratio's interval decides whether it differs
# from 1 ("=" in the tables: no significant difference).
# Usage: study.sh QSIM DOC
set -eu
AUX=$(dirname "$0")
Q=${1:-./qsim}
DOC=${2:-docs/study-qspin-cmpxchg.md}
SEEDS=${STUDY_SEEDS:-10}
ITER=${STUDY_ITERATIONS:-300}
LONG_CS=${STUDY_LONG_CS:-400}
CONFIGS=${STUDY_CONFIGS:-"haswell westmere-ex skylake-sp neoverse-n1 thunderx"}
THREADS=${STUDY_THREADS:-"2 3 4 8"}
JOBS=${STUDY_JOBS:-2}
DURATION=${STUDY_DURATION:-200000}
WARMUP=${STUDY_WARMUP:-20000}
RW_DURATION=${STUDY_RW_DURATION:-400000}
# The tables to make (the others keep what the document has): main throughput whatif qrwlock placement robust
TABLES=${STUDY_TABLES:-"main throughput whatif qrwlock placement robust"}
# The robust table: `qsim compare` over harness timings at full strength, every row of make run,
# enough seeds per timing to find its regimes (sample_modes.h: 6 at least).
ROBUST_SEEDS=${STUDY_ROBUST_SEEDS:-10}
PLACE_CONFIGS=${STUDY_PLACE_CONFIGS:-"haswell skylake-sp"}
want() { case " $TABLES " in *" $1 "*) return 0;; esac; return 1; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# ---- running: every cell is one command line, run JOBS at a time, its CSV kept by name ----
cells="$work/cells"
: > "$cells"
cell() { # NAME ARGS...: one `qsim run` whose CSV goes to $work/NAME.csv
    name=$1; shift
    echo "$name $*" >> "$cells"
}
run_cells() {
    # shellcheck disable=SC2016
    xargs -P "$JOBS" -L 1 sh -c 'n=$1; shift; "$0" run "$@" --no-host-time --format csv > "'"$work"'/$n.csv" || { echo "study: qsim run $* failed" >&2; exit 255; }' "$Q" < "$cells"
}

# ---- the cells ----
vs="--lock qspin --vs qspin-cmpxchg --repeat $SEEDS"
want main && for cfg in $CONFIGS; do
    for data in same-line separate-line; do
        for cs in 0 "$LONG_CS"; do
            for t in $THREADS; do
                cell "main-$cfg-$data-$cs-$t" --config "$cfg" $vs --threads "$t" --data "$data" --cs-work "$cs" --iterations "$ITER"
            done
        done
    done
done
# throughput over a measured window, which an unfair lock cannot distort
want throughput && for data in same-line separate-line; do
    for t in $THREADS; do
        cell "tput-$data-$t" --config haswell $vs --threads "$t" --data "$data" --duration "$DURATION" --warmup "$WARMUP"
    done
done
# what-ifs: one parameter at a time
WHATIFS="none core.rollback=none core.pause_cycles=0 core.pause_cycles=140 core.machine_clear_penalty=16
core.machine_clear_penalty=32 core.machine_clear_penalty=64 core.machine_clear_penalty=100 core.locked_rmw_cycles=0
core.lock_hold_cycles=0 topology.snoop_response_cycles=0 topology.snoop_response_cycles=60"
want whatif && for set in $WHATIFS; do
    args=""; [ "$set" != none ] && args="--set $set"
    for data in same-line separate-line; do
        for t in 2 3; do
            cell "whatif-$set-$data-$t" --config haswell $vs --threads "$t" --data "$data" --iterations "$ITER" $args
        done
    done
done
# seed 002: 16 threads on thunderx, readers and writers, a measured window per seed
# (the seed's stress test's loop is not published: with and without work in and between the
# critical sections, as CS:think cycles)
RW_MIXES="16:0 12:4 8:8 4:12 0:16"
RW_LOADS=${STUDY_RW_LOADS:-"0:0 500:2000"}
want qrwlock && for load in $RW_LOADS; do
    for lock in arm64-rwlock qrwlock qrwlock-4.15; do
        for mix in $RW_MIXES; do
            r=${mix%:*}; w=${mix#*:}
            s=1
            while [ "$s" -le "$SEEDS" ]; do
                cell "rw-$load-$lock-$r-$w-$s" --config thunderx --lock "$lock" --readers "$r" --writers "$w" \
                    --cs-work "${load%:*}" --think "${load#*:}" \
                    --duration "$RW_DURATION" --warmup "$WARMUP" --seed "$s" --jitter 50
                s=$((s + 1))
            done
        done
    done
done
# where the threads run: siblings of one core (smt), two cores of one socket (fill), two sockets
want placement && for cfg in $PLACE_CONFIGS; do
    for data in same-line separate-line; do
        for cs in 0 "$LONG_CS"; do
            for t in 2 3; do
                for p in smt fill spread; do
                    cell "place-$cfg-$data-$cs-$t-$p" --config "$cfg" $vs --threads "$t" --data "$data" --cs-work "$cs" \
                        --iterations "$ITER" --placement "$p"
                done
            done
        done
    done
done
[ -s "$cells" ] && run_cells  # none when only the robust table is asked for

# ---- the tables ----
# kv FILE: qsim's CSV as "key<TAB>value" lines (build-aux/csv-kv.awk).  Every mode's CSV is its
# JSON document flattened (docs/report.md, One schema): a --vs --repeat cell has a.KEY.mean,
# a.KEY.ci95_low, ..., b.KEY.mean, ..., b_over_a.KEY.ratio, b_over_a.KEY.significant.
kv() { awk -f "$AUX/csv-kv.awk" "$1"; }
# vsrow FILE KEY: "qspin [ci] | cmpxchg [ci] | ratio [ci] sig | per-acquisition counters q / c"
vsrow() {
    kv "$1" | awk -F '\t' '
    { v[$1] = $2 }
    function m(side, k) { return v[side "." k ".mean"] }
    function per(side, k,   acq) { acq = m(side, "acquisitions"); return acq > 0 ? m(side, k) / acq : 0 }
    END {
      k = key; r = "b_over_a." k
      ok = v["a.mutual_exclusion"] == "true" && v["b.mutual_exclusion"] == "true" ? "" : " (mutual exclusion FAILED)"
      printf "%.1f [%.1f, %.1f] | %.1f [%.1f, %.1f] | %.3f [%.3f, %.3f]%s | %.2f / %.2f | %.2f / %.2f | %.2f / %.2f | %.0f / %.0f%s",
        m("a", k), v["a." k ".ci95_low"], v["a." k ".ci95_high"], m("b", k), v["b." k ".ci95_low"], v["b." k ".ci95_high"],
        v[r ".ratio"], v[r ".ci95_low"], v[r ".ci95_high"], v[r ".significant"] == "true" ? "" : " =",
        per("a", "machine_clears.memory_ordering"), per("b", "machine_clears.memory_ordering"),
        per("a", "coherence.lock_line.rfo"), per("b", "coherence.lock_line.rfo"),
        per("a", "atomics.failed_cas"), per("b", "atomics.failed_cas"),
        per("a", "atomics.cycles"), per("b", "atomics.cycles"), ok
    }' key="$2"
}
HDR_COUNTERS="MC q / c | RFO q / c | failed CAS q / c | atomic cyc q / c"
HDR_COUNTERS_RULE="---: | ---: | ---: | ---:"

tables="$work/tables"
mkdir -p "$tables"

want main && {
    echo "Generated by \`make study\`: $SEEDS seeds per cell (\`--repeat $SEEDS\`, timing noise on), $ITER acquisitions per"
    echo "thread, long critical section = \`--cs-work $LONG_CS\`, threads placed socket by socket. Each figure: mean [95% interval]."
    echo "Ratio = qspin-cmpxchg / qspin cycles per acquisition: below 1 the patch wins; \`=\` marks a ratio whose interval"
    echo "contains 1 (no significant difference). Per acquisition: MC = memory-ordering machine clears, RFO = read-for-ownership"
    echo "requests on the lock's line, failed CAS, atomic cyc = cycles atomics spent at the ROB head."
    for cfg in $CONFIGS; do
        echo
        echo "#### $cfg"
        echo
        echo "| workload | CS | threads | qspin cyc/acq | cmpxchg cyc/acq | ratio | $HDR_COUNTERS |"
        echo "| --- | --- | ---: | ---: | ---: | ---: | $HDR_COUNTERS_RULE |"
        for data in same-line separate-line; do
            w=A; [ "$data" = separate-line ] && w=B
            for cs in 0 "$LONG_CS"; do
                len=short; [ "$cs" != 0 ] && len=long
                for t in $THREADS; do
                    echo "| $w | $len | $t | $(vsrow "$work/main-$cfg-$data-$cs-$t.csv" cycles_per_acquisition) |"
                done
            done
        done
    done
} > "$tables/main"

want throughput && {
    echo "Haswell, short critical section, \`--duration $DURATION --warmup $WARMUP\` (the first $WARMUP cycles not counted), $SEEDS seeds."
    echo "Throughput = acquisitions per 1000 cycles in the window (higher is better; ratio above 1: the patch wins);"
    echo "fairness = the fewest and the most acquisitions of one thread."
    echo
    echo "| workload | threads | qspin acq/kcycle | cmpxchg acq/kcycle | ratio | qspin min / max | cmpxchg min / max |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
    for data in same-line separate-line; do
        w=A; [ "$data" = separate-line ] && w=B
        for t in $THREADS; do
            f="$work/tput-$data-$t.csv"
            row=$(vsrow "$f" acquisitions_per_kcycle | cut -d'|' -f1-3 | sed 's/ *$//')
            fair=$(kv "$f" | awk -F '\t' '{ v[$1] = $2 }
                END { printf "%.0f / %.0f | %.0f / %.0f", v["a.fairness.min.mean"], v["a.fairness.max.mean"],
                      v["b.fairness.min.mean"], v["b.fairness.max.mean"] }')
            echo "| $w | $t | $row | $fair |"
        done
    done
} > "$tables/throughput"

want whatif && {
    echo "Haswell, short critical section, one parameter changed at a time (\`--set\`), $SEEDS seeds each."
    echo
    echo "| change | workload | threads | qspin cyc/acq | cmpxchg cyc/acq | ratio | $HDR_COUNTERS |"
    echo "| --- | --- | ---: | ---: | ---: | ---: | $HDR_COUNTERS_RULE |"
    for set in $WHATIFS; do
        label=$set; [ "$set" = none ] && label="(none: as shipped)"
        for data in same-line separate-line; do
            w=A; [ "$data" = separate-line ] && w=B
            for t in 2 3; do
                echo "| $label | $w | $t | $(vsrow "$work/whatif-$set-$data-$t.csv" cycles_per_acquisition) |"
            done
        done
    done
} > "$tables/whatif"

want qrwlock && {
    echo "ThunderX, 16 threads, \`--duration $RW_DURATION --warmup $WARMUP\`, $SEEDS seeds: acquisitions per thread in the"
    echo "window, min / avg / max over the threads of each role, each the mean over the seeds [95% interval of the avg]."
    echo
    echo "| CS / think | lock | readers | writers | reader min / avg / max | writer min / avg / max | reader avg / writer avg |"
    echo "| --- | --- | ---: | ---: | ---: | ---: | ---: |"
    for load in $RW_LOADS; do
    for lock in arm64-rwlock qrwlock qrwlock-4.15; do
        for mix in $RW_MIXES; do
            r=${mix%:*}; w=${mix#*:}
            for f in "$work"/rw-"$load"-"$lock"-"$r"-"$w"-*.csv; do
                kv "$f" | awk -F '\t' '{ v[$1] = $2 }
                END {
                  for (t = 0; ("per_thread." t ".role") in v; t++) {
                      role = v["per_thread." t ".role"]; a = v["per_thread." t ".acquisitions"] + 0
                      n[role]++; s[role] += a
                      if (!(role in mn) || a < mn[role]) mn[role] = a
                      if (!(role in mx) || a > mx[role]) mx[role] = a }
                  for (role in n) printf "%s %d %.3f %d\n", role, mn[role], s[role] / n[role], mx[role] }'
            done | awk -v load="${load%:*} / ${load#*:}" -v lock="$lock" -v r="$r" -v w="$w" '
                { k = $1; c[k]++; mn[k] += $2; av[k] += $3; av2[k] += $3 * $3; mx[k] += $4 }
                # a count is never below 0: the interval is cut there
                function ci(k,   m, sd, lo) {
                    m = av[k] / c[k]; sd = c[k] > 1 ? sqrt((av2[k] - c[k] * m * m) / (c[k] - 1)) : 0
                    lo = m - t95(c[k] - 1) * sd / sqrt(c[k]); if (lo < 0) lo = 0
                    return sprintf("%.1f / %.1f [%.1f, %.1f] / %.1f", mn[k] / c[k], m, lo,
                                   m + t95(c[k] - 1) * sd / sqrt(c[k]), mx[k] / c[k]) }
                function t95(df) { return df >= 30 ? 1.96 : df >= 9 ? 2.262 : df >= 4 ? 2.776 : df >= 1 ? 12.706 : 0 }
                END {
                    rs = ("reader" in c) ? ci("reader") : "-"; ws = ("writer" in c) ? ci("writer") : "-"
                    # starved writers (under one acquisition each on average): no ratio, it would say nothing
                    ratio = ("reader" in c) && ("writer" in c) && av["writer"] / c["writer"] >= 1 ? sprintf("%.2f", av["reader"] / av["writer"]) : "-"
                    printf "| %s | %s | %s | %s | %s | %s | %s |\n", load, lock, r, w, rs, ws, ratio }'
        done
    done
    done
} > "$tables/qrwlock"

# per acquisition: clears that a sibling's store caused, q / c
sibrow() {
    kv "$1" | awk -F '\t' '{ v[$1] = $2 }
        END { qa = v["a.acquisitions.mean"]; ca = v["b.acquisitions.mean"]
              printf "%.2f / %.2f", qa ? v["a.machine_clears.sibling.mean"] / qa : 0,
                     ca ? v["b.machine_clears.sibling.mean"] / ca : 0 }'
}
want placement && {
    echo "Generated by \`make study\`: the threads on the two hardware threads of one core (smt), on two (three) cores of"
    echo "one socket (fill), or across the two sockets (spread); $SEEDS seeds per cell, $ITER acquisitions per thread, long"
    echo "critical section = \`--cs-work $LONG_CS\`. Columns as in the main table; sibling MC = memory-ordering clears caused by"
    echo "the sibling hardware thread's store (part of MC)."
    for cfg in $PLACE_CONFIGS; do
        echo
        echo "#### $cfg"
        echo
        echo "| workload | CS | threads | placement | qspin cyc/acq | cmpxchg cyc/acq | ratio | $HDR_COUNTERS | sibling MC q / c |"
        echo "| --- | --- | ---: | --- | ---: | ---: | ---: | $HDR_COUNTERS_RULE | ---: |"
        for data in same-line separate-line; do
            w=A; [ "$data" = separate-line ] && w=B
            for cs in 0 "$LONG_CS"; do
                len=short; [ "$cs" != 0 ] && len=long
                for t in 2 3; do
                    for p in smt fill spread; do
                        f="$work/place-$cfg-$data-$cs-$t-$p.csv"
                        echo "| $w | $len | $t | $p | $(vsrow "$f" cycles_per_acquisition) | $(sibrow "$f") |"
                    done
                done
            done
        done
    done
} > "$tables/placement"

# the answer as a distribution: qsim compare over think x jitter, regimes, window, clear penalty
want robust && {
    args="--config haswell --lock qspin --vs qspin-cmpxchg --seeds $SEEDS --iterations $ITER
          --timing-seeds $ROBUST_SEEDS --timing-iterations $ITER --check-seeds 5 -j $JOBS"
    # shellcheck disable=SC2086
    echo "\`qsim compare $(echo $args)\` (make run asks the same of every row at 3 seeds per timing):"
    echo
    echo '```'
    # shellcheck disable=SC2086
    "$Q" compare $args | fold -s -w 160 | sed 's/ *$//'
    echo '```'
} > "$tables/robust"

# ---- into the document ----
if [ ! -f "$DOC" ]; then
    { echo "# qspin vs qspin-cmpxchg"; for t in main throughput whatif qrwlock placement robust; do
        echo; echo "<!-- table:$t:begin -->"; echo "<!-- table:$t:end -->"; done; } > "$DOC"
fi
for t in $TABLES; do
    grep -q "<!-- table:$t:begin -->" "$DOC" || { echo "study: $DOC has no table:$t markers" >&2; exit 1; }
    awk -v f="$tables/$t" -v t="$t" '
        $0 == "<!-- table:" t ":begin -->" { print; while ((getline line < f) > 0) print line; skip = 1; next }
        $0 == "<!-- table:" t ":end -->" { skip = 0 }
        !skip { print }' "$DOC" > "$work/doc"
    cat "$work/doc" > "$DOC"
done
echo "study: wrote $DOC"
