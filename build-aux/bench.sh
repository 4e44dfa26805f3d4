#!/bin/sh
# make bench: simulated instructions and cycles per host second, and peak memory, for qspin on
# haswell with 2, 8 and 32 threads (10,000 acquisitions in all each).  Targets (issue 6):
# >= 5 M simulated instructions per host second with 2 threads; 32 threads in under 60 s.
set -eu
Q=${1:-./qsim}
printf '%-8s %12s %12s %10s %14s %14s %12s\n' threads instructions cycles seconds 'M instr/s' 'M cycles/s' 'peak KiB'
for t in 2 8 32; do
    it=$((10000 / t))
    out=$($Q run --config haswell --lock qspin --threads $t --iterations $it --format csv)
    echo "$out" | awk -F, -v t=$t '
        NR == 1 { for (i = 1; i <= NF; i++) col[$i] = i; next }
        { ins = $col["sim_instructions"]; cyc = $col["cycles"]; s = $col["host_seconds"]; kib = $col["host_peak_rss_kib"];
          printf "%-8s %12d %12d %10.2f %14.2f %14.2f %12d\n", t, ins, cyc, s, ins / s / 1e6, cyc / s / 1e6, kib }'
done
if [ -f build-aux/bench-sweep.sh ]; then sh build-aux/bench-sweep.sh "$Q"; fi
