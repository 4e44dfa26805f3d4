# padded: false-sharing's program with each thread's counter padded to a cache line of its own.
# After the first miss every increment hits in the thread's own L1: no RFO, no invalidation.
# Compare `--scenario false-sharing`.  Up to 8 threads.
#: --config teaching --threads 2 --iterations 20
.shared counts 512 own_line           # counts[t] at counts + 64 t: one line each

.entry body
body:
    shl r1, tid, 6                    # this thread's counter: counts + 64 tid
    ld r0, [counts+r1]
    add r0, r0, 1
    st [counts+r1], r0
    work 100                          # the rest of the loop's compute
    ret
