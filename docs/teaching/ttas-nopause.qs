# ttas without PAUSE: locks/ttas.qs with the spin loop's `pause` taken out, for the exercise
# "a machine clear in a spin loop" in docs/teaching.md.  Without PAUSE the core runs ahead
# through many iterations of the spin loop, so several loads of lock_word are in flight
# (performed, not retired) when the owner's release invalidates the line.
.shared lock_word 4 own_line

.entry lock
.entry unlock

lock:
    ld32 r0, [lock_word]
    beq r0, 0, ttas_try
    jmp lock
ttas_try:
    xchg32.acq r0, [lock_word], 1
    bne r0, 0, lock
    ret

unlock:
    st32.rel [lock_word], 0
    ret
