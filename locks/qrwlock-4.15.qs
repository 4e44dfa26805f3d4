# qrwlock-4.15: Linux queued reader/writer lock as reworked for v4.15 (2017), as seed 002 measured it.
# The rework is Will Deacon's series "Switch arm64 over to qrwlock" (v2, LKML, October 2017):
# "locking/atomic: Add atomic_cond_read_acquire", "kernel/locking: Use atomic_cond_read_acquire
# when spinning in qrwlock", "kernel/locking: Prevent slowpath writers getting held up by
# fastpath".  Sources: kernel/locking/qrwlock.c, include/asm-generic/qrwlock.h and
# qrwlock_types.h of v4.15.  qrwlock.qs is the v4.3 lock before the rework; arm64-rwlock.qs is
# arm64's own rwlock that the series replaced (seed 002's "w/o qrwlock patch").
#
# The lock word cnts (32 bits): bits 0-7 the writer byte `wlocked` (LOCKED 0xff: a writer holds
# the lock), bit 8 WAITING (0x100: a writer waits; before the rework WAITING was 1 in the writer
# byte), bits 9-31 the reader count (each reader adds BIAS = 1 << 9).  WMASK = LOCKED | WAITING.
# wait_lock, an arch spinlock in the same line (struct qrwlock), queues the slow paths.
#
# read_lock:
#   1. cnts := atomic_add_return_acquire(BIAS); if (cnts & WMASK) == 0, done (no writer holds or
#      waits).
#   2. Slow path (process context): atomic_sub(BIAS) (relaxed); take wait_lock; atomic_add(BIAS)
#      (relaxed); atomic_cond_read_acquire(cnts, !(VAL & LOCKED)): wait, with acquire, until no
#      writer holds the lock (a waiting writer does not stop a reader at the queue head); release
#      wait_lock.
# read_unlock: atomic_sub_return_release(BIAS).
# write_lock:
#   1. atomic_cmpxchg_acquire(cnts, 0, LOCKED); success: done.
#   2. Slow path: take wait_lock; if cnts reads 0 and cmpxchg_acquire(0 -> LOCKED) succeeds, go
#      to 5.
#   3. atomic_add(WAITING) (relaxed): from now on every new reader and writer takes the slow path
#      and queues on wait_lock, so no fastpath locker can overtake this writer (the fix of the
#      rework: before it, WAITING was set by a cmpxchg loop on the writer byte, which a stream of
#      fastpath writers could hold off for ever).
#   4. Loop: atomic_cond_read_acquire(cnts, VAL == WAITING) (the readers inside have left), then
#      atomic_cmpxchg_relaxed(cnts, WAITING, LOCKED); until it returns WAITING.
#   5. Release wait_lock.
# write_unlock: smp_store_release(&wlocked, 0) (a byte store; WAITING was cleared in step 4).
#
# Waiting: atomic_cond_read_acquire is smp_cond_load_acquire.  x86 (generic): read, test,
# cpu_relax (PAUSE), and acquire for free under TSO.  arm64 (arch/arm64/include/asm/barrier.h,
# __cmpwait in cmpxchg.h): LDAR, test, then sevl; wfe; ldxr; if the value changed go round, else
# wfe (sleep until the line is written).
# wait_lock: a ticket spinlock, as arch_spinlock_t was on arm64 when the series was measured
# (arch/arm64/include/asm/spinlock.h, v3.x-v4.17; see ticket.qs: LDADDA or LDAXR/STXR, sevl +
# wfe/ldaxrh loop, stlrh or staddlh per core.atomics).  On x86 Linux v4.15 used a qspinlock
# there; here x86 keeps the x86 ticket lock of ticket.qs, as qrwlock.qs does.
# `lock`/`unlock` are the write side, so the generic harness can drive this lock too.
.shared lock_word 4 own_line          # cnts
.shared wait_lock 4 with lock_word
.equ LOCKED 0xff
.equ WAITING 0x100
.equ WMASK 0x1ff
.equ BIAS 0x200
.equ TICKET_INC 0x10000

