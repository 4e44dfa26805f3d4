# tas: test-and-set spinlock, spinning on an atomic exchange.
# Source: the textbook TAS lock (Herlihy & Shavit, "The Art of Multiprocessor Programming",
# section 7.2; Anderson, IEEE TPDS 1990).  Every spin iteration is a locked RMW on the line.
# Both arches run the same code: there is no read-only wait to turn into an arm64 WFE wait (the
# exchange itself is the spin), so arm64 backs off with YIELD as x86 does with PAUSE.
.shared lock_word 4 own_line

.entry lock
.entry unlock

lock:
    xchg32.acq r0, [lock_word], 1     # old := word; word := 1
    beq r0, 0, tas_acquired
    pause
    jmp lock
tas_acquired:
    ret

unlock:
    st32.rel [lock_word], 0
    ret
