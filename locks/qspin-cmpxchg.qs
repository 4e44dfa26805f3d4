# qspin-cmpxchg: qspin with the seed patch applied: "qspinlock: Improve performance by reducing
# load instruction rollback", Ma Ling, RFC PATCH 1/1, LKML, October 2015.  The pending owner
# and the queue head spin with cmpxchg16 on locked_pending instead of load-acquire.
# Base: Linux generic queued spinlock, v4.3 (kernel/locking/qspinlock.c, late 2015), without
# paravirt (locks/qspin.qs, whose comments follow it step by step).
# Word: bits 0-7 locked byte, bit 8 pending (bits 8-15 the pending byte), bits 16-31 the tail:
# (thread + 1) << 18 | idx << 16, idx 0 (one MCS node per thread).  Bits 0-15 are the
# locked_pending half-word, bits 16-31 the tail half-word.
# MCS node: next pointer at +0 (8 bytes), locked at +8 (4 bytes).
# arm64: every wait is written as Linux's qspinlock waits on arm64 (from v4.18, the release that
# moved arm64 to qspinlock): atomic_cond_read_{relaxed,acquire} / smp_cond_load_{relaxed,acquire}
# on the word or the MCS node, which arm64 implements (arch/arm64/include/asm/barrier.h, __cmpwait
# in cmpxchg.h) as: load (LDR or LDAR); if the condition fails, sevl; wfe; ldxr; if the value
# changed go round, else wfe (sleep until the line is written).  The algorithm stays v4.3's (an
# unbounded wait for a pending hand-over; pending taken by cmpxchg), so x86 and arm64 run one
# algorithm; x86 keeps its PAUSE loops unchanged.  Scratch: r7 holds the exclusive load.
# The patch's own spins (cmpxchg16 until it succeeds) are kept on arm64 too, backing off with
# YIELD: they are what the patch is about, and it was written for x86.
# The two places the seed patch changes sit between "seed patch region" comment lines;
# everything else is kept identical in qspin-cmpxchg.qs (a test checks it).
.shared lock_word 4 own_line
.thread qnode 16 own_line
.equ LOCKED 0x1
.equ PENDING 0x100
.equ LOCKED_PENDING 0x101
.equ LOCKED_MASK 0xff
.equ NOT_LOCKED_MASK 0xffffff00
.equ LOCKED_PENDING_MASK 0xffff

.entry lock
.entry unlock

lock:
    cas32.acqrel r0, [lock_word], 0, LOCKED     # fast path: val := cmpxchg(0 -> LOCKED)
    bne r0, 0, qs_slowpath
    ret

# r0 val, r1 new, r2 old, r3 node, r4 tail, r5 prev/next, r6 scratch
qs_slowpath:
    bne r0, PENDING, qs_trypending              # val == PENDING: a hand-over is in flight,
.if arch=arm64
qs_wait_handover:                               # wait for it to complete:
    ld32 r0, [lock_word]                        # atomic_cond_read_relaxed(VAL != PENDING)
    bne r0, PENDING, qs_trypending
    sevl                                        # __cmpwait(word, r0)
    wfe
    ldx32 r7, [lock_word]
    bne r7, r0, qs_wait_handover
    wfe
    jmp qs_wait_handover
.else
qs_wait_handover:                               # wait for it to complete, reading first:
    ld32 r0, [lock_word]                        # while ((val = atomic_read(&lock->val)) == _Q_PENDING_VAL)
    bne r0, PENDING, qs_trypending
    pause                                       #     cpu_relax();
    jmp qs_wait_handover
.endif
qs_trypending:                                  # trylock || pending
    and r6, r0, NOT_LOCKED_MASK
    bne r6, 0, qs_queue                         # pending or tail set: queue
    mov r1, LOCKED
    bne r0, LOCKED, qs_trypending_cas
    mov r1, LOCKED_PENDING                      # locked: claim pending
qs_trypending_cas:
    cas32.acqrel r2, [lock_word], r0, r1
    beq r2, r0, qs_trypending_done
    mov r0, r2
    jmp qs_trypending
qs_trypending_done:
    bne r1, LOCKED, qs_pending_owner
    ret                                         # we set LOCKED from 0: ours
qs_pending_owner:
# ---- seed patch region 1 begin: the pending owner waits for the owner, takes the lock ----
    cas16.acqrel r0, [lock_word], PENDING, LOCKED   # *,1,0 -> *,0,1 once the owner left
    beq r0, PENDING, qs_pending_done
    pause
    jmp qs_pending_owner
qs_pending_done:
    ret
# ---- seed patch region 1 end ----

qs_queue:
    la r3, qnode
    st32 [r3+8], 0                              # node.locked := 0
    st [r3], 0                                  # node.next := NULL
    add r4, tid, 1
    shl r4, r4, 18                              # tail := encode_tail(tid, idx 0)
    shr r6, r4, 16
    xchg16.acqrel r2, [lock_word+2], r6         # old := xchg_tail(tail)
    beq r2, 0, qs_head
    shr r5, r2, 2                               # decode_tail: thread + 1
    sub r5, r5, 1
    la r5, qnode, r5                            # prev := that thread's node
    st [r5], r3                                 # prev.next := node
qs_mcs_spin:
    ld32.acq r6, [r3+8]                         # wait for the MCS hand-off
    bne r6, 0, qs_head
.if arch=arm64
    sevl                                        # smp_cond_load_acquire(&node->locked, VAL)
    wfe
    ldx32 r7, [r3+8]
    bne r7, r6, qs_mcs_spin
    wfe
.else
    pause
.endif
    jmp qs_mcs_spin
qs_head:
# ---- seed patch region 2 begin: the queue head waits for owner and pending, claims ----
    ld r5, [r3]                                 # next := node.next
qs_head_cas:
    cas16.acqrel r0, [lock_word], 0, LOCKED     # *,0,0 -> *,0,1: waits and takes the lock
    beq r0, 0, qs_head_locked
    ld r5, [r3]                                 # next := node.next
    pause
    jmp qs_head_cas
qs_head_locked:
    bne r5, 0, qs_next_node                     # a successor: hand off at once
    ld32.acq r0, [lock_word]
    or r4, r4, LOCKED                           # tail |= LOCKED
qs_claim:
    bne r0, r4, qs_wait_next                    # others queued: no set_locked, locked is ours
    cas32.acqrel r2, [lock_word], r0, LOCKED    # only us: clear the tail
    beq r2, r0, qs_release
    mov r0, r2
    jmp qs_claim
# ---- seed patch region 2 end ----

qs_wait_next:
    ld r5, [r3]                                 # wait for our successor to link in
    bne r5, 0, qs_next_node
.if arch=arm64
    sevl                                        # smp_cond_load_relaxed(&node->next, VAL)
    wfe
    ldx r7, [r3]
    bne r7, r5, qs_wait_next
    wfe
.else
    pause
.endif
    jmp qs_wait_next
qs_next_node:
    st32.rel [r5+8], 1                          # next.locked := 1 (store-release)
qs_release:
    ret

unlock:
    st8.rel [lock_word], 0                      # store-release 0 to the locked byte
    ret