.entry read_lock
.entry read_unlock
.entry write_lock
.entry write_unlock
.entry lock
.entry unlock

# r0 cnts, r1 scratch, r2 the arm64 exclusive load; the wait lock helpers use r8..r9.
read_lock:
    fadd32.acq r0, [lock_word], BIAS            # step 1: cnts := add_return_acquire(BIAS)
    add r0, r0, BIAS
    and r1, r0, WMASK
    bne r1, 0, qrw15_read_slow
    ret
qrw15_read_slow:
    fadd32 r0, [lock_word], -BIAS               # step 2: atomic_sub(BIAS)
    call qrw15_wait_lock
    fadd32 r0, [lock_word], BIAS                # atomic_add(BIAS)
qrw15_read_wait:                                # atomic_cond_read_acquire(!(VAL & LOCKED))
    ld32.acq r0, [lock_word]
    and r1, r0, LOCKED
    beq r1, 0, qrw15_read_done
.if arch=arm64
    sevl                                        # __cmpwait(cnts, r0)
    wfe
    ldx32 r2, [lock_word]
    bne r2, r0, qrw15_read_wait
    wfe
.else
    pause
.endif
    jmp qrw15_read_wait
qrw15_read_done:
    call qrw15_wait_unlock
    ret

read_unlock:
    fadd32.rel r0, [lock_word], -BIAS           # atomic_sub_return_release(BIAS)
    ret

lock:
write_lock:
    cas32.acq r0, [lock_word], 0, LOCKED        # step 1
    bne r0, 0, qrw15_write_slow
    ret
qrw15_write_slow:
    call qrw15_wait_lock                        # step 2
    ld32 r0, [lock_word]
    bne r0, 0, qrw15_set_waiting
    cas32.acq r0, [lock_word], 0, LOCKED
    beq r0, 0, qrw15_write_done
qrw15_set_waiting:
    fadd32 r0, [lock_word], WAITING             # step 3: atomic_add(WAITING)
qrw15_write_wait:                               # step 4: atomic_cond_read_acquire(VAL == WAITING)
    ld32.acq r0, [lock_word]
    beq r0, WAITING, qrw15_write_try
.if arch=arm64
    sevl                                        # __cmpwait(cnts, r0)
    wfe
    ldx32 r2, [lock_word]
    bne r2, r0, qrw15_write_wait
    wfe
.else
    pause
.endif
    jmp qrw15_write_wait
qrw15_write_try:
    cas32 r0, [lock_word], WAITING, LOCKED      # atomic_cmpxchg_relaxed(WAITING, LOCKED)
    bne r0, WAITING, qrw15_write_wait
qrw15_write_done:
    call qrw15_wait_unlock                      # step 5
    ret

unlock:
write_unlock:
    st8.rel [lock_word], 0                      # smp_store_release(&wlocked, 0)
    ret

# The wait lock: a ticket spinlock (see ticket.qs, each arch's form).
qrw15_wait_lock:
.if arch=arm64
    fadd32.acq r8, [wait_lock], TICKET_INC
.else
    fadd32.acqrel r8, [wait_lock], TICKET_INC
.endif
    shr r9, r8, 16
    and r8, r8, 0xffff
    beq r8, r9, qrw15_wait_locked
.if arch=arm64
    sevl
qrw15_wait_spin:
    wfe
    ldx16.acq r8, [wait_lock]
    bne r8, r9, qrw15_wait_spin
.else
qrw15_wait_spin:
    pause
    ld16.acq r8, [wait_lock]
    bne r8, r9, qrw15_wait_spin
.endif
qrw15_wait_locked:
    ret
qrw15_wait_unlock:
.if atomics=lse
    fadd16.rel r8, [wait_lock], 1
.else
    ld16 r8, [wait_lock]
    add r8, r8, 1
    st16.rel [wait_lock], r8
.endif
    ret
