# spin-nopause: spin-pause without the PAUSE in the spin loop.  The spinning loads issue back to
# back, so when thread 0's store invalidates the line, loads already executed out of order
# against the old value are squashed: a memory-ordering machine clear on the spinning core
# (Intel's MACHINE_CLEARS.MEMORY_ORDERING).  Compare `--scenario spin-pause`.  Four threads on
# four cores.
#: --config teaching --set topology.cores_per_socket=4 --threads 4 --iterations 10
.shared gen 8 own_line                # how many times thread 0 has bumped it

.entry body
body:
    add r11, r11, 1                   # this call's generation (r11 keeps it between calls)
    bne tid, 0, spin
    work 100
    st [gen], r11
    ret
spin:
    ld r0, [gen]
    bgeu r0, r11, seen
    jmp spin
seen:
    ret
