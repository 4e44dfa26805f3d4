#!/bin/sh
# make study: regenerates the tables of the adaptive-mutex study (docs/study-adaptive-mutex.md)
# from qsim's own runs: the sweep sweeps/adaptive-mutex.yaml, and a few what-ifs.  The tables
# replace what lies between the "tables:begin" and "tables:end" markers; the prose around them
# is written by people from these tables.  The seed's own figures (glibc, 2018) are kept here,
# beside the model's, so that every ratio is computed the same way.
# Usage: study-adaptive-mutex.sh QSIM DOC
set -eu
AUX=$(dirname "$0")
Q=${1:-./qsim}
DOC=${2:-docs/study-adaptive-mutex.md}
SWEEP=${STUDY_SWEEP:-sweeps/adaptive-mutex.yaml}
JOBS=${STUDY_JOBS:-2}
SEEDS=$(awk '$1 == "seeds:" { print $2 }' "$SWEEP")
WHATIF_SEEDS=${STUDY_WHATIF_SEEDS:-3}

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

if [ -n "${STUDY_REUSE:-}" ]; then
    # A finished `qsim sweep` folder of the same file, to rewrite the tables without running it.
    mkdir -p "$work/sweep" && cp "$STUDY_REUSE/results.csv" "$work/sweep/"
else
    $Q sweep "$SWEEP" -j "$JOBS" --out "$work/sweep" >/dev/null 2>"$work/sweep.err" || {
        cat "$work/sweep.err" >&2
        exit 1
    }
fi

# The seed's tables: Intel (base, head~1 and head at COUNT=1000), arm64 (base, head at
# SPIN_COUNT=10 and 1000), lock-unlock pairs counted over a fixed time.
cat > "$work/seed" <<'EOF'
intel 1 51644585 51323778 51378551
intel 2 7914789 9867343 11503559
intel 7 1687620 3430504 7817383
intel 14 1026555 1843458 7360883
intel 28 962001 681965 5681945
intel 56 883770 364879 3416068
intel 112 1150589 415261 3255700
arm64 1 27566206 28776779 28778073
arm64 2 8498813 9129102 7042975
arm64 7 5019434 5832195 5098511
arm64 14 4379155 6507212 5200018
arm64 28 4397464 4584480 4456767
arm64 56 4020956 3534899 4096197
EOF

# One line per sweep point: config atomics lock threads spin_count, then the figures the tables
# use (acq/kcycle, acquisitions, cycles, futex syscalls, sleeps, cycles asleep, wake-to-run,
# wakes, run-queue wait, lock-line RFOs, paused cycles, failed CAS, EAGAIN, kernel cycles,
# cycles waiting for the hash-bucket lock).
awk -F, '
NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
$col["status"] == "ok" {
    at = ("axis.core.atomics" in col) ? $col["axis.core.atomics"] : "-"
    if ($col["axis.configs"] != "neoverse-n1") at = "-"
    printf "%s %s %s %s %s %s %s %s %s %s %s %s %s %s %s %s %s %s %s %s\n", $col["axis.configs"], at, $col["axis.locks"],
        $col["axis.threads"], $col["axis.lock_param.spin_count"], $col["acquisitions_per_kcycle"],
        $col["acquisitions"], $col["cycles"], $col["os.futex_syscalls"] + 0, $col["os.sleeps"] + 0,
        $col["os.cycles_asleep"] + 0, $col["os.wake_to_run_cycles"] + 0, $col["os.wakes"] + 0,
        $col["os.runqueue_wait_cycles"] + 0, $col["coherence.lock_line.rfo"] + 0, $col["paused_cycles"] + 0,
        $col["atomics.failed_cas"] + 0, $col["os_counters.futex_eagain"] + 0, $col["os.kernel_cycles"] + 0,
        $col["os_counters.hb_lock_wait_cycles"] + 0
}' "$work/sweep/results.csv" > "$work/runs"
# The seeds of a point together: acq/kcycle their mean, the counts their sums (so per-acquisition
# figures and shares weigh every run by its length).
awk '{ k = $1 " " $2 " " $3 " " $4 " " $5; if (!(k in n)) order[++nk] = k; n[k]++
       for (i = 6; i <= NF; i++) sum[k, i] += $i }
     END { for (j = 1; j <= nk; j++) { k = order[j]; printf "%s %.4f", k, sum[k, 6] / n[k]
                                       for (i = 7; i <= 20; i++) printf " %d", sum[k, i]; printf "\n" } }' \
    "$work/runs" > "$work/points"
