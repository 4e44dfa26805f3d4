# The ticket lock as GCC compiles examples/c-locks/ticket.c for AArch64 with LL/SC (-march=armv8-a) (docs/c-locks.md, "Timing against the same
# instructions"), written by hand: each instruction (the `# ` line, as `qsim asm --translated`
# prints it) is one ISA op, in the registers the translation gives it, with no glue, no flags
# kept as data, no masks; a conditional branch reads the result of the instruction that set
# its flags.  tests/test_cfront_timing.c runs it beside the C file: their cycles
# per acquisition must agree within 3%; it skips (counted) when the compiler's instructions are
# no longer these.
.shared lock_word 8 own_line

.entry lock
.entry unlock

lock:
    # add x2, x0, 4
    la r18, lock_word
l5:
    # ldxr w1, [x0]
    ldx32 r17, [lock_word]
    # add w3, w1, 1
    add r19, r17, 1
    # stxr w4, w3, [x0]
    stx32 r20, [lock_word], r19
    # cbnz w4, .L5
    bne r20, 0, l5
    # b .L2
    jmp l2
l3:
    # yield
    pause
l2:
    # ldar w0, [x2]
    ld32.acq r16, [r18+4]
    # cmp w0, w1
    sub r50, r16, r17
    # bne .L3
    bne r50, 0, l3
    # ret
    ret
unlock:
    # ldr w1, [x0, 4]!
    ld32 r17, [lock_word+4]
    # add w1, w1, 1
    add r17, r17, 1
    # stlr w1, [x0]
    st32.rel [lock_word+4], r17
    # ret
    ret
