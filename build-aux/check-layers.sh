#!/bin/sh
# The layering rule, checked on every #include "..." of the source tree (docs/architecture.md).
# Each folder may include only the headers its row allows; anything else is an include that
# runs upward (or sideways) and fails the check.  Usage: check-layers.sh [TREE] (default .).
#
#   sim/base    the engine, config, reports, suggestions: the base everything may use
#   coherence   the memory system, on the base
#   cores       the ISA and the core model, on the base, meeting coherence only at its port
#   sim         the machine, harness, workload and runner, on all three
#   locks       lock sources and the native backend, on the runner
#   sim/litmus, sim/sweep   front ends, on the runner (sweeps also run natively)
#   sim/calibrate   measures the host natively and writes a config by the model's definitions
#   sim/cli     the command line, on everything
set -u
tree=${1:-.}
cd "$tree" || exit 2

allowed() {  # folder include -> 0 when allowed
    case "$1" in
    sim/base)   case "$2" in sim/base/*|cores/arch.h) return 0;; esac;;
    coherence)  case "$2" in coherence/*|sim/base/*) return 0;; esac;;
    cores)      case "$2" in cores/*|sim/base/*|coherence/port.h) return 0;; esac;;
    sim)        case "$2" in sim/*/*) ;; sim/*|cores/*|coherence/*) return 0;; esac
                case "$2" in sim/base/*) return 0;; esac;;
    locks)      case "$2" in sim/*/*) ;; locks/*|sim/*|cores/*) return 0;; esac
                case "$2" in sim/base/*) return 0;; esac;;
    sim/litmus) case "$2" in sim/litmus/*|sim/base/*|cores/*|coherence/*) return 0;; sim/*/*) ;; sim/*) return 0;; esac;;
    sim/sweep)  case "$2" in sim/sweep/*|sim/base/*|cores/*|coherence/*|locks/*) return 0;; sim/*/*) ;; sim/*) return 0;; esac;;
    sim/calibrate) case "$2" in sim/calibrate/*|sim/base/*|cores/*|coherence/*|locks/*) return 0;; sim/*/*) ;; sim/*) return 0;; esac;;
    sim/cli)    return 0;;
    esac
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
