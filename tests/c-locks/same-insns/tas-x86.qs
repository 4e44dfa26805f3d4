# The test-and-set lock as GCC compiles examples/c-locks/tas.c for x86-64 (docs/c-locks.md, "Timing against the same
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
    # movl $1, %edx
    mov r18, 1
    # jmp .L2
    jmp l2
l3:
    # rep nop
    pause
l2:
    # movq %rdx, %rax
    mov r16, r18
    # xchgq (%rdi), %rax
    xchg64 r16, [lock_word], r16
    # testq %rax, %rax
    and r40, r16, r16
    # jne .L3
    bne r40, 0, l3
    # ret
    ret
unlock:
    # movq $0, (%rdi)
    st64 [lock_word], 0
    # ret
    ret
