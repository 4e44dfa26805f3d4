# false-sharing: each thread adds to its own counter, and the counters share one cache line.
# No variable is shared, yet every store needs the line back from the core that wrote it last:
# each increment is an RFO that invalidates the other copy.  `--scenario padded` is the same
# program with each counter in a line of its own.  Up to 8 threads.
#: --config teaching --threads 2 --iterations 20
.shared counts 64 own_line            # counts[t] at counts + 8 t: eight in one 64-byte line

.entry body
body:
    shl r1, tid, 3                    # this thread's counter: counts + 8 tid
    ld r0, [counts+r1]
    add r0, r0, 1
    st [counts+r1], r0
    work 100                          # the rest of the loop's compute
    ret
