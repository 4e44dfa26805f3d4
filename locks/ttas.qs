# ttas: test-and-test-and-set spinlock: spin reading the word, exchange only when it reads 0.
# Source: Rudolph & Segall, ISCA 1984; Herlihy & Shavit, "The Art of Multiprocessor
# Programming", section 7.3.  Spinning hits in the local cache until the owner releases.
.shared lock_word 4 own_line

.entry lock
.entry unlock

lock:
    ld32 r0, [lock_word]
    beq r0, 0, ttas_try
    pause
    jmp lock
ttas_try:
    xchg32.acq r0, [lock_word], 1
    bne r0, 0, lock
    ret

unlock:
    st32.rel [lock_word], 0
    ret
