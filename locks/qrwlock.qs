# qrwlock: Linux queued reader/writer lock, v4.3 (kernel/locking/qrwlock.c and
# include/asm-generic/qrwlock.h, late 2015).
# cnts (32 bits): the low byte is the writer byte (WLOCKED 0xff: a writer holds the lock,
# WAITING 1: a writer waits); each reader adds BIAS (1 << 8).  The slow paths are serialised by
# wait_lock, here a ticket spinlock (head in the low half, next ticket in the high half) kept
# in the same line, as in struct qrwlock.  `lock`/`unlock` are the write side, so the generic
# harness can drive this lock too.  qrwlock-4.15.qs is the lock as reworked in 2017.
# arm64: Linux only used qrwlock on arm64 from v4.15, with that rework, so v4.3's arm64 form is
# ours: its cpu_relax() loops wait as Linux waits on arm64 (smp_cond_load_* in
# arch/arm64/include/asm/barrier.h, __cmpwait in cmpxchg.h: sevl; wfe; ldxr; if the value
# changed go round, else wfe), and the wait lock is the arm64 ticket lock of v3.x-v4.17 (see
# ticket.qs: LDADDA or LDAXR/STXR, sevl + wfe/ldaxrh loop, stlrh or staddlh), which is what
# arch_spinlock_t was on arm64 then.  So the v4.3 and 4.15 locks differ on arm64 only where the
# rework does.  x86 keeps its PAUSE loops and ticket wait lock unchanged.
.shared lock_word 4 own_line          # cnts
.shared wait_lock 4 with lock_word
.equ WLOCKED 0xff
.equ WAITING 0x1
.equ WMASK 0xff
.equ BIAS 0x100
.equ TICKET_INC 0x10000

.entry read_lock
.entry read_unlock
.entry write_lock
.entry write_unlock
.entry lock
.entry unlock

# r0 cnts, r1 scratch, r2 the arm64 exclusive load; the wait lock helpers use r8..r9.
read_lock:
    fadd32.acq r0, [lock_word], BIAS            # cnts := atomic_add_return_acquire(BIAS)
    add r0, r0, BIAS
    and r1, r0, WMASK
    bne r1, 0, qrw_read_slow
    ret
qrw_read_slow:
    fadd32 r0, [lock_word], -BIAS               # undo our bias
    call qrw_wait_lock
    fadd32.acq r0, [lock_word], BIAS
    add r0, r0, BIAS
qrw_read_spin:                                  # rspin_until_writer_unlock
    and r1, r0, WMASK
    bne r1, WLOCKED, qrw_read_done
.if arch=arm64
    sevl                                        # __cmpwait(cnts, r0)
    wfe
    ldx32 r2, [lock_word]
    bne r2, r0, qrw_read_reload
    wfe
qrw_read_reload:
.else
    pause
.endif
    ld32.acq r0, [lock_word]
    jmp qrw_read_spin
qrw_read_done:
    call qrw_wait_unlock
    ret

read_unlock:
    fadd32.rel r0, [lock_word], -BIAS
    ret

lock:
write_lock:
    cas32.acq r0, [lock_word], 0, WLOCKED
    bne r0, 0, qrw_write_slow
    ret
qrw_write_slow:
    call qrw_wait_lock
    ld32 r0, [lock_word]                        # if cnts == 0, try once more
    bne r0, 0, qrw_set_waiting
    cas32.acq r0, [lock_word], 0, WLOCKED
    beq r0, 0, qrw_write_done
qrw_set_waiting:                                # writer byte 0 -> WAITING
    ld8 r0, [lock_word]
    bne r0, 0, qrw_set_waiting_retry
    cas8 r0, [lock_word], 0, WAITING
    beq r0, 0, qrw_wait_readers
qrw_set_waiting_retry:
.if arch=arm64
    sevl                                        # __cmpwait(writer byte, r0)
    wfe
    ldx8 r2, [lock_word]
    bne r2, r0, qrw_set_waiting
    wfe
.else
    pause
.endif
    jmp qrw_set_waiting
qrw_wait_readers:                               # until cnts == WAITING: readers gone
    ld32 r0, [lock_word]
    bne r0, WAITING, qrw_wait_readers_retry
    cas32.acq r0, [lock_word], WAITING, WLOCKED
    beq r0, WAITING, qrw_write_done
qrw_wait_readers_retry:
.if arch=arm64
    sevl                                        # __cmpwait(cnts, r0)
    wfe
    ldx32 r2, [lock_word]
    bne r2, r0, qrw_wait_readers
    wfe
.else
    pause
.endif
    jmp qrw_wait_readers
qrw_write_done:
    call qrw_wait_unlock
    ret

unlock:
write_unlock:
    st8.rel [lock_word], 0                      # store-release 0 to the writer byte
    ret

# The wait lock: a ticket spinlock (see ticket.qs, each arch's form).
qrw_wait_lock:
.if arch=arm64
    fadd32.acq r8, [wait_lock], TICKET_INC
.else
    fadd32.acqrel r8, [wait_lock], TICKET_INC
.endif
    shr r9, r8, 16
    and r8, r8, 0xffff
    beq r8, r9, qrw_wait_locked
.if arch=arm64
    sevl
qrw_wait_spin:
    wfe
    ldx16.acq r8, [wait_lock]
    bne r8, r9, qrw_wait_spin
.else
qrw_wait_spin:
    pause
    ld16.acq r8, [wait_lock]
    bne r8, r9, qrw_wait_spin
.endif
qrw_wait_locked:
    ret
qrw_wait_unlock:
.if atomics=lse
    fadd16.rel r8, [wait_lock], 1
.else
    ld16 r8, [wait_lock]
    add r8, r8, 1
    st16.rel [wait_lock], r8
.endif
    ret