if awk -F, 'NR == 1 { for (i = 1; i <= NF; i++) if ($i == "status") c = i; next } $c != "ok" { bad = 1 }
           END { exit !bad }' "$work/sweep/results.csv"; then
    echo "study: some sweep points failed (see $SWEEP)" >&2
    exit 1
fi

# The what-ifs: one setting changed at a time, base and head on skylake-sp at 7 and 28 threads.
whatif() { # set lock spin threads: mean acq/kcycle, total sleeps and lock-line RFOs of WHATIF_SEEDS seeds
    args=""
    [ -n "$1" ] && args="--set $1"
    for seed in $(seq 1 "$WHATIF_SEEDS"); do
        $Q run --config skylake-sp --lock "$2" --lock-param spin_count="$3" --threads "$4" --cs-writes 0 \
            --duration 1000000 --warmup 100000 --seed $seed $args --format csv --no-host-time > "$work/one.csv"
        awk -f "$AUX/csv-kv.awk" "$work/one.csv"   # a run's CSV as key<TAB>value lines
    done | awk -F '\t' '$1 == "acquisitions_per_kcycle" { a += $2; n++ }
                        $1 == "os.sleeps" { s += $2 }
                        $1 == "coherence.lock_line.rfo" { r += $2 }
                        END { printf "%.4f %d %d\n", a / n, s, r }'
}
: > "$work/whatif"
for set in "" os.wakeup_cycles=25000 os.syscall_cycles=750 core.pause_cycles=10 os.futex_key_cycles=0; do
    for t in 7 28; do
        b=$(whatif "$set" adaptive-mutex 100 "$t")
        h=$(whatif "$set" adaptive-mutex-2018 1000 "$t")
        echo "${set:-none} $t $b $h" >> "$work/whatif"
    done
done

