# ticket: ticket spinlock as in Linux x86 before qspinlock (arch/x86/include/asm/spinlock.h,
# v3.x): one 32-bit word, `head` (now serving) in the low half, `tail` (next ticket) in the high
# half.  Lock: take a ticket with one fetch-add of 1<<16, spin until head equals it.
.shared lock_word 4 own_line
.equ TICKET_INC 0x10000

.entry lock
.entry unlock

lock:
    fadd32.acqrel r0, [lock_word], TICKET_INC   # r0 := old word
    shr r1, r0, 16                              # my ticket
    and r0, r0, 0xffff                          # head when we arrived
    beq r0, r1, ticket_acquired
ticket_spin:
    pause
    ld16.acq r0, [lock_word]                    # head (low half-word)
    bne r0, r1, ticket_spin
ticket_acquired:
    ret

unlock:
    ld16 r0, [lock_word]                        # only the owner writes head
    add r0, r0, 1
    st16.rel [lock_word], r0                    # 16-bit store wraps the counter
    ret
