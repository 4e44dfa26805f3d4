#!/bin/sh
# The layering rule, checked on every #include "..." of the source tree (docs/architecture.md).
# Each folder may include headers only from the folders (or the single headers) its row names;
# anything else is an include that runs upward (or sideways) and fails the check.  No
# exceptions.  Usage: check-layers.sh [TREE] (default .).
#
#   sim/base       the engine, config, arch descriptions, reports, suggestions: the base
#                  (and sim/base/version.c the generated qsim_commit.h: the build's commit)
#   coherence      the memory system, on the base
#   cores/isa      the ISA: op table, execution semantics, faults, assembler, interpreter
#   sim/memmodel   axiomatic memory models (SC, x86-TSO, ARMv8) over ISA programs, exhaustively
#   sim/explore    the explorer: every execution under a memory model (sc, tso), on the ISA
#   cores          the timing model of a core, on the ISA, meeting coherence only at its port
#   sim/os         the OS model (scheduler, futexes), beside the cores
#   sim/cfront     the C front end: a lock in C compiled by GCC, its assembly translated into ISA
#                  text (the compiler driver, the assembly reader, the x86-64 translator, the glue)
#   sim/trace      the trace writers (text, Perfetto, HTML page) and the protocol pages
#                  (and sim/trace/trace_html_page.c the generated trace_html_page_js.h: the page's script)
#   sim/workload   what runs: the harness around a lock, the workload's options, scenarios,
#                  scripted accesses, placement, finding a lock source; on the ISA
#   sim/machine    the assembled machine (cores, OS model, memory system) and its mark log
#   sim/report     what a run hands back: the report's tables, the profile, provenance, run folders
#   sim/run        one run and runs over seeds: the runner, variables' counters, repeat, compare,
#                  a script's run; on the machine, its trace and the report
#   sim/validation the model held against something: verify (a memory model, through the
#                  explorer), validate (published measurements), the latency probe, microbenchmarks
#   locks/native   the native backend: lock sources compiled and run on the host
#   sim/litmus, sim/sweep   front ends, on the runner (the model only: neither runs natively)
#   sim/calibrate  measures the host natively and writes a config by the model's definitions
#   sim/serve      the live page's server (`qsim serve`): requests checked, runs as `qsim run`
#                  (and sim/serve/serve.c the generated serve_page_html.h: the page)
#   sim/cli        the command line, on everything
set -u
tree=${1:-.}
cd "$tree" || exit 2

# What a run is made of, below the runner: the layers sim/run and everything above it may use.
RUNNER="sim/report/ sim/machine/ sim/workload/ sim/cfront/"

# folder: the folders (ending in /) and single headers it may include
rule() {
    case "$1" in
    sim/base)      echo "sim/base/ qsim_commit.h";;
    coherence)     echo "coherence/ sim/base/";;
    cores/isa)     echo "cores/isa/ sim/base/";;
    sim/memmodel)  echo "sim/memmodel/ cores/isa/ sim/base/";;
    sim/explore)   echo "sim/explore/ cores/isa/ sim/base/";;
    cores)         echo "cores/ cores/isa/ sim/base/ coherence/port.h";;
    sim/os)        echo "sim/os/ cores/ cores/isa/ coherence/ sim/base/";;
    sim/trace)     echo "sim/trace/ cores/ cores/isa/ coherence/ sim/base/ trace_html_page_js.h";;
    sim/cfront)    echo "sim/cfront/ cores/isa/ sim/base/";;
    sim/workload)  echo "sim/workload/ sim/cfront/ cores/isa/ sim/base/";;
    sim/machine)   echo "sim/machine/ sim/os/ cores/ cores/isa/ coherence/ sim/base/";;
    sim/report)    echo "sim/report/ sim/machine/ sim/workload/ cores/ cores/isa/ sim/base/";;
    sim/run)       echo "sim/run/ $RUNNER sim/os/ sim/trace/ cores/ cores/isa/ coherence/ sim/base/";;
    sim/validation) echo "sim/validation/ sim/run/ $RUNNER sim/explore/ sim/memmodel/ cores/ cores/isa/ coherence/ sim/base/";;
    locks/native)  echo "locks/native/ $RUNNER cores/isa/ sim/base/";;
    sim/litmus)    echo "sim/litmus/ sim/memmodel/ sim/run/ $RUNNER cores/isa/ coherence/ sim/base/";;
    sim/sweep)     echo "sim/sweep/ sim/validation/ sim/run/ $RUNNER cores/isa/ coherence/ sim/base/";;
    sim/calibrate) echo "sim/calibrate/ locks/native/ sim/run/ $RUNNER cores/isa/ coherence/ sim/base/";;
    sim/serve)     echo "sim/serve/ sim/run/ $RUNNER cores/isa/ coherence/ sim/base/ serve_page_html.h";;
    sim/cli)       echo "ANY";;
    *)             echo "";;
    esac
}

allowed() {  # folder include -> 0 when allowed
    for r in $(rule "$1"); do
        case "$r" in
        ANY) return 0;;
        */) [ "${2%/*}/" = "$r" ] && return 0;;
        *)  [ "$2" = "$r" ] && return 0;;
        esac
    done
    return 1
}

bad=0
out=$(mktemp /tmp/qsim-layers.XXXXXX)
for f in $(find sim cores coherence locks -name '*.[ch]' | LC_ALL=C sort); do
    dir=${f%/*}
    grep -n '^[[:space:]]*#[[:space:]]*include[[:space:]]*"' "$f" | while IFS= read -r line; do
        inc=$(printf '%s\n' "$line" | sed 's/.*#[[:space:]]*include[[:space:]]*"\([^"]*\)".*/\1/')
        if ! allowed "$dir" "$inc"; then
            echo "$f:${line%%:*}: $dir/ may not include \"$inc\" (see build-aux/check-layers.sh)"
        fi
    done
done > "$out"
if [ -s "$out" ]; then
    cat "$out" >&2
    bad=1
fi
rm -f "$out"
[ $bad = 0 ] && echo "check-layers: every include follows the layering"
exit $bad
