# ticket-plain-unlock: a ticket spinlock (head in the low half of the word, tail in the high
# half) whose unlock writes the new head with a plain store: `st16` at line 29, not `st16.rel`.
# CORRECT on x86: under x86-TSO a store never passes an older store, so the critical section's
# writes reach memory before the new head does (Linux x86 unlocked its ticket lock with a plain
# add for that reason).
# BROKEN on ARMv8 (`qsim verify --model arm64` finds it at 2 x 1): a plain STRH may reach memory before the
# critical section's stores, so the next ticket holder enters and reads a stale counter.
.shared lock_word 4 own_line
.equ TICKET_INC 0x10000

.entry lock
.entry unlock

lock:
    fadd32.acq r0, [lock_word], TICKET_INC      # r0 := old word: take a ticket
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
    st16 [lock_word], r0                        # plain: no release
    ret
