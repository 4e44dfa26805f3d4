# The ticket lock as GCC compiles examples/c-locks/ticket.c for AArch64 with LSE (-march=armv8.1-a) (docs/c-locks.md, "Timing against the same
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
    # mov w1, 1
    mov r17, 1
    # ldadd w1, w1, [x0]
    fadd32 r17, [lock_word], r17
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
