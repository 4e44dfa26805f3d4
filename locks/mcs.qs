# mcs: MCS queue lock, each waiter spinning on its own node.
# Source: Mellor-Crummey & Scott, "Algorithms for Scalable Synchronization on Shared-Memory
# Multiprocessors", ACM TOCS 9(1), 1991, figure 5 (with compare-and-swap in release).
# arm64: the wait for the hand-off is Linux's arch_mcs_spin_lock_contended (kernel/locking/
# mcs_spinlock.h), smp_cond_load_acquire(&node->locked, VAL): load-acquire; if 0, __cmpwait
# (sevl; wfe; ldxr; if the value changed go round, else wfe) as arm64 implements it
# (arch/arm64/include/asm/barrier.h, cmpxchg.h).  The release's wait for the successor to link
# in stays a relaxed read with cpu_relax (YIELD), as in Linux's mcs_spin_unlock.  x86 keeps PAUSE.
# Node layout: next pointer at +0 (8 bytes), locked flag at +8 (4 bytes; 1 = lock handed to us).
.shared lock_word 8 own_line          # tail: address of the last node, 0 when free
.thread mcs_node 16 own_line

.entry lock
.entry unlock

lock:
    la r1, mcs_node
    st [r1], 0                        # node.next := NULL
    st32 [r1+8], 0                    # node.locked := 0
    xchg.acqrel r2, [lock_word], r1   # prev := tail; tail := node
    beq r2, 0, mcs_acquired
    st [r2], r1                       # prev.next := node
mcs_spin:
    ld32.acq r3, [r1+8]
    bne r3, 0, mcs_acquired
.if arch=arm64
    sevl                              # __cmpwait(&node->locked, r3)
    wfe
    ldx32 r4, [r1+8]
    bne r4, r3, mcs_spin
    wfe
.else
    pause
.endif
    jmp mcs_spin
mcs_acquired:
    ret

unlock:
    la r1, mcs_node
    ld r2, [r1]                       # next
    bne r2, 0, mcs_handoff
    cas.rel r3, [lock_word], r1, 0    # no successor yet: tail := NULL if it is still us
    beq r3, r1, mcs_released
mcs_wait_next:                        # a successor swapped the tail but has not linked in
    pause
    ld r2, [r1]
    beq r2, 0, mcs_wait_next
mcs_handoff:
    st32.rel [r2+8], 1                # next.locked := 1
mcs_released:
    ret