{
    echo "Generated by \`make study\` (build-aux/study-adaptive-mutex.sh) from \`qsim sweep $SWEEP\`:"
    echo "each point counts lock-unlock pairs for 1,000,000 cycles after a 100,000-cycle warm-up, as the"
    echo "seed counts them for a fixed time, $SEEDS seeds (start skews) each: acq/kcycle is their mean, the"
    echo "counters their sums.  The seed's figures are its own, per its run (no unit given)."
    echo "Δ is the change against the base of the same machine; \"agrees\" says whether the model's Δ has"
    echo "the seed's sign (within ±5% counts as no change)."
    echo
    echo "### Intel: skylake-sp (2 x 28 cores; the seed: 2 x 28 cores, 112 hardware threads)"
    echo
    echo "| threads | seed base | seed head~1 Δ | seed head Δ | model base acq/kcycle | model head~1 Δ | model head Δ | agrees (head~1, head) |"
    echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
    awk -v which=intel '
        function sgn(d) { return d > 5 ? 1 : d < -5 ? -1 : 0 }
        function agree(a, b) { return sgn(a) == sgn(b) ? "yes" : "no" }
        FILENAME ~ /seed$/ { if ($1 == which) { s0[$2] = $3; s1[$2] = $4; s2[$2] = $5; order[++n] = $2 }; next }
        $1 == "skylake-sp" && $3 == "adaptive-mutex" && $5 == 100 { b[$4] = $6 }
        $1 == "skylake-sp" && $3 == "adaptive-mutex-readspin" && $5 == 1000 { h1[$4] = $6 }
        $1 == "skylake-sp" && $3 == "adaptive-mutex-2018" && $5 == 1000 { h[$4] = $6 }
        END {
            for (i = 1; i <= n; i++) {
                t = order[i]
                ds1 = (s1[t] / s0[t] - 1) * 100; ds2 = (s2[t] / s0[t] - 1) * 100
                dm1 = (h1[t] / b[t] - 1) * 100; dm2 = (h[t] / b[t] - 1) * 100
                printf "| %d | %d | %+.1f%% | %+.1f%% | %.3f | %+.1f%% | %+.1f%% | %s, %s |\n", t, s0[t], ds1, ds2, b[t],
                       dm1, dm2, agree(ds1, dm1), agree(ds2, dm2)
            }
        }' "$work/seed" "$work/points"
    echo
    echo "### arm64: neoverse-n1 (64 cores; the seed: a 64-core arm64 server)"
    echo
    echo "Base is adaptive-mutex at spin_count 100, head adaptive-mutex-2018 at 10 and 1000, as in the seed."
    echo "llsc: compare-and-swap as LDAXR/STLXR (a 2018 glibc built for ARMv8.0); lse-near: N1's CASAL."
    echo
    echo "| threads | seed base | seed head 10 Δ | seed head 1000 Δ | llsc base | llsc head 10 Δ | llsc head 1000 Δ | lse base | lse head 10 Δ | lse head 1000 Δ | agrees (llsc 10, 1000) |"
    echo "| ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | --- |"
    awk -v which=arm64 '
        function sgn(d) { return d > 5 ? 1 : d < -5 ? -1 : 0 }
        function agree(a, b) { return sgn(a) == sgn(b) ? "yes" : "no" }
        FILENAME ~ /seed$/ { if ($1 == which) { s0[$2] = $3; s1[$2] = $4; s2[$2] = $5; order[++n] = $2 }; next }
        $1 == "neoverse-n1" && $3 == "adaptive-mutex" && $5 == 100 { b[$2, $4] = $6 }
        $1 == "neoverse-n1" && $3 == "adaptive-mutex-2018" && $5 == 10 { h10[$2, $4] = $6 }
        $1 == "neoverse-n1" && $3 == "adaptive-mutex-2018" && $5 == 1000 { h1k[$2, $4] = $6 }
        END {
            for (i = 1; i <= n; i++) {
                t = order[i]
                ds1 = (s1[t] / s0[t] - 1) * 100; ds2 = (s2[t] / s0[t] - 1) * 100
                l1 = (h10["llsc", t] / b["llsc", t] - 1) * 100; l2 = (h1k["llsc", t] / b["llsc", t] - 1) * 100
                e1 = (h10["lse-near", t] / b["lse-near", t] - 1) * 100; e2 = (h1k["lse-near", t] / b["lse-near", t] - 1) * 100
                printf "| %d | %d | %+.1f%% | %+.1f%% | %.3f | %+.1f%% | %+.1f%% | %.3f | %+.1f%% | %+.1f%% | %s, %s |\n",
                       t, s0[t], ds1, ds2, b["llsc", t], l1, l2, b["lse-near", t], e1, e2, agree(ds1, l1), agree(ds2, l2)
            }
        }' "$work/seed" "$work/points"
    echo
    echo "### Every lock at every spin count (acquisitions per 1000 cycles)"
    echo
    echo "| config | threads | base 10 | base 100 | base 1000 | head~1 10 | head~1 100 | head~1 1000 | head 10 | head 100 | head 1000 |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    awk '
        { name = $1 ($2 == "-" ? "" : " (" $2 ")"); v[name, $4, $3, $5] = $6
          if (!(name in seen)) { seen[name] = 1; names[++nn] = name }
          if (!((name, $4) in tseen)) { tseen[name, $4] = 1; ts[name, ++nt[name]] = $4 } }
        END {
            split("adaptive-mutex adaptive-mutex-readspin adaptive-mutex-2018", locks, " ")
            for (i = 1; i <= nn; i++)
                for (k = 1; k <= nt[names[i]]; k++) {
                    t = ts[names[i], k]
                    printf "| %s | %d |", names[i], t
                    for (l = 1; l <= 3; l++)
                        for (sc = 10; sc <= 1000; sc *= 10)
                            printf " %s |", ((names[i], t, locks[l], sc) in v) ? sprintf("%.3f", v[names[i], t, locks[l], sc]) : "–"
                    printf "\n"
                }
        }' "$work/points"
    echo
    echo "### Why: the OS model's counters"
    echo
    echo "Per 1000 acquisitions: futex system calls, of them futex_waits that found the word changed (EAGAIN),"
    echo "sleeps, lock-line RFOs, failed compare-and-swaps.  Then shares of the threads' time (threads x cycles):"
    echo "in futex system calls on a core (\"kernel\"), of that waiting for the futex hash bucket's lock (\"bucket"
    echo "lock\"), asleep, and ready but waiting for a core (\"run queue\"); and the mean wake-up, from"
    echo "try_to_wake_up to running, in cycles."
    echo
    echo "| config | lock | spin | threads | acq/kcycle | syscalls | EAGAIN | sleeps | RFO | failed CAS | kernel | bucket lock | asleep | run queue | wake-up |"
    echo "| --- | --- | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: | ---: |"
    awk '
        function pk(x) { return x / ($7 ? $7 : 1) * 1000 }
        ($1 == "skylake-sp" && (($3 == "adaptive-mutex" && $5 == 100) || ($3 != "adaptive-mutex" && $5 == 1000))) ||
        ($1 == "neoverse-n1" && $2 == "llsc" && (($3 == "adaptive-mutex" && $5 == 100) || ($3 == "adaptive-mutex-2018" && $5 != 100))) {
            name = $1 ($2 == "-" ? "" : " (" $2 ")")
            span = $4 * $8
            sh = span ? 100 / span : 0
            printf "| %s | %s | %d | %d | %.3f | %.0f | %.0f | %.0f | %.0f | %.0f | %.1f%% | %.1f%% | %.1f%% | %.1f%% | %s |\n",
                   name, $3, $5, $4, $6, pk($9), pk($18), pk($10), pk($15), pk($17), $19 * sh, $20 * sh, $11 * sh, $14 * sh,
                   $13 ? sprintf("%.0f", $12 / $13) : "–"
        }' "$work/points"
    echo
    echo "### What-ifs on skylake-sp"
    echo
    echo "One setting changed at a time (\`--set\`); base is adaptive-mutex at spin_count 100, head adaptive-mutex-2018"
    echo "at 1000, $WHATIF_SEEDS seeds each.  Sleeps and lock-line RFOs are totals over the measured windows."
    echo
    echo "| change | threads | base acq/kcycle | head acq/kcycle | head Δ | sleeps base / head | RFO base / head |"
    echo "| --- | ---: | ---: | ---: | ---: | ---: | ---: |"
    awk '{ printf "| %s | %d | %.3f | %.3f | %+.1f%% | %d / %d | %d / %d |\n", ($1 == "none" ? "(none: as shipped)" : $1), $2,
                  $3, $6, ($6 / $3 - 1) * 100, $4, $7, $5, $8 }' "$work/whatif"
} > "$work/tables"

if [ -f "$DOC" ] && grep -q 'tables:begin' "$DOC"; then
    awk -v tables="$work/tables" '
        /<!-- tables:begin -->/ { print; while ((getline line < tables) > 0) print line; skip = 1; next }
        /<!-- tables:end -->/ { skip = 0 }
        !skip { print }' "$DOC" > "$work/doc"
    mv "$work/doc" "$DOC"
else
    { echo "# The adaptive mutex and its spin count"; echo; echo "<!-- tables:begin -->"; cat "$work/tables"
      echo "<!-- tables:end -->"; } > "$DOC"
fi
echo "study: wrote $DOC"
