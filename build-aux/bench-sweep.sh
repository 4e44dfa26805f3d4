#!/bin/sh
# Prints how much faster a small sweep runs on 2 worker threads than on 1 (for `make bench`).
# A ratio near 2 means the points share nothing; near 1, something serialises them.
# Usage: build-aux/bench-sweep.sh [QSIM]   (default ./qsim)
set -eu
qsim=${1:-./qsim}
dir=$(mktemp -d /tmp/qsim-bench-sweep.XXXXXX)
trap 'rm -rf "$dir"' EXIT
cat > "$dir/bench.yaml" <<'YAML'
configs: haswell
locks: [ticket, qspin, qspin-cmpxchg, mcs]
threads: [2, 4]
iterations: 300
YAML
now() { date +%s.%N; }
t0=$(now); "$qsim" sweep "$dir/bench.yaml" -j 1 --out "$dir/j1" >/dev/null
t1=$(now); "$qsim" sweep "$dir/bench.yaml" -j 2 --out "$dir/j2" >/dev/null
t2=$(now)
cmp -s "$dir/j1/results.csv" "$dir/j2/results.csv" || { echo "bench-sweep: -j 1 and -j 2 results differ" >&2; exit 1; }
awk -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN {
  j1 = b - a; j2 = c - b
  printf "sweep: -j 1 %.2f s, -j 2 %.2f s, speed-up %.2fx\n", j1, j2, j1 / j2 }'
