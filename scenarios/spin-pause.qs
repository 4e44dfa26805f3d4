# spin-pause: three threads spin on a word that the fourth changes now and then, with PAUSE in
# the loop.  Thread 0 computes for a while and then bumps `gen`; every other thread waits until
# `gen` reaches its next value.  PAUSE slows the spinning loads down, so few are in flight when
# the write's invalidation arrives: compare `--scenario spin-nopause` (machine clears, paused
# cycles).  Four threads on four cores.  A single noiseless run is one interleaving: with a
# longer `work` (200) it can lock into a phase with fewer clears without PAUSE than with;
# docs/teaching.md gives both over ten seeds (`--repeat 10`), where PAUSE has fewer either way.
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
    pause
    jmp spin
seen:
    ret
