# ttas: test-and-test-and-set spinlock: spin reading the word, exchange only when it reads 0.
# Source: Rudolph & Segall, ISCA 1984; Herlihy & Shavit, "The Art of Multiprocessor
# Programming", section 7.3.  Spinning hits in the local cache until the owner releases.
# arm64: the read-only wait is written as Linux waits on arm64, smp_cond_load_relaxed(word,
# VAL == 0) (arch/arm64/include/asm/barrier.h, __cmpwait in cmpxchg.h): read; if not 0, sevl;
# wfe; ldxr; if the value changed go round, else wfe (sleep until the line is written); instead
# of YIELD.  x86 keeps PAUSE.
.shared lock_word 4 own_line

.entry lock
.entry unlock

lock:
    ld32 r0, [lock_word]
    beq r0, 0, ttas_try
.if arch=arm64
    sevl                              # __cmpwait(lock_word, r0): clear a stale event
    wfe
    ldx32 r1, [lock_word]             # arm the monitor
    bne r1, r0, lock                  # changed already: look again
    wfe                               # sleep until the line is written
.else
    pause
.endif
    jmp lock
ttas_try:
    xchg32.acq r0, [lock_word], 1
    bne r0, 0, lock
    ret

unlock:
    st32.rel [lock_word], 0
    ret
