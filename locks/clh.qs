# clh: CLH queue lock: each waiter spins on its predecessor's node, then adopts it.
# Source: Craig, "Building FIFO and priority-queuing spin locks from atomic swap", TR 93-02-02,
# U. Washington, 1993; Magnussen, Landin & Hagersten, IPPS 1994; Herlihy & Shavit section 7.5.
# The tail starts at 0, standing for a free dummy node (clh_dummy) so no initialiser needs an
# address: the first thread ever to enqueue finds 0 and adopts the dummy.
# arm64: the wait on the predecessor's node is written as Linux waits on arm64,
# smp_cond_load_acquire(&pred->locked, VAL == 0) (arch/arm64/include/asm/barrier.h: load-acquire;
# if not yet, sevl; wfe; ldxr; if the value changed go round, else wfe), not YIELD.  x86 keeps
# PAUSE.
.shared lock_word 8 own_line          # tail: address of the last node
.shared clh_dummy 8 own_line          # the initial, unlocked node
.thread clh_node 8 own_line           # this thread's first node (locked flag)
.thread clh_mine 8                    # the node this thread enqueues next (0: clh_node)
.thread clh_pred 8                    # the predecessor's node, adopted on unlock

.entry lock
.entry unlock

lock:
    ld r1, [clh_mine]
    bne r1, 0, clh_have_node
    la r1, clh_node
clh_have_node:
    st [clh_mine], r1
    st [r1], 1                        # my node: locked (held or waiting)
    xchg.acqrel r2, [lock_word], r1   # pred := tail; tail := my node
    bne r2, 0, clh_spin
    la r2, clh_dummy
clh_spin:
    ld.acq r3, [r2]
    beq r3, 0, clh_acquired
.if arch=arm64
    sevl                              # __cmpwait(&pred->locked, r3)
    wfe
    ldx r4, [r2]
    bne r4, r3, clh_spin
    wfe
.else
    pause
.endif
    jmp clh_spin
clh_acquired:
    st [clh_pred], r2
    ret

unlock:
    ld r1, [clh_mine]
    ld r2, [clh_pred]
    st.rel [r1], 0                    # release: my successor spins on this node
    st [clh_mine], r2                 # adopt the predecessor's node for next time
    ret
