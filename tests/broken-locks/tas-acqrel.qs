# tas-acqrel: the test-and-set spinlock of tas-relaxed.qs with its orderings: an acquiring
# exchange (`xchg32.acq`: SWPA, or an LDAXR/STXR loop) and a releasing store (`st32.rel`: STLR).
# CORRECT on x86 and on ARMv8 (`qsim verify --model arm64` verifies it at 2 x 1): the acquire keeps the critical
# section after the exchange that took the lock, the release keeps it before the store that
# frees it.  The same code as locks/tas.qs.
.shared lock_word 4 own_line

.entry lock
.entry unlock

lock:
    xchg32.acq r0, [lock_word], 1
    beq r0, 0, tas_acquired
    pause
    jmp lock
tas_acquired:
    ret

unlock:
    st32.rel [lock_word], 0
    ret
