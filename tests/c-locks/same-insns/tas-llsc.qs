# The test-and-set lock as GCC compiles examples/c-locks/tas.c for AArch64 with LL/SC (-march=armv8-a) (docs/c-locks.md, "Timing against the same
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
    # mov x2, 1
    mov r18, 1
    # b .L2
    jmp l2
l3:
    # yield
    pause
l2:
    # ldaxr x1, [x0]
    ldx64.acq r17, [lock_word]
    # stxr w3, x2, [x0]
    stx64 r19, [lock_word], r18
    # cbnz w3, .L5
    bne r19, 0, l2
    # cbnz x1, .L3
    bne r17, 0, l3
    # ret
    ret
unlock:
    # stlr xzr, [x0]
    st64.rel [lock_word], 0
    # ret
    ret
