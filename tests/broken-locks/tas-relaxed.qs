# tas-relaxed: a test-and-set spinlock whose exchange has no acquire and whose unlocking store no
# release (`xchg32` and `st32`, both plain).
# CORRECT on x86: every XCHG is locked, a full barrier, and under x86-TSO stores stay in order
# with older stores, so the critical section's stores reach memory before the unlocking one.
# BROKEN on ARMv8 (`qsim verify --model arm64` finds it at 2 x 1): with a relaxed SWP the critical section's
# loads may be satisfied before the exchange takes the lock, and with a plain STR at line 23 its
# stores may reach memory after the unlock: the next owner reads a stale counter (a lost update).
# tas-acqrel.qs is the same lock with the orderings put back.
.shared lock_word 4 own_line

.entry lock
.entry unlock

lock:
    xchg32 r0, [lock_word], 1     # relaxed: old := word; word := 1
    beq r0, 0, tas_acquired
    pause
    jmp lock
tas_acquired:
    ret

unlock:
    st32 [lock_word], 0           # plain store: no release
    ret
