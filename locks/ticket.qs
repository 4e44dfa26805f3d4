# ticket: ticket spinlock, one 32-bit word: `head` (now serving) in the low half, `tail` (next
# ticket) in the high half.  Lock: take a ticket with one fetch-add of 1<<16, wait until head
# equals it.  Unlock: head + 1.
# x86: as in Linux x86 before qspinlock (arch/x86/include/asm/spinlock.h, v3.x): LOCK XADD, then
#   spin reading head with PAUSE; unlock is a plain (not LOCK'd) add to head.
# arm64: as in Linux arm64 before qspinlock (arch/arm64/include/asm/spinlock.h up to v4.17, the
#   LSE forms from v4.3; arch_spin_lock/arch_spin_unlock): the ticket by LDAXR/STXR or LSE
#   LDADDA (fetch-add with acquire); then `sevl`, and a loop of `wfe; ldaxrh head; compare`:
#   the exclusive load arms the monitor, so the owner's unlock store wakes the wfe (the sevl
#   makes the first wfe fall through).  Unlock: LL/SC ldrh/add/stlrh, or LSE staddlh (per
#   core.atomics).
.shared lock_word 4 own_line
.equ TICKET_INC 0x10000

.entry lock
.entry unlock

lock:
.if arch=arm64
    fadd32.acq r0, [lock_word], TICKET_INC      # r0 := old word (LDADDA, or LDAXR/STXR loop)
.else
    fadd32.acqrel r0, [lock_word], TICKET_INC   # r0 := old word
.endif
    shr r1, r0, 16                              # my ticket
    and r0, r0, 0xffff                          # head when we arrived
    beq r0, r1, ticket_acquired
.if arch=arm64
    sevl                                        # the first wfe falls through
ticket_spin:
    wfe                                         # until the monitor on the line is cleared
    ldx16.acq r0, [lock_word]                   # head, arming the monitor (LDAXRH)
    bne r0, r1, ticket_spin
.else
ticket_spin:
    pause
    ld16.acq r0, [lock_word]                    # head (low half-word)
    bne r0, r1, ticket_spin
.endif
ticket_acquired:
    ret

unlock:
.if atomics=lse
    fadd16.rel r0, [lock_word], 1               # STADDLH: head + 1, wrapping in 16 bits
.else
    ld16 r0, [lock_word]                        # only the owner writes head
    add r0, r0, 1
    st16.rel [lock_word], r0                    # 16-bit store wraps the counter
.endif
    ret
